//! Task sets: tasks imported once (a Harbor folder, a skill's evals.json, SWE-Skills-Bench
//! requirement documents, or written in the app), stored whole in the workspace and versioned by
//! the hash of their content, so experiments reuse them and a re-import of the same tasks changes
//! nothing. Also the one conversion of a stored task into an experiment's task, shared by the app
//! and the CLI.

use crate::error::{ExperimentError, Result};
use crate::reviews::{self, DraftReview, DraftVerdict};
use crate::sanity::VerifierSanity;
use crate::{ExperimentTask, TaskSettings};
use rusqlite::{params, OptionalExtension, Row};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use skillscope_store::{now, IoError, Workspace};
use skillscope_tasks::{
    evals, harbor, read_tree, swe_skills_bench, ImportBatch, ImportError, TaskSourceKind, TaskSpec, TaskVerifier,
};
use std::path::{Path, PathBuf};
use ts_rs::TS;

/// Image of a task that names neither an image nor a Dockerfile (the locally built base image).
pub const DEFAULT_TASK_IMAGE: &str = "skillscope/busybox:1";

/// Which importer reads the source; `auto` tries Harbor, then SWE-Skills-Bench, then evals.json.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
#[ts(export)]
pub enum TaskImportKind {
    #[default]
    Auto,
    Harbor,
    Evals,
    SweSkillsBench,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TaskSetSummary {
    pub id: i64,
    /// The source folder's (or file's) name; versions of one name differ in content.
    pub name: String,
    pub version: u32,
    /// SHA-256 of the tasks' content (files, verifiers, environments; not where they were read).
    pub sha256: String,
    pub source_kind: TaskSourceKind,
    pub source_path: String,
    pub task_count: u32,
    /// Tasks that run without a judge: a verifier in the container scores them, or they are
    /// routing cases (the others need a judge or have no verifier).
    pub runnable_count: u32,
    /// Tasks of the source that did not import, with why.
    pub errors: Vec<String>,
    pub created_at: String,
    /// Experiments that ran tasks of this set.
    pub used_by: Vec<i64>,
}

/// One task as a list shows it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TaskBrief {
    pub id: String,
    pub name: String,
    /// What scores it, in words.
    pub verifier: String,
    pub runnable: bool,
    /// The image it runs in, or `Dockerfile` when it builds one.
    pub environment: String,
    pub warnings: Vec<String>,
    /// For a generated draft: the reviewer's verdict, if any (only approved drafts run).
    pub review: Option<DraftReview>,
    /// For a generated draft whose verifier runs in the sandbox: its sanity checks.
    pub sanity: Option<VerifierSanity>,
}

/// What an import did: the stored set (new, or the same content stored before) and its tasks.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TaskSetImport {
    pub task_set: TaskSetSummary,
    pub tasks: Vec<TaskBrief>,
    pub errors: Vec<String>,
    /// True when the same content was already stored: nothing new was written.
    pub reused: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TaskSetDetail {
    pub summary: TaskSetSummary,
    pub tasks: Vec<TaskBrief>,
    /// The whole tasks (instructions, files, verifiers, environments).
    pub specs: Vec<TaskSpec>,
}

/// Reads `path` with the importer `kind` names.
pub fn read_source(path: &Path, kind: TaskImportKind) -> Result<ImportBatch> {
    let bad = |e: ImportError| ExperimentError::InvalidInput(e.to_string());
    if !path.exists() {
        return Err(ExperimentError::NotFound(format!("{}: no such file or folder", path.display())));
    }
    let evals = |p: &Path| {
        let tasks = if p.is_file() { evals::import_file(p) } else { evals::import_skill(p) };
        tasks.map(|tasks| ImportBatch { tasks, errors: Vec::new() }).map_err(bad)
    };
    match kind {
        TaskImportKind::Harbor => harbor::import_dir(path).map_err(bad),
        TaskImportKind::SweSkillsBench => swe_skills_bench::import_benchmark(path).map_err(bad),
        TaskImportKind::Evals => evals(path),
        TaskImportKind::Auto if path.is_file() => evals(path),
        TaskImportKind::Auto => {
            let harbor = harbor::import_dir(path);
            if let Ok(batch) = harbor {
                return Ok(batch);
            }
            if path.join("config").join("benchmark_config.yaml").is_file() {
                return swe_skills_bench::import_benchmark(path).map_err(bad);
            }
            evals(path).map_err(|_| {
                ExperimentError::InvalidInput(format!(
                    "{}: not a task source: no Harbor task.toml (here or one folder down), no SWE-Skills-Bench \
                     config/benchmark_config.yaml, no evals/evals.json",
                    path.display()
                ))
            })
        }
    }
}

/// Imports the tasks at `path` into the workspace; the same content imported again is reused.
pub fn import(ws: &Workspace, path: &Path, kind: TaskImportKind) -> Result<TaskSetImport> {
    let batch = read_source(path, kind)?;
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    store_batch(ws, &name, &path.display().to_string(), batch)
}

/// Stores an importer's batch as set `name`, read from `source`; a batch without a task is refused
/// with the importer's first error.
fn store_batch(ws: &Workspace, name: &str, source: &str, batch: ImportBatch) -> Result<TaskSetImport> {
    let errors: Vec<String> = batch.errors.iter().map(ToString::to_string).collect();
    let Some(first) = batch.tasks.first() else {
        return Err(ExperimentError::InvalidInput(format!(
            "{source}: no task imported{}",
            errors.first().map(|e| format!(": {e}")).unwrap_or_default()
        )));
    };
    let kind = first.source.kind;
    store(ws, name, kind, source, batch.tasks, errors)
}

/// The folder inside a skill where its own evals live (evals as code): `evals.json`,
/// `evals.jsonl`, or Harbor task folders.
pub const SKILL_EVALS_DIR: &str = "evals/";

/// Imports a library skill version's own evals (its `evals/` folder) as a task set named
/// `<skill> v<N> evals`; the same content imported again is the same set.
pub fn import_skill_evals(ws: &Workspace, version_id: i64) -> Result<TaskSetImport> {
    let v = skillscope_library::get_version(ws, version_id)?;
    let name = format!("{} v{} evals", v.frontmatter.name.as_deref().unwrap_or("skill"), v.version);
    let files = skillscope_library::version_files(ws, version_id)?;
    if !files.iter().any(|(f, _)| f.path.starts_with(SKILL_EVALS_DIR)) {
        return Err(ExperimentError::NotFound(format!("{name}: the skill ships no {SKILL_EVALS_DIR} folder")));
    }
    // The importers read folders; the whole skill is written out because evals.json may name case
    // files relative to the skill's root.
    let tmp = tempfile::tempdir().map_err(|e| IoError::new("a temporary folder", e))?;
    for (f, bytes) in &files {
        let path = tmp.path().join(&f.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| IoError::new(dir.display(), e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| IoError::new(path.display(), e))?;
    }
    let mut batch = read_source(&tmp.path().join(SKILL_EVALS_DIR), TaskImportKind::Auto)?;
    // Each task names the file it came from: inside the skill, not the temporary folder, so the
    // same evals make the same set.
    let root = tmp.path().display().to_string();
    for t in &mut batch.tasks {
        t.source.path = t.source.path.replacen(&root, &name, 1);
    }
    store_batch(ws, &name, &format!("{SKILL_EVALS_DIR} of {name}"), batch)
}

/// Stores tasks written in the app (or any list of tasks) as a set named `name`.
pub fn store(
    ws: &Workspace,
    name: &str,
    kind: TaskSourceKind,
    source_path: &str,
    mut tasks: Vec<TaskSpec>,
    errors: Vec<String>,
) -> Result<TaskSetImport> {
    for t in &mut tasks {
        keep_build_context(ws, t)?;
    }
    let sha = content_hash(&tasks)?;
    let mut conn = ws.conn()?;
    let tx = conn.transaction()?;
    let existing: Option<i64> =
        tx.query_row("SELECT id FROM task_sets WHERE sha256 = ?1", [&sha], |r| r.get(0)).optional()?;
    let (id, reused) = match existing {
        Some(id) => (id, true),
        None => {
            let version: u32 =
                tx.query_row("SELECT COALESCE(MAX(version), 0) + 1 FROM task_sets WHERE name = ?1", [name], |r| {
                    r.get(0)
                })?;
            tx.execute(
                "INSERT INTO task_sets(name, version, sha256, source_kind, source_path, tasks_json, errors_json, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    name,
                    version,
                    sha,
                    serde_json::to_value(kind)?.as_str(),
                    source_path,
                    serde_json::to_string(&tasks)?,
                    serde_json::to_string(&errors)?,
                    now()
                ],
            )?;
            (tx.last_insert_rowid(), false)
        }
    };
    tx.commit()?;
    let detail = get(ws, id)?;
    Ok(TaskSetImport { task_set: detail.summary, tasks: detail.tasks, errors, reused })
}

/// Every stored task set, newest first.
pub fn list(ws: &Workspace) -> Result<Vec<TaskSetSummary>> {
    let conn = ws.conn()?;
    let mut stmt = conn.prepare(&format!("{SELECT} ORDER BY id DESC"))?;
    let rows = stmt.query_map([], read_row)?.collect::<rusqlite::Result<Vec<_>>>()?;
    let usage = usage(ws)?;
    rows.into_iter().map(|(s, tasks)| summary(s, &tasks, &usage)).collect()
}

pub fn get(ws: &Workspace, id: i64) -> Result<TaskSetDetail> {
    let conn = ws.conn()?;
    let (stored, tasks_json) = conn
        .query_row(&format!("{SELECT} WHERE id = ?1"), [id], read_row)
        .optional()?
        .ok_or_else(|| ExperimentError::NotFound(format!("no task set #{id}")))?;
    let specs: Vec<TaskSpec> = serde_json::from_str(&tasks_json)?;
    let summary = summary(stored, &tasks_json, &usage(ws)?)?;
    let mut reviews = reviews::of_set(ws, id)?;
    let mut sanity = crate::sanity::of_set(ws, id)?;
    let tasks = specs.iter().map(|t| brief(t, reviews.remove(&t.id), sanity.remove(&t.id))).collect();
    Ok(TaskSetDetail { summary, tasks, specs })
}

/// The runnable tasks of set `id` as an experiment runs them (routing cases included; with
/// `judged`, also the tasks whose expectations a judge grades), and a line for each task left out
/// and why.
pub fn experiment_tasks(ws: &Workspace, id: i64, judged: bool) -> Result<(Vec<ExperimentTask>, Vec<String>)> {
    let set = get(ws, id)?;
    let mut tasks = Vec::new();
    let mut skipped = Vec::new();
    for (t, brief) in set.specs.into_iter().zip(set.tasks) {
        if set.summary.source_kind == TaskSourceKind::Generated
            && brief.review.is_none_or(|r| r.verdict != DraftVerdict::Approved)
        {
            skipped.push(format!("{}: left out, a draft not approved (skillscope tasks approve {})", t.id, t.id));
            continue;
        }
        let for_judge = judged && matches!(t.verifier, TaskVerifier::NeedsJudge { .. });
        if !t.runs_without_judge() && !for_judge {
            skipped.push(format!("{}: left out, its verifier is {}", t.id, t.verifier.label()));
            continue;
        }
        tasks.push(experiment_task(ws, &set.summary.sha256, t)?);
    }
    Ok((tasks, skipped))
}

const SELECT: &str =
    "SELECT id, name, version, sha256, source_kind, source_path, errors_json, created_at, tasks_json FROM task_sets";

struct StoredSet {
    id: i64,
    name: String,
    version: u32,
    sha256: String,
    source_kind: String,
    source_path: String,
    errors_json: String,
    created_at: String,
}

fn read_row(r: &Row) -> rusqlite::Result<(StoredSet, String)> {
    Ok((
        StoredSet {
            id: r.get(0)?,
            name: r.get(1)?,
            version: r.get(2)?,
            sha256: r.get(3)?,
            source_kind: r.get(4)?,
            source_path: r.get(5)?,
            errors_json: r.get(6)?,
            created_at: r.get(7)?,
        },
        r.get(8)?,
    ))
}

fn summary(s: StoredSet, tasks_json: &str, usage: &[(i64, i64)]) -> Result<TaskSetSummary> {
    let tasks: Vec<TaskSpec> = serde_json::from_str(tasks_json)?;
    Ok(TaskSetSummary {
        id: s.id,
        name: s.name,
        version: s.version,
        sha256: s.sha256,
        source_kind: serde_json::from_value(serde_json::Value::String(s.source_kind))?,
        source_path: s.source_path,
        task_count: tasks.len() as u32,
        runnable_count: tasks.iter().filter(|t| t.runs_without_judge()).count() as u32,
        errors: serde_json::from_str(&s.errors_json)?,
        created_at: s.created_at,
        used_by: usage.iter().filter(|(set, _)| *set == s.id).map(|(_, exp)| *exp).collect(),
    })
}

/// (task set, experiment) for every experiment whose design names a task set.
fn usage(ws: &Workspace) -> Result<Vec<(i64, i64)>> {
    let conn = ws.conn()?;
    let mut stmt = conn.prepare(
        "SELECT json_extract(design_json, '$.task_set_id'), id FROM experiments
         WHERE json_extract(design_json, '$.task_set_id') IS NOT NULL ORDER BY id",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

fn brief(t: &TaskSpec, review: Option<DraftReview>, sanity: Option<VerifierSanity>) -> TaskBrief {
    TaskBrief {
        id: t.id.clone(),
        name: t.name.clone(),
        verifier: t.verifier.label(),
        runnable: t.runs_without_judge(),
        environment: match (&t.environment.image, &t.environment.dockerfile_context) {
            (Some(image), _) => image.clone(),
            (None, Some(_)) => "Dockerfile".into(),
            (None, None) => DEFAULT_TASK_IMAGE.into(),
        },
        warnings: t.warnings.clone(),
        review,
        sanity,
    }
}

/// Replaces the tasks of set `id` (a reviewer's edit of drafts no experiment ran); its hash follows
/// its content.
pub(crate) fn replace_tasks(ws: &Workspace, id: i64, tasks: &[TaskSpec]) -> Result<()> {
    let sha = content_hash(tasks)?;
    let conn = ws.conn()?;
    let same: Option<i64> = conn
        .query_row("SELECT id FROM task_sets WHERE sha256 = ?1 AND id != ?2", params![sha, id], |r| r.get(0))
        .optional()?;
    if let Some(other) = same {
        return Err(ExperimentError::Conflict(format!(
            "the edited tasks are those of task set #{other}; use that one"
        )));
    }
    conn.execute(
        "UPDATE task_sets SET tasks_json = ?2, sha256 = ?3 WHERE id = ?1",
        params![id, serde_json::to_string(tasks)?, sha],
    )?;
    Ok(())
}

/// The hash names content only: where the tasks were read from is left out, and a build context
/// is already a workspace folder named by its own content (see [`keep_build_context`]).
fn content_hash(tasks: &[TaskSpec]) -> Result<String> {
    let mut anonymous = tasks.to_vec();
    for t in &mut anonymous {
        t.source.path.clear();
    }
    Ok(hex::encode(Sha256::digest(serde_json::to_vec(&anonymous)?)))
}

/// Copies a task's Dockerfile context into the workspace (see [`store_context`]), so the stored
/// set still builds after its source folder is gone.
fn keep_build_context(ws: &Workspace, t: &mut TaskSpec) -> Result<()> {
    let Some(context) = &t.environment.dockerfile_context else { return Ok(()) };
    let files = read_tree(Path::new(context), &mut t.warnings)
        .map_err(|e| ExperimentError::InvalidInput(format!("task {}: build context: {e}", t.id)))?;
    t.environment.dockerfile_context = Some(store_context(ws, &files)?.display().to_string());
    Ok(())
}

/// Writes a Dockerfile context into the workspace, in a folder named by its content (written once).
pub(crate) fn store_context(ws: &Workspace, files: &[skillscope_tasks::TaskFile]) -> Result<PathBuf> {
    let dir = ws.home().join("task-sets").join("contexts").join(skillscope_tasks::tree_sha256(files));
    write_once(&dir, files)?;
    Ok(dir)
}

/// Writes `files` under `dir` unless it exists: the folder is named by its content, and a trial
/// may be reading it.
fn write_once(dir: &Path, files: &[skillscope_tasks::TaskFile]) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let parent = dir.parent().expect("a folder in the workspace");
    std::fs::create_dir_all(parent).map_err(|e| IoError::new(parent.display(), e))?;
    let tmp = tempfile::tempdir_in(parent).map_err(|e| IoError::new(parent.display(), e))?;
    for f in files {
        let p = tmp.path().join(&f.path);
        let folder = p.parent().expect("a file in a folder");
        std::fs::create_dir_all(folder).map_err(|e| IoError::new(folder.display(), e))?;
        std::fs::write(&p, &f.contents).map_err(|e| IoError::new(p.display(), e))?;
    }
    let tmp = tmp.keep();
    if let Err(e) = std::fs::rename(&tmp, dir) {
        let _ = std::fs::remove_dir_all(&tmp);
        // Another import wrote the same content first.
        if !dir.is_dir() {
            return Err(IoError::new(dir.display(), e).into());
        }
    }
    Ok(())
}

/// A stored task as an experiment runs it; its workspace files are written once per set.
pub(crate) fn experiment_task(ws: &Workspace, set_sha: &str, t: TaskSpec) -> Result<ExperimentTask> {
    let safe: String = t.id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let workspace: PathBuf = ws.home().join("task-sets").join(&set_sha[..16]).join(&safe);
    write_once(&workspace, &t.environment.workspace_files)?;
    let env = t.environment;
    let image = match (env.image, &env.dockerfile_context) {
        (Some(image), _) => image,
        // Tagged by the context's content hash (its folder's name): one tag, one content.
        (None, Some(context)) => {
            let hash = Path::new(context).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            format!("skillscope-task/{}:{}", safe.to_lowercase(), &hash[..hash.len().min(16)])
        }
        (None, None) => DEFAULT_TASK_IMAGE.into(),
    };
    Ok(ExperimentTask {
        id: t.id,
        instruction: t.instruction,
        image,
        dockerfile_context: env.dockerfile_context,
        workspace: Some(workspace.display().to_string()),
        verifier: Vec::new(),
        scoring: Some(t.verifier),
        verifier_in_place: t.verifier_in_place,
        accepted_skill_paths: Vec::new(),
        settings: TaskSettings {
            workdir: env.workdir,
            setup: env.setup,
            env: env.env.into_iter().collect(),
            memory_mb: env.memory_mb,
            cpus: env.cpus,
            agent_timeout_secs: Some(t.agent_timeout_secs),
            verifier_timeout_secs: Some(t.verifier_timeout_secs),
            run_as_root: t.run_as_root,
        },
    })
}
