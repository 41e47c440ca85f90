//! Reading the library: skills, versions, files, findings and differences between versions.

use crate::error::{LibraryError, Result};
use crate::model::*;
use crate::render::markdown_to_html;
use rusqlite::{Connection, OptionalExtension, Row};
use skillscope_store::workspace::Workspace;

const SUMMARY_SQL: &str = "
    SELECT s.id, v.name, v.description, v.version, v.id, (SELECT COUNT(*) FROM skill_versions x WHERE x.skill_id = s.id),
           v.source_json, v.license, v.imported_at, v.sha256,
           (SELECT COUNT(*) FROM findings f WHERE f.version_id = v.id),
           (SELECT MAX(CASE f.severity WHEN 'error' THEN 2 WHEN 'warning' THEN 1 ELSE 0 END) FROM findings f WHERE f.version_id = v.id),
           sc.quality, sc.grade, sc.security
    FROM skills s JOIN skill_versions v ON v.skill_id = s.id
    LEFT JOIN scans sc ON sc.version_id = v.id AND sc.scanner = ?1
    WHERE v.version = (SELECT MAX(version) FROM skill_versions x WHERE x.skill_id = s.id)";

fn json_col<T: serde::de::DeserializeOwned>(r: &Row, i: usize) -> rusqlite::Result<T> {
    let s: String = r.get(i)?;
    serde_json::from_str(&s)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e)))
}

fn summary(ws: &Workspace, r: &Row) -> rusqlite::Result<SkillSummary> {
    let worst: Option<i64> = r.get(11)?;
    let scan = match (r.get::<_, Option<f64>>(12)?, r.get::<_, Option<String>>(13)?, r.get::<_, Option<u32>>(14)?) {
        (Some(q), Some(g), Some(s)) => Some(ScanSummary::under(ws, q, g, s)),
        _ => None,
    };
    Ok(SkillSummary {
        id: r.get(0)?,
        name: r.get(1)?,
        description: r.get(2)?,
        version: r.get(3)?,
        version_id: r.get(4)?,
        version_count: r.get(5)?,
        source: json_col(r, 6)?,
        license: r.get(7)?,
        imported_at: r.get(8)?,
        sha256: r.get(9)?,
        finding_count: r.get(10)?,
        status: match worst {
            Some(2) => ValidationStatus::Errors,
            Some(1) => ValidationStatus::Warnings,
            _ => ValidationStatus::Valid,
        },
        scan,
    })
}

pub fn list_skills(ws: &Workspace) -> Result<Vec<SkillSummary>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(&format!("{SUMMARY_SQL} ORDER BY v.name, s.id"))?;
    let rows = st.query_map([SCANNER], |r| summary(ws, r))?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

fn summary_of(ws: &Workspace, conn: &Connection, id: i64) -> Result<SkillSummary> {
    conn.query_row(&format!("{SUMMARY_SQL} AND s.id = ?2"), rusqlite::params![SCANNER, id], |r| summary(ws, r))
        .optional()?
        .ok_or_else(|| LibraryError::NotFound(format!("no skill with id {id}")))
}

/// Finds a skill by id or by name; a name shared by skills from several sources is ambiguous.
pub fn resolve(ws: &Workspace, name_or_id: &str) -> Result<SkillSummary> {
    let conn = ws.conn()?;
    if let Ok(id) = name_or_id.parse::<i64>() {
        return summary_of(ws, &conn, id);
    }
    let mut st = conn.prepare(&format!("{SUMMARY_SQL} AND v.name = ?2 ORDER BY s.id"))?;
    let mut found: Vec<SkillSummary> =
        st.query_map(rusqlite::params![SCANNER, name_or_id], |r| summary(ws, r))?.collect::<rusqlite::Result<_>>()?;
    match found.len() {
        0 => Err(LibraryError::NotFound(format!("no skill named {name_or_id:?}; `skillscope list` shows the library"))),
        1 => Ok(found.remove(0)),
        _ => Err(LibraryError::Ambiguous(format!(
            "{} skills are named {name_or_id:?}; use an id: {}",
            found.len(),
            found
                .iter()
                .map(|s| format!("{} ({:?} {})", s.id, s.source.kind, s.source.location))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The library's version holding exactly this content, as `(skill id, version id, version)`;
/// the newest when several skills hold it; None when none does.
pub fn version_with_sha256(ws: &Workspace, sha256: &str) -> Result<Option<(i64, i64, u32)>> {
    Ok(ws
        .conn()?
        .query_row(
            "SELECT skill_id, id, version FROM skill_versions WHERE sha256 = ?1 ORDER BY id DESC LIMIT 1",
            [sha256],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?)
}

pub fn get_skill(ws: &Workspace, id: i64) -> Result<SkillDetail> {
    let conn = ws.conn()?;
    let summary = summary_of(ws, &conn, id)?;
    let mut st = conn.prepare(
        "SELECT v.id, v.version, v.sha256, v.imported_at, v.source_json,
                (SELECT COUNT(*) FROM findings f WHERE f.version_id = v.id)
         FROM skill_versions v WHERE v.skill_id = ?1 ORDER BY v.version DESC",
    )?;
    let versions = st
        .query_map([id], |r| {
            Ok(VersionInfo {
                id: r.get(0)?,
                version: r.get(1)?,
                sha256: r.get(2)?,
                imported_at: r.get(3)?,
                source: json_col(r, 4)?,
                finding_count: r.get(5)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(SkillDetail { summary, versions })
}

/// The version id of `version` of a skill (latest when None).
pub fn version_id(ws: &Workspace, skill_id: i64, version: Option<u32>) -> Result<i64> {
    let conn = ws.conn()?;
    conn.query_row(
        "SELECT id FROM skill_versions WHERE skill_id = ?1 AND (?2 IS NULL OR version = ?2) ORDER BY version DESC LIMIT 1",
        rusqlite::params![skill_id, version],
        |r| r.get(0),
    )
    .optional()?
    .ok_or_else(|| LibraryError::NotFound(format!("skill {skill_id} has no version {}", version.map_or("at all".into(), |v| v.to_string()))))
}

pub fn findings(conn: &Connection, version_id: i64) -> Result<Vec<Finding>> {
    let mut st = conn.prepare(
        "SELECT code, severity, message, file, line FROM findings WHERE version_id = ?1
         ORDER BY CASE severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, id",
    )?;
    let rows = st
        .query_map([version_id], |r| {
            Ok(Finding {
                code: r.get(0)?,
                severity: Severity::parse(&r.get::<_, String>(1)?),
                message: r.get(2)?,
                file: r.get(3)?,
                line: r.get(4)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

fn file_row(r: &Row) -> rusqlite::Result<FileEntry> {
    Ok(FileEntry { path: r.get(0)?, size: r.get::<_, i64>(1)? as u64, sha256: r.get(2)?, binary: r.get(3)? })
}

fn files(conn: &Connection, version_id: i64) -> Result<Vec<FileEntry>> {
    let mut st =
        conn.prepare("SELECT path, size, blob, binary FROM version_files WHERE version_id = ?1 ORDER BY path")?;
    let rows = st.query_map([version_id], file_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

pub fn get_version(ws: &Workspace, version_id: i64) -> Result<VersionDetail> {
    let conn = ws.conn()?;
    let (skill_id, version, sha256, imported_at, source, frontmatter, body): (i64, u32, String, String, Source, Frontmatter, String) = conn
        .query_row(
            "SELECT skill_id, version, sha256, imported_at, source_json, frontmatter_json, body FROM skill_versions WHERE id = ?1",
            [version_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, json_col(r, 4)?, json_col(r, 5)?, r.get(6)?)),
        )
        .optional()?
        .ok_or_else(|| LibraryError::NotFound(format!("no skill version with id {version_id}")))?;
    Ok(VersionDetail {
        id: version_id,
        skill_id,
        version,
        sha256,
        imported_at,
        source,
        frontmatter,
        body_html: markdown_to_html(&body),
        files: files(&conn, version_id)?,
        findings: findings(&conn, version_id)?,
    })
}

/// Every file of a version with its content, in path order (for scans and exports).
pub fn version_files(ws: &Workspace, version_id: i64) -> Result<Vec<(FileEntry, Vec<u8>)>> {
    let conn = ws.conn()?;
    files(&conn, version_id)?
        .into_iter()
        .map(|f| {
            let bytes = ws.blobs().get(&f.sha256)?;
            Ok((f, bytes))
        })
        .collect()
}

fn file_entry(conn: &Connection, version_id: i64, path: &str) -> Result<Option<FileEntry>> {
    Ok(conn
        .query_row(
            "SELECT path, size, blob, binary FROM version_files WHERE version_id = ?1 AND path = ?2",
            rusqlite::params![version_id, path],
            file_row,
        )
        .optional()?)
}

pub fn read_file(ws: &Workspace, version_id: i64, path: &str) -> Result<FileContent> {
    let conn = ws.conn()?;
    let f = file_entry(&conn, version_id, path)?
        .ok_or_else(|| LibraryError::NotFound(format!("version {version_id} has no file {path:?}")))?;
    let text = if f.binary { None } else { Some(String::from_utf8_lossy(&ws.blobs().get(&f.sha256)?).into_owned()) };
    Ok(FileContent { path: f.path, size: f.size, binary: f.binary, text })
}

pub fn diff_versions(ws: &Workspace, from_id: i64, to_id: i64) -> Result<VersionDiff> {
    let conn = ws.conn()?;
    let version_of = |id: i64| -> Result<u32> {
        conn.query_row("SELECT version FROM skill_versions WHERE id = ?1", [id], |r| r.get(0))
            .optional()?
            .ok_or_else(|| LibraryError::NotFound(format!("no skill version with id {id}")))
    };
    let (from_version, to_version) = (version_of(from_id)?, version_of(to_id)?);
    let old = files(&conn, from_id)?;
    let new = files(&conn, to_id)?;
    let text =
        |f: &FileEntry| -> Result<String> { Ok(String::from_utf8_lossy(&ws.blobs().get(&f.sha256)?).into_owned()) };
    let mut paths: Vec<&str> = old.iter().chain(&new).map(|f| f.path.as_str()).collect();
    paths.sort();
    paths.dedup();
    let mut out = Vec::new();
    for path in paths {
        let a = old.iter().find(|f| f.path == path);
        let b = new.iter().find(|f| f.path == path);
        let change = match (a, b) {
            (Some(a), Some(b)) if a.sha256 == b.sha256 => ChangeKind::Unchanged,
            (Some(_), Some(_)) => ChangeKind::Modified,
            (None, Some(_)) => ChangeKind::Added,
            _ => ChangeKind::Removed,
        };
        let binary = a.or(b).is_some_and(|f| f.binary) || b.is_some_and(|f| f.binary);
        let unified_diff = if binary || change == ChangeKind::Unchanged {
            None
        } else {
            let before = a.map(text).transpose()?.unwrap_or_default();
            let after = b.map(text).transpose()?.unwrap_or_default();
            Some(
                similar::TextDiff::from_lines(&before, &after)
                    .unified_diff()
                    .context_radius(3)
                    .header(&format!("a/{path}"), &format!("b/{path}"))
                    .to_string(),
            )
        };
        out.push(FileChange { path: path.to_string(), change, binary, unified_diff });
    }
    Ok(VersionDiff { from_version, to_version, files: out })
}
