//! `skillscope demo generate`: runs the demo experiment for real in a throwaway workspace (Docker
//! sandbox, built-in agent, Harbor verifiers) against the scripted model server started in this
//! process, and writes its bundle. The inputs are `fixtures/demo/`: `tasks/` and `script.json`.

use clap::Subcommand;
use skillscope_api::agents::{self, AgentConfig};
use skillscope_api::experiments::{self, Condition, ExperimentDesign};
use skillscope_api::models::{ApiKind, ProviderConfig};
use skillscope_api::{bundle, credentials, demo, import, library, AppError, ErrorCode, Workspace};
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub(crate) enum DemoCmd {
    /// Run the demo experiment (needs Docker) and write its bundle (gzip when OUT ends in .gz).
    Generate {
        #[arg(long)]
        out: PathBuf,
        /// Folder holding the demo's `tasks/` and the model server's `script.json`.
        #[arg(long, default_value = "fixtures/demo")]
        inputs: PathBuf,
    },
}

const PROVIDER: &str = "scripted-demo";
/// golden, harmful and ineffective on the demo tasks, by the script's design.
const SKILLS: [&str; 3] = ["csv-insights", "commit-messages", "pytest-triage"];

pub(crate) fn run(cmd: DemoCmd) -> Result<bool, AppError> {
    let DemoCmd::Generate { out, inputs } = cmd;
    bundle::write_file(&out, &generate(&inputs)?)?;
    println!("{}", out.display());
    Ok(true)
}

fn generate(inputs: &Path) -> Result<String, AppError> {
    let script_path = inputs.join("script.json");
    let script_text = std::fs::read_to_string(&script_path).map_err(|e| AppError::io(script_path.display(), e))?;
    let script = serde_json::from_str(&script_text)
        .map_err(|e| AppError::invalid_input(format!("{}: {e}", script_path.display())))?;
    let tmp = tempfile::tempdir().map_err(|e| AppError::io("temporary workspace", e))?;
    let ws = skillscope_api::open(tmp.path().join("home"))?;
    ws.edit_config(|c| c.queue.concurrency = Some(4));
    let rt = crate::runtime()?;
    rt.block_on(async {
        let engine = skillscope_api::sandbox::Engine::connect().await?;
        skillscope_api::sandbox::bootstrap::busybox(&engine).await
    })?;
    let server = rt
        .block_on(skillscope_modelserver::start(skillscope_modelserver::ServerOptions { script, ..Default::default() }))
        .map_err(|e| AppError::io("starting the scripted model server", e))?;
    import::seed_samples_once(&ws)?;
    agents::save_provider(&ws, &ProviderConfig::new(PROVIDER, ApiKind::OpenAiChat, server.base_url.clone()))?;
    // The server accepts any key but wants one; this one lives in the keyring only for the run.
    credentials::set(PROVIDER, &format!("sk-demo-{}", skillscope_api::queue::store::now_ms()))?;
    let result = run_and_export(&ws, &rt, inputs);
    credentials::delete(PROVIDER)?;
    result
}

fn run_and_export(ws: &Workspace, rt: &tokio::runtime::Runtime, inputs: &Path) -> Result<String, AppError> {
    let config = agents::save_agent(
        ws,
        &AgentConfig {
            id: 0,
            name: "scripted-demo-agent".into(),
            harness: Default::default(),
            provider_id: PROVIDER.into(),
            model: "scripted".into(),
            limits: Default::default(),
        },
    )?;
    let task_set = experiments::task_sets::import(ws, &inputs.join("tasks"), Default::default())?.task_set.id;
    let skill_version_ids =
        SKILLS.iter().map(|s| library::resolve(ws, s).map(|s| s.version_id)).collect::<Result<_, _>>()?;
    let design = ExperimentDesign {
        name: "Demo: do the sample skills help profile CSV files?".into(),
        skill_version_ids,
        decoy_version_ids: Vec::new(),
        tasks: Vec::new(),
        task_set_id: Some(task_set),
        agent_config_ids: vec![config],
        conditions: vec![Condition::Isolated],
        repeats: 2,
        only: Vec::new(),
        judge: None,
    };
    let id = experiments::create(ws, &design)?;
    crate::eval_cmd::run_experiment(ws, rt, id)?;
    let results = experiments::results(ws, id)?;
    if results.pairs_excluded > 0 {
        return Err(AppError::new(
            ErrorCode::Internal,
            format!("{} pair(s) of the demo were excluded; is Docker healthy?", results.pairs_excluded),
        ));
    }
    for s in &results.report.skills {
        eprintln!("{}: {:?}, delta {:+.1}", s.skill, s.class, s.delta);
    }
    Ok(bundle::export(ws, id, Some(demo::provenance()))?)
}
