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

fn sh(script: String) -> Vec<String> {
    vec!["sh".into(), "-c".into(), script]
}

fn join(dir: &str, rel: &str) -> String {
    format!("{}/{}", dir.trim_end_matches('/'), rel)
}

/// The folder of a container path.
fn parent(path: &str) -> String {
    path.rsplit_once('/').map_or(".", |(d, _)| d).to_string()
}

/// Runs pytest with a fresh JUnit report at `report`.
pub(super) fn pytest_script(report: &str, argv: &[String]) -> String {
    let dir = parent(report);
    let quoted: Vec<_> = argv.iter().map(|a| sh_quote(a)).collect();
    format!(
        "mkdir -p {d} && rm -f {r}; \
         if command -v python3 >/dev/null 2>&1; then PY=python3; else PY=python; fi; \
         exec \"$PY\" -m pytest {args}",
        d = sh_quote(&dir),
        r = sh_quote(report),
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
                pytest_script(JUNIT_REPORT_PATH, &argv)
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
