//! What can go wrong recording decisions and writing reports.

use skillscope_experiments::error::ExperimentError;
use skillscope_library::error::LibraryError;
use skillscope_runs::error::RunsError;
use skillscope_store::{IoError, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    InvalidInput(String),
    #[error(transparent)]
    Experiment(#[from] ExperimentError),
    #[error(transparent)]
    Runs(#[from] RunsError),
    #[error(transparent)]
    Library(#[from] LibraryError),
    #[error(transparent)]
    Probes(#[from] skillscope_probes::error::ProbeError),
    #[error(transparent)]
    Io(#[from] IoError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("JSON encoding failed: {0}")]
    Json(#[from] serde_json::Error),
}

pub type Result<T, E = ReviewError> = std::result::Result<T, E>;
