//! Paired experiments: designs expanded into pairs of trials, fairness checks, results and
//! charts, experiment bundles (export and import) and the demo seed.

pub mod activation;
pub mod bundle;
pub mod calibration;
mod chart_set;
pub mod csv_export;
pub mod demo;
mod design;
pub mod drafts;
pub mod environments;
pub mod error;
pub mod estimate;
pub mod judging;
pub mod measures;
pub mod pair_record;
pub mod preference;
pub mod rerun;
mod results_cache;
pub mod reviews;
pub mod sanity;
mod sanity_queue;
pub mod task_sets;

pub use chart_set::{charts, Chart};
pub use design::*;
