//! What the queue worker uploads, runs and downloads for a verifier.
//!
//! The worker runs `command` in the task's working directory
//! (`TaskEnvironment::workdir`, else the image's), after the agent finished,
//! with the verifier timeout; then downloads `report_path` if set (absent
//! file → `None`) and calls [`super::score`].

use crate::files::sh_quote;
use crate::model::{TaskVerifier, HARBOR_TESTS_DIR};

/// Where the pytest verifier writes its JUnit XML report.
pub const JUNIT_REPORT_PATH: &str = "/logs/verifier/skillscope-junit.xml";
/// Where the Harbor verifier collects `reward.json` / `reward.txt`.
pub const HARBOR_REPORT_PATH: &str = "/logs/verifier/skillscope-reward";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifierPlan {
    /// `(absolute container path, contents)`, uploaded before `command`.
    pub files_to_upload: Vec<(String, Vec<u8>)>,
    /// argv to run; empty when nothing runs in the container (a judge
    /// verifier, or none).
    pub command: Vec<String>,
    /// Container file to download after `command`.
    pub report_path: Option<String>,
    /// Folders `command` writes outside the workdir (its reports), made before it runs so that
    /// an unprivileged verifier may write them.
    pub output_dirs: Vec<String>,
}

/// Every verifier script runs under the image's `/bin/sh`, never a `sh` looked up on a PATH that
/// may hold folders of the agent's workdir.
fn sh(script: String) -> Vec<String> {
    vec!["/bin/sh".into(), "-c".into(), script]
}

fn join(dir: &str, rel: &str) -> String {
    format!("{}/{}", dir.trim_end_matches('/'), rel)
}

/// The folder of a container path.
fn parent(path: &str) -> String {
    path.rsplit_once('/').map_or(".", |(d, _)| d).to_string()
}

/// Sets `PY` to the first `python3` (else `python`) on the PATH whose folder, symlinks resolved,
/// is neither relative nor inside the working directory: the agent's files never provide the
/// interpreter.
const FIND_PYTHON: &str = r#"W=$(pwd -P); PY=$(IFS=:; for n in python3 python; do for d in $PATH; do
case "$d" in /*) ;; *) continue ;; esac; r=$(cd "$d" 2>/dev/null && pwd -P) || continue;
case "$r/" in "$W"/*) continue ;; esac; if [ -x "$r/$n" ]; then echo "$r/$n"; exit 0; fi; done; done; exit 1)"#;

/// pytest's start in isolated mode (`-I`: no working directory, user site-packages or `PYTHON*`
/// variables on the path), so the interpreter and pytest import their own modules first; then the
/// image's `PYTHONPATH` and the working directory are appended, after the standard library and
/// site-packages, where the tests find the agent's code but it can shadow nothing installed.
const PYTEST_BOOT: &str = "import os, sys, pytest; \
sys.path.extend(p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p); \
sys.path.append(os.getcwd()); sys.exit(pytest.main(sys.argv[1:]))";

/// Runs pytest with a fresh JUnit report at `report`, on the tests in `tests_dir`, treating the
/// working directory as data: the interpreter comes from outside it ([`FIND_PYTHON`]), pytest
/// starts isolated ([`PYTEST_BOOT`]) with test folders appended to the path rather than
/// prepended, reads no configuration file (`-c /dev/null`: `pytest.ini`, `tox.ini`, `setup.cfg`
/// and `pyproject.toml` there, with their options and `-p` plugins, are ignored), and reads and
/// writes bytecode only under a folder made for this run (`pycache_prefix`), never bytecode
/// left beside the sources.
pub(super) fn pytest_script(report: &str, tests_dir: &str, argv: &[String]) -> String {
    let dir = parent(report);
    let quoted: Vec<_> = argv.iter().map(|a| sh_quote(a)).collect();
    format!(
        "mkdir -p {d} && rm -f {r}; {FIND_PYTHON} || {{ echo 'no python3 outside the working directory on the PATH' >&2; exit 4; }}; \
         C=$(mktemp -d) || exit 4; \
         exec \"$PY\" -I -X pycache_prefix=\"$C\" -c {boot} -c /dev/null --rootdir={t} --confcutdir=/ \
         --import-mode=append {args}",
        d = sh_quote(&dir),
        r = sh_quote(report),
        boot = sh_quote(PYTEST_BOOT),
        t = sh_quote(tests_dir.trim_end_matches('/')),
        args = quoted.join(" "),
    )
}

/// Runs `<tests>/test.sh` as Harbor does and collects `reward.json` and
/// `reward.txt` into one framed file at `report`. Reward files left from
/// before (e.g. written by the agent) are removed first.
pub(super) fn harbor_script(logs: &str, tests: &str, report: &str) -> String {
    let v = format!("{logs}/verifier");
    let (json, txt) = (sh_quote(&format!("{v}/reward.json")), sh_quote(&format!("{v}/reward.txt")));
    let t = sh_quote(&format!("{tests}/test.sh"));
    format!(
        "mkdir -p {vq} {aq}; rm -f {txt} {json} {r}; \
         if command -v bash >/dev/null 2>&1; then bash {t}; else sh {t}; fi; rc=$?; \
         {{ if [ -f {json} ]; then echo '--- reward.json'; cat {json}; echo; fi; \
         if [ -f {txt} ]; then echo '--- reward.txt'; cat {txt}; echo; fi; }} > {r}; \
         exit $rc",
        vq = sh_quote(&v),
        aq = sh_quote(&format!("{logs}/agent")),
        r = sh_quote(report),
    )
}

/// Test modules passed to pytest: `test_*.py` / `*_test.py`, else every
/// `.py` file but `conftest.py` (never none, so pytest does not fall back to
/// collecting the whole working directory).
fn test_paths(files: &[(String, Vec<u8>)]) -> Vec<String> {
    let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    let py = || files.iter().map(|(p, _)| p).filter(|p| p.ends_with(".py"));
    let tests: Vec<String> = py()
        .filter(|p| {
            let n = name(p);
            n.starts_with("test_") || n.ends_with("_test.py")
        })
        .cloned()
        .collect();
    if !tests.is_empty() {
        return tests;
    }
    py().filter(|p| name(p) != "conftest.py").cloned().collect()
}

pub fn verifier_plan(v: &TaskVerifier) -> VerifierPlan {
    match v {
        TaskVerifier::Pytest { test_files, args, tests_dir } => {
            let files_to_upload: Vec<_> =
                test_files.iter().map(|f| (join(tests_dir, &f.path), f.contents.clone())).collect();
            let mut argv = vec!["-p".to_string(), "no:cacheprovider".into(), format!("--junitxml={JUNIT_REPORT_PATH}")];
            argv.extend(args.iter().cloned());
            let paths = test_paths(&files_to_upload);
            let script = if paths.is_empty() {
                // Exit 4 is pytest's usage error: scored as a verifier failure.
                "echo 'the pytest verifier has no .py test file' >&2; exit 4".to_string()
            } else {
                argv.extend(paths);
                pytest_script(JUNIT_REPORT_PATH, tests_dir, &argv)
            };
            VerifierPlan {
                files_to_upload,
                command: sh(script),
                report_path: Some(JUNIT_REPORT_PATH.into()),
                output_dirs: vec![parent(JUNIT_REPORT_PATH)],
            }
        }
        TaskVerifier::HarborTests { tests_dir_files } => {
            let files_to_upload =
                tests_dir_files.iter().map(|f| (join(HARBOR_TESTS_DIR, &f.path), f.contents.clone())).collect();
            let script = harbor_script("/logs", HARBOR_TESTS_DIR, HARBOR_REPORT_PATH);
            VerifierPlan {
                files_to_upload,
                command: sh(script),
                report_path: Some(HARBOR_REPORT_PATH.into()),
                output_dirs: vec!["/logs/verifier".into(), "/logs/agent".into()],
            }
        }
        TaskVerifier::JsonScoreCommand { command } | TaskVerifier::ExitCode { command } => VerifierPlan {
            files_to_upload: Vec::new(),
            command: sh(command.clone()),
            report_path: None,
            output_dirs: Vec::new(),
        },
        TaskVerifier::NeedsJudge { .. } | TaskVerifier::Routing { .. } | TaskVerifier::Missing { .. } => VerifierPlan {
            files_to_upload: Vec::new(),
            command: Vec::new(),
            report_path: None,
            output_dirs: Vec::new(),
        },
    }
}
