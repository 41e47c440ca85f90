//! `.zip` and `.skill` archives. Every entry name is checked before anything is decompressed;
//! decompression is bounded per entry and in total, whatever sizes the archive claims.

use super::{dir_name, join_rel, source_for};
use crate::error::{LibraryError, Result};
use crate::model::{Finding, Severity, Source};
use crate::package::{self, read_bounded, safe_relative, stage, Budget, StagedSkill};
use skillscope_store::IoError;
use std::collections::BTreeMap;
use std::io::BufReader;
use std::path::Path;

struct Entry {
    index: usize,
    path: String,
    symlink: bool,
}

fn zip_error(path: &Path, e: zip::result::ZipError) -> LibraryError {
    LibraryError::InvalidInput(format!("{} is not a readable zip archive: {e}", path.display()))
}

pub fn stage_all(path: &Path, sub: &str, base: &Source, budget: &mut Budget) -> Result<Vec<StagedSkill>> {
    let file = std::fs::File::open(path).map_err(|e| IoError::new(path.display(), e))?;
    let mut zip = zip::ZipArchive::new(BufReader::new(file)).map_err(|e| zip_error(path, e))?;
    if zip.len() > budget.limits.max_files {
        return Err(LibraryError::TooLarge(format!(
            "the archive has {} entries; the limit is {}",
            zip.len(),
            budget.limits.max_files
        )));
    }
    let mut entries = Vec::new();
    for index in 0..zip.len() {
        let f = zip.by_index_raw(index).map_err(|e| zip_error(path, e))?;
        let rel = safe_relative(f.name())?;
        if f.is_dir() || rel.is_empty() {
            continue;
        }
        let Some(rel) = strip_dir(&rel, sub) else { continue };
        let symlink = f.unix_mode().is_some_and(|m| m & 0o170000 == 0o120000);
        entries.push(Entry { index, path: rel.to_string(), symlink });
    }
    let roots = package::skill_roots(entries.iter().filter(|e| !e.symlink).map(|e| e.path.as_str()));
    if roots.is_empty() {
        return Err(package::no_skill_error(&path.display().to_string(), entries.iter().map(|e| e.path.as_str())));
    }
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("skill");
    let root_name = sub.rsplit('/').next().filter(|s| !s.is_empty()).unwrap_or(stem);
    let mut staged = Vec::new();
    for root in &roots {
        let mut files = BTreeMap::new();
        let mut links = Vec::new();
        for e in entries.iter() {
            let Some(rel) = strip_dir(&e.path, root) else { continue };
            let bytes = read_entry(&mut zip, e.index, &e.path, budget)?;
            if e.symlink {
                links.push((rel.to_string(), String::from_utf8_lossy(&bytes).into_owned()));
            } else {
                files.insert(rel.to_string(), bytes);
            }
        }
        let notes = resolve_links(&mut files, links)?;
        let rel_to_source = join_rel(sub, root);
        staged.push(stage(
            &dir_name(&rel_to_source, root_name),
            source_for(base, &rel_to_source),
            files.into_iter().collect(),
            notes,
        )?);
    }
    Ok(staged)
}

/// `path` relative to `dir`, or None when it lies elsewhere ("" = the root holds everything).
fn strip_dir<'p>(path: &'p str, dir: &str) -> Option<&'p str> {
    if dir.is_empty() {
        return Some(path);
    }
    path.strip_prefix(dir)?.strip_prefix('/')
}

fn read_entry(
    zip: &mut zip::ZipArchive<BufReader<std::fs::File>>,
    index: usize,
    name: &str,
    budget: &mut Budget,
) -> Result<Vec<u8>> {
    let limits = budget.limits;
    let f = zip.by_index(index).map_err(|e| LibraryError::InvalidInput(format!("cannot read {name}: {e}")))?;
    let compressed = f.compressed_size().max(1);
    // Headers can lie: the budget counts the bytes really decompressed, not the claimed size.
    let bytes = read_bounded(f, limits.max_file_bytes).map_err(|e| IoError::new(format!("reading {name}"), e))?;
    let actual = bytes.len() as u64;
    budget.admit(name, actual)?;
    if actual > limits.ratio_floor_bytes && actual / compressed > limits.max_compression_ratio {
        return Err(LibraryError::TooLarge(format!(
            "{name} expands {}:1 (limit {}:1); this looks like a zip bomb",
            actual / compressed,
            limits.max_compression_ratio
        )));
    }
    Ok(bytes)
}

/// Replaces in-package symlinks by their target's content; refuses links that leave the skill.
fn resolve_links(files: &mut BTreeMap<String, Vec<u8>>, links: Vec<(String, String)>) -> Result<Vec<Finding>> {
    let mut notes = Vec::new();
    for (link, target) in links {
        let dir = link.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        let joined = if target.starts_with('/') { target.clone() } else { join_rel(dir, &target) };
        let resolved = safe_relative(&joined).map_err(|_| {
            LibraryError::UnsafeArchive(format!("symbolic link {link} points outside the skill (to {target})"))
        })?;
        match files.get(&resolved).cloned() {
            Some(bytes) => {
                files.insert(link, bytes);
            }
            None => notes.push(
                Finding::new(
                    "broken_symlink",
                    Severity::Warning,
                    format!("link to {target} skipped: no such file in the skill"),
                )
                .at(&link, None),
            ),
        }
    }
    Ok(notes)
}
