//! Reliability: SIGKILL the queue's process mid-run, restart it, and every trial still finishes
//! exactly once with no container left behind.

use skillscope_api::queue::model::{TrialSpec, TrialState};
use skillscope_api::queue::{store, worker};
use skillscope_api::Workspace;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TRIALS: usize = 20;

fn work(home: &std::path::Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .arg("--home")
        .arg(home)
        .args(["queue", "work"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn managed_containers(label: &str) -> usize {
    let out = Command::new("docker")
        .args(["ps", "-aq", "--filter", &format!("label=skillscope.workspace={label}")])
        .output()
        .expect("docker CLI");
    String::from_utf8_lossy(&out.stdout).lines().count()
}

#[test]
fn sigkill_mid_run_then_restart_finishes_every_trial_exactly_once() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let ws = Workspace::open(&home).unwrap();
    let bootstrap =
        Command::new(env!("CARGO_BIN_EXE_skillscope")).args(["image", "bootstrap", "--busybox-only"]).output().unwrap();
    assert!(bootstrap.status.success(), "{}", String::from_utf8_lossy(&bootstrap.stderr));
    let spec = TrialSpec::command("skillscope/busybox:1", vec!["sh".into(), "-c".into(), "sleep 1; echo done".into()]);
    let trials: Vec<_> = (0..TRIALS).map(|i| (format!("t{i}"), spec.clone())).collect();
    let run = store::create_run(&ws, "crash", &trials).unwrap();

    let mut first = work(&home);
    let deadline = Instant::now() + Duration::from_secs(120);
    // Kill while some trials are done and others are running.
    loop {
        let c = store::status(&ws).unwrap().counts;
        if c.passed >= 3 && c.running > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the queue made no progress: {c:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
    first.kill().unwrap(); // SIGKILL
    first.wait().unwrap();
    let killed_running = store::status(&ws).unwrap().counts.running;
    assert!(killed_running > 0, "trials were left marked running by the killed process");

    let mut second = work(&home);
    let status = second.wait().unwrap();
    assert!(status.success());

    let done = store::trials(&ws, run).unwrap();
    assert_eq!(done.len(), TRIALS);
    for t in &done {
        assert_eq!(t.state, TrialState::Passed, "{}: {}", t.label, t.message);
        let results = store::results(&ws, t.id).unwrap();
        let passed = results.iter().filter(|r| r.outcome == TrialState::Passed).count();
        assert_eq!(passed, 1, "{} has {} passing results", t.label, passed);
    }
    assert!(done.iter().any(|t| t.attempt > 1), "the interrupted trials were re-run as new attempts");
    assert_eq!(managed_containers(&worker::workspace_label(&ws)), 0, "no container is left behind");
}
