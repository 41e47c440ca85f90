//! Reviewers' verdicts on generated drafts, per task set and task: only approved drafts run.

use crate::error::Result;
use rusqlite::params;
use serde::{Deserialize, Serialize};
use skillscope_store::workspace::Workspace;
use std::collections::HashMap;
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum DraftVerdict {
    Approved,
    Rejected,
}

/// A reviewer's decision on one drafted task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DraftReview {
    pub task_set_id: i64,
    pub task_id: String,
    pub verdict: DraftVerdict,
    pub reviewer: String,
    pub decided_at: String,
}

/// Stores a verdict; a later one on the same task replaces it.
pub fn save(ws: &Workspace, r: &DraftReview) -> Result<()> {
    ws.conn()?.execute(
        "INSERT OR REPLACE INTO draft_reviews(task_set_id, task_id, verdict, reviewer, decided_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![r.task_set_id, r.task_id, serde_json::to_value(r.verdict)?.as_str(), r.reviewer, r.decided_at],
    )?;
    Ok(())
}

/// Withdraws the verdict on a task whose text changed since.
pub fn withdraw(ws: &Workspace, set_id: i64, task_id: &str) -> Result<()> {
    ws.conn()?
        .execute("DELETE FROM draft_reviews WHERE task_set_id = ?1 AND task_id = ?2", params![set_id, task_id])?;
    Ok(())
}

/// The reviews of set `id`, by task id.
pub fn of_set(ws: &Workspace, id: i64) -> Result<HashMap<String, DraftReview>> {
    let conn = ws.conn()?;
    let mut st =
        conn.prepare("SELECT task_id, verdict, reviewer, decided_at FROM draft_reviews WHERE task_set_id = ?1")?;
    let rows: Vec<(String, String, String, String)> =
        st.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?.collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|(task_id, verdict, reviewer, decided_at)| {
            let verdict = serde_json::from_value(serde_json::Value::String(verdict))?;
            Ok((task_id.clone(), DraftReview { task_set_id: id, task_id, verdict, reviewer, decided_at }))
        })
        .collect()
}
