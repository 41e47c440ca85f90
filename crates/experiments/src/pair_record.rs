//! One pair as reviewers' scripts read it (`skillscope experiment pairs <id> --json`): whether it
//! is scored and why not, what the fairness check saw in each arm, and each arm's outcome.

use crate::design::{ArmView, PairView};
use serde::Serialize;
use skillscope_runs::queue::arm_snapshot::ArmSnapshot;
use skillscope_runs::queue::model::TrialState;
use skillscope_tasks::score::CheckOutcome;
use std::collections::BTreeMap;

#[derive(Debug, Serialize)]
pub struct PairRecord {
    pub task: String,
    pub config: String,
    pub condition: &'static str,
    pub repeat: u32,
    pub scored: bool,
    pub excluded: Vec<String>,
    pub fairness: Fairness,
    pub without: ArmOutcome,
    pub with: ArmOutcome,
}

#[derive(Debug, Serialize)]
pub struct Fairness {
    pub ok: bool,
    pub problems: Vec<String>,
    pub without: ArmSeen,
    pub with: ArmSeen,
}

#[derive(Debug, Serialize)]
pub struct ArmSeen {
    /// Every skill the agent could see before it started; None when the arm never got that far.
    pub skills_seen: Option<Vec<String>>,
    /// Each seen entry's tree hash, by container path (a with-arm skill's equals its version's).
    pub tree_sha256: Option<BTreeMap<String, String>>,
    pub snapshot: Option<ArmSnapshot>,
}

#[derive(Debug, Serialize)]
pub struct ArmOutcome {
    pub trial: i64,
    pub score: Option<f64>,
    pub state: TrialState,
    pub error: Option<String>,
    pub checks: Vec<CheckRecord>,
}

#[derive(Debug, Serialize)]
pub struct CheckRecord {
    pub id: String,
    pub outcome: CheckOutcome,
}

impl From<&PairView> for PairRecord {
    fn from(p: &PairView) -> Self {
        let seen = |a: &ArmView| ArmSeen {
            skills_seen: a.skills_listed.clone(),
            tree_sha256: a.skills_seen_sha256.clone(),
            snapshot: a.snapshot.clone(),
        };
        let outcome = |a: &ArmView| ArmOutcome {
            trial: a.trial_id,
            score: a.score,
            state: a.state,
            error: a.error.clone(),
            checks: a.checks.iter().map(|c| CheckRecord { id: c.id.clone(), outcome: c.outcome }).collect(),
        };
        PairRecord {
            task: p.task.clone(),
            config: p.config.clone(),
            condition: p.condition_label(),
            repeat: p.repeat,
            scored: p.excluded.is_empty(),
            excluded: p.excluded.clone(),
            fairness: Fairness {
                ok: p.fairness.is_empty(),
                problems: p.fairness.clone(),
                without: seen(&p.without),
                with: seen(&p.with),
            },
            without: outcome(&p.without),
            with: outcome(&p.with),
        }
    }
}
