//! `skillscope eval`: one skill against a task set with one agent configuration, both arms
//! through the queue, then the paired statistics.

use clap::ValueEnum;
use skillscope_api::experiments::measures::PairMeasures;
use skillscope_api::experiments::task_sets::{self, TaskImportKind};
use skillscope_api::experiments::{self, Condition, ExperimentDesign};
use skillscope_api::judge::{Judge, PromptSet};
use skillscope_api::{agents, library, AppError, Workspace};
use std::collections::HashMap;
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

/// The provider and model of agent configuration `config` (a name or id), as a judge or writer
/// (its harness plays no part).
pub(crate) fn provider_and_model(ws: &Workspace, config: &str) -> Result<(String, String), AppError> {
    let id = config_id(ws, config)?;
    let a = agents::agents(ws)?.into_iter().find(|a| a.id == id).expect("config_id found it");
    Ok((a.provider_id, a.model))
}

/// `--judge-prompts`: a prompt version's name.
pub(crate) fn prompt_set(name: &str) -> Result<PromptSet, String> {
    PromptSet::parse(name).ok_or_else(|| {
        let names: Vec<_> = PromptSet::ALL.iter().map(|p| p.name()).collect();
        format!("no prompt version {name:?}; there are {}", names.join(", "))
    })
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
    /// An agent configuration whose provider and model judge.
    pub judge: Option<String>,
    pub judge_prompts: PromptSet,
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
    pub judge: Option<Judge>,
}

pub(crate) fn evaluate(ws: &Workspace, e: Evaluation) -> Result<i64, AppError> {
    let (mut tasks, skipped) = task_sets::experiment_tasks(ws, e.task_set, e.judge.is_some())?;
    for line in &skipped {
        eprintln!("{line}");
    }
    for t in &mut tasks {
        t.accepted_skill_paths = e.accept_skill_paths.to_vec();
    }
    let set = task_sets::get(ws, e.task_set)?.summary;
    if tasks.is_empty() {
        return Err(AppError::invalid_input(format!(
            "task set #{} ({}) holds no task with a deterministic verifier{}",
            e.task_set,
            set.name,
            if e.judge.is_some() { " or expectations to judge" } else { " (tasks with expectations need --judge)" }
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
        judge: e.judge,
    };
    let id = experiments::create(ws, &design)?;
    eprintln!("experiment #{id}: {} task(s), both arms queued", design.tasks.len());
    let rt = crate::runtime()?;
    run_experiment(ws, &rt, id)?;
    let judged = rt.block_on(experiments::judging::judge_pending(ws, id, &mut |_, _| true))?;
    if judged != Default::default() {
        eprintln!(
            "the judge graded {} arm(s), applied the rubric to {} and compared {} pair(s)",
            judged.graded, judged.rubric, judged.compared
        );
    }
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
            judge: match a.judge.as_deref() {
                Some(config) => {
                    let (provider, model) = provider_and_model(ws, config)?;
                    Some(Judge { provider, model, prompts: a.judge_prompts })
                }
                None => None,
            },
        },
    )?;
    let results = experiments::results(ws, id)?;
    let pairs = experiments::pairs(ws, id)?;
    let preference = experiments::preference::summarise(&pairs);
    if a.json {
        let mut out = serde_json::to_value(&results)?;
        let m = experiments::measures::experiment_measures(ws, id)?;
        if a.judge.is_some() {
            let measured: HashMap<i64, &PairMeasures> = m.pairs.iter().map(|p| (p.pair_id, p)).collect();
            out["pairs"] = pairs.iter().map(|p| judged_pair(p, measured.get(&p.id).copied())).collect();
            out["preference"] = serde_json::to_value(&preference)?;
            out["preference_method"] = experiments::preference::METHOD.into();
        }
        out["lift"] = lift(&m);
        out["pass_at_k"] = serde_json::to_value(&m.pass_at_k)?;
        out["activation"] = serde_json::to_value(&m.activation)?;
        out["activation_method"] = m.activation_method.clone().into();
        out["measures_method"] = format!("{} {}", m.method, m.judged_method).into();
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(true);
    }
    println!(
        "{} pair(s) scored, {} excluded, {} infrastructure re-run(s)",
        results.pairs_scored, results.pairs_excluded, results.reruns
    );
    for p in pairs.iter().filter(|p| !p.excluded.is_empty()) {
        println!("excluded {} ({}): {}", p.task, p.condition_label(), p.excluded.join("; "));
    }
    crate::stats_cmd::print_report(&results.report, false)?;
    crate::experiment_cmd::print_preference(&preference);
    let m = experiments::measures::experiment_measures(ws, id)?;
    crate::experiment_cmd::print_activation(&m.activation, &m.activation_method);
    Ok(true)
}

/// Skill Lift per skill and configuration (in points): in `overall` with its 95% CI, ACES's
/// six-metric overall where the judge scored all six, else the composite of the deterministic
/// three (`overall_measure` says which); each measure's lift in `per_metric`.
fn lift(m: &experiments::measures::ExperimentMeasures) -> serde_json::Value {
    let mut rows: std::collections::BTreeMap<(String, String), serde_json::Value> = Default::default();
    // "overall" comes after "composite" in the measures, so it wins where it exists.
    for metric in &m.metrics {
        for s in &metric.report.groups {
            let row = rows
                .entry((s.skill.clone(), s.config.clone()))
                .or_insert_with(|| serde_json::json!({"skill": s.skill, "config": s.config, "per_metric": {}}));
            row["per_metric"][&metric.measure] = s.delta.into();
            if metric.measure == "composite" || metric.measure == "overall" {
                (row["overall"], row["ci_low"], row["ci_high"]) = (s.delta.into(), s.ci_low.into(), s.ci_high.into());
                row["overall_measure"] = metric.measure.clone().into();
            }
        }
    }
    rows.into_values().collect()
}

/// A judgement as `eval --judge --json` reports it: the verdicts with their quotes, or the NO
/// SCORE reason, and who judged with which prompt.
fn judgement(j: &Option<skillscope_api::judge::Judgement>) -> serde_json::Value {
    match j {
        None => serde_json::Value::Null,
        Some(j) => serde_json::json!({
            "score": j.score(),
            "no_score": j.no_score,
            "expectations": j.graded.as_ref().map(|g| &g.expectations),
            "judge": j.by,
        }),
    }
}

/// A pair as `eval --judge --json` reports it: per arm its graded expectations, its ACES rubric
/// and its six runtime metrics in [0, 1] (a metric nobody could score is null), and the judge's
/// preference.
fn judged_pair(p: &experiments::PairView, measured: Option<&PairMeasures>) -> serde_json::Value {
    let scores = |with: bool| -> Vec<(&str, f64)> {
        let arm = measured.map(|m| if with { &m.with } else { &m.without });
        arm.map(|a| a.named().map(|(name, x)| (name, x.score)).to_vec()).unwrap_or_default()
    };
    let arm = |a: &experiments::ArmView, deterministic: Vec<(&str, f64)>| {
        let mut metrics = serde_json::json!({
            "behavior_check": a.judgement.as_ref().and_then(|j| j.score()),
            "goal_accuracy": a.rubric_scores.map(|s| s.goal_accuracy),
            "accuracy": a.rubric_scores.and_then(|s| s.accuracy),
        });
        for (name, score) in deterministic {
            metrics[name] = score.into();
        }
        let mut out = judgement(&a.judgement);
        if out.is_null() {
            out = serde_json::json!({});
        }
        out["rubric"] = judgement(&a.rubric);
        out["metrics"] = metrics;
        out
    };
    // "with", "without" or "tie"; null when not compared or NO SCORE (the reason beside it).
    let preference = p.preference.as_ref().and_then(|x| x.compared.as_ref()).map(|c| c.preferred);
    serde_json::json!({
        "task": p.task, "config": p.config, "repeat": p.repeat, "scored": p.excluded.is_empty(), "excluded": p.excluded,
        "judged": {"without": arm(&p.without, scores(false)), "with": arm(&p.with, scores(true)),
                   "preference": preference,
                   "preference_no_score": p.preference.as_ref().and_then(|x| x.no_score.as_ref()),
                   "position_flip": p.preference.as_ref().and_then(|x| x.compared.as_ref()).map(|c| c.position_flip)},
    })
}
