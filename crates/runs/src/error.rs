//! What can go wrong configuring and running trials.

use skillscope_library::error::LibraryError;
use skillscope_models::ModelError;
use skillscope_sandbox::SandboxError;
use skillscope_store::{IoError, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum RunsError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    InvalidInput(String),
    /// Clashes with existing state: a taken name, a queue another process holds, a cancelled install.
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Internal(String),
    /// The container engine cannot be reached; the message says what to do.
    #[error("{message}")]
    EngineUnavailable {
        message: String,
        #[source]
        source: SandboxError,
    },
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    #[error("{what}: {source}")]
    Model {
        what: String,
        #[source]
        source: ModelError,
    },
    #[error("{path}: {source}")]
    PriceTable {
        path: String,
        #[source]
        source: Box<toml::de::Error>,
    },
    #[error(transparent)]
    Credentials(#[from] skillscope_credentials::CredentialError),
    #[error("cannot run npm to install {package}: {source}")]
    NoNpm {
        package: String,
        #[source]
        source: std::io::Error,
    },
    #[error("npm could not install {package}: {stderr}")]
    Install { package: String, stderr: String },
    #[error("trajectory storage: {0}")]
    Trajectory(#[from] skillscope_atif::StoreError),
    #[error("{0}")]
    TrajectoryImport(#[from] skillscope_atif::ImportError),
    #[error(transparent)]
    Library(#[from] LibraryError),
    #[error(transparent)]
    Io(#[from] IoError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("JSON encoding failed: {0}")]
    Json(#[from] serde_json::Error),
}

pub type Result<T, E = RunsError> = std::result::Result<T, E>;
