//! Generated tasks: a model the user picks drafts them from a skill version
//! (`skillscope_generate`); they are stored as a task set of drafts, and a reviewer approves or
//! rejects each one. Only approved drafts enter experiments; who decided what and when is kept.

use crate::error::{ExperimentError, Result};
use crate::reviews::{self, DraftReview, DraftVerdict};
use crate::task_sets::{self, TaskSetImport};
use serde::{Deserialize, Serialize};
use skillscope_generate::{Draft, Drafting};
use skillscope_judge::{call::TEMPERATURE, Judge, Session};
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use skillscope_tasks::TaskSourceKind;
use ts_rs::TS;

/// What a generation stored, with who wrote the drafts and with which prompt.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct GeneratedTasks {
    pub import: TaskSetImport,
    pub drafts: Vec<Draft>,
    pub writer: Judge,
    /// The model as the API named itself.
    pub model_reported: Option<String>,
    pub prompt_version: String,
    pub prompt_sha256: String,
    pub temperature: f32,
}

/// Drafts `count` tasks for skill version `version_id` with `writer` and stores them as a task
/// set of drafts named `<skill> v<N> generated`.
pub async fn generate(ws: &Workspace, version_id: i64, writer: &Judge, count: u32) -> Result<GeneratedTasks> {
    let v = skillscope_library::get_version(ws, version_id)?;
    let name = v.frontmatter.name.clone().unwrap_or_else(|| format!("skill-{version_id}"));
    let description = v.frontmatter.description.clone().unwrap_or_default();
    let body = skillscope_library::version_files(ws, version_id)?
        .into_iter()
        .find(|(f, _)| f.path == "SKILL.md")
        .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned())
        .ok_or_else(|| ExperimentError::NotFound(format!("{name} v{}: no SKILL.md stored", v.version)))?;
    let drafting = Drafting::prepare(&name, &description, &body, count).map_err(ExperimentError::InvalidInput)?;
    let session = Session::open(ws, writer)?;
    let prompt = skillscope_generate::drafting::PROMPT;
    let prompt_sha256 = prompt.sha256();
    let by = format!("{} · {}", writer.provider, writer.model);
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
    let import = task_sets::store(
        ws,
        &format!("{name} v{} generated", v.version),
        TaskSourceKind::Generated,
        &source,
        tasks,
        Vec::new(),
    )?;
    Ok(GeneratedTasks {
        import,
        drafts,
        writer: writer.clone(),
        model_reported: asked.model_reported,
        prompt_version: prompt.version.into(),
        prompt_sha256,
        temperature: TEMPERATURE,
    })
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
