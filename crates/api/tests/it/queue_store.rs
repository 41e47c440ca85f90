//! The queue's state machine against a real SQLite file: claiming, retries, exactly-once results,
//! recovery after a crash, cancellation.

use skillscope_api::queue::model::*;
use skillscope_api::queue::store::{self, now_ms};
use skillscope_api::Workspace;

fn ws() -> (tempfile::TempDir, Workspace) {
    let t = tempfile::tempdir().unwrap();
    let ws = Workspace::open(t.path().join("home")).unwrap();
    (t, ws)
}

fn spec() -> TrialSpec {
    TrialSpec::command("skillscope/busybox:1", vec!["true".into()])
}

fn result(attempt: u32, outcome: TrialState) -> AttemptResult {
    AttemptResult {
        attempt,
        outcome,
        exit_code: Some(0),
        timed_out: false,
        oom_killed: false,
        stdout: String::new(),
        stderr: String::new(),
        file_changes: serde_json::json!([]),
        error: (outcome == TrialState::InfraError).then(|| "engine went away".into()),
        duration_ms: 1,
        score: None,
        skills_listed: None,
        skills_seen_sha256: None,
        snapshot: None,
        verifier: None,
    }
}

#[test]
fn claims_by_priority_then_age_and_never_twice() {
    let (_t, ws) = ws();
    let run = store::create_run(&ws, "r", &[("a".into(), spec()), ("b".into(), spec()), ("c".into(), spec())]).unwrap();
    let conn = ws.conn().unwrap();
    conn.execute("UPDATE trials SET priority = 5 WHERE label = 'c'", []).unwrap();
    let first = store::claim(&conn, 2).unwrap();
    let labels: Vec<_> = first.iter().map(|c| store::trial(&conn, c.id).unwrap().label).collect();
    assert_eq!(labels, ["a", "c"]);
    assert_eq!(store::claim(&conn, 5).unwrap().len(), 1, "only b is left");
    assert!(store::claim(&conn, 5).unwrap().is_empty());
    assert_eq!(store::status(&ws).unwrap().counts.running, 3);
    assert_eq!(store::runs(&ws).unwrap()[0].id, run);
}

#[test]
fn results_are_written_once_and_infra_failures_retry_with_backoff() {
    let (_t, ws) = ws();
    store::create_run(&ws, "r", &[("a".into(), spec())]).unwrap();
    let mut conn = ws.conn().unwrap();
    let c = store::claim(&conn, 1).unwrap().remove(0);
    assert!(store::record(&mut conn, c.id, &result(1, TrialState::InfraError), 2, 60_000).unwrap());
    let t = store::trial(&conn, c.id).unwrap();
    assert_eq!((t.state, t.attempt), (TrialState::Queued, 2));
    assert!(store::claim(&conn, 1).unwrap().is_empty(), "backoff holds the retry");
    conn.execute("UPDATE trials SET not_before = ?1", [now_ms() - 1]).unwrap();
    let c = store::claim(&conn, 1).unwrap().remove(0);
    assert_eq!(c.attempt, 2);
    assert!(store::record(&mut conn, c.id, &result(2, TrialState::InfraError), 2, 0).unwrap());
    assert_eq!(store::trial(&conn, c.id).unwrap().state, TrialState::InfraError, "out of attempts");
    // A late duplicate write of attempt 2 changes nothing.
    assert!(!store::record(&mut conn, c.id, &result(2, TrialState::Passed), 2, 0).unwrap());
    let rs = store::results(&ws, c.id).unwrap();
    assert_eq!(
        rs.iter().map(|r| (r.attempt, r.outcome)).collect::<Vec<_>>(),
        [(1, TrialState::InfraError), (2, TrialState::InfraError)]
    );
}

#[test]
fn recovery_finishes_recorded_trials_and_requeues_the_rest() {
    let (_t, ws) = ws();
    store::create_run(&ws, "r", &[("a".into(), spec()), ("b".into(), spec())]).unwrap();
    let mut conn = ws.conn().unwrap();
    let claimed = store::claim(&conn, 2).unwrap();
    // Crash after writing a's result but before moving it on: simulate by inserting the row only.
    conn.execute(
        "INSERT INTO trial_results(trial_id, attempt, outcome, recorded_at) VALUES (?1, 1, 'passed', 'x')",
        [claimed[0].id],
    )
    .unwrap();
    let requeued = store::recover(&mut conn, 3).unwrap();
    assert_eq!(requeued, [claimed[1].id]);
    assert_eq!(store::trial(&conn, claimed[0].id).unwrap().state, TrialState::Passed);
    let b = store::trial(&conn, claimed[1].id).unwrap();
    assert_eq!((b.state, b.attempt), (TrialState::Queued, 2));
    let cut = store::results(&ws, b.id).unwrap();
    assert_eq!((cut[0].attempt, cut[0].outcome), (1, TrialState::InfraError), "the cut-off attempt is recorded");
}

#[test]
fn crashes_count_toward_the_attempt_limit() {
    let (_t, ws) = ws();
    store::create_run(&ws, "r", &[("a".into(), spec())]).unwrap();
    let mut conn = ws.conn().unwrap();
    for attempt in 1..=2 {
        let c = store::claim(&conn, 1).unwrap().remove(0);
        assert_eq!(c.attempt, attempt);
        // The worker dies mid-attempt, every time.
        let requeued = store::recover(&mut conn, 2).unwrap();
        assert_eq!(requeued.len(), usize::from(attempt < 2), "attempt {attempt}");
    }
    let t = store::trial(&conn, 1).unwrap();
    assert_eq!(t.state, TrialState::InfraError, "out of attempts after two crashes: {}", t.message);
    assert!(t.message.contains("interrupted"), "{}", t.message);
    assert!(store::claim(&conn, 1).unwrap().is_empty(), "never claimed again");
}

#[test]
fn cancel_wins_over_a_late_result_and_pause_is_persisted() {
    let (_t, ws) = ws();
    let run = store::create_run(&ws, "r", &[("a".into(), spec()), ("b".into(), spec())]).unwrap();
    let mut conn = ws.conn().unwrap();
    let c = store::claim(&conn, 1).unwrap().remove(0);
    assert_eq!(store::cancel_run(&ws, run).unwrap(), 2);
    assert!(!store::record(&mut conn, c.id, &result(1, TrialState::Passed), 3, 0).unwrap());
    assert_eq!(store::trial(&conn, c.id).unwrap().state, TrialState::Cancelled);
    assert_eq!(store::not_running(&conn, &[c.id]).unwrap(), [c.id]);
    store::set_paused(&ws, true).unwrap();
    assert!(store::status(&ws).unwrap().paused);
    store::set_paused(&ws, false).unwrap();
    assert!(!store::status(&ws).unwrap().paused);
}
