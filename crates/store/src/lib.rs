//! Where Skillscope keeps things: the workspace directory, its `config.toml`, the SQLite database
//! with its migrations, and the content-addressed file store. Every stage crate builds on it.

pub mod blobs;
pub mod config;
pub mod db;
pub mod error;
pub mod workspace;

pub use error::{IoError, Result, StoreError};
pub use workspace::Workspace;

/// Current UTC time in RFC 3339, the one timestamp format of the database.
pub fn now() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .expect("RFC 3339 formats any UTC time")
}
