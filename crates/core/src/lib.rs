//! Skillscope's GUI-free core: the workspace (SQLite + content-addressed files), the skill
//! library and its importers, and persisted jobs. The app and the `skillscope` CLI both call it.

pub mod agents;
pub mod blobs;
pub mod bundle;
pub mod config;
pub mod credentials;
pub mod db;
pub mod decisions;
pub mod demo;
pub mod error;
pub mod evidence;
pub mod experiments;
pub mod harnesses;
pub mod import;
pub mod jobs;
pub mod library;
pub mod model;
pub mod package;
pub mod queue;
pub mod redaction;
pub mod render;
pub mod report;
pub mod review;
pub mod skill_md;
pub mod sources;
pub mod trajectories;
pub mod validate;
pub mod workspace;

pub use error::{AppError, ErrorCode, Result};
pub use workspace::Workspace;

/// Current UTC time in RFC 3339, the one timestamp format of the database.
pub(crate) fn now() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .expect("RFC 3339 formats any UTC time")
}
