//! What ran, per arm, on the real engine with the scripted model: each arm records a snapshot of
//! its effective configuration, image, task and skills, and the fairness check compares the
//! snapshots. The arms run one after the other; between them the test changes one thing the
//! pair must share — the configuration's model, its sampling, the task's workspace, the image —
//! and the pair is excluded with a reason that names it. Unchanged, the pair is scored.

use crate::common::*;
use skillscope_api::agents;
use skillscope_api::experiments::{self, Condition, ExperimentDesign, ExperimentTask, PairView};
use skillscope_api::queue::model::QueueEvent;
use skillscope_api::queue::worker::{self, WorkerOptions};
use skillscope_api::Workspace;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What the test changes once the without arm has finished.
#[derive(Clone, Copy, Debug)]
enum Change {
    Nothing,
    Model,
    Temperature,
    Workspace,
    Image,
}

struct Setup {
    ws: Workspace,
    config: i64,
    workspace: PathBuf,
    context: PathBuf,
}

fn change(s: &Setup, what: Change) {
    match what {
        Change::Nothing => {}
        Change::Model | Change::Temperature => {
            let mut cfg = agents::agent(&s.ws, s.config).unwrap();
            match what {
                Change::Model => cfg.model = "another-model".into(),
                _ => cfg.limits.temperature = Some(0.9),
            }
            agents::save_agent(&s.ws, &cfg).unwrap();
        }
        Change::Workspace => std::fs::write(s.workspace.join("task.txt"), "2\n").unwrap(),
        Change::Image => {
            std::fs::write(s.context.join("Dockerfile"), format!("FROM {IMAGE}\nRUN echo rebuilt > /etc/marker\n"))
                .unwrap()
        }
    }
}

fn run_pair(root: &Path, rt: &tokio::runtime::Runtime, base_url: &str, what: Change) -> PairView {
    let home = root.join(format!("{what:?}"));
    std::fs::create_dir_all(&home).unwrap();
    // One trial at a time, so the change falls between the arms.
    std::fs::write(home.join("config.toml"), "[queue]\nconcurrency = 1\n").unwrap();
    let ws = Workspace::open(&home).unwrap();
    let config = scripted_builtin_agent(&ws, base_url, "sk-unfair-arms-000000");
    let version = import_skill(
        &ws,
        &home,
        "target-skill",
        "---\nname: target-skill\ndescription: Copies files. Use for copy tasks.\n---\n# Copy\n",
    );
    let workspace = home.join("task");
    let context = home.join("image");
    std::fs::create_dir_all(&context).unwrap();
    std::fs::write(context.join("Dockerfile"), format!("FROM {IMAGE}\n")).unwrap();
    let task = ExperimentTask {
        image: format!("skillscope-test/unfair-{}:1", format!("{what:?}").to_lowercase()),
        dockerfile_context: Some(context.display().to_string()),
        ..copy_task("copy", &workspace)
    };
    let design = ExperimentDesign {
        name: format!("{what:?}"),
        skill_version_ids: vec![version],
        decoy_version_ids: vec![],
        tasks: vec![task],
        task_set_id: None,
        agent_config_ids: vec![config],
        conditions: vec![Condition::Isolated],
        repeats: 1,
        only: Vec::new(),
        judge: None,
    };
    let id = experiments::create(&ws, &design).unwrap();
    let setup = Setup { ws: ws.clone(), config, workspace, context };
    let done = AtomicBool::new(false);
    let sink = Arc::new(move |ev: QueueEvent| {
        if let QueueEvent::Trial { trial } = ev {
            if trial.state.is_final() && !done.swap(true, Ordering::SeqCst) {
                change(&setup, what);
            }
        }
    });
    rt.block_on(worker::run(ws.clone(), WorkerOptions { drain: true, ..Default::default() }, sink)).unwrap();
    let mut pairs = experiments::pairs(&ws, id).unwrap();
    pairs.remove(0)
}

#[test]
fn a_change_between_the_arms_excludes_the_pair_and_names_what_changed() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(engine());
    let server = copying_model_server(&rt);
    let tmp = tempfile::tempdir().unwrap();

    let fair = run_pair(tmp.path(), &rt, &server.base_url, Change::Nothing);
    assert!(fair.excluded.is_empty(), "nothing changed: {:?}", fair.excluded);
    let (a, b) = (fair.without.snapshot.clone().unwrap(), fair.with.snapshot.clone().unwrap());
    assert_eq!(a.model, "m");
    assert_eq!(a.reported_models, ["m"], "the model the provider reported");
    assert!(a.skills.is_empty());
    assert_eq!(b.skills.len(), 1, "the with arm records its skill's tree: {:?}", b.skills);
    assert_eq!(a.image_digest, fair.without.image_digest.clone().unwrap());
    assert!(!a.provider_host.contains("sk-"), "no key in the snapshot: {}", a.provider_host);

    let mut caught = 0;
    for (what, field) in [
        (Change::Model, "model"),
        (Change::Temperature, "limits"),
        (Change::Workspace, "task_sha256"),
        (Change::Image, "image_digest"),
    ] {
        let pair = run_pair(tmp.path(), &rt, &server.base_url, what);
        let reasons = pair.excluded.join("\n");
        assert!(
            reasons.contains(&format!("different {field}:")),
            "{what:?} between the arms: the pair is excluded naming {field}: {reasons:?}"
        );
        caught += 1;
    }
    eprintln!("injected unfairness between the arms: {caught} of 4 caught, 0 undetected");
}
