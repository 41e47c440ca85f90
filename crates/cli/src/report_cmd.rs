//! `skillscope report` and `skillscope decide`: the reviewer's side of a skill.

use clap::ValueEnum;
use skillscope_core::decisions::{self, NewDecision, Verdict};
use skillscope_core::report::{self, ReportFormat};
use skillscope_core::{library, AppError, Workspace};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Html,
    Md,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum VerdictArg {
    Approve,
    Reject,
    NeedsWork,
}

pub fn report(ws: &Workspace, skill: &str, format: Format, out: Option<PathBuf>) -> Result<bool, AppError> {
    let s = library::resolve(ws, skill)?;
    let format = match format {
        Format::Html => ReportFormat::Html,
        Format::Md => ReportFormat::Md,
        Format::Json => ReportFormat::Json,
    };
    let text = report::render(ws, s.id, format)?;
    match out {
        Some(path) => {
            std::fs::write(&path, text).map_err(|e| AppError::io(path.display(), e))?;
            println!("wrote {}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(true)
}

pub fn decide(ws: &Workspace, skill: &str, verdict: VerdictArg, rationale: String, reviewer: String) -> Result<bool, AppError> {
    let s = library::resolve(ws, skill)?;
    let verdict = match verdict {
        VerdictArg::Approve => Verdict::Approve,
        VerdictArg::Reject => Verdict::Reject,
        VerdictArg::NeedsWork => Verdict::NeedsWork,
    };
    let d = decisions::record(ws, &NewDecision { version_id: s.version_id, verdict, rationale, reviewer, evidence: Vec::new() })?;
    println!("recorded decision #{} on {} v{}", d.id, s.name, d.version);
    Ok(true)
}
