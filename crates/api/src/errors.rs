//! The one error type that crosses every boundary (CLI, IPC), and the one place where each
//! stage's own error becomes its `{code, message}`. The code is a closed set the UI switches on;
//! the full cause chain goes to the log.

use serde::{Deserialize, Serialize};
use skillscope_experiments::error::ExperimentError;
use skillscope_gate::error::GateError;
use skillscope_judge::error::JudgeError;
use skillscope_library::error::LibraryError;
use skillscope_probes::error::ProbeError;
use skillscope_review::error::ReviewError;
use skillscope_runs::credentials::CredentialError;
use skillscope_runs::error::RunsError;
use skillscope_sandbox::SandboxError;
use skillscope_store::StoreError;
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
    pub fn io(context: impl std::fmt::Display, e: std::io::Error) -> Self {
        Self::new(ErrorCode::Io, format!("{context}: {e}"))
    }
    /// Prefixes the message with where it happened, keeping the code.
    pub fn context(self, what: impl std::fmt::Display) -> Self {
        Self { code: self.code, message: format!("{what}: {}", self.message) }
    }

    /// The user sees the message; the log keeps every cause below it, and faults that are not
    /// the user's (disk, database, engine, bugs) are logged as warnings.
    fn from_domain(code: ErrorCode, e: &dyn std::error::Error) -> Self {
        let chain = causes(e);
        match code {
            ErrorCode::Io | ErrorCode::Database | ErrorCode::Engine | ErrorCode::Internal => {
                tracing::warn!(?code, "{e}{chain}")
            }
            _ => tracing::debug!(?code, "{e}{chain}"),
        }
        Self::new(code, e.to_string())
    }
}

/// Every cause below `e`, each after " <- ".
fn causes(e: &dyn std::error::Error) -> String {
    std::iter::successors(e.source(), |c| c.source()).map(|c| format!(" <- {c}")).collect()
}

fn store_code(e: &StoreError) -> ErrorCode {
    match e {
        StoreError::NoHome(_) | StoreError::Config { .. } | StoreError::BadDigest(_) => ErrorCode::InvalidInput,
        StoreError::Io(_) => ErrorCode::Io,
        StoreError::NewerSchema { .. } | StoreError::Database(_) | StoreError::Migration(_) => ErrorCode::Database,
        StoreError::Json(_) => ErrorCode::Internal,
    }
}

/// A fault of the container engine (unreachable, image build, lost container) is `engine`;
/// anything else the sandbox refuses is a bad request.
fn sandbox_code(e: &SandboxError) -> ErrorCode {
    if e.is_infrastructure() {
        ErrorCode::Engine
    } else {
        ErrorCode::InvalidInput
    }
}

fn library_code(e: &LibraryError) -> ErrorCode {
    match e {
        LibraryError::NotFound(_) => ErrorCode::NotFound,
        LibraryError::Ambiguous(_) | LibraryError::Cancelled => ErrorCode::Conflict,
        LibraryError::InvalidInput(_) => ErrorCode::InvalidInput,
        LibraryError::InvalidSkill(_) => ErrorCode::InvalidSkill,
        LibraryError::UnsafeArchive(_) => ErrorCode::UnsafeArchive,
        LibraryError::TooLarge(_) => ErrorCode::TooLarge,
        LibraryError::Git(_) | LibraryError::NoGit(_) => ErrorCode::Git,
        LibraryError::Context { source, .. } => library_code(source),
        LibraryError::Io(_) => ErrorCode::Io,
        LibraryError::Store(s) => store_code(s),
        LibraryError::Database(_) => ErrorCode::Database,
        LibraryError::Json(_) => ErrorCode::Internal,
    }
}

fn runs_code(e: &RunsError) -> ErrorCode {
    match e {
        RunsError::NotFound(_) => ErrorCode::NotFound,
        RunsError::InvalidInput(_)
        | RunsError::Model { .. }
        | RunsError::PriceTable { .. }
        | RunsError::TrajectoryImport(_) => ErrorCode::InvalidInput,
        RunsError::Conflict(_) => ErrorCode::Conflict,
        RunsError::Internal(_) | RunsError::Trajectory(_) | RunsError::Json(_) => ErrorCode::Internal,
        RunsError::EngineUnavailable { .. } => ErrorCode::Engine,
        RunsError::Sandbox(s) => sandbox_code(s),
        RunsError::Credentials(CredentialError::InvalidInput(_)) => ErrorCode::InvalidInput,
        RunsError::Credentials(CredentialError::Keyring { .. })
        | RunsError::NoNpm { .. }
        | RunsError::Install { .. }
        | RunsError::Io(_) => ErrorCode::Io,
        RunsError::Library(l) => library_code(l),
        RunsError::Store(s) => store_code(s),
        RunsError::Database(_) => ErrorCode::Database,
    }
}

fn experiment_code(e: &ExperimentError) -> ErrorCode {
    match e {
        ExperimentError::NotFound(_) => ErrorCode::NotFound,
        ExperimentError::InvalidInput(_) | ExperimentError::Bundle(_) => ErrorCode::InvalidInput,
        ExperimentError::Conflict(_) => ErrorCode::Conflict,
        ExperimentError::Context { source, .. } => experiment_code(source),
        ExperimentError::Runs(r) => runs_code(r),
        ExperimentError::Library(l) => library_code(l),
        ExperimentError::Judge(j) => judge_code(j),
        ExperimentError::Io(_) => ErrorCode::Io,
        ExperimentError::Store(s) => store_code(s),
        ExperimentError::Database(_) => ErrorCode::Database,
        ExperimentError::Json(_) => ErrorCode::Internal,
    }
}

fn judge_code(e: &JudgeError) -> ErrorCode {
    match e {
        JudgeError::Runs(r) => runs_code(r),
        JudgeError::Store(s) => store_code(s),
        JudgeError::Database(_) => ErrorCode::Database,
        JudgeError::Json(_) => ErrorCode::Internal,
    }
}

fn review_code(e: &ReviewError) -> ErrorCode {
    match e {
        ReviewError::NotFound(_) => ErrorCode::NotFound,
        ReviewError::InvalidInput(_) => ErrorCode::InvalidInput,
        ReviewError::Experiment(x) => experiment_code(x),
        ReviewError::Runs(r) => runs_code(r),
        ReviewError::Library(l) => library_code(l),
        ReviewError::Probes(p) => probe_code(p),
        ReviewError::Io(_) => ErrorCode::Io,
        ReviewError::Store(s) => store_code(s),
        ReviewError::Database(_) => ErrorCode::Database,
        ReviewError::Json(_) => ErrorCode::Internal,
    }
}

fn gate_code(e: &GateError) -> ErrorCode {
    match e {
        GateError::Policy(_) | GateError::NoSkill(_) => ErrorCode::InvalidInput,
        GateError::Library(l) => library_code(l),
        GateError::Review(r) => review_code(r),
        GateError::Probes(p) => probe_code(p),
        GateError::Io(_) => ErrorCode::Io,
        GateError::Json(_) | GateError::Junit(_) => ErrorCode::Internal,
    }
}

fn probe_code(e: &ProbeError) -> ErrorCode {
    match e {
        ProbeError::NotFound(_) => ErrorCode::NotFound,
        ProbeError::Io(_) => ErrorCode::Io,
        ProbeError::Runs(r) => runs_code(r),
        ProbeError::Library(l) => library_code(l),
        ProbeError::Store(s) => store_code(s),
        ProbeError::Database(_) => ErrorCode::Database,
        ProbeError::Json(_) => ErrorCode::Internal,
    }
}

macro_rules! from_domain {
    ($($ty:ty => $code:ident),* $(,)?) => {$(
        impl From<$ty> for AppError {
            fn from(e: $ty) -> Self {
                Self::from_domain($code(&e), &e)
            }
        }
    )*};
}

from_domain! {
    StoreError => store_code,
    SandboxError => sandbox_code,
    LibraryError => library_code,
    RunsError => runs_code,
    ExperimentError => experiment_code,
    ReviewError => review_code,
    ProbeError => probe_code,
    GateError => gate_code,
}

impl From<rusqlite::Error> for AppError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::from(e).into()
    }
}

impl From<CredentialError> for AppError {
    fn from(e: CredentialError) -> Self {
        RunsError::from(e).into()
    }
}

impl From<serde_json::Error> for AppError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::from(e).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillscope_store::IoError;

    #[test]
    fn a_nested_error_keeps_the_code_of_its_cause_and_the_log_keeps_the_cause() {
        let engine = SandboxError::EngineUnavailable { socket: "/run/docker.sock".into(), detail: "refused".into() };
        let shown = engine.to_string();
        let e = ExperimentError::Runs(RunsError::EngineUnavailable { message: "start Docker".into(), source: engine });
        assert_eq!(causes(&e), format!(" <- {shown}"));
        let app = AppError::from(e);
        assert_eq!((app.code, app.message.as_str()), (ErrorCode::Engine, "start Docker"));

        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let e = LibraryError::Io(IoError::new("/x/SKILL.md", denied)).context("importing the sample skills");
        assert!(causes(&e).contains("permission denied"), "{}", causes(&e));
        assert_eq!(AppError::from(e).code, ErrorCode::Io);
        let e = ReviewError::Library(LibraryError::UnsafeArchive("entry \"../x\"".into()));
        assert_eq!(AppError::from(e).code, ErrorCode::UnsafeArchive);
    }
}
