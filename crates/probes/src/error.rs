//! What can go wrong starting or reading probe runs.

use skillscope_library::error::LibraryError;
use skillscope_runs::error::RunsError;
use skillscope_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error("{0}")]
    NotFound(String),
    #[error("writing the probe's project: {0}")]
    Io(String),
    #[error(transparent)]
    Runs(#[from] RunsError),
    #[error(transparent)]
    Library(#[from] LibraryError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("JSON encoding failed: {0}")]
    Json(#[from] serde_json::Error),
}

pub type Result<T, E = ProbeError> = std::result::Result<T, E>;
