//! The gate's policy: which checks are required and their thresholds, read from TOML over the
//! documented default (`default-policy.toml`).

use crate::error::{GateError, Result};
use serde::{Deserialize, Serialize};
use skillscope_experiments::measures::JUDGED_MEASURES;
use skillscope_scan::Severity;
use std::path::Path;

/// The default policy, as shipped and documented.
pub const DEFAULT: &str = include_str!("../default-policy.toml");

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    pub quality: Quality,
    pub security: Security,
    pub probes: Probes,
    pub evaluation: Evaluation,
    pub decision: Decision,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quality {
    pub required: bool,
    pub min_score: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Security {
    pub required: bool,
    pub min_score: u32,
    pub max_severity: Severity,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probes {
    pub required: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evaluation {
    pub required: bool,
    pub min_delta: f64,
    pub max_q: f64,
    pub fail_on_harm: bool,
    /// An agent configuration (name or id) that runs each skill's own `evals/` before judging.
    #[serde(default)]
    pub run_with: Option<String>,
    pub repeats: u32,
    /// With a judge: the judged measure whose Skill Lift the gate reads (`behavior_check`,
    /// `goal_accuracy`, `accuracy`, `overall`, or `preference`, whose lift is the net preference
    /// for the with arm), and the least lift (points) it accepts; unset: judged measures are
    /// reported, not gated.
    pub judged_measure: String,
    #[serde(default)]
    pub min_judged_lift: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    pub required: bool,
}

impl Default for Policy {
    fn default() -> Self {
        toml::from_str(DEFAULT).expect("the shipped default policy parses")
    }
}

impl Policy {
    /// A policy file's settings over the default: a file names only what it changes; an unknown
    /// key or a wrong type is an error naming the file.
    pub fn parse(text: &str, origin: &str) -> Result<Self> {
        let mut merged: toml::Table = toml::from_str(DEFAULT).expect("the shipped default policy parses");
        let own: toml::Table = toml::from_str(text).map_err(|e| GateError::Policy(format!("{origin}: {e}")))?;
        for (section, value) in own {
            match (merged.get_mut(&section), value) {
                (Some(toml::Value::Table(into)), toml::Value::Table(from)) => into.extend(from),
                (_, value) => {
                    merged.insert(section, value);
                }
            }
        }
        let policy: Policy =
            toml::Value::Table(merged).try_into().map_err(|e| GateError::Policy(format!("{origin}: {e}")))?;
        policy.check(origin)?;
        Ok(policy)
    }

    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GateError::Policy(format!("cannot read the policy {}: {e}", path.display())))?;
        Self::parse(&text, &path.display().to_string())
    }

    fn check(&self, origin: &str) -> Result<()> {
        let bad = |what: &str| Err(GateError::Policy(format!("{origin}: {what}")));
        if !(0.0..=100.0).contains(&self.quality.min_score) {
            return bad("quality.min_score must be within 0–100");
        }
        if self.security.min_score > 100 {
            return bad("security.min_score must be within 0–100");
        }
        if !(-100.0..=100.0).contains(&self.evaluation.min_delta) {
            return bad("evaluation.min_delta must be within −100–100 points");
        }
        if !(0.0..=1.0).contains(&self.evaluation.max_q) {
            return bad("evaluation.max_q must be within 0–1");
        }
        if !JUDGED_MEASURES.contains(&self.evaluation.judged_measure.as_str()) {
            return bad(
                "evaluation.judged_measure must be one of behavior_check, goal_accuracy, accuracy, overall, preference",
            );
        }
        if self.evaluation.min_judged_lift.is_some_and(|l| !(-100.0..=100.0).contains(&l)) {
            return bad("evaluation.min_judged_lift must be within −100–100 points");
        }
        if !(1..=100).contains(&self.evaluation.repeats) {
            return bad("evaluation.repeats must be within 1–100");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_changes_only_what_it_names() {
        let p = Policy::parse("[evaluation]\nrequired = true\n", "p.toml").unwrap();
        assert!(p.evaluation.required);
        assert_eq!(p.evaluation.min_delta, Policy::default().evaluation.min_delta);
        assert_eq!(p.security.min_score, 80);
    }

    #[test]
    fn unknown_keys_wrong_types_and_out_of_range_values_are_refused_with_the_file_named() {
        for (text, says) in [
            ("[security]\nmin_scor = 3\n", "unknown field `min_scor`"),
            ("[quality]\nmin_score = \"high\"\n", "invalid type"),
            ("[evaluation]\nmax_q = 2.0\n", "max_q must be within 0–1"),
            ("[security]\nmax_severity = \"severe\"\n", "unknown variant `severe`"),
            ("[nonsense]\n", "unknown field `nonsense`"),
            ("quality = [", "p.toml"),
        ] {
            let e = Policy::parse(text, "p.toml").unwrap_err().to_string();
            assert!(e.contains("p.toml") && e.contains(says), "{text:?}: {e}");
        }
    }
}
