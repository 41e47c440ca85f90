//! What can go wrong importing, storing and reading skills.

use skillscope_store::{IoError, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("{0}")]
    NotFound(String),
    /// A name that matches more than one skill.
    #[error("{0}")]
    Ambiguous(String),
    #[error("{0}")]
    InvalidInput(String),
    /// The package is not a usable skill (no SKILL.md, bad frontmatter, not UTF-8).
    #[error("{0}")]
    InvalidSkill(String),
    /// An archive or folder tried to escape the package (traversal, absolute path, outbound symlink).
    #[error("{0}")]
    UnsafeArchive(String),
    /// A size, count or compression-ratio limit was exceeded.
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    Git(String),
    #[error("cannot run git ({0}); install git to import repositories")]
    NoGit(#[source] std::io::Error),
    /// The caller's progress callback asked the work to stop.
    #[error("cancelled")]
    Cancelled,
    #[error("{what}: {source}")]
    Context {
        what: String,
        #[source]
        source: Box<LibraryError>,
    },
    #[error(transparent)]
    Io(#[from] IoError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("JSON encoding failed: {0}")]
    Json(#[from] serde_json::Error),
}

pub type Result<T, E = LibraryError> = std::result::Result<T, E>;

impl LibraryError {
    /// Says where it happened; the kind of error stays what it was.
    pub fn context(self, what: impl Into<String>) -> Self {
        Self::Context { what: what.into(), source: Box::new(self) }
    }
}
