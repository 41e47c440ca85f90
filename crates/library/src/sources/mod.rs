//! Where skills come from. Each source stages skills in memory; nothing is written here.

pub mod archive;
pub mod folder;
pub mod git;
pub mod sample;

use crate::error::{LibraryError, Result};
use crate::model::{ImportRequest, Source, SourceKind};
use crate::package::{safe_relative, Budget, StagedSkill};
use skillscope_store::workspace::Workspace;
use skillscope_store::IoError;
use std::path::{Path, PathBuf};

/// Stages every skill of the source a request names (folder, archive or Git), in memory.
pub fn stage_request(ws: &Workspace, req: &ImportRequest) -> Result<Vec<StagedSkill>> {
    let mut staged = Vec::new();
    stage_request_each(ws, req, &mut |s| {
        staged.push(s);
        Ok(())
    })?;
    Ok(staged)
}

/// [`stage_request`], handing each skill to `emit` as it is staged: a folder's skills one by
/// one as they are read, an archive's once the archive is read.
pub fn stage_request_each(
    ws: &Workspace,
    req: &ImportRequest,
    emit: &mut dyn FnMut(StagedSkill) -> Result<()>,
) -> Result<()> {
    let origin = classify(req)?;
    let sub = subpath(req)?;
    let limits = ws.config().import;
    let mut budget = Budget::new(&limits);
    match origin {
        Origin::Folder(path) => {
            let base = base_source(SourceKind::Folder, path.display().to_string());
            let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            folder::stage_each(&path, &sub, &name, &base, &mut budget, emit)
        }
        Origin::Archive(path) => {
            let base = base_source(SourceKind::Archive, path.display().to_string());
            archive::stage_all(&path, &sub, &base, &mut budget)?.into_iter().try_for_each(emit)
        }
        Origin::Git(url) => {
            let tmp = ws.staging_dir()?;
            let co = git::checkout(&url, req.git_ref.as_deref(), tmp.path())?;
            let mut base = base_source(SourceKind::Git, url.clone());
            base.git_commit = Some(co.commit);
            base.git_ref = Some(co.git_ref);
            folder::stage_each(&co.dir, &sub, &git::repo_name(&url), &base, &mut budget, emit)
        }
    }
}

/// What an import request points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Folder(PathBuf),
    Archive(PathBuf),
    Git(String),
}

pub fn classify(req: &ImportRequest) -> Result<Origin> {
    let s = req.source.trim();
    if s.is_empty() {
        return Err(LibraryError::InvalidInput("no source given: name a folder, an archive or a git URL".into()));
    }
    if s.contains("://") || s.starts_with("git@") {
        return Ok(Origin::Git(s.to_string()));
    }
    let path = Path::new(s);
    let meta = std::fs::metadata(path).map_err(|e| LibraryError::NotFound(format!("cannot open {s}: {e}")))?;
    let path = path.canonicalize().map_err(|e| IoError::new(s, e))?;
    if meta.is_dir() {
        // A local repository is read through git only when a ref is asked for or it is bare;
        // otherwise its working tree (with uncommitted edits) is what the user means.
        if req.git_ref.is_some() || path.join("HEAD").is_file() && path.join("objects").is_dir() {
            return Ok(Origin::Git(path.display().to_string()));
        }
        return Ok(Origin::Folder(path));
    }
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "zip" | "skill" => Ok(Origin::Archive(path)),
        _ if path.file_name().is_some_and(|n| n == "SKILL.md") => {
            Ok(Origin::Folder(path.parent().expect("a file has a parent").to_path_buf()))
        }
        _ => Err(LibraryError::InvalidInput(format!(
            "{s} is a file but not a .zip or .skill archive; pass a folder, an archive or a git URL"
        ))),
    }
}

/// The validated subpath of a request ("" when absent).
pub fn subpath(req: &ImportRequest) -> Result<String> {
    req.subpath
        .as_deref()
        .map(|p| safe_relative(p).map_err(|e| LibraryError::InvalidInput(e.to_string())))
        .transpose()
        .map(Option::unwrap_or_default)
}

/// Provenance of one skill found at `rel` (relative to the source root) inside `base`.
pub fn source_for(base: &Source, rel: &str) -> Source {
    Source { subpath: (!rel.is_empty()).then(|| rel.to_string()), ..base.clone() }
}

/// The directory name of a skill at `rel`, or of the source itself when the skill is its root.
pub fn dir_name(rel: &str, root_name: &str) -> String {
    rel.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(root_name).to_string()
}

pub fn join_rel(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}/{b}"),
    }
}

pub fn base_source(kind: SourceKind, location: String) -> Source {
    Source { kind, location, subpath: None, git_ref: None, git_commit: None }
}
