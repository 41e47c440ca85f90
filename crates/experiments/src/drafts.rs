//! Generated tasks: a model the user picks drafts them from a skill version
//! (`skillscope_generate`), optionally set in a repository whose environment is built first
//! (`environments`); they are stored as a task set of drafts, their verifiers are queued for the
//! sanity checks (`sanity`), and a reviewer approves or rejects each one. Only approved drafts
//! enter experiments; who decided what and when is kept.

use crate::environments::{self, RepositoryEnvironment};
use crate::error::{ExperimentError, Result};
use crate::reviews::{self, DraftReview, DraftVerdict};
use crate::task_sets::{self, TaskSetImport};
use serde::{Deserialize, Serialize};
use skillscope_generate::environment::{PYTHON_BASE, WORKDIR};
use skillscope_generate::{leakage, repository};
use skillscope_generate::{Draft, DraftKind, Drafting, Setting, Skill};
use skillscope_judge::{call::TEMPERATURE, Session};
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use skillscope_tasks::{TaskEnvironment, TaskFile, TaskSourceKind, TaskVerifier};
use ts_rs::TS;

/// Repository text shown to the writer, at most.
const REPOSITORY_CHARS: usize = 30_000;

/// Who drafts: a provider configuration and a model (the prompt is the draft kind's own).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Writer {
    pub provider: String,
    pub model: String,
}

/// What to draft.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DraftRequest {
    pub version_id: i64,
    pub writer: Writer,
    /// Named so, not `kind`: a job request's tag is `kind`.
    pub draft_kind: DraftKind,
    pub count: u32,
    /// A local folder or Git URL the tasks are set in.
    pub repository: Option<String>,
    /// The repository's commit (any name Git resolves; HEAD when absent).
    pub commit: Option<String>,
}

/// What a generation stored, with who wrote the drafts and with which prompt.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct GeneratedTasks {
    /// Named so, not `kind`: a job outcome's tag is `kind`.
    pub draft_kind: DraftKind,
    pub import: TaskSetImport,
    pub drafts: Vec<Draft>,
    pub writer: Writer,
    /// The model as the API named itself.
    pub model_reported: Option<String>,
    pub prompt_version: String,
    pub prompt_sha256: String,
    pub temperature: f32,
    /// The repository's environment, when the tasks are set in one.
    pub environment: Option<RepositoryEnvironment>,
    /// The queue run checking the drafts' verifiers, when any runs in the sandbox.
    pub sanity_run: Option<i64>,
}

/// Drafts `r.count` tasks of `r.draft_kind` for skill version `r.version_id` with `r.writer`, stores
/// them as a task set of drafts named `<skill> v<N> <kind>`, and queues their verifier checks.
pub async fn generate(ws: &Workspace, r: &DraftRequest) -> Result<GeneratedTasks> {
    let v = skillscope_library::get_version(ws, r.version_id)?;
    let name = v.frontmatter.name.clone().unwrap_or_else(|| format!("skill-{}", r.version_id));
    let description = v.frontmatter.description.clone().unwrap_or_default();
    let (body, others) = skill_files(ws, r.version_id)?;
    if r.commit.is_some() && r.repository.is_none() {
        return Err(ExperimentError::InvalidInput("a commit needs a repository (--repo)".into()));
    }
    let (setting, environment) = match r.repository.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(source) => {
            let (environment, built, repo) = environments::build(ws, source, r.commit.as_deref()).await?;
            let shown = Some(repository::shown(&repo, REPOSITORY_CHARS));
            (Setting { environment, shown }, Some(built))
        }
        None => (Setting { environment: default_environment(r.draft_kind), shown: None }, None),
    };
    let skill = Skill { name: &name, description: &description, body: &body, others: &others };
    let drafting = Drafting::prepare(r.draft_kind, &skill, r.count, setting).map_err(ExperimentError::InvalidInput)?;
    let session = Session::open(ws, &r.writer.provider, &r.writer.model)?;
    let prompt = r.draft_kind.prompt();
    let prompt_sha256 = prompt.sha256();
    let by = format!("{} · {}", r.writer.provider, r.writer.model);
    let source = format!(
        "drafted from {name} v{} by {by}, prompt {} (sha256 {})",
        v.version,
        prompt.version,
        &prompt_sha256[..12]
    );
    let asked = session.ask(drafting.system(), drafting.user(), |a| drafting.check_answer(a, &source)).await;
    let drafts = asked.outcome.map_err(|why| {
        ExperimentError::InvalidInput(format!(
            "{by} did not draft usable tasks: {why}; try again or pick another model"
        ))
    })?;
    let tasks = drafts.iter().map(|d| d.task.clone()).collect();
    let set_name = format!("{name} v{} {}", v.version, r.draft_kind.as_str());
    let import = task_sets::store(ws, &set_name, TaskSourceKind::Generated, &source, tasks, Vec::new())?;
    ws.conn()?.execute(
        "INSERT OR IGNORE INTO generated_sets(task_set_id, version_id) VALUES (?1, ?2)",
        rusqlite::params![import.task_set.id, r.version_id],
    )?;
    let sanity_run = crate::sanity_queue::queue(ws, &task_sets::get(ws, import.task_set.id)?)?;
    Ok(GeneratedTasks {
        draft_kind: r.draft_kind,
        import,
        drafts,
        writer: r.writer.clone(),
        model_reported: asked.model_reported,
        prompt_version: prompt.version.into(),
        prompt_sha256,
        temperature: TEMPERATURE,
        environment,
        sanity_run,
    })
}

/// The SKILL.md text of skill version `version_id`, and its other files.
fn skill_files(ws: &Workspace, version_id: i64) -> Result<(String, Vec<TaskFile>)> {
    let mut body = None;
    let mut others = Vec::new();
    for (f, bytes) in skillscope_library::version_files(ws, version_id)? {
        if f.path == "SKILL.md" {
            body = Some(String::from_utf8_lossy(&bytes).into_owned());
        } else {
            others.push(TaskFile::new(f.path, bytes));
        }
    }
    let body =
        body.ok_or_else(|| ExperimentError::NotFound(format!("skill version #{version_id}: no SKILL.md stored")))?;
    Ok((body, others))
}

/// A reviewer's change to a draft: its instruction and, for a judged draft, its expectations.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DraftEdit {
    pub instruction: String,
    /// Replaces a judged draft's expectations when given.
    pub expectations: Option<Vec<String>>,
}

/// Changes draft `task_id` of generated set `set_id` in place: its leakage is measured again
/// against the SKILL.md it was drafted from, and a verdict given on the old text is withdrawn. A
/// set an experiment ran stays as it ran.
pub fn edit(ws: &Workspace, set_id: i64, task_id: &str, e: &DraftEdit) -> Result<task_sets::TaskSetDetail> {
    let set = task_sets::get(ws, set_id)?;
    if set.summary.source_kind != TaskSourceKind::Generated {
        return Err(ExperimentError::InvalidInput(format!(
            "task set #{set_id} was not generated; only drafts are edited"
        )));
    }
    if let Some(experiment) = set.summary.used_by.first() {
        return Err(ExperimentError::Conflict(format!(
            "task set #{set_id} was run by experiment #{experiment}: its tasks stay as they ran; draft again to change them"
        )));
    }
    let instruction = e.instruction.trim();
    if instruction.is_empty() {
        return Err(ExperimentError::InvalidInput("the instruction is empty".into()));
    }
    let version_id: i64 =
        ws.conn()?.query_row("SELECT version_id FROM generated_sets WHERE task_set_id = ?1", [set_id], |r| r.get(0))?;
    let (body, _) = skill_files(ws, version_id)?;
    let mut specs = set.specs;
    let t = specs
        .iter_mut()
        .find(|t| t.id == task_id)
        .ok_or_else(|| ExperimentError::NotFound(format!("task set #{set_id} has no draft {task_id:?}")))?;
    t.instruction = instruction.into();
    if let (Some(new), TaskVerifier::NeedsJudge { expectations, .. }) = (&e.expectations, &mut t.verifier) {
        let kept: Vec<String> = new.iter().map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect();
        if kept.is_empty() {
            return Err(ExperimentError::InvalidInput("a judged draft needs at least one expectation".into()));
        }
        *expectations = kept;
    }
    t.warnings.retain(|w| !w.starts_with(leakage::WARNING_PREFIX));
    t.warnings.extend(leakage::warning(&leakage::leakage(instruction, &body)));
    task_sets::replace_tasks(ws, set_id, &specs)?;
    reviews::withdraw(ws, set_id, task_id)?;
    task_sets::get(ws, set_id)
}

/// Where drafts set in no repository run: requirement documents need Python and pytest; the
/// judged kinds run in the default task image.
fn default_environment(kind: DraftKind) -> TaskEnvironment {
    let image = (kind == DraftKind::Requirements).then(|| PYTHON_BASE.to_string());
    TaskEnvironment { image, workdir: Some(WORKDIR.into()), ..TaskEnvironment::default() }
}

/// Records `reviewer`'s verdict on drafted task `task_id` of the newest generated set holding it
/// (or of `set` when given); a later verdict replaces an earlier one.
pub fn review(
    ws: &Workspace,
    task_id: &str,
    set: Option<i64>,
    verdict: DraftVerdict,
    reviewer: &str,
) -> Result<DraftReview> {
    if reviewer.trim().is_empty() {
        return Err(ExperimentError::InvalidInput("a review needs the reviewer's name".into()));
    }
    let holding = task_sets::list(ws)?
        .into_iter()
        .filter(|s| s.source_kind == TaskSourceKind::Generated && set.is_none_or(|id| id == s.id))
        .map(|s| task_sets::get(ws, s.id))
        .find(|d| d.as_ref().map_or(true, |d| d.specs.iter().any(|t| t.id == task_id)))
        .transpose()?
        .ok_or_else(|| {
            ExperimentError::NotFound(format!("no generated task {task_id:?}; `skillscope tasks list` shows the sets"))
        })?;
    let r = DraftReview {
        task_set_id: holding.summary.id,
        task_id: task_id.into(),
        verdict,
        reviewer: reviewer.trim().into(),
        decided_at: now(),
    };
    reviews::save(ws, &r)?;
    Ok(r)
}
