//! Verifier tampering: changes an agent made to what its verifier runs on. Any such change marks
//! the trial "verifier tampered" (excluded from scoring, the paths shown) instead of scoring it,
//! since a pass it produced says nothing about the task.

use skillscope_sandbox::{ChangeKind, EngineChange, EngineChangeKind, FileChange};

/// Files a test runner or interpreter loads by itself from the folders it runs in: a dropped or
/// edited one can decide every test's outcome (pytest's `conftest.py` and `pytest.ini`, Python's
/// `sitecustomize`/`usercustomize` and `.pth` files).
const HOOK_FILES: &[&str] = &["conftest.py", "pytest.ini", "sitecustomize.py", "usercustomize.py"];

/// Folders of the programs and libraries a verifier runs: shells, interpreters, test runners on
/// the PATH, their libraries and site-packages.
const RUNTIME_DIRS: &[&str] = &[
    "/bin",
    "/sbin",
    "/usr/bin",
    "/usr/sbin",
    "/usr/local/bin",
    "/usr/local/sbin",
    "/lib",
    "/lib64",
    "/usr/lib",
    "/usr/lib64",
    "/usr/local/lib",
];

/// Files that change how every process or shell starts.
const STARTUP_FILES: &[&str] = &["/etc/ld.so.preload", "/etc/profile", "/etc/bash.bashrc", "/etc/environment"];
const STARTUP_DIRS: &[&str] = &["/etc/profile.d"];

/// Where a Harbor verifier writes its reward: nothing may be there before it starts.
const VERIFIER_LOGS: &str = "/logs/verifier";

fn is_hook(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    HOOK_FILES.contains(&name) || name.ends_with(".pth")
}

fn under(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))
}

/// Hook files the agent created or modified in its workspace (paths relative to `workdir` in
/// `changes`), as absolute paths. A fresh verifier container receives the workspace, so these
/// reach the verifier even there.
pub fn workspace_hooks(changes: &[FileChange], workdir: &str) -> Vec<String> {
    changes
        .iter()
        .filter(|c| c.kind != ChangeKind::Deleted && is_hook(&c.path))
        .map(|c| format!("{}/{}", workdir.trim_end_matches('/'), c.path))
        .collect()
}

/// For a verifier that runs in the agent's own container: every engine-recorded change outside
/// `workdir` to the runtime the verifier uses, hook files anywhere, and anything under
/// [`VERIFIER_LOGS`], leaving out what was already changed before the agent started
/// (`at_start`: the engine's init binary and mount points). A directory reported only because
/// something inside it changed is skipped; the change inside is reported instead.
pub fn in_place_tampering(changes: &[EngineChange], at_start: &[EngineChange], workdir: &str) -> Vec<String> {
    let workdir = workdir.trim_end_matches('/');
    agents_changes(changes, at_start)
        .filter(|c| {
            let p = c.path.as_str();
            let runtime = RUNTIME_DIRS.iter().any(|d| under(p, d) || p == *d);
            let startup = STARTUP_FILES.contains(&p) || STARTUP_DIRS.iter().any(|d| under(p, d));
            let logs = under(p, VERIFIER_LOGS);
            let hook = c.kind != EngineChangeKind::Deleted && is_hook(p);
            let outside_work = !under(p, workdir) && p != workdir;
            hook || (outside_work && (runtime || startup || logs))
        })
        .map(|c| c.path.clone())
        .collect()
}

/// The engine's changes that are the agent's: not already there when it started (`at_start`),
/// and not a directory reported only because something inside it changed.
fn agents_changes<'a>(
    changes: &'a [EngineChange],
    at_start: &'a [EngineChange],
) -> impl Iterator<Item = &'a EngineChange> + 'a {
    let parent_only =
        |c: &EngineChange| c.kind == EngineChangeKind::Modified && changes.iter().any(|o| under(&o.path, &c.path));
    changes.iter().filter(move |c| !parent_only(c) && !at_start.contains(c))
}

/// Most engine-recorded changes kept with an attempt.
const DIFF_KEPT: usize = 1000;

/// The engine's record of what changed outside `workdir` since the agent started, as
/// `added|modified|deleted PATH` lines (parents reported only for a change inside them left out),
/// at most [`DIFF_KEPT`] of them.
pub fn outside_workdir(changes: &[EngineChange], at_start: &[EngineChange], workdir: &str) -> Vec<String> {
    let workdir = workdir.trim_end_matches('/');
    agents_changes(changes, at_start)
        .filter(|c| !under(&c.path, workdir) && c.path != workdir)
        .take(DIFF_KEPT)
        .map(|c| {
            let kind = match c.kind {
                EngineChangeKind::Added => "added",
                EngineChangeKind::Modified => "modified",
                EngineChangeKind::Deleted => "deleted",
            };
            format!("{kind} {}", c.path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(path: &str, kind: EngineChangeKind) -> EngineChange {
        EngineChange { path: path.into(), kind }
    }

    #[test]
    fn runtime_logs_and_hooks_are_tampering_the_agents_work_is_not() {
        use EngineChangeKind::*;
        let changes = [
            change("/usr", Modified),
            change("/usr/bin", Modified),
            change("/usr/bin/grep", Modified),
            change("/logs", Added),
            change("/logs/verifier", Added),
            change("/logs/verifier/reward.txt", Added),
            change("/work", Modified),
            change("/work/answer.txt", Added),
            change("/work/conftest.py", Added),
            change("/root/.claude", Deleted),
            change("/tmp/notes", Added),
            change("/usr/local/lib/python3.11/site-packages/evil.pth", Added),
            change("/usr/sbin/docker-init", Added),
        ];
        let at_start = [change("/usr/sbin/docker-init", Added)];
        assert_eq!(
            in_place_tampering(&changes, &at_start, "/work"),
            [
                "/usr/bin/grep",
                "/logs/verifier/reward.txt",
                "/work/conftest.py",
                "/usr/local/lib/python3.11/site-packages/evil.pth"
            ]
        );
    }

    #[test]
    fn the_agents_changes_outside_the_workdir_are_listed_without_the_engines_own() {
        use EngineChangeKind::*;
        let changes = [
            change("/tmp", Modified),
            change("/tmp/notes", Added),
            change("/usr/sbin/docker-init", Added),
            change("/work/answer.txt", Added),
            change("/etc/motd", Deleted),
        ];
        let at_start = [change("/usr/sbin/docker-init", Added)];
        assert_eq!(outside_workdir(&changes, &at_start, "/work"), ["added /tmp/notes", "deleted /etc/motd"]);
    }

    #[test]
    fn a_hook_file_written_into_the_workspace_is_named() {
        let file = |path: &str, kind| FileChange { path: path.into(), kind, diff: None };
        let changes = [
            file("src/app.py", ChangeKind::Modified),
            file("tests/conftest.py", ChangeKind::Created),
            file("old/conftest.py", ChangeKind::Deleted),
            file("lib/x.pth", ChangeKind::Modified),
        ];
        assert_eq!(workspace_hooks(&changes, "/work/"), ["/work/tests/conftest.py", "/work/lib/x.pth"]);
    }
}
