//! Verifier tampering: changes an agent made to what its verifier runs on. Any such change marks
//! the trial "verifier tampered" (excluded from scoring, the paths shown) instead of scoring it,
//! since a pass it produced says nothing about the task.

use super::runtime_paths::RuntimePaths;
use skillscope_sandbox::{ChangeKind, EngineChange, EngineChangeKind, FileChange, Snapshot};

/// Files a test runner or interpreter loads by itself from the folders it runs in: a dropped or
/// edited one can decide every test's outcome (pytest's `conftest.py`, Python's
/// `sitecustomize`/`usercustomize` and `.pth` files).
const HOOK_FILES: &[&str] = &["conftest.py", "sitecustomize.py", "usercustomize.py"];

/// pytest's own configuration files: any content there configures it.
const RUNNER_CONFIGS: &[&str] = &["pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml"];
/// Shared configuration files and the section that makes one pytest's.
const SHARED_CONFIGS: &[(&str, &str)] =
    &[("tox.ini", "[pytest]"), ("setup.cfg", "[tool:pytest]"), ("pyproject.toml", "[tool.pytest")];

/// Commands a verifier script starts by name: in a PATH entry that is the workdir itself, a file
/// of one of these names replaces the program.
const VERIFIER_COMMANDS: &[&str] =
    &["sh", "bash", "env", "python", "python3", "pytest", "py.test", "pip", "pip3", "node", "npm", "npx"];

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

/// Files that change how every process or shell starts, or where its libraries come from.
const STARTUP_FILES: &[&str] = &[
    "/etc/ld.so.preload",
    "/etc/ld.so.conf",
    "/etc/ld.so.cache",
    "/etc/profile",
    "/etc/bash.bashrc",
    "/etc/environment",
];
const STARTUP_DIRS: &[&str] = &["/etc/profile.d", "/etc/ld.so.conf.d"];

/// Where a Harbor verifier writes its reward: nothing may be there before it starts.
const VERIFIER_LOGS: &str = "/logs/verifier";

fn name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn is_hook(path: &str) -> bool {
    HOOK_FILES.contains(&name(path)) || name(path).ends_with(".pth")
}

fn under(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))
}

fn folder(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// Who runs the verifier: the project's own pytest start ignores runner configuration, module
/// shadows and PATH folders of the workdir by construction (`skillscope_tasks::score::plan`);
/// anything else (a task's `test.sh`, a command) may load them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runner {
    Isolated,
    TaskScript,
}

/// What the agent left in its workdir, as the tamper check reads it.
pub struct Workspace<'a> {
    pub workdir: &'a str,
    pub changes: &'a [FileChange],
    /// Links in the workdir after the agent (relative paths): the snapshot leaves them out.
    pub links: &'a [String],
    /// The workdir after the agent, for the contents of a changed configuration file.
    pub after: Option<&'a Snapshot>,
}

/// The files the agent created, modified or linked in its workdir that the verifier would load as
/// code, as absolute paths: hook files anywhere; and for a [`Runner::TaskScript`] pytest
/// configuration, modules named like one the runtime loads or has installed placed where Python
/// searches first (the workdir, which is the verifier's current folder, and any `sys.path` or
/// user-site folder inside it), and files in the PATH's folders inside the workdir. A fresh
/// verifier container receives the workdir, so these reach the verifier even there.
pub fn workspace_tampering(ws: &Workspace<'_>, runtime: &RuntimePaths, runner: Runner) -> Vec<String> {
    let workdir = ws.workdir.trim_end_matches('/');
    let rel_of = |dir: &str| -> Option<String> {
        let dir = dir.trim_end_matches('/');
        if dir == workdir || dir == "." || dir.is_empty() {
            Some(String::new())
        } else if let Some(rest) = dir.strip_prefix(workdir).and_then(|r| r.strip_prefix('/')) {
            Some(rest.to_string())
        } else {
            (!dir.starts_with('/')).then(|| dir.trim_start_matches("./").to_string())
        }
    };
    let mut roots: Vec<String> = vec![String::new()];
    roots.extend(runtime.python_path.iter().chain(&runtime.user_site).filter_map(|d| rel_of(d)));
    let bins: Vec<String> = runtime.path.iter().filter_map(|d| rel_of(d)).collect();
    let loaded = |m: &str| runtime.runner_modules.iter().chain(&runtime.installed_modules).any(|r| r == m);
    let shadows = |rel: &str| module_name(rel, &roots).is_some_and(loaded);
    // A link may stand for a package folder: its bare name counts too.
    let link_shadows = |rel: &str| roots.iter().any(|r| r == folder(rel)) && loaded(name(rel));
    let on_path =
        |rel: &str| bins.iter().any(|b| b == folder(rel) && (!b.is_empty() || VERIFIER_COMMANDS.contains(&name(rel))));
    let changed = ws.changes.iter().filter(|c| c.kind != ChangeKind::Deleted).map(|c| (c.path.as_str(), false));
    let mut found: Vec<String> = changed
        .chain(ws.links.iter().map(|l| (l.as_str(), true)))
        .filter(|&(rel, link)| {
            let script = runner == Runner::TaskScript;
            let loads = configures_pytest(rel, ws.after) || shadows(rel) || (link && link_shadows(rel)) || on_path(rel);
            is_hook(rel) || (script && loads)
        })
        .map(|(rel, _)| rel)
        .map(|rel| format!("{workdir}/{rel}"))
        .collect();
    found.sort();
    found.dedup();
    found
}

/// The top-level module a file at `rel` would be imported as from one of `roots` (folders relative
/// to the workdir, `""` for the workdir): `m.py`, `m.pyc`, an extension `m.*.so`, or a package's
/// `m/__init__.py`. A folder without `__init__` cannot shadow: Python prefers any module or
/// package of that name found later on the path over a namespace portion.
fn module_name<'a>(rel: &'a str, roots: &[String]) -> Option<&'a str> {
    let file = name(rel);
    let dir = folder(rel);
    let (module, at) = if file == "__init__.py" || file == "__init__.pyc" {
        (name(dir), folder(dir))
    } else {
        let stem = file
            .strip_suffix(".py")
            .or_else(|| file.strip_suffix(".pyc"))
            .or_else(|| file.strip_suffix(".so").map(|s| s.split('.').next().unwrap_or(s)))?;
        (stem, dir)
    };
    roots.iter().any(|r| r == at).then_some(module)
}

/// Whether the file at `rel` is pytest configuration: one of its own files, or a shared one with
/// its section; a shared file whose contents cannot be read counts as one.
fn configures_pytest(rel: &str, after: Option<&Snapshot>) -> bool {
    if RUNNER_CONFIGS.contains(&name(rel)) {
        return true;
    }
    let Some((_, section)) = SHARED_CONFIGS.iter().find(|(n, _)| *n == name(rel)) else { return false };
    let contents = after.and_then(|s| s.files.get(rel)).and_then(|f| f.contents.as_deref());
    contents.is_none_or(|bytes| String::from_utf8_lossy(bytes).contains(section))
}

/// For a verifier that runs in the agent's own container: every engine-recorded change outside
/// `workdir` to the runtime the verifier uses (the usual program and library folders, and the
/// folders `runtime` read in that container: its PATH, Python's import path and user site, the
/// dynamic linker's), hook files anywhere, and anything under [`VERIFIER_LOGS`], leaving out what
/// was already changed before the agent started (`at_start`: the engine's init binary and mount
/// points). A directory reported only because something inside it changed is skipped; the change
/// inside is reported instead.
pub fn in_place_tampering(
    changes: &[EngineChange],
    at_start: &[EngineChange],
    workdir: &str,
    runtime: &RuntimePaths,
) -> Vec<String> {
    let workdir = workdir.trim_end_matches('/');
    let read: Vec<&str> = runtime
        .path
        .iter()
        .chain(&runtime.python_path)
        .chain(&runtime.user_site)
        .chain(&runtime.library_dirs)
        .map(|d| d.trim_end_matches('/'))
        .filter(|d| d.starts_with('/') && d.len() > 1)
        .collect();
    agents_changes(changes, at_start)
        .filter(|c| {
            let p = c.path.as_str();
            let runtime = RUNTIME_DIRS.iter().chain(&read).any(|d| under(p, d) || p == *d);
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
            in_place_tampering(&changes, &at_start, "/work", &RuntimePaths::default()),
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

    fn file(path: &str, kind: ChangeKind) -> FileChange {
        FileChange { path: path.into(), kind, diff: None }
    }

    fn check(changes: &[FileChange], links: &[String], runtime: &RuntimePaths, runner: Runner) -> Vec<String> {
        let ws = Workspace { workdir: "/work/", changes, links, after: None };
        workspace_tampering(&ws, runtime, runner)
    }

    #[test]
    fn a_hook_file_written_into_the_workspace_is_named() {
        let changes = [
            file("src/app.py", ChangeKind::Modified),
            file("tests/conftest.py", ChangeKind::Created),
            file("old/conftest.py", ChangeKind::Deleted),
            file("lib/x.pth", ChangeKind::Modified),
        ];
        let links = ["deep/sitecustomize.py".to_string()];
        let found = check(&changes, &links, &RuntimePaths::default(), Runner::Isolated);
        assert_eq!(found, ["/work/deep/sitecustomize.py", "/work/lib/x.pth", "/work/tests/conftest.py"]);
    }

    fn python_runtime() -> RuntimePaths {
        RuntimePaths {
            path: vec!["/usr/bin".into(), "/work/.venv/bin".into(), "node_modules/.bin".into(), ".".into()],
            python_path: vec!["/usr/lib/python3.11".into(), "/work/src".into()],
            user_site: Some("/home/u/.local/lib/python3.11/site-packages".into()),
            runner_modules: vec!["pytest".into(), "argparse".into(), "_pytest".into()],
            installed_modules: vec!["pluggy".into(), "requests".into()],
            library_dirs: vec!["/opt/lib".into()],
        }
    }

    #[test]
    fn modules_that_shadow_the_runner_are_named_where_python_looks_first() {
        let changes = [
            file("pytest.py", ChangeKind::Created),
            file("pluggy/__init__.py", ChangeKind::Created),
            file("src/argparse.cpython-311-x86_64-linux-gnu.so", ChangeKind::Created),
            // Not where Python looks first, or not a module the runtime has: the agent's work.
            file("app/pytest.py", ChangeKind::Created),
            file("word_count.py", ChangeKind::Created),
            file("test.py", ChangeKind::Created),
            file("pluggy/helpers.py", ChangeKind::Created),
        ];
        let links = ["_pytest".to_string(), "requests.py".to_string()];
        let runtime = python_runtime();
        assert_eq!(
            check(&changes, &links, &runtime, Runner::TaskScript),
            [
                "/work/_pytest",
                "/work/pluggy/__init__.py",
                "/work/pytest.py",
                "/work/requests.py",
                "/work/src/argparse.cpython-311-x86_64-linux-gnu.so"
            ]
        );
        assert!(check(&changes, &links, &runtime, Runner::Isolated).is_empty(), "the isolated start loads none");
    }

    #[test]
    fn runner_configuration_and_path_folders_in_the_workdir_are_named() {
        let mut after = Snapshot::from_files(vec![
            ("setup.cfg".into(), b"[metadata]\nname = x\n\n[tool:pytest]\naddopts = -p evil\n".to_vec()),
            ("pyproject.toml".into(), b"[project]\nname = \"x\"\n".to_vec()),
        ]);
        let changes = [
            file("tox.ini", ChangeKind::Created),
            file("setup.cfg", ChangeKind::Modified),
            file("pyproject.toml", ChangeKind::Created),
            file("sub/.pytest.ini", ChangeKind::Created),
            file(".venv/bin/pytest", ChangeKind::Created),
            file("node_modules/.bin/jest", ChangeKind::Modified),
            file("python3", ChangeKind::Created),
            file("notes.txt", ChangeKind::Created),
        ];
        let ws = Workspace { workdir: "/work", changes: &changes, links: &[], after: Some(&after) };
        let expected = [
            "/work/.venv/bin/pytest",
            "/work/node_modules/.bin/jest",
            "/work/python3",
            "/work/setup.cfg",
            "/work/sub/.pytest.ini",
            // Its contents were not read: counted as configuration.
            "/work/tox.ini",
        ];
        assert_eq!(workspace_tampering(&ws, &python_runtime(), Runner::TaskScript), expected);
        // A pyproject.toml with the section is configuration too.
        let with_section = b"[tool.pytest.ini_options]\naddopts = \"-p evil\"\n".to_vec();
        after.files = Snapshot::from_files(vec![("pyproject.toml".into(), with_section)]).files;
        let ws = Workspace { workdir: "/work", changes: &changes[2..3], links: &[], after: Some(&after) };
        assert_eq!(workspace_tampering(&ws, &python_runtime(), Runner::TaskScript), ["/work/pyproject.toml"]);
    }

    #[test]
    fn in_place_the_runtimes_own_folders_count() {
        use EngineChangeKind::*;
        let changes = [
            change("/opt/venv/lib/python3.11/site-packages/pytest/__init__.py", Modified),
            change("/usr/local/go/bin/go", Modified),
            change("/opt/lib/libssl.so.3", Added),
            change("/etc/ld.so.conf.d/evil.conf", Added),
            change("/opt/data/cache.json", Added),
        ];
        let runtime = RuntimePaths {
            path: vec!["/usr/local/go/bin".into()],
            python_path: vec!["/opt/venv/lib/python3.11/site-packages".into()],
            library_dirs: vec!["/opt/lib".into()],
            ..RuntimePaths::default()
        };
        let found = in_place_tampering(&changes, &[], "/work", &runtime);
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(!found.contains(&"/opt/data/cache.json".to_string()));
        assert_eq!(
            in_place_tampering(&changes, &[], "/work", &RuntimePaths::default()),
            ["/etc/ld.so.conf.d/evil.conf"]
        );
    }
}
