//! Environments of generated tasks set in a repository (SWE-Skills-Bench's setting): the
//! repository read at its commit, a Dockerfile context made from it (`skillscope_generate::
//! environment`), stored in the workspace under its content hash and built on the engine. An image
//! built before from the same context is reused, so a second generation over the same repository
//! state builds nothing. A build that fails says what could not be fetched.

use crate::error::{ExperimentError, Result};
use crate::task_sets;
use serde::{Deserialize, Serialize};
use skillscope_generate::environment::{self, Language, WORKDIR};
use skillscope_generate::repository::{self, Repository, RepositoryOrigin};
use skillscope_runs::error::RunsError;
use skillscope_sandbox::{Engine, SandboxError};
use skillscope_store::workspace::Workspace;
use skillscope_tasks::{TaskEnvironment, TaskRepository};
use std::time::Instant;
use ts_rs::TS;

/// What was built for tasks set in a repository.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RepositoryEnvironment {
    pub origin: RepositoryOrigin,
    pub language: Language,
    pub base_image: String,
    pub image_id: String,
    /// True when an image built earlier from the same context was reused.
    pub reused: bool,
    /// The build's cache key: SHA-256 of the context.
    pub context_sha256: String,
    /// What was installed from, and manifests that were not used.
    pub notes: Vec<String>,
    /// Wall time of reading the repository and building (or finding) the image.
    pub seconds: f64,
}

/// Reads `source` at `commit` and builds its environment; returns the environment tasks get (the
/// stored context, the repository as the workdir), what was built, and the repository.
pub async fn build(
    ws: &Workspace,
    source: &str,
    commit: Option<&str>,
) -> Result<(TaskEnvironment, RepositoryEnvironment, Repository)> {
    let started = Instant::now();
    let unusable = |e: String| ExperimentError::InvalidInput(format!("the repository: {e}"));
    let repo = repository::snapshot(source, commit, &ws.home().join("repositories")).map_err(unusable)?;
    let recipe = environment::recipe(&repo).map_err(unusable)?;
    let context = task_sets::store_context(ws, &recipe.context)?;
    let tag = format!("skillscope-env/repository:{}", &repo.origin.tree_sha256[..16]);
    let engine = Engine::connect().await.map_err(RunsError::from)?;
    let built = match engine.build_image(&context, &tag).await {
        Ok(built) => built,
        Err(SandboxError::ImageBuild(log)) => {
            return Err(ExperimentError::InvalidInput(environment::explain_failure(recipe.base_image, &log)))
        }
        Err(e) => return Err(RunsError::from(e).into()),
    };
    let task_environment = TaskEnvironment {
        dockerfile_context: Some(context.display().to_string()),
        workdir: Some(WORKDIR.into()),
        repository: Some(TaskRepository { url: source.into(), commit: repo.origin.commit.clone() }),
        ..TaskEnvironment::default()
    };
    let built = RepositoryEnvironment {
        origin: repo.origin.clone(),
        language: recipe.language,
        base_image: recipe.base_image.into(),
        image_id: built.id,
        reused: built.reused,
        context_sha256: built.context_sha256,
        notes: recipe.notes,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok((task_environment, built, repo))
}
