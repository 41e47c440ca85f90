//! Chart 4: time and effective-token deltas per task (two panels).

use crate::frame::{self, Chart, Frame, Marker};
use crate::style::{anchored, sign_color, GOLDEN, HARMFUL, LABEL_PX, MUTED, NOTE_PX, TEXT};
use crate::svg::{self, Area, DrawResult};
use crate::{DEFAULT_WIDTH, MIN_WIDTH};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// Cost of one paired task in both arms. `None` where not measured.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmCost {
    pub task: String,
    /// Wall time without the skill, seconds.
    pub time_without: Option<f64>,
    /// Wall time with the skill, seconds.
    pub time_with: Option<f64>,
    /// Effective input tokens without the skill.
    pub tokens_without: Option<f64>,
    /// Effective input tokens with the skill.
    pub tokens_with: Option<f64>,
}

const ROW_H: u32 = 22;

fn delta(without: Option<f64>, with: Option<f64>) -> Option<f64> {
    match (without, with) {
        (Some(a), Some(b)) if a.is_finite() && b.is_finite() => Some(b - a),
        _ => None,
    }
}

/// Two panels sharing one row per task (sorted by task name): time Δ in
/// seconds and effective-input-token Δ, both with − without. Bars below
/// zero (the skill saves) are green, above zero red. The title carries the
/// number of pairs, each panel the number of pairs measured for it.
pub fn efficiency(skill: &str, costs: &[ArmCost]) -> String {
    efficiency_sized(skill, costs, DEFAULT_WIDTH, None)
}

/// [`efficiency`] at `width` px and `height` px (`None`: by row count).
pub fn efficiency_sized(skill: &str, costs: &[ArmCost], width: u32, height: Option<u32>) -> String {
    let width = width.max(MIN_WIDTH);
    let base = format!("Efficiency: {}", svg::truncate(&svg::clean(skill), 48));
    if costs.is_empty() {
        return svg::empty(width, &base);
    }
    let mut rows: Vec<(&str, Option<f64>, Option<f64>)> = costs
        .iter()
        .map(|c| (c.task.as_str(), delta(c.time_without, c.time_with), delta(c.tokens_without, c.tokens_with)))
        .collect();
    let key = |v: Option<f64>| v.unwrap_or(f64::NEG_INFINITY);
    rows.sort_by(|a, b| {
        a.0.cmp(b.0).then_with(|| key(a.1).total_cmp(&key(b.1))).then_with(|| key(a.2).total_cmp(&key(b.2)))
    });
    let title = format!("{base} (n = {} pairs)", rows.len());
    let height = height.unwrap_or_else(|| frame::auto_height(rows.len(), ROW_H, 2));
    let (label_w, fit) = frame::label_column(rows.iter().map(|r| r.0.chars().count()), width);
    let times: Vec<Option<f64>> = rows.iter().map(|r| r.1).collect();
    let tokens: Vec<Option<f64>> = rows.iter().map(|r| r.2).collect();
    svg::render(width, height, &title, |root| {
        let (plot_area, ny) = frame::layout(root, &title, 2)?;
        let (w, _) = plot_area.dim_in_pixel();
        let left_w = label_w + (w - label_w) / 2;
        let (left, right) = plot_area.split_horizontally(left_w);
        let chart = panel(root, &left, label_w, 12, &times, "Δ time (s, with − without)", "Time Δ")?;
        panel(root, &right, 14, 12, &tokens, "Δ effective input tokens (tokens)", "Token Δ")?;
        let labels: Vec<(String, RGBColor)> = rows.iter().map(|r| (svg::label(r.0, "", fit), TEXT)).collect();
        frame::row_labels(root, &chart, &labels, "Task")?;
        frame::legend_and_note(
            root,
            ny,
            &[
                (Marker::Square(GOLDEN, 1.0), "skill saves (Δ < 0)".into()),
                (Marker::Square(HARMFUL, 1.0), "skill costs more (Δ > 0)".into()),
            ],
            "Δ = with − without per paired task; n/a: not measured in both arms.",
        )
    })
}

/// One panel: bars of `values` (one per row), its own axis and header.
fn panel<'a, 'b>(
    root: &Area<'_>,
    area: &Area<'b>,
    left: u32,
    right: u32,
    values: &[Option<f64>],
    x_desc: &str,
    name: &str,
) -> DrawResult<Chart<'a, 'b>> {
    let present = values.iter().flatten();
    let lo = present.clone().copied().fold(0.0, f64::min);
    let hi = present.clone().copied().fold(0.0, f64::max);
    let n = present.count();
    let (a, b) = svg::nice_range(lo, hi);
    let rows = values.len();
    let f = Frame { x: a..b, rows, left, right, x_desc };
    let mut chart = frame::build(area, &f)?;
    for (i, v) in values.iter().enumerate() {
        let y = frame::row_y(rows, i);
        match v {
            Some(d) => {
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(0.0, y - 0.32), (*d, y + 0.32)],
                    sign_color(-d).filled(),
                )))?;
            }
            None => {
                let (x, py) = frame::px(&chart, 0.0, y);
                root.draw(&Text::new("n/a", (x + 4, py), anchored(NOTE_PX, MUTED, HPos::Left, VPos::Center)))?;
            }
        }
    }
    frame::zero_line(&mut chart, rows)?;
    let (l, r) = frame::plot_edges(&chart);
    let (_, top) = frame::px(&chart, a, rows.max(1) as f64);
    root.draw(&Text::new(
        format!("{name} (n = {n} pairs)"),
        ((l + r) / 2, top - 7),
        anchored(LABEL_PX, TEXT, HPos::Center, VPos::Bottom),
    ))?;
    Ok(chart)
}
