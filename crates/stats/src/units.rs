//! Units and their deltas, one home for how every test sees them.
//!
//! A unit is a task. A row's pairs of one task form its *cells*, one per configuration and
//! condition it ran under, each holding that cell's repeats. A unit's value (delta, and each
//! arm's score) is the mean over its cells of each cell's mean over its repeats, so a cell run
//! three times weighs as much as one run once, and a task run under several configurations is
//! one unit, not one per configuration ([`UNIT_METHOD`]). In a group row (one configuration and
//! condition) every unit has one cell: the mean over its repeats ([`REPEATS_METHOD`]).
//!
//! A unit's delta is computed once, here, and every test (sign-flip, Wilcoxon, t, bootstrap,
//! power) uses the same numbers, so deltas equal in decimal are equal (and zero) in all of them:
//!
//! * Each pass ratio is recovered as a fraction with denominator ≤
//!   [`MAX_DENOMINATOR`](crate::rational::MAX_DENOMINATOR) (continued fractions, accepted only
//!   within 1e-12 of the `f64`). A unit's delta is then the exact fraction of the nested mean of
//!   `with − without` above, reduced, and its value in points is `100·num / den` rounded once to
//!   `f64` (equal fractions give bit-equal points: `0.7 − 0.6` and `0.1 − 0` are the same delta).
//! * If any ratio of the set is not such a fraction, the deltas in points are
//!   rounded to a grid of 1e-9 points instead (float noise far below it
//!   vanishes), and the sign-flip test takes its grid path.

use crate::pair::Pair;
use crate::power::Mde;
use crate::rational::{exact_delta, mean};
use crate::signflip::{exact_items, float_items, sign_flip_items, Item, SignFlip};
use std::collections::BTreeMap;

/// Grid of the deltas (points) when they are not all fractions.
pub const FLOAT_GRID: f64 = 1e-9;
/// How a unit is formed when some task of the row ran under more than one configuration or
/// condition.
pub const UNIT_METHOD: &str = "per task: mean over its configurations and conditions of each one's mean over repeats";
/// How a unit is formed when every task of the row ran under one configuration and condition.
pub const REPEATS_METHOD: &str = "per task: mean over its repeats";

/// One task's pairs: a cell per configuration and condition, each the pairs of its repeats.
pub type Unit<'a> = Vec<Vec<&'a Pair>>;

/// A task's cells by configuration and condition.
type Cells<'a> = BTreeMap<(&'a str, Option<&'a str>), Vec<&'a Pair>>;

/// A row's pairs as units, in task order (cells in configuration, condition order).
pub fn units_of<'a>(pairs: &[&'a Pair]) -> Vec<Unit<'a>> {
    let mut tasks: BTreeMap<&str, Cells<'a>> = BTreeMap::new();
    for p in pairs {
        tasks.entry(&p.task).or_default().entry((&p.config, p.condition.as_deref())).or_default().push(p);
    }
    tasks.into_values().map(|cells| cells.into_values().collect()).collect()
}

/// What [`units_of`] made of a row: [`UNIT_METHOD`] or [`REPEATS_METHOD`].
pub fn method_of(units: &[Unit<'_>]) -> &'static str {
    if units.iter().any(|u| u.len() > 1) {
        UNIT_METHOD
    } else {
        REPEATS_METHOD
    }
}

/// The unit's mean of `f` over its cells, each cell's own mean over its repeats first.
pub fn unit_mean(unit: &Unit<'_>, f: impl Fn(&Pair) -> f64) -> f64 {
    let cell = |c: &Vec<&Pair>| c.iter().map(|p| f(p)).sum::<f64>() / c.len() as f64;
    unit.iter().map(cell).sum::<f64>() / unit.len() as f64
}

/// [`unit_mean`] of `with − without` as an exact fraction, when every ratio is one.
fn exact_unit_delta(unit: &Unit<'_>) -> Option<(i128, u128)> {
    mean(unit.iter().map(|cell| exact_delta(cell)))
}

/// The deltas of a set of units.
#[derive(Debug, Clone, PartialEq)]
pub struct Deltas {
    /// `100 × (with − without)` per unit, points.
    pub points: Vec<f64>,
    /// The same deltas in pass-ratio units as reduced fractions
    /// `(numerator, denominator)`, when every ratio is a fraction.
    pub exact: Option<Vec<(i128, u128)>>,
}

impl Deltas {
    /// Deltas of units (see the module docs).
    pub fn of_units(units: &[Unit<'_>]) -> Deltas {
        let exact: Option<Vec<(i128, u128)>> = units.iter().map(exact_unit_delta).collect();
        let points = match &exact {
            Some(fr) => fr.iter().map(|&(n, d)| (100 * n) as f64 / d as f64).collect(),
            None => units.iter().map(|u| (unit_mean(u, Pair::delta) / FLOAT_GRID).round() * FLOAT_GRID).collect(),
        };
        Deltas { points, exact }
    }

    /// Deltas of single pairs `(without, with)`, one unit each.
    pub fn of_ratios(pairs: &[(f64, f64)]) -> Deltas {
        let ps: Vec<Pair> = pairs.iter().map(|&(wo, wi)| Pair::new("", "", "", wo, wi)).collect();
        let units: Vec<Unit<'_>> = ps.iter().map(|p| vec![vec![p]]).collect();
        Deltas::of_units(&units)
    }

    /// The non-zero deltas as sign-flip items (exact fractions when known)
    /// and the points per unit of their magnitudes.
    pub(crate) fn items(&self) -> (Vec<Item>, f64) {
        match &self.exact {
            Some(fr) => (exact_items(fr), 100.0),
            None => float_items(&self.points),
        }
    }

    /// The sign-flip test on these deltas.
    pub fn sign_flip(&self) -> SignFlip {
        sign_flip_items(&self.items().0)
    }

    /// Minimum detectable effect of the sign-flip test, points.
    pub fn mde(&self) -> Option<Mde> {
        let (items, points) = self.items();
        crate::power::mde(self.points.len(), &items, points)
    }

    /// Units whose delta is not zero.
    pub fn n_nonzero(&self) -> usize {
        self.points.iter().filter(|d| **d != 0.0).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_equal_deltas_are_bit_equal() {
        let d = Deltas::of_ratios(&[(0.6, 0.7), (0.0, 0.1), (0.2, 0.3), (0.3, 0.3)]);
        assert_eq!(d.exact.as_deref(), Some(&[(1, 10), (1, 10), (1, 10), (0, 1)][..]));
        assert_eq!(d.points, vec![10.0, 10.0, 10.0, 0.0]);
        assert_ne!(0.7 - 0.6, 0.1 - 0.0, "the float noise this guards against");
        // Not fractions: the 1e-9 grid still makes them equal.
        let x = std::f64::consts::FRAC_1_SQRT_2;
        let f = Deltas::of_ratios(&[(x - 0.5, x), (0.5, 1.0)]);
        assert!(f.exact.is_none());
        assert_eq!(f.points[0], f.points[1]);
    }

    #[test]
    fn repeats_average_exactly() {
        let a = Pair::new("s", "c", "t", 1.0 / 3.0, 2.0 / 3.0);
        let b = Pair::new("s", "c", "t", 0.5, 0.75);
        let d = Deltas::of_units(&[vec![vec![&a, &b]]]);
        // (1/3 + 1/4) / 2 = 7/24.
        assert_eq!(d.exact.as_deref(), Some(&[(7, 24)][..]));
    }

    /// A task under two configurations, one run three times and one once: each configuration's
    /// repeats are averaged first, so the single run weighs half, not a quarter.
    #[test]
    fn configurations_weigh_alike_whatever_their_repeats() {
        let rep = |config: &str, r: u32, wi: f64| Pair { repeat: Some(r), ..Pair::new("s", config, "t", 0.0, wi) };
        let pairs = [rep("a", 0, 1.0), rep("a", 1, 1.0), rep("a", 2, 1.0), rep("b", 0, 0.0)];
        let refs: Vec<&Pair> = pairs.iter().collect();
        let units = units_of(&refs);
        assert_eq!(units.len(), 1, "one task, one unit");
        assert_eq!(method_of(&units), UNIT_METHOD);
        let d = Deltas::of_units(&units);
        // (1 + 0) / 2, not (1 + 1 + 1 + 0) / 4.
        assert_eq!(d.exact.as_deref(), Some(&[(1, 2)][..]));
        assert_eq!(unit_mean(&units[0], |p| p.with), 0.5);
        // Not fractions: the float path averages the same way.
        let x = std::f64::consts::FRAC_1_SQRT_2;
        let pairs = [rep("a", 0, x), rep("a", 1, x), rep("a", 2, x), rep("b", 0, 0.0)];
        let refs: Vec<&Pair> = pairs.iter().collect();
        let f = Deltas::of_units(&units_of(&refs));
        assert!(f.exact.is_none());
        assert!((f.points[0] - 50.0 * x).abs() < 1e-9, "{:?}", f.points);
    }
}
