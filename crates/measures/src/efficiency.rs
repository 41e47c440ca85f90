//! `skill_efficiency`: the mean of routing and tool efficiency.
//! - routing: the expected skill read and no skill outside the allowed ones 1.0; only an allowed
//!   alternate 0.75; a skill that is not allowed read, or none, 0.
//! - tool efficiency: productive calls / all calls; a call is waste when it asks for `--help`,
//!   `--version` or `which`, or installs packages (apt, apt-get, brew, pip, npm). No calls: 1.0.
//!
//! Skipped (1.0) for negative cases and when no skill is expected.

use crate::calls::{command, skill_reads, Call, CallKind};
use crate::{Case, Metric};
use regex::Regex;
use std::sync::LazyLock;

fn routing(calls: &[Call], case: &Case, skill: &str) -> (f64, String) {
    let mut read: Vec<String> = skill_reads(calls).into_iter().map(|r| r.skill).collect();
    read.sort();
    read.dedup();
    let wrong: Vec<&String> = read.iter().filter(|s| *s != skill && !case.allowed.contains(s)).collect();
    if !wrong.is_empty() {
        let names: Vec<&str> = wrong.iter().map(|s| s.as_str()).collect();
        return (0.0, format!("routing 0: read a skill it should not have ({})", names.join(", ")));
    }
    if read.iter().any(|s| s == skill) {
        (1.0, format!("routing 1.0: read {skill}"))
    } else if !read.is_empty() {
        (0.75, "routing 0.75: an allowed alternate skill only".into())
    } else {
        (0.0, "routing 0: no skill read".into())
    }
}

fn tool_efficiency(calls: &[Call]) -> (f64, String) {
    if calls.is_empty() {
        return (1.0, "tool efficiency 1.0: no tool calls".into());
    }
    static WASTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"--help\b|--version\b|\bwhich\s|\b(apt|apt-get|brew|pip3?|npm)\s+install\b").expect("valid")
    });
    let waste = calls.iter().filter(|c| c.kind == CallKind::Exec && WASTE.is_match(&command(c))).count();
    let score = (calls.len() - waste) as f64 / calls.len() as f64;
    (score, format!("tool efficiency {score:.2}: {waste} of {} call(s) wasted", calls.len()))
}

pub(crate) fn score(calls: &[Call], case: &Case) -> Metric {
    let Some(skill) = case.skill.as_deref().filter(|_| case.should_trigger) else {
        return Metric { score: 1.0, evidence: vec!["skipped: a negative case, or no skill expected".into()] };
    };
    let (r, r_why) = routing(calls, case, skill);
    let (t, t_why) = tool_efficiency(calls);
    Metric { score: (r + t) / 2.0, evidence: vec![r_why, t_why] }
}
