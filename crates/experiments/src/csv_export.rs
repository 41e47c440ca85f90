//! An experiment's pairs or trials as CSV, one row per pair or per trial (arm), for spreadsheets
//! and notebooks. Scores are the verifier's pass ratios in [0, 1]; a pair's delta is given only
//! when it is scored.

use crate::design::{pairs, ArmView, PairView};
use crate::error::Result;
use serde::{Deserialize, Serialize};
use skillscope_store::workspace::Workspace;
use skillscope_store::IoError;
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CsvTable {
    Pairs,
    Trials,
}

impl CsvTable {
    fn as_str(self) -> &'static str {
        match self {
            CsvTable::Pairs => "pairs",
            CsvTable::Trials => "trials",
        }
    }
}

/// A value's serde name (`"succeeded"`, `"isolated"`).
fn name<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
}

#[derive(Serialize)]
struct PairRow<'a> {
    pair_id: i64,
    skill: &'a str,
    skill_version: u32,
    task: &'a str,
    config: &'a str,
    condition: String,
    repeat: u32,
    scored: bool,
    without_score: Option<f64>,
    with_score: Option<f64>,
    delta: Option<f64>,
    without_state: String,
    with_state: String,
    excluded: String,
    fairness: String,
    ran_with: String,
}

#[derive(Serialize)]
struct TrialRow<'a> {
    trial_id: i64,
    pair_id: i64,
    arm: &'static str,
    skill: &'a str,
    skill_version: u32,
    task: &'a str,
    config: &'a str,
    condition: String,
    repeat: u32,
    state: String,
    score: Option<f64>,
    reruns: u32,
    agent_secs: Option<f64>,
    effective_input_tokens: Option<f64>,
    image_digest: Option<&'a str>,
    error: Option<&'a str>,
}

fn pair_row(p: &PairView) -> PairRow<'_> {
    let scored = p.excluded.is_empty();
    PairRow {
        pair_id: p.id,
        skill: &p.skill,
        skill_version: p.skill_version,
        task: &p.task,
        config: &p.config,
        condition: name(&p.condition),
        repeat: p.repeat,
        scored,
        without_score: p.without.score,
        with_score: p.with.score,
        delta: p.without.score.zip(p.with.score).filter(|_| scored).map(|(without, with)| with - without),
        without_state: name(&p.without.state),
        with_state: name(&p.with.state),
        excluded: p.excluded.join("; "),
        fairness: p.fairness.join("; "),
        ran_with: p.ran_with.join("; "),
    }
}

fn trial_row<'a>(p: &'a PairView, arm: &'static str, a: &'a ArmView) -> TrialRow<'a> {
    TrialRow {
        trial_id: a.trial_id,
        pair_id: p.id,
        arm,
        skill: &p.skill,
        skill_version: p.skill_version,
        task: &p.task,
        config: &p.config,
        condition: name(&p.condition),
        repeat: p.repeat,
        state: name(&a.state),
        score: a.score,
        reruns: a.reruns,
        agent_secs: a.agent_secs,
        effective_input_tokens: a.effective_input_tokens,
        image_digest: a.image_digest.as_deref(),
        error: a.error.as_deref(),
    }
}

/// The experiment's pairs or trials as CSV text with a header row.
pub fn to_csv(ws: &Workspace, experiment_id: i64, table: CsvTable) -> Result<String> {
    let pairs = pairs(ws, experiment_id)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let io = |e: csv::Error| IoError::new("CSV", std::io::Error::other(e));
    for p in &pairs {
        match table {
            CsvTable::Pairs => w.serialize(pair_row(p)).map_err(io)?,
            CsvTable::Trials => {
                w.serialize(trial_row(p, "without", &p.without)).map_err(io)?;
                w.serialize(trial_row(p, "with", &p.with)).map_err(io)?;
            }
        }
    }
    let bytes = w.into_inner().map_err(|e| IoError::new("CSV", std::io::Error::other(e.to_string())))?;
    Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
}

/// Writes the CSV into the workspace's exports folder; returns the file's path.
pub fn export(ws: &Workspace, experiment_id: i64, table: CsvTable) -> Result<String> {
    let text = to_csv(ws, experiment_id, table)?;
    let path = ws.export_path(&format!("experiment-{experiment_id}-{}", table.as_str()), "csv")?;
    std::fs::write(&path, text).map_err(|e| IoError::new(path.display(), e))?;
    Ok(path.display().to_string())
}
