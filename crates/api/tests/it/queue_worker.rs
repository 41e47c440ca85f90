//! The worker against the real Docker engine: outcomes, limits, file changes, cancellation.

use crate::common::*;
use skillscope_api::queue::model::*;
use skillscope_api::queue::store;
use skillscope_api::Workspace;

fn sh(cmd: &str) -> TrialSpec {
    TrialSpec::command(IMAGE, vec!["sh".into(), "-c".into(), cmd.into()])
}

#[test]
fn outcomes_limits_and_file_changes() {
    let rt = rt();
    let engine = rt.block_on(engine());
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("keep.txt"), "one\n").unwrap();
    std::fs::write(work.join("gone.txt"), "bye\n").unwrap();

    let mut slow = sh("sleep 30");
    slow.command_timeout_secs = 1;
    let mut hog = sh("x=a; while :; do x=$x$x; done");
    hog.limits.memory_mb = 16;
    let mut edit = sh("echo two >> keep.txt && rm gone.txt && echo new > made.txt");
    edit.workspace = Some(work.display().to_string());
    let mut verified = sh("echo 42 > answer");
    verified.verifier = Some(vec!["sh".into(), "-c".into(), "grep -q 42 answer".into()]);
    let mut isolated = sh("cat /proc/net/dev | grep -v lo: | grep -c :");
    isolated.verifier = Some(vec!["sh".into(), "-c".into(), "test $(grep -c : /proc/net/dev) -eq 1".into()]);
    let trials = vec![
        ("ok".to_string(), sh("echo hi")),
        ("fails".to_string(), sh("exit 3")),
        ("slow".to_string(), slow),
        ("hog".to_string(), hog),
        ("edit".to_string(), edit),
        ("verified".to_string(), verified),
        ("no-network".to_string(), isolated),
    ];
    let run = store::create_run(&ws, "outcomes", &trials).unwrap();
    let (sink, events) = recorder();
    rt.block_on(drain(&ws, None, sink)).unwrap();

    let by_label = |l: &str| store::trials(&ws, run).unwrap().into_iter().find(|t| t.label == l).unwrap();
    let result = |l: &str| store::results(&ws, by_label(l).id).unwrap().pop().unwrap();
    assert_eq!(by_label("ok").state, TrialState::Passed);
    assert!(result("ok").stdout.contains("hi"));
    assert_eq!(by_label("fails").state, TrialState::Failed);
    assert_eq!(result("fails").exit_code, Some(3));
    let slow = by_label("slow");
    assert_eq!(slow.state, TrialState::AgentError, "{}", slow.message);
    assert!(result("slow").timed_out && slow.message.contains("time limit"));
    let hog = by_label("hog");
    assert_eq!(hog.state, TrialState::AgentError, "{}", hog.message);
    assert!(hog.message.contains("memory"), "{}", hog.message);
    assert_eq!(by_label("verified").state, TrialState::Passed);
    assert_eq!(by_label("no-network").state, TrialState::Passed, "only the loopback interface exists");

    let changes = result("edit").file_changes;
    let kinds: Vec<(String, String)> = changes
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["path"].as_str().unwrap().to_string(), c["kind"].as_str().unwrap().to_string()))
        .collect();
    assert!(kinds.contains(&("made.txt".into(), "created".into())), "{kinds:?}");
    assert!(kinds.contains(&("keep.txt".into(), "modified".into())), "{kinds:?}");
    assert!(kinds.contains(&("gone.txt".into(), "deleted".into())), "{kinds:?}");

    let ok = by_label("ok");
    assert!(ok.image_digest.as_deref().is_some_and(|d| d.starts_with("sha256:")));
    assert!(ok.phases.env_started_at.is_some() && ok.phases.agent_finished_at.is_some());
    let evs = events.lock().unwrap();
    assert!(evs.iter().any(|e| matches!(e, QueueEvent::Log { text, .. } if text.contains("hi"))));
    assert!(evs.iter().any(|e| matches!(e, QueueEvent::Trial { trial } if trial.state == TrialState::Passed)));
    drop(evs);
    assert_eq!(rt.block_on(leftovers(&engine, &ws)), 0, "every container is removed");
}

#[test]
fn cancel_stops_a_running_trial_and_removes_its_container() {
    let rt = rt();
    let engine = rt.block_on(engine());
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let run =
        store::create_run(&ws, "cancel", &[("long".into(), sh("sleep 60")), ("later".into(), sh("true"))]).unwrap();
    let ws2 = ws.clone();
    let canceller = std::thread::spawn(move || {
        // Wait until the long trial runs, then cancel the whole run.
        for _ in 0..200 {
            let t = store::trials(&ws2, run).unwrap();
            if t[0].phases.agent_started_at.is_some() {
                return store::cancel_run(&ws2, run).unwrap();
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        panic!("the trial never started");
    });
    let started = std::time::Instant::now();
    let (sink, _) = recorder();
    rt.block_on(drain(&ws, None, sink)).unwrap();
    assert!(canceller.join().unwrap() >= 1);
    assert!(started.elapsed().as_secs() < 40, "cancel did not wait for the 60 s command");
    assert_eq!(store::trials(&ws, run).unwrap()[0].state, TrialState::Cancelled);
    assert_eq!(rt.block_on(leftovers(&engine, &ws)), 0);
}

#[test]
fn a_missing_image_is_an_infrastructure_error_that_says_how_to_prepare_it() {
    let rt = rt();
    rt.block_on(engine());
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("config.toml"), "[queue]\nmax_attempts = 1\n").unwrap();
    let ws = Workspace::open(tmp.path()).unwrap();
    let missing = TrialSpec::command("skillscope-test/never-built:1", vec!["true".into()]);
    let run = store::create_run(&ws, "missing image", &[("missing".to_string(), missing)]).unwrap();
    let (sink, _) = recorder();
    rt.block_on(drain(&ws, None, sink)).unwrap();
    let t = store::trials(&ws, run).unwrap().pop().unwrap();
    assert_eq!(t.state, TrialState::InfraError, "not the agent's failure: {}", t.message);
    assert!(t.message.contains("skillscope-test/never-built:1"), "names the image: {}", t.message);
    assert!(t.message.contains("skillscope image bootstrap"), "says how to prepare it: {}", t.message);
}
