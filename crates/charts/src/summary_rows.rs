//! The skeleton shared by the charts with one row per [`Summary`]
//! (skill deltas, pass rates, PRG by stratum): row selection and order,
//! title, size, label column, frame, row labels, value header and the
//! legend with its note. Each chart only draws its rows.

use crate::frame::{self, Chart, Frame, Marker};
use crate::style::TEXT;
use crate::svg::{self, Area, DrawResult};
use skillscope_stats::Summary;
use std::ops::Range;

/// Row label of a summary: `skill (n=…)`, or `skill · config (n=…)` for a
/// single configuration (pooled rows have config `all`).
pub(crate) fn summary_label(s: &Summary, max: usize) -> String {
    let name =
        if s.config.is_empty() || s.config == "all" { s.skill.clone() } else { format!("{} · {}", s.skill, s.config) };
    svg::label(&name, &format!("(n={})", s.n), max)
}

/// The full (untruncated) length of [`summary_label`].
pub(crate) fn summary_label_len(s: &Summary) -> usize {
    summary_label(s, usize::MAX / 2).chars().count()
}

/// The summaries that pass `keep`, sorted by `key` (largest first), then by
/// skill, config and number of pairs.
pub(crate) fn select(
    summaries: &[Summary],
    keep: impl Fn(&Summary) -> bool,
    key: impl Fn(&Summary) -> f64,
) -> Vec<&Summary> {
    let mut rows: Vec<&Summary> = summaries.iter().filter(|s| keep(s)).collect();
    rows.sort_by(|a, b| {
        key(b)
            .total_cmp(&key(a))
            .then_with(|| a.skill.cmp(&b.skill))
            .then_with(|| a.config.cmp(&b.config))
            .then_with(|| a.n.cmp(&b.n))
    });
    rows
}

/// Where the zero line goes relative to the rows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ZeroLine {
    None,
    /// Drawn before the rows (under them).
    Under,
    /// Drawn after the rows (over them).
    Over,
}

/// What differs between the summary row charts.
pub(crate) struct Spec<'s> {
    /// Title without the `(n = … pairs)` suffix.
    pub title: &'s str,
    /// Height of one row, px.
    pub row_h: u32,
    /// Width of the value column, px.
    pub right: u32,
    pub x: Range<f64>,
    /// Axis description with the unit.
    pub x_desc: &'s str,
    pub zero: ZeroLine,
    /// Header of the value column.
    pub value_header: &'s str,
    pub legend: &'s [(Marker, String)],
    /// Note on the line below the legend.
    pub note: &'s str,
}

/// Render `rows` (already selected, not empty) as a `width` px chart of
/// `height` px (`None`: by row count) whose title counts `total` pairs;
/// `draw_row` draws one row (its marks and values) at data height `y`.
pub(crate) fn render(
    rows: &[&Summary],
    total: usize,
    spec: &Spec<'_>,
    width: u32,
    height: Option<u32>,
    mut draw_row: impl FnMut(&Area<'_>, &mut Chart<'_, '_>, f64, &Summary) -> DrawResult,
) -> String {
    let title = format!("{} (n = {total} pairs)", spec.title);
    let height = height.unwrap_or_else(|| frame::auto_height(rows.len(), spec.row_h, 2));
    let (label_w, fit) = frame::label_column(rows.iter().map(|s| summary_label_len(s)), width);
    svg::render(width, height, &title, |root| {
        let (plot_area, ny) = frame::layout(root, &title, 2)?;
        let n_rows = rows.len();
        let f = Frame { x: spec.x.clone(), rows: n_rows, left: label_w, right: spec.right, x_desc: spec.x_desc };
        let mut chart = frame::build(&plot_area, &f)?;
        if spec.zero == ZeroLine::Under {
            frame::zero_line(&mut chart, n_rows)?;
        }
        for (i, s) in rows.iter().enumerate() {
            draw_row(root, &mut chart, frame::row_y(n_rows, i), s)?;
        }
        if spec.zero == ZeroLine::Over {
            frame::zero_line(&mut chart, n_rows)?;
        }
        let labels: Vec<_> = rows.iter().map(|s| (summary_label(s, fit), TEXT)).collect();
        frame::side_columns(root, &chart, &labels, "Skill (n = pairs)", spec.value_header)?;
        frame::legend_and_note(root, ny, spec.legend, spec.note)
    })
}
