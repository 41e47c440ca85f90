//! A staged skill: every file read into memory under the import limits, hashed and checked,
//! before anything is written to the workspace.

use crate::error::{LibraryError, Result};
use crate::model::{Finding, Severity, Source};
use sha2::{Digest, Sha256};
use skillscope_skill::skill_md::{self, SkillMd};
use skillscope_skill::validate::validate;
use skillscope_store::blobs::sha256_hex;
use skillscope_store::config::ImportLimits;
use skillscope_store::IoError;

#[derive(Debug, Clone)]
pub struct StagedFile {
    pub path: String,
    pub bytes: Vec<u8>,
    pub sha256: String,
    pub binary: bool,
}

#[derive(Debug, Clone)]
pub struct StagedSkill {
    pub dir_name: String,
    pub source: Source,
    /// Sorted by path.
    pub files: Vec<StagedFile>,
    pub md: SkillMd,
    pub findings: Vec<Finding>,
    pub tree_sha256: String,
}

impl StagedSkill {
    /// Name shown in the library: the frontmatter's, else the directory's.
    pub fn name(&self) -> &str {
        self.md.frontmatter.name.as_deref().filter(|n| !n.is_empty()).unwrap_or(&self.dir_name)
    }
}

/// Counts files and bytes across one import so limits hold for the whole of it.
#[derive(Debug)]
pub struct Budget<'a> {
    pub limits: &'a ImportLimits,
    files: usize,
    bytes: u64,
}

impl<'a> Budget<'a> {
    pub fn new(limits: &'a ImportLimits) -> Self {
        Self { limits, files: 0, bytes: 0 }
    }

    /// Admits one file of `size` bytes or says which limit it breaks.
    pub fn admit(&mut self, path: &str, size: u64) -> Result<()> {
        let l = self.limits;
        if size > l.max_file_bytes {
            return Err(LibraryError::TooLarge(format!(
                "{path} is {size} bytes; the limit per file is {} bytes",
                l.max_file_bytes
            )));
        }
        self.files += 1;
        self.bytes += size;
        if self.files > l.max_files {
            return Err(LibraryError::TooLarge(format!("more than {} files in one import", l.max_files)));
        }
        if self.bytes > l.max_total_bytes {
            return Err(LibraryError::TooLarge(format!(
                "the import exceeds {} bytes in total (reached at {path})",
                l.max_total_bytes
            )));
        }
        Ok(())
    }
}

/// Reads at most `limit + 1` bytes, so an oversized or lying source is caught without reading it all.
pub fn read_bounded(r: impl std::io::Read, limit: u64) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    std::io::Read::read_to_end(&mut r.take(limit.saturating_add(1)), &mut buf)?;
    Ok(buf)
}

/// Normalises an archive or repository path to `a/b/c`, refusing anything that could escape.
pub fn safe_relative(name: &str) -> Result<String> {
    let unified = name.replace('\\', "/");
    if unified.starts_with('/') || unified.as_bytes().get(1) == Some(&b':') {
        return Err(LibraryError::UnsafeArchive(format!("entry {name:?} has an absolute path")));
    }
    let mut parts = Vec::new();
    for part in unified.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                return Err(LibraryError::UnsafeArchive(format!("entry {name:?} climbs out of the package with '..'")))
            }
            p if p.contains('\0') => {
                return Err(LibraryError::UnsafeArchive(format!("entry {name:?} contains a NUL byte")))
            }
            p => parts.push(p),
        }
    }
    Ok(parts.join("/"))
}

/// Binary: a NUL in the first 8 KiB, or not UTF-8.
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8192)].contains(&0) || std::str::from_utf8(bytes).is_err()
}

/// SHA-256 over the sorted file tree: for each file `path NUL sha256(content) LF`.
pub fn tree_hash(files: &[StagedFile]) -> String {
    hash_entries(files.iter().map(|f| (f.path.clone(), f.sha256.clone())))
}

fn hash_entries(entries: impl Iterator<Item = (String, String)>) -> String {
    let mut h = Sha256::new();
    for (path, sha256) in entries {
        h.update(path.as_bytes());
        h.update([0]);
        h.update(sha256.as_bytes());
        h.update([b'\n']);
    }
    hex::encode(h.finalize())
}

/// [`tree_hash`] of the regular files under a host folder, read as they are on disk (streamed, so
/// a large task workspace is not held in memory); symlinks count by their target text.
pub fn folder_tree_hash(dir: &std::path::Path) -> Result<String> {
    let mut entries = Vec::new();
    for entry in walkdir::WalkDir::new(dir).min_depth(1).sort_by_file_name() {
        let entry = entry.map_err(|e| LibraryError::Io(IoError::new(dir.display(), e.into())))?;
        let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let rel = rel.to_string_lossy().replace('\\', "/");
        let io = |e| LibraryError::Io(IoError::new(entry.path().display(), e));
        let sha = if entry.path_is_symlink() {
            hex::encode(Sha256::digest(std::fs::read_link(entry.path()).map_err(io)?.to_string_lossy().as_bytes()))
        } else if entry.file_type().is_file() {
            let mut h = Sha256::new();
            std::io::copy(&mut std::fs::File::open(entry.path()).map_err(io)?, &mut h).map_err(io)?;
            hex::encode(h.finalize())
        } else {
            continue;
        };
        entries.push((rel, sha));
    }
    entries.sort();
    Ok(hash_entries(entries.into_iter()))
}

/// Top-most directories holding a SKILL.md, given every file path of a source ("" = the root).
pub fn skill_roots<'p>(paths: impl IntoIterator<Item = &'p str>) -> Vec<String> {
    let mut dirs: Vec<String> = paths
        .into_iter()
        .filter_map(|p| match p.rsplit_once('/') {
            Some((dir, skill_md::FILE)) => Some(dir.to_string()),
            None if p == skill_md::FILE => Some(String::new()),
            _ => None,
        })
        .collect();
    dirs.sort();
    let mut roots: Vec<String> = Vec::new();
    for d in dirs {
        let nested = roots.iter().any(|r| r.is_empty() || d.starts_with(&format!("{r}/")));
        if !nested {
            roots.push(d);
        }
    }
    roots
}

/// The error for a source with no SKILL.md, pointing at a wrongly cased one if present.
pub fn no_skill_error<'p>(what: &str, paths: impl IntoIterator<Item = &'p str>) -> LibraryError {
    let near = paths.into_iter().find(|p| {
        let file = p.rsplit('/').next().unwrap_or(p);
        file.eq_ignore_ascii_case(skill_md::FILE)
    });
    match near {
        Some(p) => {
            LibraryError::InvalidSkill(format!("{what}: found {p:?}, but the file must be named exactly SKILL.md"))
        }
        None => LibraryError::InvalidSkill(format!(
            "{what} holds no SKILL.md; a skill is a folder whose top level holds SKILL.md"
        )),
    }
}

/// A skill's files as read from a source: path relative to the skill directory, and content.
pub type RawFiles = Vec<(String, Vec<u8>)>;

/// Parses and validates one skill's files (paths relative to the skill directory).
pub fn stage(dir_name: &str, source: Source, files: RawFiles, mut notes: Vec<Finding>) -> Result<StagedSkill> {
    let mut files: Vec<StagedFile> = files
        .into_iter()
        .map(|(path, bytes)| StagedFile { sha256: sha256_hex(&bytes), binary: is_binary(&bytes), path, bytes })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let where_ = source.subpath.clone().unwrap_or_else(|| dir_name.to_string());
    let skill_md = files
        .iter()
        .find(|f| f.path == skill_md::FILE)
        .ok_or_else(|| no_skill_error(&where_, files.iter().map(|f| f.path.as_str())))?;
    let md = skill_md::parse(&skill_md.bytes).map_err(|e| LibraryError::InvalidSkill(format!("{where_}: {e}")))?;
    notes.extend(files.iter().filter(|f| f.binary).map(|f| {
        Finding::new("binary_file", Severity::Info, format!("binary file kept ({} bytes)", f.bytes.len()))
            .at(&f.path, None)
    }));
    let mut findings = validate(&md, dir_name);
    findings.extend(notes);
    Ok(StagedSkill { dir_name: dir_name.to_string(), source, tree_sha256: tree_hash(&files), files, md, findings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_relative_refuses_escapes() {
        assert_eq!(safe_relative("a/./b//c").unwrap(), "a/b/c");
        for bad in ["../x", "a/../../x", "/etc/passwd", "C:\\x", "a\\..\\..\\x"] {
            let e = safe_relative(bad).unwrap_err();
            assert!(matches!(e, LibraryError::UnsafeArchive(_)), "{bad}");
        }
    }

    #[test]
    fn roots_are_top_most_skill_dirs() {
        let r = skill_roots(["a/SKILL.md", "a/x/SKILL.md", "b/c/SKILL.md", "b/README.md", "ab/SKILL.md"]);
        assert_eq!(r, ["a", "ab", "b/c"]);
        assert_eq!(skill_roots(["SKILL.md", "x/SKILL.md"]), [""]);
    }

    #[test]
    fn budget_limits() {
        let limits = ImportLimits { max_file_bytes: 10, max_total_bytes: 15, max_files: 2, ..Default::default() };
        let mut b = Budget::new(&limits);
        assert!(b.admit("a", 11).unwrap_err().to_string().contains("per file"));
        b.admit("a", 8).unwrap();
        assert!(b.admit("b", 8).unwrap_err().to_string().contains("in total"));
        let mut b = Budget::new(&limits);
        b.admit("a", 1).unwrap();
        b.admit("b", 1).unwrap();
        assert!(b.admit("c", 1).unwrap_err().to_string().contains("files"));
    }

    #[test]
    fn tree_hash_depends_on_paths_and_content() {
        let src = Source {
            kind: crate::model::SourceKind::Folder,
            location: "/x".into(),
            subpath: None,
            git_ref: None,
            git_commit: None,
        };
        let md = b"---\nname: a\ndescription: d\n---\n".to_vec();
        let s1 = stage("a", src.clone(), vec![("SKILL.md".into(), md.clone()), ("b".into(), b"1".to_vec())], vec![])
            .unwrap();
        let s2 = stage("a", src.clone(), vec![("b".into(), b"1".to_vec()), ("SKILL.md".into(), md.clone())], vec![])
            .unwrap();
        let s3 = stage("a", src, vec![("SKILL.md".into(), md), ("c".into(), b"1".to_vec())], vec![]).unwrap();
        assert_eq!(s1.tree_sha256, s2.tree_sha256);
        assert_ne!(s1.tree_sha256, s3.tree_sha256);
    }
}
