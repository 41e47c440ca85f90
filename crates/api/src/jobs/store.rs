//! Jobs in SQLite: each state change is written, so the newest jobs can be listed after a
//! restart. A job left running by a crash is marked failed on the next start, so the UI never
//! shows a job that will not finish.

use super::model::{JobEvent, JobKind, JobRequest, JobState};
use crate::errors::{AppError, ErrorCode, Result};
use rusqlite::params;
use skillscope_store::now;
use skillscope_store::workspace::Workspace;

/// Stores a new job, queued; returns its first event.
pub fn create(ws: &Workspace, request: &JobRequest) -> Result<JobEvent> {
    let conn = ws.conn()?;
    let at = now();
    let kind = request.kind();
    conn.execute(
        "INSERT INTO jobs(kind, state, request_json, created_at, updated_at) VALUES (?1, 'queued', ?2, ?3, ?3)",
        params![kind.as_str(), serde_json::to_string(request)?, at],
    )?;
    Ok(JobEvent {
        job_id: conn.last_insert_rowid(),
        kind,
        state: JobState::Queued,
        done: 0,
        total: 0,
        message: "Queued".into(),
        error: None,
        outcome: None,
    })
}

pub(crate) fn save(ws: &Workspace, ev: &JobEvent) -> Result<()> {
    ws.conn()?.execute(
        "UPDATE jobs SET state = ?2, done = ?3, total = ?4, message = ?5, error_json = ?6, outcome_json = ?7, updated_at = ?8 WHERE id = ?1",
        params![
            ev.job_id,
            ev.state.as_str(),
            ev.done,
            ev.total,
            ev.message,
            ev.error.as_ref().map(serde_json::to_string).transpose()?,
            ev.outcome.as_ref().map(serde_json::to_string).transpose()?,
            now()
        ],
    )?;
    Ok(())
}

/// Marks jobs that a previous process left unfinished as failed. Returns how many.
pub fn fail_interrupted(ws: &Workspace) -> Result<usize> {
    let err =
        AppError::new(ErrorCode::Internal, "interrupted: the app stopped before this job finished; start it again");
    Ok(ws.conn()?.execute(
        "UPDATE jobs SET state = 'failed', error_json = ?1, message = 'Interrupted', updated_at = ?2 WHERE state IN ('queued', 'running')",
        params![serde_json::to_string(&err)?, now()],
    )?)
}

pub fn recent(ws: &Workspace, limit: u32) -> Result<Vec<JobEvent>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(
        "SELECT id, kind, state, done, total, message, error_json, outcome_json FROM jobs ORDER BY id DESC LIMIT ?1",
    )?;
    let rows = st
        .query_map([limit], |r| {
            Ok(JobEvent {
                job_id: r.get(0)?,
                kind: JobKind::parse(&r.get::<_, String>(1)?).unwrap_or(JobKind::Import),
                state: JobState::parse(&r.get::<_, String>(2)?),
                done: r.get(3)?,
                total: r.get(4)?,
                message: r.get(5)?,
                error: json_opt(r.get(6)?),
                outcome: json_opt(r.get(7)?),
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

fn json_opt<T: serde::de::DeserializeOwned>(s: Option<String>) -> Option<T> {
    s.and_then(|s| serde_json::from_str(&s).ok())
}
