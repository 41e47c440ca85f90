//! Long work as persisted jobs: each state change is written to SQLite and handed to a listener
//! (the app forwards it as a typed `job-progress` event). A job left running by a crash is
//! marked failed on the next start, so the UI never shows a job that will not finish.

use rusqlite::params;
use serde::{Deserialize, Serialize};
use skillscope_library::import::{import, Progress};
use skillscope_library::model::{ImportOutcome, ImportRequest};
use skillscope_library::scans;
use skillscope_store::error::{AppError, ErrorCode, Result};
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum JobState {
    Queued,
    Running,
    Succeeded,
    Failed,
}

impl JobState {
    fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Succeeded => "succeeded",
            JobState::Failed => "failed",
        }
    }
    fn parse(s: &str) -> Self {
        match s {
            "queued" => JobState::Queued,
            "running" => JobState::Running,
            "succeeded" => JobState::Succeeded,
            _ => JobState::Failed,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct JobEvent {
    #[ts(type = "number")]
    pub job_id: i64,
    pub kind: String,
    pub state: JobState,
    pub done: u32,
    pub total: u32,
    pub message: String,
    pub error: Option<AppError>,
    pub outcome: Option<ImportOutcome>,
}

pub const IMPORT: &str = "import";

pub fn create(ws: &Workspace, kind: &str, request: &impl Serialize) -> Result<JobEvent> {
    let conn = ws.conn()?;
    let at = now();
    conn.execute(
        "INSERT INTO jobs(kind, state, request_json, created_at, updated_at) VALUES (?1, 'queued', ?2, ?3, ?3)",
        params![kind, serde_json::to_string(request)?, at],
    )?;
    Ok(JobEvent {
        job_id: conn.last_insert_rowid(),
        kind: kind.into(),
        state: JobState::Queued,
        done: 0,
        total: 0,
        message: "Queued".into(),
        error: None,
        outcome: None,
    })
}

fn save(ws: &Workspace, ev: &JobEvent) -> Result<()> {
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

/// Runs an import job to its end, persisting and reporting every step.
pub fn run_import(ws: &Workspace, mut ev: JobEvent, req: &ImportRequest, emit: &dyn Fn(&JobEvent)) -> JobEvent {
    let step = |ev: &JobEvent| {
        // A failed progress write must not abort the import; the final state is retried below.
        let _ = save(ws, ev);
        emit(ev);
    };
    ev.state = JobState::Running;
    step(&ev);
    let result = import(ws, req, &mut |p: Progress| {
        ev.done = p.done;
        ev.total = p.total;
        ev.message = p.message;
        step(&ev);
    });
    match result {
        Ok(outcome) => {
            ev.outcome = Some(outcome);
            // The import is committed; a scan problem is reported without undoing it.
            let scanned = scans::scan_pending(ws, &mut |done, total| {
                ev.done = done;
                ev.total = total;
                ev.message = format!("Scanning {done}/{total}");
                step(&ev);
            });
            let n = ev.outcome.as_ref().map_or(0, |o| o.skills.len());
            match scanned {
                Ok(_) => {
                    ev.state = JobState::Succeeded;
                    ev.message = format!("Imported {n} skill(s)");
                }
                Err(e) => {
                    ev.state = JobState::Failed;
                    ev.message = format!("Imported {n} skill(s), but the static review failed");
                    ev.error = Some(e.context("static review after import"));
                }
            }
        }
        Err(e) => {
            ev.state = JobState::Failed;
            ev.message = "Import failed; nothing was changed".into();
            ev.error = Some(e);
        }
    }
    if let Err(e) = save(ws, &ev) {
        tracing::error!("could not record the end of job {}: {e}", ev.job_id);
    }
    emit(&ev);
    ev
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
                kind: r.get(1)?,
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
