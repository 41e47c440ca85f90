//! File helpers shared by the importers.

use crate::error::ImportError;
use crate::model::TaskFile;
use std::path::{Component, Path};

/// Largest total size of the files one task folder may carry (64 MiB).
pub(crate) const MAX_TREE_BYTES: u64 = 64 * 1024 * 1024;

pub(crate) mod base64_bytes {
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&STANDARD.encode(bytes))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        STANDARD.decode(text).map_err(serde::de::Error::custom)
    }
}

pub(crate) fn read_text(path: &Path) -> Result<String, ImportError> {
    let bytes = std::fs::read(path).map_err(|e| ImportError::io(path, e))?;
    let text = String::from_utf8(bytes).map_err(|e| ImportError::invalid(path, format!("not UTF-8 text: {e}")))?;
    Ok(text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text))
}

/// Every regular file under `dir`, sorted, with paths relative to `dir`.
/// Symbolic links are not followed; each one skipped adds a warning.
/// SHA-256 over every file's path and its content's SHA-256, in the order given: names a tree of
/// files by its content alone.
pub fn tree_sha256(files: &[TaskFile]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for f in files {
        h.update(f.path.as_bytes());
        h.update([0]);
        h.update(Sha256::digest(&f.contents));
    }
    hex::encode(h.finalize())
}

pub fn read_tree(dir: &Path, warnings: &mut Vec<String>) -> Result<Vec<TaskFile>, ImportError> {
    let mut out = Vec::new();
    let mut total = 0u64;
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(|e| {
            let p = e.path().unwrap_or(dir).to_path_buf();
            match e.into_io_error() {
                Some(io) => ImportError::io(&p, io),
                None => ImportError::invalid(&p, "cannot walk folder"),
            }
        })?;
        let rel = rel_path(dir, entry.path());
        if entry.path_is_symlink() {
            warnings.push(format!("{}: symbolic link skipped", entry.path().display()));
            continue;
        }
        if !entry.file_type().is_file() {
            continue;
        }
        let bytes = std::fs::read(entry.path()).map_err(|e| ImportError::io(entry.path(), e))?;
        total += bytes.len() as u64;
        if total > MAX_TREE_BYTES {
            return Err(ImportError::invalid(dir, format!("files add up to more than {} MiB", MAX_TREE_BYTES >> 20)));
        }
        out.push(TaskFile::new(rel, bytes));
    }
    Ok(out)
}

fn rel_path(base: &Path, p: &Path) -> String {
    let rel = p.strip_prefix(base).unwrap_or(p);
    rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/")
}

/// Checks a relative path given in a task source: non-empty, relative, no
/// `..`, `/` separators. Returns it normalised (no `./`).
pub(crate) fn check_relative(p: &str) -> Result<String, String> {
    if p.trim().is_empty() {
        return Err("empty path".into());
    }
    if p.contains('\\') {
        return Err(format!("path `{p}` uses `\\`; use `/`"));
    }
    let mut parts = Vec::new();
    for c in Path::new(p).components() {
        match c {
            Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => return Err(format!("path `{p}` leaves its folder (`..`)")),
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!("path `{p}` is absolute; it must be relative"))
            }
        }
    }
    if parts.is_empty() {
        return Err(format!("path `{p}` names no file"));
    }
    Ok(parts.join("/"))
}

/// Single-quotes a string for `sh`.
pub fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Lower-case slug of letters, digits and `-`.
pub(crate) fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_checked() {
        assert_eq!(check_relative("./a/b.txt").unwrap(), "a/b.txt");
        assert!(check_relative("/etc/passwd").unwrap_err().contains("absolute"));
        assert!(check_relative("a/../../x").unwrap_err().contains(".."));
        assert!(check_relative("").is_err());
        assert!(check_relative("a\\b").is_err());
    }

    #[test]
    fn quoting_and_slugs() {
        assert_eq!(sh_quote("it's"), r"'it'\''s'");
        assert_eq!(slug("  Sum the CSV! (v2) "), "sum-the-csv-v2");
    }

    #[test]
    fn tree_is_sorted_relative_and_skips_symlinks() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("b")).unwrap();
        std::fs::write(d.path().join("b/x.txt"), "x").unwrap();
        std::fs::write(d.path().join("a.txt"), "a").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc/hostname", d.path().join("link")).unwrap();
        let mut w = Vec::new();
        let files = read_tree(d.path(), &mut w).unwrap();
        let paths: Vec<_> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["a.txt", "b/x.txt"]);
        #[cfg(unix)]
        assert!(w[0].contains("symbolic link"), "{w:?}");
    }
}
