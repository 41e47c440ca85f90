use crate::common::*;
use skillscope_charts::{skill_deltas, skill_deltas_sized, EMPTY_MESSAGE};
use skillscope_stats::Summary;

#[test]
fn is_svg_with_axis_unit_and_n_per_row() {
    let s = summaries();
    let svg = skill_deltas(&s);
    let doc = parse(&svg);
    text_eq(&doc, "Mean Δ (points, with − without skill)");
    text_eq(&doc, "pdf-forms (n=10)");
    text_eq(&doc, "legacy (n=8)");
    text_eq(&doc, "<script>& (n=6)");
    assert!(title(&doc).contains("(n = 24 pairs)"), "{}", title(&doc));
    assert!(has_text(&doc, "(n = 24 pairs)"));
}

#[test]
fn zero_line_sits_at_zero() {
    let doc_src = skill_deltas(&summaries());
    let doc = parse(&doc_src);
    assert_eq!(zero_lines_at_zero_tick(&doc, 50.0), 1);
}

#[test]
fn rows_are_sorted_and_coloured_by_class() {
    let s = summaries();
    let svg = skill_deltas(&s);
    let doc = parse(&svg);
    let rows = [("pdf-forms (n=10)", green()), ("<script>& (n=6)", grey()), ("legacy (n=8)", red())];
    let mut last_y = f64::NEG_INFINITY;
    for (label, colour) in rows {
        let t = text_eq(&doc, label);
        assert!(t.y > last_y, "sorted by delta, largest first: {label}");
        last_y = t.y;
        let dots: Vec<_> = circles(&doc).into_iter().filter(|c| (c.1 - t.y).abs() < 0.5).collect();
        assert_eq!(dots.len(), 1, "one point per row: {label}");
        assert_eq!(dots[0].2, colour, "{label}");
    }
}

#[test]
fn point_and_ci_are_drawn_at_their_values() {
    let s = summaries();
    let svg = skill_deltas(&s);
    let doc = parse(&svg);
    let zero = tick_xs(&doc, "0")[0];
    let (b, xb) = texts(&doc)
        .into_iter()
        .filter(|t| t.dy == "0.76em" && t.text != "0")
        .map(|t| (t.text.parse::<f64>().unwrap(), t.x))
        .next()
        .unwrap();
    let g = get(&s, "pdf-forms");
    let row_y = text_eq(&doc, "pdf-forms (n=10)").y;
    let dot = circles(&doc).into_iter().find(|c| (c.1 - row_y).abs() < 0.5).unwrap();
    let want = lerp(g.delta, (0.0, zero), (b, xb));
    assert!((dot.0 - want).abs() <= 1.5, "dot at {} want {want}", dot.0);
    // The CI is a horizontal line in the class colour from ci_low to ci_high.
    let ci = polylines(&doc)
        .into_iter()
        .find(|(c, p)| *c == green() && p.len() == 2 && p[0].1 == p[1].1 && (p[0].1 - row_y).abs() < 0.5)
        .expect("CI line");
    let (l, h) = (ci.1[0].0.min(ci.1[1].0), ci.1[0].0.max(ci.1[1].0));
    assert!((l - lerp(g.ci_low, (0.0, zero), (b, xb))).abs() <= 1.5);
    assert!((h - lerp(g.ci_high, (0.0, zero), (b, xb))).abs() <= 1.5);
    assert!(l < dot.0 && dot.0 < h);
    let value = format!("+{:.1} [+{:.1}, +{:.1}]", g.delta, g.ci_low, g.ci_high);
    text_eq(&doc, &value);
}

#[test]
fn group_rows_name_their_config() {
    let mut s = summaries();
    s[0].config = "claude-sonnet".into();
    let doc_src = skill_deltas(&s);
    let doc = parse(&doc_src);
    assert!(has_text(&doc, &format!("{} · claude-sonnet (n=", s[0].skill)));
}

#[test]
fn hostile_names_are_escaped() {
    let svg = skill_deltas(&summaries());
    assert_escaped(&svg);
}

#[test]
fn long_names_are_shortened_but_keep_n() {
    let mut s = summaries();
    s[0].skill = "x".repeat(300);
    let svg = skill_deltas(&s);
    let doc = parse(&svg);
    let label = texts(&doc).into_iter().find(|t| t.text.starts_with("xxxx")).unwrap();
    assert!(label.text.ends_with(&format!("(n={})", s[0].n)), "{}", label.text);
    assert!(label.text.contains('…'));
    assert!(label.text.chars().count() < 60);
}

#[test]
fn deterministic_and_independent_of_input_order() {
    let s = summaries();
    let a = skill_deltas(&s);
    assert_eq!(a, skill_deltas(&s));
    let mut r = s.clone();
    r.reverse();
    assert_eq!(a, skill_deltas(&r));
}

#[test]
fn empty_and_unscored_input_say_so() {
    for input in [Vec::<Summary>::new(), {
        let mut s = summaries();
        s.iter_mut().for_each(|x| x.n = 0);
        s
    }] {
        let svg = skill_deltas(&input);
        let doc = parse(&svg);
        text_eq(&doc, EMPTY_MESSAGE);
        assert!(svg.len() < 1000);
    }
}

#[test]
fn size_parameters_are_honoured() {
    let svg = skill_deltas_sized(&summaries(), 900, Some(500));
    let doc = parse(&svg);
    assert_eq!(doc.root_element().attribute("width"), Some("900"));
    assert_eq!(doc.root_element().attribute("height"), Some("500"));
    // Auto height grows with the rows.
    let one = skill_deltas(&summaries()[..1]);
    let h1: u32 = parse(&one).root_element().attribute("height").unwrap().parse().unwrap();
    let all = skill_deltas(&summaries());
    let h3: u32 = parse(&all).root_element().attribute("height").unwrap().parse().unwrap();
    assert!(h3 > h1);
}
