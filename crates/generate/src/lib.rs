//! Tasks from the skill itself. A model the user picks drafts requirement documents with pytest
//! verifiers and reference solutions, scenarios aimed at the baseline's gaps, or eval prompts with
//! expectations (`kind`, `drafting` and one module per kind) from a skill's SKILL.md and its other
//! files (`listing` says what it is shown of them), optionally set in a repository at a
//! commit (`repository`) whose environment is a Dockerfile context built from its manifests and
//! lockfiles (`environment`; Python lockfiles read by `locks`). Every draft is checked for leakage
//! of the skill's procedure into its instruction (`leakage`) before a reviewer approves or rejects
//! it.

pub mod drafting;
pub mod environment;
mod evals;
mod items;
pub mod kind;
pub mod leakage;
mod listing;
pub mod locks;
pub mod repository;
pub mod requirements;
mod scenarios;

pub use drafting::{Draft, Drafting, Setting, Skill};
pub use kind::DraftKind;
