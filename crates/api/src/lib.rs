//! The one facade the app and the CLI call. It names every stage under one roof (so an adapter
//! depends on this crate alone), opens the workspace, and runs long work as persisted jobs.

pub mod jobs;
mod open;

pub use open::open;
pub use skillscope_experiments::{self as experiments, bundle, demo};
pub use skillscope_library::{self as library, import, model, package, render, scans, sources};
pub use skillscope_review::{decisions, report};
pub use skillscope_runs::{agents, credentials, evidence, harnesses, queue, redaction, trajectories};
pub use skillscope_skill as skill;
pub use skillscope_store::{blobs, config, db, error, workspace, AppError, ErrorCode, Result, Workspace};

// The leaf engines, for adapters that format or drive them directly.
pub use skillscope_agent as agent;
pub use skillscope_atif as atif;
pub use skillscope_charts as charts;
pub use skillscope_models as models;
pub use skillscope_sandbox as sandbox;
pub use skillscope_scan as scan;
pub use skillscope_stats as stats;
pub use skillscope_tasks as tasks;
