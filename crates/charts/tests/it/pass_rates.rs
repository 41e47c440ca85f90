use crate::common::*;
use skillscope_charts::{pass_rates, style, EMPTY_MESSAGE};
use skillscope_stats::Summary;

#[test]
fn axis_unit_range_and_n() {
    let svg = pass_rates(&summaries());
    let doc = parse(&svg);
    text_eq(&doc, "Pass rate (points, 0–100)");
    assert_eq!(tick_xs(&doc, "0").len(), 1);
    assert_eq!(tick_xs(&doc, "100").len(), 1);
    text_eq(&doc, "pdf-forms (n=10)");
    text_eq(&doc, "legacy (n=8)");
    text_eq(&doc, "<script>& (n=6)");
    assert!(title(&doc).contains("(n = 24 pairs)"));
}

#[test]
fn dumbbells_sit_at_both_rates_coloured_by_class() {
    let s = summaries();
    let svg = pass_rates(&s);
    let doc = parse(&svg);
    let x0 = tick_xs(&doc, "0")[0];
    let x100 = tick_xs(&doc, "100")[0];
    let ring = style::hex(style::INEFFECTIVE);
    for (skill, label, colour) in [
        ("pdf-forms", "pdf-forms (n=10)", green()),
        ("legacy", "legacy (n=8)", red()),
        (HOSTILE, "<script>& (n=6)", grey()),
    ] {
        let g = get(&s, skill);
        let y = text_eq(&doc, label).y;
        let row: Vec<_> = circles(&doc).into_iter().filter(|c| (c.1 - y).abs() < 0.5).collect();
        let without = row.iter().find(|c| c.3 == ring && c.2 == "none").expect("hollow without-skill ring");
        let with = row.iter().find(|c| c.2 == colour).expect("with-skill dot in class colour");
        assert!((without.0 - lerp(g.mean_without, (0.0, x0), (100.0, x100))).abs() <= 1.5);
        assert!((with.0 - lerp(g.mean_with, (0.0, x0), (100.0, x100))).abs() <= 1.5);
        // The joining line has the class colour and spans both dots.
        let line = polylines(&doc)
            .into_iter()
            .find(|(c, p)| *c == colour && p.len() == 2 && (p[0].1 - y).abs() < 0.5)
            .expect("joining line");
        let (l, r) = (line.1[0].0.min(line.1[1].0), line.1[0].0.max(line.1[1].0));
        assert!((l - without.0.min(with.0)).abs() <= 1.0 && (r - without.0.max(with.0)).abs() <= 1.0);
        text_eq(&doc, &format!("{:.0} → {:.0}", g.mean_without, g.mean_with));
    }
}

#[test]
fn hostile_names_are_escaped() {
    assert_escaped(&pass_rates(&summaries()));
}

#[test]
fn deterministic_and_independent_of_input_order() {
    let s = summaries();
    let a = pass_rates(&s);
    assert_eq!(a, pass_rates(&s));
    let mut r = s.clone();
    r.reverse();
    assert_eq!(a, pass_rates(&r));
}

#[test]
fn empty_input_says_so() {
    let doc_src = pass_rates(&Vec::<Summary>::new());
    text_eq(&parse(&doc_src), EMPTY_MESSAGE);
}
