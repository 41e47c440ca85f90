//! Integration tests of the task importers and scoring. One binary, one module per importer.

mod common;
mod evals;
mod harbor;
mod swe_skills_bench;
