//! The one SKILL.md parser: frontmatter and body, and the Agent Skills spec's rules as findings.
//! Pure (no I/O); the library and the scanner both read skills through it.

pub mod finding;
mod rules;
pub mod skill_md;
pub mod validate;

pub use finding::{Finding, Severity, ValidationStatus};
pub use rules::Violation;
pub use skill_md::{Frontmatter, ParseError, ParseErrorKind, SkillMd};
