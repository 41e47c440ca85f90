//! The GitHub Actions recipe (`.github/actions/skillscope-gate`) run locally: its shell steps, in
//! the order action.yml lists them, with the environment a runner gives them (GITHUB_PATH,
//! GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP), on a repository holding a safe and a risky
//! skill. The upload steps are GitHub's own actions and need GitHub; their inputs are checked here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn action_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.github/actions/skillscope-gate").canonicalize().unwrap()
}

struct Runner {
    root: tempfile::TempDir,
}

impl Runner {
    fn file(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// Runs one step's script in the repository checkout, as the runner would.
    fn step(&self, script: &str, env: &[(&str, &str)]) -> Output {
        let added = std::fs::read_to_string(self.file("github_path")).unwrap_or_default();
        let path = added.lines().chain([std::env::var("PATH").unwrap().as_str()]).collect::<Vec<_>>().join(":");
        Command::new("bash")
            .arg(action_dir().join(script))
            .current_dir(self.file("repo"))
            .env("PATH", path)
            .env("GITHUB_ACTION_PATH", action_dir())
            .env("GITHUB_PATH", self.file("github_path"))
            .env("GITHUB_OUTPUT", self.file("github_output"))
            .env("GITHUB_STEP_SUMMARY", self.file("summary.md"))
            .env("RUNNER_TEMP", self.file("runner_temp"))
            .env_remove("SKILLSCOPE_HOME")
            .envs(env.iter().copied())
            .output()
            .unwrap()
    }

    fn outputs(&self) -> BTreeMap<String, String> {
        std::fs::read_to_string(self.file("github_output"))
            .unwrap()
            .lines()
            .filter_map(|l| l.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
            .collect()
    }
}

fn say(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn the_github_action_installs_gates_summarises_and_fails_the_job() {
    // The shell steps action.yml runs, in its order.
    let yml = std::fs::read_to_string(action_dir().join("action.yml")).unwrap();
    let scripts: Vec<&str> = yml
        .lines()
        .filter_map(|l| l.trim().strip_prefix("run: '\"$GITHUB_ACTION_PATH/"))
        .map(|rest| rest.trim_end_matches("\"'"))
        .collect();
    assert_eq!(scripts, ["install.sh", "gate.sh", "verdict.sh"]);
    for output in ["steps.gate.outputs.sarif", "steps.gate.outputs.out", "steps.gate.outputs.exit-code"] {
        assert!(yml.contains(output), "action.yml uses {output}");
    }

    let r = Runner { root: tempfile::tempdir().unwrap() };
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/scan");
    std::fs::create_dir_all(r.file("repo/skills")).unwrap();
    for skill in ["csv-column-profiler", "b2-env-exfil-chain"] {
        let copied = Command::new("cp").arg("-r").arg(fixtures.join(skill)).arg(r.file("repo/skills")).status();
        assert!(copied.unwrap().success());
    }
    // The release tarball's layout (scripts/release_cli.sh): the binary alone.
    let bin = Path::new(env!("CARGO_BIN_EXE_skillscope"));
    let tarball = r.file("skillscope-x86_64-linux-gnu.tar.gz");
    let packed =
        Command::new("tar").arg("-czf").arg(&tarball).arg("-C").arg(bin.parent().unwrap()).arg("skillscope").status();
    assert!(packed.unwrap().success());
    let sum = Command::new("sha256sum").arg(&tarball).output().unwrap();
    let sha = String::from_utf8_lossy(&sum.stdout).split_whitespace().next().unwrap().to_string();
    let url = format!("file://{}", tarball.display());

    let tampered = r.step("install.sh", &[("SKILLSCOPE_URL", &url), ("SKILLSCOPE_SHA256", &"0".repeat(64))]);
    assert!(!tampered.status.success() && say(&tampered).contains("did NOT match"), "{}", say(&tampered));
    assert!(!r.file("github_path").exists(), "and nothing is put on the PATH");
    let installed = r.step("install.sh", &[("SKILLSCOPE_URL", &url), ("SKILLSCOPE_SHA256", &sha)]);
    assert!(installed.status.success(), "{}", say(&installed));
    assert!(say(&installed).contains(concat!("skillscope ", env!("CARGO_PKG_VERSION"))));

    let gated = r.step("gate.sh", &[("SKILLSCOPE_TARGET", "."), ("SKILLSCOPE_OUT", "results")]);
    assert!(gated.status.success(), "the gate step itself succeeds so the uploads run: {}", say(&gated));
    let outputs = r.outputs();
    assert_eq!(outputs["exit-code"], "1", "{}", say(&gated));
    assert_eq!(outputs["sarif"], "results/gate.sarif");
    let summary = std::fs::read_to_string(r.file("summary.md")).unwrap();
    assert!(summary.contains("## Skillscope gate: failed") && summary.contains("1 of 2 skill(s) passed"), "{summary}");
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(r.file("repo/results/gate.sarif")).unwrap()).unwrap();
    let at = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(at["uriBaseId"], "%SRCROOT%");
    assert!(at["uri"].as_str().unwrap().starts_with("skills/b2-env-exfil-chain/"), "relative to the repository: {at}");
    assert!(r.file("repo/results/gate.junit.xml").is_file());

    let verdict = r.step("verdict.sh", &[("GATE_EXIT", &outputs["exit-code"])]);
    assert_eq!(verdict.status.code(), Some(1));
    assert!(say(&verdict).contains("::error title=skillscope gate::the policy failed"));
    assert!(r.step("verdict.sh", &[("GATE_EXIT", "0")]).status.success());
}
