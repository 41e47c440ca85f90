//! Aggregation of pairs into summaries and the serialisable report.
//!
//! # Units and repeats
//! The unit of every row is a *task* ([`crate::units`]): `n` counts tasks and
//! `n_pairs` raw pairs. A task's pairs in a row form cells, one per
//! configuration and condition, each holding its repeats; the task's delta
//! and its score in each arm are the mean over its cells of each cell's mean
//! over its repeats (repeats of one task are not independent evidence, and
//! neither are its runs under several configurations). `unit` and
//! `unit_method` say so in the output. The run-to-run variance per arm is the
//! mean over cells with repeats of the sample variance (points², n − 1
//! denominator) of that arm's score across the cell's repeats.
//!
//! # Rows
//! * `groups`: one [`Summary`] per skill × config (× condition, labelled
//!   `config (condition)`, when a pair has one), sorted by skill, config;
//!   each task has one cell, its repeats averaged.
//! * `skills`: one per skill pooled over its configs (`config = "all"`),
//!   sorted by skill; each task is one unit, averaged over the
//!   configurations and conditions it ran under, so 3 tasks under 2
//!   configurations are 3 units, not 6.
//! * `overall`: all raw pairs.
//!
//! # Multiple testing
//! `q_bh` is the Benjamini–Hochberg q-value of `p_signflip` **within its own
//! row family**: skill rows are adjusted across all skills (the pooled
//! p-values, one per skill); group rows are adjusted across all
//! skill × config groups. The classification uses the unadjusted
//! `p_signflip` as in SWE-Skills-Bench; `q_bh < 0.05` is the stricter,
//! FDR-controlled reading.
//!
//! # Smallest p
//! Two floors of the sign-flip p ([`crate::signflip::min_p`], `2 / 2^k` for
//! `k` units, 1 for `k ≤ 1`):
//! * `design_min_p` for the `n` tasks of the row: what the design could
//!   reach were every task to move;
//! * `min_p` for the `n_nonzero` tasks whose delta is not zero: what these
//!   data can reach (a tie's sign changes nothing), the smallest reachable p.
//!
//! # Classification
//! From the mean delta, the sign-flip p with its certified bracket
//! `[p − error, p]` and `design_min_p`:
//! * `too_few_tasks` if `design_min_p ≥ 0.05` (`n ≤ 5` tasks): no outcome of
//!   these tasks could be significant, so "ineffective" would claim what the
//!   design cannot show;
//! * `golden` / `harmful` if `p < 0.05` (the upper bound) and the delta is
//!   positive / negative;
//! * `undecided` if the bracket contains 0.05 even after refinement;
//! * `ineffective` otherwise ("no directional effect detected", not "no
//!   effect"), which includes rows whose ties keep `min_p` at 0.05 or above.
//!
//! # Units of the SkillAudit measures
//! `prg` and `prg_by_stratum` are in points like `delta`, but over raw pairs
//! (every repeat counts, as SkillAudit defines them), so `prg = delta` when
//! every task has the same number of cells and every cell the same number
//! of repeats.

use crate::audit::{audit, Stratum};
use crate::bootstrap::{bootstrap_ci, fnv1a};
use crate::pair::Pair;
use crate::power::MdeMethod;
use crate::signflip::{min_p, SignFlip, SignFlipMethod};
use crate::ttest::{mean_sd, paired_t};
use crate::units::{method_of, unit_mean, units_of, Deltas, Unit};
use crate::wilcoxon::{wilcoxon, WilcoxonMethod};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use ts_rs::TS;

/// Significance level of the classification.
pub use crate::signflip::ALPHA;

/// Direction class of a skill or group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "StatsClass")]
pub enum Class {
    /// Mean delta > 0 and sign-flip p < 0.05.
    Golden,
    /// Mean delta < 0 and sign-flip p < 0.05.
    Harmful,
    /// p ≥ 0.05 (its lower bound too): no directional effect detected.
    Ineffective,
    /// The certified bracket of p contains 0.05.
    Undecided,
    /// The smallest p the design can reach (`design_min_p`) is ≥ 0.05: nothing could be concluded.
    TooFewTasks,
}

/// What one unit of a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "StatsUnit")]
pub enum UnitKind {
    Task,
}

/// Classify from the mean delta, the sign-flip result and the smallest p
/// the design can reach (see the module docs).
pub fn classify(delta: f64, sf: &SignFlip, design_min_p: f64) -> Class {
    if design_min_p >= ALPHA {
        Class::TooFewTasks
    } else if sf.straddles(ALPHA) {
        Class::Undecided
    } else if sf.p < ALPHA && delta > 0.0 {
        Class::Golden
    } else if sf.p < ALPHA && delta < 0.0 {
        Class::Harmful
    } else {
        Class::Ineffective
    }
}

/// Statistics of one group (skill × config) or one skill pooled over
/// configs (`config = "all"`). Scores are in points (0..100).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "StatsSummary")]
pub struct Summary {
    pub skill: String,
    pub config: String,
    /// What a unit is: a task.
    pub unit: UnitKind,
    /// How a unit's values are formed from its pairs: `units::UNIT_METHOD`
    /// when some task ran under several configurations or conditions, else
    /// `units::REPEATS_METHOD`.
    pub unit_method: String,
    /// Number of units: the tasks of the row.
    pub n: usize,
    /// Mean no-skill score over units, points.
    pub mean_without: f64,
    /// Mean with-skill score over units, points.
    pub mean_with: f64,
    /// Mean paired delta `100 × (with − without)`, points.
    pub delta: f64,
    /// Two-sided paired sign-flip p: exact, or the certified upper bound
    /// (`grid`).
    pub p_signflip: f64,
    /// Exact two-sided Wilcoxon signed-rank p (zeros dropped, midranks).
    pub p_wilcoxon: f64,
    /// Two-sided paired t-test p.
    pub p_ttest: f64,
    /// Percentile bootstrap 95% CI of the mean delta, points.
    pub ci_low: f64,
    pub ci_high: f64,
    pub class: Class,
    /// Benjamini–Hochberg q of `p_signflip` within the row family.
    pub q_bh: f64,
    /// Raw pairs (including repeats).
    pub n_pairs: usize,
    /// Tasks whose delta is not zero (not tied).
    pub n_nonzero: usize,
    /// Sample SD of the unit deltas, points.
    pub sd_delta: f64,
    pub p_signflip_method: SignFlipMethod,
    /// Certified bound on the error of `p_signflip`: 0 when `exact`; for
    /// `grid` the true p lies in `[p − error, p]`.
    pub p_signflip_error: f64,
    /// Smallest sign-flip p these data can reach: `2 / 2^n_nonzero` (every
    /// non-tied task of one sign; 1 for `n_nonzero ≤ 1`). Ties cannot move
    /// the statistic, so they do not count.
    pub min_p: f64,
    /// Smallest sign-flip p the design can reach: `2 / 2^n` (1 for `n ≤ 1`);
    /// `too_few_tasks` when it is ≥ 0.05.
    pub design_min_p: f64,
    pub p_wilcoxon_method: WilcoxonMethod,
    /// Minimum detectable effect of the sign-flip test, points (80% power,
    /// α 0.05 two-sided; see `stats::power`). `None` when no effect is
    /// detectable (fewer than 6 non-zero units).
    pub mde: Option<f64>,
    /// How `mde` was had: exact power, or a seeded simulation.
    pub mde_method: Option<MdeMethod>,
    /// Monte Carlo standard error of `mde`, points (0 when exact).
    pub mde_se: Option<f64>,
    /// SkillAudit pass-rate gain, points (−100..100), over raw pairs.
    pub prg: f64,
    /// SkillAudit efficiency gain (time) in [−1, 1].
    pub eg: Option<f64>,
    /// SkillAudit cost gain (effective input tokens) in [−1, 1].
    pub cg: Option<f64>,
    /// 0.5·EG + 0.5·CG.
    pub ecg: Option<f64>,
    pub n_eg: usize,
    pub n_cg: usize,
    /// Share of pairs whose no-skill run already passes everything.
    pub ceiling_rate: f64,
    pub prg_by_stratum: Stratum,
    /// Cells (a task under one configuration and condition) with ≥ 2
    /// repeats; in a group row, tasks with ≥ 2 repeats.
    pub n_repeated_tasks: usize,
    /// Run-to-run variance of the no-skill arm, points² (with repeats).
    pub var_without: Option<f64>,
    /// Run-to-run variance of the with-skill arm, points² (with repeats).
    pub var_with: Option<f64>,
}

/// Totals over all pairs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "StatsOverall")]
pub struct Overall {
    pub n_pairs: usize,
    pub mean_without: f64,
    pub mean_with: f64,
    pub delta: f64,
}

/// The full analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "StatsReport")]
pub struct Report {
    pub overall: Overall,
    pub groups: Vec<Summary>,
    pub skills: Vec<Summary>,
}

fn sample_var(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0)
}

/// Cells with repeats and each arm's mean run-to-run variance over them, points².
fn run_to_run(units: &[Unit<'_>]) -> (usize, Option<f64>, Option<f64>) {
    let repeated: Vec<&Vec<&Pair>> = units.iter().flatten().filter(|cell| cell.len() >= 2).collect();
    let k = repeated.len();
    let var = |arm: fn(&Pair) -> f64| {
        let sum: f64 = repeated.iter().map(|c| sample_var(&c.iter().map(|p| 100.0 * arm(p)).collect::<Vec<_>>())).sum();
        (k > 0).then(|| sum / k as f64)
    };
    (k, var(|p| p.without), var(|p| p.with))
}

/// Summarise one set of pairs (one group, or one skill over configs).
pub fn summarize(skill: &str, config: &str, pairs: &[&Pair]) -> Summary {
    let units = units_of(pairs);
    let d = Deltas::of_units(&units);
    let n = units.len();
    let deltas = &d.points;
    let nf = n.max(1) as f64;
    let mean_without = 100.0 * units.iter().map(|u| unit_mean(u, |p| p.without)).sum::<f64>() / nf;
    let mean_with = 100.0 * units.iter().map(|u| unit_mean(u, |p| p.with)).sum::<f64>() / nf;
    let (delta, sd) = mean_sd(deltas);
    let sf = d.sign_flip();
    let n_nonzero = d.n_nonzero();
    let design_min_p = min_p(n);
    let (p_w, w_method) = wilcoxon(deltas);
    let (ci_low, ci_high) = bootstrap_ci(deltas, fnv1a(&[skill, config]));
    let mde = d.mde();
    let (n_rep, var_without, var_with) = run_to_run(&units);
    let a = audit(pairs.iter().copied());
    Summary {
        skill: skill.to_string(),
        config: config.to_string(),
        unit: UnitKind::Task,
        unit_method: method_of(&units).to_string(),
        n,
        mean_without,
        mean_with,
        delta,
        p_signflip: sf.p,
        p_wilcoxon: p_w,
        p_ttest: paired_t(deltas),
        ci_low,
        ci_high,
        class: classify(delta, &sf, design_min_p),
        q_bh: sf.p,
        n_pairs: pairs.len(),
        n_nonzero,
        sd_delta: sd,
        p_signflip_method: sf.method,
        p_signflip_error: sf.error,
        min_p: min_p(n_nonzero),
        design_min_p,
        p_wilcoxon_method: w_method,
        mde: mde.map(|m| m.points),
        mde_method: mde.map(|m| m.method),
        mde_se: mde.map(|m| m.se),
        prg: a.prg,
        eg: a.eg,
        cg: a.cg,
        ecg: a.ecg,
        n_eg: a.n_eg,
        n_cg: a.n_cg,
        ceiling_rate: a.ceiling_rate,
        prg_by_stratum: a.prg_by_stratum,
        n_repeated_tasks: n_rep,
        var_without,
        var_with,
    }
}

type Job<'a> = (&'a str, String, Vec<&'a Pair>);

/// Rows computed before, by a fingerprint of the row's name and its pairs (every field, in
/// order): [`analyze_with`] takes a row whose pairs are unchanged from here instead of computing
/// it again. The hash is the standard library's, stable within one build (a memo kept across
/// builds only misses).
pub type RowMemo = HashMap<u64, Summary>;

fn row_key(skill: &str, config: &str, pairs: &[&Pair]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (skill, config).hash(&mut h);
    for p in pairs {
        (&p.skill, &p.config, &p.condition, &p.task, p.repeat).hash(&mut h);
        for x in [Some(p.without), Some(p.with), p.time_without, p.time_with, p.tokens_without, p.tokens_with] {
            x.map(f64::to_bits).hash(&mut h);
        }
    }
    h.finish()
}

/// Runs the jobs not in `memo` and takes the others from it; `memo` is left holding exactly
/// this analysis's rows.
fn run_jobs_with(jobs: &[Job<'_>], memo: &mut RowMemo) -> Vec<Summary> {
    let keys: Vec<u64> = jobs.iter().map(|(s, c, p)| row_key(s, c, p)).collect();
    let todo: Vec<usize> = (0..jobs.len()).filter(|&i| !memo.contains_key(&keys[i])).collect();
    let fresh_jobs: Vec<Job<'_>> = todo.iter().map(|&i| jobs[i].clone()).collect();
    let mut fresh = todo.into_iter().zip(run_jobs(&fresh_jobs)).collect::<HashMap<_, _>>();
    let rows: Vec<Summary> =
        (0..jobs.len()).map(|i| fresh.remove(&i).unwrap_or_else(|| memo[&keys[i]].clone())).collect();
    *memo = keys.into_iter().zip(rows.iter().cloned()).collect();
    rows
}

/// Run `summarize` over jobs on all available cores (deterministic output).
fn run_jobs(jobs: &[Job<'_>]) -> Vec<Summary> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(jobs.len().max(1));
    if threads <= 1 {
        return jobs.iter().map(|(s, c, p)| summarize(s, c, p)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut out: Vec<(usize, Summary)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut local = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((s, c, p)) = jobs.get(i) else { break };
                        local.push((i, summarize(s, c, p)));
                    }
                    local
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("stats worker panicked")).collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, s)| s).collect()
}

fn apply_bh(rows: &mut [Summary]) {
    let p: Vec<f64> = rows.iter().map(|r| r.p_signflip).collect();
    for (r, q) in rows.iter_mut().zip(crate::fdr::bh(&p)) {
        r.q_bh = q;
    }
}

/// Analyse paired trials: per group, per skill (pooled) and overall.
pub fn analyze(pairs: &[Pair]) -> Report {
    analyze_with(pairs, &mut RowMemo::new())
}

/// [`analyze`], computing only the rows whose pairs changed since `memo` was filled (the
/// multiple-testing adjustment, which spans rows, is always computed afresh).
pub fn analyze_with(pairs: &[Pair], memo: &mut RowMemo) -> Report {
    let mut by_group: BTreeMap<(&str, String), Vec<&Pair>> = BTreeMap::new();
    let mut by_skill: BTreeMap<&str, Vec<&Pair>> = BTreeMap::new();
    for p in pairs {
        by_group.entry((&p.skill, p.group_label())).or_default().push(p);
        by_skill.entry(&p.skill).or_default().push(p);
    }
    let mut jobs: Vec<Job<'_>> = Vec::with_capacity(by_group.len() + by_skill.len());
    // Pooled (bigger) jobs first for better load balance.
    for (s, ps) in by_skill {
        jobs.push((s, "all".into(), ps));
    }
    let n_skills = jobs.len();
    for ((s, c), ps) in by_group {
        jobs.push((s, c, ps));
    }
    let mut all = run_jobs_with(&jobs, memo);
    let mut groups = all.split_off(n_skills);
    let mut skills = all;
    apply_bh(&mut groups);
    apply_bh(&mut skills);
    let n = pairs.len();
    let nf = n.max(1) as f64;
    let mean_without = 100.0 * pairs.iter().map(|p| p.without).sum::<f64>() / nf;
    let mean_with = 100.0 * pairs.iter().map(|p| p.with).sum::<f64>() / nf;
    Report {
        overall: Overall {
            n_pairs: n,
            mean_without,
            mean_with,
            delta: pairs.iter().map(Pair::delta).sum::<f64>() / nf,
        },
        groups,
        skills,
    }
}
