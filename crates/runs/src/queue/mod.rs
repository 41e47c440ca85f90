//! The persistent run queue: trials wait in SQLite, a worker runs them in Docker containers.

pub mod agent_phase;
pub mod agent_run;
pub mod arm_snapshot;
pub mod deadline;
mod disk_watch;
pub mod model;
pub mod probe_capture;
pub mod runtime_paths;
pub mod sandbox_run;
pub mod skill_roots;
pub mod store;
pub mod tamper;
mod trial_error;
mod verifier;
pub mod worker;
