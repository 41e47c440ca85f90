//! `skillscope tasks import|list|approve|reject`: task sets stored in the workspace (the same importers
//! and store as the app's Tasks page), for `skillscope eval --task-set`; reviews of generated drafts.

use clap::{Subcommand, ValueEnum};
use skillscope_api::experiments::drafts;
use skillscope_api::experiments::reviews::DraftVerdict;
use skillscope_api::experiments::task_sets::{self, TaskImportKind, TaskSetImport};
use skillscope_api::{AppError, Workspace};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Kind {
    Auto,
    Harbor,
    Evals,
    SweSkillsBench,
}

impl From<Kind> for TaskImportKind {
    fn from(k: Kind) -> Self {
        match k {
            Kind::Auto => Self::Auto,
            Kind::Harbor => Self::Harbor,
            Kind::Evals => Self::Evals,
            Kind::SweSkillsBench => Self::SweSkillsBench,
        }
    }
}

#[derive(Subcommand)]
pub(crate) enum TasksCmd {
    /// Store the tasks at PATH as a task set: a Harbor task folder or a folder of them, a skill
    /// folder or its evals.json, or a SWE-Skills-Bench checkout. The same content imported again
    /// is the same set.
    Import {
        path: PathBuf,
        #[arg(long, value_enum, default_value = "auto")]
        kind: Kind,
        /// `{"task_set", "tasks": [{"id", "verifier", "warnings", ...}], "errors": [...], "reused"}`.
        #[arg(long)]
        json: bool,
    },
    /// Every stored task set, newest first.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Approve a generated draft: it may then enter experiments.
    Approve {
        task_id: String,
        #[arg(long)]
        reviewer: String,
        /// The generated set holding it (default: the newest that does).
        #[arg(long)]
        set: Option<i64>,
    },
    /// Reject a generated draft: it stays out of experiments.
    Reject {
        task_id: String,
        #[arg(long)]
        reviewer: String,
        #[arg(long)]
        set: Option<i64>,
    },
}

pub(crate) fn run(ws: &Workspace, cmd: TasksCmd) -> Result<(), AppError> {
    match cmd {
        TasksCmd::Import { path, kind, json } => {
            let imported = task_sets::import(ws, &path, kind.into())?;
            if json {
                println!("{}", serde_json::to_string_pretty(&imported)?);
            } else {
                print_import(&imported);
            }
        }
        TasksCmd::Approve { task_id, reviewer, set } => review(ws, &task_id, set, DraftVerdict::Approved, &reviewer)?,
        TasksCmd::Reject { task_id, reviewer, set } => review(ws, &task_id, set, DraftVerdict::Rejected, &reviewer)?,
        TasksCmd::List { json } => {
            let sets = task_sets::list(ws)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&sets)?);
                return Ok(());
            }
            for s in &sets {
                println!(
                    "#{:<4} {} v{}  {} task(s), {} runnable  {}  {}",
                    s.id,
                    s.name,
                    s.version,
                    s.task_count,
                    s.runnable_count,
                    &s.sha256[..12],
                    s.source_path
                );
            }
        }
    }
    Ok(())
}

fn review(
    ws: &Workspace,
    task_id: &str,
    set: Option<i64>,
    verdict: DraftVerdict,
    reviewer: &str,
) -> Result<(), AppError> {
    let r = drafts::review(ws, task_id, set, verdict, reviewer)?;
    println!("{} of task set #{}: {:?} by {} at {}", r.task_id, r.task_set_id, r.verdict, r.reviewer, r.decided_at);
    Ok(())
}

fn print_import(i: &TaskSetImport) {
    let s = &i.task_set;
    let how = if i.reused { "already stored as" } else { "stored as" };
    println!("{how} task set #{} ({} v{}, sha256 {})", s.id, s.name, s.version, &s.sha256[..12]);
    for t in &i.tasks {
        let mark = if t.runnable { "  " } else { "- " };
        println!("{mark}{}  [{}]  {}", t.id, t.environment, t.verifier);
        for w in &t.warnings {
            println!("      warning: {w}");
        }
    }
    for e in &i.errors {
        println!("error: {e}");
    }
}
