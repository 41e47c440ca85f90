//! Keeps each experiment's stored statistics current while its trials run: when trials finish,
//! the statistics of the experiments they belong to are computed again and stored (at most once
//! per [`PERIOD`]), so that opening the Results page reads them back instead of computing them.

use skillscope_experiments as experiments;
use skillscope_store::Workspace;
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

/// How often finished trials lead to a new computation.
const PERIOD: Duration = Duration::from_secs(2);

#[derive(Default)]
pub(crate) struct ResultsWarmup {
    /// Runs with trials finished since the last computation.
    dirty: Mutex<BTreeSet<i64>>,
}

impl ResultsWarmup {
    pub(crate) fn trial_finished(&self, run_id: i64) {
        self.dirty.lock().unwrap_or_else(|e| e.into_inner()).insert(run_id);
    }

    /// Computes, every [`PERIOD`], the statistics of the experiments of the runs marked since.
    pub(crate) async fn run(&self, ws: Workspace) {
        loop {
            tokio::time::sleep(PERIOD).await;
            let runs = std::mem::take(&mut *self.dirty.lock().unwrap_or_else(|e| e.into_inner()));
            if runs.is_empty() {
                continue;
            }
            let ws = ws.clone();
            let done = tokio::task::spawn_blocking(move || {
                runs.into_iter().try_for_each(|run| experiments::refresh_results_of_run(&ws, run))
            })
            .await;
            if let Ok(Err(e)) = done {
                tracing::warn!("could not compute an experiment's statistics ahead: {e}");
            }
        }
    }
}
