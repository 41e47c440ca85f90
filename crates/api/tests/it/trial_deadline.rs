//! The deadline of an attempt over all its phases: a set-up command that never returns (its own
//! limit is 15 minutes) holds its slot only until the trial's deadline, then the attempt is
//! recorded as an infrastructure failure naming the phase it hung in, its container is removed,
//! and the queue serves the next trial.

use crate::common::*;
use skillscope_api::queue::model::{TrialSpec, TrialState};
use skillscope_api::queue::store;
use skillscope_api::Workspace;
use std::time::{Duration, Instant};

#[test]
fn a_hung_set_up_ends_at_the_trials_deadline_and_the_queue_goes_on() {
    let rt = rt();
    let engine = rt.block_on(engine());
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.toml"), "[queue]\nconcurrency = 1\nmax_attempts = 1\ntrial_deadline_secs = 4\n")
        .unwrap();
    let ws = Workspace::open(&home).unwrap();
    let hung = TrialSpec {
        setup: vec!["sleep 900".into()],
        command_timeout_secs: 900,
        ..TrialSpec::command(IMAGE, vec!["true".into()])
    };
    let next = TrialSpec::command(IMAGE, vec!["true".into()]);
    let run = store::create_run(&ws, "deadline", &[("hung".into(), hung), ("next".into(), next)]).unwrap();
    let started = Instant::now();
    let (sink, _) = recorder();
    rt.block_on(drain(&ws, None, sink)).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the hung set-up did not hold the queue: {:?}",
        started.elapsed()
    );
    let trials = store::trials(&ws, run).unwrap();
    let (hung, next) = (&trials[0], &trials[1]);
    assert_eq!(hung.state, TrialState::InfraError, "{}", hung.message);
    assert!(
        hung.message.contains("deadline (4 s over all phases) passed during the environment's preparation"),
        "{}",
        hung.message
    );
    assert_eq!(next.state, TrialState::Passed, "{}", next.message);
    assert_eq!(rt.block_on(leftovers(&engine, &ws)), 0, "the hung trial's container was removed");
}
