//! What stops a judgement from being attempted (a failed attempt is a NO SCORE, not an error).

use skillscope_runs::error::RunsError;
use skillscope_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    #[error(transparent)]
    Runs(#[from] RunsError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("JSON encoding failed: {0}")]
    Json(#[from] serde_json::Error),
}

pub type Result<T, E = JudgeError> = std::result::Result<T, E>;
