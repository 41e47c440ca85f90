//! What the back end tells the front end unasked: job progress and the run queue's events.
//! Each event's name is declared here once; the TypeScript names are generated from it.

use crate::jobs::JobEvent;
use serde::Serialize;
use skillscope_runs::queue::model::QueueEvent;
use std::sync::Arc;

/// A state change of a persisted job (import, scan, harness install, bundle).
pub const JOB_PROGRESS: &str = "job-progress";
/// A change in the trial queue: a trial's state, the queue's status, or live output.
pub const QUEUE_EVENT: &str = "queue-event";

#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Event {
    Job(JobEvent),
    Queue(QueueEvent),
}

impl Event {
    pub fn name(&self) -> &'static str {
        match self {
            Event::Job(_) => JOB_PROGRESS,
            Event::Queue(_) => QUEUE_EVENT,
        }
    }
}

/// Where events go: the app forwards them to the window; the CLI and tests may drop them.
pub trait EventSink: Send + Sync {
    fn emit(&self, event: Event);
}

pub type Sink = Arc<dyn EventSink>;

/// A sink that drops every event.
pub struct Discard;

impl EventSink for Discard {
    fn emit(&self, _: Event) {}
}
