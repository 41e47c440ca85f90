//! A task's own settings reach both arms of its trials: working directory, set-up commands,
//! environment variables, memory and CPU limits, the agent's and the verifier's time limits, the
//! user (unprivileged by default, root when the task asks). The verifier checks each inside the
//! container; a set-up command that fails ends the attempt as an
//! infrastructure error that names it.

use crate::common::*;
use skillscope_api::experiments::{ExperimentTask, PairView, TaskSettings};
use skillscope_api::queue::model::TrialState;
use skillscope_api::Workspace;
use std::collections::BTreeMap;

/// Each check prints what it found when it fails, so a failure says which setting was lost.
const VERIFIER: &str = r#"
test "$PWD" = /srv/task || { echo "workdir $PWD"; exit 1; }
test "$(cat greeting.txt)" = hello || { echo "set-up or env: $(cat greeting.txt)"; exit 1; }
test "$(cat memory.txt)" = 209715200 || { echo "memory $(cat memory.txt)"; exit 1; }
test "$(cat uid.txt)" = "$EXPECTED_UID" && test "$(id -u)" = "$EXPECTED_UID" || { echo "user $(cat uid.txt) $(id -u)"; exit 1; }
cmp -s task.txt answer.txt
"#;

fn run(setup: Vec<String>, run_as_root: bool) -> PairView {
    let rt = rt();
    rt.block_on(engine());
    let server = copying_model_server(&rt);
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.toml"), "[queue]\nmax_attempts = 1\n").unwrap();
    let ws = Workspace::open(&home).unwrap();
    let config = scripted_builtin_agent(&ws, &server.base_url, "sk-task-settings-0000");
    let version =
        import_skill(&ws, tmp.path(), "copier", "---\nname: copier\ndescription: Copies. Use to copy.\n---\n");
    let task = ExperimentTask {
        verifier: vec!["sh".into(), "-c".into(), VERIFIER.into()],
        settings: TaskSettings {
            workdir: Some("/srv/task".into()),
            setup,
            env: BTreeMap::from([
                ("GREETING".to_string(), "hello".to_string()),
                ("EXPECTED_UID".to_string(), if run_as_root { "0" } else { "1000" }.to_string()),
            ]),
            memory_mb: Some(200),
            cpus: Some(0.5),
            agent_timeout_secs: Some(90),
            verifier_timeout_secs: Some(20),
            run_as_root,
        },
        ..copy_task("settings", &tmp.path().join("task"))
    };
    let (pair, _) = run_one_pair(&ws, &rt, version, task, config);
    pair
}

#[test]
fn workdir_setup_env_limits_and_timeouts_reach_both_arms() {
    join_session_keyring();
    let memory = "{ cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes; } > memory.txt";
    for (root, user) in [(false, "1000:1000"), (true, "root")] {
        let setup = vec!["echo \"$GREETING\" > greeting.txt".into(), memory.into(), "id -u > uid.txt".into()];
        let pair = run(setup, root);
        assert!(pair.excluded.is_empty(), "{:?}", pair.excluded);
        for arm in [&pair.without, &pair.with] {
            assert_eq!((arm.state, arm.score), (TrialState::Passed, Some(1.0)), "{arm:?}");
            let snapshot = arm.snapshot.as_ref().unwrap();
            assert_eq!(snapshot.limits.wall_timeout_secs, 90, "the task's agent timeout caps the configuration's");
            assert_eq!(snapshot.user, user, "the snapshot shows who ran");
        }
    }
}

#[test]
fn a_failing_setup_command_is_an_infrastructure_error_that_names_it() {
    join_session_keyring();
    let pair = run(vec!["echo preparing".into(), "echo no data >&2; exit 3".into()], false);
    for arm in [&pair.without, &pair.with] {
        assert_eq!(arm.state, TrialState::InfraError, "{arm:?}");
        let error = arm.error.clone().unwrap_or_default();
        assert!(error.contains("set-up command 2") && error.contains("no data"), "{error}");
    }
    assert!(!pair.excluded.is_empty());
}
