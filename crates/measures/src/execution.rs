//! `skill_execution`. A positive case scores the mean of four checks:
//! - activation: the skill's SKILL.md read through a skill or file tool 1.0; by a shell command,
//!   or only seen in a result, 0.75; an allowed alternate skill 0.75; else 0;
//! - script execution: the expected script in a command 1.0, only in a result 0.75, else 0 (1.0
//!   when none is expected);
//! - workflow order: the skill read before any command runs its files 1.0, read and nothing run
//!   1.0, run before read (or not used at all) 0;
//! - error recovery: failed commands not corrected within the next 5 calls by a successful
//!   command of the same program are faults; a fault whose output says something is missing (not
//!   found, no such file, ModuleNotFound, config) is the skill's, else the agent's; none 1.0, else
//!   `max(0, 1 − 0.25·skill faults)` when the skill has any, else `max(0.5, 1 − 0.1·agent faults)`.
//!
//! A negative case scores 1.0 unless the agent read or ran the skill (0.0). No expected skill:
//! 1.0 (skipped). No tool calls: 0.0.

use crate::calls::{command, skill_reads, Call, CallKind};
use crate::{Case, Metric};
use regex::Regex;
use std::sync::LazyLock;

/// Where a command runs the skill's own files.
fn runs_skill(c: &Call, skill: &str) -> bool {
    let cmd = command(c);
    c.kind == CallKind::Exec && cmd.contains(&format!("{skill}/")) && !cmd.contains("SKILL.md")
}

/// Whether the agent read the skill's SKILL.md (by any tool, or saw it in a result) or ran its files.
pub(crate) fn used(calls: &[Call], skill: &str) -> bool {
    skill_reads(calls).iter().any(|r| r.skill == skill) || calls.iter().any(|c| runs_skill(c, skill))
}

fn activation(calls: &[Call], case: &Case, skill: &str) -> (f64, Option<usize>, String) {
    let reads = skill_reads(calls);
    let own = reads.iter().filter(|r| r.skill == skill).max_by(|a, b| a.level.total_cmp(&b.level));
    let first = reads.iter().find(|r| r.skill == skill).map(|r| r.call);
    match own {
        Some(r) => {
            (r.level, first, format!("activation {:.2}: {skill}'s SKILL.md read at call {}", r.level, r.call + 1))
        }
        None if reads.iter().any(|r| case.allowed.contains(&r.skill)) => {
            (0.75, None, "activation 0.75: an allowed alternate skill read instead".into())
        }
        None => (0.0, None, format!("activation 0: {skill}'s SKILL.md never read")),
    }
}

fn script_execution(calls: &[Call], case: &Case) -> (f64, String) {
    let Some(script) = &case.expected_script else { return (1.0, "script execution 1.0: no script expected".into()) };
    if let Some(i) = calls.iter().position(|c| c.kind == CallKind::Exec && command(c).contains(script.as_str())) {
        (1.0, format!("script execution 1.0: {script} run at call {}", i + 1))
    } else if calls.iter().any(|c| c.observation.contains(script.as_str())) {
        (0.75, format!("script execution 0.75: {script} only seen in a result"))
    } else {
        (0.0, format!("script execution 0: {script} never run"))
    }
}

fn workflow_order(calls: &[Call], skill: &str, first_read: Option<usize>) -> (f64, String) {
    let first_run = calls.iter().position(|c| runs_skill(c, skill));
    match (first_read, first_run) {
        (Some(r), Some(x)) if r < x => {
            (1.0, format!("workflow order 1.0: read at call {}, run at call {}", r + 1, x + 1))
        }
        (Some(_), None) => (1.0, "workflow order 1.0: read, nothing of it run".into()),
        (_, Some(x)) => (0.0, format!("workflow order 0: its files run at call {} before it was read", x + 1)),
        (None, None) => (0.0, "workflow order 0: the skill was not used".into()),
    }
}

fn program(c: &Call) -> String {
    command(c).split_whitespace().next().unwrap_or_default().to_string()
}

fn error_recovery(calls: &[Call]) -> (f64, String) {
    static MISSING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)not found|no such file|missing|ModuleNotFound|ImportError|config").expect("valid")
    });
    let (mut skill_faults, mut agent_faults, mut corrected) = (0u32, 0u32, 0u32);
    for (i, c) in calls.iter().enumerate().filter(|(_, c)| c.kind == CallKind::Exec && c.failed) {
        let fixed =
            calls[i + 1..].iter().take(5).any(|n| n.kind == CallKind::Exec && !n.failed && program(n) == program(c));
        match (fixed, MISSING.is_match(&c.observation)) {
            (true, _) => corrected += 1,
            (false, true) => skill_faults += 1,
            (false, false) => agent_faults += 1,
        }
    }
    let score = match (skill_faults, agent_faults) {
        (0, 0) => 1.0,
        (0, a) => (1.0 - 0.1 * f64::from(a)).max(0.5),
        (s, _) => (1.0 - 0.25 * f64::from(s)).max(0.0),
    };
    (score, format!("error recovery {score:.2}: {corrected} corrected, {skill_faults} skill fault(s), {agent_faults} agent fault(s)"))
}

pub(crate) fn score(calls: &[Call], case: &Case) -> Metric {
    let Some(skill) = case.skill.as_deref() else {
        return Metric { score: 1.0, evidence: vec!["skipped: the case expects no skill".into()] };
    };
    if calls.is_empty() {
        return Metric { score: 0.0, evidence: vec!["no tool calls".into()] };
    }
    if !case.should_trigger {
        let used = used(calls, skill);
        return Metric {
            score: if used { 0.0 } else { 1.0 },
            evidence: vec![format!("negative case: {skill} {}", if used { "was used" } else { "was left alone" })],
        };
    }
    let (a, first_read, a_why) = activation(calls, case, skill);
    let (s, s_why) = script_execution(calls, case);
    let (w, w_why) = workflow_order(calls, skill, first_read);
    let (e, e_why) = error_recovery(calls);
    Metric { score: (a + s + w + e) / 4.0, evidence: vec![a_why, s_why, w_why, e_why] }
}
