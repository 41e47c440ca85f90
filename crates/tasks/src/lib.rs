//! Skillscope's task layer: one task model, importers for the task formats
//! the app reads, and the scoring of verifier outputs. No Docker, no database:
//! the queue worker uploads what [`score::verifier_plan`] lists, runs its
//! command, downloads its report and calls [`score::score`].
//!
//! | Module | Does |
//! |---|---|
//! | [`model`] | [`TaskSpec`] and its parts (TS names prefixed `Task`) |
//! | [`harbor`] | a Harbor task folder, or a folder of them |
//! | [`evals`] | a skill's `evals/evals.json` (skill-creator, ACES and legacy shapes) |
//! | [`swe_skills_bench`] | SWE-Skills-Bench requirement documents + benchmark config |
//! | [`app`] | tasks written in the app |
//! | [`score`] | verifier plans and verifier output → score in [0, 1] |

pub mod app;
pub mod error;
pub mod evals;
mod files;
pub mod harbor;
pub mod model;
pub mod score;
pub mod swe_skills_bench;

pub use error::{ImportBatch, ImportError};
pub use files::{read_tree, sh_quote, tree_sha256};
pub use model::{TaskEnvironment, TaskFile, TaskRepository, TaskSource, TaskSourceKind, TaskSpec, TaskVerifier};
pub use score::{score, verifier_plan, Score, ScoreError, VerifierPlan};
