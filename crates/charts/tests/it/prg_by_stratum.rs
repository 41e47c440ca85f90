use crate::common::*;
use skillscope_charts::{prg_by_stratum, EMPTY_MESSAGE};
use skillscope_stats::{Stratum, Summary};

fn fixture() -> Vec<Summary> {
    let mut s = summaries();
    let i = s.iter().position(|x| x.skill == "pdf-forms").unwrap();
    s[i].skill = "mixed".into();
    s[i].prg = 10.0;
    s[i].prg_by_stratum = Stratum { low: Some(50.0), mid: Some(-25.0), high: None, n_low: 3, n_mid: 4, n_high: 0 };
    s
}

/// Bars (rectangles) on the pixel row `y` ± `tol`, excluding the background.
fn bars_near(doc: &roxmltree::Document<'_>, y: f64) -> Vec<R> {
    rects(doc).into_iter().filter(|r| r.w < 400.0 && r.y <= y && y <= r.y + r.h).collect()
}

/// The stratum value text `prefix…` in the group of the row labelled `label`.
fn stratum_text(doc: &roxmltree::Document<'_>, label: &str, prefix: &str) -> Txt {
    let y = text_eq(doc, label).y;
    let found: Vec<Txt> =
        texts(doc).into_iter().filter(|t| t.text.starts_with(prefix) && (t.y - y).abs() < 24.0).collect();
    assert_eq!(found.len(), 1, "{label} {prefix}: {found:?}");
    found[0].clone()
}

#[test]
fn axis_unit_zero_line_and_n_per_stratum() {
    let s = fixture();
    let svg = prg_by_stratum(&s);
    let doc = parse(&svg);
    text_eq(&doc, "PRG (pass-rate gain, points, −100 to 100)");
    assert_eq!(tick_xs(&doc, "-100").len(), 1);
    assert_eq!(tick_xs(&doc, "100").len(), 1);
    assert_eq!(zero_lines_at_zero_tick(&doc, 50.0), 1);
    let mixed = format!("mixed (n={})", get(&s, "mixed").n);
    assert_eq!(stratum_text(&doc, &mixed, "low").text, "low n=3: +50.0");
    assert_eq!(stratum_text(&doc, &mixed, "mid").text, "mid n=4: -25.0");
    assert_eq!(stratum_text(&doc, &mixed, "high").text, "high n=0: —");
    let total: usize =
        s.iter().map(|x| x.prg_by_stratum.n_low + x.prg_by_stratum.n_mid + x.prg_by_stratum.n_high).sum();
    assert!(title(&doc).contains(&format!("(n = {total} pairs)")), "{}", title(&doc));
}

#[test]
fn bars_are_coloured_by_sign_and_shaded_by_stratum() {
    let s = fixture();
    let svg = prg_by_stratum(&s);
    let doc = parse(&svg);
    let mixed = format!("mixed (n={})", get(&s, "mixed").n);
    let x0 = tick_xs(&doc, "0")[0];
    let x1 = tick_xs(&doc, "100")[0];
    let low = bars_near(&doc, stratum_text(&doc, &mixed, "low").y);
    assert_eq!(low.len(), 1);
    assert_eq!(low[0].fill, green());
    assert!((low[0].x - x0).abs() <= 1.0 && (low[0].w - 0.5 * (x1 - x0)).abs() <= 1.5);
    let mid = bars_near(&doc, stratum_text(&doc, &mixed, "mid").y);
    assert_eq!(mid.len(), 1);
    assert_eq!(mid[0].fill, red());
    assert!(low[0].opacity < mid[0].opacity, "strata differ in shade");
    assert!(bars_near(&doc, stratum_text(&doc, &mixed, "high").y).is_empty());
    // The harmful skill's high stratum is negative: red, full shade.
    let legacy = get(&s, "legacy");
    let v = legacy.prg_by_stratum.high.unwrap();
    assert!(v < 0.0);
    let t = stratum_text(&doc, &format!("legacy (n={})", legacy.n), "high");
    assert_eq!(t.text, format!("high n={}: {:.1}", legacy.prg_by_stratum.n_high, v));
    let bar = bars_near(&doc, t.y);
    assert_eq!(bar.len(), 1);
    assert_eq!(bar[0].fill, red());
    assert_eq!(bar[0].opacity, 1.0);
}

#[test]
fn hostile_names_are_escaped() {
    assert_escaped(&prg_by_stratum(&fixture()));
}

#[test]
fn deterministic_and_independent_of_input_order() {
    let s = fixture();
    let a = prg_by_stratum(&s);
    assert_eq!(a, prg_by_stratum(&s));
    let mut r = s.clone();
    r.reverse();
    assert_eq!(a, prg_by_stratum(&r));
}

#[test]
fn empty_input_says_so() {
    let mut none = fixture();
    for s in &mut none {
        s.prg_by_stratum = Stratum::default();
    }
    for input in [Vec::new(), none] {
        let svg = prg_by_stratum(&input);
        text_eq(&parse(&svg), EMPTY_MESSAGE);
    }
}
