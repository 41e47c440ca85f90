//! Running one queue run's trials from the CLI: drain the workspace's queue here, or, when another
//! process (the app) already runs it, wait for that process to finish the run.

use skillscope_api::queue::model::QueueEvent;
use skillscope_api::queue::{store, worker};
use skillscope_api::{AppError, RunsError, Workspace};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// Returns once every trial of queue run `run` has ended, printing each as it does.
pub(crate) fn drain(ws: &Workspace, rt: &tokio::runtime::Runtime, run: i64) -> Result<(), AppError> {
    // An ended trial can be reported twice (when its attempt is recorded, and again when the
    // worker sweeps a slot whose task had not yet returned); each attempt's end is printed once.
    let printed = Mutex::new(HashSet::new());
    let progress = Arc::new(move |ev: QueueEvent| {
        if let QueueEvent::Trial { trial } = ev {
            if trial.state.is_final() && printed.lock().is_ok_and(|mut p| p.insert((trial.id, trial.attempt))) {
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
