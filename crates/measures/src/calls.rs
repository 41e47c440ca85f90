//! Tool calls flattened from the agent's steps: what was called, with what, and what came back.

use regex::Regex;
use skillscope_atif::{StepSource, Trajectory};
use std::sync::LazyLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CallKind {
    /// Runs a command (bash, a shell, Codex's exec).
    Exec,
    /// Reads a file (read_file, Read, view).
    Read,
    /// A harness's own skill tool (Claude Code's and OpenCode's `Skill`).
    Skill,
    Other,
}

#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub kind: CallKind,
    pub function: String,
    /// The arguments as JSON text.
    pub input: String,
    /// Every result answering this call, joined.
    pub observation: String,
    /// The skill a harness's converter marked this call as reading (`extra.skill_read`).
    pub skill_read: Option<String>,
    /// The command failed: the result says so (`extra.is_error`, or a non-zero exit code or a
    /// kill in the text the sandbox writes).
    pub failed: bool,
}

fn kind(function: &str) -> CallKind {
    let f = function.to_ascii_lowercase();
    if f == "skill" {
        CallKind::Skill
    } else if ["bash", "shell", "exec"].iter().any(|k| f.contains(k)) {
        CallKind::Exec
    } else if ["read", "view", "cat"].iter().any(|k| f.contains(k)) {
        CallKind::Read
    } else {
        CallKind::Other
    }
}

/// True when a command's output says it failed, as the sandbox and the harnesses write it.
fn failed_text(text: &str) -> bool {
    static CODE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\[exit code (\d+)\]|exit code[: ]+(\d+)|exited with code (\d+)").expect("valid")
    });
    let nonzero = CODE.captures_iter(text).any(|c| c.iter().skip(1).flatten().any(|m| m.as_str() != "0"));
    nonzero || text.starts_with("[killed:")
}

pub(crate) fn calls(trajectory: &Trajectory) -> Vec<Call> {
    let mut out = Vec::new();
    for step in trajectory.steps.iter().filter(|s| s.source == StepSource::Agent) {
        let results = step.observation.as_ref().map(|o| o.results.as_slice()).unwrap_or_default();
        for call in step.tool_calls.iter().flatten() {
            let answers: Vec<_> =
                results.iter().filter(|r| r.source_call_id.as_deref() == Some(call.tool_call_id.as_str())).collect();
            let observation =
                answers.iter().filter_map(|r| r.content.as_ref().map(|c| c.text())).collect::<Vec<_>>().join("\n");
            let marked_error = answers
                .iter()
                .any(|r| r.extra.as_ref().and_then(|e| e.get("is_error")).and_then(|v| v.as_bool()) == Some(true));
            let kind = kind(&call.function_name);
            out.push(Call {
                kind,
                function: call.function_name.clone(),
                input: serde_json::Value::Object(call.arguments.clone()).to_string(),
                failed: marked_error || (kind == CallKind::Exec && failed_text(&observation)),
                observation,
                skill_read: call
                    .extra
                    .as_ref()
                    .and_then(|e| e.get("skill_read"))
                    .and_then(|v| v.as_str())
                    .map(String::from),
            });
        }
    }
    out
}

/// A call that read (or showed) a skill's SKILL.md, and how directly: 1.0 through a skill or file
/// tool, 0.75 through a shell command or only seen in a result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SkillRead {
    pub call: usize,
    pub skill: String,
    pub level: f64,
}

/// Every skill read, in call order; one entry per call and skill (its most direct way).
pub(crate) fn skill_reads(calls: &[Call]) -> Vec<SkillRead> {
    static PATH: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"([A-Za-z0-9._-]+)/SKILL\.md").expect("valid"));
    let mut out: Vec<SkillRead> = Vec::new();
    let mut add =
        |call: usize, skill: &str, level: f64| match out.iter_mut().find(|r| r.call == call && r.skill == skill) {
            Some(r) => r.level = r.level.max(level),
            None => out.push(SkillRead { call, skill: skill.to_string(), level }),
        };
    for (i, c) in calls.iter().enumerate() {
        let direct = if matches!(c.kind, CallKind::Skill | CallKind::Read) { 1.0 } else { 0.75 };
        if let Some(skill) = &c.skill_read {
            add(i, skill, direct);
        }
        for m in PATH.captures_iter(&c.input) {
            add(i, &m[1], direct);
        }
        for m in PATH.captures_iter(&c.observation) {
            add(i, &m[1], 0.75);
        }
    }
    out
}

/// The command an exec call ran (its `command` or `cmd` argument), else its arguments' text.
pub(crate) fn command(c: &Call) -> String {
    let args: serde_json::Value = serde_json::from_str(&c.input).unwrap_or_default();
    match args.get("command").or_else(|| args.get("cmd")) {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Array(parts)) => parts.iter().filter_map(|p| p.as_str()).collect::<Vec<_>>().join(" "),
        _ => c.input.clone(),
    }
}
