//! The persistent run queue: trials wait in SQLite, a worker runs them in Docker containers.

pub mod model;
pub mod store;
