//! Chart 1: skill-level mean delta with its 95% CI (forest plot).

use crate::frame::{self, Frame, Marker};
use crate::style::{class_color, GOLDEN, HARMFUL, INEFFECTIVE, TEXT};
use crate::svg::{self, signed};
use crate::{summary_label, summary_label_len, DEFAULT_WIDTH, MIN_WIDTH};
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
    let mut rows: Vec<&Summary> = summaries
        .iter()
        .filter(|s| s.n > 0 && s.delta.is_finite())
        .collect();
    if rows.is_empty() {
        return svg::empty(width, TITLE);
    }
    rows.sort_by(|a, b| {
        b.delta
            .total_cmp(&a.delta)
            .then_with(|| a.skill.cmp(&b.skill))
            .then_with(|| a.config.cmp(&b.config))
            .then_with(|| a.n.cmp(&b.n))
    });
    let total: usize = rows.iter().map(|s| s.n).sum();
    let title = format!("{TITLE} (n = {total} pairs)");
    let height = height.unwrap_or_else(|| frame::auto_height(rows.len(), ROW_H, 2));
    let (label_w, fit) = frame::label_column(rows.iter().map(|s| summary_label_len(s)), width);
    let ci = |s: &Summary| {
        (s.ci_low.is_finite() && s.ci_high.is_finite())
            .then(|| (s.ci_low.min(s.ci_high), s.ci_low.max(s.ci_high)))
    };
    let lo = rows
        .iter()
        .map(|s| ci(s).map_or(s.delta, |c| c.0.min(s.delta)))
        .fold(f64::INFINITY, f64::min);
    let hi = rows
        .iter()
        .map(|s| ci(s).map_or(s.delta, |c| c.1.max(s.delta)))
        .fold(f64::NEG_INFINITY, f64::max);
    let (a, b) = svg::nice_range(lo, hi);
    svg::render(width, height, &title, |root| {
        let body = frame::titled(root, &title)?;
        let (plot_area, ny) = frame::footer(&body, 2);
        let n_rows = rows.len();
        let f = Frame {
            x: a..b,
            rows: n_rows,
            left: label_w,
            right: RIGHT_W,
            x_desc: "Mean Δ (points, with − without skill)",
        };
        let mut chart = frame::build(&plot_area, &f)?;
        frame::zero_line(&mut chart, n_rows)?;
        let mut labels = Vec::with_capacity(n_rows);
        for (i, s) in rows.iter().enumerate() {
            let y = frame::row_y(n_rows, i);
            let c = class_color(s.class);
            if let Some((l, h)) = ci(s) {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(l, y), (h, y)],
                    c.stroke_width(2),
                )))?;
                for x in [l, h] {
                    chart.draw_series(std::iter::once(PathElement::new(
                        vec![(x, y - 0.18), (x, y + 0.18)],
                        c.stroke_width(2),
                    )))?;
                }
            }
            chart.draw_series(std::iter::once(Circle::new((s.delta, y), 5, c.filled())))?;
            let value = match ci(s) {
                Some((l, h)) => format!(
                    "{} [{}, {}]",
                    signed(s.delta, 1),
                    signed(l, 1),
                    signed(h, 1)
                ),
                None => signed(s.delta, 1),
            };
            frame::right_text(root, &chart, y, value, c)?;
            labels.push((summary_label(s, fit), TEXT));
        }
        frame::row_labels(root, &chart, &labels, "Skill (n = pairs)")?;
        frame::right_header(root, &chart, n_rows, "Δ [95% CI], points")?;
        frame::legend(
            root,
            12,
            ny,
            &[
                (Marker::Dot(GOLDEN), "golden (Δ > 0, p < 0.05)".into()),
                (Marker::Dot(HARMFUL), "harmful (Δ < 0, p < 0.05)".into()),
                (Marker::Dot(INEFFECTIVE), "ineffective".into()),
            ],
        )?;
        frame::legend(
            root,
            12,
            ny + frame::LINE_H as i32,
            &[(
                Marker::None,
                "Whiskers: 95% bootstrap CI of the mean Δ; class by exact sign-flip test.".into(),
            )],
        )?;
        Ok(())
    })
}
