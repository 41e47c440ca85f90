//! The persistent run queue: trials wait in SQLite, a worker runs them in Docker containers.

pub mod model;
pub mod store;
pub mod worker;
pub mod sandbox_run;
pub mod agent_phase;
pub mod agent_run;
