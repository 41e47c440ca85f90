//! ATIF trajectories in the workspace: stored gzip-compressed (already redacted), with one index
//! row per step for search. Trials write theirs; files from Harbor or SkillEvaluator are imported.

use crate::error::{AppError, ErrorCode, Result};
use crate::workspace::Workspace;
use crate::now;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use skillscope_atif::{Trajectory, Violation};
use ts_rs::TS;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TrajectorySummary {
    #[ts(type = "number")]
    pub id: i64,
    #[ts(type = "number | null")]
    pub trial_id: Option<i64>,
    pub attempt: Option<u32>,
    pub origin: String,
    pub label: String,
    pub stop_reason: Option<String>,
    #[ts(type = "number")]
    pub input_tokens: u64,
    #[ts(type = "number")]
    pub cached_tokens: u64,
    #[ts(type = "number")]
    pub output_tokens: u64,
    pub cost_usd: Option<f64>,
    pub steps: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ImportedTrajectory {
    #[ts(type = "number")]
    pub id: i64,
    pub violations: Vec<Violation>,
}

pub struct NewTrajectory<'a> {
    pub trial: Option<(i64, u32)>,
    pub origin: &'a str,
    pub label: &'a str,
    pub trajectory: &'a Trajectory,
    pub stop_reason: Option<&'a str>,
}

fn store_error(e: impl std::fmt::Display) -> AppError {
    AppError::new(ErrorCode::Internal, format!("trajectory storage: {e}"))
}

/// Stores a trajectory once (a trial attempt's second write is ignored); returns its id.
pub fn store(conn: &mut Connection, t: NewTrajectory) -> Result<i64> {
    let gz = skillscope_atif::compress(t.trajectory).map_err(store_error)?;
    let fm = t.trajectory.final_metrics.as_ref();
    let tok = |f: fn(&skillscope_atif::FinalMetrics) -> Option<i64>| fm.and_then(f).unwrap_or(0);
    let tx = conn.transaction()?;
    let inserted = tx.execute(
        "INSERT INTO trajectories(trial_id, attempt, origin, label, atif_gz, stop_reason, input_tokens, cached_tokens,
            output_tokens, cost_usd, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
         ON CONFLICT DO NOTHING",
        params![
            t.trial.map(|x| x.0),
            t.trial.map(|x| x.1),
            t.origin,
            t.label,
            gz,
            t.stop_reason,
            tok(|m| m.total_prompt_tokens),
            tok(|m| m.total_cached_tokens),
            tok(|m| m.total_completion_tokens),
            fm.and_then(|m| m.total_cost_usd),
            now()
        ],
    )?;
    if inserted == 0 {
        let (trial, attempt) = t.trial.expect("only trial trajectories are unique");
        return Ok(tx.query_row(
            "SELECT id FROM trajectories WHERE trial_id = ?1 AND attempt = ?2",
            params![trial, attempt],
            |r| r.get(0),
        )?);
    }
    let id = tx.last_insert_rowid();
    {
        let mut ins = tx.prepare(
            "INSERT INTO trajectory_steps(trajectory_id, step_id, source, text, tool_names) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for row in skillscope_atif::index(t.trajectory) {
            ins.execute(params![id, row.step_id as i64, row.source.as_str(), row.text, row.tool_names.join(" ")])?;
        }
    }
    tx.commit()?;
    Ok(id)
}

const SUMMARY_SQL: &str = "SELECT t.id, t.trial_id, t.attempt, t.origin, t.label, t.stop_reason, t.input_tokens,
    t.cached_tokens, t.output_tokens, t.cost_usd, (SELECT COUNT(*) FROM trajectory_steps s WHERE s.trajectory_id = t.id)
    FROM trajectories t";

fn summary(r: &rusqlite::Row) -> rusqlite::Result<TrajectorySummary> {
    Ok(TrajectorySummary {
        id: r.get(0)?,
        trial_id: r.get(1)?,
        attempt: r.get(2)?,
        origin: r.get(3)?,
        label: r.get(4)?,
        stop_reason: r.get(5)?,
        input_tokens: r.get::<_, i64>(6)? as u64,
        cached_tokens: r.get::<_, i64>(7)? as u64,
        output_tokens: r.get::<_, i64>(8)? as u64,
        cost_usd: r.get(9)?,
        steps: r.get(10)?,
    })
}

pub fn list(ws: &Workspace) -> Result<Vec<TrajectorySummary>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(&format!("{SUMMARY_SQL} ORDER BY t.id DESC"))?;
    let rows = st.query_map([], summary)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

pub fn for_trial(ws: &Workspace, trial_id: i64) -> Result<Vec<TrajectorySummary>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(&format!("{SUMMARY_SQL} WHERE t.trial_id = ?1 ORDER BY t.attempt"))?;
    let rows = st.query_map([trial_id], summary)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The full ATIF document.
pub fn get(ws: &Workspace, id: i64) -> Result<Trajectory> {
    let gz: Vec<u8> = ws
        .conn()?
        .query_row("SELECT atif_gz FROM trajectories WHERE id = ?1", [id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| AppError::not_found(format!("no trajectory with id {id}")))?;
    skillscope_atif::decompress(&gz).map_err(store_error)
}

/// Trajectories whose step text or tool names contain `query` (case-insensitive).
pub fn search(ws: &Workspace, query: &str) -> Result<Vec<(i64, u64)>> {
    let conn = ws.conn()?;
    let like = format!("%{}%", query.replace('%', "\\%").replace('_', "\\_"));
    let mut st = conn.prepare(
        "SELECT trajectory_id, step_id FROM trajectory_steps WHERE text LIKE ?1 ESCAPE '\\' OR tool_names LIKE ?1 ESCAPE '\\'
         ORDER BY trajectory_id, step_id LIMIT 500",
    )?;
    let rows = st.query_map([like], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Imports an ATIF file produced elsewhere. Files with violations are kept (and the violations
/// returned); files that are not ATIF at all are refused.
pub fn import_file(ws: &Workspace, path: &std::path::Path) -> Result<(i64, Vec<Violation>)> {
    let imported = skillscope_atif::import_file(path).map_err(|e| AppError::invalid_input(e.to_string()))?;
    let label = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let id = store(
        &mut ws.conn()?,
        NewTrajectory { trial: None, origin: "import", label: &label, trajectory: &imported.trajectory, stop_reason: None },
    )?;
    Ok((id, imported.violations))
}
