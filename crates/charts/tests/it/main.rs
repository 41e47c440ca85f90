//! Integration tests of the SVG charts. One binary, one module per chart.

mod common;
mod efficiency;
mod pass_rates;
mod prg_by_stratum;
mod skill_deltas;
mod task_deltas;
