//! SWE-Skills-Bench: requirement documents (`tasks/<batch>/<skill-id>.md`)
//! plus `config/benchmark_config.yaml` (repository at a pinned commit,
//! image, limits, test command per skill) → tasks.
//!
//! The agent's instruction is the requirement document itself. The
//! repository is checked out into the workspace directory by the first
//! setup command. The verifier is pytest over the benchmark's test file
//! (`tests/<batch>/test_<skill_id>.py` or `tests/test_<skill_id>.py` next to
//! `tasks/`), placed where the config's test command expects it
//! (`/workspace/tests/`). The public copy of the benchmark ships without
//! those files: such tasks import with [`TaskVerifier::Missing`] and a
//! reason, so they can be listed but not scored.

pub mod config;
pub mod doc;

use crate::error::{ImportBatch, ImportError};
use crate::files::{read_text, sh_quote};
use crate::model::*;
pub use config::{BenchConfig, BenchSkill};
pub use doc::{RequirementDoc, RequirementFile};
use std::path::{Path, PathBuf};

pub const DEFAULT_AGENT_TIMEOUT_SECS: u64 = 1800;
pub const DEFAULT_VERIFIER_TIMEOUT_SECS: u64 = 600;

/// Imports every requirement document under `root/<tasks_dir>/` (one level
/// of batch folders, or documents directly in it).
pub fn import_benchmark(root: &Path) -> Result<ImportBatch, ImportError> {
    let config_path = root.join("config").join("benchmark_config.yaml");
    if !config_path.is_file() {
        return Err(ImportError::missing(root, "config/benchmark_config.yaml"));
    }
    let config = config::load(&config_path)?;
    let tasks_dir = root.join(&config.tasks_dir);
    let docs = requirement_docs(&tasks_dir)?;
    if docs.is_empty() {
        return Err(ImportError::missing(&tasks_dir, "requirement documents (*.md)"));
    }
    let mut batch = ImportBatch::default();
    for d in docs {
        batch.push(import_requirement(&d, &config, Some(root)));
    }
    Ok(batch)
}

fn requirement_docs(tasks_dir: &Path) -> Result<Vec<PathBuf>, ImportError> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(tasks_dir)
        .min_depth(1)
        .max_depth(2)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| e.into_path())
        .collect();
    if !tasks_dir.is_dir() {
        return Err(ImportError::missing(tasks_dir, "tasks folder"));
    }
    out.sort();
    Ok(out)
}

/// Imports one requirement document. The skill id is the file stem; the
/// batch is the parent folder's name when it starts with `batch`.
/// `bench_root` is where `tests/` (and a relative `dockerfile`) are looked
/// up; without it the task gets no verifier.
pub fn import_requirement(
    doc_path: &Path,
    config: &BenchConfig,
    bench_root: Option<&Path>,
) -> Result<TaskSpec, ImportError> {
    let text = read_text(doc_path)?;
    let doc = doc::parse(&text).map_err(|e| ImportError::invalid(doc_path, e))?;
    let skill_id = doc_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let skill = config.skill(&skill_id).ok_or_else(|| {
        ImportError::invalid(doc_path, format!("no skill `{skill_id}` in config/benchmark_config.yaml"))
    })?;
    let batch = doc_path
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n.starts_with("batch"));

    let mut warnings = Vec::new();
    let environment = environment(doc_path, config, skill, bench_root, &mut warnings)?;
    let verifier = verifier(config, skill, bench_root, batch.as_deref())?;
    for c in &skill.build_checks {
        warnings.push(format!("build check `{c}` is not part of the score (the pass ratio is pytest's)"));
    }
    let unit_timeout = skill.unit_test.as_ref().and_then(|u| u.timeout);
    Ok(TaskSpec {
        id: match &batch {
            Some(b) => format!("{skill_id}@{b}"),
            None => skill_id.clone(),
        },
        name: doc.title.clone(),
        source: TaskSource { kind: TaskSourceKind::SweSkillsBench, path: doc_path.display().to_string() },
        instruction: text,
        environment,
        verifier,
        agent_timeout_secs: skill.total_timeout_sec.unwrap_or(DEFAULT_AGENT_TIMEOUT_SECS),
        verifier_timeout_secs: unit_timeout.unwrap_or(DEFAULT_VERIFIER_TIMEOUT_SECS),
        verifier_in_place: false,
        run_as_root: false,
        reference_solution: None,
        warnings,
    })
}

fn environment(
    doc_path: &Path,
    config: &BenchConfig,
    skill: &BenchSkill,
    bench_root: Option<&Path>,
    warnings: &mut Vec<String>,
) -> Result<TaskEnvironment, ImportError> {
    let workdir = config.workspace_dir.clone();
    let mut setup = Vec::new();
    let repository = match &skill.repo_url {
        Some(url) => {
            let commit = skill.repo_commit.clone();
            let cmd = checkout_command(url, commit.as_deref(), &workdir)
                .map_err(|e| ImportError::invalid(doc_path, format!("skill `{}`: {e}", skill.id)))?;
            if commit.is_none() {
                warnings
                    .push(format!("repository {url} has no pinned commit: the checkout follows its default branch"));
            }
            setup.push(cmd);
            Some(TaskRepository { url: url.clone(), commit })
        }
        None => None,
    };
    setup.extend(skill.setup_commands.iter().cloned());
    let dockerfile_context = match (&skill.dockerfile, bench_root) {
        (Some(df), Some(root)) => {
            let ctx = skill
                .build_context
                .as_deref()
                .map(|c| root.join(c))
                .unwrap_or_else(|| root.join(df).parent().map(Path::to_path_buf).unwrap_or_default());
            Some(ctx.display().to_string())
        }
        _ => None,
    };
    if skill.base_image.is_none() && dockerfile_context.is_none() {
        return Err(ImportError::invalid(
            doc_path,
            format!("skill `{}` names neither a base_image nor a dockerfile", skill.id),
        ));
    }
    Ok(TaskEnvironment {
        image: skill.base_image.clone(),
        dockerfile_context,
        workdir: Some(workdir),
        repository,
        setup,
        env: skill.env_vars.clone(),
        memory_mb: skill.memory_mb,
        cpus: skill.cpus,
        ..TaskEnvironment::default()
    })
}

/// A shallow fetch of one commit into `workdir` (kept when already a checkout).
fn checkout_command(url: &str, commit: Option<&str>, workdir: &str) -> Result<String, String> {
    let url_ok = (url.starts_with("https://") || url.starts_with("http://"))
        && !url.chars().any(|c| c.is_whitespace() || c == '\'');
    if !url_ok {
        return Err(format!("repository url `{url}` is not an http(s) URL"));
    }
    if let Some(c) = commit {
        if !(7..=40).contains(&c.len()) || !c.chars().all(|x| x.is_ascii_hexdigit()) {
            return Err(format!("commit `{c}` is not a hexadecimal commit id"));
        }
    }
    let w = sh_quote(workdir);
    Ok(format!(
        "set -e; mkdir -p {w}; cd {w}; if [ ! -d .git ]; then git init -q; git remote add origin {u}; fi; \
         git fetch -q --depth 1 origin {r}; git checkout -q --force FETCH_HEAD",
        u = sh_quote(url),
        r = commit.unwrap_or("HEAD"),
    ))
}

fn verifier(
    config: &BenchConfig,
    skill: &BenchSkill,
    bench_root: Option<&Path>,
    batch: Option<&str>,
) -> Result<TaskVerifier, ImportError> {
    let Some(unit) = &skill.unit_test else {
        return Ok(TaskVerifier::Missing {
            reason: format!("the benchmark config has no unit_test evaluation for `{}`", skill.id),
        });
    };
    let words: Vec<&str> = unit.test_command.split_whitespace().collect();
    let Some(test_path) = words.iter().find(|w| w.ends_with(".py")) else {
        return Ok(TaskVerifier::Missing {
            reason: format!("test command `{}` names no .py test file", unit.test_command),
        });
    };
    let (container_dir, file_name) = match test_path.rsplit_once('/') {
        Some((d, f)) if d.starts_with('/') => (d.to_string(), f.to_string()),
        Some((d, f)) => (format!("{}/{d}", config.workspace_dir), f.to_string()),
        None => (config.workspace_dir.clone(), test_path.to_string()),
    };
    let tests_root = bench_root.map(|r| r.join(&config.tests_dir));
    let candidates: Vec<PathBuf> = tests_root
        .iter()
        .flat_map(|t| {
            let mut c = Vec::new();
            if let Some(b) = batch {
                c.push(t.join(b).join(&file_name));
            }
            c.push(t.join(&file_name));
            c
        })
        .collect();
    let Some(found) = candidates.iter().find(|p| p.is_file()) else {
        let looked = candidates.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" or ");
        return Ok(TaskVerifier::Missing {
            reason: if looked.is_empty() {
                format!("no test files given for `{file_name}`")
            } else {
                format!(
                    "SWE-Skills-Bench's pytest verifier `{file_name}` is not provided (looked for {looked}); \
                     the public copy of the benchmark does not include its tests"
                )
            },
        });
    };
    let mut test_files =
        vec![TaskFile::new(file_name.clone(), std::fs::read(found).map_err(|e| ImportError::io(found, e))?)];
    let conftest = found.with_file_name("conftest.py");
    if conftest.is_file() {
        test_files
            .push(TaskFile::new("conftest.py", std::fs::read(&conftest).map_err(|e| ImportError::io(&conftest, e))?));
    }
    let args = pytest_args(&words);
    Ok(TaskVerifier::Pytest { test_files, args, tests_dir: container_dir })
}

/// The test command's options, without the interpreter, `-m pytest`, the
/// test paths and verbosity flags.
fn pytest_args(words: &[&str]) -> Vec<String> {
    let start = words.iter().position(|w| *w == "pytest").map_or(0, |i| i + 1);
    words[start..]
        .iter()
        .filter(|w| !w.ends_with(".py") && !matches!(**w, "-v" | "-vv" | "-q" | "--verbose"))
        .map(|w| w.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkout_is_pinned_and_quoted() {
        let c = checkout_command("https://github.com/encode/httpx", Some("abc1234"), "/workspace").unwrap();
        assert!(c.contains("git fetch -q --depth 1 origin abc1234"), "{c}");
        assert!(c.contains("'https://github.com/encode/httpx'"), "{c}");
        assert!(checkout_command("file:///etc", None, "/w").is_err());
        assert!(checkout_command("https://x/y", Some("main; rm -rf /"), "/w").is_err());
    }

    #[test]
    fn args_keep_options_only() {
        let w: Vec<&str> = "python -m pytest /workspace/tests/test_fix.py -v --tb=short".split_whitespace().collect();
        assert_eq!(pytest_args(&w), ["--tb=short"]);
    }
}
