//! The one error type that crosses every boundary (CLI, IPC). Its `code` is a closed set the UI switches on.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ErrorCode {
    /// The named skill, version, file or job does not exist.
    NotFound,
    /// The request itself is malformed (bad path, bad argument).
    InvalidInput,
    /// The package is not a usable skill (no SKILL.md, bad frontmatter, not UTF-8).
    InvalidSkill,
    /// An archive or folder tried to escape the package (traversal, absolute path, outbound symlink).
    UnsafeArchive,
    /// A size, count or compression-ratio limit was exceeded.
    TooLarge,
    Io,
    Database,
    Git,
    /// The request is ambiguous or clashes with existing state.
    Conflict,
    /// The container engine (Docker or Podman) is not reachable or failed; not a bug in Skillscope.
    Engine,
    Internal,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, thiserror::Error)]
#[error("{message}")]
#[ts(export)]
pub struct AppError {
    pub code: ErrorCode,
    pub message: String,
}

pub type Result<T, E = AppError> = std::result::Result<T, E>;

impl AppError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }
    pub fn not_found(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, m)
    }
    pub fn invalid_input(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidInput, m)
    }
    pub fn invalid_skill(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidSkill, m)
    }
    pub fn unsafe_archive(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::UnsafeArchive, m)
    }
    pub fn too_large(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::TooLarge, m)
    }
    pub fn io(context: impl std::fmt::Display, e: std::io::Error) -> Self {
        Self::new(ErrorCode::Io, format!("{context}: {e}"))
    }
    /// Prefixes the message with where it happened, keeping the code.
    pub fn context(self, what: impl std::fmt::Display) -> Self {
        Self { code: self.code, message: format!("{what}: {}", self.message) }
    }
}

impl From<rusqlite::Error> for AppError {
    fn from(e: rusqlite::Error) -> Self {
        Self::new(ErrorCode::Database, format!("database error: {e}"))
    }
}

impl From<rusqlite_migration::Error> for AppError {
    fn from(e: rusqlite_migration::Error) -> Self {
        Self::new(ErrorCode::Database, format!("database migration failed: {e}"))
    }
}

impl From<serde_json::Error> for AppError {
    fn from(e: serde_json::Error) -> Self {
        Self::new(ErrorCode::Internal, format!("JSON encoding failed: {e}"))
    }
}
