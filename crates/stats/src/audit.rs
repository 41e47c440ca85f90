//! SkillAudit measures (utility, efficiency, cost, ceiling).
//!
//! All computed on the raw pairs of a summary (every repeat counts):
//!
//! * **PRG** (pass-rate gain) = `mean(100 × (with − without))` over pairs,
//!   in points (−100..100), the unit of the summary's `delta`. PRG carries no
//!   test of its own: its verdict is the summary's class, which with
//!   SkillAudit's usual 3 scenarios is `too_few_tasks` (the smallest
//!   reachable sign-flip p is 2/2³ = 0.25).
//! * **EG** (efficiency gain) = mean over *eligible* pairs of the symmetric
//!   relative time saving `(t_without − t_with) / max(t_without, t_with)`,
//!   in `[−1, 1]`; positive = the skill saves time. Eligible: both runs pass
//!   at least something (`without > 0` and `with > 0`), both times present,
//!   non-negative and not both zero.
//! * **CG** (cost gain) = the same with effective input tokens
//!   (input − cached).
//! * **ECG** = `0.5 · EG + 0.5 · CG` (α = 0.5); only when both exist.
//! * **Ceiling rate** = share of pairs with `without = 1.0` (the no-skill run
//!   already passes everything, so no gain is possible).
//! * **PRG by stratum** of the no-skill baseline: low `without < 0.5`,
//!   mid `0.5 ≤ without ≤ 0.8`, high `without > 0.8`; `None` for an empty
//!   stratum.

use crate::pair::Pair;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// PRG per baseline stratum.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export, rename = "StatsStratum")]
pub struct Stratum {
    /// Mean PRG (points) of pairs with `without < 0.5`.
    pub low: Option<f64>,
    /// Mean PRG of pairs with `0.5 ≤ without ≤ 0.8`.
    pub mid: Option<f64>,
    /// Mean PRG of pairs with `without > 0.8`.
    pub high: Option<f64>,
    pub n_low: usize,
    pub n_mid: usize,
    pub n_high: usize,
}

/// SkillAudit measures of a set of pairs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Audit {
    pub prg: f64,
    pub eg: Option<f64>,
    pub cg: Option<f64>,
    pub ecg: Option<f64>,
    pub n_eg: usize,
    pub n_cg: usize,
    pub ceiling_rate: f64,
    pub prg_by_stratum: Stratum,
}

/// Symmetric relative saving `(wo − wi) / max(wo, wi)`; `None` if not defined.
pub fn relative_saving(wo: Option<f64>, wi: Option<f64>) -> Option<f64> {
    let (wo, wi) = (wo?, wi?);
    if !(wo >= 0.0 && wi >= 0.0) {
        return None;
    }
    let m = wo.max(wi);
    if m <= 0.0 {
        return None;
    }
    Some((wo - wi) / m)
}

fn mean_opt(sum: f64, n: usize) -> Option<f64> {
    (n > 0).then(|| sum / n as f64)
}

/// Compute the SkillAudit measures of `pairs`.
pub fn audit<'a>(pairs: impl IntoIterator<Item = &'a Pair>) -> Audit {
    let (mut n, mut prg, mut ceil) = (0usize, 0.0, 0usize);
    let (mut eg, mut n_eg, mut cg, mut n_cg) = (0.0, 0usize, 0.0, 0usize);
    let mut st = [(0.0f64, 0usize); 3];
    for p in pairs {
        n += 1;
        let g = p.delta();
        prg += g;
        if p.without >= 1.0 {
            ceil += 1;
        }
        let s = if p.without < 0.5 {
            0
        } else if p.without <= 0.8 {
            1
        } else {
            2
        };
        st[s].0 += g;
        st[s].1 += 1;
        if p.without > 0.0 && p.with > 0.0 {
            if let Some(v) = relative_saving(p.time_without, p.time_with) {
                eg += v;
                n_eg += 1;
            }
            if let Some(v) = relative_saving(p.tokens_without, p.tokens_with) {
                cg += v;
                n_cg += 1;
            }
        }
    }
    let eg = mean_opt(eg, n_eg);
    let cg = mean_opt(cg, n_cg);
    Audit {
        prg: if n > 0 { prg / n as f64 } else { 0.0 },
        eg,
        cg,
        ecg: match (eg, cg) {
            (Some(e), Some(c)) => Some(0.5 * e + 0.5 * c),
            _ => None,
        },
        n_eg,
        n_cg,
        ceiling_rate: if n > 0 { ceil as f64 / n as f64 } else { 0.0 },
        prg_by_stratum: Stratum {
            low: mean_opt(st[0].0, st[0].1),
            mid: mean_opt(st[1].0, st[1].1),
            high: mean_opt(st[2].0, st[2].1),
            n_low: st[0].1,
            n_mid: st[1].1,
            n_high: st[2].1,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(wo: f64, wi: f64, t: (f64, f64), k: (f64, f64)) -> Pair {
        let mut x = Pair::new("s", "c", "t", wo, wi);
        x.time_without = Some(t.0);
        x.time_with = Some(t.1);
        x.tokens_without = Some(k.0);
        x.tokens_with = Some(k.1);
        x
    }

    #[test]
    fn formulas() {
        let pairs = vec![
            p(0.2, 0.6, (100.0, 50.0), (1000.0, 2000.0)), // low; eg .5, cg -.5
            p(1.0, 1.0, (10.0, 20.0), (10.0, 10.0)),      // high, ceiling; eg -.5, cg 0
            p(0.0, 1.0, (10.0, 1.0), (10.0, 1.0)),        // low; not eligible
            p(0.6, 0.3, (5.0, 5.0), (0.0, 0.0)),          // mid; eg 0, cg undefined
        ];
        let a = audit(&pairs);
        assert!((a.prg - (40.0 + 0.0 + 100.0 - 30.0) / 4.0).abs() < 1e-12);
        assert_eq!(a.n_eg, 3);
        assert_eq!(a.n_cg, 2);
        assert!((a.eg.unwrap() - 0.0).abs() < 1e-15);
        assert!((a.cg.unwrap() - (-0.25)).abs() < 1e-15);
        assert!((a.ecg.unwrap() - (-0.125)).abs() < 1e-15);
        assert!((a.ceiling_rate - 0.25).abs() < 1e-15);
        let s = &a.prg_by_stratum;
        assert!((s.low.unwrap() - 70.0).abs() < 1e-12);
        assert!((s.mid.unwrap() + 30.0).abs() < 1e-12);
        assert_eq!(s.high, Some(0.0));
        assert_eq!((s.n_low, s.n_mid, s.n_high), (2, 1, 1));
        let none = audit(&[Pair::new("s", "c", "t", 0.5, 0.5)]);
        assert_eq!((none.eg, none.cg, none.ecg), (None, None, None));
    }
}
