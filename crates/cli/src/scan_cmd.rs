//! `skillscope scan`: static review of a path (not imported) or of a library skill.

use clap::ValueEnum;
use skillscope_api::model::ImportRequest;
use skillscope_api::model::Source;
use skillscope_api::scan::ScanReport;
use skillscope_api::scans::{self, ExportFormat};
use skillscope_api::{library, scan_review, AppError, Workspace};
use std::path::Path;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Json,
    Sarif,
    Md,
}

impl From<Format> for ExportFormat {
    fn from(f: Format) -> Self {
        match f {
            Format::Json => ExportFormat::Json,
            Format::Sarif => ExportFormat::Sarif,
            Format::Md => ExportFormat::Md,
        }
    }
}

/// Reports for every skill under a path, or for one library skill (by id or name), reviewed by
/// `reviewer` (provider, model) when one is given.
fn reports(
    ws: &Workspace,
    target: &str,
    reviewer: Option<&(String, String)>,
) -> Result<Vec<(Source, ScanReport)>, AppError> {
    if Path::new(target).exists() || target.contains("://") {
        let (staged, mut reports): (Vec<_>, Vec<_>) =
            scans::stage_and_scan(ws, &ImportRequest { source: target.into(), ..Default::default() })?
                .into_iter()
                .unzip();
        if let Some((provider, model)) = reviewer {
            scan_review::review_staged(ws, &staged, &mut reports, provider, model)?;
        }
        return Ok(staged.into_iter().map(|s| s.source).zip(reports).collect());
    }
    let s = library::resolve(ws, target)?;
    let report = match reviewer {
        Some((provider, model)) => scan_review::review_version(ws, s.version_id, provider, model)?,
        None => scans::report(ws, s.version_id)?,
    };
    Ok(vec![(s.source, report)])
}

/// Prints the reports; returns false when a skill scores below `fail_under` (quality or security).
pub(crate) fn run(
    ws: &Workspace,
    target: &str,
    format: Format,
    fail_under: Option<f64>,
    reviewer: Option<&(String, String)>,
) -> Result<bool, AppError> {
    let all = reports(ws, target, reviewer)?;
    println!("{}", scans::render(&all, format.into())?);
    let Some(min) = fail_under else { return Ok(true) };
    let below: Vec<String> = all
        .iter()
        .filter(|(_, r)| r.quality.overall < min || f64::from(r.security.score) < min)
        .map(|(_, r)| format!("{} (quality {:.1}, security {})", r.name, r.quality.overall, r.security.score))
        .collect();
    if !below.is_empty() {
        eprintln!("skillscope: below {min}: {}", below.join(", "));
    }
    Ok(below.is_empty())
}
