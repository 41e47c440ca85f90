//! Git repositories (URL or local path) through the `git` command, cloned into the workspace's
//! staging area. Only plain transports are allowed and prompts are off, so nothing waits on stdin.

use crate::error::{LibraryError, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct Checkout {
    pub dir: PathBuf,
    pub commit: String,
    pub git_ref: String,
}

fn git(args: &[&str], cwd: Option<&Path>) -> Result<String> {
    let mut cmd = Command::new("git");
    cmd.args(["-c", "core.hooksPath=/dev/null", "-c", "advice.detachedHead=false"])
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_ALLOW_PROTOCOL", "file:git:http:https:ssh")
        .env("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
        .stdin(Stdio::null());
    if let Some(d) = cwd {
        cmd.current_dir(d);
    }
    let out = cmd.output().map_err(LibraryError::NoGit)?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("unknown error");
        return Err(LibraryError::Git(format!("git {}: {}", args[0], line.trim())));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Clones `url` into `into` and checks out `git_ref` (branch, tag or commit; default HEAD).
pub fn checkout(url: &str, git_ref: Option<&str>, into: &Path) -> Result<Checkout> {
    if url.starts_with('-') || git_ref.is_some_and(|r| r.starts_with('-')) {
        return Err(LibraryError::InvalidInput("a repository or ref may not start with '-'".into()));
    }
    let dir = into.join("repo");
    let dir_s = dir.to_str().ok_or_else(|| LibraryError::InvalidInput("staging path is not UTF-8".into()))?;
    git(&["clone", "--quiet", "--no-checkout", "--", url, dir_s], None)?;
    let wanted = git_ref.unwrap_or("HEAD");
    // Branches of a clone live under origin/; try that first, then the ref as given.
    let target = [format!("origin/{wanted}"), wanted.to_string()]
        .into_iter()
        .find(|r| git(&["rev-parse", "--verify", "--quiet", &format!("{r}^{{commit}}")], Some(&dir)).is_ok())
        .ok_or_else(|| LibraryError::Git(format!("{url} has no branch, tag or commit {wanted:?}")))?;
    git(&["checkout", "--quiet", "--detach", &target], Some(&dir))?;
    let commit = git(&["rev-parse", "HEAD"], Some(&dir))?;
    let git_ref = match git_ref {
        Some(r) => r.to_string(),
        None => git(&["rev-parse", "--abbrev-ref", "origin/HEAD"], Some(&dir))
            .map(|r| r.trim_start_matches("origin/").to_string())
            .unwrap_or_else(|_| "HEAD".into()),
    };
    Ok(Checkout { dir, commit, git_ref })
}

/// A readable name for a repository: the last path segment without `.git`.
pub fn repo_name(url: &str) -> String {
    let last = url.trim_end_matches('/').rsplit(['/', ':']).next().unwrap_or(url);
    last.strip_suffix(".git").unwrap_or(last).to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn repo_names() {
        assert_eq!(super::repo_name("https://github.com/a/skills.git"), "skills");
        assert_eq!(super::repo_name("git@github.com:a/b"), "b");
        assert_eq!(super::repo_name("/tmp/x/repo/"), "repo");
    }
}
