//! Docker sandbox runner: isolated containers for running coding agents, commands with
//! timeouts and streamed output, file transfer, change recording and base images built
//! without a registry. GUI-free and database-free.

pub mod bootstrap;
mod build;
mod changes;
mod container;
pub mod discovery;
mod engine;
mod error;
mod exec;
mod owner;
mod run;
mod snapshot;
mod spec;
mod transfer;

pub use build::{BuiltImage, CONTEXT_LABEL};
pub use changes::{EngineChange, EngineChangeKind};
pub use container::{Container, ContainerState};
pub use discovery::{engine_status, EngineState, EngineStatus};
pub use engine::{Engine, ManagedContainer};
pub use error::SandboxError;
pub use exec::{ExecOptions, ExecResult, OutputStream, Uncharged, WaitClock, OUTPUT_CAP};
pub use owner::Owner;
pub use run::run_once;
pub use snapshot::{file_changes, ChangeKind, FileChange, Snapshot, SnapshotFile, SNAPSHOT_FILE_CAP};
pub use spec::{
    ContainerSpec, NetworkMode, DEFAULT_FILE_SIZE_BYTES, DEFAULT_MEMORY_BYTES, DEFAULT_NANO_CPUS, DEFAULT_OPEN_FILES,
    DEFAULT_PIDS_LIMIT, MANAGED_LABEL,
};
pub use transfer::{DirArchive, DOWNLOAD_LIMIT};
