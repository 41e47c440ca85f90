//! A repository as generated tasks see it: a local folder, or a Git repository (local or a URL) at
//! a commit, read whole into memory. A URL is cloned once into a cache folder and fetched again
//! only for a commit it lacks. Reading goes through the `git` program (`git archive`), so the
//! files are the commit's, not the working tree's.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use skillscope_tasks::TaskFile;
use std::path::Path;
use std::process::Command;
use ts_rs::TS;

/// A repository's files larger than this in total are refused.
pub const MAX_BYTES: u64 = 256 * 1024 * 1024;

/// A repository's files at one state, and where they came from.
#[derive(Debug, Clone)]
pub struct Repository {
    pub origin: RepositoryOrigin,
    pub files: Vec<TaskFile>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RepositoryOrigin {
    /// The folder or URL as given.
    pub source: String,
    /// The full commit id the files are from; None for a folder that is not a Git repository.
    pub commit: Option<String>,
    /// SHA-256 over every path and its content's SHA-256, in path order.
    pub tree_sha256: String,
    pub files: u32,
    pub bytes: u64,
}

/// The files of `source` (a folder, or a Git URL) at `commit` (any name Git resolves; HEAD when
/// None). A URL is cloned into `cache`. A folder outside Git is read as it is, and needs no commit.
pub fn snapshot(source: &str, commit: Option<&str>, cache: &Path) -> Result<Repository, String> {
    let folder = Path::new(source);
    let git_dir = if folder.is_dir() {
        if !is_git(folder) {
            if let Some(c) = commit {
                return Err(format!("{source} is not a Git repository, so it has no commit {c}"));
            }
            return read_folder(source, folder);
        }
        folder.to_path_buf()
    } else if looks_like_url(source) {
        clone_into_cache(source, commit, cache)?
    } else {
        return Err(format!("{source}: no such folder, and not a Git URL (https://…, ssh://…, git@…, file://…)"));
    };
    let wanted = commit.unwrap_or("HEAD");
    let full = git(&git_dir, &["rev-parse", "--verify", "--quiet", &format!("{wanted}^{{commit}}")])
        .map_err(|_| format!("{source} has no commit {wanted}"))?;
    let full = String::from_utf8_lossy(&full).trim().to_string();
    let tar = git(&git_dir, &["archive", "--format=tar", &full])?;
    let files = read_tar(&tar)?;
    Ok(Repository { origin: origin(source, Some(full), &files), files })
}

fn origin(source: &str, commit: Option<String>, files: &[TaskFile]) -> RepositoryOrigin {
    RepositoryOrigin {
        source: source.into(),
        commit,
        tree_sha256: skillscope_tasks::tree_sha256(files),
        files: files.len() as u32,
        bytes: files.iter().map(|f| f.contents.len() as u64).sum(),
    }
}

fn read_folder(source: &str, folder: &Path) -> Result<Repository, String> {
    let mut warnings = Vec::new();
    let files = skillscope_tasks::read_tree(folder, &mut warnings).map_err(|e| e.to_string())?;
    Ok(Repository { origin: origin(source, None, &files), files })
}

/// True when `folder` is the top of a Git work tree (a folder inside another repository is read
/// as a plain folder, not as that repository).
fn is_git(folder: &Path) -> bool {
    let Ok(top) = git(folder, &["rev-parse", "--show-toplevel"]) else { return false };
    let top = std::path::PathBuf::from(String::from_utf8_lossy(&top).trim());
    top.canonicalize().ok() == folder.canonicalize().ok()
}

fn looks_like_url(s: &str) -> bool {
    ["https://", "http://", "ssh://", "git://", "file://", "git@"].iter().any(|p| s.starts_with(p))
}

/// A bare clone of `url` under `cache` (named by the URL's hash), fetched when it lacks `commit`.
fn clone_into_cache(url: &str, commit: Option<&str>, cache: &Path) -> Result<std::path::PathBuf, String> {
    let dir = cache.join(hex::encode(Sha256::digest(url.as_bytes())));
    let offline = |e: String| {
        format!("could not fetch {url}: {e}. Offline? Clone it on a connected machine and pass the folder instead")
    };
    if !dir.is_dir() {
        std::fs::create_dir_all(cache).map_err(|e| format!("{}: {e}", cache.display()))?;
        let tmp = tempfile::tempdir_in(cache).map_err(|e| format!("{}: {e}", cache.display()))?;
        let target = tmp.path().join("repo.git");
        let target_str = target.to_string_lossy();
        git(tmp.path(), &["clone", "--quiet", "--bare", "--", url, &target_str]).map_err(offline)?;
        std::fs::rename(&target, &dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    } else if let Some(c) = commit {
        let known = git(&dir, &["cat-file", "-e", &format!("{c}^{{commit}}")]).is_ok();
        if !known {
            git(&dir, &["fetch", "--quiet", "origin", "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"])
                .map_err(offline)?;
        }
    }
    Ok(dir)
}

/// `git -C dir args…`: its stdout, or its stderr's last line as the error.
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(|e| format!("cannot run git ({e}); install Git (Debian/Ubuntu: apt install git)"))?;
    if out.status.success() {
        return Ok(out.stdout);
    }
    let err = String::from_utf8_lossy(&out.stderr);
    Err(err.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("git failed").trim().to_string())
}

/// The regular files of a `git archive` tar, in order; links and folders are left out.
fn read_tar(tar: &[u8]) -> Result<Vec<TaskFile>, String> {
    let mut archive = tar::Archive::new(tar);
    let mut files = Vec::new();
    let mut total = 0u64;
    for entry in archive.entries().map_err(|e| e.to_string())? {
        let mut entry = entry.map_err(|e| e.to_string())?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry.path().map_err(|e| e.to_string())?.to_string_lossy().into_owned();
        total += entry.size();
        if total > MAX_BYTES {
            return Err(format!("the repository's files add up to more than {} MiB", MAX_BYTES >> 20));
        }
        let mut contents = Vec::with_capacity(entry.size() as usize);
        std::io::Read::read_to_end(&mut entry, &mut contents).map_err(|e| e.to_string())?;
        files.push(TaskFile::new(path, contents));
    }
    Ok(files)
}

/// What the model is shown of a repository: where it is from, then its files (see
/// [`crate::listing::show`]) within `budget` characters.
pub fn shown(repo: &Repository, budget: usize) -> String {
    let commit = repo.origin.commit.as_deref().map(|c| format!(" at commit {c}")).unwrap_or_default();
    format!("Source: {}{commit}\n\n{}", repo.origin.source, crate::listing::show(&repo.files, budget))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(dir: &Path, script: &str) -> String {
        let out = Command::new("sh").arg("-c").arg(script).current_dir(dir).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    #[test]
    fn a_git_folder_is_read_at_its_commit_a_plain_one_as_it_is() {
        let d = tempfile::tempdir().unwrap();
        let cache = d.path().join("cache");
        let repo = d.path().join("repo");
        std::fs::create_dir(&repo).unwrap();
        let first = sh(
            &repo,
            "git init -q . && git config user.email t@e && git config user.name t && echo one > a.txt && \
             git add . && git commit -qm one && git rev-parse HEAD",
        );
        sh(&repo, "echo two > a.txt && echo new > b.txt && git add . && git commit -qm two && echo dirty > a.txt");
        let source = repo.to_str().unwrap();
        let at_first = snapshot(source, Some(&first[..8]), &cache).unwrap();
        assert_eq!(at_first.origin.commit.as_deref(), Some(first.as_str()));
        assert_eq!(at_first.files, [TaskFile::new("a.txt", b"one\n".to_vec())]);
        // HEAD is the last commit, not the working tree's uncommitted change.
        let head = snapshot(source, None, &cache).unwrap();
        assert_eq!(head.files.iter().map(|f| f.contents.as_slice()).collect::<Vec<_>>(), [&b"two\n"[..], b"new\n"]);
        assert_ne!(head.origin.tree_sha256, at_first.origin.tree_sha256);
        assert_eq!(snapshot(source, Some("nope"), &cache).unwrap_err(), format!("{source} has no commit nope"));

        // A URL is cloned into the cache once; a later commit is fetched.
        let url = format!("file://{source}");
        assert_eq!(snapshot(&url, Some(&first), &cache).unwrap().files, at_first.files);
        assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 1);
        let third = sh(&repo, "git commit -qam three && git rev-parse HEAD");
        assert_eq!(snapshot(&url, Some(&third), &cache).unwrap().origin.commit, Some(third));
        let gone = format!("file://{}/absent", d.path().display());
        assert!(snapshot(&gone, None, &cache).unwrap_err().starts_with(&format!("could not fetch {gone}: ")));

        let plain = d.path().join("plain");
        std::fs::create_dir(&plain).unwrap();
        std::fs::write(plain.join("x.py"), "x = 1\n").unwrap();
        let p = snapshot(plain.to_str().unwrap(), None, &cache).unwrap();
        assert_eq!((p.origin.commit, p.files.len()), (None, 1));
        assert!(snapshot(plain.to_str().unwrap(), Some("abc"), &cache)
            .unwrap_err()
            .contains("is not a Git repository"));
        assert!(snapshot("/no/such/place", None, &cache).unwrap_err().contains("no such folder, and not a Git URL"));
    }
}
