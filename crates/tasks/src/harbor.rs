//! Harbor task folders: `task.toml`, `instruction.md`, `environment/`,
//! `tests/test.sh` (+ other test files). A folder holding several task
//! folders imports each of them.
//!
//! Applied from `task.toml`: `[task].name`, `[agent].timeout_sec`,
//! `[verifier].timeout_sec`, `[environment]` `docker_image`, `cpus`,
//! `memory_mb`, `workdir`, `env`, `[verifier].environment_mode`. The verifier
//! runs in a fresh container from the task's image with the workdir copied
//! in, unless the task declares `environment_mode = "shared"` (then in the
//! agent's container, checked for tampering first). Multi-step tasks, separate
//! verifier images, docker-compose environments and Windows tasks are refused
//! with an `Unsupported` error; other settings that are not applied
//! (network policy, `[verifier.env]`, ...) become warnings.

use crate::error::{ImportBatch, ImportError};
use crate::files::{read_text, read_tree};
use crate::model::*;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Used when `[agent].timeout_sec` is absent (Harbor then enforces none; a
/// paired run needs one, shared by both arms).
pub const DEFAULT_AGENT_TIMEOUT_SECS: u64 = 1800;
/// Harbor's default `[verifier].timeout_sec`.
pub const DEFAULT_VERIFIER_TIMEOUT_SECS: u64 = 600;

#[derive(Debug, Default, Deserialize)]
struct TaskToml {
    #[serde(default)]
    task: Option<TaskSection>,
    #[serde(default)]
    verifier: VerifierSection,
    #[serde(default)]
    agent: AgentSection,
    #[serde(default)]
    environment: EnvironmentSection,
    #[serde(default)]
    steps: Option<Vec<toml::Value>>,
}

#[derive(Debug, Default, Deserialize)]
struct TaskSection {
    name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct VerifierSection {
    timeout_sec: Option<f64>,
    user: Option<String>,
    environment_mode: Option<String>,
    environment: Option<toml::Value>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    network_mode: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct AgentSection {
    timeout_sec: Option<f64>,
    user: Option<String>,
    network_mode: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct EnvironmentSection {
    docker_image: Option<String>,
    os: Option<String>,
    cpus: Option<f64>,
    memory_mb: Option<u32>,
    workdir: Option<String>,
    network_mode: Option<String>,
    allow_internet: Option<bool>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    skills_dir: Option<String>,
}

/// Imports `dir`: one task when it holds a `task.toml`, else every
/// immediate sub-folder that holds one (sorted by name). A folder with
/// neither is an error.
pub fn import_dir(dir: &Path) -> Result<ImportBatch, ImportError> {
    if dir.join("task.toml").is_file() {
        let mut b = ImportBatch::default();
        b.push(import_task(dir));
        return Ok(b);
    }
    let rd = std::fs::read_dir(dir).map_err(|e| ImportError::io(dir, e))?;
    let mut subdirs: Vec<_> =
        rd.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.join("task.toml").is_file()).collect();
    subdirs.sort();
    if subdirs.is_empty() {
        return Err(ImportError::missing(dir, "task.toml (neither this folder nor any folder in it is a Harbor task)"));
    }
    let mut b = ImportBatch::default();
    for d in subdirs {
        b.push(import_task(&d));
    }
    Ok(b)
}

/// Imports one Harbor task folder.
pub fn import_task(dir: &Path) -> Result<TaskSpec, ImportError> {
    let toml_path = dir.join("task.toml");
    if !toml_path.is_file() {
        return Err(ImportError::missing(dir, "task.toml"));
    }
    let text = read_text(&toml_path)?;
    let cfg: TaskToml = toml::from_str(&text).map_err(|e| ImportError::toml(&toml_path, &text, &e))?;
    refuse_unsupported(dir, &toml_path, &cfg)?;

    let instruction_path = dir.join("instruction.md");
    if !instruction_path.is_file() {
        return Err(ImportError::missing(dir, "instruction.md"));
    }
    let instruction = read_text(&instruction_path)?;
    if instruction.trim().is_empty() {
        return Err(ImportError::invalid(&instruction_path, "instruction is empty"));
    }

    let mut warnings = Vec::new();
    let tests_dir = dir.join("tests");
    if !tests_dir.join("test.sh").is_file() {
        return Err(ImportError::missing(dir, "tests/test.sh"));
    }
    let tests_dir_files = read_tree(&tests_dir, &mut warnings)?;
    check_test_references(&tests_dir_files, &mut warnings);

    let environment = environment(dir, &toml_path, &cfg, &mut warnings)?;
    note_unapplied(&cfg, &mut warnings);
    let verifier_in_place = cfg.verifier.environment_mode.as_deref() == Some("shared");
    let run_as_root = run_as_root(&cfg, &mut warnings);
    if cfg.verifier.environment_mode.is_none() {
        warnings.push(
            "the verifier runs in a fresh container from the task's image with only the workdir copied in \
             (Harbor's default runs it in the agent's container); declare [verifier] environment_mode = \"shared\" \
             if the tests need changes outside the workdir"
                .into(),
        );
    }

    let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let id = cfg
        .task
        .as_ref()
        .and_then(|t| t.name.clone())
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| folder.clone());
    Ok(TaskSpec {
        name: id.rsplit('/').next().unwrap_or(&id).to_string(),
        id,
        source: TaskSource { kind: TaskSourceKind::Harbor, path: dir.display().to_string() },
        instruction,
        environment,
        verifier: TaskVerifier::HarborTests { tests_dir_files },
        agent_timeout_secs: secs(&toml_path, "[agent].timeout_sec", cfg.agent.timeout_sec)?
            .unwrap_or(DEFAULT_AGENT_TIMEOUT_SECS),
        verifier_timeout_secs: secs(&toml_path, "[verifier].timeout_sec", cfg.verifier.timeout_sec)?
            .unwrap_or(DEFAULT_VERIFIER_TIMEOUT_SECS),
        verifier_in_place,
        run_as_root,
        reference_solution: None,
        warnings,
    })
}

/// Whether the task asks for root (`user = "root"` or `"0"` for its agent or verifier); one
/// user runs both, so root for either is root for both. Another named user is not created:
/// the trial's unprivileged user (uid 1000) runs instead, and the importer says so.
fn run_as_root(cfg: &TaskToml, warnings: &mut Vec<String>) -> bool {
    let users = [("[agent]", &cfg.agent.user), ("[verifier]", &cfg.verifier.user)];
    let root = users.iter().any(|(_, u)| matches!(u.as_deref(), Some("root" | "0")));
    for (section, user) in users {
        if let Some(u) = user.as_deref().filter(|u| !root && !matches!(*u, "root" | "0")) {
            warnings.push(format!(
                "{section} user = \"{u}\": the trial runs as uid 1000 (Skillscope's unprivileged user), not as {u}"
            ));
        }
    }
    if root {
        warnings.push("the task asks for root: its set-up, agent and verifier run as root".into());
    }
    root
}

fn refuse_unsupported(dir: &Path, toml_path: &Path, cfg: &TaskToml) -> Result<(), ImportError> {
    if cfg.steps.as_ref().is_some_and(|s| !s.is_empty()) || dir.join("steps").is_dir() {
        return Err(ImportError::unsupported(toml_path, "multi-step task ([[steps]])"));
    }
    if cfg.verifier.environment.is_some() {
        return Err(ImportError::unsupported(toml_path, "a separate verifier image ([verifier.environment])"));
    }
    if let Some(mode) = cfg.verifier.environment_mode.as_deref().filter(|m| !["shared", "separate"].contains(m)) {
        return Err(ImportError::unsupported(toml_path, format!("[verifier].environment_mode = \"{mode}\"")));
    }
    if let Some(os) = &cfg.environment.os {
        if os != "linux" {
            return Err(ImportError::unsupported(toml_path, format!("[environment].os = \"{os}\" (only linux)")));
        }
    }
    let env_dir = dir.join("environment");
    for compose in ["docker-compose.yaml", "docker-compose.yml"] {
        if env_dir.join(compose).is_file() {
            return Err(ImportError::unsupported(
                &env_dir.join(compose),
                "docker-compose environments (sidecar services)",
            ));
        }
    }
    Ok(())
}

fn environment(
    dir: &Path,
    toml_path: &Path,
    cfg: &TaskToml,
    warnings: &mut Vec<String>,
) -> Result<TaskEnvironment, ImportError> {
    let e = &cfg.environment;
    let env_dir = dir.join("environment");
    let dockerfile = env_dir.join("Dockerfile");
    let mut out = TaskEnvironment {
        image: e.docker_image.clone().filter(|s| !s.trim().is_empty()),
        env: e.env.clone(),
        memory_mb: e.memory_mb,
        ..TaskEnvironment::default()
    };
    if let Some(c) = e.cpus {
        if !(c.is_finite() && c > 0.0) {
            return Err(ImportError::invalid(toml_path, format!("[environment].cpus = {c} must be a positive number")));
        }
        out.cpus = Some(c);
    }
    let mut docker_workdir = None;
    if dockerfile.is_file() {
        out.dockerfile_context = Some(env_dir.display().to_string());
        docker_workdir = last_workdir(&read_text(&dockerfile)?);
    } else if out.image.is_some() {
        if env_dir.is_dir() {
            // Harbor uploads the other files of environment/ into the workdir.
            out.workspace_files = read_tree(&env_dir, warnings)?;
        }
    } else {
        return Err(ImportError::missing(dir, "environment/Dockerfile (or [environment].docker_image in task.toml)"));
    }
    out.workdir = e.workdir.clone().or(docker_workdir);
    out.bundled_skills = bundled_skills(&env_dir.join("skills"));
    if !out.bundled_skills.is_empty() {
        warnings.push(format!(
            "environment/skills holds {} skill(s) ({}) that the image may copy into agent skill folders; \
             before the agent starts, each arm empties the agent skill folders it knows of and lists what \
             is still visible, and a pair whose arms see other skills than intended is excluded",
            out.bundled_skills.len(),
            out.bundled_skills.join(", ")
        ));
    }
    if e.skills_dir.is_some() {
        warnings.push("[environment].skills_dir is not applied".into());
    }
    for (k, v) in &out.env {
        if v.contains("${") {
            warnings.push(format!("[environment.env] {k} = \"{v}\" refers to a host variable; it is passed literally"));
        }
    }
    Ok(out)
}

fn note_unapplied(cfg: &TaskToml, warnings: &mut Vec<String>) {
    let e = &cfg.environment;
    let net = [
        ("[environment].network_mode", &e.network_mode),
        ("[agent].network_mode", &cfg.agent.network_mode),
        ("[verifier].network_mode", &cfg.verifier.network_mode),
    ];
    for (key, v) in net {
        if let Some(v) = v.as_deref().filter(|v| *v != "public") {
            warnings.push(format!("{key} = \"{v}\" is not applied"));
        }
    }
    if e.allow_internet == Some(false) {
        warnings.push("[environment].allow_internet = false is not applied".into());
    }
    if !cfg.verifier.env.is_empty() {
        let keys: Vec<_> = cfg.verifier.env.keys().map(String::as_str).collect();
        warnings.push(format!("[verifier.env] ({}) is not applied", keys.join(", ")));
    }
}

fn secs(path: &Path, key: &str, v: Option<f64>) -> Result<Option<u64>, ImportError> {
    match v {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 => Ok(Some(s.ceil() as u64)),
        Some(s) => Err(ImportError::invalid(path, format!("{key} = {s} must be a positive number of seconds"))),
    }
}

/// The last `WORKDIR` of a Dockerfile, when it is a plain absolute path.
fn last_workdir(dockerfile: &str) -> Option<String> {
    dockerfile
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let (kw, rest) = l.split_once(char::is_whitespace)?;
            kw.eq_ignore_ascii_case("WORKDIR").then(|| rest.trim().to_string())
        })
        .next_back()
        .filter(|w| w.starts_with('/') && !w.contains('$'))
}

fn bundled_skills(skills: &Path) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(skills)
        .max_depth(3)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.file_name() == "SKILL.md")
        .filter_map(|e| {
            let parent = e.path().parent()?;
            let rel = parent.strip_prefix(skills.parent()?.parent()?).ok()?;
            Some(rel.to_string_lossy().replace('\\', "/"))
        })
        .collect();
    out.sort();
    out
}

/// Warns about `/tests/<file>` paths that `test.sh` uses but `tests/` lacks.
fn check_test_references(files: &[TaskFile], warnings: &mut Vec<String>) {
    let Some(script) = files.iter().find(|f| f.path == "test.sh") else {
        return;
    };
    let script = String::from_utf8_lossy(&script.contents);
    let mut seen = Vec::new();
    for (i, _) in script.match_indices("/tests/") {
        let rest = &script[i + "/tests/".len()..];
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || "._-/".contains(*c)).collect();
        let name = name.trim_end_matches(['.', '/']).to_string();
        if name.is_empty() || seen.contains(&name) {
            continue;
        }
        let present = files.iter().any(|f| f.path == name || f.path.starts_with(&format!("{name}/")));
        if !present {
            warnings.push(format!("tests/test.sh uses /tests/{name}, which is not in tests/: the verifier will fail"));
        }
        seen.push(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workdir_is_the_last_plain_one() {
        let d = "FROM x\nWORKDIR /app\nRUN true\nworkdir /root\n";
        assert_eq!(last_workdir(d).as_deref(), Some("/root"));
        assert_eq!(last_workdir("FROM x\nWORKDIR $HOME\n"), None);
        assert_eq!(last_workdir("FROM x\n"), None);
    }

    #[test]
    fn missing_test_files_are_noticed() {
        let files = vec![
            TaskFile::new("test.sh", "pytest /tests/test_outputs.py /tests/helper.py\nls /tests/\n"),
            TaskFile::new("helper.py", ""),
        ];
        let mut w = Vec::new();
        check_test_references(&files, &mut w);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("/tests/test_outputs.py"));
    }
}
