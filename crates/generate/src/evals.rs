//! skill-creator-style eval prompts: each a request with an expected output and expectations a
//! judge grades.

use crate::items::{each, expectations, filled, Item};
use serde::Deserialize;
use skillscope_tasks::TaskVerifier;

#[derive(Deserialize)]
struct Eval {
    prompt: String,
    #[serde(default)]
    expected_output: Option<String>,
    #[serde(default)]
    expectations: Vec<String>,
}

pub(crate) fn items(json: serde_json::Value) -> Result<Vec<Item>, String> {
    each(json, "evals", |n, e: Eval| {
        let instruction = e.prompt.trim().to_string();
        if instruction.is_empty() {
            return Err(format!("task {n} has no prompt"));
        }
        Ok(Item {
            label: None,
            instruction,
            verifier: TaskVerifier::NeedsJudge {
                expectations: expectations(n, &e.expectations)?,
                expected_output: filled(e.expected_output),
            },
            reference_solution: None,
        })
    })
}
