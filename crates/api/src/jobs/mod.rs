//! Long work other than trials (import, library scan, harness install, image preparation,
//! bundle import and export) as persisted jobs with a typed kind, progress, outcome and cancel.
//! The trial queue is separate: see `skillscope_runs::queue`.

mod model;
mod run;
mod store;

pub use model::{JobEvent, JobKind, JobOutcome, JobRequest, JobState};
pub use run::run;
pub use store::{create, fail_interrupted, recent};

use crate::errors::{AppError, ErrorCode, Result};
use skillscope_store::workspace::Workspace;
use std::sync::atomic::AtomicBool;

/// Runs a job on this thread, uncancelled (the CLI's way), and returns its outcome or error.
pub fn run_here(ws: &Workspace, request: &JobRequest, emit: &dyn Fn(&JobEvent)) -> Result<JobOutcome> {
    let ev = run(ws, create(ws, request)?, request, &AtomicBool::new(false), emit);
    match (ev.state, ev.outcome, ev.error) {
        (JobState::Succeeded, Some(outcome), _) => Ok(outcome),
        (_, _, Some(e)) => Err(e),
        (state, _, None) => Err(AppError::new(ErrorCode::Internal, format!("job {} ended {state:?}", ev.job_id))),
    }
}
