//! Queues the verifier sanity checks of a generated task set (see `sanity`): each task whose
//! verifier runs in the sandbox, as its experiments would run it, with no agent: `true` on the
//! untouched environment, or the reference solution, [`REPEATS`] times each.

use crate::error::Result;
use crate::sanity::{label, run_of, REFERENCE, REPEATS, UNTOUCHED};
use crate::task_sets::{self, TaskSetDetail};
use rusqlite::params;
use skillscope_runs::queue::store;
use skillscope_store::workspace::Workspace;

/// Queues the checks of every task of generated set `set` (recorded by `drafts`) whose verifier
/// runs in the sandbox;
/// returns the queue run, or None when no task has such a verifier. A set checked before keeps
/// its run.
pub(crate) fn queue(ws: &Workspace, set: &TaskSetDetail) -> Result<Option<i64>> {
    if let Some(run) = run_of(ws, set.summary.id)? {
        return Ok(Some(run));
    }
    let mut trials = Vec::new();
    for t in set.specs.iter().filter(|t| t.is_deterministic()) {
        let task = task_sets::experiment_task(ws, &set.summary.sha256, t.clone())?;
        let mut cases = vec![(UNTOUCHED, "true".to_string())];
        if let Some(solution) = &t.reference_solution {
            cases.push((REFERENCE, solution.clone()));
        }
        for (case, script) in cases {
            for n in 1..=REPEATS {
                let command = vec!["sh".into(), "-c".into(), script.clone()];
                trials.push((label(&t.id, case, n), crate::design::task_trial(&task, &task.image, command)));
            }
        }
    }
    if trials.is_empty() {
        return Ok(None);
    }
    let run =
        store::create_run(ws, &format!("verifier sanity: {} v{}", set.summary.name, set.summary.version), &trials)?;
    ws.conn()?
        .execute("UPDATE generated_sets SET sanity_run_id = ?2 WHERE task_set_id = ?1", params![set.summary.id, run])?;
    Ok(Some(run))
}
