//! The basis of a verdict on one skill version: the experiments that ran that version
//! (their pairs of that version only, never another version's) and its static scan; and a hash of
//! that evidence's content, frozen into a decision when it is recorded.

use crate::error::{Result, ReviewError};
use serde::{Deserialize, Serialize};
use skillscope_experiments as experiments;
use skillscope_library as library;
use skillscope_library::scans;
use skillscope_store::blobs::sha256_hex;
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

/// Something a decision rests on: an experiment, a static scan, a trial.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct EvidenceLink {
    pub kind: String,
    pub id: i64,
    pub label: String,
}

/// Every experiment that ran `version_id`, newest first, then the version's static scan.
pub fn options(ws: &Workspace, version_id: i64) -> Result<Vec<EvidenceLink>> {
    let v = library::get_version(ws, version_id)?;
    let mut links = Vec::new();
    for e in experiments::list(ws)?.into_iter().filter(|e| e.design.skill_version_ids.contains(&version_id)) {
        let r = experiments::results_for_version(ws, e.id, version_id)?;
        links.push(EvidenceLink {
            kind: "experiment".into(),
            id: e.id,
            label: format!("{} ({} scored pairs of v{})", e.name, r.pairs_scored, v.version),
        });
    }
    links.push(EvidenceLink { kind: "scan".into(), id: version_id, label: format!("static scan of v{}", v.version) });
    Ok(links)
}

/// SHA-256 over what `links` show of `version_id` now: for an experiment, each of the version's
/// pairs (task, configuration, condition, repeat, both arms' states and scores, exclusions); for
/// the scan, its findings and scores. Refuses a link that is not evidence on this version.
pub fn digest(ws: &Workspace, version_id: i64, links: &[EvidenceLink]) -> Result<String> {
    let offered = options(ws, version_id)?;
    let mut sorted: Vec<&EvidenceLink> = links.iter().collect();
    sorted.sort_by(|a, b| (&a.kind, a.id).cmp(&(&b.kind, b.id)));
    sorted.dedup_by(|a, b| a.kind == b.kind && a.id == b.id);
    let mut parts = Vec::new();
    for link in sorted {
        if !offered.iter().any(|o| o.kind == link.kind && o.id == link.id) {
            return Err(ReviewError::InvalidInput(format!(
                "{} {} is not evidence on this version: only experiments that ran it and its own scan are",
                link.kind, link.id
            )));
        }
        let content = match link.kind.as_str() {
            "experiment" => {
                let pairs: Vec<serde_json::Value> = experiments::pairs(ws, link.id)?
                    .into_iter()
                    .filter(|p| p.skill_version_id == version_id)
                    .map(|p| {
                        serde_json::json!([
                            p.task,
                            p.config,
                            p.condition,
                            p.repeat,
                            [p.without.state, p.without.score],
                            [p.with.state, p.with.score],
                            p.excluded
                        ])
                    })
                    .collect();
                serde_json::to_string(&pairs)?
            }
            _ => serde_json::to_string(&scans::report(ws, version_id)?)?,
        };
        parts.push(format!("{} {}\n{content}", link.kind, link.id));
    }
    Ok(sha256_hex(parts.join("\n").as_bytes()))
}
