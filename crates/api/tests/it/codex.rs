//! The real Codex CLI as an experiment's agent: it runs inside each trial's container (no network,
//! Debian image: its commands run in /bin/bash), reaches the scripted model server only through
//! the relay to the host's key-adding proxy, finds the skill where Codex lists skills in the
//! with-skill arm and reads it with a command, and its run becomes a valid ATIF trajectory with
//! that read marked. The key never enters the container or any record. A provider that speaks
//! another API is refused before anything is queued.

use crate::common::*;
use serde_json::json;
use skillscope_api::agents::{self, AgentConfig};
use skillscope_api::harnesses::Harness;
use skillscope_api::Workspace;
use skillscope_models::{ApiKind, ProviderConfig};
use skillscope_modelserver::{Script, ServerOptions};

const KEY: &str = "sk-codex-canary-93e1a4c2";

#[test]
fn codex_runs_both_arms_in_the_sandbox_through_the_relay_and_proxy() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(debian_engine());
    // Codex lists the arm's skills in its developer message, so the with-skill arm takes the
    // branch: it reads the skill (a command, Codex has no skill tool), then follows it.
    let script: Script = serde_json::from_value(json!({
        "default": [{"tool": "bash", "args": {"command": "echo guess > answer.txt"}}, {"text": "guessed"}],
        "branches": [{"if_prompt_contains": "answer-keeper", "steps": [
            {"tool": "bash", "args": {"command": "cat \"$CODEX_HOME/skills/answer-keeper/SKILL.md\""}},
            {"tool": "bash", "args": {"command": "cat task.txt > answer.txt"}},
            {"text": "copied, as the skill says"}
        ]}]
    }))
    .unwrap();
    let server = rt
        .block_on(skillscope_modelserver::start(ServerOptions {
            script,
            require_key: Some(KEY.into()),
            ..Default::default()
        }))
        .unwrap();

    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let config = cli_agent(&ws, Harness::Codex, ApiKind::OpenAiResponses, &server.base_url, Some(KEY));
    let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
    let (p, events) = run_one_pair(&ws, &rt, version, copy_task_on_debian(tmp.path()), config);
    assert!(p.excluded.is_empty(), "{:?}", p.excluded);
    assert_eq!((p.without.score, p.with.score), (Some(0.0), Some(1.0)), "the skill made the difference");
    assert_eq!(p.with.skills_listed.as_deref(), Some(&["answer-keeper".to_string()][..]));
    assert_eq!(p.without.skills_listed.as_deref(), Some(&[][..]));

    let with = trajectory(&ws, p.with.trial_id);
    assert_eq!(skillscope_atif::validate(&with), Vec::new(), "{with}");
    assert_eq!(with["agent"]["name"], "codex");
    assert_eq!(with["agent"]["version"], skillscope_agent::codex::VERSION);
    let calls: Vec<&serde_json::Value> = with["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tool_calls"].as_array().into_iter().flatten())
        .collect();
    assert_eq!(calls.len(), 2, "{with}");
    assert_eq!(calls[0]["extra"]["skill_read"], "answer-keeper", "the read is marked: {}", calls[0]);
    assert!(calls[1].get("extra").is_none(), "only the read is marked");
    assert!(with.to_string().contains("Copy task.txt to answer.txt with cat."), "the skill's body reached the agent");
    assert!(with["final_metrics"]["total_prompt_tokens"].as_u64().unwrap() > 0, "Codex's usage is kept");
    let without = trajectory(&ws, p.without.trial_id);
    assert_eq!(skillscope_atif::validate(&without), Vec::new(), "{without}");
    assert!(!without.to_string().contains("answer-keeper"), "no skill in the without arm");
    assert_key_nowhere(&ws, KEY, &[&with, &without], &events);
}

#[test]
fn codex_in_an_image_without_bash_says_what_it_needs() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(engine());
    let script: Script = serde_json::from_value(json!({"default": [{"text": "never asked"}]})).unwrap();
    let server = rt.block_on(skillscope_modelserver::start(ServerOptions { script, ..Default::default() })).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    ws.edit_config(|c| c.queue.max_attempts = Some(1));
    let config = cli_agent(&ws, Harness::Codex, ApiKind::OpenAiResponses, &server.base_url, None);
    let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
    let message = busybox_trial_message(&ws, &rt, version, config);
    assert!(message.contains("Codex runs its commands with /bin/bash, which this image lacks"), "{message}");
}

#[test]
fn codex_on_a_provider_of_another_api_is_refused_before_anything_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    agents::save_provider(&ws, &ProviderConfig::new("chat", ApiKind::OpenAiChat, "http://127.0.0.1:9")).unwrap();
    let config = AgentConfig {
        id: 0,
        name: "codex".into(),
        harness: Harness::Codex,
        provider_id: "chat".into(),
        model: "m".into(),
        limits: Default::default(),
    };
    let err = agents::save_agent(&ws, &config).unwrap_err().to_string();
    assert!(err.contains("codex speaks the OpenAI Responses API; provider chat uses OpenAI Chat Completions"), "{err}");
    assert!(agents::agents(&ws).unwrap().is_empty(), "nothing was saved");
}
