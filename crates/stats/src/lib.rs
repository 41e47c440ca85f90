//! Skillscope statistics engine for paired skill evaluations.
//!
//! Every task is run once without (z = 0) and once with (z = 1) the skill
//! under test, under the same configuration. The outcome is the verifier's
//! pass ratio in `[0, 1]`. This crate turns such pairs into per-group
//! (skill × config), per-skill (pooled over configs, `config = "all"`) and
//! overall summaries with honest statistics:
//!
//! * two-sided paired sign-flip test ([`signflip`]), exact or with a
//!   certified bound — drives the golden / harmful / ineffective /
//!   undecided / too-few-tasks classification,
//! * exact Wilcoxon signed-rank test ([`wilcoxon`]) and paired t-test
//!   ([`ttest`]) as sensitivity checks,
//! * percentile bootstrap CI of the mean delta ([`bootstrap`]),
//! * Benjamini–Hochberg q-values ([`fdr`]),
//! * minimum detectable effect of the sign-flip test ([`power`]),
//! * the Wilson score interval of a proportion ([`proportion`]),
//! * SkillAudit measures PRG, EG, CG, ECG, ceiling rate ([`audit`]),
//! * generated experiment-shaped data for benchmarks and tests ([`synthetic`]).
//!
//! The unit of every row is a task, and every test sees the same unit deltas ([`units`]). The entry
//! point is [`analyze`]; [`read_pairs_csv`] reads the input.

pub mod audit;
pub mod bootstrap;
pub mod csv;
pub mod fdr;
pub mod pair;
pub mod power;
pub mod proportion;
pub mod rational;
pub mod report;
pub mod signflip;
pub mod special;
pub mod synthetic;
pub mod ttest;
pub mod units;
pub mod wilcoxon;

pub use crate::csv::{read_pairs_csv, CsvError};
pub use audit::Stratum;
pub use pair::Pair;
pub use report::{analyze, analyze_with, Class, Overall, Report, RowMemo, Summary, UnitKind};
