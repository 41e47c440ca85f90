//! `skillscope report` and `skillscope decide`: the reviewer's side of a skill.

use clap::ValueEnum;
use skillscope_api::decisions::{self, NewDecision, Verdict};
use skillscope_api::report::{self, ReportFormat};
use skillscope_api::{library, AppError, Workspace};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Format {
    Html,
    Md,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum VerdictArg {
    Approve,
    Reject,
    NeedsWork,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ChartFormat {
    Svg,
    Png,
}

/// Writes every chart of an experiment into `out` as SVG or PNG; prints the files.
pub(crate) fn charts(
    ws: &Workspace,
    experiment: i64,
    out: &std::path::Path,
    format: ChartFormat,
) -> Result<bool, AppError> {
    std::fs::create_dir_all(out).map_err(|e| AppError::io(out.display(), e))?;
    for (i, skillscope_api::experiments::Chart { title, svg }) in
        skillscope_api::experiments::charts(ws, experiment)?.into_iter().enumerate()
    {
        let slug: String =
            title.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
        let (ext, bytes) = match format {
            ChartFormat::Svg => ("svg", svg.into_bytes()),
            ChartFormat::Png => {
                ("png", skillscope_api::charts::png::to_png(&svg, 2.0).map_err(AppError::invalid_input)?)
            }
        };
        let path = out.join(format!("{:02}-{}.{ext}", i + 1, slug.trim_matches('-')));
        std::fs::write(&path, bytes).map_err(|e| AppError::io(path.display(), e))?;
        println!("{}", path.display());
    }
    Ok(true)
}

pub(crate) fn report(
    ws: &Workspace,
    skill: &str,
    version: Option<u32>,
    format: Format,
    out: Option<PathBuf>,
) -> Result<bool, AppError> {
    let s = library::resolve(ws, skill)?;
    let format = match format {
        Format::Html => ReportFormat::Html,
        Format::Md => ReportFormat::Md,
        Format::Json => ReportFormat::Json,
    };
    let text = report::render(ws, s.id, version, format)?;
    match out {
        Some(path) => {
            std::fs::write(&path, text).map_err(|e| AppError::io(path.display(), e))?;
            println!("wrote {}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(true)
}

pub(crate) fn decide(
    ws: &Workspace,
    skill: &str,
    verdict: VerdictArg,
    rationale: String,
    reviewer: String,
) -> Result<bool, AppError> {
    let s = library::resolve(ws, skill)?;
    let verdict = match verdict {
        VerdictArg::Approve => Verdict::Approve,
        VerdictArg::Reject => Verdict::Reject,
        VerdictArg::NeedsWork => Verdict::NeedsWork,
    };
    // The same evidence the app offers: every experiment that ran this version, and its scan.
    let evidence = skillscope_api::basis::options(ws, s.version_id)?;
    let d = decisions::record(ws, &NewDecision { version_id: s.version_id, verdict, rationale, reviewer, evidence })?;
    println!(
        "recorded decision #{} on {} v{} resting on {} piece(s) of evidence (sha256 {})",
        d.id,
        s.name,
        d.version,
        d.evidence.len(),
        d.evidence_sha256.as_deref().unwrap_or("-")
    );
    Ok(true)
}
