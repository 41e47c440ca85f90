//! The environment of tasks set in a repository: a Dockerfile context holding the repository at
//! its commit under `repo/`, on a base image chosen by the repository's language, with the
//! dependencies its manifests name installed at build time. The context is content-addressed by
//! whoever stores it, so one repository state builds once. A failed build is explained: what
//! could not be fetched, or which base image is missing.

use crate::locks::LOCKFILES;
use crate::repository::Repository;
use serde::{Deserialize, Serialize};
use skillscope_tasks::TaskFile;
use ts_rs::TS;

/// Where the repository is in the image; the tasks' working directory.
pub const WORKDIR: &str = "/workspace";
/// The project's Python base image (Debian 12 with Python, pip and pytest; `skillscope image bootstrap`).
pub const PYTHON_BASE: &str = "skillscope/debian-python:12";
/// Node's official image: pulled from a registry, which must be reachable.
pub const NODE_BASE: &str = "node:20-bookworm-slim";
/// pip's requirement files installed when present at the repository's root, in this order.
const PIP_FILES: [&str; 3] = ["requirements.txt", "requirements-dev.txt", "requirements-test.txt"];
/// Where the pins read from a lockfile are put in the context, and in the image.
const LOCKED: &str = "skillscope-locked-requirements.txt";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Language {
    Python,
    Node,
    /// Neither: the Python base image, nothing installed.
    Other,
}

/// A repository environment's build recipe.
#[derive(Debug, Clone)]
pub struct Recipe {
    pub language: Language,
    pub base_image: &'static str,
    /// `Dockerfile` and the repository under `repo/`.
    pub context: Vec<TaskFile>,
    /// What was installed from, and manifests that were not used.
    pub notes: Vec<String>,
}

/// The recipe for `repo`: Python when it has a requirements file, a Python lockfile, `setup.py`
/// or `pyproject.toml`; Node when it has `package.json`. `Err` says which lockfile cannot be read.
pub fn recipe(repo: &Repository) -> Result<Recipe, String> {
    let has = |name: &str| repo.files.iter().any(|f| f.path == name);
    let python = PIP_FILES.iter().chain(&LOCKFILES).chain(&["setup.py", "pyproject.toml"]).any(|f| has(f));
    let language = if python {
        Language::Python
    } else if has("package.json") {
        Language::Node
    } else {
        Language::Other
    };
    let mut notes = Vec::new();
    // Files the build needs besides the repository (the pins read from a lockfile).
    let mut extra: Vec<TaskFile> = Vec::new();
    let (base_image, install) = match language {
        Language::Python => {
            let mut args: Vec<String> = Vec::new();
            if let Some((lockfile, pins)) = lock_pins(repo)? {
                notes.push(format!("pip installs the {} package(s) {lockfile} pins", pins.len()));
                extra.push(TaskFile::new(LOCKED, pins.join("\n") + "\n"));
                args.push(format!("-r /tmp/{LOCKED}"));
            }
            let files: Vec<&str> = PIP_FILES.into_iter().filter(|f| has(f)).collect();
            if !files.is_empty() {
                notes.push(format!("pip installs {}", files.join(", ")));
                args.extend(files.iter().map(|f| format!("-r {f}")));
            }
            if has("pyproject.toml") && args.is_empty() {
                notes.push(
                    "pyproject.toml's dependencies are not installed from; lock them or list them in requirements.txt"
                        .into(),
                );
            }
            let install = (!args.is_empty()).then(|| {
                format!(
                    "python3 -m pip install --no-cache-dir --break-system-packages --retries 1 --timeout 15 {}",
                    args.join(" ")
                )
            });
            (PYTHON_BASE, install)
        }
        Language::Node => {
            let ci = has("package-lock.json");
            notes.push(if ci { "npm ci from package-lock.json" } else { "npm install from package.json" }.into());
            (
                NODE_BASE,
                Some(if ci { "npm ci --no-audit --no-fund" } else { "npm install --no-audit --no-fund" }.into()),
            )
        }
        Language::Other => {
            notes.push("no Python or Node manifest at the root: nothing installed".into());
            (PYTHON_BASE, None)
        }
    };
    // Owned by root in the image, as in any task image: a trial gives its workdir to its own user.
    let mut dockerfile = format!("FROM {base_image}\nCOPY repo/ {WORKDIR}/\nWORKDIR {WORKDIR}\n");
    for f in &extra {
        dockerfile.push_str(&format!("COPY {} /tmp/{}\n", f.path, f.path));
    }
    if let Some(cmd) = install {
        dockerfile.push_str(&format!("RUN {cmd}\n"));
    }
    let mut context = vec![TaskFile::new("Dockerfile", dockerfile.into_bytes())];
    context.extend(extra);
    context.extend(repo.files.iter().map(|f| TaskFile::new(format!("repo/{}", f.path), f.contents.clone())));
    Ok(Recipe { language, base_image, context, notes })
}

/// The first lockfile at the repository's root (see [`crate::locks`]) and its pins.
fn lock_pins(repo: &Repository) -> Result<Option<(&'static str, Vec<String>)>, String> {
    for name in LOCKFILES {
        if let Some(f) = repo.files.iter().find(|f| f.path == name) {
            let pins = crate::locks::pins(name, &String::from_utf8_lossy(&f.contents))?;
            return Ok(Some((name, pins)));
        }
    }
    Ok(None)
}

/// A failed build's log, in a reviewer's words: which dependency could not be fetched, or which
/// base image is missing; else the log's last lines.
pub fn explain_failure(base_image: &str, log: &str) -> String {
    let unfetched: Vec<&str> = log
        .lines()
        .filter_map(|l| {
            l.split_once("No matching distribution found for ")
                .or_else(|| l.split_once("Could not find a version that satisfies the requirement "))
                .map(|(_, rest)| rest.split_whitespace().next().unwrap_or(rest))
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let offline =
        ["Network is unreachable", "Temporary failure in name resolution", "Failed to establish a new connection"]
            .iter()
            .any(|m| log.contains(m));
    if !unfetched.is_empty() {
        let why = if offline { "the build had no network" } else { "the package index has no such version" };
        return format!(
            "the environment's dependencies could not be fetched: {} ({why}). Vendor a wheel in the repository and name its path in requirements.txt, or build once with network",
            unfetched.join(", ")
        );
    }
    if ["pull access denied", "repository does not exist", "not found: manifest unknown"]
        .iter()
        .any(|m| log.contains(m))
        || (log.contains(base_image) && log.contains("failed to resolve"))
    {
        return format!(
            "the base image {base_image} is missing: Settings → Sandbox → Prepare images (or `skillscope image bootstrap`) makes the project's images; others are pulled when a registry is reachable"
        );
    }
    if offline {
        return "the environment's build needed the network and had none; build once with network".into();
    }
    let tail: Vec<&str> = log.lines().rev().take(12).collect();
    format!("the environment did not build:\n{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repository::RepositoryOrigin;

    fn repo(paths: &[&str]) -> Repository {
        let files: Vec<TaskFile> = paths.iter().map(|p| TaskFile::new(*p, b"x".to_vec())).collect();
        let origin = RepositoryOrigin {
            source: "r".into(),
            commit: None,
            tree_sha256: String::new(),
            files: files.len() as u32,
            bytes: 0,
        };
        Repository { origin, files }
    }

    fn dockerfile(r: &Recipe) -> String {
        String::from_utf8(r.context[0].contents.clone()).unwrap()
    }

    #[test]
    fn the_language_picks_the_base_image_and_the_manifests_the_install() {
        let py = recipe(&repo(&["requirements.txt", "requirements-dev.txt", "pyproject.toml", "calc.py"])).unwrap();
        assert_eq!((py.language, py.base_image), (Language::Python, PYTHON_BASE));
        assert_eq!(
            dockerfile(&py),
            "FROM skillscope/debian-python:12\nCOPY repo/ /workspace/\nWORKDIR /workspace\nRUN python3 -m pip install --no-cache-dir --break-system-packages --retries 1 --timeout 15 -r requirements.txt -r requirements-dev.txt\n"
        );
        assert_eq!(py.notes, ["pip installs requirements.txt, requirements-dev.txt"]);
        assert_eq!(
            py.context.iter().map(|f| f.path.as_str()).collect::<Vec<_>>()[1..],
            ["repo/requirements.txt", "repo/requirements-dev.txt", "repo/pyproject.toml", "repo/calc.py"]
        );
        let mut locked = repo(&["uv.lock", "pyproject.toml"]);
        locked.files[0].contents =
            b"[[package]]\nname = \"six\"\nversion = \"1.16.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
                .to_vec();
        let uv = recipe(&locked).unwrap();
        assert_eq!(uv.notes, ["pip installs the 1 package(s) uv.lock pins"]);
        let pins = &uv.context[1];
        assert_eq!(
            (pins.path.as_str(), pins.contents.as_slice()),
            ("skillscope-locked-requirements.txt", &b"six==1.16.0\n"[..])
        );
        assert!(dockerfile(&uv)
            .contains("COPY skillscope-locked-requirements.txt /tmp/skillscope-locked-requirements.txt\n"));
        assert!(dockerfile(&uv).ends_with("--timeout 15 -r /tmp/skillscope-locked-requirements.txt\n"));
        let unlocked = recipe(&repo(&["pyproject.toml"])).unwrap();
        assert!(unlocked.notes[0].starts_with("pyproject.toml's dependencies are not installed from"));
        assert!(!dockerfile(&unlocked).contains("RUN"));
        locked.files[0].contents = b"[[package".to_vec();
        assert!(recipe(&locked).unwrap_err().starts_with("uv.lock: "));
        let node = recipe(&repo(&["package.json", "package-lock.json"])).unwrap();
        assert_eq!((node.language, node.base_image), (Language::Node, NODE_BASE));
        assert!(dockerfile(&node).ends_with("RUN npm ci --no-audit --no-fund\n"));
        let other = recipe(&repo(&["main.go"])).unwrap();
        assert_eq!(other.language, Language::Other);
        assert!(!dockerfile(&other).contains("RUN"));
    }

    #[test]
    fn a_failed_build_says_what_could_not_be_fetched() {
        let pip = "Step 4/4 : RUN python3 -m pip install -r requirements.txt\nERROR: Could not find a version that satisfies the requirement skillscope-absent==9.9 (from versions: none)\nERROR: No matching distribution found for skillscope-absent==9.9\n";
        assert_eq!(
            explain_failure(PYTHON_BASE, pip),
            "the environment's dependencies could not be fetched: skillscope-absent==9.9 (the package index has no such version). Vendor a wheel in the repository and name its path in requirements.txt, or build once with network"
        );
        let offline = format!("WARNING: Retrying after connection broken by 'NewConnectionError(': Failed to establish a new connection: [Errno 101] Network is unreachable')'\n{pip}");
        assert!(explain_failure(PYTHON_BASE, &offline).contains("skillscope-absent==9.9 (the build had no network)"));
        let base = "pull access denied for skillscope/debian-python, repository does not exist";
        assert!(explain_failure(PYTHON_BASE, base).starts_with("the base image skillscope/debian-python:12 is missing"));
        assert!(explain_failure(PYTHON_BASE, "boom\nRUN exit 3").ends_with("boom\nRUN exit 3"));
    }
}
