//! Exact fractions: pass ratios recovered as fractions, and unit deltas as reduced fractions, so
//! that deltas equal in decimal are equal in every test.

use crate::pair::Pair;

/// Largest denominator accepted when recovering a pass ratio as a fraction.
pub const MAX_DENOMINATOR: u64 = 10_000;

pub(crate) fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// `mean(with − without)` over the repeats as a reduced fraction.
pub(crate) fn exact_delta(ps: &[&Pair]) -> Option<(i128, u128)> {
    mean(ps.iter().map(|p| pair_delta(p)))
}

/// `with − without` of one pair as a reduced fraction.
fn pair_delta(p: &Pair) -> Option<(i128, u128)> {
    let (a, b) = rationalize(p.without, MAX_DENOMINATOR)?;
    let (c, e) = rationalize(p.with, MAX_DENOMINATOR)?;
    Some(reduce(c * b as i128 - a * e as i128, b * e))
}

/// The mean of fractions as a reduced fraction; `None` if any is `None`, there are none, or the
/// arithmetic overflows.
pub(crate) fn mean(fracs: impl IntoIterator<Item = Option<(i128, u128)>>) -> Option<(i128, u128)> {
    let (mut num, mut den, mut count): (i128, u128, u128) = (0, 1, 0);
    for f in fracs {
        let (dn, dd) = f?;
        // num/den + dn/dd
        let l = (den / gcd(den, dd)).checked_mul(dd)?;
        num = num.checked_mul((l / den) as i128)?.checked_add(dn.checked_mul((l / dd) as i128)?)?;
        (num, den) = reduce(num, l);
        count += 1;
    }
    if count == 0 {
        return None;
    }
    Some(reduce(num, den.checked_mul(count)?))
}

fn reduce(num: i128, den: u128) -> (i128, u128) {
    if num == 0 {
        return (0, 1);
    }
    let g = gcd(num.unsigned_abs(), den);
    (num / g as i128, den / g)
}

/// Best rational approximation with denominator ≤ `max_den` that equals `x`
/// within 1e-12; `None` otherwise. Returns `(numerator, denominator)`.
pub fn rationalize(x: f64, max_den: u64) -> Option<(i128, u128)> {
    if !x.is_finite() {
        return None;
    }
    let neg = x < 0.0;
    let ax = x.abs();
    // Continued-fraction convergents h/k.
    let (mut h0, mut h1): (i128, i128) = (0, 1);
    let (mut k0, mut k1): (i128, i128) = (1, 0);
    let mut r = ax;
    for _ in 0..64 {
        let a = r.floor();
        if a > 1e15 {
            break;
        }
        let ai = a as i128;
        let h2 = ai * h1 + h0;
        let k2 = ai * k1 + k0;
        if k2 > max_den as i128 {
            break;
        }
        if (ax - h2 as f64 / k2 as f64).abs() <= 1e-12 {
            let n = if neg { -h2 } else { h2 };
            return Some((n, k2 as u128));
        }
        h0 = h1;
        h1 = h2;
        k0 = k1;
        k1 = k2;
        let frac = r - a;
        if frac <= 0.0 {
            break;
        }
        r = 1.0 / frac;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rationalize_works() {
        assert_eq!(rationalize(1.0 / 3.0, 10_000), Some((1, 3)));
        assert_eq!(rationalize(0.0, 10_000), Some((0, 1)));
        assert_eq!(rationalize(1.0, 10_000), Some((1, 1)));
        assert_eq!(rationalize(std::f64::consts::PI / 4.0, 10_000), None);
    }
}
