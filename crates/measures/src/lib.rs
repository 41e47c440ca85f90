//! ACES's three deterministic runtime metrics of one trial, computed from its ATIF trajectory
//! (SkillEvaluator `tier3/harbor/templates/eval.py`, as `../shared/reference` summarises it):
//! `security` (a scan of what the agent said, ran and saw), `skill_execution` (activation, script
//! execution, workflow order, error recovery) and `skill_efficiency` (routing, tool efficiency).
//! Each score is in [0, 1] and carries the evidence it rests on. The three judged metrics
//! (accuracy, goal accuracy, behaviour check) need a judge and are not computed here.

mod calls;
mod efficiency;
mod execution;
mod security;

use serde::{Deserialize, Serialize};
use skillscope_atif::Trajectory;
use ts_rs::TS;

/// The method every score here follows; reports name it beside the numbers.
pub const METHOD: &str = "ACES runtime metrics (SkillEvaluator default-v2), deterministic three of six: security, skill_execution, skill_efficiency from the ATIF trajectory";

/// What the trial was for, as the metrics need it.
#[derive(Debug, Clone, Default)]
pub struct Case {
    /// The skill under test; None when the case expects none (metrics that need it score 1.0).
    pub skill: Option<String>,
    /// Other skills the agent may read without routing wrongly: as in ACES's group mode, the skills
    /// present beside it (the group condition's decoys); none in the isolated condition.
    pub allowed: Vec<String>,
    /// False for a negative case (the skill should not be used).
    pub should_trigger: bool,
    /// A script of the skill the case expects to be run (its file name); None: no expectation.
    pub expected_script: Option<String>,
}

/// One metric's score and the evidence behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Metric {
    pub score: f64,
    /// Each check or finding that moved the score, in words.
    pub evidence: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Measures {
    pub security: Metric,
    pub skill_execution: Metric,
    pub skill_efficiency: Metric,
}

impl Measures {
    /// The three metrics by name, in a fixed order.
    pub fn named(&self) -> [(&'static str, &Metric); 3] {
        [
            ("security", &self.security),
            ("skill_execution", &self.skill_execution),
            ("skill_efficiency", &self.skill_efficiency),
        ]
    }

    /// The mean of the three: the deterministic part of ACES's per-trial `overall`.
    pub fn composite(&self) -> f64 {
        self.named().iter().map(|(_, m)| m.score).sum::<f64>() / 3.0
    }
}

/// Whether the run used `skill`: read its SKILL.md (by a skill or file tool, a shell command, or
/// seen in a result) or ran its files; what activation accuracy counts.
pub fn used_skill(trajectory: &Trajectory, skill: &str) -> bool {
    execution::used(&calls::calls(trajectory), skill)
}

/// The three metrics of one trajectory for `case`.
pub fn measure(trajectory: &Trajectory, case: &Case) -> Measures {
    let calls = calls::calls(trajectory);
    Measures {
        security: security::score(trajectory, &calls),
        skill_execution: execution::score(&calls, case),
        skill_efficiency: efficiency::score(&calls, case),
    }
}

#[cfg(test)]
mod tests;
