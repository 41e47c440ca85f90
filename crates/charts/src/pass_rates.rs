//! Chart 3: pass rate without vs with the skill (dumbbell plot).

use crate::frame::{self, Frame, Marker};
use crate::style::{class_color, BACKGROUND, GOLDEN, HARMFUL, INEFFECTIVE, TEXT};
use crate::svg::{self, num};
use crate::{summary_label, summary_label_len, DEFAULT_WIDTH, MIN_WIDTH};
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
    let mut rows: Vec<&Summary> = summaries
        .iter()
        .filter(|s| s.n > 0 && s.mean_without.is_finite() && s.mean_with.is_finite())
        .collect();
    if rows.is_empty() {
        return svg::empty(width, TITLE);
    }
    let gain = |s: &Summary| s.mean_with - s.mean_without;
    rows.sort_by(|a, b| {
        gain(b)
            .total_cmp(&gain(a))
            .then_with(|| a.skill.cmp(&b.skill))
            .then_with(|| a.config.cmp(&b.config))
            .then_with(|| a.n.cmp(&b.n))
    });
    let total: usize = rows.iter().map(|s| s.n).sum();
    let title = format!("{TITLE} (n = {total} pairs)");
    let height = height.unwrap_or_else(|| frame::auto_height(rows.len(), ROW_H, 2));
    let (label_w, fit) = frame::label_column(rows.iter().map(|s| summary_label_len(s)), width);
    svg::render(width, height, &title, |root| {
        let body = frame::titled(root, &title)?;
        let (plot_area, ny) = frame::footer(&body, 2);
        let n_rows = rows.len();
        let f = Frame {
            x: 0.0..100.0,
            rows: n_rows,
            left: label_w,
            right: RIGHT_W,
            x_desc: "Pass rate (points, 0–100)",
        };
        let mut chart = frame::build(&plot_area, &f)?;
        let mut labels = Vec::with_capacity(n_rows);
        for (i, s) in rows.iter().enumerate() {
            let y = frame::row_y(n_rows, i);
            let c = class_color(s.class);
            let (wo, wi) = (
                s.mean_without.clamp(0.0, 100.0),
                s.mean_with.clamp(0.0, 100.0),
            );
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(wo, y), (wi, y)],
                c.stroke_width(3),
            )))?;
            chart.draw_series(std::iter::once(Circle::new(
                (wo, y),
                5,
                BACKGROUND.filled(),
            )))?;
            chart.draw_series(std::iter::once(Circle::new(
                (wo, y),
                5,
                INEFFECTIVE.stroke_width(2),
            )))?;
            chart.draw_series(std::iter::once(Circle::new((wi, y), 5, c.filled())))?;
            let value = format!("{} → {}", num(s.mean_without, 0), num(s.mean_with, 0));
            frame::right_text(root, &chart, y, value, c)?;
            labels.push((summary_label(s, fit), TEXT));
        }
        frame::row_labels(root, &chart, &labels, "Skill (n = pairs)")?;
        frame::right_header(root, &chart, n_rows, "without → with")?;
        frame::legend(
            root,
            12,
            ny,
            &[
                (Marker::Ring(INEFFECTIVE), "without skill".into()),
                (Marker::Dot(TEXT), "with skill, coloured by class:".into()),
                (Marker::Dot(GOLDEN), "golden".into()),
                (Marker::Dot(HARMFUL), "harmful".into()),
                (Marker::Dot(INEFFECTIVE), "ineffective".into()),
            ],
        )?;
        frame::legend(
            root,
            12,
            ny + frame::LINE_H as i32,
            &[(
                Marker::None,
                "Pass rate = mean verifier pass ratio over paired tasks, in points.".into(),
            )],
        )?;
        Ok(())
    })
}
