//! Validation of an ATIF document given as raw JSON.
//!
//! Two layers, both reported as [`Violation`]s:
//! * [`shape`]: the JSON Schema of ATIF v1.7 (types, required fields,
//!   enums, minimums, no unknown fields), expressed in code;
//! * [`rules`]: the RFC's cross-field rules that the schema cannot express.

mod rules;
mod shape;

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// One broken rule.
///
/// `step` is the 1-based position of the step the violation is about (equal
/// to its `step_id` in a well-formed document), `None` for document-level
/// violations. `rule` names the field or rule, as a path relative to the
/// step (or to the document), prefixed with `subagent_trajectories[i].` for
/// embedded subagents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifViolation")]
pub struct Violation {
    pub step: Option<u64>,
    pub rule: String,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(step) = self.step {
            write!(f, "step {step}: ")?;
        }
        write!(f, "{}: {}", self.rule, self.message)
    }
}

/// Checks `json` against the ATIF v1.7 schema and the RFC's cross-field
/// rules. An empty result means the document is valid. Violations come
/// ordered by step, document-level ones first.
pub fn validate(json: &Value) -> Vec<Violation> {
    let mut violations = shape::check(json);
    violations.extend(rules::check(json));
    violations.sort_by_key(|v| v.step.unwrap_or(0));
    violations
}

/// Where a violation sits: inside which (possibly embedded) trajectory and
/// which step.
#[derive(Clone, Default)]
struct Location {
    /// `""` for the root, `"subagent_trajectories[0]."` and so on below it.
    prefix: String,
    step: Option<u64>,
}

impl Location {
    fn subagent(&self, index: usize) -> Location {
        Location { prefix: format!("{}subagent_trajectories[{index}].", self.prefix), step: None }
    }

    fn step(&self, index: usize) -> Location {
        Location { prefix: self.prefix.clone(), step: Some(index as u64 + 1) }
    }

    fn violation(&self, rule: &str, message: impl Into<String>) -> Violation {
        Violation { step: self.step, rule: format!("{}{rule}", self.prefix), message: message.into() }
    }
}

#[cfg(test)]
mod parity_tests;
