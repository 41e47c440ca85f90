//! The reviewer's decision per skill version: approve, reject or needs work, with a rationale,
//! the reviewer's name, the time and the evidence it rests on (evidence on that version only,
//! hashed as it was when the decision was recorded). The trail is append-only (the database
//! refuses updates and deletes); a newer version of the skill is not covered by older decisions.

use crate::basis;
pub use crate::basis::EvidenceLink;
use crate::error::{Result, ReviewError};
use rusqlite::params;
use serde::{Deserialize, Serialize};
use skillscope_library as library;
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Verdict {
    Approve,
    Reject,
    NeedsWork,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct NewDecision {
    pub version_id: i64,
    pub verdict: Verdict,
    pub rationale: String,
    pub reviewer: String,
    pub evidence: Vec<EvidenceLink>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Decision {
    pub id: i64,
    pub skill_id: i64,
    pub version_id: i64,
    pub version: u32,
    pub sha256: String,
    pub verdict: Verdict,
    pub rationale: String,
    pub reviewer: String,
    pub evidence: Vec<EvidenceLink>,
    /// SHA-256 of the evidence's content when the decision was recorded (see
    /// [`crate::basis::digest`]); None for decisions recorded before it was kept.
    pub evidence_sha256: Option<String>,
    pub decided_at: String,
    /// False once a newer version (another hash) of the skill exists.
    pub covers_latest: bool,
}

pub fn record(ws: &Workspace, d: &NewDecision) -> Result<Decision> {
    if d.rationale.trim().is_empty() {
        return Err(ReviewError::InvalidInput("a decision needs a rationale".into()));
    }
    if d.reviewer.trim().is_empty() {
        return Err(ReviewError::InvalidInput("a decision needs the reviewer's name".into()));
    }
    let v = library::get_version(ws, d.version_id)?;
    let digest = basis::digest(ws, v.id, &d.evidence)?;
    let conn = ws.conn()?;
    conn.execute(
        "INSERT INTO decisions(skill_id, version_id, sha256, verdict, rationale, reviewer, evidence_json, decided_at, evidence_sha256)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            v.skill_id,
            v.id,
            v.sha256,
            serde_json::to_value(d.verdict)?.as_str(),
            d.rationale.trim(),
            d.reviewer.trim(),
            serde_json::to_string(&d.evidence)?,
            now(),
            digest
        ],
    )?;
    let id = conn.last_insert_rowid();
    list(ws, v.skill_id)?
        .into_iter()
        .find(|x| x.id == id)
        .ok_or_else(|| ReviewError::NotFound("the decision just recorded".into()))
}

/// A `decisions` row joined with its version, before the verdict and evidence are parsed.
type DecisionRow = (i64, i64, i64, u32, String, String, String, String, String, String, Option<String>);

/// Every decision on a skill, newest first.
pub fn list(ws: &Workspace, skill_id: i64) -> Result<Vec<Decision>> {
    let latest = library::get_skill(ws, skill_id)?.summary.sha256;
    let conn = ws.conn()?;
    let mut st = conn.prepare(
        "SELECT d.id, d.skill_id, d.version_id, v.version, d.sha256, d.verdict, d.rationale, d.reviewer, d.evidence_json, d.decided_at, d.evidence_sha256
         FROM decisions d JOIN skill_versions v ON v.id = d.version_id WHERE d.skill_id = ?1 ORDER BY d.id DESC",
    )?;
    let rows: Vec<DecisionRow> = st
        .query_map([skill_id], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
                r.get(9)?,
                r.get(10)?,
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(
            |(
                id,
                skill_id,
                version_id,
                version,
                sha256,
                verdict,
                rationale,
                reviewer,
                evidence,
                decided_at,
                digest,
            )| {
                Ok(Decision {
                    id,
                    skill_id,
                    version_id,
                    version,
                    covers_latest: sha256 == latest,
                    sha256,
                    verdict: serde_json::from_value(serde_json::Value::String(verdict))?,
                    rationale,
                    reviewer,
                    evidence: serde_json::from_str(&evidence)?,
                    evidence_sha256: digest,
                    decided_at,
                })
            },
        )
        .collect()
}
