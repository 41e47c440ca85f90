//! OpenAI's Codex CLI, the real one (pinned to [`VERSION`], a static musl binary, so it starts in
//! any x86_64 image), as a trial's agent inside the trial's container (`cli_harness`). Codex has
//! no Unix-socket setting: the egress forwarder's relay mode passes a loopback port to the model
//! proxy's socket, and a custom provider in Codex's own `config.toml` points there (OpenAI
//! Responses; the key is a placeholder the proxy replaces). Analytics and plugins are off, the
//! settings that stop all its other traffic. The arm's skills go to `$CODEX_HOME/skills`, where
//! Codex lists them; its session record (the rollout file) and its `exec --json` events become the ATIF
//! trajectory.

use crate::cli_harness::{self, args, Cli, Converted, Ending, RELAY_PORT};
use crate::run::{AgentError, AgentOutcome, RunInput};
use serde_json::{json, Value};
use skillscope_atif::{Agent, TrajectoryBuilder, TurnMetrics};
use skillscope_models::proxy::ProxyHandle;
use skillscope_models::Usage;
use std::collections::HashMap;
use std::time::Instant;

/// The version Skillscope installs and runs: its `exec --json` events are what this module reads.
pub const VERSION: &str = "0.171.0";
/// Where the host's Codex binary is mounted (read-only) in the container.
pub const BINARY: &str = "/opt/skillscope/codex";
/// Codex's home (config, sessions, skills), writable, inside the container's /tmp.
pub(crate) const CODEX_HOME: &str = "/tmp/skillscope-codex";
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
    let copy_skills = cli_harness::copy_skills(input.skills, &format!("{CODEX_HOME}/skills"));
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
    let result = cli_harness::exec(&input, proxy, command, env, &mut progress_line).await?;
    let rollout = rollout(&input).await;
    let converted = convert(input.instruction, &result.stdout, &rollout, &input.session_id, input.model);
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

/// Codex's own record of the run, the newest `rollout-*.jsonl` under its home's `sessions/`
/// (empty when it wrote none, as when it could not start).
async fn rollout(input: &RunInput<'_>) -> String {
    let files = input.container.download(&format!("{CODEX_HOME}/sessions")).await.unwrap_or_default();
    let newest = files.into_iter().filter(|(p, _)| p.contains("/rollout-") && p.ends_with(".jsonl")).max();
    newest.map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned()).unwrap_or_default()
}

/// One model response being gathered from the rollout.
#[derive(Default)]
struct Response {
    text: Vec<String>,
    reasoning: Vec<String>,
    calls: Vec<(String, String, Value)>,
}

impl Response {
    fn is_empty(&self) -> bool {
        self.text.is_empty() && self.reasoning.is_empty() && self.calls.is_empty()
    }
}

/// The texts of a rollout item's `content` (or `summary`) parts.
fn texts(parts: &Value) -> Vec<String> {
    parts.as_array().into_iter().flatten().filter_map(|p| p["text"].as_str().map(String::from)).collect()
}

/// Records a response as an agent step (with `usage`'s tokens, zero when None); returns its id.
fn flush(b: &mut TrajectoryBuilder, r: Response, usage: Option<&Value>, callers: &mut HashMap<String, u64>) -> u64 {
    let n = |k: &str| usage.and_then(|u| u[k].as_i64()).unwrap_or(0);
    let metrics = TurnMetrics {
        prompt_tokens: n("input_tokens"),
        completion_tokens: n("output_tokens"),
        cached_tokens: n("cached_input_tokens"),
        cost_usd: None,
    };
    let ids: Vec<String> = r.calls.iter().map(|c| c.0.clone()).collect();
    let reasoning = (!r.reasoning.is_empty()).then(|| r.reasoning.join("\n"));
    let step = b.agent_step(r.text.join("\n"), reasoning, r.calls, metrics, time::OffsetDateTime::now_utc());
    callers.extend(ids.into_iter().map(|id| (id, step)));
    step
}

/// Builds the trajectory from Codex's rollout (its session record: one `token_usage_record`
/// after each model response, so each response is one agent step with its own tokens; tool
/// outputs join the step that made the call) and reads how the run ended, its final message and
/// its token totals from the `exec --json` events on stdout (lines that are not JSON are skipped).
pub fn convert(instruction: &str, stdout: &str, rollout: &str, session_id: &str, model: &str) -> Converted {
    let mut agent = Agent::new("codex", VERSION, Some(model.to_string()));
    agent.extra = Some(serde_json::Map::from_iter([("harness".to_string(), Value::from("codex"))]));
    let mut b = TrajectoryBuilder::new(session_id, agent);
    b.user_step(instruction);
    let mut callers: HashMap<String, u64> = HashMap::new();
    let mut reads: Vec<(String, String)> = Vec::new();
    let mut response = Response::default();
    let mut turns = 0u32;
    let mut unmetered: Vec<u64> = Vec::new();
    for line in rollout.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line.trim()) else { continue };
        let item = &event["payload"];
        match (event["type"].as_str(), item["type"].as_str()) {
            (Some("response_item"), Some("message")) if item["role"] == "assistant" => {
                response.text.extend(texts(&item["content"]))
            }
            (Some("response_item"), Some("reasoning")) => response.reasoning.extend(texts(&item["summary"])),
            (Some("response_item"), Some(kind @ ("function_call" | "custom_tool_call"))) => {
                let id = item["call_id"].as_str().unwrap_or_default().to_string();
                let raw = if kind == "function_call" { &item["arguments"] } else { &item["input"] };
                let raw = raw.as_str().unwrap_or_default();
                let args = serde_json::from_str(raw).unwrap_or_else(|_| json!({ "input": raw }));
                if let Some(skill) = cli_harness::skill_in(raw) {
                    reads.push((id.clone(), skill));
                }
                response.calls.push((id, item["name"].as_str().unwrap_or_default().to_string(), args));
            }
            (Some("response_item"), Some("function_call_output" | "custom_tool_call_output")) => {
                let id = item["call_id"].as_str().unwrap_or_default();
                let output = match &item["output"] {
                    Value::String(s) => s.clone(),
                    other => texts(&other["content"]).join("\n"),
                };
                if let Some(&step) = callers.get(id) {
                    b.observation(step, id, output).expect("the call was recorded in that step");
                }
            }
            (Some("token_usage_record"), _) => {
                let r = std::mem::take(&mut response);
                flush(&mut b, r, Some(&item["usage"]), &mut callers);
                turns += 1;
            }
            _ => {}
        }
    }
    if !response.is_empty() {
        // A response cut off before its usage was recorded (a killed run).
        unmetered.push(flush(&mut b, response, None, &mut callers));
        turns += 1;
    }

    let (mut ending, mut final_text, mut usage) = (None, None, Usage::default());
    for line in stdout.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line.trim()) else { continue };
        match event["type"].as_str() {
            Some("item.completed") if event["item"]["type"] == "agent_message" => {
                final_text = event["item"]["text"].as_str().map(String::from)
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
        if unmetered.iter().any(|&id| step["step_id"] == id) {
            // Unknown, not zero.
            if let Some(step) = step.as_object_mut() {
                step.remove("metrics");
            }
        }
    }
    cli_harness::mark_skill_reads(&mut trajectory, &reads);
    if ending.is_none() {
        // No totals on stdout (a killed run): the recorded responses' own.
        let total = |k: &str| trajectory["final_metrics"][k].as_u64().unwrap_or(0);
        usage = Usage {
            input_tokens: total("total_prompt_tokens"),
            cached_tokens: total("total_cached_tokens"),
            output_tokens: total("total_completion_tokens"),
        };
    }
    Converted { trajectory, ending, final_text, turns, usage, model_ms: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Codex 0.171.0 wrote for a skill read, a command and an answer (trimmed).
    const ROLLOUT: &str = r#"{"type":"session_meta","payload":{"id":"t"}}
{"type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"<skills_instructions>"}]}}
{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cat $CODEX_HOME/skills/answer-keeper/SKILL.md\"}","call_id":"call_0"}}
{"type":"token_usage_record","payload":{"response_id":"resp_1","usage":{"input_tokens":8875,"cached_input_tokens":0,"output_tokens":17}}}
{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_0","output":"Process exited with code 0\nOutput:\nCopy task.txt to answer.txt with cat.\n"}}
{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cat task.txt > answer.txt\"}","call_id":"call_1"}}
{"type":"token_usage_record","payload":{"response_id":"resp_2","usage":{"input_tokens":8970,"cached_input_tokens":8902,"output_tokens":12}}}
{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"Process exited with code 0\nOutput:\n"}}
{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"copied","annotations":[]}]}}
{"type":"token_usage_record","payload":{"response_id":"resp_3","usage":{"input_tokens":9036,"cached_input_tokens":8992,"output_tokens":2}}}
"#;
    const EVENTS: &str = r#"{"type":"thread.started","thread_id":"t"}
{"type":"item.completed","item":{"id":"item_3","type":"agent_message","text":"copied"}}
{"type":"turn.completed","usage":{"input_tokens":26881,"cached_input_tokens":17894,"output_tokens":31}}
"#;

    #[test]
    fn the_rollout_gives_one_step_per_response_with_its_tokens_and_the_stream_the_ending() {
        let c = convert("Copy the task", EVENTS, ROLLOUT, "s", "m");
        assert_eq!(skillscope_atif::validate(&c.trajectory), Vec::new(), "{}", c.trajectory);
        assert_eq!((c.ending, c.final_text.as_deref(), c.turns), (Some(Ending::Answer), Some("copied"), 3));
        assert_eq!((c.usage.input_tokens, c.usage.cached_tokens, c.usage.output_tokens), (26_881, 17_894, 31));
        let steps = c.trajectory["steps"].as_array().unwrap();
        assert_eq!(steps.len(), 4, "the prompt and three responses: {}", c.trajectory);
        assert_eq!(steps[1]["tool_calls"][0]["extra"]["skill_read"], "answer-keeper");
        assert_eq!(steps[1]["tool_calls"][0]["arguments"]["cmd"], "cat $CODEX_HOME/skills/answer-keeper/SKILL.md");
        assert!(steps[1]["observation"]["results"][0]["content"].as_str().unwrap().contains("with cat."));
        assert_eq!(
            (steps[2]["metrics"]["prompt_tokens"].as_i64(), steps[2]["metrics"]["cached_tokens"].as_i64()),
            (Some(8_970), Some(8_902))
        );
        assert!(steps[2]["tool_calls"][0].get("extra").is_none());
        assert_eq!(steps[3]["message"], "copied");

        // Killed before the last response's usage was recorded, and before the stream's totals.
        let cut = ROLLOUT.trim_end().rsplit_once('\n').unwrap().0;
        let c = convert("Copy the task", "", cut, "s", "m");
        assert_eq!(skillscope_atif::validate(&c.trajectory), Vec::new(), "{}", c.trajectory);
        assert_eq!(c.ending, None);
        let steps = c.trajectory["steps"].as_array().unwrap();
        assert!(steps[3].get("metrics").is_none(), "a response with no usage record has unknown tokens, not zero");
        assert_eq!(c.usage.input_tokens, 8_875 + 8_970, "the recorded responses' totals");
    }

    #[test]
    fn a_failed_turn_is_a_failed_run_even_without_a_rollout() {
        let c = convert("x", r#"{"type":"turn.failed","error":{"message":"401 bad key"}}"#, "", "s", "m");
        assert_eq!(c.ending, Some(Ending::Failed("\"401 bad key\"".into())));
        assert_eq!(c.trajectory["steps"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn config_quotes_the_model_and_points_at_the_relay() {
        let toml = config_toml("gpt \"5\"");
        assert!(toml.starts_with("model = \"gpt \\\"5\\\"\"\n"), "{toml}");
        assert!(toml.contains(&format!("base_url = \"http://127.0.0.1:{RELAY_PORT}/v1\"")));
        assert!(toml.contains("wire_api = \"responses\""));
    }
}
