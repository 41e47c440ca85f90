//! Running one queue run's trials from the CLI: drain the workspace's queue here, or, when another
//! process (the app) already runs it, wait for that process to finish the run.

use skillscope_api::queue::model::QueueEvent;
use skillscope_api::queue::{store, worker};
use skillscope_api::{AppError, RunsError, Workspace};
use std::sync::Arc;

/// Returns once every trial of queue run `run` has ended, printing each as it does.
pub(crate) fn drain(ws: &Workspace, rt: &tokio::runtime::Runtime, run: i64) -> Result<(), AppError> {
    let progress = Arc::new(|ev: QueueEvent| {
        if let QueueEvent::Trial { trial } = ev {
            if trial.state.is_final() {
                eprintln!("  {}: {:?}", trial.label, trial.state);
            }
        }
    });
    match rt.block_on(worker::run(ws.clone(), worker::WorkerOptions { drain: true, ..Default::default() }, progress)) {
        Ok(()) => Ok(()),
        Err(RunsError::Conflict(_)) => wait_for(ws, run),
        Err(e) => Err(e.into()),
    }
}

fn wait_for(ws: &Workspace, run: i64) -> Result<(), AppError> {
    eprintln!("another Skillscope process runs this workspace's queue; waiting for it to finish queue run #{run}");
    loop {
        if store::trials(ws, run)?.iter().all(|t| t.state.is_final()) {
            return Ok(());
        }
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
}
