//! The skill library: import sources (folders, archives, git, samples), staging and validation,
//! versions and diffs, and the stored static scans of each version.

mod catalog;
pub mod error;
pub mod import;
pub mod model;
pub mod package;
pub mod render;
pub mod scans;
pub mod sources;

pub use catalog::*;
