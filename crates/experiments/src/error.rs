//! What can go wrong designing, reading, exporting and importing experiments.

use skillscope_library::error::LibraryError;
use skillscope_runs::error::RunsError;
use skillscope_store::{IoError, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    InvalidInput(String),
    /// The experiment is not in a state that allows this (unfinished trials on export).
    #[error("{0}")]
    Conflict(String),
    #[error("not a usable experiment bundle: {0}")]
    Bundle(String),
    #[error("{what}: {source}")]
    Context {
        what: String,
        #[source]
        source: Box<ExperimentError>,
    },
    #[error(transparent)]
    Runs(#[from] RunsError),
    #[error(transparent)]
    Library(#[from] LibraryError),
    #[error(transparent)]
    Judge(#[from] skillscope_judge::error::JudgeError),
    #[error(transparent)]
    Io(#[from] IoError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("JSON encoding failed: {0}")]
    Json(#[from] serde_json::Error),
}

pub type Result<T, E = ExperimentError> = std::result::Result<T, E>;

impl ExperimentError {
    /// Says where it happened; the kind of error stays what it was.
    pub fn context(self, what: impl Into<String>) -> Self {
        Self::Context { what: what.into(), source: Box::new(self) }
    }
}
