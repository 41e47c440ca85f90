//! What can go wrong in the workspace itself. The api crate maps these (and every stage's own
//! error) to the closed `{code, message}` set that crosses IPC.

use std::fmt::Display;

/// A file operation that failed, with the path it was about. Every stage wraps its file errors
/// in it, so "which file" is said the same way everywhere.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct IoError {
    pub path: String,
    #[source]
    pub source: std::io::Error,
}

impl IoError {
    pub fn new(path: impl Display, source: std::io::Error) -> Self {
        Self { path: path.to_string(), source }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no data directory found; set {0}")]
    NoHome(&'static str),
    #[error(transparent)]
    Io(#[from] IoError),
    #[error("{path}: {source}")]
    Config {
        path: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[error("not a sha256: {0:?}")]
    BadDigest(String),
    #[error("this workspace has schema version {found}, newer than this build's {supported}; update Skillscope")]
    NewerSchema { found: u32, supported: u32 },
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("database migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("JSON encoding failed: {0}")]
    Json(#[from] serde_json::Error),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;
