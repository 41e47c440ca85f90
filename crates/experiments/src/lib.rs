//! Paired experiments: designs expanded into pairs of trials, fairness checks, results and
//! charts, experiment bundles (export and import) and the demo seed.

pub mod bundle;
pub mod demo;
mod design;
pub mod error;
pub mod pair_record;
mod results_cache;
pub mod task_sets;

pub use design::*;
