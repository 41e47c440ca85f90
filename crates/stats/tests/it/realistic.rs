//! Generated experiment-shaped data (`stats::synthetic`: 1–50 tests per task,
//! repeats) against an independent reference: exact enumeration of all 2^n
//! sign vectors in integer arithmetic, for every group and pooled row with
//! n_nonzero ≤ 16. Exact results must equal it; certified brackets must contain it.

use skillscope_stats::bootstrap::{bootstrap_ci, SplitMix64, RESAMPLES, SEED};
use skillscope_stats::signflip::SignFlipMethod;
use skillscope_stats::synthetic::{pairs, Design};
use skillscope_stats::units::{units_of, Deltas, REPEATS_METHOD, UNIT_METHOD};
use skillscope_stats::wilcoxon::wilcoxon;
use skillscope_stats::{analyze, ttest, Class, Pair, Summary};
use std::collections::BTreeMap;

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// Exact two-sided sign-flip p by enumeration, `None` if the common
/// denominator overflows.
fn brute(fr: &[(i128, u128)]) -> Option<f64> {
    let fr: Vec<(i128, u128)> = fr.iter().copied().filter(|(n, _)| *n != 0).collect();
    let mut l: i128 = 1;
    for &(_, d) in &fr {
        l = (l / gcd(l, d as i128)).checked_mul(d as i128)?;
    }
    let ys: Vec<i128> = fr.iter().map(|&(n, d)| n.checked_mul(l / d as i128)).collect::<Option<_>>()?;
    let t = ys.iter().sum::<i128>().abs();
    let n = ys.len();
    let hits = (0..1u64 << n)
        .filter(|m| (0..n).map(|i| if m >> i & 1 == 1 { ys[i] } else { -ys[i] }).sum::<i128>().abs() >= t)
        .count();
    Some(hits as f64 / (1u64 << n) as f64)
}

/// The unit deltas of a summary row, as `analyze` forms them.
fn unit_deltas(pairs: &[Pair], row: &Summary) -> Deltas {
    let rows: Vec<&Pair> =
        pairs.iter().filter(|p| p.skill == row.skill && (row.config == "all" || p.config == row.config)).collect();
    Deltas::of_units(&units_of(&rows))
}

#[test]
fn sign_flip_matches_enumeration_on_generated_data() {
    let (mut exact, mut grid, mut checked) = (0, 0, 0);
    for (tasks, seed) in [(5, 1), (6, 2), (7, 3), (8, 4), (9, 5), (12, 6), (14, 7), (16, 8)] {
        let ps = pairs(Design { skills: 8, configs: 2, tasks, seed });
        let r = analyze(&ps);
        for row in r.groups.iter().chain(&r.skills).filter(|s| s.n_nonzero <= 16) {
            let d = unit_deltas(&ps, row);
            let Some(want) = brute(d.exact.as_ref().unwrap()) else { continue };
            checked += 1;
            let who = format!("{} {} n={}", row.skill, row.config, row.n);
            match row.p_signflip_method {
                SignFlipMethod::Exact => {
                    exact += 1;
                    assert!((row.p_signflip - want).abs() < 1e-12, "{who}: {} vs {want}", row.p_signflip);
                    assert_eq!(row.p_signflip_error, 0.0);
                }
                SignFlipMethod::Grid => {
                    grid += 1;
                    let low = row.p_signflip - row.p_signflip_error;
                    assert!(
                        low <= want + 1e-12 && want <= row.p_signflip + 1e-12,
                        "{who}: [{low}, {}] vs {want}",
                        row.p_signflip
                    );
                }
            }
            // The verdict is the exact p's verdict, or no verdict; the design's floor decides
            // too_few_tasks, the non-tied tasks the smallest reachable p.
            let floor = |k: usize| (2.0 / 2f64.powi(k as i32)).min(1.0);
            assert_eq!((row.design_min_p, row.min_p), (floor(row.n), floor(row.n_nonzero)), "{who}");
            let want_class = if floor(row.n) >= 0.05 {
                Class::TooFewTasks
            } else if want >= 0.05 {
                Class::Ineffective
            } else if row.delta > 0.0 {
                Class::Golden
            } else {
                Class::Harmful
            };
            assert!(
                row.class == want_class || row.class == Class::Undecided,
                "{who}: {:?} vs {want_class:?}",
                row.class
            );
            if row.n <= 5 {
                assert_eq!(row.class, Class::TooFewTasks, "{who}");
            }
        }
    }
    // Rows of up to 20 non-zero units are enumerated (exact); the grid's brackets on the same
    // rows are checked against the enumeration in `signflip::tests`.
    assert!(checked >= 150 && exact + grid == checked, "checked {checked}, exact {exact}, grid {grid}");
}

#[test]
fn float_noise_ties_are_ties_in_every_test() {
    // 0.7 − 0.6 and 0.3 − 0.2 differ from 0.1 in f64; as tests see them they do not.
    let noisy = [(0.6, 0.7), (0.2, 0.3), (0.0, 0.1), (0.9, 0.8), (0.5, 0.5), (0.4, 0.6), (0.1, 0.3), (0.3, 0.5)];
    let clean = [(0.0, 0.1), (0.0, 0.1), (0.0, 0.1), (0.1, 0.0), (0.0, 0.0), (0.0, 0.2), (0.0, 0.2), (0.0, 0.2)];
    let a = Deltas::of_ratios(&noisy);
    let b = Deltas::of_ratios(&clean);
    assert_eq!(a.points, b.points);
    assert_eq!(a.sign_flip(), b.sign_flip());
    assert_eq!(wilcoxon(&a.points), wilcoxon(&b.points));
    assert_eq!(ttest::paired_t(&a.points), ttest::paired_t(&b.points));
    assert_eq!(a.n_nonzero(), 7);
    let fr: Vec<(i128, u128)> = [1, 1, 1, -1, 0, 2, 2, 2].iter().map(|&n| (n, 10)).collect();
    assert!((a.sign_flip().p - brute(&fr).unwrap()).abs() < 1e-15);
}

#[test]
fn pooled_rows_count_each_task_once() {
    // Two configs of the same tasks, some repeated: the pooled row has one unit per task, the
    // mean over its configs of each config's mean over repeats (computed here the plain way).
    let ps = pairs(Design { skills: 1, configs: 2, tasks: 9, seed: 11 });
    let r = analyze(&ps);
    let pooled = &r.skills[0];
    assert_eq!((pooled.n, pooled.n_pairs, pooled.unit_method.as_str()), (9, ps.len(), UNIT_METHOD));
    assert!(r.groups.iter().all(|g| g.n == 9 && g.unit_method == REPEATS_METHOD));
    let mut cells: BTreeMap<&str, BTreeMap<&str, Vec<f64>>> = BTreeMap::new();
    for p in &ps {
        cells.entry(&p.task).or_default().entry(&p.config).or_default().push(p.delta());
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let tasks: Vec<f64> =
        cells.values().map(|c| mean(&c.values().map(|reps| mean(reps)).collect::<Vec<_>>())).collect();
    assert!((pooled.delta - mean(&tasks)).abs() < 1e-9, "{} vs {}", pooled.delta, mean(&tasks));
    assert!(cells.values().flat_map(|c| c.values()).any(|reps| reps.len() > 1), "repeats to average");
    let want = brute(unit_deltas(&ps, pooled).exact.as_ref().unwrap()).unwrap();
    assert!(pooled.p_signflip - pooled.p_signflip_error <= want + 1e-12 && want <= pooled.p_signflip + 1e-12);
}

/// The percentile bootstrap written the plain way: `n` uniform draws per
/// resample (its own stream), sort, NumPy's linear-interpolation rule.
fn plain_bootstrap(d: &[f64], seed: u64) -> (f64, f64) {
    let mut rng = SplitMix64(seed);
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| (0..d.len()).map(|_| d[(rng.next_u64() % d.len() as u64) as usize]).sum::<f64>() / d.len() as f64)
        .collect();
    means.sort_by(f64::total_cmp);
    let q = |q: f64| {
        let pos = q * (means.len() - 1) as f64;
        let lo = pos.floor() as usize;
        means[lo] + (means[(lo + 1).min(means.len() - 1)] - means[lo]) * (pos - lo as f64)
    };
    (q(0.025), q(0.975))
}

#[test]
fn bootstrap_matches_a_plain_implementation() {
    // Different random streams: the CIs agree within Monte-Carlo error
    // (the 2.5% quantile of 10,000 resamples has an SE near 0.7% of the CI width).
    let ps = pairs(Design { skills: 4, configs: 1, tasks: 120, seed: 5 });
    let r = analyze(&ps);
    for g in &r.groups {
        let d = unit_deltas(&ps, g);
        let (lo, hi) = plain_bootstrap(&d.points, SEED ^ 99);
        let w = hi - lo;
        assert!(
            (g.ci_low - lo).abs() < 0.05 * w && (g.ci_high - hi).abs() < 0.05 * w,
            "{}: [{}, {}] vs [{lo}, {hi}]",
            g.skill,
            g.ci_low,
            g.ci_high
        );
        assert_eq!(bootstrap_ci(&d.points, 3), bootstrap_ci(&d.points, 3));
    }
}
