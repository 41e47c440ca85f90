//! SkillAudit-style scenarios: a request aimed at a named gap of the agent without the skill, with
//! expectations a judge grades, or, when the writer gives one, a reward script that scores the
//! result in the sandbox (with an optional reference solution; both then face the verifier sanity
//! checks). The gap becomes part of the task's name, so a reviewer sees what each scenario is for.

use crate::items::{each, expectations, filled, Item};
use serde::Deserialize;
use skillscope_tasks::TaskVerifier;

/// A gap longer than this is cut in the task's name.
const GAP_CHARS: usize = 120;

#[derive(Deserialize)]
struct Scenario {
    #[serde(default)]
    gap: String,
    prompt: String,
    #[serde(default)]
    expected_output: Option<String>,
    #[serde(default)]
    expectations: Vec<String>,
    /// A shell script run in the working directory after the agent; its last JSON line is
    /// `{"score": x}`, x in [0, 1].
    #[serde(default)]
    reward_script: Option<String>,
    #[serde(default)]
    solution: Option<String>,
}

pub(crate) fn items(json: serde_json::Value) -> Result<Vec<Item>, String> {
    each(json, "scenarios", |n, s: Scenario| {
        let (gap, instruction) = (s.gap.trim(), s.prompt.trim().to_string());
        if instruction.is_empty() {
            return Err(format!("scenario {n} has no prompt"));
        }
        if gap.is_empty() {
            return Err(format!("scenario {n} names no gap of the agent without the skill"));
        }
        let mut label: String = gap.chars().take(GAP_CHARS).collect();
        if label.len() < gap.len() {
            label.push('…');
        }
        let (verifier, reference_solution) = match filled(s.reward_script) {
            Some(command) => (TaskVerifier::JsonScoreCommand { command }, filled(s.solution)),
            None => (
                TaskVerifier::NeedsJudge {
                    expectations: expectations(n, &s.expectations)?,
                    expected_output: filled(s.expected_output),
                },
                None,
            ),
        };
        Ok(Item { label: Some(label), instruction, verifier, reference_solution })
    })
}
