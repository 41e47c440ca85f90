//! `skillscope tasks import|list|show|approve|reject|edit`: task sets stored in the workspace (the same importers
//! and store as the app's Tasks page), for `skillscope eval --task-set`; reviews of generated drafts.

use clap::{Subcommand, ValueEnum};
use skillscope_api::experiments::drafts::{self, DraftEdit};
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
    /// One stored task set: its tasks with their verifiers, warnings, and for drafts their
    /// reviews and verifier sanity checks.
    Show {
        id: i64,
        /// The whole set: `{"summary", "tasks", "specs"}`.
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
    /// Change a generated draft no experiment ran: its instruction (from a file, `-` for stdin)
    /// and, for a judged draft, its expectations. Its leakage is measured again and a verdict on
    /// the old text is withdrawn.
    Edit {
        task_id: String,
        /// The generated set holding it.
        #[arg(long)]
        set: i64,
        #[arg(long)]
        instruction_file: PathBuf,
        /// Replaces a judged draft's expectations (repeat for each).
        #[arg(long = "expectation")]
        expectations: Vec<String>,
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
        TasksCmd::Edit { task_id, set, instruction_file, expectations } => {
            let instruction = if instruction_file.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin()).map_err(|e| AppError::io("stdin", e))?
            } else {
                std::fs::read_to_string(&instruction_file).map_err(|e| AppError::io(instruction_file.display(), e))?
            };
            let expectations = (!expectations.is_empty()).then_some(expectations);
            let detail = drafts::edit(ws, set, &task_id, &DraftEdit { instruction, expectations })?;
            let brief = detail.tasks.iter().find(|t| t.id == task_id).expect("the edited task");
            println!("{task_id} of task set #{set} edited; any verdict on it was withdrawn");
            for w in &brief.warnings {
                println!("  warning: {w}");
            }
        }
        TasksCmd::Show { id, json } => {
            let detail = task_sets::get(ws, id)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&detail)?);
                return Ok(());
            }
            let s = &detail.summary;
            println!(
                "task set #{} ({} v{}, sha256 {}), from {}",
                s.id,
                s.name,
                s.version,
                &s.sha256[..12],
                s.source_path
            );
            for t in &detail.tasks {
                println!("{}  [{}]  {}", t.id, t.environment, t.verifier);
                if let Some(r) = &t.review {
                    println!("      {:?} by {} at {}", r.verdict, r.reviewer, r.decided_at);
                }
                if let Some(c) = &t.sanity {
                    println!("      verifier sanity {:?}: {}", c.state, c.problems.join("; "));
                }
                for w in &t.warnings {
                    println!("      warning: {w}");
                }
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
