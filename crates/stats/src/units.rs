//! Unit deltas, one home for how every test sees them.
//!
//! A unit is a paired task (its repeats averaged). Its delta is computed
//! once, here, and every test (sign-flip, Wilcoxon, t, bootstrap, power)
//! uses the same numbers, so deltas equal in decimal are equal (and zero)
//! in all of them:
//!
//! * Each pass ratio is recovered as a fraction with denominator ≤
//!   [`MAX_DENOMINATOR`] (continued fractions, accepted only within 1e-12 of
//!   the `f64`). A unit's delta is then the exact fraction
//!   `mean(with − without)` over its repeats, reduced, and its value in
//!   points is `100·num / den` rounded once to `f64` (equal fractions give
//!   bit-equal points: `0.7 − 0.6` and `0.1 − 0` are the same delta).
//! * If any ratio of the set is not such a fraction, the deltas in points are
//!   rounded to a grid of 1e-9 points instead (float noise far below it
//!   vanishes), and the sign-flip test takes its grid path.

use crate::pair::Pair;
use crate::rational::exact_delta;
use crate::signflip::{exact_items, float_items, sign_flip_items, Item, SignFlip};

/// Grid of the deltas (points) when they are not all fractions.
pub const FLOAT_GRID: f64 = 1e-9;

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
    /// Deltas of units given as their pairs (repeats of one task together).
    pub fn of_units<'a>(units: impl IntoIterator<Item = &'a [&'a Pair]> + Clone) -> Deltas {
        let exact: Option<Vec<(i128, u128)>> = units.clone().into_iter().map(exact_delta).collect();
        let points = match &exact {
            Some(fr) => fr.iter().map(|&(n, d)| (100 * n) as f64 / d as f64).collect(),
            None => units
                .into_iter()
                .map(|ps| {
                    let d = ps.iter().map(|p| p.delta()).sum::<f64>() / ps.len() as f64;
                    (d / FLOAT_GRID).round() * FLOAT_GRID
                })
                .collect(),
        };
        Deltas { points, exact }
    }

    /// Deltas of single pairs `(without, with)`, one unit each.
    pub fn of_ratios(pairs: &[(f64, f64)]) -> Deltas {
        let ps: Vec<Pair> = pairs.iter().map(|&(wo, wi)| Pair::new("", "", "", wo, wi)).collect();
        let units: Vec<[&Pair; 1]> = ps.iter().map(|p| [p]).collect();
        Deltas::of_units(units.iter().map(|u| &u[..]))
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
    pub fn mde(&self) -> Option<f64> {
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
        let d = Deltas::of_units([&[&a, &b][..]]);
        // (1/3 + 1/4) / 2 = 7/24.
        assert_eq!(d.exact.as_deref(), Some(&[(7, 24)][..]));
    }
}
