//! Activation accuracy: on routing cases (trigger evals, each saying whether the skill should be
//! used), did the agent use the skill under test when it should, and leave it alone when it
//! should not? Counted on the with arm of each pair, where the skill is present (beside the group
//! condition's decoys); every count keeps the trials behind it.

use crate::design::{ArmView, PairView};
use crate::error::Result;
use serde::{Deserialize, Serialize};
use skillscope_runs::queue::model::TrialState;
use skillscope_runs::trajectories;
use skillscope_stats::proportion::Share;
use skillscope_store::workspace::Workspace;
use std::collections::BTreeMap;
use ts_rs::TS;

/// How activation accuracy is counted, said wherever it is shown.
pub const METHOD: &str = "activation accuracy on routing cases (trigger evals): the with arm counts as activated when it read the skill's SKILL.md (by a skill or file tool, a shell command, or seen in a result) or ran its files; a should-trigger case activated is a true positive, left alone a false negative; a should-not case activated is a false positive, left alone a true negative. Accuracy = (TP + TN) / all, precision = TP / (TP + FP), recall = TP / (TP + FN), false-activation rate = FP / (FP + TN), each with its 95% Wilson score interval. The without arm is not counted (it has no skill to use); arms that did not finish or left no trajectory are left out";

/// One with arm as counted.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ActivationTrial {
    pub pair_id: i64,
    pub trial_id: i64,
    pub task: String,
    pub should_trigger: bool,
    pub activated: bool,
}

/// Activation accuracy of one skill with one configuration (and condition).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Activation {
    pub skill: String,
    pub config: String,
    pub true_positives: u32,
    pub false_positives: u32,
    pub false_negatives: u32,
    pub true_negatives: u32,
    /// The routing cases decided right: (TP + TN) / all.
    pub accuracy: Share,
    pub precision: Share,
    pub recall: Share,
    pub false_activation_rate: Share,
    /// The trials behind each count.
    pub trials: Vec<ActivationTrial>,
    /// Routing arms left out (unfinished, or no trajectory), with why.
    pub left_out: Vec<String>,
}

fn counted(trials: Vec<ActivationTrial>, left_out: Vec<String>, skill: String, config: String) -> Activation {
    let count = |should: bool, used: bool| {
        trials.iter().filter(|t| t.should_trigger == should && t.activated == used).count() as u32
    };
    let (tp, fp, fn_, tn) = (count(true, true), count(false, true), count(true, false), count(false, false));
    Activation {
        skill,
        config,
        true_positives: tp,
        false_positives: fp,
        false_negatives: fn_,
        true_negatives: tn,
        accuracy: Share::of(tp + tn, tp + fp + fn_ + tn),
        precision: Share::of(tp, tp + fp),
        recall: Share::of(tp, tp + fn_),
        false_activation_rate: Share::of(fp, fp + tn),
        trials,
        left_out,
    }
}

/// Whether the with arm used the skill; Err says why it cannot be counted.
fn activated(ws: &Workspace, arm: &ArmView, skill: &str) -> Result<std::result::Result<bool, String>> {
    if !matches!(arm.state, TrialState::Passed | TrialState::Failed | TrialState::AgentError) {
        return Ok(Err("the with arm did not finish".into()));
    }
    let attempt = arm.reruns + 1;
    let Some(stored) = trajectories::for_trial(ws, arm.trial_id)?.into_iter().find(|t| t.attempt == Some(attempt))
    else {
        return Ok(Err("the with arm left no trajectory".into()));
    };
    Ok(Ok(skillscope_measures::used_skill(&trajectories::get(ws, stored.id)?, skill)))
}

/// Activation accuracy per skill and configuration over the experiment's routing cases; empty
/// when it has none.
pub fn activation(ws: &Workspace, experiment_id: i64, all: &[PairView]) -> Result<Vec<Activation>> {
    let design = crate::design::design(ws, experiment_id)?;
    type Group = (Vec<ActivationTrial>, Vec<String>);
    let mut groups: BTreeMap<(String, String), Group> = BTreeMap::new();
    for p in all {
        let Some(should_trigger) = design.tasks.iter().find(|t| t.id == p.task).and_then(|t| t.routing()) else {
            continue;
        };
        // The skill's own name: a version suffix (`name v2`) is not part of its folder.
        let name = crate::design::skill_name(ws, p.skill_version_id)?;
        let group = groups.entry((p.skill.clone(), p.config_label())).or_default();
        match activated(ws, &p.with, &name)? {
            Ok(activated) => group.0.push(ActivationTrial {
                pair_id: p.id,
                trial_id: p.with.trial_id,
                task: p.task.clone(),
                should_trigger,
                activated,
            }),
            Err(why) => group.1.push(format!("pair #{} ({}): {why}", p.id, p.task)),
        }
    }
    Ok(groups
        .into_iter()
        .map(|((skill, config), (trials, left_out))| counted(trials, left_out, skill, config))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trial(should_trigger: bool, activated: bool) -> ActivationTrial {
        ActivationTrial { pair_id: 1, trial_id: 1, task: "t".into(), should_trigger, activated }
    }

    #[test]
    fn counts_give_precision_recall_and_false_activations_with_their_intervals() {
        let trials = vec![
            trial(true, true),
            trial(true, true),
            trial(true, false),
            trial(false, true),
            trial(false, false),
            trial(false, false),
        ];
        let a = counted(trials, Vec::new(), "s".into(), "c".into());
        assert_eq!((a.true_positives, a.false_positives, a.false_negatives, a.true_negatives), (2, 1, 1, 2));
        assert_eq!((a.precision.k, a.precision.n, a.recall.n, a.false_activation_rate.k), (2, 3, 3, 1));
        assert_eq!((a.accuracy.k, a.accuracy.n), (4, 6));
        assert!((a.false_activation_rate.rate.unwrap() - 1.0 / 3.0).abs() < 1e-12);
        // Wilson's 95% interval of 2/3.
        assert!(
            (a.precision.ci_low.unwrap() - 0.2077).abs() < 1e-3 && (a.precision.ci_high.unwrap() - 0.9385).abs() < 1e-3
        );
        // No negative case: no false-activation rate, not 0.
        let a = counted(vec![trial(true, true)], Vec::new(), "s".into(), "c".into());
        assert_eq!((a.false_activation_rate.n, a.false_activation_rate.rate), (0, None));
    }
}
