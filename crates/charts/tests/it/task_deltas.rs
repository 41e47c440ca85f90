use crate::common::*;
use skillscope_charts::{style, task_deltas, TaskDelta, EMPTY_MESSAGE};

fn td(task: &str, delta: f64, excluded: bool) -> TaskDelta {
    TaskDelta { task: task.into(), delta, excluded }
}

fn sample() -> Vec<TaskDelta> {
    vec![
        td("parse-form", 50.0, false),
        td("fill-fields", -25.0, false),
        td("no-change", 0.0, false),
        td("flaky-infra", 40.0, true),
        td("sign-doc", 100.0, false),
    ]
}

/// The bar drawn on the row whose label is `label`.
fn bar_of(doc: &roxmltree::Document<'_>, label: &str) -> Option<R> {
    let y = text_eq(doc, label).y;
    rects(doc).into_iter().find(|r| r.y < y && y < r.y + r.h && r.w > 0.0 && r.w < 400.0)
}

#[test]
fn axis_units_fixed_range_and_n() {
    let svg = task_deltas("pdf-forms · claude", &sample());
    let doc = parse(&svg);
    text_eq(&doc, "Δ score (points, with − without skill)");
    assert_eq!(tick_xs(&doc, "-100").len(), 1);
    assert_eq!(tick_xs(&doc, "100").len(), 1);
    // 4 counted pairs, the excluded one is not in n.
    assert!(title(&doc).contains("pdf-forms · claude (n = 4 pairs)"), "{}", title(&doc));
    assert!(has_text(&doc, "(n = 4 pairs)"));
    assert_eq!(zero_lines_at_zero_tick(&doc, 50.0), 1);
}

#[test]
fn bars_have_length_and_colour_of_their_delta() {
    let svg = task_deltas("s", &sample());
    let doc = parse(&svg);
    let x0 = tick_xs(&doc, "0")[0];
    let x100 = tick_xs(&doc, "100")[0];
    let unit = (x100 - x0) / 100.0;
    let up = bar_of(&doc, "parse-form").unwrap();
    assert_eq!(up.fill, green());
    assert!((up.x - x0).abs() <= 1.0 && (up.w - 50.0 * unit).abs() <= 1.5, "{up:?}");
    let down = bar_of(&doc, "fill-fields").unwrap();
    assert_eq!(down.fill, red());
    assert!((down.x + down.w - x0).abs() <= 1.0 && (down.w - 25.0 * unit).abs() <= 1.5, "{down:?}");
    let full = bar_of(&doc, "sign-doc").unwrap();
    assert!((full.x + full.w - x100).abs() <= 1.0);
    assert!(bar_of(&doc, "no-change").is_none_or(|r| r.w <= 1.0));
    // Sorted: counted tasks by delta, the excluded one last.
    let ys: Vec<f64> = ["sign-doc", "parse-form", "no-change", "fill-fields", "flaky-infra (excluded)"]
        .iter()
        .map(|l| text_eq(&doc, l).y)
        .collect();
    assert!(ys.windows(2).all(|w| w[0] < w[1]), "{ys:?}");
}

#[test]
fn excluded_tasks_are_hatched_grey_with_a_note() {
    let svg = task_deltas("s", &sample());
    let doc = parse(&svg);
    let label = text_eq(&doc, "flaky-infra (excluded)");
    let bar = bar_of(&doc, "flaky-infra (excluded)").unwrap();
    assert_eq!(bar.fill, style::hex(style::EXCLUDED));
    let hatch = style::hex(style::HATCH);
    let strokes = polylines(&doc)
        .into_iter()
        .filter(|(c, p)| {
            *c == hatch
                && p.len() == 2
                && p[0].0 != p[1].0
                && p[0].1 != p[1].1
                && p.iter().all(|(_, y)| (y - label.y).abs() < 12.0)
        })
        .count();
    assert!(strokes >= 5, "diagonal hatching on the excluded bar: {strokes}");
    assert!(has_text(&doc, "1 task excluded from the statistics (not in n)"));
    // Without excluded tasks there is no note and no hatching.
    let clean: Vec<_> = sample().into_iter().filter(|t| !t.excluded).collect();
    let svg = task_deltas("s", &clean);
    let doc = parse(&svg);
    assert!(!has_text(&doc, "excluded"));
    assert!(rects(&doc).iter().all(|r| r.fill != style::hex(style::EXCLUDED)));
}

#[test]
fn hostile_names_are_escaped() {
    let mut d = sample();
    d[0].task = HOSTILE.into();
    assert_escaped(&task_deltas(HOSTILE, &d));
    assert_escaped(&task_deltas(HOSTILE, &[]));
}

#[test]
fn deterministic_and_independent_of_input_order() {
    let a = task_deltas("s", &sample());
    assert_eq!(a, task_deltas("s", &sample()));
    let mut r = sample();
    r.reverse();
    assert_eq!(a, task_deltas("s", &r));
}

#[test]
fn empty_input_says_so() {
    let svg = task_deltas("pdf-forms", &[]);
    let doc = parse(&svg);
    text_eq(&doc, EMPTY_MESSAGE);
    assert!(title(&doc).contains("pdf-forms"));
}
