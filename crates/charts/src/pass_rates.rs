//! Chart 3: pass rate without vs with the skill (dumbbell plot).

use crate::frame::{self, Marker};
use crate::style::{class_color, BACKGROUND, GOLDEN, HARMFUL, INEFFECTIVE, TEXT};
use crate::summary_rows::{self, Spec, ZeroLine};
use crate::svg::{self, num};
use crate::{DEFAULT_WIDTH, MIN_WIDTH};
use plotters::prelude::*;
use skillscope_stats::Summary;

const TITLE: &str = "Pass rate without vs with skill";
const ROW_H: u32 = 28;
const RIGHT_W: u32 = 100;

/// Dumbbell plot of [`Summary::mean_without`] (hollow grey dot) and
/// [`Summary::mean_with`] (dot in the class colour) per summary, joined by a
/// line in the class colour; points 0..100; rows `skill (n=…)` sorted by
/// delta (largest first). Rows with `n = 0` are left out.
pub fn pass_rates(summaries: &[Summary]) -> String {
    pass_rates_sized(summaries, DEFAULT_WIDTH, None)
}

/// [`pass_rates`] at `width` px and `height` px (`None`: by row count).
pub fn pass_rates_sized(summaries: &[Summary], width: u32, height: Option<u32>) -> String {
    let width = width.max(MIN_WIDTH);
    let rows = summary_rows::select(
        summaries,
        |s| s.n > 0 && s.mean_without.is_finite() && s.mean_with.is_finite(),
        |s| s.mean_with - s.mean_without,
    );
    if rows.is_empty() {
        return svg::empty(width, TITLE);
    }
    let total: usize = rows.iter().map(|s| s.n).sum();
    let legend = [
        (Marker::Ring(INEFFECTIVE), "without skill".into()),
        (Marker::Dot(TEXT), "with skill, coloured by class:".into()),
        (Marker::Dot(GOLDEN), "golden".into()),
        (Marker::Dot(HARMFUL), "harmful".into()),
        (Marker::Dot(INEFFECTIVE), "ineffective".into()),
    ];
    let spec = Spec {
        title: TITLE,
        row_h: ROW_H,
        right: RIGHT_W,
        x: 0.0..100.0,
        x_desc: "Pass rate (points, 0–100)",
        zero: ZeroLine::None,
        value_header: "without → with",
        legend: &legend,
        note: "Pass rate = mean verifier pass ratio over paired tasks, in points.",
    };
    summary_rows::render(&rows, total, &spec, width, height, |root, chart, y, s| {
        let c = class_color(s.class);
        let (wo, wi) = (s.mean_without.clamp(0.0, 100.0), s.mean_with.clamp(0.0, 100.0));
        chart.draw_series(std::iter::once(PathElement::new(vec![(wo, y), (wi, y)], c.stroke_width(3))))?;
        chart.draw_series(std::iter::once(Circle::new((wo, y), 5, BACKGROUND.filled())))?;
        chart.draw_series(std::iter::once(Circle::new((wo, y), 5, INEFFECTIVE.stroke_width(2))))?;
        chart.draw_series(std::iter::once(Circle::new((wi, y), 5, c.filled())))?;
        let value = format!("{} → {}", num(s.mean_without, 0), num(s.mean_with, 0));
        frame::right_text(root, chart, y, value, c)
    })
}
