//! The real Claude Code CLI as an experiment's agent: it runs inside each trial's container (no
//! network, Debian python image), reaches the scripted model server only through the host's
//! key-adding proxy, finds the skill where Claude Code looks in the with-skill arm, and its run
//! becomes a valid ATIF trajectory. The key never enters the container or any record. Waiting on
//! a rate-limited provider is not the agent's wall time.

use crate::common::*;
use serde_json::json;
use skillscope_api::agents;
use skillscope_api::harnesses::Harness;
use skillscope_api::Workspace;
use skillscope_models::ApiKind;
use skillscope_modelserver::{Fault, Script, ServerOptions};

const KEY: &str = "sk-ant-claude-code-canary-5d1f0b7e";

/// Claude Code on the scripted server at `base_url` (an Anthropic provider).
fn claude_code_agent(ws: &Workspace, base_url: &str, key: Option<&str>) -> i64 {
    cli_agent(ws, Harness::ClaudeCode, ApiKind::Anthropic, base_url, key)
}

#[test]
fn claude_code_runs_both_arms_in_the_sandbox_through_the_proxy() {
    join_session_keyring();
    // Claude Code lists the arm's skills in its requests, so the with-skill arm takes the branch:
    // it invokes the skill (Claude Code's Skill tool), then follows it.
    let read = json!({"tool": "Skill", "args": {"skill": "answer-keeper"}});
    let (with, _) = crate::cli_harnesses::skill_makes_the_difference(Harness::ClaudeCode, ApiKind::Anthropic, read);
    let calls: Vec<&str> = with["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tool_calls"].as_array().into_iter().flatten())
        .map(|c| c["function_name"].as_str().unwrap())
        .collect();
    assert_eq!(calls, ["Skill", "Bash"]);
    for step in with["steps"].as_array().unwrap().iter().filter(|s| s["source"] == "agent") {
        let tokens = &step["metrics"]["completion_tokens"];
        assert!(tokens.is_u64(), "output tokens per response, from the session log: {step}");
    }
}

#[test]
fn claude_code_in_an_image_without_glibc_says_what_it_needs() {
    let message = busybox_trial_message(Harness::ClaudeCode, ApiKind::Anthropic);
    assert!(message.contains("needs a glibc Linux image"), "{message}");
}

/// Both arms of the copy task with Claude Code, 15 s of wall time each, on a provider whose first
/// answers are `faults`; checks both finished with the copy and returns the provider wait the arms
/// recorded, summed (the arms may share the faults, or one may get them all).
fn claude_code_behind(faults: Vec<Fault>) -> u64 {
    join_session_keyring();
    let rt = rt();
    rt.block_on(debian_engine());
    let script: Script = serde_json::from_value(json!({
        "default": [{"tool": "Bash", "args": {"command": "cat task.txt > answer.txt"}}, {"text": "copied"}]
    }))
    .unwrap();
    let server = rt
        .block_on(skillscope_modelserver::start(ServerOptions {
            script,
            require_key: Some(KEY.into()),
            ..Default::default()
        }))
        .unwrap();
    server.push_faults(faults);
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let config = claude_code_agent(&ws, &server.base_url, Some(KEY));
    let mut cfg = agents::agent(&ws, config).unwrap();
    cfg.limits.wall_timeout_secs = 15;
    agents::save_agent(&ws, &cfg).unwrap();
    let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
    let (p, _) = run_one_pair(&ws, &rt, version, copy_task_on_debian(tmp.path()), config);
    assert_eq!((p.without.score, p.with.score), (Some(1.0), Some(1.0)), "{:?}", p.excluded);
    let mut waited = 0;
    for trial in [p.without.trial_id, p.with.trial_id] {
        let trajectory = trajectory(&ws, trial);
        assert_eq!(trajectory["extra"]["stop_reason"], "final_answer", "{}", trajectory["extra"]);
        waited += trajectory["final_metrics"]["extra"]["provider_wait_ms"].as_u64().unwrap();
    }
    waited
}

#[test]
fn claude_code_waiting_on_a_rate_limited_provider_keeps_its_wall_time() {
    let waited =
        claude_code_behind(vec![Fault::RateLimit { retry_after_secs: 16 }, Fault::RateLimit { retry_after_secs: 16 }]);
    assert!(waited >= 31_000, "two 16 s backoffs were counted: {waited} ms");
}

/// A request in flight when the wall time runs out is let finish: it fails after 22 s (past the
/// arm's 15 s and the 5 s the sandbox grants a command past its deadline), which makes it the
/// provider's time, and Claude Code's retry is answered.
#[test]
fn claude_code_keeps_its_wall_time_through_a_request_that_fails_late() {
    let waited = claude_code_behind(vec![Fault::SlowServerError { delay_ms: 22_000, status: 500 }]);
    assert!(waited >= 21_900, "the failed request's 22 s were counted: {waited} ms");
}
