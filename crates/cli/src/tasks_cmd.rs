//! `skillscope tasks import|list`: task sets stored in the workspace (the same importers and store
//! as the app's Tasks page), for `skillscope eval --task-set`.

use clap::{Subcommand, ValueEnum};
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
