//! Claude Code, the real CLI (pinned to [`VERSION`]), as a trial's agent, inside the trial's
//! container (`cli_harness`); it speaks to the proxy's socket itself (`ANTHROPIC_UNIX_SOCKET`).
//! Skills are offered the way Claude Code finds them (copied from /skills into its config
//! folder), and its `stream-json` output becomes the ATIF trajectory.

use crate::cli_harness::{self, args, Cli, SOCKET_DIR, SOCKET_NAME};
pub use crate::cli_harness::{Converted, Ending};
use crate::run::{AgentError, AgentOutcome, RunInput};
use serde_json::{json, Value};
use skillscope_atif::{Agent, TrajectoryBuilder, TurnMetrics};
use skillscope_models::proxy::ProxyHandle;
use skillscope_models::Usage;
use std::collections::HashMap;
use std::time::Instant;

/// The version Skillscope installs and runs: its headless flags and output are what this module reads.
pub const VERSION: &str = "2.1.197";
/// Where the host's Claude Code binary is mounted (read-only) in the container.
pub const BINARY: &str = "/opt/skillscope/claude";
/// Claude Code's config folder (writable, inside the container's /tmp); its `skills/` is where it looks.
pub(crate) const CONFIG_DIR: &str = "/tmp/skillscope-claude";

const CLI: Cli = Cli {
    name: "Claude Code",
    binary: BINARY,
    needs: "it needs a glibc Linux image such as skillscope/debian-python:12",
};

/// Runs Claude Code on the task. The model calls go to the proxy the caller serves for
/// `input.client` on the mounted socket.
pub async fn run(input: RunInput<'_>, proxy: &ProxyHandle) -> Result<AgentOutcome, AgentError> {
    // The arm's skills, each mounted at <skills dir>/<name>, go where Claude Code looks for them.
    let copy_skills = cli_harness::copy_skills(input.skills, &format!("{CONFIG_DIR}/skills"));
    cli_harness::setup(&CLI, &input, format!("mkdir -p {CONFIG_DIR}/skills{copy_skills}")).await?;

    let env = vec![
        format!("HOME={}", crate::HOME),
        "TMPDIR=/tmp".into(),
        format!("CLAUDE_CONFIG_DIR={CONFIG_DIR}"),
        // Root in a throw-away container: the bypass-permissions mode needs to know it is sandboxed.
        "IS_SANDBOX=1".into(),
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1".into(),
        // The model calls go to the proxy's socket; the key here is a placeholder the proxy replaces.
        format!("ANTHROPIC_UNIX_SOCKET={SOCKET_DIR}/{SOCKET_NAME}"),
        "ANTHROPIC_BASE_URL=http://localhost".into(),
        format!("ANTHROPIC_API_KEY={}", cli_harness::PLACEHOLDER_KEY),
        format!("ANTHROPIC_MODEL={}", input.model),
        "CLAUDE_CODE_MAX_RETRIES=2".into(),
    ];
    let turns = input.limits.max_turns.to_string();
    let command = args(&[
        BINARY,
        "-p",
        input.instruction,
        "--output-format",
        "stream-json",
        "--verbose",
        "--dangerously-skip-permissions",
        "--max-turns",
        &turns,
    ]);
    let started = Instant::now();
    let result = cli_harness::exec(&input, proxy, command, env, &mut progress_line).await?;
    let log = session_log(&input).await;
    let converted = convert(input.instruction, &result.stdout, &log, &input.session_id, input.model);
    cli_harness::outcome(&CLI, &input, converted, &result, proxy, started)
}

/// Claude Code's session logs (`$CLAUDE_CONFIG_DIR/projects/<project>/<session>.jsonl`), joined;
/// empty when it wrote none.
async fn session_log(input: &RunInput<'_>) -> String {
    let files = input.container.download(&format!("{CONFIG_DIR}/projects")).await.unwrap_or_default();
    let logs = files.into_iter().filter(|(p, _)| p.ends_with(".jsonl"));
    logs.map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned()).collect::<Vec<_>>().join("\n")
}

/// Each response's output tokens as the session log records them (its entries for one response
/// repeat the usage; the largest count is the final one).
fn output_tokens(log: &str) -> HashMap<String, u64> {
    let mut out: HashMap<String, u64> = HashMap::new();
    for line in log.lines() {
        let Ok(entry) = serde_json::from_str::<Value>(line.trim()) else { continue };
        let message = &entry["message"];
        if let (Some("assistant"), Some(id), Some(n)) =
            (entry["type"].as_str(), message["id"].as_str(), message["usage"]["output_tokens"].as_u64())
        {
            let known = out.entry(id.to_string()).or_default();
            *known = (*known).max(n);
        }
    }
    out
}

/// A line of the live log for one `stream-json` event: what the agent said or ran.
fn progress_line(line: &str) -> Option<String> {
    let event: Value = serde_json::from_str(line.trim()).ok()?;
    let blocks = event["message"]["content"].as_array()?;
    let parts: Vec<String> = blocks
        .iter()
        .filter_map(|b| match b["type"].as_str()? {
            "text" if event["type"] == "assistant" => Some(format!("agent: {}", b["text"].as_str()?)),
            "tool_use" => Some(format!("$ {} {}", b["name"].as_str()?, b["input"])),
            _ => None,
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n") + "\n")
}

/// One model response being gathered (Claude Code prints a response's blocks as separate events).
#[derive(Default)]
struct Response {
    id: String,
    text: Vec<String>,
    thinking: Vec<String>,
    calls: Vec<(String, String, Value)>,
    usage: Usage,
}

/// The prompt tokens of an Anthropic usage object (uncached, cache reads and cache writes) and its
/// cached and output tokens.
fn usage_of(u: &Value) -> Usage {
    let n = |k: &str| u[k].as_u64().unwrap_or(0);
    Usage {
        input_tokens: n("input_tokens") + n("cache_read_input_tokens") + n("cache_creation_input_tokens"),
        cached_tokens: n("cache_read_input_tokens"),
        output_tokens: n("output_tokens"),
    }
}

/// Reads Claude Code's `stream-json` output (lines that are not JSON are skipped). Its
/// per-response events carry only the first streamed output token; the output tokens of each
/// response come from the session log `log` when it has every response's and they add up to the
/// run's total, and are otherwise left out of the steps (the total stays).
pub fn convert(instruction: &str, stdout: &str, log: &str, session_id: &str, model: &str) -> Converted {
    let logged = output_tokens(log);
    let mut agent = Agent::new("claude-code", VERSION, Some(model.to_string()));
    agent.extra = Some(serde_json::Map::from_iter([("harness".to_string(), Value::from("claude-code"))]));
    let mut b = TrajectoryBuilder::new(session_id, agent);
    b.user_step(instruction);
    let mut response: Option<Response> = None;
    // Which step made each tool call, for the results that come later.
    let mut callers: HashMap<String, u64> = HashMap::new();
    let mut responses: Vec<String> = Vec::new();
    let (mut ending, mut final_text, mut turns, mut usage, mut model_ms) = (None, None, 0, Usage::default(), 0);

    let flush = |b: &mut TrajectoryBuilder, r: Option<Response>, callers: &mut HashMap<String, u64>| {
        let Some(r) = r else { return };
        let metrics = TurnMetrics {
            prompt_tokens: r.usage.input_tokens as i64,
            completion_tokens: logged.get(&r.id).copied().unwrap_or(0) as i64,
            cached_tokens: r.usage.cached_tokens as i64,
            cost_usd: None,
        };
        let reasoning = (!r.thinking.is_empty()).then(|| r.thinking.join("\n"));
        let ids: Vec<String> = r.calls.iter().map(|c| c.0.clone()).collect();
        let step = b.agent_step(r.text.join("\n"), reasoning, r.calls, metrics, time::OffsetDateTime::now_utc());
        callers.extend(ids.into_iter().map(|id| (id, step)));
    };

    for line in stdout.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line.trim()) else { continue };
        match event["type"].as_str() {
            Some("assistant") => {
                let message = &event["message"];
                let id = message["id"].as_str().unwrap_or_default().to_string();
                if response.as_ref().is_none_or(|r| r.id != id) {
                    flush(&mut b, response.take(), &mut callers);
                    responses.push(id.clone());
                    response = Some(Response { id, usage: usage_of(&message["usage"]), ..Response::default() });
                }
                let r = response.as_mut().expect("just set");
                for block in message["content"].as_array().into_iter().flatten() {
                    match block["type"].as_str() {
                        Some("text") => r.text.extend(block["text"].as_str().map(String::from)),
                        Some("thinking") => r.thinking.extend(block["thinking"].as_str().map(String::from)),
                        Some("tool_use") => r.calls.push((
                            block["id"].as_str().unwrap_or_default().to_string(),
                            block["name"].as_str().unwrap_or_default().to_string(),
                            block["input"].clone(),
                        )),
                        _ => {}
                    }
                }
            }
            Some("user") => {
                flush(&mut b, response.take(), &mut callers);
                for block in event["message"]["content"].as_array().into_iter().flatten() {
                    match block["type"].as_str() {
                        Some("tool_result") => {
                            let id = block["tool_use_id"].as_str().unwrap_or_default();
                            let text = match &block["content"] {
                                Value::String(s) => s.clone(),
                                Value::Array(parts) => {
                                    parts.iter().filter_map(|p| p["text"].as_str()).collect::<Vec<_>>().join("\n")
                                }
                                _ => String::new(),
                            };
                            match callers.get(id) {
                                Some(&step) => {
                                    b.observation(step, id, text).expect("the call was recorded in that step")
                                }
                                None => {
                                    b.user_step(text);
                                }
                            }
                        }
                        // What Claude Code injects, such as a skill's body once the Skill tool ran.
                        Some("text") => {
                            b.user_step(block["text"].as_str().unwrap_or_default());
                        }
                        _ => {}
                    }
                }
            }
            Some("result") => {
                flush(&mut b, response.take(), &mut callers);
                let text = event["result"].as_str().map(String::from);
                ending = Some(match (event["subtype"].as_str(), event["is_error"].as_bool()) {
                    (Some("error_max_turns"), _) => Ending::TurnLimit,
                    (Some("success"), Some(false)) => Ending::Answer,
                    _ => Ending::Failed(
                        text.clone()
                            .or_else(|| {
                                event["errors"]
                                    .as_array()
                                    .map(|e| e.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("; "))
                            })
                            .unwrap_or_else(|| format!("{}", event["subtype"])),
                    ),
                });
                final_text = text;
                turns = event["num_turns"].as_u64().unwrap_or(0) as u32;
                usage = usage_of(&event["usage"]);
                model_ms = event["duration_api_ms"].as_u64().unwrap_or(0);
            }
            _ => {}
        }
    }
    flush(&mut b, response.take(), &mut callers);
    let mut trajectory = serde_json::to_value(b.finish(None)).expect("a trajectory serialises");
    let all_logged = responses.iter().all(|id| logged.contains_key(id));
    let summed: u64 = responses.iter().filter_map(|id| logged.get(id)).sum();
    if !all_logged || summed != usage.output_tokens {
        for step in trajectory["steps"].as_array_mut().into_iter().flatten() {
            if let Some(metrics) = step["metrics"].as_object_mut() {
                metrics.remove("completion_tokens");
            }
        }
    }
    let steps = trajectory["steps"].as_array_mut().into_iter().flatten();
    for call in steps.filter_map(|s| s.get_mut("tool_calls")?.as_array_mut()).flatten() {
        // The Skill tool is how Claude Code reads a skill.
        if call["function_name"] == "Skill" {
            call["extra"] = json!({ "skill_read": call["arguments"]["skill"] });
        }
    }
    trajectory["final_metrics"]["total_prompt_tokens"] = usage.input_tokens.into();
    trajectory["final_metrics"]["total_cached_tokens"] = usage.cached_tokens.into();
    trajectory["final_metrics"]["total_completion_tokens"] = usage.output_tokens.into();
    Converted { trajectory, ending, final_text, turns, usage, model_ms }
}
