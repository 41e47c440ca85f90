//! The trial's disk limit holds in every phase that runs code, on the real engine: the set-up,
//! the agent and the verifier (which runs the agent's code) are each stopped once their container
//! holds more than the limit, whether the bytes come from writes (`dd`) or from one allocation
//! (`fallocate`, which grows a file at once). Each writer then sleeps, so a phase that were not
//! watched would end by its time limit instead. (An agent arm's snapshot names what bounded the
//! disk: `pytest_task`.)

use crate::common::*;
use skillscope_api::queue::model::*;
use skillscope_api::Workspace;
use skillscope_sandbox::bootstrap::DEBIAN_PYTHON_TAG;

const DD: &str = "dd if=/dev/zero of=/tmp/fill bs=1M count=160 2>/dev/null; sleep 40";
const FALLOCATE: &str = "fallocate -l 160M /tmp/fill; sleep 40";

fn trial(setup: Option<&str>, command: &str, verifier: Option<&str>) -> TrialSpec {
    let sh = |c: &str| vec!["sh".to_string(), "-c".into(), c.into()];
    TrialSpec {
        limits: TrialLimits { disk_mb: 64, ..TrialLimits::default() },
        setup: setup.map(String::from).into_iter().collect(),
        verifier: Some(sh(verifier.unwrap_or("true"))),
        command_timeout_secs: 120,
        verifier_timeout_secs: 120,
        ..TrialSpec::command(DEBIAN_PYTHON_TAG, sh(command))
    }
}

#[test]
fn the_disk_limit_stops_every_phase() {
    let rt = rt();
    rt.block_on(debian_engine());
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.toml"), "[queue]\nconcurrency = 2\nmax_attempts = 1\n").unwrap();
    let ws = Workspace::open(&home).unwrap();
    let trials = vec![
        ("honest".to_string(), trial(None, "echo done > answer.txt", Some("grep -q done answer.txt"))),
        ("setup dd".into(), trial(Some(DD), "true", None)),
        ("setup fallocate".into(), trial(Some(FALLOCATE), "true", None)),
        ("agent dd".into(), trial(None, DD, None)),
        ("agent fallocate".into(), trial(None, FALLOCATE, None)),
        ("verifier dd".into(), trial(None, "true", Some(DD))),
        ("verifier fallocate".into(), trial(None, "true", Some(FALLOCATE))),
    ];
    let all = run_trials(&ws, &rt, &trials);
    let get = |label: &str| {
        let (state, score, message) = outcome(&ws, &all, label);
        eprintln!("{label:<20} {state:?} {message}");
        (state, message, score)
    };
    let (state, message, _) = get("honest");
    assert_eq!(state, TrialState::Passed, "{message}");
    for how in ["dd", "fallocate"] {
        let (state, message, _) = get(&format!("setup {how}"));
        assert_eq!(state, TrialState::InfraError, "set-up {how}: {message}");
        assert!(message.contains("disk limit"), "set-up {how}: {message}");
        let (state, message, _) = get(&format!("agent {how}"));
        assert_eq!(state, TrialState::AgentError, "agent {how}: {message}");
        assert!(message.contains("disk limit"), "agent {how}: {message}");
        let (state, message, score) = get(&format!("verifier {how}"));
        assert_eq!(state, TrialState::Failed, "verifier {how}: {message}");
        assert!(message.contains("disk limit: the verifier"), "verifier {how}: {message}");
        assert_eq!(score, Some(0.0));
    }
}
