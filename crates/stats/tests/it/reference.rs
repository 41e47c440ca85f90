//! Compare against independent reference values produced by
//! `fixtures/stats/make_reference.py` (SciPy / exact Python arithmetic).

use serde_json::Value;
use skillscope_stats::signflip::{sign_flip_deltas, SignFlipMethod};
use skillscope_stats::units::Deltas;
use skillscope_stats::wilcoxon::wilcoxon;
use skillscope_stats::{analyze, fdr, special, ttest, Pair};

fn reference() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/stats/reference.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("reference.json")).unwrap()
}

fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!((a - b).abs() <= tol, "{what}: got {a}, want {b} (diff {})", (a - b).abs());
}

fn pairs_of(c: &Value) -> Vec<(f64, f64)> {
    c["pairs"].as_array().unwrap().iter().map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap())).collect()
}

#[test]
fn cases_match_reference() {
    let r = reference();
    let cases = r["cases"].as_array().unwrap();
    assert!(cases.len() >= 30);
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let pairs = pairs_of(c);
        // Raw float deltas (with float noise) for the grid path; every other
        // test sees the unit deltas, as `analyze` does.
        let raw: Vec<f64> = pairs.iter().map(|(a, b)| 100.0 * (b - a)).collect();
        let d = Deltas::of_ratios(&pairs).points;
        // Sign-flip: rational path and grid path.
        let want = c["p_signflip"].as_f64().unwrap();
        let sf = Deltas::of_ratios(&pairs).sign_flip();
        assert_eq!(sf.method, SignFlipMethod::Exact, "{name}");
        close(sf.p, want, 1e-9, &format!("{name} signflip"));
        // Grid path (real-valued deltas): a selection of integer deltas,
        // ties, thirds, n = 10, 20, 40 and 200. Its bracket must contain the
        // reference.
        let grid_cases = [
            "one_nonzero",
            "n2",
            "six_positive_four_zero",
            "thirds",
            "ties_all_equal_abs",
            "no_ties_n12",
            "random_n10_16",
            "random_n20_20",
            "random_n40_25",
            "n200_dense",
        ];
        if grid_cases.contains(&name) {
            let g = sign_flip_deltas(&raw);
            assert!(g.p_low() <= want + 1e-12 && want <= g.p + 1e-12, "{name}: grid bounds {g:?} vs {want}");
            assert!(g.error <= 0.005_f64.max(g.p / 20.0) || g.straddles(0.05), "{name}: {g:?}");
        }
        // Wilcoxon vs the independent exact midrank value and SciPy.
        let (pw, _) = wilcoxon(&d);
        close(pw, c["p_wilcoxon_exact_midrank"].as_f64().unwrap(), 1e-9, &format!("{name} wilcoxon"));
        if let Some(s) = c["p_wilcoxon_scipy"].as_f64() {
            close(pw, s, 1e-9, &format!("{name} wilcoxon scipy"));
        }
        // t-test.
        let pt = ttest::paired_t(&d);
        match c["p_ttest_scipy"].as_f64() {
            Some(s) => close(pt, s, 1e-9, &format!("{name} ttest")),
            None => assert_eq!(pt, 1.0, "{name}: degenerate t-test documented as p = 1"),
        }
        let (mean, sd) = ttest::mean_sd(&d);
        close(mean, c["mean_delta"].as_f64().unwrap(), 1e-9, name);
        close(sd, c["sd_delta"].as_f64().unwrap(), 1e-9, name);
    }
}

#[test]
fn bh_matches_scipy() {
    let r = reference();
    for c in r["bh"].as_array().unwrap() {
        let p: Vec<f64> = c["p"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        let q: Vec<f64> = c["q"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        for (a, b) in fdr::bh(&p).iter().zip(&q) {
            close(*a, *b, 1e-12, "bh");
        }
    }
}

#[test]
fn t_quantiles_match_scipy() {
    let r = reference();
    for c in r["t_quantiles"].as_array().unwrap() {
        let (p, df, q) = (c["p"].as_f64().unwrap(), c["df"].as_f64().unwrap(), c["q"].as_f64().unwrap());
        close(special::t_quantile(p, df), q, 1e-9 * q.abs().max(1.0), "t quantile");
    }
}

#[test]
fn analyze_matches_reference() {
    let r = reference();
    let a = &r["analyze"];
    let pairs: Vec<Pair> = a["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            Pair::new(
                p["skill"].as_str().unwrap(),
                p["config"].as_str().unwrap(),
                p["task"].as_str().unwrap(),
                p["without"].as_f64().unwrap(),
                p["with"].as_f64().unwrap(),
            )
        })
        .collect();
    let rep = analyze(&pairs);
    let json = serde_json::to_value(&rep).unwrap();
    assert_eq!(json["overall"]["n_pairs"], a["overall"]["n_pairs"]);
    for k in ["mean_without", "mean_with", "delta"] {
        close(json["overall"][k].as_f64().unwrap(), a["overall"][k].as_f64().unwrap(), 1e-9, k);
    }
    for fam in ["groups", "skills"] {
        let got = json[fam].as_array().unwrap();
        let want = a[fam].as_array().unwrap();
        assert_eq!(got.len(), want.len(), "{fam}");
        for (g, w) in got.iter().zip(want) {
            let who = format!("{fam} {} {}", w["skill"], w["config"]);
            assert_eq!(g["skill"], w["skill"], "{who}");
            assert_eq!(g["config"], w["config"], "{who}");
            assert_eq!(g["n"], w["n"], "{who}");
            assert_eq!(g["class"], w["class"], "{who}");
            for k in ["mean_without", "mean_with", "delta", "p_signflip", "p_wilcoxon", "q_bh"] {
                close(g[k].as_f64().unwrap(), w[k].as_f64().unwrap(), 1e-9, &format!("{who} {k}"));
            }
            let pt = g["p_ttest"].as_f64().unwrap();
            match w["p_ttest"].as_f64() {
                Some(s) => close(pt, s, 1e-9, &format!("{who} p_ttest")),
                None => assert_eq!(pt, 1.0),
            }
            let (lo, hi) = (g["ci_low"].as_f64().unwrap(), g["ci_high"].as_f64().unwrap());
            let d = g["delta"].as_f64().unwrap();
            assert!(lo <= d && d <= hi, "{who}: CI [{lo}, {hi}] excludes {d}");
        }
    }
}
