//! The one facade the app and the CLI call: the command list ([`with_commands!`]) and its
//! implementation ([`Api`]), the types that cross IPC ([`ipc`]), jobs, events, and error codes.
//! It also names every stage under one roof, so an adapter depends on this crate alone.

mod api;
pub mod commands;
pub mod engine;
pub mod errors;
pub mod events;
pub mod ipc;
pub mod jobs;
mod live_logs;
mod open;
mod results_warmup;
mod runtime;
pub mod scan_review;
pub mod settings;

pub use api::Api;
pub use errors::{AppError, ErrorCode, Result};
pub use open::open;
pub use skillscope_experiments::{self as experiments, bundle, demo};
pub use skillscope_gate as gate;
pub use skillscope_generate as generate;
pub use skillscope_judge as judge;
pub use skillscope_library::{self as library, import, model, package, render, scans, sources};
pub use skillscope_probes as probes;
pub use skillscope_review::{basis, decisions, report};
pub use skillscope_runs::error::RunsError;
pub use skillscope_runs::{agents, credentials, evidence, harnesses, queue, redaction, trajectories};
pub use skillscope_skill as skill;
pub use skillscope_store::{blobs, config, db, workspace, Workspace};

// The leaf engines, for adapters that format or drive them directly.
pub use skillscope_agent as agent;
pub use skillscope_atif as atif;
pub use skillscope_charts as charts;
pub use skillscope_models as models;
pub use skillscope_sandbox as sandbox;
pub use skillscope_scan as scan;
pub use skillscope_stats as stats;
pub use skillscope_tasks as tasks;
