//! Hosts the queue worker inside the app and forwards its events to the UI as `queue-event`.
//! Live output of running trials is kept here (bounded) so a page opened late still sees it.

use skillscope_api::queue::model::QueueEvent;
use skillscope_api::queue::worker::{self, WorkerOptions};
use skillscope_api::{ErrorCode, Workspace};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tauri::{AppHandle, Emitter};

pub const QUEUE_EVENT: &str = "queue-event";
const LOG_CAP: usize = 256 * 1024;

#[derive(Default, Clone)]
pub struct LiveLogs(Arc<Mutex<HashMap<i64, String>>>);

impl LiveLogs {
    fn append(&self, trial: i64, text: &str) {
        let mut map = self.0.lock().expect("log lock");
        let log = map.entry(trial).or_default();
        log.push_str(text);
        if log.len() > LOG_CAP {
            let cut = log.len() - LOG_CAP;
            let cut = (cut..log.len()).find(|i| log.is_char_boundary(*i)).unwrap_or(log.len());
            log.replace_range(..cut, "");
        }
    }
    pub fn get(&self, trial: i64) -> String {
        self.0.lock().expect("log lock").get(&trial).cloned().unwrap_or_default()
    }
}

/// Runs the worker for the app's lifetime. If another process (a CLI `queue work`) holds the
/// queue, it tries again later rather than giving up.
pub fn start(app: AppHandle, ws: Workspace, logs: LiveLogs) {
    tauri::async_runtime::spawn(async move {
        loop {
            let (app2, logs2) = (app.clone(), logs.clone());
            let sink = Arc::new(move |ev: QueueEvent| {
                if let QueueEvent::Log { trial_id, text, .. } = &ev {
                    logs2.append(*trial_id, text);
                }
                if let Err(e) = app2.emit(QUEUE_EVENT, &ev) {
                    tracing::warn!("could not emit queue event: {e}");
                }
            });
            match worker::run(ws.clone(), WorkerOptions::default(), sink).await {
                Ok(()) => return,
                Err(e) if e.code == ErrorCode::Conflict => tracing::info!("{}; retrying in 10 s", e.message),
                Err(e) => tracing::error!("queue worker stopped: {}; restarting in 10 s", e.message),
            }
            tokio::time::sleep(Duration::from_secs(10)).await;
        }
    });
}
