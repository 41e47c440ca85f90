//! Tasks from the skill itself. A model the user picks drafts skill-creator-style eval prompts,
//! each with an expected output and expectations a judge grades, from a skill version's SKILL.md
//! (`drafting`); every draft is checked for leakage of the skill's procedure into its instruction
//! (`leakage`) before a reviewer approves or rejects it.

pub mod drafting;
pub mod leakage;

pub use drafting::{Draft, Drafting};
