//! Chart 5: PRG (pass-rate gain) by baseline stratum, grouped bars.

use crate::frame::{self, Frame, Marker};
use crate::style::{sign_color, GOLDEN, HARMFUL, MUTED, TEXT};
use crate::svg::{self, signed};
use crate::{summary_label, summary_label_len, DEFAULT_WIDTH, MIN_WIDTH};
use plotters::prelude::*;
use skillscope_stats::Summary;

const TITLE: &str = "PRG by baseline stratum";
const ROW_H: u32 = 54;
const RIGHT_W: u32 = 112;

/// Strata top to bottom within a group: name, bar offset from the row
/// centre, opacity of the bar.
const STRATA: [(&str, f64, f64); 3] =
    [("low", 0.28, 0.45), ("mid", 0.0, 0.7), ("high", -0.28, 1.0)];
const HALF: f64 = 0.12;

/// Grouped bars of [`Summary::prg_by_stratum`] (PRG, −1..1) per summary:
/// one bar per baseline stratum (low: no-skill pass ratio < 0.5, mid:
/// 0.5..0.8, high: > 0.8), green above zero, red below, shaded by stratum,
/// with the PRG and the number of pairs of each stratum beside the bars.
/// Rows with no pairs in any stratum are left out; rows are sorted by the
/// overall PRG (largest first).
pub fn prg_by_stratum(summaries: &[Summary]) -> String {
    prg_by_stratum_sized(summaries, DEFAULT_WIDTH, None)
}

/// [`prg_by_stratum`] at `width` px and `height` px (`None`: by rows).
pub fn prg_by_stratum_sized(summaries: &[Summary], width: u32, height: Option<u32>) -> String {
    let width = width.max(MIN_WIDTH);
    let st_n = |s: &Summary| {
        let p = &s.prg_by_stratum;
        p.n_low + p.n_mid + p.n_high
    };
    let mut rows: Vec<&Summary> = summaries.iter().filter(|s| st_n(s) > 0).collect();
    if rows.is_empty() {
        return svg::empty(width, TITLE);
    }
    let prg = |s: &Summary| if s.prg.is_finite() { s.prg } else { 0.0 };
    rows.sort_by(|a, b| {
        prg(b)
            .total_cmp(&prg(a))
            .then_with(|| a.skill.cmp(&b.skill))
            .then_with(|| a.config.cmp(&b.config))
            .then_with(|| a.n.cmp(&b.n))
    });
    let total: usize = rows.iter().map(|s| st_n(s)).sum();
    let title = format!("{TITLE} (n = {total} pairs)");
    let height = height.unwrap_or_else(|| frame::auto_height(rows.len(), ROW_H, 2));
    let (label_w, fit) = frame::label_column(rows.iter().map(|s| summary_label_len(s)), width);
    svg::render(width, height, &title, |root| {
        let body = frame::titled(root, &title)?;
        let (plot_area, ny) = frame::footer(&body, 2);
        let n_rows = rows.len();
        let f = Frame {
            x: -1.0..1.0,
            rows: n_rows,
            left: label_w,
            right: RIGHT_W,
            x_desc: "PRG (pass-rate gain, unitless ratio, −1 to 1)",
        };
        let mut chart = frame::build(&plot_area, &f)?;
        let mut labels = Vec::with_capacity(n_rows);
        for (i, s) in rows.iter().enumerate() {
            let yc = frame::row_y(n_rows, i);
            let p = &s.prg_by_stratum;
            let strata = [(p.low, p.n_low), (p.mid, p.n_mid), (p.high, p.n_high)];
            for ((name, off, alpha), (value, n)) in STRATA.iter().zip(strata) {
                let y = yc + off;
                let value = value.filter(|v| v.is_finite() && n > 0);
                let text = match value {
                    Some(v) => {
                        let v = v.clamp(-1.0, 1.0);
                        let c = sign_color(v);
                        chart.draw_series(std::iter::once(Rectangle::new(
                            [(0.0, y - HALF), (v, y + HALF)],
                            c.mix(*alpha).filled(),
                        )))?;
                        format!("{name} n={n}: {}", signed(v, 2))
                    }
                    None => format!("{name} n={n}: —"),
                };
                let color = value.map_or(MUTED, sign_color);
                frame::right_text(root, &chart, y, text, color)?;
            }
            labels.push((summary_label(s, fit), TEXT));
        }
        frame::zero_line(&mut chart, n_rows)?;
        frame::row_labels(root, &chart, &labels, "Skill (n = pairs)")?;
        frame::right_header(root, &chart, n_rows, "stratum, pairs: PRG")?;
        frame::legend(
            root,
            12,
            ny,
            &[
                (Marker::Square(GOLDEN, 0.45), "low: baseline < 0.5".into()),
                (Marker::Square(GOLDEN, 0.7), "mid: 0.5–0.8".into()),
                (Marker::Square(GOLDEN, 1.0), "high: > 0.8".into()),
                (Marker::Square(HARMFUL, 1.0), "negative PRG".into()),
            ],
        )?;
        frame::legend(
            root,
            12,
            ny + frame::LINE_H as i32,
            &[(
                Marker::None,
                "Baseline = no-skill pass ratio of the pair; n = pairs in the stratum.".into(),
            )],
        )?;
        Ok(())
    })
}
