//! Static review of stored skill versions: runs the scanner on a version's files, keeps one
//! result per version, and applies the workspace's thresholds when results are read.

use crate::catalog;
use crate::error::{LibraryError, Result};
use crate::model::{ImportRequest, Source, SourceKind, SCANNER};
use crate::package::StagedSkill;
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use skillscope_scan::{ScanConfig, ScanReport, SkillFile};
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use skillscope_store::IoError;
use std::sync::{mpsc, Mutex};
use ts_rs::TS;

fn config(ws: &Workspace) -> ScanConfig {
    let t = &ws.config().scan;
    ScanConfig { quality_gate: t.quality_gate, risky_below: t.risky_below }
}

/// Re-applies the current thresholds to a stored report.
fn with_thresholds(ws: &Workspace, mut r: ScanReport) -> ScanReport {
    let cfg = config(ws);
    r.quality.gate = cfg.quality_gate;
    r.quality.passed_gate = r.quality.overall >= cfg.quality_gate;
    r.security.risky = r.security.score < cfg.risky_below;
    r
}

/// A staged skill's files, as the scanner reads them.
pub fn staged_files(s: &StagedSkill) -> Vec<SkillFile> {
    s.files.iter().map(|f| SkillFile { path: f.path.clone(), bytes: f.bytes.clone() }).collect()
}

fn scan_one(s: &StagedSkill, cfg: &ScanConfig) -> ScanReport {
    skillscope_scan::scan(&s.dir_name, &staged_files(s), cfg)
}

/// Stages a source and scans its skills without storing them (`skillscope scan <path>`, the
/// gate): one worker per core takes each skill as soon as it is staged, so reading the folder
/// and scanning overlap. Skills and reports come back in staging order.
pub fn stage_and_scan(ws: &Workspace, req: &ImportRequest) -> Result<Vec<(StagedSkill, ScanReport)>> {
    let cfg = config(ws);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (send, receive) = mpsc::channel::<(usize, StagedSkill)>();
    let receive = Mutex::new(receive);
    let (staged, mut done) = std::thread::scope(|scope| {
        scope.spawn(skillscope_scan::security::compile_rules);
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        // The lock is held while taking the next skill, never while scanning one.
                        let next = receive.lock().ok().and_then(|r| r.recv().ok());
                        let Some((i, s)) = next else { return mine };
                        let report = scan_one(&s, &cfg);
                        mine.push((i, s, report));
                    }
                })
            })
            .collect();
        let mut count = 0;
        let staged = crate::sources::stage_request_each(ws, req, &mut |s| {
            // The workers outlive the sender, so a send cannot fail.
            let _ = send.send((count, s));
            count += 1;
            Ok(())
        });
        drop(send);
        let done: Vec<_> =
            handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect();
        (staged, done)
    });
    staged?;
    done.sort_by_key(|(i, ..)| *i);
    Ok(done.into_iter().map(|(_, s, r)| (s, r)).collect())
}

/// A stored version's folder name and files, as the scanner reads them.
pub fn version_files(ws: &Workspace, version_id: i64) -> Result<(String, Vec<SkillFile>)> {
    let dir_name: String = ws
        .conn()?
        .query_row("SELECT dir_name FROM skill_versions WHERE id = ?1", [version_id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| LibraryError::NotFound(format!("no skill version with id {version_id}")))?;
    let files = catalog::version_files(ws, version_id)?
        .into_iter()
        .map(|(f, bytes)| SkillFile { path: f.path, bytes })
        .collect();
    Ok((dir_name, files))
}

/// Scans a stored version and records the result.
pub fn scan_version(ws: &Workspace, version_id: i64) -> Result<ScanReport> {
    let (dir_name, files) = version_files(ws, version_id)?;
    let report = skillscope_scan::scan(&dir_name, &files, &config(ws));
    store(ws, version_id, &report)?;
    Ok(report)
}

/// Records `report` as the version's result (replacing the one it had).
pub fn store(ws: &Workspace, version_id: i64, report: &ScanReport) -> Result<()> {
    ws.conn()?.execute(
        "INSERT INTO scans(version_id, quality, grade, security, report_json, scanner, scanned_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT(version_id) DO UPDATE SET quality = excluded.quality, grade = excluded.grade,
            security = excluded.security, report_json = excluded.report_json, scanner = excluded.scanner,
            scanned_at = excluded.scanned_at",
        params![
            version_id,
            report.quality.overall,
            report.quality.grade,
            report.security.score,
            serde_json::to_string(report)?,
            SCANNER,
            now()
        ],
    )?;
    Ok(())
}

/// The workspace's "risky below" security threshold.
pub fn risky_below(ws: &Workspace) -> u32 {
    config(ws).risky_below
}

/// The stored result of a version, scanning it first when it has none or an outdated one.
pub fn report(ws: &Workspace, version_id: i64) -> Result<ScanReport> {
    let stored: Option<(String, String)> = ws
        .conn()?
        .query_row("SELECT report_json, scanner FROM scans WHERE version_id = ?1", [version_id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?;
    match stored {
        Some((json, scanner)) if scanner == SCANNER => Ok(with_thresholds(ws, serde_json::from_str(&json)?)),
        _ => scan_version(ws, version_id),
    }
}

/// Scans every version that has no current result. Returns how many were scanned. The progress
/// callback may return an error to stop between versions; results stored so far are kept.
pub fn scan_pending(ws: &Workspace, progress: &mut dyn FnMut(u32, u32) -> Result<()>) -> Result<u32> {
    let ids: Vec<i64> = {
        let conn = ws.conn()?;
        let mut st = conn.prepare(
            "SELECT v.id FROM skill_versions v LEFT JOIN scans s ON s.version_id = v.id
             WHERE s.version_id IS NULL OR s.scanner != ?1 ORDER BY v.id",
        )?;
        let ids = st.query_map([SCANNER], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        ids
    };
    let total = ids.len() as u32;
    for (i, id) in ids.into_iter().enumerate() {
        scan_version(ws, id)?;
        progress(i as u32 + 1, total)?;
    }
    Ok(total)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ExportFormat {
    Json,
    Sarif,
    Md,
}

impl ExportFormat {
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Json => "json",
            ExportFormat::Sarif => "sarif",
            ExportFormat::Md => "md",
        }
    }
}

/// Renders reports, each with the source it was scanned from. JSON and Markdown name the source
/// ([`source_label`]); SARIF locates files relative to one `uriBaseId` per source location
/// (`%SRCROOT%` when there is one), so it holds no local path.
pub fn render(reports: &[(Source, ScanReport)], format: ExportFormat) -> Result<String> {
    use skillscope_scan::export;
    let labelled = || reports.iter().map(|(s, r)| (source_label(s), r.clone())).collect::<Vec<_>>();
    Ok(match format {
        ExportFormat::Json => serde_json::to_string_pretty(&export::to_json(&labelled()))?,
        ExportFormat::Md => export::to_markdown(&labelled()),
        ExportFormat::Sarif => {
            let mut roots: Vec<&str> = reports.iter().map(|(s, _)| s.location.as_str()).collect();
            roots.dedup();
            let base = |s: &Source| match roots.len() {
                1 => "%SRCROOT%".to_string(),
                _ => format!("ROOT{}", roots.iter().position(|r| *r == s.location).unwrap_or(0) + 1),
            };
            let located: Vec<(String, String, &Source, &ScanReport)> =
                reports.iter().map(|(s, r)| (base(s), public_root(s), s, r)).collect();
            let skills: Vec<export::SarifSkill> = located
                .iter()
                .map(|(base, description, s, report)| export::SarifSkill {
                    base,
                    base_description: description,
                    dir: s.subpath.as_deref().unwrap_or(""),
                    report,
                })
                .collect();
            serde_json::to_string_pretty(&export::to_sarif(&skills))?
        }
    })
}

/// Writes the reports of library versions to `<home>/exports/` and returns the file's path.
pub fn export_versions(ws: &Workspace, version_ids: &[i64], format: ExportFormat) -> Result<String> {
    if version_ids.is_empty() {
        return Err(LibraryError::InvalidInput("nothing to export: choose at least one skill".into()));
    }
    let mut reports = Vec::new();
    for &id in version_ids {
        let v = catalog::get_version(ws, id)?;
        reports.push((v.source.clone(), report(ws, id)?));
    }
    let stem = match reports.as_slice() {
        [(_, one)] => one.name.clone(),
        _ => format!("{}-skills", reports.len()),
    };
    let path = ws.export_path(&format!("scan-{stem}"), format.extension())?;
    std::fs::write(&path, render(&reports, format)?).map_err(|e| IoError::new(path.display(), e))?;
    Ok(path.display().to_string())
}

/// A local folder or archive named without its path: `<kind> <local>/<last name>`.
fn local_name(s: &Source) -> String {
    let name =
        std::path::Path::new(&s.location).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    format!("{:?} <local>/{name}", s.kind).to_lowercase()
}

/// Where a skill came from, without local paths: URLs stay, folders and archives become their
/// last name.
pub fn public_source(s: &Source) -> String {
    match s.kind {
        SourceKind::Git => source_label(s),
        _ => format!("{}{}", local_name(s), s.subpath.as_deref().map(|p| format!("/{p}")).unwrap_or_default()),
    }
}

/// The folder, archive or repository a skill was found in, without local paths.
fn public_root(s: &Source) -> String {
    match (s.kind, &s.git_commit) {
        (SourceKind::Git, Some(c)) => format!("{}@{}", s.location, &c[..c.len().min(12)]),
        (SourceKind::Git, None) => s.location.clone(),
        _ => local_name(s),
    }
}

/// A human-readable origin for exports: a path for folders and archives, URL@commit for git.
pub fn source_label(s: &Source) -> String {
    let mut out = s.location.clone();
    if let Some(sub) = &s.subpath {
        out = format!("{out}/{sub}");
    }
    if let Some(c) = &s.git_commit {
        out = format!("{out}@{}", &c[..c.len().min(12)]);
    }
    out
}
