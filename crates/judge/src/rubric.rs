//! ACES's two judge rubrics, asked as expectations so that each answer is quote-checked like any
//! grading: `goal_accuracy`, whether the run accomplished the task (1 or 0) — where the task has a
//! reference answer, in the form of RAGAS's `AgentGoalAccuracyWithReference` (ACES's choice with
//! OpenAI judges): whether the outcome the run reached is the one the reference describes — and
//! `accuracy`, five yes/no criteria against the reference answer, scored passed / 5. ACES scores
//! accuracy 1.0 when a task has no reference answer; here it is left out instead, so that it never
//! adds a score nobody judged.

use crate::grading::Graded;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The goal expectation without a reference answer; calibration grades verifier-scored arms on it too.
pub const GOAL: &str = "The run accomplished the task as it was given";
/// The goal expectation with a reference answer, which follows it.
const GOAL_WITH_REFERENCE: &str = "The outcome the run reached is the one this reference describes";

/// ACES's accuracy criteria (SKILL_IDENTIFIED, ACTION_CORRECT, FACTUALLY_ACCURATE, TASK_ADDRESSED,
/// ACTIONABLE), worded for either arm: the without arm has no skill to name, so the first asks for
/// the knowledge or procedure the task needs, wherever it came from.
const CRITERIA: [&str; 5] = [
    "SKILL_IDENTIFIED: The agent identified the knowledge, tool or procedure the task needs",
    "ACTION_CORRECT: The actions the agent took were the right ones for the task",
    "FACTUALLY_ACCURATE: What the run states or produces agrees with the reference answer",
    "TASK_ADDRESSED: The result addresses every part of the task",
    "ACTIONABLE: The result can be used as given, without more work",
];

/// The expectations of the rubric: the goal (against the reference answer when there is one),
/// then the five criteria when there is a reference answer (quoted in the third).
pub fn asked(reference: Option<&str>) -> Vec<String> {
    let goal = reference.map_or(GOAL.to_string(), |r| format!("{GOAL_WITH_REFERENCE}: {r}"));
    let mut out = vec![goal];
    if let Some(reference) = reference {
        out.extend(CRITERIA.iter().map(|c| match c.starts_with("FACTUALLY_ACCURATE") {
            true => format!("{c}: {reference}"),
            false => c.to_string(),
        }));
    }
    out
}

/// An arm's rubric scores in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RubricScores {
    pub goal_accuracy: f64,
    /// None when the task has no reference answer.
    pub accuracy: Option<f64>,
}

/// The scores of a rubric grading (the expectations [`asked`] produced, in order: the goal first).
pub fn scores(graded: &Graded) -> RubricScores {
    let passed = |e: &crate::GradedExpectation| if e.passed { 1.0 } else { 0.0 };
    let (goal, criteria) = match graded.expectations.split_first() {
        Some((goal, criteria)) => (passed(goal), criteria.iter().map(passed).collect()),
        None => (0.0, Vec::new()),
    };
    RubricScores {
        goal_accuracy: goal,
        accuracy: (!criteria.is_empty()).then(|| criteria.iter().sum::<f64>() / criteria.len() as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grading::Grading;

    fn answer(passed: &[bool], evidence: &str) -> String {
        let items: Vec<_> = passed
            .iter()
            .zip(asked(Some("East, 30 per unit")))
            .map(|(p, t)| serde_json::json!({"text": t, "passed": p, "evidence": evidence}))
            .collect();
        serde_json::json!({ "expectations": items }).to_string()
    }

    #[test]
    fn the_goal_is_judged_against_the_reference_when_there_is_one() {
        assert_eq!(asked(None), [GOAL]);
        let with = asked(Some("East, 30 per unit"));
        assert_eq!(with[0], "The outcome the run reached is the one this reference describes: East, 30 per unit");
        assert_eq!(with.len(), 6);
    }

    #[test]
    fn goal_is_one_or_zero_and_accuracy_is_the_share_of_criteria_met() {
        let g = Grading::prepare("Which region?", asked(Some("East, 30 per unit")), "[agent] East: 30".into());
        let s = scores(&g.check_answer(&answer(&[true, true, false, true, true, false], "East: 30")).unwrap());
        assert_eq!(s, RubricScores { goal_accuracy: 1.0, accuracy: Some(0.6) });
        // An invented quote fails its item, the goal included.
        let s = scores(&g.check_answer(&answer(&[true; 6], "West: 12")).unwrap());
        assert_eq!(s, RubricScores { goal_accuracy: 0.0, accuracy: Some(0.0) });
    }

    #[test]
    fn without_a_reference_only_the_goal_is_asked_and_accuracy_is_left_out() {
        assert_eq!(asked(None), [GOAL]);
        assert!(asked(Some("42"))[3].ends_with("reference answer: 42"));
        let g = Grading::prepare("Do it", asked(None), "[agent] done".into());
        let graded =
            g.check_answer(&serde_json::json!({"expectations": [{"passed": true, "evidence": "done"}]}).to_string());
        assert_eq!(scores(&graded.unwrap()), RubricScores { goal_accuracy: 1.0, accuracy: None });
    }
}
