//! The real Claude Code CLI as an experiment's agent: it runs inside each trial's container (no
//! network, Debian python image), reaches the scripted model server only through the host's
//! key-adding proxy, finds the skill where Claude Code looks in the with-skill arm, and its run
//! becomes a valid ATIF trajectory. The key never enters the container or any record. Waiting on
//! a rate-limited provider is not the agent's wall time.

use crate::common::*;
use serde_json::json;
use skillscope_api::agents::{self, AgentConfig};
use skillscope_api::experiments::ExperimentTask;
use skillscope_api::{harnesses, trajectories, Workspace};
use skillscope_models::{ApiKind, ProviderConfig};
use skillscope_modelserver::{Fault, Script, ServerOptions};
use skillscope_sandbox::bootstrap::DEBIAN_PYTHON_TAG;

const KEY: &str = "sk-ant-claude-code-canary-5d1f0b7e";

/// Installs Claude Code into `ws` and registers the scripted server at `base_url` as its
/// Anthropic provider (with `key` in the keyring, when given) and a Claude Code configuration on
/// it; returns the configuration's id.
fn claude_code_agent(ws: &Workspace, base_url: &str, key: Option<&str>) -> i64 {
    harnesses::install_claude_code(ws, &|| false)
        .expect("Claude Code installs with npm (scripts/test.sh installs it once)");
    agents::save_provider(ws, &ProviderConfig::new("anthropic-scripted", ApiKind::Anthropic, base_url.to_string()))
        .unwrap();
    if let Some(key) = key {
        skillscope_api::credentials::set("anthropic-scripted", key).unwrap();
    }
    let config = AgentConfig {
        id: 0,
        name: "claude".into(),
        harness: harnesses::Harness::ClaudeCode,
        provider_id: "anthropic-scripted".into(),
        model: "claude-test".into(),
        limits: Default::default(),
    };
    agents::save_agent(ws, &config).unwrap()
}

/// The shared copy task (`common::copy_task`, in a workspace under `dir`) on the Debian image,
/// which Claude Code needs (glibc).
fn copy_task_on_debian(dir: &std::path::Path) -> ExperimentTask {
    ExperimentTask { image: DEBIAN_PYTHON_TAG.into(), ..copy_task("copy", &dir.join("task")) }
}

const ANSWER_KEEPER: &str = "---\nname: answer-keeper\ndescription: Answers copy tasks. Use when a task asks for answer.txt.\n---\nCopy task.txt to answer.txt with cat.\n";

#[test]
fn claude_code_runs_both_arms_in_the_sandbox_through_the_proxy() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(debian_engine());
    // Claude Code lists the arm's skills in its requests, so the with-skill arm takes the branch:
    // it invokes the skill (Claude Code's Skill tool), then follows it.
    let script: Script = serde_json::from_value(json!({
        "default": [{"tool": "Bash", "args": {"command": "echo guess > answer.txt"}}, {"text": "guessed"}],
        "branches": [{"if_prompt_contains": "answer-keeper", "steps": [
            {"tool": "Skill", "args": {"skill": "answer-keeper"}},
            {"tool": "Bash", "args": {"command": "cat task.txt > answer.txt"}},
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
    let config = claude_code_agent(&ws, &server.base_url, Some(KEY));
    let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
    let task = copy_task_on_debian(tmp.path());
    let (p, events) = run_one_pair(&ws, &rt, version, task, config);
    assert!(p.excluded.is_empty(), "{:?}", p.excluded);
    assert_eq!((p.without.score, p.with.score), (Some(0.0), Some(1.0)), "the skill made the difference");
    assert_eq!(p.with.skills_listed.as_deref(), Some(&["answer-keeper".to_string()][..]));

    let trajectory = |trial: i64| {
        let summary = trajectories::for_trial(&ws, trial).unwrap().pop().expect("a stored trajectory");
        serde_json::to_value(trajectories::get(&ws, summary.id).unwrap()).unwrap()
    };
    let with = trajectory(p.with.trial_id);
    assert_eq!(skillscope_atif::validate(&with), Vec::new(), "{with}");
    assert_eq!(with["agent"]["name"], "claude-code");
    let calls: Vec<&str> = with["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tool_calls"].as_array().into_iter().flatten())
        .map(|c| c["function_name"].as_str().unwrap())
        .collect();
    assert_eq!(calls, ["Skill", "Bash"]);
    assert!(with.to_string().contains("Copy task.txt to answer.txt with cat."), "the skill's body reached the agent");
    let without = trajectory(p.without.trial_id);
    assert!(!without.to_string().contains("answer-keeper"), "no skill in the without arm");

    // The key went only from the keyring to the proxy: not into records, logs or the trajectories.
    let logs = events.lock().unwrap().iter().map(|e| format!("{e:?}")).collect::<String>();
    for text in [with.to_string(), without.to_string(), logs] {
        assert!(!text.contains(KEY));
    }
    let db = std::fs::read(ws.db_path()).unwrap();
    assert!(!db.windows(KEY.len()).any(|w| w == KEY.as_bytes()), "the key is not in the database");
}

#[test]
fn claude_code_in_an_image_without_glibc_says_what_it_needs() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(engine());
    let script: Script = serde_json::from_value(json!({"default": [{"text": "never asked"}]})).unwrap();
    let server = rt.block_on(skillscope_modelserver::start(ServerOptions { script, ..Default::default() })).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    ws.edit_config(|c| c.queue.max_attempts = Some(1));
    let config = claude_code_agent(&ws, &server.base_url, None);
    let version = import_skill(
        &ws,
        tmp.path(),
        "any-skill",
        "---\nname: any-skill\ndescription: Anything. Use when testing.\n---\nBody.\n",
    );
    let task = ExperimentTask {
        id: "busybox".into(),
        instruction: "Say hi.".into(),
        image: IMAGE.into(),
        workspace: None,
        verifier: vec!["true".into()],
        scoring: None,
        dockerfile_context: None,
        verifier_in_place: false,
        accepted_skill_paths: Vec::new(),
        settings: Default::default(),
    };
    let (p, _) = run_one_pair(&ws, &rt, version, task, config);
    let run = skillscope_api::experiments::list(&ws).unwrap()[0].run_id;
    let trial = skillscope_api::queue::store::trials(&ws, run)
        .unwrap()
        .into_iter()
        .find(|t| t.id == p.without.trial_id)
        .unwrap();
    assert!(trial.message.contains("needs a glibc Linux image"), "{}", trial.message);
}

/// Waiting on a rate-limited provider is not Claude Code's wall time either: the agent has 15 s,
/// two of its model requests get 429s with `Retry-After: 16` (Claude Code waits and retries by
/// itself), and both arms still pass; their trajectories record the wait the proxy counted.
#[test]
fn claude_code_waiting_on_a_rate_limited_provider_keeps_its_wall_time() {
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
    server.push_faults(vec![Fault::RateLimit { retry_after_secs: 16 }, Fault::RateLimit { retry_after_secs: 16 }]);
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let config = claude_code_agent(&ws, &server.base_url, Some(KEY));
    let mut cfg = agents::agent(&ws, config).unwrap();
    cfg.limits.wall_timeout_secs = 15;
    agents::save_agent(&ws, &cfg).unwrap();
    let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
    let (p, _) = run_one_pair(&ws, &rt, version, copy_task_on_debian(tmp.path()), config);
    assert_eq!((p.without.score, p.with.score), (Some(1.0), Some(1.0)), "{:?}", p.excluded);
    // The arms may share the 429s or one may get both: what matters is the sum, and that each
    // arm that waited past its wall time still finished.
    let mut waited = 0;
    for trial in [p.without.trial_id, p.with.trial_id] {
        let summary = trajectories::for_trial(&ws, trial).unwrap().pop().expect("a stored trajectory");
        let trajectory = serde_json::to_value(trajectories::get(&ws, summary.id).unwrap()).unwrap();
        assert_eq!(trajectory["extra"]["stop_reason"], "final_answer", "{}", trajectory["extra"]);
        waited += trajectory["final_metrics"]["extra"]["provider_wait_ms"].as_u64().unwrap();
    }
    assert!(waited >= 31_000, "two 16 s backoffs were counted: {waited} ms");
}
