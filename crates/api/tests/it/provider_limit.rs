//! The provider's side of a trial. Its concurrency limit holds across every trial running at
//! once: four trials run together against the scripted model server, each answer delayed so that
//! requests overlap, and the server never sees more requests at once than the provider allows (the
//! same trials with a looser limit do overlap, so the gauge would see a breach). And waiting on
//! the provider does not spend the agent's wall time.

use crate::common::*;
use skillscope_api::agents;
use skillscope_api::experiments;
use skillscope_api::queue::model::{AgentTask, TrialSpec, TrialState};
use skillscope_api::queue::store;
use skillscope_api::Workspace;
use skillscope_modelserver::Fault;

fn peak_with_limit(max_concurrency: u32) -> usize {
    let rt = rt();
    rt.block_on(engine());
    let server = copying_model_server(&rt);
    server.push_faults((0..8).map(|_| Fault::Slow { delay_ms: 400 }).collect());
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.toml"), "[queue]\nconcurrency = 4\n").unwrap();
    let ws = Workspace::open(&home).unwrap();
    let config = scripted_builtin_agent(&ws, &server.base_url, "sk-provider-limit-000");
    let mut provider = agents::provider(&ws, "scripted").unwrap();
    provider.max_concurrency = max_concurrency;
    agents::save_provider(&ws, &provider).unwrap();
    let version =
        import_skill(&ws, tmp.path(), "copier", "---\nname: copier\ndescription: Copies. Use to copy.\n---\n");
    let tasks = (1..=2).map(|i| copy_task(&format!("t{i}"), &tmp.path().join(format!("task-{i}")))).collect();
    let (id, _) = run_experiment(&ws, &rt, version, tasks, vec![config]);
    let pairs = experiments::pairs(&ws, id).unwrap();
    assert!(pairs.iter().all(|p| p.excluded.is_empty()), "{:?}", pairs.iter().map(|p| &p.excluded).collect::<Vec<_>>());
    server.peak_in_flight()
}

#[test]
fn the_providers_limit_holds_across_trials_running_at_once() {
    join_session_keyring();
    assert_eq!(peak_with_limit(1), 1, "one request at a time across the four trials");
    assert!(peak_with_limit(4) >= 2, "with a looser limit the same trials overlap");
}

/// One copy trial of an agent with 2 s of wall time whose provider first answers with `faults`;
/// returns the trial and its first model request as the request log records it.
fn two_second_agent_behind(faults: Vec<Fault>) -> (skillscope_api::queue::model::TrialView, serde_json::Value) {
    join_session_keyring();
    let rt = rt();
    rt.block_on(engine());
    let server = copying_model_server(&rt);
    server.push_faults(faults);
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let config = scripted_builtin_agent(&ws, &server.base_url, "sk-provider-wait-0000");
    let mut cfg = agents::agent(&ws, config).unwrap();
    cfg.limits.wall_timeout_secs = 2;
    agents::save_agent(&ws, &cfg).unwrap();
    let work = tmp.path().join("task");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("task.txt"), "1\n").unwrap();
    let spec = TrialSpec {
        workspace: Some(work.display().to_string()),
        verifier: Some(vec!["sh".into(), "-c".into(), "cmp -s task.txt answer.txt".into()]),
        agent: Some(AgentTask {
            agent_config_id: config,
            instruction: "Copy task.txt to answer.txt.".into(),
            skill_version_ids: vec![],
        }),
        ..TrialSpec::command(IMAGE, vec![])
    };
    let run = store::create_run(&ws, "slow provider", &[("slow provider".to_string(), spec)]).unwrap();
    let (sink, _) = recorder();
    rt.block_on(drain(&ws, None, sink)).unwrap();
    let t = store::trials(&ws, run).unwrap().pop().unwrap();
    let Some(summary) = skillscope_api::trajectories::for_trial(&ws, t.id).unwrap().pop() else {
        return (t, serde_json::Value::Null);
    };
    let trajectory = serde_json::to_value(skillscope_api::trajectories::get(&ws, summary.id).unwrap()).unwrap();
    (t, trajectory["final_metrics"]["extra"]["model_requests"][0].clone())
}

/// Waiting on a rate-limited provider is not the agent's time: the agent has 2 s of wall time,
/// and its first model call waits 3 s behind three 429s with `Retry-After: 1` before it is
/// answered; the trial still passes, and the request log records the wait.
#[test]
fn waiting_on_a_rate_limited_provider_does_not_spend_the_agents_wall_time() {
    let (t, first) = two_second_agent_behind((0..3).map(|_| Fault::RateLimit { retry_after_secs: 1 }).collect());
    assert_eq!(t.state, TrialState::Passed, "{}", t.message);
    assert!(first["provider_wait_ms"].as_u64().unwrap() >= 2900, "{first}");
    assert_eq!(first["attempts"], 4, "{first}");
}

/// A request in flight when the wall time runs out, which then fails, was the provider's time: the
/// agent's first model call takes 3 s to fail with a 500 (past its 2 s), is retried and answered;
/// the trial passes, and the failed attempt's time is provider wait.
#[test]
fn a_request_failing_after_the_deadline_is_the_providers_time() {
    let (t, first) = two_second_agent_behind(vec![Fault::SlowServerError { delay_ms: 3000, status: 500 }]);
    assert_eq!(t.state, TrialState::Passed, "{}", t.message);
    assert!(first["provider_wait_ms"].as_u64().unwrap() >= 2900, "{first}");
    assert_eq!(first["attempts"], 2, "{first}");
}
