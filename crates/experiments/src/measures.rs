//! ACES's measures over an experiment's scored pairs: the three deterministic runtime metrics of
//! each arm (from its trajectory, `skillscope_measures`), tested with the same paired statistics
//! as pass ratios (so each lift has its 95% CI, p, q and minimum detectable effect); their mean as
//! the composite Skill Lift of the deterministic metrics; pass@k per arm; and, with a judge, the
//! judged metrics (graded expectations, ACES's rubric, the six-metric overall) and its pairwise
//! preference per skill.

use crate::activation::{self, Activation};
use crate::design::{list, pairs, skill_name, ArmView, Condition, PairView};
use crate::error::{ExperimentError, Result};
use crate::preference::{self, PreferenceSummary};
use serde::{Deserialize, Serialize};
use skillscope_judge::preference::Preferred;
use skillscope_measures::{measure, Case, Measures};
use skillscope_runs::trajectories;
use skillscope_stats::Report;
use skillscope_store::workspace::Workspace;
use std::collections::BTreeMap;
use ts_rs::TS;

/// An outcome at or above this counts as a pass for pass@k (ACES's default `pass_threshold`).
pub const PASS_THRESHOLD: f64 = 0.5;

/// How the judged measures are made, said wherever the measures are shown.
pub const JUDGED_METHOD: &str = "With a judge: behavior_check is its graded expectations (pass ratio), on pairs whose tasks have expectations; goal_accuracy (1 or 0: the run accomplished the task; where the task has a reference answer, in the form of RAGAS's AgentGoalAccuracyWithReference, whether the outcome reached is the one the reference describes) and accuracy (five criteria against the task's reference answer, passed / 5; left out where a task has none, which ACES would score 1.0) are its ACES rubric, every verdict quote-checked; each on pairs whose arms were both scored. composite is the mean of the three deterministic metrics; overall is ACES's per-trial mean of all six, on pairs where both arms have all six. preference is the judge's pairwise verdict as a paired measure, on pairs it compared in both orders: the preferred arm scores 1 and the other 0, a tie 0.5 each, so its delta is the net preference for the with arm (share preferred with − share preferred without), tested as any delta";

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct MeasureReport {
    /// `security`, `skill_execution`, `skill_efficiency`, `composite` (their mean); with a judge,
    /// `behavior_check`, `goal_accuracy`, `accuracy`, `overall` (the mean of all six) and
    /// `preference` (the pairwise verdicts as a paired measure: its delta is the net preference).
    pub measure: String,
    /// The paired statistics of the measure (in points: 100 × the [0, 1] score), per skill and
    /// configuration as for pass ratios; each row's delta is that measure's Skill Lift.
    pub report: Report,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PassAtK {
    pub skill: String,
    pub config: String,
    /// Tasks with at least one scored pair.
    pub tasks: u32,
    /// The fewest and most scored repeats of a task (k; equal when every pair was scored).
    pub k_min: u32,
    pub k_max: u32,
    /// Share of tasks where some repeat scored ≥ [`PASS_THRESHOLD`], per arm, and with − without.
    pub without: f64,
    pub with: f64,
    pub lift: f64,
}

/// One arm's measures, for the pair view.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PairMeasures {
    pub pair_id: i64,
    pub without: Measures,
    pub with: Measures,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExperimentMeasures {
    /// The method, named.
    pub method: String,
    pub judged_method: String,
    pub metrics: Vec<MeasureReport>,
    pub pass_at_k: Vec<PassAtK>,
    /// The judge's preferences per skill and configuration (empty without a judge), and how
    /// they are summed up.
    pub preference: Vec<PreferenceSummary>,
    pub preference_method: String,
    /// Activation accuracy per skill and configuration on the routing cases (empty without any).
    pub activation: Vec<Activation>,
    pub activation_method: String,
    pub pairs: Vec<PairMeasures>,
    /// Scored pairs left out because an arm has no stored trajectory, with the reason.
    pub not_measured: Vec<String>,
}

/// The measures a judge gives, by name.
pub const JUDGED_MEASURES: [&str; 5] = ["behavior_check", "goal_accuracy", "accuracy", "overall", "preference"];

/// What a judged measure's delta is called: the net preference for the with arm, or Skill Lift.
pub fn lift_name(measure: &str) -> &'static str {
    if measure == "preference" {
        "net preference"
    } else {
        "Skill Lift"
    }
}

/// One arm's value of a judged measure, if it has one.
type ArmScore = fn(&ArmView) -> Option<f64>;

fn arm_trajectory(ws: &Workspace, trial: i64) -> Result<Option<skillscope_atif::Trajectory>> {
    let Some(last) = trajectories::for_trial(ws, trial)?.pop() else { return Ok(None) };
    Ok(Some(trajectories::get(ws, last.id)?))
}

/// Each scored pair's arms measured; the case names the skill under test and, in the group
/// condition, the decoys as allowed alternates.
fn measured(ws: &Workspace, experiment_id: i64, all: &[PairView]) -> Result<(Vec<PairMeasures>, Vec<String>)> {
    let design = list(ws)?
        .into_iter()
        .find(|e| e.id == experiment_id)
        .ok_or_else(|| ExperimentError::NotFound(format!("no experiment with id {experiment_id}")))?
        .design;
    let decoys: Vec<String> = design.decoy_version_ids.iter().map(|&v| skill_name(ws, v)).collect::<Result<_>>()?;
    let mut names: BTreeMap<i64, String> = BTreeMap::new();
    let (mut out, mut missing) = (Vec::new(), Vec::new());
    for p in all.iter().filter(|p| p.excluded.is_empty()) {
        let name = match names.entry(p.skill_version_id) {
            std::collections::btree_map::Entry::Occupied(e) => e.get().clone(),
            std::collections::btree_map::Entry::Vacant(e) => e.insert(skill_name(ws, p.skill_version_id)?).clone(),
        };
        let case = Case {
            skill: Some(name),
            allowed: if p.condition == Condition::Group { decoys.clone() } else { Vec::new() },
            should_trigger: true,
            expected_script: None,
        };
        match (arm_trajectory(ws, p.without.trial_id)?, arm_trajectory(ws, p.with.trial_id)?) {
            (Some(without), Some(with)) => {
                out.push(PairMeasures { pair_id: p.id, without: measure(&without, &case), with: measure(&with, &case) })
            }
            _ => missing.push(format!("pair #{} ({} · {}): an arm has no stored trajectory", p.id, p.task, p.config)),
        }
    }
    Ok((out, missing))
}

fn pass_at_k(scored: &[&PairView]) -> Vec<PassAtK> {
    let mut groups: BTreeMap<(String, String), BTreeMap<&str, Vec<&PairView>>> = BTreeMap::new();
    for p in scored {
        groups.entry((p.skill.clone(), p.config_label())).or_default().entry(p.task.as_str()).or_default().push(p);
    }
    groups
        .into_iter()
        .map(|((skill, config), tasks)| {
            let passed = |arm: fn(&PairView) -> Option<f64>| {
                tasks.values().filter(|runs| runs.iter().any(|p| arm(p).unwrap_or(0.0) >= PASS_THRESHOLD)).count()
                    as f64
                    / tasks.len() as f64
            };
            let without = passed(|p| p.without.score);
            let with = passed(|p| p.with.score);
            PassAtK {
                skill,
                config,
                tasks: tasks.len() as u32,
                k_min: tasks.values().map(|r| r.len() as u32).min().unwrap_or(0),
                k_max: tasks.values().map(|r| r.len() as u32).max().unwrap_or(0),
                without,
                with,
                lift: with - without,
            }
        })
        .collect()
}

pub fn experiment_measures(ws: &Workspace, experiment_id: i64) -> Result<ExperimentMeasures> {
    let all = pairs(ws, experiment_id)?;
    let (measured, not_measured) = measured(ws, experiment_id, &all)?;
    let by_id: BTreeMap<i64, &PairView> = all.iter().map(|p| (p.id, p)).collect();
    let report = |value: &dyn Fn(&Measures) -> f64| {
        let pairs: Vec<_> =
            measured.iter().map(|m| by_id[&m.pair_id].stats_pair(value(&m.without), value(&m.with))).collect();
        skillscope_stats::analyze(&pairs)
    };
    let mut metrics: Vec<MeasureReport> = ["security", "skill_execution", "skill_efficiency"]
        .into_iter()
        .enumerate()
        .map(|(i, name)| MeasureReport { measure: name.into(), report: report(&|m: &Measures| m.named()[i].1.score) })
        .collect();
    metrics.push(MeasureReport { measure: "composite".into(), report: report(&Measures::composite) });
    let scored: Vec<&PairView> = all.iter().filter(|p| p.excluded.is_empty()).collect();
    let judged: [(&str, ArmScore); 3] = [
        ("behavior_check", |a| a.judgement.as_ref().and_then(|j| j.score())),
        ("goal_accuracy", |a| a.rubric_scores.map(|s| s.goal_accuracy)),
        ("accuracy", |a| a.rubric_scores.and_then(|s| s.accuracy)),
    ];
    for (name, value) in judged {
        let pairs: Vec<_> =
            scored.iter().filter_map(|p| Some(p.stats_pair(value(&p.without)?, value(&p.with)?))).collect();
        if !pairs.is_empty() {
            metrics.push(MeasureReport { measure: name.into(), report: skillscope_stats::analyze(&pairs) });
        }
    }
    let preferred: Vec<_> = scored
        .iter()
        .filter_map(|p| {
            let with = match p.preference.as_ref()?.compared.as_ref()?.preferred {
                Preferred::With => 1.0,
                Preferred::Without => 0.0,
                Preferred::Tie => 0.5,
            };
            Some(p.stats_pair(1.0 - with, with))
        })
        .collect();
    if !preferred.is_empty() {
        metrics.push(MeasureReport { measure: "preference".into(), report: skillscope_stats::analyze(&preferred) });
    }
    // ACES's overall: the six metrics' mean, where an arm has all six.
    let six = |m: &Measures, a: &ArmView| -> Option<f64> {
        let judged: Vec<f64> = judged.iter().map(|(_, value)| value(a)).collect::<Option<_>>()?;
        Some((m.composite() * 3.0 + judged.iter().sum::<f64>()) / 6.0)
    };
    let overall: Vec<_> = measured
        .iter()
        .filter_map(|m| {
            let p = by_id[&m.pair_id];
            Some(p.stats_pair(six(&m.without, &p.without)?, six(&m.with, &p.with)?))
        })
        .collect();
    if !overall.is_empty() {
        metrics.push(MeasureReport { measure: "overall".into(), report: skillscope_stats::analyze(&overall) });
    }
    Ok(ExperimentMeasures {
        method: skillscope_measures::METHOD.into(),
        judged_method: JUDGED_METHOD.into(),
        metrics,
        pass_at_k: pass_at_k(&scored),
        preference: preference::summarise(&all),
        preference_method: preference::METHOD.into(),
        activation: activation::activation(ws, experiment_id, &all)?,
        activation_method: activation::METHOD.into(),
        pairs: measured,
        not_measured,
    })
}
