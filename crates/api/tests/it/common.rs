//! Shared set-up for tests that need the real Docker engine and the local busybox image.

use skillscope_api::agents::{self, AgentConfig};
use skillscope_api::queue::model::QueueEvent;
use skillscope_api::queue::worker::{self, Sink, WorkerOptions};
use skillscope_api::{AppError, Workspace};
use skillscope_models::{ApiKind, ProviderConfig};
use skillscope_sandbox::{bootstrap, Engine};
use std::sync::{Arc, Mutex};

pub(crate) const IMAGE: &str = "skillscope/busybox:1";

pub(crate) fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Runtime::new().unwrap()
}

/// Connects to the engine (failing loudly: these tests are about Docker) and builds busybox.
pub(crate) async fn engine() -> Engine {
    let e = Engine::connect().await.expect("a running Docker engine (scripts/test.sh starts dockerd)");
    bootstrap::busybox(&e).await.expect("busybox image");
    e
}

/// Collects every event the worker emits.
pub(crate) fn recorder() -> (Sink, Arc<Mutex<Vec<QueueEvent>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    (Arc::new(move |ev| s2.lock().unwrap().push(ev)), seen)
}

pub(crate) async fn drain(ws: &Workspace, socket: Option<String>, sink: Sink) -> Result<(), AppError> {
    Ok(worker::run(ws.clone(), WorkerOptions { drain: true, socket, ..Default::default() }, sink).await?)
}

/// Containers still present for this workspace.
pub(crate) async fn leftovers(engine: &Engine, ws: &Workspace) -> usize {
    let label = worker::workspace_label(ws);
    engine
        .managed_containers()
        .await
        .unwrap()
        .iter()
        .filter(|c| c.labels.get("skillscope.workspace") == Some(&label))
        .count()
}

/// A private session keyring for this process, so the kernel keyring store works headless.
pub(crate) fn join_session_keyring() {
    // SAFETY: keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL) creates and joins an anonymous keyring.
    let r = unsafe { libc::syscall(libc::SYS_keyctl, 1, std::ptr::null::<libc::c_char>()) };
    assert!(r >= 0, "keyctl join session keyring failed");
    std::env::set_var(skillscope_api::credentials::STORE_ENV, "keyutils");
}

/// Connects to the engine and builds the Debian python image (glibc, python3, pytest).
pub(crate) async fn debian_engine() -> Engine {
    let engine = engine().await;
    bootstrap::debian_python(&engine, &mut |line| eprintln!("[debootstrap] {line}"))
        .await
        .expect("debian python image");
    engine
}

/// Imports a skill made of one SKILL.md under `root`; returns its version id.
pub(crate) fn import_skill(ws: &Workspace, root: &std::path::Path, name: &str, skill_md: &str) -> i64 {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), skill_md).unwrap();
    let request = skillscope_api::model::ImportRequest { source: dir.display().to_string(), ..Default::default() };
    skillscope_api::import::import(ws, &request, &mut |_| Ok(())).unwrap().skills[0].version_id
}

/// Runs one skill on `tasks` with `configs` (isolated, once) to the end; returns the experiment and
/// every event the worker emitted.
pub(crate) fn run_experiment(
    ws: &Workspace,
    rt: &tokio::runtime::Runtime,
    skill_version: i64,
    tasks: Vec<skillscope_api::experiments::ExperimentTask>,
    configs: Vec<i64>,
) -> (i64, Arc<Mutex<Vec<QueueEvent>>>) {
    use skillscope_api::experiments::{self, Condition, ExperimentDesign};
    let design = ExperimentDesign {
        name: tasks.first().map(|t| t.id.clone()).unwrap_or_default(),
        skill_version_ids: vec![skill_version],
        decoy_version_ids: vec![],
        tasks,
        task_set_id: None,
        agent_config_ids: configs,
        conditions: vec![Condition::Isolated],
        repeats: 1,
        only: Vec::new(),
        judge: None,
    };
    let e = experiments::create(ws, &design).unwrap();
    let (sink, events) = recorder();
    rt.block_on(drain(ws, None, sink)).unwrap();
    (e, events)
}

/// Runs one skill on one task with one configuration (isolated, once) to the end; returns the
/// pair and every event the worker emitted.
pub(crate) fn run_one_pair(
    ws: &Workspace,
    rt: &tokio::runtime::Runtime,
    skill_version: i64,
    task: skillscope_api::experiments::ExperimentTask,
    config: i64,
) -> (skillscope_api::experiments::PairView, Arc<Mutex<Vec<QueueEvent>>>) {
    let (e, events) = run_experiment(ws, rt, skill_version, vec![task], vec![config]);
    let mut pairs = skillscope_api::experiments::pairs(ws, e).unwrap();
    assert_eq!(pairs.len(), 1);
    (pairs.remove(0), events)
}

/// Registers the scripted model server at `base_url` as provider "scripted" (OpenAI Chat, with
/// `key` in the keyring) and a built-in agent configuration on it; returns the configuration's id.
pub(crate) fn scripted_builtin_agent(ws: &Workspace, base_url: &str, key: &str) -> i64 {
    agents::save_provider(ws, &ProviderConfig::new("scripted", ApiKind::OpenAiChat, base_url.to_string())).unwrap();
    skillscope_api::credentials::set("scripted", key).unwrap();
    let config = AgentConfig {
        id: 0,
        name: "builtin".into(),
        harness: Default::default(),
        provider_id: "scripted".into(),
        model: "m".into(),
        limits: Default::default(),
    };
    agents::save_agent(ws, &config).unwrap()
}

/// The scripted model server whose agent copies `task.txt` to `answer.txt` and says it is done.
pub(crate) fn copying_model_server(rt: &tokio::runtime::Runtime) -> skillscope_modelserver::ServerHandle {
    let script: skillscope_modelserver::Script = serde_json::from_value(serde_json::json!({
        "default": [{"tool": "bash", "args": {"command": "cp task.txt answer.txt"}}, {"text": "done"}]
    }))
    .unwrap();
    let opts = skillscope_modelserver::ServerOptions { script, ..Default::default() };
    rt.block_on(skillscope_modelserver::start(opts)).unwrap()
}

/// The busybox task that server's agent does: copy `task.txt` (written to a new folder
/// `workspace`) to `answer.txt`, checked by `cmp`.
pub(crate) fn copy_task(id: &str, workspace: &std::path::Path) -> skillscope_api::experiments::ExperimentTask {
    std::fs::create_dir_all(workspace).unwrap();
    std::fs::write(workspace.join("task.txt"), "1\n").unwrap();
    skillscope_api::experiments::ExperimentTask {
        id: id.into(),
        instruction: "Copy the content of task.txt into answer.txt.".into(),
        image: IMAGE.into(),
        workspace: Some(workspace.display().to_string()),
        verifier: vec!["sh".into(), "-c".into(), "cmp -s task.txt answer.txt".into()],
        scoring: None,
        dockerfile_context: None,
        verifier_in_place: false,
        accepted_skill_paths: Vec::new(),
        settings: Default::default(),
    }
}

/// The shared copy task (`copy_task`, in a workspace under `dir`) on the Debian image, which the
/// CLI harnesses need (glibc for Claude Code, /bin/bash for Codex's commands).
pub(crate) fn copy_task_on_debian(dir: &std::path::Path) -> skillscope_api::experiments::ExperimentTask {
    skillscope_api::experiments::ExperimentTask {
        image: bootstrap::DEBIAN_PYTHON_TAG.into(),
        ..copy_task("copy", &dir.join("task"))
    }
}

/// A skill that tells the agent how to do `copy_task`.
pub(crate) const ANSWER_KEEPER: &str =
    "---\nname: answer-keeper\ndescription: Answers copy tasks. Use when a task asks for answer.txt.\n---\nCopy task.txt to answer.txt with cat.\n";

/// The stored trajectory of a trial's (last) attempt, as JSON.
pub(crate) fn trajectory(ws: &Workspace, trial: i64) -> serde_json::Value {
    let Some(summary) = skillscope_api::trajectories::for_trial(ws, trial).unwrap().pop() else {
        let t = skillscope_api::queue::store::trial(&ws.conn().unwrap(), trial).unwrap();
        panic!("no stored trajectory for trial {trial}: {:?} after attempt {}: {}", t.state, t.attempt, t.message);
    };
    serde_json::to_value(skillscope_api::trajectories::get(ws, summary.id).unwrap()).unwrap()
}

/// The key went only from the keyring to the proxy: not into the trajectories, the live logs
/// or the database file.
pub(crate) fn assert_key_nowhere(
    ws: &Workspace,
    key: &str,
    trajectories: &[&serde_json::Value],
    events: &Mutex<Vec<QueueEvent>>,
) {
    let logs = events.lock().unwrap().iter().map(|e| format!("{e:?}")).collect::<String>();
    assert!(!logs.contains(key), "the key is in the live logs");
    for t in trajectories {
        assert!(!t.to_string().contains(key), "the key is in a trajectory");
    }
    let db = std::fs::read(ws.db_path()).unwrap();
    assert!(!db.windows(key.len()).any(|w| w == key.as_bytes()), "the key is in the database");
}

/// Installs `harness` into `ws` (once: `$SKILLSCOPE_HARNESS_DIR` is shared) and registers the
/// scripted server at `base_url` as a provider speaking `api` (with `key` in the keyring, when
/// given) and a configuration of that harness on it; returns the configuration's id.
pub(crate) fn cli_agent(
    ws: &Workspace,
    harness: skillscope_api::harnesses::Harness,
    api: ApiKind,
    base_url: &str,
    key: Option<&str>,
) -> i64 {
    skillscope_api::harnesses::install(ws, harness, &mut |_| true)
        .expect("the harness installs with npm (scripts/test.sh installs it once)");
    let provider = format!("{}-scripted", harness.as_str());
    agents::save_provider(ws, &ProviderConfig::new(&provider, api, base_url.to_string())).unwrap();
    if let Some(key) = key {
        skillscope_api::credentials::set(&provider, key).unwrap();
    }
    let config = AgentConfig {
        id: 0,
        name: harness.as_str().into(),
        harness,
        provider_id: provider,
        model: "model-test".into(),
        limits: Default::default(),
    };
    agents::save_agent(ws, &config).unwrap()
}

/// Runs a pair of `harness` (on the scripted server, speaking `api`) on a one-line task on the
/// busybox image (no glibc, no bash), once; returns the message of its without-skill trial.
pub(crate) fn busybox_trial_message(harness: skillscope_api::harnesses::Harness, api: ApiKind) -> String {
    join_session_keyring();
    let rt = rt();
    rt.block_on(engine());
    let script = serde_json::from_value(serde_json::json!({"default": [{"text": "never asked"}]})).unwrap();
    let options = skillscope_modelserver::ServerOptions { script, ..Default::default() };
    let server = rt.block_on(skillscope_modelserver::start(options)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    ws.edit_config(|c| c.queue.max_attempts = Some(1));
    let config = cli_agent(&ws, harness, api, &server.base_url, None);
    let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
    // Built from busybox under a tag of its own: a task naming the busybox default would be moved
    // to the Debian image for a real CLI (`Harness::task_image`).
    let context = tmp.path().join("busybox-only");
    std::fs::create_dir_all(&context).unwrap();
    std::fs::write(context.join("Dockerfile"), format!("FROM {IMAGE}\n")).unwrap();
    let task = skillscope_api::experiments::ExperimentTask {
        id: "busybox".into(),
        instruction: "Say hi.".into(),
        image: "skillscope-test/busybox-only:1".into(),
        workspace: None,
        verifier: vec!["true".into()],
        scoring: None,
        dockerfile_context: Some(context.display().to_string()),
        verifier_in_place: false,
        accepted_skill_paths: Vec::new(),
        settings: Default::default(),
    };
    let (p, _) = run_one_pair(&ws, &rt, version, task, config);
    let run = skillscope_api::experiments::list(&ws).unwrap()[0].run_id;
    let trials = skillscope_api::queue::store::trials(&ws, run).unwrap();
    trials.into_iter().find(|t| t.id == p.without.trial_id).unwrap().message
}

/// Queues `trials` as one run and works the queue until it is empty; the run's trials.
pub(crate) fn run_trials(
    ws: &Workspace,
    rt: &tokio::runtime::Runtime,
    trials: &[(String, skillscope_api::queue::model::TrialSpec)],
) -> Vec<skillscope_api::queue::model::TrialView> {
    let run = skillscope_api::queue::store::create_run(ws, "trials", trials).unwrap();
    let (sink, _) = recorder();
    rt.block_on(drain(ws, None, sink)).unwrap();
    skillscope_api::queue::store::trials(ws, run).unwrap()
}

/// The state, last score and message of the trial labelled `label` among `all`.
pub(crate) fn outcome(
    ws: &Workspace,
    all: &[skillscope_api::queue::model::TrialView],
    label: &str,
) -> (skillscope_api::queue::model::TrialState, Option<f64>, String) {
    let t = all.iter().find(|t| t.label == label).unwrap_or_else(|| panic!("no trial {label}"));
    let score = skillscope_api::queue::store::results(ws, t.id).unwrap().pop().and_then(|r| r.score);
    (t.state, score, t.message.clone())
}
