//! The experiment wizard's back end on the real engine: an estimate before anything ran (pairs
//! and trials exact, time and cost unknown), a pair made unfair mid-run (the model changed
//! between its arms) re-run as a new experiment while the scored pair is left alone, and an
//! estimate that then rests on the trials that ran.

use crate::common::*;
use skillscope_api::experiments::{self, estimate, rerun, Condition, ExperimentDesign};
use skillscope_api::queue::model::QueueEvent;
use skillscope_api::queue::worker::{self, WorkerOptions};
use skillscope_api::{agents, ErrorCode, Workspace};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn drain(rt: &tokio::runtime::Runtime, ws: &Workspace, sink: worker::Sink) {
    rt.block_on(worker::run(ws.clone(), WorkerOptions { drain: true, ..Default::default() }, sink)).unwrap();
}

#[test]
fn unscored_pairs_rerun_as_a_new_experiment_and_estimates_rest_on_past_trials() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(engine());
    let server = copying_model_server(&rt);
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    // One trial at a time, so the change falls between the first pair's arms.
    std::fs::write(home.join("config.toml"), "[queue]\nconcurrency = 1\n").unwrap();
    let prices = "[models.m]\ninput_per_mtok = 1.0\noutput_per_mtok = 2.0\n\n[models.another-model]\ninput_per_mtok = 1.0\noutput_per_mtok = 2.0\n";
    std::fs::write(home.join("prices.toml"), prices).unwrap();
    let ws = Workspace::open(&home).unwrap();
    let config = scripted_builtin_agent(&ws, &server.base_url, "sk-rerun-test-000000");
    let skill =
        import_skill(&ws, &home, "copy-skill", "---\nname: copy-skill\ndescription: Copies files.\n---\n# Copy\n");
    let design = ExperimentDesign {
        name: "two repeats".into(),
        skill_version_ids: vec![skill],
        decoy_version_ids: vec![],
        tasks: vec![copy_task("copy", &home.join("task"))],
        task_set_id: None,
        agent_config_ids: vec![config],
        conditions: vec![Condition::Isolated],
        repeats: 2,
        only: Vec::new(),
        judge: None,
    };
    let before = estimate::estimate(&ws, &design).unwrap();
    assert_eq!((before.pairs, before.trials, before.concurrency), (2, 4, 1));
    assert_eq!((before.wall_secs, before.cost_usd, before.unknown_configs.clone()), (None, None, vec![config]));

    let id = experiments::create(&ws, &design).unwrap();
    let changed = Arc::new(AtomicBool::new(false));
    let (ws2, flag) = (ws.clone(), changed.clone());
    drain(
        &rt,
        &ws,
        Arc::new(move |ev: QueueEvent| {
            if let QueueEvent::Trial { trial } = ev {
                if trial.state.is_final() && !flag.swap(true, Ordering::SeqCst) {
                    let mut cfg = agents::agent(&ws2, config).unwrap();
                    cfg.model = "another-model".into();
                    agents::save_agent(&ws2, &cfg).unwrap();
                }
            }
        }),
    );
    let pairs = experiments::pairs(&ws, id).unwrap();
    let repeats: Vec<(u32, bool)> = pairs.iter().map(|p| (p.repeat, p.excluded.is_empty())).collect();
    assert_eq!(repeats, [(1, false), (2, true)], "the first pair's arms ran different models");

    let again = rerun::rerun_unscored(&ws, id).unwrap();
    let only = experiments::design(&ws, again).unwrap().only;
    assert_eq!(only.len(), 1);
    assert_eq!((only[0].repeat, only[0].task.as_str(), only[0].agent_config_id), (1, "copy", config));
    drain(&rt, &ws, Arc::new(|_| {}));
    let rerun_pairs = experiments::pairs(&ws, again).unwrap();
    assert_eq!(rerun_pairs.len(), 1);
    assert!(rerun_pairs[0].excluded.is_empty(), "{:?}", rerun_pairs[0].excluded);
    let e = rerun::rerun_unscored(&ws, again).unwrap_err();
    assert!(e.to_string().contains("scored pairs never are"), "{e}");
    assert_eq!(skillscope_api::AppError::from(e).code, ErrorCode::InvalidInput);

    let after = estimate::estimate(&ws, &design).unwrap();
    assert_eq!(after.basis_trials, 6, "every finished trial of the configuration");
    let (wall, (low, high)) = (after.wall_secs.unwrap(), after.wall_secs_range.unwrap());
    assert!(wall > 0.0 && low <= wall && wall <= high, "{after:?}");
    assert!(after.cost_usd.unwrap() > 0.0, "each trial's recorded cost, priced from prices.toml: {after:?}");
}
