//! `skillscope eval`: one skill against a task set with one agent configuration, both arms
//! through the queue, then the paired statistics.

use clap::ValueEnum;
use skillscope_api::experiments::{self, Condition, ExperimentDesign, ExperimentTask, TaskSettings};
use skillscope_api::tasks::{evals, harbor, TaskSpec};
use skillscope_api::{agents, library, AppError, Workspace};
use std::path::Path;

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Cond {
    Isolated,
    Group,
}

const DEFAULT_IMAGE: &str = "skillscope/busybox:1";

/// Harbor task folders (one or many), else a skill's evals.json (or the file itself).
pub(crate) fn load_tasks(dir: &Path) -> Result<Vec<TaskSpec>, AppError> {
    let bad = |e: skillscope_api::tasks::ImportError| AppError::invalid_input(e.to_string());
    let harbor = harbor::import_dir(dir).map_err(bad)?;
    for e in &harbor.errors {
        eprintln!("skipped: {e}");
    }
    if !harbor.tasks.is_empty() {
        return Ok(harbor.tasks);
    }
    if dir.is_file() { evals::import_file(dir) } else { evals::import_skill(dir) }.map_err(bad)
}

/// Writes a task's workspace files under the workspace home, where the queue copies them from.
pub(crate) fn experiment_task(ws: &Workspace, t: TaskSpec) -> Result<Option<ExperimentTask>, AppError> {
    if !t.is_deterministic() {
        eprintln!("skipped {}: it has no deterministic verifier (a judge will score it later)", t.id);
        return Ok(None);
    }
    let safe: String = t.id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let dir = ws.home().join("tasks").join(&safe);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| AppError::io(dir.display(), e))?;
    for f in &t.environment.workspace_files {
        let p = dir.join(&f.path);
        std::fs::create_dir_all(p.parent().expect("file in a folder")).map_err(|e| AppError::io(p.display(), e))?;
        std::fs::write(&p, &f.contents).map_err(|e| AppError::io(p.display(), e))?;
    }
    let image = match (&t.environment.image, &t.environment.dockerfile_context) {
        (Some(i), _) => i.clone(),
        (None, Some(_)) => format!("skillscope-task/{}:latest", safe.to_lowercase()),
        (None, None) => DEFAULT_IMAGE.into(),
    };
    let env = t.environment;
    let settings = TaskSettings {
        workdir: env.workdir,
        setup: env.setup,
        env: env.env.into_iter().collect(),
        memory_mb: env.memory_mb,
        cpus: env.cpus,
        agent_timeout_secs: Some(t.agent_timeout_secs),
        verifier_timeout_secs: Some(t.verifier_timeout_secs),
        run_as_root: t.run_as_root,
    };
    Ok(Some(ExperimentTask {
        id: t.id,
        instruction: t.instruction,
        image,
        dockerfile_context: env.dockerfile_context,
        workspace: Some(dir.display().to_string()),
        verifier: Vec::new(),
        scoring: Some(t.verifier),
        verifier_in_place: t.verifier_in_place,
        accepted_skill_paths: Vec::new(),
        settings,
    }))
}

pub(crate) fn config_id(ws: &Workspace, name_or_id: &str) -> Result<i64, AppError> {
    let all = agents::agents(ws)?;
    all.iter().find(|a| a.name == name_or_id || a.id.to_string() == name_or_id).map(|a| a.id).ok_or_else(|| {
        AppError::not_found(format!("no agent configuration {name_or_id:?}; `skillscope agent list` shows them"))
    })
}

/// Drains the queue, printing each trial as it ends, until experiment `id` has finished.
pub(crate) fn run_experiment(ws: &Workspace, rt: &tokio::runtime::Runtime, id: i64) -> Result<(), AppError> {
    let run =
        experiments::list(ws)?.into_iter().find(|e| e.id == id).map(|e| e.run_id).expect("the experiment just created");
    crate::queue_run::drain(ws, rt, run)
}

pub(crate) struct EvalArgs {
    pub skill: String,
    pub tasks: std::path::PathBuf,
    pub config: String,
    pub repeats: u32,
    pub condition: Cond,
    pub decoys: Vec<String>,
    pub accept_skill_paths: Vec<String>,
    pub json: bool,
}

pub(crate) fn run(ws: &Workspace, a: EvalArgs) -> Result<bool, AppError> {
    let skill = library::resolve(ws, &a.skill)?;
    let decoys =
        a.decoys.iter().map(|d| library::resolve(ws, d).map(|s| s.version_id)).collect::<Result<Vec<_>, _>>()?;
    let mut tasks = Vec::new();
    for t in load_tasks(&a.tasks)? {
        tasks.extend(experiment_task(ws, t)?);
    }
    for t in &mut tasks {
        t.accepted_skill_paths = a.accept_skill_paths.clone();
    }
    if tasks.is_empty() {
        return Err(AppError::invalid_input(format!(
            "{} holds no task with a deterministic verifier",
            a.tasks.display()
        )));
    }
    let design = ExperimentDesign {
        // Named after the task folder only: experiment names end up in exported reports.
        name: format!(
            "eval {} on {}",
            skill.name,
            a.tasks.file_name().map_or_else(|| a.tasks.display().to_string(), |n| n.to_string_lossy().into_owned())
        ),
        skill_version_ids: vec![skill.version_id],
        decoy_version_ids: decoys,
        tasks,
        agent_config_ids: vec![config_id(ws, &a.config)?],
        conditions: vec![match a.condition {
            Cond::Isolated => Condition::Isolated,
            Cond::Group => Condition::Group,
        }],
        repeats: a.repeats,
    };
    let id = experiments::create(ws, &design)?;
    eprintln!("experiment #{id}: {} task(s), both arms queued", design.tasks.len());
    let rt = crate::runtime()?;
    run_experiment(ws, &rt, id)?;
    let results = experiments::results(ws, id)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&results)?);
        return Ok(true);
    }
    println!(
        "{} pair(s) scored, {} excluded, {} infrastructure re-run(s)",
        results.pairs_scored, results.pairs_excluded, results.reruns
    );
    for p in experiments::pairs(ws, id)?.iter().filter(|p| !p.excluded.is_empty()) {
        println!("excluded {} ({}): {}", p.task, p.condition_label(), p.excluded.join("; "));
    }
    crate::stats_cmd::print_report(&results.report, false)?;
    Ok(true)
}
