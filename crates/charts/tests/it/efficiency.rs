use crate::common::*;
use skillscope_charts::{efficiency, ArmCost, EMPTY_MESSAGE};

fn cost(task: &str, t: (f64, Option<f64>), k: Option<(f64, f64)>) -> ArmCost {
    ArmCost {
        task: task.into(),
        time_without: Some(t.0),
        time_with: t.1,
        tokens_without: k.map(|k| k.0),
        tokens_with: k.map(|k| k.1),
    }
}

fn sample() -> Vec<ArmCost> {
    vec![
        cost("a-faster", (100.0, Some(70.0)), Some((20_000.0, 26_000.0))),
        cost("b-slower", (50.0, Some(80.0)), Some((30_000.0, 12_000.0))),
        cost("c-no-time", (40.0, None), None),
    ]
}

#[test]
fn two_panels_with_units_zero_lines_and_n() {
    let svg = efficiency("pdf-forms", &sample());
    let doc = parse(&svg);
    text_eq(&doc, "Δ time (s, with − without)");
    text_eq(&doc, "Δ effective input tokens (tokens)");
    assert!(title(&doc).contains("pdf-forms (n = 3 pairs)"), "{}", title(&doc));
    text_eq(&doc, "Time Δ (n = 2 pairs)");
    text_eq(&doc, "Token Δ (n = 2 pairs)");
    assert_eq!(zero_lines_at_zero_tick(&doc, 30.0), 2, "one zero line per panel");
    // Missing measurements are marked, not drawn as zero.
    let y = text_eq(&doc, "c-no-time").y;
    let na = texts(&doc).into_iter().filter(|t| t.text == "n/a" && (t.y - y).abs() < 0.5).count();
    assert_eq!(na, 2);
}

#[test]
fn savings_are_green_and_extra_cost_red() {
    let svg = efficiency("s", &sample());
    let doc = parse(&svg);
    let zeros = tick_xs(&doc, "0");
    let (time_zero, token_zero) = (zeros[0].min(zeros[1]), zeros[0].max(zeros[1]));
    let row = |label: &str| {
        let y = text_eq(&doc, label).y;
        let mut r: Vec<R> = rects(&doc).into_iter().filter(|r| r.w < 400.0 && r.y <= y && y <= r.y + r.h).collect();
        r.sort_by(|a, b| a.x.total_cmp(&b.x));
        r
    };
    let a = row("a-faster");
    assert_eq!(a.len(), 2);
    // Time: 30 s saved -> green, left of the time zero line.
    assert_eq!(a[0].fill, green());
    assert!((a[0].x + a[0].w - time_zero).abs() <= 1.0);
    // Tokens: 6000 more -> red, right of the token zero line.
    assert_eq!(a[1].fill, red());
    assert!((a[1].x - token_zero).abs() <= 1.0);
    let b = row("b-slower");
    assert_eq!((b[0].fill.clone(), b[1].fill.clone()), (red(), green()));
    // Bar lengths follow the values: b's token saving (18k) is 3× a's extra (6k).
    assert!((b[1].w - 3.0 * a[1].w).abs() <= 2.0, "{} vs {}", b[1].w, a[1].w);
    assert!(row("c-no-time").is_empty());
}

#[test]
fn hostile_names_are_escaped() {
    let mut c = sample();
    c[0].task = HOSTILE.into();
    assert_escaped(&efficiency(HOSTILE, &c));
    assert_escaped(&efficiency(HOSTILE, &[]));
}

#[test]
fn deterministic_and_independent_of_input_order() {
    let a = efficiency("s", &sample());
    assert_eq!(a, efficiency("s", &sample()));
    let mut r = sample();
    r.reverse();
    assert_eq!(a, efficiency("s", &r));
}

#[test]
fn empty_input_says_so() {
    let svg = efficiency("pdf-forms", &[]);
    text_eq(&parse(&svg), EMPTY_MESSAGE);
}
