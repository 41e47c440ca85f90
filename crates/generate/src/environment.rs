//! The environment of tasks set in a repository: a Dockerfile context holding the repository at
//! its commit under `repo/`, on a base image chosen by the repository's language, with the
//! dependencies its manifests name installed at build time. The context is content-addressed by
//! whoever stores it, so one repository state builds once. A failed build is explained: what
//! could not be fetched, or which base image is missing.

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
/// Lock and manifest files this builder does not install from; their presence is reported.
const NOT_INSTALLED: [&str; 4] = ["poetry.lock", "Pipfile.lock", "uv.lock", "pyproject.toml"];

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

/// The recipe for `repo`: Python when it has a requirements file, `setup.py` or `pyproject.toml`;
/// Node when it has `package.json`.
pub fn recipe(repo: &Repository) -> Recipe {
    let has = |name: &str| repo.files.iter().any(|f| f.path == name);
    let language = if PIP_FILES.iter().any(|f| has(f)) || has("setup.py") || has("pyproject.toml") {
        Language::Python
    } else if has("package.json") {
        Language::Node
    } else {
        Language::Other
    };
    let mut notes = Vec::new();
    let (base_image, install) = match language {
        Language::Python => {
            let files: Vec<&str> = PIP_FILES.into_iter().filter(|f| has(f)).collect();
            let install = if files.is_empty() {
                None
            } else {
                notes.push(format!("pip installs {}", files.join(", ")));
                let args: Vec<String> = files.iter().map(|f| format!("-r {f}")).collect();
                Some(format!(
                    "python3 -m pip install --no-cache-dir --break-system-packages --retries 1 --timeout 15 {}",
                    args.join(" ")
                ))
            };
            for f in NOT_INSTALLED.iter().filter(|f| has(f)) {
                notes.push(format!("{f} is not installed from; name its dependencies in requirements.txt"));
            }
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
    if let Some(cmd) = install {
        dockerfile.push_str(&format!("RUN {cmd}\n"));
    }
    let mut context = vec![TaskFile::new("Dockerfile", dockerfile.into_bytes())];
    context.extend(repo.files.iter().map(|f| TaskFile::new(format!("repo/{}", f.path), f.contents.clone())));
    Recipe { language, base_image, context, notes }
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
        let py = recipe(&repo(&["requirements.txt", "requirements-dev.txt", "poetry.lock", "calc.py"]));
        assert_eq!((py.language, py.base_image), (Language::Python, PYTHON_BASE));
        assert_eq!(
            dockerfile(&py),
            "FROM skillscope/debian-python:12\nCOPY repo/ /workspace/\nWORKDIR /workspace\nRUN python3 -m pip install --no-cache-dir --break-system-packages --retries 1 --timeout 15 -r requirements.txt -r requirements-dev.txt\n"
        );
        assert_eq!(py.notes[1], "poetry.lock is not installed from; name its dependencies in requirements.txt");
        assert_eq!(
            py.context.iter().map(|f| f.path.as_str()).collect::<Vec<_>>()[1..],
            ["repo/requirements.txt", "repo/requirements-dev.txt", "repo/poetry.lock", "repo/calc.py"]
        );
        let node = recipe(&repo(&["package.json", "package-lock.json"]));
        assert_eq!((node.language, node.base_image), (Language::Node, NODE_BASE));
        assert!(dockerfile(&node).ends_with("RUN npm ci --no-audit --no-fund\n"));
        let other = recipe(&repo(&["main.go"]));
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
