//! Skillscope's trajectory layer: every agent trial is recorded as an ATIF
//! v1.7 trajectory (Agent Trajectory Interchange Format, Harbor RFC 0001).
//!
//! * [`model`]: serde (and ts-rs) types of an ATIF document;
//! * [`builder`]: the recorder the agent loop feeds while it runs;
//! * [`validate`]: schema and RFC cross-field checks on raw JSON;
//! * [`store`]: compressed storage form and per-step index rows;
//! * [`import`]: reading trajectories produced by other tools;
//! * [`redact`]: removing secrets from trajectory text;
//! * [`synthetic`]: long generated trajectories for benchmarks and tests.

pub mod builder;
pub mod import;
pub mod model;
pub mod redact;
pub mod store;
pub mod synthetic;
pub mod validate;

pub use builder::{BuildError, ToolCallSpec, TrajectoryBuilder, TurnMetrics};
pub use import::{import_bytes, import_file, import_value, ImportError, Imported};
pub use model::{
    Agent, Content, ContentPart, Extra, FinalMetrics, ImageSource, Metrics, Observation, ObservationResult,
    ReasoningEffort, Step, StepSource, SubagentTrajectoryRef, ToolCall, Trajectory, KNOWN_SCHEMA_VERSIONS,
    SCHEMA_VERSION,
};
pub use redact::{Redactor, MIN_SECRET_CHARS, REDACTED};
pub use store::{compress, decompress, index, StepIndexRow, StoreError, INDEX_TEXT_CHARS};
pub use synthetic::synthetic;
pub use validate::{validate, Violation};
