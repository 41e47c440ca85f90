//! Library subcommands: import, list, show, diff, samples.

use serde::Serialize;
use skillscope_api::import::import_samples;
use skillscope_api::jobs::{self, JobEvent, JobOutcome, JobRequest};
use skillscope_api::model::*;
use skillscope_api::{library, scans};
use skillscope_api::{AppError, Workspace};
use std::io::IsTerminal;

/// The JSON shape of one skill in every library subcommand.
#[derive(Serialize)]
struct SkillJson {
    id: i64,
    version_id: i64,
    name: String,
    version: u32,
    sha256: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<ImportStatus>,
    validation: ValidationStatus,
    description: String,
    license: Option<String>,
    imported_at: String,
    source: Source,
    findings: Vec<Finding>,
    scan: Option<ScanSummary>,
}

fn skill_json(ws: &Workspace, s: SkillSummary, status: Option<ImportStatus>) -> Result<SkillJson, AppError> {
    let findings = library::get_version(ws, s.version_id)?.findings;
    Ok(SkillJson {
        id: s.id,
        version_id: s.version_id,
        name: s.name,
        version: s.version,
        sha256: s.sha256,
        status,
        validation: s.status,
        description: s.description,
        license: s.license,
        imported_at: s.imported_at,
        source: s.source,
        findings,
        scan: s.scan,
    })
}

fn print_json(v: &impl Serialize) -> Result<(), AppError> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

fn describe_source(s: &Source) -> String {
    let mut out = format!("{:?} {}", s.kind, s.location).to_lowercase();
    if let Some(p) = &s.subpath {
        out += &format!(" :{p}");
    }
    if let (Some(r), Some(c)) = (&s.git_ref, &s.git_commit) {
        out += &format!(" @{r} ({})", &c[..c.len().min(12)]);
    }
    out
}

fn report_outcome(ws: &Workspace, outcome: ImportOutcome, json: bool) -> Result<(), AppError> {
    if json {
        let skills = outcome
            .skills
            .into_iter()
            .map(|i| skill_json(ws, library::resolve(ws, &i.skill_id.to_string())?, Some(i.status)))
            .collect::<Result<Vec<_>, _>>()?;
        return print_json(&serde_json::json!({ "skills": skills }));
    }
    for i in outcome.skills {
        let what = match i.status {
            ImportStatus::NewSkill => format!("imported as new skill #{}, version {}", i.skill_id, i.version),
            ImportStatus::NewVersion => format!("changed: stored as version {} of skill #{}", i.version, i.skill_id),
            ImportStatus::Unchanged => {
                format!("unchanged: identical to version {} of skill #{}, nothing written", i.version, i.skill_id)
            }
        };
        println!("{}: {what} ({} finding(s), sha256 {})", i.name, i.finding_count, &i.sha256[..12]);
    }
    Ok(())
}

pub(crate) fn import(ws: &Workspace, req: ImportRequest, json: bool) -> Result<(), AppError> {
    let interactive = !json && std::io::stderr().is_terminal();
    let outcome = jobs::run_here(ws, &JobRequest::Import(req), &|ev: &JobEvent| {
        if interactive && ev.total > 0 {
            eprint!("\r{}/{} {}\x1b[K", ev.done, ev.total, ev.message);
        }
    });
    if interactive {
        eprintln!();
    }
    match outcome? {
        JobOutcome::Import(outcome) => report_outcome(ws, outcome, json),
        other => unreachable!("an import job ends with an import outcome, not {other:?}"),
    }
}

pub(crate) fn samples(ws: &Workspace, json: bool) -> Result<(), AppError> {
    let outcome = import_samples(ws)?;
    scans::scan_pending(ws, &mut |_, _| Ok(()))?;
    report_outcome(ws, outcome, json)
}

pub(crate) fn list(ws: &Workspace, json: bool) -> Result<(), AppError> {
    let skills = library::list_skills(ws)?;
    if json {
        let all = skills.into_iter().map(|s| skill_json(ws, s, None)).collect::<Result<Vec<_>, _>>()?;
        return print_json(&all);
    }
    if skills.is_empty() {
        println!("The library is empty. Import a skill with `skillscope import <folder|archive|git-url>`.");
    }
    for s in skills {
        let scan = s.scan.as_ref().map_or("not scanned".into(), |r| {
            format!(
                "Q {:>5.1} {}  S {:>3}{}",
                r.quality,
                r.grade,
                r.security,
                if r.risky { " RISKY" } else { "      " }
            )
        });
        println!(
            "#{:<4} {:<32} v{:<3} {:<9} {scan}  {}",
            s.id,
            s.name,
            s.version,
            format!("{:?}", s.status).to_lowercase(),
            describe_source(&s.source)
        );
    }
    Ok(())
}

pub(crate) fn show(ws: &Workspace, skill: &str, version: Option<u32>, json: bool) -> Result<(), AppError> {
    let s = library::resolve(ws, skill)?;
    let detail = library::get_skill(ws, s.id)?;
    let v = library::get_version(ws, library::version_id(ws, s.id, version)?)?;
    if json {
        return print_json(&serde_json::json!({
            "id": s.id,
            "name": s.name,
            "version": v.version,
            "version_id": v.id,
            "sha256": v.sha256,
            "imported_at": v.imported_at,
            "source": v.source,
            "frontmatter": v.frontmatter,
            "files": v.files,
            "findings": v.findings,
            "versions": detail.versions,
        }));
    }
    println!("{} (#{}) version {} of {}", s.name, s.id, v.version, detail.versions.len());
    println!("  source:   {}", describe_source(&v.source));
    println!("  sha256:   {}", v.sha256);
    println!("  imported: {}", v.imported_at);
    if let Some(d) = &v.frontmatter.description {
        println!("  {d}");
    }
    println!("files:");
    for f in &v.files {
        println!("  {:>9}  {}{}", f.size, f.path, if f.binary { "  (binary)" } else { "" });
    }
    println!("findings: {}", if v.findings.is_empty() { "none" } else { "" });
    for f in &v.findings {
        let at = f
            .file
            .as_deref()
            .map(|p| format!(" {p}{}", f.line.map(|l| format!(":{l}")).unwrap_or_default()))
            .unwrap_or_default();
        println!("  {:<7} {}{at}: {}", f.severity.as_str(), f.code, f.message);
    }
    Ok(())
}

pub(crate) fn diff(ws: &Workspace, skill: &str, from: u32, to: u32, json: bool) -> Result<(), AppError> {
    let s = library::resolve(ws, skill)?;
    let d = library::diff_versions(
        ws,
        library::version_id(ws, s.id, Some(from))?,
        library::version_id(ws, s.id, Some(to))?,
    )?;
    if json {
        return print_json(&d);
    }
    for f in d.files.iter().filter(|f| f.change != ChangeKind::Unchanged) {
        println!("{:?} {}", f.change, f.path);
        if let Some(u) = &f.unified_diff {
            print!("{u}");
        }
    }
    Ok(())
}
