//! Chart 1: skill-level mean delta with its 95% CI (forest plot).

use crate::frame::{self, Marker};
use crate::style::{class_color, GOLDEN, HARMFUL, INEFFECTIVE};
use crate::summary_rows::{self, Spec, ZeroLine};
use crate::svg::{self, signed};
use crate::{DEFAULT_WIDTH, MIN_WIDTH};
use plotters::prelude::*;
use skillscope_stats::Summary;

const TITLE: &str = "Skill effect: mean Δ with 95% CI";
const ROW_H: u32 = 28;
const RIGHT_W: u32 = 132;

/// Forest plot of [`Summary::delta`] (points) with its bootstrap 95% CI,
/// one row per summary labelled `skill (n=…)`, coloured by class, sorted by
/// delta (largest first). Rows with `n = 0` are left out.
pub fn skill_deltas(summaries: &[Summary]) -> String {
    skill_deltas_sized(summaries, DEFAULT_WIDTH, None)
}

/// [`skill_deltas`] at `width` px and `height` px (`None`: by row count).
pub fn skill_deltas_sized(summaries: &[Summary], width: u32, height: Option<u32>) -> String {
    let width = width.max(MIN_WIDTH);
    let rows = summary_rows::select(summaries, |s| s.n > 0 && s.delta.is_finite(), |s| s.delta);
    if rows.is_empty() {
        return svg::empty(width, TITLE);
    }
    let total: usize = rows.iter().map(|s| s.n).sum();
    let ci = |s: &Summary| {
        (s.ci_low.is_finite() && s.ci_high.is_finite()).then(|| (s.ci_low.min(s.ci_high), s.ci_low.max(s.ci_high)))
    };
    let lo = rows.iter().map(|s| ci(s).map_or(s.delta, |c| c.0.min(s.delta))).fold(f64::INFINITY, f64::min);
    let hi = rows.iter().map(|s| ci(s).map_or(s.delta, |c| c.1.max(s.delta))).fold(f64::NEG_INFINITY, f64::max);
    let (a, b) = svg::nice_range(lo, hi);
    let legend = [
        (Marker::Dot(GOLDEN), "golden (Δ > 0, p < 0.05)".into()),
        (Marker::Dot(HARMFUL), "harmful (Δ < 0, p < 0.05)".into()),
        (Marker::Dot(INEFFECTIVE), "ineffective".into()),
    ];
    let spec = Spec {
        title: TITLE,
        row_h: ROW_H,
        right: RIGHT_W,
        x: a..b,
        x_desc: "Mean Δ (points, with − without skill)",
        zero: ZeroLine::Under,
        value_header: "Δ [95% CI], points",
        legend: &legend,
        note: "Whiskers: 95% bootstrap CI of the mean Δ; class by exact sign-flip test.",
    };
    summary_rows::render(&rows, total, &spec, width, height, |root, chart, y, s| {
        let c = class_color(s.class);
        if let Some((l, h)) = ci(s) {
            chart.draw_series(std::iter::once(PathElement::new(vec![(l, y), (h, y)], c.stroke_width(2))))?;
            for x in [l, h] {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(x, y - 0.18), (x, y + 0.18)],
                    c.stroke_width(2),
                )))?;
            }
        }
        chart.draw_series(std::iter::once(Circle::new((s.delta, y), 5, c.filled())))?;
        let value = match ci(s) {
            Some((l, h)) => format!("{} [{}, {}]", signed(s.delta, 1), signed(l, 1), signed(h, 1)),
            None => signed(s.delta, 1),
        };
        frame::right_text(root, chart, y, value, c)
    })
}
