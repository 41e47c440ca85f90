//! What every real coding-agent CLI run inside the trial's container shares: its model calls go to
//! a Unix socket mounted from the host, where a key-adding proxy forwards them, so the container
//! only ever holds a placeholder key; provider wait is left out of its wall time; and how its run
//! ended (answer, turn limit, timeout, failure, a binary that cannot start) becomes the outcome.
//! Each harness module says how to set it up, start it and read its output.

use crate::run::{AgentError, AgentOutcome, RunInput, StopReason};
use serde_json::Value;
use skillscope_models::proxy::ProxyHandle;
use skillscope_models::{ProviderWait, Usage};
use skillscope_sandbox::{ExecOptions, ExecResult, Owner, Uncharged, WaitClock};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where the folder holding the model proxy's socket is mounted.
pub const SOCKET_DIR: &str = "/run/skillscope-model";
/// The socket's file name inside [`SOCKET_DIR`].
pub const SOCKET_NAME: &str = "model.sock";
/// The placeholder key a harness is given; the proxy replaces it with the real one.
pub const PLACEHOLDER_KEY: &str = "skillscope-proxy-adds-the-key";
/// The loopback port where the relay (the egress forwarder's relay mode, mounted by the caller
/// for a harness with no Unix-socket setting) passes model calls to the proxy's socket.
pub const RELAY_PORT: u16 = 47_811;

/// A shell fragment (each part after ` && `) that copies the arm's skills, each mounted at its
/// path, into `dest/<name>/`, where a harness looks for them.
pub(crate) fn copy_skills(skills: &[crate::prompt::SkillListing], dest: &str) -> String {
    skills.iter().map(|s| format!(" && mkdir -p {dest}/{n} && cp -R {}/. {dest}/{n}/", s.path, n = s.name)).collect()
}

/// A shell script that starts the relay and waits until it listens.
pub(crate) fn relay_script() -> String {
    skillscope_egress::relay_start_command(RELAY_PORT, &format!("{SOCKET_DIR}/{SOCKET_NAME}"))
}

/// The most provider wait (rate limits, overload, the retries and backoff around them) a run may
/// leave out of its wall time; a run still waiting on the provider past it is an infrastructure
/// failure, not the agent's timeout.
pub const PROVIDER_WAIT_CAP: Duration = Duration::from_secs(30 * 60);

/// The proxy's record of provider wait, as the sandbox's deadline reads it.
struct ProxyWait(Arc<ProviderWait>);

impl WaitClock for ProxyWait {
    fn waited(&self) -> Duration {
        self.0.waited()
    }
    /// A request in flight holds the deadline too: if it fails, its time was the provider's.
    fn waiting(&self) -> bool {
        self.0.waiting() || self.0.in_flight()
    }
}

/// One harness: its name in messages and where its binary is mounted.
pub(crate) struct Cli {
    pub name: &'static str,
    pub binary: &'static str,
    /// What the binary needs to start, said when it cannot.
    pub needs: &'static str,
}

/// How a run ended, from the harness's own report.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    Answer,
    TurnLimit,
    /// The run reports an error (an unreachable or failing model, for one).
    Failed(String),
}

/// What a run's output says.
#[derive(Debug, Clone)]
pub struct Converted {
    /// ATIF v1.7: the instruction as the first step, one agent step per model response (its text,
    /// reasoning and tool calls), tool results as observations, injected skill bodies as user steps.
    pub trajectory: Value,
    pub ending: Option<Ending>,
    pub final_text: Option<String>,
    pub turns: u32,
    pub usage: Usage,
    /// The time in model calls as the harness reports it; 0 when it does not (the proxy's measure
    /// is used then).
    pub model_ms: u64,
}

fn as_agent(input: &RunInput<'_>, secs: u64) -> ExecOptions {
    ExecOptions { user: input.owner.map(Owner::user), ..ExecOptions::seconds(secs) }
}

/// Runs a set-up script (`sh -c`) as the agent's user; a failure is the harness's, not the agent's.
pub(crate) async fn setup(cli: &Cli, input: &RunInput<'_>, script: String) -> Result<(), AgentError> {
    let command = vec!["sh".into(), "-c".into(), script];
    let done = input.container.exec(&command, as_agent(input, 60), &mut |_, _| {}).await?;
    if done.exit_code != Some(0) {
        return Err(AgentError::Harness(format!("could not prepare {}: {}", cli.name, done.stderr.trim())));
    }
    Ok(())
}

/// Runs the harness in the task's workdir as the agent's user, within the configuration's wall
/// time (provider wait left out, up to [`PROVIDER_WAIT_CAP`]); each complete stdout line that
/// `progress` turns into text goes, redacted, to the live log (`progress` keeps what it needs to
/// join lines).
pub(crate) async fn exec(
    input: &RunInput<'_>,
    proxy: &ProxyHandle,
    command: Vec<String>,
    env: Vec<String>,
    progress: &mut (dyn FnMut(&str) -> Option<String> + Send),
) -> Result<ExecResult, AgentError> {
    let opts = ExecOptions {
        workdir: Some(input.workdir.to_string()),
        env,
        uncharged: Some(Uncharged { clock: Arc::new(ProxyWait(proxy.wait())), at_most: PROVIDER_WAIT_CAP }),
        ..as_agent(input, input.limits.wall_timeout_secs)
    };
    let mut pending = String::new();
    let result = input
        .container
        .exec(&command, opts, &mut |_, bytes| {
            pending.push_str(&String::from_utf8_lossy(bytes));
            while let Some(end) = pending.find('\n') {
                let line: String = pending.drain(..=end).collect();
                if let Some(text) = progress(&line) {
                    (input.log)(&input.redactor.redact(&text));
                }
            }
        })
        .await?;
    Ok(result)
}

/// The outcome of a finished run: its own failures (turn limit, timeout) are outcomes, failures
/// around it (no answer from the model, no output at all, a binary that cannot start) are
/// infrastructure errors. A run whose proxy refused a call past the turn limit hit that limit,
/// whatever the harness made of the refusal. Prices the usage and redacts the trajectory.
pub(crate) fn outcome(
    cli: &Cli,
    input: &RunInput<'_>,
    converted: Converted,
    result: &ExecResult,
    proxy: &ProxyHandle,
    started: Instant,
) -> Result<AgentOutcome, AgentError> {
    let name = cli.name;
    let waited = proxy.wait().waited();
    let stop = match (&converted.ending, result.timed_out) {
        (_, false) if proxy.limit_reached() => StopReason::MaxTurns,
        (_, true) if waited >= PROVIDER_WAIT_CAP => {
            return Err(AgentError::Harness(format!(
                "{name} was still waiting on the model provider after {} min of rate limits or errors",
                PROVIDER_WAIT_CAP.as_secs() / 60
            )))
        }
        (_, true) => StopReason::WallTimeout,
        // The harness itself ran out of the container's memory: the task gives it too little to
        // run at all, which says nothing of the skill.
        (None, _) if result.oom_killed => {
            return Err(AgentError::Harness(format!(
                "{name} was killed: the container's memory limit was reached before it finished; give the task more \
                 memory (the CLI harnesses need several hundred MB of their own)"
            )))
        }
        (Some(Ending::Answer), _) => StopReason::FinalAnswer,
        (Some(Ending::TurnLimit), _) => StopReason::MaxTurns,
        (Some(Ending::Failed(why)), _) => {
            return Err(AgentError::Harness(format!("{name} failed: {}", input.redactor.redact(why))))
        }
        // The binary could not start: the image lacks what it needs (glibc, for one).
        (None, _)
            if matches!(result.exit_code, Some(126 | 127))
                || result.stderr.contains(&format!("exec {}: no such file", cli.binary)) =>
        {
            return Err(AgentError::Harness(format!(
                "{name} could not start in this image (exit {:?}): {}",
                result.exit_code, cli.needs
            )))
        }
        (None, _) => {
            let stderr = result.stderr.trim();
            return Err(AgentError::Harness(format!(
                "{name} ended without a result (exit {:?}){}",
                result.exit_code,
                if stderr.is_empty() { String::new() } else { format!(": {}", input.redactor.redact(stderr)) }
            )));
        }
    };
    let cost_usd = input.prices.cost(input.model, &converted.usage);
    // The harness's own figure when it reports one (Claude Code), else the proxy's measure.
    let model_ms = match converted.model_ms {
        0 => proxy.model_ms(),
        reported => reported,
    };
    let mut trajectory = converted.trajectory;
    trajectory["extra"]["stop_reason"] = serde_json::to_value(stop).expect("a stop reason serialises");
    trajectory["final_metrics"]["total_cost_usd"] = serde_json::to_value(cost_usd).expect("a number serialises");
    trajectory["final_metrics"]["extra"]["provider_wait_ms"] = (waited.as_millis() as u64).into();
    trajectory["final_metrics"]["extra"]["model_ms"] = model_ms.into();
    input.redactor.redact_json(&mut trajectory);
    Ok(AgentOutcome {
        stop,
        turns: converted.turns,
        usage: converted.usage,
        cost_usd,
        final_text: converted.final_text,
        model_ms,
        tool_ms: (started.elapsed().saturating_sub(waited).as_millis() as u64).saturating_sub(model_ms),
        trajectory,
    })
}

/// The skill whose SKILL.md a command or path names (`…/skills/<name>/SKILL.md`): how a harness
/// without a skill tool, or a read tool on that file, invokes a skill.
pub(crate) fn skill_in(text: &str) -> Option<String> {
    let end = text.find("/SKILL.md")?;
    let dir = &text[..end];
    let name = dir.rsplit('/').next()?;
    let parent = dir[..dir.len() - name.len()].trim_end_matches('/');
    (parent.ends_with("skills") && !name.is_empty()).then(|| name.to_string())
}

/// Marks each tool call of `trajectory` that `reads` names (call id, skill) with
/// `extra.skill_read`, the skill it read.
pub(crate) fn mark_skill_reads(trajectory: &mut Value, reads: &[(String, String)]) {
    let steps = trajectory["steps"].as_array_mut().into_iter().flatten();
    for call in steps.filter_map(|s| s.get_mut("tool_calls")?.as_array_mut()).flatten() {
        if let Some((_, skill)) = reads.iter().find(|(id, _)| call["tool_call_id"] == id.as_str()) {
            call["extra"] = serde_json::json!({ "skill_read": skill });
        }
    }
}

/// `--flag value` style arguments as owned strings.
pub(crate) fn args(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|s| s.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skill_is_named_by_skills_name_skill_md() {
        let cmd = "/bin/bash -lc 'cat /tmp/skillscope-codex/skills/answer-keeper/SKILL.md'";
        assert_eq!(skill_in(cmd).as_deref(), Some("answer-keeper"));
        assert_eq!(skill_in("cat ~/.agents/skills/x/SKILL.md").as_deref(), Some("x"));
        assert_eq!(skill_in("cat docs/SKILL.md"), None);
        assert_eq!(skill_in("cat task.txt"), None);
    }
}
