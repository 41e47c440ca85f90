//! OpenCode, the real CLI (pinned to [`VERSION`], a glibc binary), as a trial's agent inside the
//! trial's container (`cli_harness`). Like Codex it has no Unix-socket setting: its provider, an
//! OpenAI-compatible one (Chat Completions) given in `OPENCODE_CONFIG_CONTENT`, points at the
//! relay to the model proxy, with a placeholder key. Model-list fetches, updates, LSP downloads,
//! sharing and its plugin package's install are off. The arm's skills go to OpenCode's config folder, where it lists them; its
//! skill tool needs `rg` in the image. Its `run --format json` events become the ATIF trajectory.

use crate::cli_harness::{self, args, Cli, Converted, Ending, RELAY_PORT};
use crate::run::{AgentError, AgentOutcome, RunInput};
use serde_json::{json, Value};
use skillscope_atif::{Agent, TrajectoryBuilder, TurnMetrics};
use skillscope_models::proxy::ProxyHandle;
use skillscope_models::Usage;
use std::time::Instant;

/// The version Skillscope installs and runs: its `run --format json` events are what this module reads.
pub const VERSION: &str = "1.18.33";
/// Where the host's OpenCode binary is mounted (read-only) in the container.
pub const BINARY: &str = "/opt/skillscope/opencode";
/// OpenCode's XDG folders (config, data, state, cache), writable, inside the container's /tmp.
const ROOT: &str = "/tmp/skillscope-opencode";
/// Its `XDG_CONFIG_HOME`, under [`ROOT`]; its `opencode/skills` is where it looks.
pub(crate) const CONFIG_HOME: &str = "/tmp/skillscope-opencode/config";

const CLI: Cli =
    Cli { name: "OpenCode", binary: BINARY, needs: "it needs a glibc Linux image such as skillscope/debian-python:12" };

/// OpenCode's configuration: one provider on the relay, its one model, every tool allowed.
fn config(model: &str) -> Value {
    json!({
        "provider": {"skillscope": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "skillscope",
            "options": {"baseURL": format!("http://127.0.0.1:{RELAY_PORT}/v1"), "apiKey": cli_harness::PLACEHOLDER_KEY},
            "models": {model: {"name": model, "tool_call": true}},
        }},
        "model": format!("skillscope/{model}"),
        "small_model": format!("skillscope/{model}"),
        "permission": "allow",
        "autoupdate": false,
        "share": "disabled",
    })
}

/// Runs OpenCode on the task. The model calls go to the proxy the caller serves for
/// `input.client` on the mounted socket.
pub async fn run(input: RunInput<'_>, proxy: &ProxyHandle) -> Result<AgentOutcome, AgentError> {
    let skills = format!("{CONFIG_HOME}/opencode/skills");
    let copy_skills = cli_harness::copy_skills(input.skills, &skills);
    // OpenCode installs its plugin package into its config folder from the npm registry unless
    // the folder has node_modules and a lock file that already names the package: given, so it
    // does not try.
    let config_dir = format!("{CONFIG_HOME}/opencode");
    let plugin = json!({"@opencode-ai/plugin": VERSION});
    let package = json!({ "dependencies": plugin });
    let lock = json!({"lockfileVersion": 3, "packages": {"": { "dependencies": plugin }}});
    let setup = format!(
        "mkdir -p {skills} {config_dir}/node_modules {ROOT}/data {ROOT}/state {ROOT}/cache\n\
         printf '%s' '{package}' > {config_dir}/package.json\n\
         printf '%s' '{lock}' > {config_dir}/package-lock.json{copy_skills}\n{}",
        cli_harness::relay_script()
    );
    cli_harness::setup(&CLI, &input, setup).await?;

    let env = vec![
        format!("HOME={}", crate::HOME),
        "TMPDIR=/tmp".into(),
        format!("XDG_CONFIG_HOME={CONFIG_HOME}"),
        format!("XDG_DATA_HOME={ROOT}/data"),
        format!("XDG_STATE_HOME={ROOT}/state"),
        format!("XDG_CACHE_HOME={ROOT}/cache"),
        format!("OPENCODE_CONFIG_CONTENT={}", config(input.model)),
        // Everything but the model call: the models list, updates, language servers, sharing.
        "OPENCODE_DISABLE_MODELS_FETCH=1".into(),
        "OPENCODE_DISABLE_AUTOUPDATE=1".into(),
        "OPENCODE_DISABLE_LSP_DOWNLOAD=1".into(),
        "OPENCODE_DISABLE_SHARE=1".into(),
        "NO_COLOR=1".into(),
    ];
    // Through `sh` only to close stdin.
    let command = args(&[
        "sh",
        "-c",
        "exec \"$0\" \"$@\" </dev/null",
        BINARY,
        "run",
        "--format",
        "json",
        "--",
        input.instruction,
    ]);
    let started = Instant::now();
    let result = cli_harness::exec(&input, proxy, command, env, &mut progress_line).await?;
    let converted = convert(input.instruction, &result.stdout, &input.session_id, input.model);
    cli_harness::outcome(&CLI, &input, converted, &result, proxy, started)
}

/// A line of the live log for one event: what the agent said or ran.
fn progress_line(line: &str) -> Option<String> {
    let event: Value = serde_json::from_str(line.trim()).ok()?;
    let part = &event["part"];
    match event["type"].as_str()? {
        "tool_use" => Some(format!("$ {} {}\n", part["tool"].as_str()?, part["state"]["input"])),
        "text" => Some(format!("agent: {}\n", part["text"].as_str()?)),
        _ => None,
    }
}

/// One model response being gathered: the parts between `step_start` and `step_finish`.
#[derive(Default)]
struct Response {
    text: Vec<String>,
    reasoning: Vec<String>,
    /// (call id, tool, input, output or error)
    calls: Vec<(String, String, Value, String)>,
}

/// The skill a tool call reads: OpenCode's skill tool, or its read tool on a skill's SKILL.md.
fn skill_read(tool: &str, input: &Value) -> Option<String> {
    match tool {
        "skill" => input["name"].as_str().map(String::from),
        "read" => cli_harness::skill_in(input["filePath"].as_str()?),
        _ => None,
    }
}

/// Reads OpenCode's `run --format json` events (lines that are not JSON are skipped): one agent
/// step per model response (its text, reasoning and tool calls with their results), with the
/// tokens its `step_finish` reports.
pub fn convert(instruction: &str, stdout: &str, session_id: &str, model: &str) -> Converted {
    let mut agent = Agent::new("opencode", VERSION, Some(model.to_string()));
    agent.extra = Some(serde_json::Map::from_iter([("harness".to_string(), Value::from("opencode"))]));
    let mut b = TrajectoryBuilder::new(session_id, agent);
    // The stream leaves the prompt out.
    b.user_step(instruction);
    let (mut ending, mut final_text, mut usage, mut turns) = (None, None, Usage::default(), 0u32);
    let mut response = Response::default();
    let mut reads: Vec<(String, String)> = Vec::new();

    for line in stdout.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line.trim()) else { continue };
        let part = &event["part"];
        match event["type"].as_str() {
            Some("step_start") => response = Response::default(),
            Some("text") => response.text.extend(part["text"].as_str().map(String::from)),
            Some("reasoning") => response.reasoning.extend(part["text"].as_str().map(String::from)),
            Some("tool_use") => {
                let state = &part["state"];
                let (id, tool) =
                    (part["callID"].as_str().unwrap_or_default(), part["tool"].as_str().unwrap_or_default());
                if let Some(skill) = skill_read(tool, &state["input"]) {
                    reads.push((id.to_string(), skill));
                }
                let result = state["output"].as_str().or(state["error"].as_str()).unwrap_or_default();
                response.calls.push((id.into(), tool.into(), state["input"].clone(), result.into()));
            }
            Some("step_finish") => {
                let r = std::mem::take(&mut response);
                let t = &part["tokens"];
                let n = |v: &Value| v.as_u64().unwrap_or(0);
                let step_usage = Usage {
                    input_tokens: n(&t["input"]) + n(&t["cache"]["read"]) + n(&t["cache"]["write"]),
                    cached_tokens: n(&t["cache"]["read"]),
                    output_tokens: n(&t["output"]) + n(&t["reasoning"]),
                };
                usage.input_tokens += step_usage.input_tokens;
                usage.cached_tokens += step_usage.cached_tokens;
                usage.output_tokens += step_usage.output_tokens;
                turns += 1;
                let metrics = TurnMetrics {
                    prompt_tokens: step_usage.input_tokens as i64,
                    completion_tokens: step_usage.output_tokens as i64,
                    cached_tokens: step_usage.cached_tokens as i64,
                    cost_usd: None,
                };
                let text = r.text.join("\n");
                if !text.is_empty() {
                    final_text = Some(text.clone());
                }
                let reasoning = (!r.reasoning.is_empty()).then(|| r.reasoning.join("\n"));
                let calls =
                    r.calls.iter().map(|(id, tool, input, _)| (id.clone(), tool.clone(), input.clone())).collect();
                let step = b.agent_step(text, reasoning, calls, metrics, time::OffsetDateTime::now_utc());
                for (id, _, _, result) in r.calls {
                    b.observation(step, &id, result).expect("the call was recorded in that step");
                }
                ending = match part["reason"].as_str() {
                    Some("stop") => Some(Ending::Answer),
                    Some("length") => Some(Ending::Failed("the model's output hit its token limit".into())),
                    _ => None,
                };
            }
            Some("error") => {
                let error = &event["error"];
                let why = error["data"]["message"].as_str().or(error["message"].as_str()).map(String::from);
                ending = Some(Ending::Failed(why.unwrap_or_else(|| error.to_string())));
            }
            _ => {}
        }
    }
    let mut trajectory = serde_json::to_value(b.finish(None)).expect("a trajectory serialises");
    cli_harness::mark_skill_reads(&mut trajectory, &reads);
    Converted { trajectory, ending, final_text, turns, usage, model_ms: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The events OpenCode 1.18.33 printed for a skill call, a command and an answer (trimmed).
    const EVENTS: &str = r#"{"type":"step_start","part":{"type":"step-start"}}
{"type":"tool_use","part":{"type":"tool","tool":"skill","callID":"call_0","state":{"status":"completed","input":{"name":"answer-keeper"},"output":"<skill_content name=\"answer-keeper\">Copy task.txt</skill_content>"}}}
{"type":"step_finish","part":{"reason":"tool-calls","type":"step-finish","tokens":{"total":6965,"input":6957,"output":8,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}}
not json
{"type":"step_start","part":{"type":"step-start"}}
{"type":"tool_use","part":{"type":"tool","tool":"bash","callID":"call_1","state":{"status":"completed","input":{"command":"cat task.txt > answer.txt"},"output":"(no output)"}}}
{"type":"step_finish","part":{"reason":"tool-calls","type":"step-finish","tokens":{"total":7075,"input":93,"output":11,"reasoning":0,"cache":{"write":0,"read":6971}},"cost":0}}
{"type":"step_start","part":{"type":"step-start"}}
{"type":"text","part":{"type":"text","text":"copied"}}
{"type":"step_finish","part":{"reason":"stop","type":"step-finish","tokens":{"total":7090,"input":7,"output":2,"reasoning":0,"cache":{"write":0,"read":7081}},"cost":0}}
"#;

    #[test]
    fn events_become_one_step_per_response_with_its_tokens_and_the_skill_read_marked() {
        let c = convert("Copy the task", EVENTS, "s", "m");
        assert_eq!(skillscope_atif::validate(&c.trajectory), Vec::new(), "{}", c.trajectory);
        assert_eq!(c.ending, Some(Ending::Answer));
        assert_eq!(c.final_text.as_deref(), Some("copied"));
        assert_eq!(c.turns, 3);
        assert_eq!((c.usage.input_tokens, c.usage.cached_tokens, c.usage.output_tokens), (21_109, 14_052, 21));
        let steps = c.trajectory["steps"].as_array().unwrap();
        assert_eq!(steps.len(), 4, "the prompt and three responses");
        assert_eq!(steps[1]["tool_calls"][0]["extra"]["skill_read"], "answer-keeper");
        assert!(steps[2]["tool_calls"][0].get("extra").is_none());
        assert_eq!(steps[2]["observation"]["results"][0]["content"], "(no output)");
        assert_eq!(steps[2]["metrics"]["prompt_tokens"], 7_064);
        assert_eq!(steps[2]["metrics"]["cached_tokens"], 6_971);
    }

    #[test]
    fn an_error_event_is_a_failed_run() {
        let c =
            convert("x", r#"{"type":"error","error":{"name":"APIError","data":{"message":"401 bad key"}}}"#, "s", "m");
        assert_eq!(c.ending, Some(Ending::Failed("401 bad key".into())));
    }
}
