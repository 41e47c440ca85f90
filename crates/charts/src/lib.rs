//! Skillscope charts: the evidence of paired with/without-skill evaluations
//! as standalone SVG documents, drawn with plotters' SVG backend (no bitmap
//! backend and no font files: text is written as `<text>` elements).
//!
//! Every chart function returns a complete `<svg …>…</svg>` document of the
//! default width [`DEFAULT_WIDTH`] and a height that grows with the number
//! of rows; the `*_sized` variants take a width and an optional height.
//! Output is deterministic (same input, same bytes) and every text is
//! escaped. A chart without data shows [`EMPTY_MESSAGE`].
//!
//! Colours: green for positive / golden, red for negative / harmful, grey
//! for ineffective or zero ([`style`]). Scores and deltas are in points
//! (0..100 and −100..100), Δ = with skill − without skill.

mod efficiency;
mod frame;
mod pass_rates;
pub mod png;
mod prg;
mod skill_deltas;
pub mod style;
mod summary_rows;
pub mod svg;
mod task_deltas;

pub use efficiency::{efficiency, efficiency_sized, ArmCost};
pub use pass_rates::{pass_rates, pass_rates_sized};
pub use prg::{prg_by_stratum, prg_by_stratum_sized};
pub use skill_deltas::{skill_deltas, skill_deltas_sized};
pub use svg::EMPTY_MESSAGE;
pub use task_deltas::{task_deltas, task_deltas_sized, TaskDelta};

/// Default width of every chart, px (legible in a 640 px column).
pub const DEFAULT_WIDTH: u32 = 640;
/// Smallest width a chart is drawn at, px.
pub const MIN_WIDTH: u32 = 360;
