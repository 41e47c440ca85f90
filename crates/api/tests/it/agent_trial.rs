//! The built-in agent end to end: the real Docker engine, the scripted model server, a key in the
//! real (kernel) keyring. A task runs in a container; the trajectory validates and holds the tool
//! calls and outputs; skills appear only in the with-skill arm, read-only; model faults are
//! retried or become retried infrastructure failures; the key is found nowhere on disk.

use crate::common::*;
use serde_json::{json, Value};
use skillscope_api::agents::{self, AgentConfig};
use skillscope_api::import::import;
use skillscope_api::model::ImportRequest;
use skillscope_api::queue::model::*;
use skillscope_api::queue::store;
use skillscope_api::{credentials, trajectories, Workspace};
use skillscope_models::{ApiKind, ProviderConfig};
use skillscope_modelserver::{Fault, Script, ServerOptions};
use std::path::Path;

const CANARY: &str = "sk-canary-7f3a9c2e5b8d4016a1";
const TASK: &str = "Create report.txt containing the sum of the numbers in data.csv";

fn script() -> Script {
    serde_json::from_value(json!({
        "default": [
            {"tool": "bash", "args": {"command": "test ! -e /skills && echo no-skills-dir; awk -F, 'NR>1{s+=$1} END{print s}' data.csv > report.txt"}},
            {"tool": "read_file", "args": {"path": "report.txt"}},
            {"text": "report.txt contains the sum."}
        ],
        "branches": [{"if_prompt_contains": "csv-insights", "steps": [
            {"tool": "read_file", "args": {"path": "/skills/csv-insights/SKILL.md"}},
            {"tool": "bash", "args": {"command": "touch /skills/csv-insights/x 2>&1 || echo skills-are-read-only; awk -F, 'NR>1{s+=$1} END{print s}' data.csv > report.txt"}},
            {"text": "Done, following the csv-insights skill."}
        ]}]
    }))
    .unwrap()
}

fn spec(config: i64, work: &Path, skills: Vec<i64>) -> TrialSpec {
    TrialSpec {
        workspace: Some(work.display().to_string()),
        verifier: Some(vec!["sh".into(), "-c".into(), "test \"$(cat report.txt)\" = 6".into()]),
        agent: Some(AgentTask { agent_config_id: config, instruction: TASK.into(), skill_version_ids: skills }),
        ..TrialSpec::command(IMAGE, vec![])
    }
}

fn observations(t: &Value) -> Vec<String> {
    t["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["observation"]["results"].as_array().cloned().unwrap_or_default())
        .map(|r| r["content"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn tool_names(t: &Value) -> Vec<String> {
    t["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tool_calls"].as_array().cloned().unwrap_or_default())
        .map(|c| c["function_name"].as_str().unwrap().to_string())
        .collect()
}

/// Every file under `dir` whose bytes contain `needle`.
fn files_containing(dir: &Path, needle: &[u8]) -> Vec<String> {
    let mut hits = Vec::new();
    for e in walkdir::WalkDir::new(dir).into_iter().flatten().filter(|e| e.file_type().is_file()) {
        if let Ok(bytes) = std::fs::read(e.path()) {
            if bytes.windows(needle.len()).any(|w| w == needle) {
                hits.push(e.path().display().to_string());
            }
        }
    }
    hits
}

#[test]
fn agent_trials_with_and_without_a_skill_faults_and_no_leaked_key() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(engine());
    let server = rt
        .block_on(skillscope_modelserver::start(ServerOptions {
            script: script(),
            require_key: Some(CANARY.into()),
            ..Default::default()
        }))
        .unwrap();

    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    ws.edit_config(|c| c.queue.backoff_ms = Some(100));
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("data.csv"), "n\n1\n2\n3\n").unwrap();

    let provider = ProviderConfig {
        max_retries: 3,
        ..ProviderConfig::new("scripted", ApiKind::OpenAiChat, server.base_url.clone())
    };
    agents::save_provider(&ws, &provider).unwrap();
    credentials::set("scripted", CANARY).unwrap();
    let config = agents::save_agent(
        &ws,
        &AgentConfig {
            id: 0,
            name: "builtin on scripted".into(),
            harness: Default::default(),
            provider_id: "scripted".into(),
            model: "scripted-model".into(),
            limits: Default::default(),
        },
    )
    .unwrap();
    let skill = import(
        &ws,
        &ImportRequest {
            source: Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../fixtures/skills/csv-insights")
                .display()
                .to_string(),
            ..Default::default()
        },
        &mut |_| Ok(()),
    )
    .unwrap()
    .skills[0]
        .version_id;

    // Transient faults the client retries by itself, then a rejected key that ends attempt 1 as
    // an infrastructure failure the queue retries.
    server.push_faults(vec![
        Fault::RateLimit { retry_after_secs: 1 },
        Fault::ServerError { status: 500 },
        Fault::CutStream,
        Fault::MalformedJson,
    ]);
    let run = store::create_run(
        &ws,
        "agent",
        &[("without".into(), spec(config, &work, vec![])), ("with".into(), spec(config, &work, vec![skill]))],
    )
    .unwrap();
    ws.edit_config(|c| c.queue.concurrency = Some(1));
    let (sink, _) = recorder();
    rt.block_on(drain(&ws, None, sink)).unwrap();

    let trials = store::trials(&ws, run).unwrap();
    for t in &trials {
        assert_eq!(t.state, TrialState::Passed, "{}: {}", t.label, t.message);
        let r = store::results(&ws, t.id).unwrap().pop().unwrap();
        let created: Vec<_> =
            r.file_changes.as_array().unwrap().iter().map(|c| c["path"].as_str().unwrap().to_string()).collect();
        assert!(created.contains(&"report.txt".to_string()), "{created:?}");
        let summary = trajectories::for_trial(&ws, t.id).unwrap().pop().expect("a stored trajectory");
        assert_eq!(summary.stop_reason.as_deref(), Some("final_answer"));
        assert!(summary.input_tokens > 0 && summary.output_tokens > 0);
        let traj = serde_json::to_value(trajectories::get(&ws, summary.id).unwrap()).unwrap();
        let violations = skillscope_atif::validate(&traj);
        assert!(violations.is_empty(), "{violations:?}");
        let obs = observations(&traj);
        if t.label == "without" {
            assert_eq!(tool_names(&traj), ["bash", "read_file"]);
            assert!(obs.iter().any(|o| o.contains("no-skills-dir")), "no /skills in the without arm: {obs:?}");
            assert!(obs.iter().any(|o| o.trim() == "6"), "the read_file output holds the sum: {obs:?}");
            assert!(!traj.to_string().contains("csv-insights"), "the without arm never sees the skill");
        } else {
            assert!(obs[0].contains("# CSV insights"), "the agent read SKILL.md: {}", obs[0]);
            assert!(obs[1].contains("skills-are-read-only"), "{obs:?}");
            let system = traj["steps"][0]["message"].as_str().unwrap();
            assert!(
                system.contains("name: csv-insights") && !system.contains("## Instructions"),
                "only name and description are listed"
            );
        }
    }

    // A key the server rejects fails the attempt as an infrastructure failure; the queue retries.
    server.push_faults(vec![Fault::Unauthorized]);
    let run2 = store::create_run(&ws, "agent-401", &[("retry".into(), spec(config, &work, vec![]))]).unwrap();
    let (sink, _) = recorder();
    rt.block_on(drain(&ws, None, sink)).unwrap();
    let t = store::trials(&ws, run2).unwrap().remove(0);
    assert_eq!((t.state, t.attempt), (TrialState::Passed, 2), "{}", t.message);
    let first = &store::results(&ws, t.id).unwrap()[0];
    assert_eq!(first.outcome, TrialState::InfraError);
    assert!(first.error.as_deref().unwrap_or_default().contains("rejected"), "{:?}", first.error);

    // The evidence bundle holds the trajectory and output, and no key.
    let bundle = tmp.path().join("evidence");
    let files = skillscope_api::evidence::export(&ws, trials[1].id, &bundle).unwrap();
    assert!(files.iter().any(|f| f.ends_with("trajectory.atif.json")), "{files:?}");
    let traj: Value = serde_json::from_str(
        &std::fs::read_to_string(bundle.join(files.iter().find(|f| f.ends_with(".atif.json")).unwrap())).unwrap(),
    )
    .unwrap();
    assert!(skillscope_atif::validate(&traj).is_empty());
    let requests: Value = serde_json::from_str(
        &std::fs::read_to_string(bundle.join(files.iter().find(|f| f.ends_with("model-requests.json")).unwrap()))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(requests.as_array().unwrap().len(), 3, "one logged request per model turn: {requests}");
    assert!(requests[0]["latency_ms"].is_number() && requests[0]["tools"][0] == "bash");

    // The canary key is in the keyring and nowhere on disk.
    assert_eq!(credentials::get("scripted").unwrap().as_deref(), Some(CANARY));
    drop(server);
    let leaks = files_containing(tmp.path(), CANARY.as_bytes());
    assert!(leaks.is_empty(), "the key leaked into {leaks:?}");
    credentials::delete("scripted").unwrap();
}
