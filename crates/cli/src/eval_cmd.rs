//! `skillscope eval`: one skill against a task set with one agent configuration, both arms
//! through the queue, then the paired statistics.

use clap::ValueEnum;
use skillscope_api::experiments::task_sets::{self, TaskImportKind};
use skillscope_api::experiments::{self, Condition, ExperimentDesign};
use skillscope_api::{agents, library, AppError, Workspace};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Cond {
    Isolated,
    Group,
}

/// Where the tasks come from: a stored task set, or a path imported as one first.
pub(crate) enum Tasks {
    Stored(i64),
    Import(PathBuf),
}

/// The task set's id, importing the path first (with the same importers as the app).
fn task_set(ws: &Workspace, tasks: &Tasks) -> Result<i64, AppError> {
    match tasks {
        Tasks::Stored(id) => Ok(*id),
        Tasks::Import(path) => {
            let imported = task_sets::import(ws, path, TaskImportKind::Auto)?;
            for e in &imported.errors {
                eprintln!("skipped: {e}");
            }
            Ok(imported.task_set.id)
        }
    }
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
    pub tasks: Tasks,
    pub config: String,
    pub repeats: u32,
    pub condition: Cond,
    pub decoys: Vec<String>,
    pub accept_skill_paths: Vec<String>,
    pub json: bool,
}

/// One skill version on a stored task set with one configuration, both arms through the queue
/// until every trial has ended; returns the experiment's id.
pub(crate) struct Evaluation<'a> {
    pub skill: &'a str,
    pub version_id: i64,
    pub task_set: i64,
    pub config: i64,
    pub repeats: u32,
    pub condition: Condition,
    pub decoys: Vec<i64>,
    pub accept_skill_paths: &'a [String],
}

pub(crate) fn evaluate(ws: &Workspace, e: Evaluation) -> Result<i64, AppError> {
    let (mut tasks, skipped) = task_sets::experiment_tasks(ws, e.task_set)?;
    for line in &skipped {
        eprintln!("{line}");
    }
    for t in &mut tasks {
        t.accepted_skill_paths = e.accept_skill_paths.to_vec();
    }
    let set = task_sets::get(ws, e.task_set)?.summary;
    if tasks.is_empty() {
        return Err(AppError::invalid_input(format!(
            "task set #{} ({}) holds no task with a deterministic verifier",
            e.task_set, set.name
        )));
    }
    let design = ExperimentDesign {
        // Named after the task set only: experiment names end up in exported reports.
        name: format!("eval {} on {} v{}", e.skill, set.name, set.version),
        skill_version_ids: vec![e.version_id],
        decoy_version_ids: e.decoys,
        tasks,
        task_set_id: Some(e.task_set),
        agent_config_ids: vec![e.config],
        conditions: vec![e.condition],
        repeats: e.repeats,
        only: Vec::new(),
    };
    let id = experiments::create(ws, &design)?;
    eprintln!("experiment #{id}: {} task(s), both arms queued", design.tasks.len());
    let rt = crate::runtime()?;
    run_experiment(ws, &rt, id)?;
    Ok(id)
}

pub(crate) fn run(ws: &Workspace, a: EvalArgs) -> Result<bool, AppError> {
    let skill = library::resolve(ws, &a.skill)?;
    let decoys =
        a.decoys.iter().map(|d| library::resolve(ws, d).map(|s| s.version_id)).collect::<Result<Vec<_>, _>>()?;
    let id = evaluate(
        ws,
        Evaluation {
            skill: &skill.name,
            version_id: skill.version_id,
            task_set: task_set(ws, &a.tasks)?,
            config: config_id(ws, &a.config)?,
            repeats: a.repeats,
            condition: match a.condition {
                Cond::Isolated => Condition::Isolated,
                Cond::Group => Condition::Group,
            },
            decoys,
            accept_skill_paths: &a.accept_skill_paths,
        },
    )?;
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
