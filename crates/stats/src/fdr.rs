//! Benjamini–Hochberg false-discovery-rate adjustment.
//!
//! `q_(i) = min_{j ≥ i} min(1, m · p_(j) / j)` over p-values sorted
//! ascending (step-up), returned in the input order. Identical to SciPy's
//! `false_discovery_control(p, method="bh")`.

/// BH q-values for `p` (same order as the input).
pub fn bh(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut idx: Vec<usize> = (0..m).collect();
    idx.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut q = vec![0.0; m];
    let mut running = 1.0f64;
    for (rank, &i) in idx.iter().enumerate().rev() {
        let v = (p[i] * m as f64 / (rank + 1) as f64).min(1.0);
        running = running.min(v);
        q[i] = running;
    }
    q
}

#[cfg(test)]
mod tests {
    #[test]
    fn bh_small() {
        let q = super::bh(&[0.01, 0.04, 0.03, 0.5]);
        assert!((q[0] - 0.04).abs() < 1e-15);
        assert!((q[1] - 0.053_333_333_333_333_33).abs() < 1e-12, "{q:?}");
        assert!((q[2] - 0.053_333_333_333_333_33).abs() < 1e-12);
        assert!((q[3] - 0.5).abs() < 1e-15);
    }
}
