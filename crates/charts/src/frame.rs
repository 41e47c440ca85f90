//! The frame shared by the row charts: a left column of row labels, a plot
//! with one horizontal row per item and an x axis with a labelled unit, an
//! optional right column of values, a zero line and a legend line.

use crate::style::{self, anchored, text_width, AXIS, GRID, LABEL_PX, MUTED, NOTE_PX, TEXT, ZERO_LINE};
use crate::svg::{Area, DrawResult};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use std::ops::Range;

/// A cartesian chart with f64 axes on the SVG backend.
pub(crate) type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Space above the plot for the column headers, px.
pub(crate) const HEADER_H: u32 = 22;
/// Space below the plot for tick labels and the axis description, px.
pub(crate) const X_AXIS_H: u32 = 46;
/// Space for the chart title, px.
pub(crate) const TITLE_H: u32 = 30;
/// Space for one legend/note line, px.
pub(crate) const LINE_H: u32 = 17;

/// Layout of a row plot inside its area.
pub(crate) struct Frame<'s> {
    pub x: Range<f64>,
    pub rows: usize,
    /// Left margin (room for row labels), px.
    pub left: u32,
    /// Right margin (room for values), px.
    pub right: u32,
    /// Axis description with the unit.
    pub x_desc: &'s str,
}

/// Centre of row `i` (row 0 at the top) in data coordinates.
pub(crate) fn row_y(rows: usize, i: usize) -> f64 {
    rows as f64 - i as f64 - 0.5
}

/// Width of the label column for `labels`, between 72 px and 38% of `width`,
/// and the number of characters that fit into it.
pub(crate) fn label_column(labels: impl Iterator<Item = usize>, width: u32) -> (u32, usize) {
    let char_px = LABEL_PX * style::CHAR_EM;
    let longest = labels.max().unwrap_or(0) as f64;
    let cap = (width as f64 * 0.38).floor();
    let w = (longest * char_px + 18.0).clamp(72.0, cap.max(72.0));
    let fit = ((w - 18.0) / char_px).floor().max(6.0) as usize;
    (w as u32, fit)
}

/// Total height of a row chart with `rows` rows of `row_h` px and
/// `notes` legend/note lines.
pub(crate) fn auto_height(rows: usize, row_h: u32, notes: u32) -> u32 {
    TITLE_H + HEADER_H + rows as u32 * row_h + X_AXIS_H + notes * LINE_H + 18
}

/// Split `body` into the plot area and `lines` legend/note lines below it;
/// returns the plot area and the pixel y of the first line.
pub(crate) fn footer<'a>(body: &Area<'a>, lines: u32) -> (Area<'a>, i32) {
    let h = body.dim_in_pixel().1;
    let (plot, notes) = body.split_vertically(h.saturating_sub(lines * LINE_H + 10));
    (plot, notes.get_base_pixel().1 + 14)
}

/// Draw the title and reserve `lines` legend/note lines at the bottom;
/// returns the plot area and the pixel y of the first line.
pub(crate) fn layout<'a>(root: &Area<'a>, title: &str, lines: u32) -> DrawResult<(Area<'a>, i32)> {
    let body = titled(root, title)?;
    Ok(footer(&body, lines))
}

/// Draw the title; returns the area below it.
pub(crate) fn titled<'a>(root: &Area<'a>, title: &str) -> DrawResult<Area<'a>> {
    let (top, rest) = root.split_vertically(TITLE_H);
    let (w, _) = top.dim_in_pixel();
    top.draw(&Text::new(
        crate::svg::clean(title),
        (w as i32 / 2, 19),
        anchored(style::TITLE_PX, TEXT, HPos::Center, VPos::Center),
    ))?;
    Ok(rest)
}

/// Build the plot and draw its x axis, grid and axis description.
pub(crate) fn build<'a, 'b>(area: &Area<'b>, f: &Frame<'_>) -> DrawResult<Chart<'a, 'b>> {
    let mut chart = ChartBuilder::on(area)
        .margin_top(HEADER_H)
        .margin_left(f.left)
        .margin_right(f.right)
        .x_label_area_size(X_AXIS_H)
        .build_cartesian_2d(f.x.clone(), 0.0..f.rows.max(1) as f64)?;
    let fmt = |v: &f64| crate::svg::tick(*v);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .disable_y_axis()
        .x_labels(7)
        .x_label_formatter(&fmt)
        .x_desc(f.x_desc)
        .label_style(style::text(NOTE_PX, TEXT))
        .axis_desc_style(style::text(LABEL_PX, TEXT))
        .axis_style(AXIS)
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .draw()?;
    Ok(chart)
}

/// Pixel coordinate of a data point.
pub(crate) fn px(chart: &Chart<'_, '_>, x: f64, y: f64) -> (i32, i32) {
    chart.backend_coord(&(x, y))
}

/// Left and right pixel edges of the plot.
pub(crate) fn plot_edges(chart: &Chart<'_, '_>) -> (i32, i32) {
    let (xr, _) = chart.plotting_area().get_pixel_range();
    (xr.start, xr.end)
}

/// The vertical zero line over the whole plot height.
pub(crate) fn zero_line(chart: &mut Chart<'_, '_>, rows: usize) -> DrawResult {
    let top = rows.max(1) as f64;
    chart.draw_series(std::iter::once(PathElement::new(vec![(0.0, 0.0), (0.0, top)], ZERO_LINE.stroke_width(1))))?;
    Ok(())
}

/// Row labels right-aligned left of the plot, and `header` above them.
pub(crate) fn row_labels(
    root: &Area<'_>,
    chart: &Chart<'_, '_>,
    labels: &[(String, RGBColor)],
    header: &str,
) -> DrawResult {
    let (left, _) = plot_edges(chart);
    let rows = labels.len();
    for (i, (text, color)) in labels.iter().enumerate() {
        let (_, y) = px(chart, chart.x_range().start, row_y(rows, i));
        root.draw(&Text::new(text.clone(), (left - 8, y), anchored(LABEL_PX, *color, HPos::Right, VPos::Center)))?;
    }
    let (_, top) = px(chart, chart.x_range().start, rows.max(1) as f64);
    root.draw(&Text::new(
        header.to_string(),
        (left - 8, top - 7),
        anchored(NOTE_PX, MUTED, HPos::Right, VPos::Bottom),
    ))?;
    Ok(())
}

/// A value text left-aligned right of the plot at data height `y`.
pub(crate) fn right_text(root: &Area<'_>, chart: &Chart<'_, '_>, y: f64, text: String, color: RGBColor) -> DrawResult {
    let (_, right) = plot_edges(chart);
    let (_, py) = px(chart, chart.x_range().start, y);
    root.draw(&Text::new(text, (right + 8, py), anchored(NOTE_PX, color, HPos::Left, VPos::Center)))?;
    Ok(())
}

/// A header above the right column.
pub(crate) fn right_header(root: &Area<'_>, chart: &Chart<'_, '_>, rows: usize, text: &str) -> DrawResult {
    let (_, right) = plot_edges(chart);
    let (_, top) = px(chart, chart.x_range().start, rows.max(1) as f64);
    root.draw(&Text::new(text.to_string(), (right + 8, top - 7), anchored(NOTE_PX, MUTED, HPos::Left, VPos::Bottom)))?;
    Ok(())
}

/// A legend item: a marker of this colour and shape, then text.
pub(crate) enum Marker {
    Dot(RGBColor),
    Ring(RGBColor),
    Square(RGBColor, f64),
    Hatched,
    None,
}

/// One legend/note line at pixel row `y`, starting at `x`.
pub(crate) fn legend(root: &Area<'_>, x: i32, y: i32, items: &[(Marker, String)]) -> DrawResult {
    let mut x = x;
    for (marker, text) in items {
        match marker {
            Marker::Dot(c) => {
                root.draw(&Circle::new((x + 5, y), 5, c.filled()))?;
                x += 14;
            }
            Marker::Ring(c) => {
                root.draw(&Circle::new((x + 5, y), 5, style::BACKGROUND.filled()))?;
                root.draw(&Circle::new((x + 5, y), 5, c.stroke_width(2)))?;
                x += 14;
            }
            Marker::Square(c, alpha) => {
                root.draw(&Rectangle::new([(x, y - 5), (x + 10, y + 5)], c.mix(*alpha).filled()))?;
                x += 14;
            }
            Marker::Hatched => {
                hatched_rect(root, (x, y - 5), (x + 10, y + 5))?;
                x += 14;
            }
            Marker::None => {}
        }
        root.draw(&Text::new(text.clone(), (x, y), anchored(NOTE_PX, MUTED, HPos::Left, VPos::Center)))?;
        x += (text_width(text, NOTE_PX) as f64 * 0.88) as i32 + 16;
    }
    Ok(())
}

/// The usual two footer lines: the legend `items` at pixel row `y` and a
/// plain `note` on the line below.
pub(crate) fn legend_and_note(root: &Area<'_>, y: i32, items: &[(Marker, String)], note: &str) -> DrawResult {
    legend(root, 12, y, items)?;
    legend(root, 12, y + LINE_H as i32, &[(Marker::None, note.to_string())])
}

/// Row labels with their header on the left and the header of the value
/// column on the right.
pub(crate) fn side_columns(
    root: &Area<'_>,
    chart: &Chart<'_, '_>,
    labels: &[(String, RGBColor)],
    label_header: &str,
    value_header: &str,
) -> DrawResult {
    row_labels(root, chart, labels, label_header)?;
    right_header(root, chart, labels.len(), value_header)
}

/// A grey rectangle with diagonal hatching and an outline, in pixels.
pub(crate) fn hatched_rect(root: &Area<'_>, a: (i32, i32), b: (i32, i32)) -> DrawResult {
    root.draw(&Rectangle::new([a, b], style::EXCLUDED.filled()))?;
    for [p, q] in crate::svg::hatch(a, b, 5) {
        root.draw(&PathElement::new(vec![p, q], style::HATCH.stroke_width(1)))?;
    }
    root.draw(&Rectangle::new([a, b], style::HATCH.stroke_width(1)))?;
    Ok(())
}
