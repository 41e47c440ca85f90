//! The evidence bundle of a trial, written to a folder: what ran, what the agent did (ATIF), what
//! changed, what it printed, how long each phase took, tokens and cost. Everything passes through
//! the scrubber (stored provider keys, key shapes, local paths) on the way out.

use crate::error::Result;
use crate::queue::store;
use crate::redaction::Scrubber;
use crate::trajectories;
use serde_json::json;
use skillscope_store::workspace::Workspace;
use skillscope_store::IoError;
use std::path::Path;

fn write(dir: &Path, name: &str, mut value: serde_json::Value, r: &Scrubber) -> Result<()> {
    r.json(&mut value);
    let path = dir.join(name);
    Ok(std::fs::write(&path, serde_json::to_string_pretty(&value)?).map_err(|e| IoError::new(path.display(), e))?)
}

/// Writes the bundle of `trial_id` into `dir` (created if missing); returns the files written.
pub fn export(ws: &Workspace, trial_id: i64, dir: &Path) -> Result<Vec<String>> {
    let trial = store::trial(&ws.conn()?, trial_id)?;
    let results = store::results(ws, trial_id)?;
    let trajs = trajectories::for_trial(ws, trial_id)?;
    let r = Scrubber::new(ws)?;
    std::fs::create_dir_all(dir).map_err(|e| IoError::new(dir.display(), e))?;
    let mut files = vec!["trial.json".to_string()];
    write(
        dir,
        "trial.json",
        json!({
            "trial": trial,
            "attempts": results.iter().map(|a| json!({
                "attempt": a.attempt, "outcome": a.outcome, "exit_code": a.exit_code, "timed_out": a.timed_out,
                "oom_killed": a.oom_killed, "error": a.error, "duration_ms": a.duration_ms,
            })).collect::<Vec<_>>(),
            "trajectories": trajs,
        }),
        &r,
    )?;
    for a in &results {
        let name = format!("attempt-{}-output.json", a.attempt);
        write(dir, &name, json!({"stdout": a.stdout, "stderr": a.stderr, "file_changes": a.file_changes}), &r)?;
        files.push(name);
    }
    for t in &trajs {
        let attempt = t.attempt.unwrap_or(0);
        let traj = serde_json::to_value(trajectories::get(ws, t.id)?)?;
        let requests = traj["final_metrics"]["extra"]["model_requests"].clone();
        let name = format!("attempt-{attempt}-trajectory.atif.json");
        write(dir, &name, traj, &r)?;
        files.push(name);
        let name = format!("attempt-{attempt}-model-requests.json");
        write(dir, &name, requests, &r)?;
        files.push(name);
    }
    Ok(files)
}
