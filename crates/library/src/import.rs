//! The import pipeline: stage every skill of a source in memory (all refusals happen here),
//! then store blobs and commit every version in one transaction.

use crate::error::{LibraryError, Result};
use crate::model::{Finding, ImportOutcome, ImportRequest, ImportStatus, ImportedSkill};
use crate::package::StagedSkill;
use crate::sources;
use rusqlite::{params, OptionalExtension, Transaction};
use skillscope_store::now;
use skillscope_store::workspace::Workspace;

/// Progress of a long import, for the CLI's and the app's progress displays. The callback may
/// return an error (a cancelled job does) to stop the import; nothing is committed then.
#[derive(Debug, Clone)]
pub struct Progress {
    pub done: u32,
    pub total: u32,
    pub message: String,
}

pub fn import(
    ws: &Workspace,
    req: &ImportRequest,
    progress: &mut dyn FnMut(Progress) -> Result<()>,
) -> Result<ImportOutcome> {
    progress(Progress { done: 0, total: 0, message: format!("Reading {}", req.source) })?;
    let staged = sources::stage_request(ws, req)?;
    store(ws, staged, progress)
}

/// Stages the sample skills shipped in the binary (first start of a workspace).
pub fn import_samples(ws: &Workspace) -> Result<ImportOutcome> {
    store(ws, sources::sample::stage_all()?, &mut |_| Ok(()))
}

fn store(
    ws: &Workspace,
    staged: Vec<StagedSkill>,
    progress: &mut dyn FnMut(Progress) -> Result<()>,
) -> Result<ImportOutcome> {
    let total = staged.len() as u32;
    // Content-addressed blobs first: harmless if the transaction below fails.
    for s in &staged {
        for f in &s.files {
            ws.blobs().put(&f.sha256, &f.bytes)?;
        }
    }
    // The last point a cancel takes effect. No progress is reported inside the transaction: a
    // job records progress through its own connection, which would wait on this write lock.
    progress(Progress { done: 0, total, message: format!("Storing {total} skill(s)") })?;
    let mut conn = ws.conn()?;
    let tx = conn.transaction()?;
    let at = now();
    let mut outcome = ImportOutcome::default();
    for s in &staged {
        outcome.skills.push(store_one(&tx, s, &at)?);
    }
    tx.commit()?;
    Ok(outcome)
}

fn store_one(tx: &Transaction, s: &StagedSkill, at: &str) -> Result<ImportedSkill> {
    let key = s.source.key();
    let existing: Option<i64> =
        tx.query_row("SELECT id FROM skills WHERE source_key = ?1", [&key], |r| r.get(0)).optional()?;
    let skill_id = match existing {
        Some(id) => id,
        None => {
            tx.execute(
                "INSERT INTO skills(name, source_key, created_at) VALUES (?1, ?2, ?3)",
                params![s.name(), key, at],
            )?;
            tx.last_insert_rowid()
        }
    };
    let latest: Option<(i64, u32, String, u32)> = tx
        .query_row(
            "SELECT v.id, v.version, v.sha256, (SELECT COUNT(*) FROM findings f WHERE f.version_id = v.id)
             FROM skill_versions v WHERE v.skill_id = ?1 ORDER BY v.version DESC LIMIT 1",
            [skill_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    if let Some((version_id, version, sha, finding_count)) = &latest {
        if *sha == s.tree_sha256 {
            return Ok(ImportedSkill {
                skill_id,
                version_id: *version_id,
                name: s.name().into(),
                version: *version,
                sha256: sha.clone(),
                status: ImportStatus::Unchanged,
                finding_count: *finding_count,
            });
        }
    }
    let version = latest.as_ref().map_or(1, |l| l.1 + 1);
    let fm = &s.md.frontmatter;
    tx.execute(
        "INSERT INTO skill_versions(skill_id, version, sha256, dir_name, name, description, license,
            frontmatter_json, source_json, imported_at, body)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        params![
            skill_id,
            version,
            s.tree_sha256,
            s.dir_name,
            s.name(),
            fm.description.as_deref().unwrap_or(""),
            fm.license,
            serde_json::to_string(fm)?,
            serde_json::to_string(&s.source)?,
            at,
            s.md.body,
        ],
    )?;
    let version_id = tx.last_insert_rowid();
    tx.execute("UPDATE skills SET name = ?1 WHERE id = ?2", params![s.name(), skill_id])?;
    let mut ins_file = tx.prepare_cached(
        "INSERT INTO version_files(version_id, path, blob, size, binary) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for f in &s.files {
        ins_file.execute(params![version_id, f.path, f.sha256, f.bytes.len() as i64, f.binary])?;
    }
    insert_findings(tx, version_id, &s.findings)?;
    Ok(ImportedSkill {
        skill_id,
        version_id,
        name: s.name().into(),
        version,
        sha256: s.tree_sha256.clone(),
        status: if latest.is_some() { ImportStatus::NewVersion } else { ImportStatus::NewSkill },
        finding_count: s.findings.len() as u32,
    })
}

fn insert_findings(tx: &Transaction, version_id: i64, findings: &[Finding]) -> Result<()> {
    let mut ins = tx.prepare_cached(
        "INSERT INTO findings(version_id, code, severity, message, file, line) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for f in findings {
        ins.execute(params![version_id, f.code, f.severity.as_str(), f.message, f.file, f.line])?;
    }
    Ok(())
}

/// Imports the embedded samples once per workspace; later starts leave the library alone,
/// even if the user deleted them.
pub fn seed_samples_once(ws: &Workspace) -> Result<Option<ImportOutcome>> {
    let conn = ws.conn()?;
    if skillscope_store::db::get_meta(&conn, "samples_seeded")?.is_some() {
        return Ok(None);
    }
    let outcome = import_samples(ws).map_err(|e: LibraryError| e.context("importing the sample skills"))?;
    crate::scans::scan_pending(ws, &mut |_, _| Ok(()))?;
    skillscope_store::db::set_meta(&conn, "samples_seeded", &now())?;
    Ok(Some(outcome))
}
