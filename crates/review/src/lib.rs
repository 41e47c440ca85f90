//! What a reviewer acts on: append-only decisions per skill version and deployment reports.

pub mod basis;
pub mod decisions;
pub mod error;
mod heat_colour;
pub mod report;
