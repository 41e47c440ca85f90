//! Skillscope in CI: each skill's evidence (static review, probes, evaluations, decisions) judged
//! against a policy, written as JUnit, SARIF, JSON and a Markdown summary.

pub mod checks;
pub mod error;
pub mod evidence;
pub mod outputs;
pub mod policy;

pub use checks::{judge, Outcome, SkillVerdict};
pub use evidence::{gather, SkillEvidence};
pub use policy::Policy;
