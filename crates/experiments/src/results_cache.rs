//! An experiment's statistics are computed once per state of its evidence and stored: opening
//! the Results page of a large experiment reads them back instead of reloading every trial. The
//! key is a fingerprint of everything the statistics depend on that can change after the
//! experiment is created: its trials (state, attempt, last update) and their recorded results,
//! its design, the names of its agent configurations (rows are labelled with them), and this
//! build (a new version may compute differently).

use crate::error::Result;
use rusqlite::{params, OptionalExtension};
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
                || '|' || (SELECT IFNULL(group_concat(a.id || '=' || a.name, ','), '') FROM agent_configs a)
         FROM experiments e WHERE e.id = ?1",
        [id],
        |r| r.get(0),
    )?;
    Ok(skillscope_store::blobs::sha256_hex(format!("{}|{parts}", env!("CARGO_PKG_VERSION")).as_bytes()))
}

/// The stored statistics of experiment `id` if they were computed from `fingerprint`.
pub(crate) fn get<T: serde::de::DeserializeOwned>(ws: &Workspace, id: i64, fingerprint: &str) -> Result<Option<T>> {
    let json: Option<String> = ws
        .conn()?
        .query_row(
            "SELECT results_json FROM experiment_results_cache WHERE experiment_id = ?1 AND fingerprint = ?2",
            params![id, fingerprint],
            |r| r.get(0),
        )
        .optional()?;
    // A stored value this build cannot read is computed again.
    Ok(json.and_then(|j| serde_json::from_str(&j).ok()))
}

/// Stores the statistics of experiment `id` computed from `fingerprint`.
pub(crate) fn put<T: serde::Serialize>(ws: &Workspace, id: i64, fingerprint: &str, results: &T) -> Result<()> {
    ws.conn()?.execute(
        "INSERT INTO experiment_results_cache(experiment_id, fingerprint, results_json) VALUES (?1, ?2, ?3)
         ON CONFLICT(experiment_id) DO UPDATE SET fingerprint = excluded.fingerprint, results_json = excluded.results_json",
        params![id, fingerprint, serde_json::to_string(results)?],
    )?;
    Ok(())
}
