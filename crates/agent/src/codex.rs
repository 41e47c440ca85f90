//! OpenAI's Codex CLI, the real one (pinned to [`VERSION`], a static musl binary, so it starts in
//! any x86_64 image), as a trial's agent inside the trial's container (`cli_harness`). Codex has
//! no Unix-socket setting: the egress forwarder's relay mode passes a loopback port to the model
//! proxy's socket, and a custom provider in Codex's own `config.toml` points there (OpenAI
//! Responses; the key is a placeholder the proxy replaces). Analytics and plugins are off, the
//! settings that stop all its other traffic. The arm's skills go to `$CODEX_HOME/skills`, where
//! Codex lists them; its `exec --json` events become the ATIF trajectory.

use crate::cli_harness::{self, args, Cli, Converted, Ending, RELAY_PORT};
use crate::run::{AgentError, AgentOutcome, RunInput};
use serde_json::{json, Value};
use skillscope_atif::{Agent, TrajectoryBuilder, TurnMetrics};
use skillscope_models::proxy::ProxyHandle;
use skillscope_models::Usage;
use std::time::Instant;

/// The version Skillscope installs and runs: its `exec --json` events are what this module reads.
pub const VERSION: &str = "0.171.0";
/// Where the host's Codex binary is mounted (read-only) in the container.
pub const BINARY: &str = "/opt/skillscope/codex";
/// Codex's home (config, sessions, skills), writable, inside the container's /tmp.
const CODEX_HOME: &str = "/tmp/skillscope-codex";
/// The environment variable Codex's provider reads its key from.
const KEY_VAR: &str = "SKILLSCOPE_MODEL_KEY";

const CLI: Cli = Cli { name: "Codex", binary: BINARY, needs: "it needs an x86_64 Linux image" };
/// What Codex runs every command with; an image without it is refused before Codex starts.
const SHELL: &str = "/bin/bash";

/// Codex's `config.toml`: the model, a custom provider on the relay, and nothing else on the wire.
fn config_toml(model: &str) -> String {
    let model = Value::from(model); // a TOML basic string is a JSON string
    format!(
        r#"model = {model}
model_provider = "skillscope"

[analytics]
enabled = false

[features]
plugins = false

[model_providers.skillscope]
name = "skillscope"
base_url = "http://127.0.0.1:{RELAY_PORT}/v1"
env_key = "{KEY_VAR}"
wire_api = "responses"
"#
    )
}

/// Runs Codex on the task. The model calls go to the proxy the caller serves for `input.client`
/// on the mounted socket; `wait` is that proxy's record of provider wait.
pub async fn run(input: RunInput<'_>, proxy: &ProxyHandle) -> Result<AgentOutcome, AgentError> {
    let copy_skills: String = input
        .skills
        .iter()
        .map(|s| {
            format!(" && mkdir -p {CODEX_HOME}/skills/{n} && cp -R {}/. {CODEX_HOME}/skills/{n}/", s.path, n = s.name)
        })
        .collect();
    let config = config_toml(input.model).replace('\'', "'\\''");
    let setup = format!(
        "[ -x {SHELL} ] || {{ echo 'Codex runs its commands with {SHELL}, which this image lacks: use an image with bash, such as skillscope/debian-python:12' >&2; exit 1; }}\n\
         mkdir -p {CODEX_HOME}/skills && printf '%s' '{config}' > {CODEX_HOME}/config.toml{copy_skills}\n{}",
        cli_harness::relay_script()
    );
    cli_harness::setup(&CLI, &input, setup).await?;

    let env = vec![
        format!("HOME={}", crate::HOME),
        "TMPDIR=/tmp".into(),
        format!("CODEX_HOME={CODEX_HOME}"),
        format!("{KEY_VAR}={}", cli_harness::PLACEHOLDER_KEY),
        "NO_COLOR=1".into(),
    ];
    // Through `sh` only to close stdin: Codex reads a piped stdin as more prompt.
    let mut command = args(&["sh", "-c", "exec \"$0\" \"$@\" </dev/null", BINARY, "exec", "--json"]);
    command.extend(args(&[
        "--dangerously-bypass-approvals-and-sandbox",
        "--skip-git-repo-check",
        "--model",
        input.model,
        "--",
        input.instruction,
    ]));
    let started = Instant::now();
    let result = cli_harness::exec(&input, proxy, command, env, progress_line).await?;
    let converted = convert(input.instruction, &result.stdout, &input.session_id, input.model);
    cli_harness::outcome(&CLI, &input, converted, &result, proxy, started)
}

/// A line of the live log for one event: what the agent said or ran.
fn progress_line(line: &str) -> Option<String> {
    let event: Value = serde_json::from_str(line.trim()).ok()?;
    let item = &event["item"];
    match (event["type"].as_str()?, item["type"].as_str()?) {
        ("item.started", "command_execution") => Some(format!("$ {}\n", item["command"].as_str()?)),
        ("item.completed", "agent_message") => Some(format!("agent: {}\n", item["text"].as_str()?)),
        _ => None,
    }
}

/// Reads Codex's `exec --json` events (lines that are not JSON are skipped). The stream marks
/// items, not model calls: each completed item is one agent step (a command with its output, a
/// file change, a message), reasoning joins the step after it, and tokens are known per turn only
/// (in `final_metrics`, not per step).
pub fn convert(instruction: &str, stdout: &str, session_id: &str, model: &str) -> Converted {
    let mut agent = Agent::new("codex", VERSION, Some(model.to_string()));
    agent.extra = Some(serde_json::Map::from_iter([("harness".to_string(), Value::from("codex"))]));
    let mut b = TrajectoryBuilder::new(session_id, agent);
    b.user_step(instruction);
    let (mut ending, mut final_text, mut usage) = (None, None, Usage::default());
    let mut reasoning: Vec<String> = Vec::new();
    let mut skill_reads: Vec<(String, String)> = Vec::new();
    let mut steps = 0u32;
    let now = time::OffsetDateTime::now_utc;

    for line in stdout.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line.trim()) else { continue };
        let item = &event["item"];
        match event["type"].as_str() {
            Some("item.completed") => {
                let id = item["id"].as_str().unwrap_or_default().to_string();
                let thought = (!reasoning.is_empty()).then(|| reasoning.join("\n"));
                let (text, call, output) = match item["type"].as_str() {
                    Some("reasoning") => {
                        reasoning.extend(item["text"].as_str().map(String::from));
                        continue;
                    }
                    Some("agent_message") => {
                        final_text = item["text"].as_str().map(String::from);
                        (final_text.clone().unwrap_or_default(), None, None)
                    }
                    Some("command_execution") => {
                        let command = item["command"].as_str().unwrap_or_default();
                        if let Some(skill) = cli_harness::skill_in(command) {
                            skill_reads.push((id.clone(), skill));
                        }
                        let output = format!(
                            "{}\n[exit code: {}]",
                            item["aggregated_output"].as_str().unwrap_or_default(),
                            item["exit_code"]
                        );
                        (String::new(), Some(("exec_command", json!({ "cmd": command }))), Some(output))
                    }
                    Some("file_change") => (
                        String::new(),
                        Some(("apply_patch", json!({ "changes": item["changes"] }))),
                        Some(format!("{}", item["status"])),
                    ),
                    Some("error") => {
                        b.system_step(format!("codex: {}", item["message"].as_str().unwrap_or_default()));
                        continue;
                    }
                    Some(other) => (String::new(), Some((other, item.clone())), None),
                    None => continue,
                };
                reasoning.clear();
                let calls = call.into_iter().map(|(name, args)| (id.clone(), name.to_string(), args)).collect();
                let step = b.agent_step(text, thought, calls, TurnMetrics::default(), now());
                steps += 1;
                if let Some(output) = output {
                    b.observation(step, &id, output).expect("the call was recorded in that step");
                }
            }
            Some("turn.completed") => {
                let u = &event["usage"];
                let n = |k: &str| u[k].as_u64().unwrap_or(0);
                usage.input_tokens += n("input_tokens");
                usage.cached_tokens += n("cached_input_tokens");
                usage.output_tokens += n("output_tokens");
                ending = Some(Ending::Answer);
            }
            Some("turn.failed") => ending = Some(Ending::Failed(event["error"]["message"].to_string())),
            Some("error") if ending.is_none() => {
                ending = Some(Ending::Failed(event["message"].as_str().unwrap_or("an error").to_string()))
            }
            _ => {}
        }
    }
    let mut trajectory = serde_json::to_value(b.finish(None)).expect("a trajectory serialises");
    for step in trajectory["steps"].as_array_mut().into_iter().flatten() {
        // Unknown per step (see above): left out rather than written as zero.
        if let Some(metrics) = step.as_object_mut() {
            metrics.remove("metrics");
        }
        for call in step.get_mut("tool_calls").and_then(Value::as_array_mut).into_iter().flatten() {
            if let Some((_, skill)) = skill_reads.iter().find(|(id, _)| call["tool_call_id"] == id.as_str()) {
                call["extra"] = json!({ "skill_read": skill });
            }
        }
    }
    trajectory["final_metrics"]["total_prompt_tokens"] = usage.input_tokens.into();
    trajectory["final_metrics"]["total_cached_tokens"] = usage.cached_tokens.into();
    trajectory["final_metrics"]["total_completion_tokens"] = usage.output_tokens.into();
    Converted { trajectory, ending, final_text, turns: steps, usage, model_ms: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_quotes_the_model_and_points_at_the_relay() {
        let toml = config_toml("gpt \"5\"");
        assert!(toml.starts_with("model = \"gpt \\\"5\\\"\"\n"), "{toml}");
        assert!(toml.contains(&format!("base_url = \"http://127.0.0.1:{RELAY_PORT}/v1\"")));
        assert!(toml.contains("wire_api = \"responses\""));
    }
}
