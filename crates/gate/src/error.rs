//! What can stop the gate from judging (the CLI's exit 2).

use skillscope_library::error::LibraryError;
use skillscope_probes::error::ProbeError;
use skillscope_review::error::ReviewError;
use skillscope_store::IoError;

#[derive(Debug, thiserror::Error)]
pub enum GateError {
    /// The policy file cannot be read or is not a valid policy.
    #[error("{0}")]
    Policy(String),
    /// The target holds no skill.
    #[error("{0}")]
    NoSkill(String),
    #[error(transparent)]
    Library(#[from] LibraryError),
    #[error(transparent)]
    Review(#[from] ReviewError),
    #[error(transparent)]
    Probes(#[from] ProbeError),
    #[error(transparent)]
    Io(#[from] IoError),
    #[error("JSON encoding failed: {0}")]
    Json(#[from] serde_json::Error),
    #[error("JUnit encoding failed: {0}")]
    Junit(#[from] quick_junit::SerializeError),
}

pub type Result<T, E = GateError> = std::result::Result<T, E>;
