//! A folder holding one skill, or a tree (a checkout, a skills collection) holding many.

use super::{dir_name, join_rel, source_for};
use crate::error::{LibraryError, Result};
use crate::model::{Finding, Severity, Source};
use crate::package::{self, stage, Budget, RawFiles, StagedSkill};
use skillscope_store::IoError;
use std::path::Path;
use walkdir::WalkDir;

/// Directories that never hold skill content.
fn skipped(name: &str) -> bool {
    matches!(name, ".git" | "node_modules")
}

/// Stages every skill under `root/sub`, handing each to `emit` as soon as it is read (so a scan
/// can start on the first while the rest are read), in the order of their folders. `base` is the
/// source's provenance; subpaths are recorded relative to `root` so a repository subpath stays
/// visible.
pub fn stage_each(
    root: &Path,
    sub: &str,
    root_name: &str,
    base: &Source,
    budget: &mut Budget,
    emit: &mut dyn FnMut(StagedSkill) -> Result<()>,
) -> Result<()> {
    let start = root.join(sub);
    if !start.is_dir() {
        return Err(LibraryError::NotFound(format!("no folder {sub:?} inside {}", root.display())));
    }
    let mut skill_md_paths = Vec::new();
    let mut all = Vec::new();
    for entry in WalkDir::new(&start)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| !(e.file_type().is_dir() && skipped(&e.file_name().to_string_lossy())))
    {
        let entry = entry.map_err(|e| IoError::new(start.display(), e.into()))?;
        if entry.file_type().is_dir() {
            continue;
        }
        let rel = rel_path(&start, entry.path())?;
        all.push(rel.clone());
        if entry.file_name() == skillscope_skill::skill_md::FILE && entry.file_type().is_file() {
            skill_md_paths.push(rel);
        }
    }
    let roots = package::skill_roots(skill_md_paths.iter().map(String::as_str));
    if roots.is_empty() {
        return Err(package::no_skill_error(&start.display().to_string(), all.iter().map(String::as_str)));
    }
    for r in &roots {
        let dir = start.join(r);
        let rel_to_root = join_rel(sub, r);
        let (files, notes) = read_skill_dir(&dir, budget)?;
        emit(stage(&dir_name(&rel_to_root, root_name), source_for(base, &rel_to_root), files, notes)?)?;
    }
    Ok(())
}

fn rel_path(base: &Path, p: &Path) -> Result<String> {
    let rel = p.strip_prefix(base).expect("walkdir yields paths under its root");
    rel.to_str()
        .map(|s| s.replace('\\', "/"))
        .ok_or_else(|| LibraryError::InvalidSkill(format!("file name is not UTF-8: {}", p.display())))
}

/// Reads one skill directory. Symlinks may point inside the skill (their target's content is
/// kept under the link's path) but never outside it.
fn read_skill_dir(dir: &Path, budget: &mut Budget) -> Result<(RawFiles, Vec<Finding>)> {
    let canon_root = dir.canonicalize().map_err(|e| IoError::new(dir.display(), e))?;
    let mut files = Vec::new();
    let mut notes = Vec::new();
    let walk = WalkDir::new(dir).follow_links(false).into_iter();
    for entry in walk.filter_entry(|e| !(e.file_type().is_dir() && skipped(&e.file_name().to_string_lossy()))) {
        let entry = entry.map_err(|e| IoError::new(dir.display(), e.into()))?;
        let rel = rel_path(dir, entry.path())?;
        let ft = entry.file_type();
        let target = if ft.is_symlink() {
            let Ok(target) = entry.path().canonicalize() else {
                notes.push(
                    Finding::new("broken_symlink", Severity::Warning, "broken symbolic link skipped").at(&rel, None),
                );
                continue;
            };
            if !target.starts_with(&canon_root) {
                return Err(LibraryError::UnsafeArchive(format!(
                    "symbolic link {rel} points outside the skill (to {})",
                    target.display()
                )));
            }
            if target.is_dir() {
                continue; // its files are read under their real path
            }
            target
        } else if ft.is_file() {
            entry.path().to_path_buf()
        } else {
            continue;
        };
        let bytes = package::read_bounded(
            std::fs::File::open(&target).map_err(|e| IoError::new(&rel, e))?,
            budget.limits.max_file_bytes,
        )
        .map_err(|e| IoError::new(&rel, e))?;
        budget.admit(&rel, bytes.len() as u64)?;
        files.push((rel, bytes));
    }
    Ok((files, notes))
}
