//! The input unit: one paired trial (without / with the skill).

use serde::{Deserialize, Serialize};

/// One paired trial: the same task run without and with the skill under one
/// configuration. Pass ratios are in `[0, 1]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    pub skill: String,
    pub config: String,
    /// The experimental condition when the design has more than one (e.g. `group`: the skill
    /// among decoys); None for the plain (isolated) run. Group rows are per configuration and
    /// condition; a pooled row takes a task's runs under all its configurations and conditions as
    /// one unit, so it counts the task once.
    #[serde(default)]
    pub condition: Option<String>,
    pub task: String,
    /// Repeat index when a pair is run more than once (run-to-run variance).
    pub repeat: Option<u32>,
    /// Pass ratio without the skill, in `[0, 1]`.
    pub without: f64,
    /// Pass ratio with the skill, in `[0, 1]`.
    pub with: f64,
    /// Agent execution time without / with the skill (any unit, same for both).
    pub time_without: Option<f64>,
    pub time_with: Option<f64>,
    /// Effective input tokens (input − cached) without / with the skill.
    pub tokens_without: Option<f64>,
    pub tokens_with: Option<f64>,
}

impl Pair {
    /// Convenience constructor without repeats, time or tokens.
    pub fn new(skill: &str, config: &str, task: &str, without: f64, with: f64) -> Self {
        Pair {
            skill: skill.to_string(),
            config: config.to_string(),
            condition: None,
            task: task.to_string(),
            repeat: None,
            without,
            with,
            time_without: None,
            time_with: None,
            tokens_without: None,
            tokens_with: None,
        }
    }

    /// The row of a group: the configuration, with its condition when there is one.
    pub fn group_label(&self) -> String {
        match &self.condition {
            Some(c) => format!("{} ({c})", self.config),
            None => self.config.clone(),
        }
    }

    /// Requirement-level delta in points: `d = 100 × (with − without)`.
    pub fn delta(&self) -> f64 {
        100.0 * (self.with - self.without)
    }
}
