//! An experiment's statistics are computed once per state of its evidence and stored: opening
//! the Results page of a large experiment reads them back instead of reloading every trial. The
//! key is a fingerprint of everything the statistics depend on that can change after the
//! experiment is created: its trials (state, attempt, last update) and their recorded results,
//! its design, the names of its agent configurations (rows are labelled with them), and this
//! build (a new version may compute differently). When it does not hold, the rows (skill ×
//! configuration groups, pooled skills) whose pairs are unchanged are taken from the last
//! computation, and only the others are computed again.

use crate::error::Result;
use rusqlite::{params, OptionalExtension};
use skillscope_stats::RowMemo;
use skillscope_store::workspace::Workspace;

/// The fingerprint of the evidence behind experiment `id`'s statistics.
pub(crate) fn fingerprint(ws: &Workspace, id: i64) -> Result<String> {
    let conn = ws.conn()?;
    let parts: String = conn.query_row(
        "SELECT e.design_json
                || '|' || (SELECT COUNT(*) || ':' || IFNULL(SUM(t.attempt), 0) || ':' || IFNULL(MAX(t.updated_at), '')
                           || ':' || IFNULL(SUM(length(t.state)), 0) FROM trials t WHERE t.run_id = e.run_id)
                || '|' || (SELECT COUNT(*) || ':' || IFNULL(MAX(r.rowid), 0) FROM trial_results r
                           JOIN trials t ON t.id = r.trial_id WHERE t.run_id = e.run_id)
                || '|' || (SELECT COUNT(*) || ':' || IFNULL(MAX(j.rowid), 0) FROM judgements j
                           JOIN trials t ON t.id = j.trial_id WHERE t.run_id = e.run_id)
                || '|' || (SELECT IFNULL(group_concat(a.id || '=' || a.name, ','), '') FROM agent_configs a)
         FROM experiments e WHERE e.id = ?1",
        [id],
        |r| r.get(0),
    )?;
    Ok(skillscope_store::blobs::sha256_hex(format!("{}|{parts}", env!("CARGO_PKG_VERSION")).as_bytes()))
}

/// What is stored for experiment `id`: its statistics if they were computed from `fingerprint`,
/// and the rows of the last computation (for [`skillscope_stats::analyze_with`]) either way. A
/// stored value this build cannot read counts as absent.
pub(crate) fn get<T: serde::de::DeserializeOwned>(
    ws: &Workspace,
    id: i64,
    fingerprint: &str,
) -> Result<(Option<T>, RowMemo)> {
    let row: Option<(String, String, String)> = ws
        .conn()?
        .query_row(
            "SELECT fingerprint, results_json, rows_json FROM experiment_results_cache WHERE experiment_id = ?1",
            params![id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let Some((stored, results, rows)) = row else { return Ok((None, RowMemo::new())) };
    let results = if stored == fingerprint { serde_json::from_str(&results).ok() } else { None };
    Ok((results, serde_json::from_str(&rows).unwrap_or_default()))
}

/// Stores the statistics of experiment `id` computed from `fingerprint`, and their rows.
pub(crate) fn put<T: serde::Serialize>(
    ws: &Workspace,
    id: i64,
    fingerprint: &str,
    results: &T,
    rows: &RowMemo,
) -> Result<()> {
    ws.conn()?.execute(
        "INSERT INTO experiment_results_cache(experiment_id, fingerprint, results_json, rows_json) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(experiment_id) DO UPDATE SET fingerprint = excluded.fingerprint,
             results_json = excluded.results_json, rows_json = excluded.rows_json",
        params![id, fingerprint, serde_json::to_string(results)?, serde_json::to_string(rows)?],
    )?;
    Ok(())
}
