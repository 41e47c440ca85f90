//! Chart 5: PRG (pass-rate gain) by baseline stratum, grouped bars.

use crate::frame::{self, Marker};
use crate::style::{sign_color, GOLDEN, HARMFUL, MUTED};
use crate::summary_rows::{self, Spec, ZeroLine};
use crate::svg::{self, signed};
use crate::{DEFAULT_WIDTH, MIN_WIDTH};
use plotters::prelude::*;
use skillscope_stats::Summary;

const TITLE: &str = "PRG by baseline stratum";
const ROW_H: u32 = 54;
const RIGHT_W: u32 = 112;

/// Strata top to bottom within a group: name, bar offset from the row
/// centre, opacity of the bar.
const STRATA: [(&str, f64, f64); 3] = [("low", 0.28, 0.45), ("mid", 0.0, 0.7), ("high", -0.28, 1.0)];
const HALF: f64 = 0.12;

/// Grouped bars of [`Summary::prg_by_stratum`] (PRG, points, −100..100) per summary:
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
    let rows = summary_rows::select(summaries, |s| st_n(s) > 0, |s| if s.prg.is_finite() { s.prg } else { 0.0 });
    if rows.is_empty() {
        return svg::empty(width, TITLE);
    }
    let total: usize = rows.iter().map(|s| st_n(s)).sum();
    let legend = [
        (Marker::Square(GOLDEN, 0.45), "low: baseline < 0.5".into()),
        (Marker::Square(GOLDEN, 0.7), "mid: 0.5–0.8".into()),
        (Marker::Square(GOLDEN, 1.0), "high: > 0.8".into()),
        (Marker::Square(HARMFUL, 1.0), "negative PRG".into()),
    ];
    let spec = Spec {
        title: TITLE,
        row_h: ROW_H,
        right: RIGHT_W,
        x: -100.0..100.0,
        x_desc: "PRG (pass-rate gain, points, −100 to 100)",
        zero: ZeroLine::Over,
        value_header: "stratum, pairs: PRG",
        legend: &legend,
        note: "Baseline = no-skill pass ratio of the pair; n = pairs in the stratum.",
    };
    summary_rows::render(&rows, total, &spec, width, height, |root, chart, yc, s| {
        let p = &s.prg_by_stratum;
        let strata = [(p.low, p.n_low), (p.mid, p.n_mid), (p.high, p.n_high)];
        for ((name, off, alpha), (value, n)) in STRATA.iter().zip(strata) {
            let y = yc + off;
            let value = value.filter(|v| v.is_finite() && n > 0);
            let text = match value {
                Some(v) => {
                    let v = v.clamp(-100.0, 100.0);
                    let c = sign_color(v);
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [(0.0, y - HALF), (v, y + HALF)],
                        c.mix(*alpha).filled(),
                    )))?;
                    format!("{name} n={n}: {}", signed(v, 1))
                }
                None => format!("{name} n={n}: —"),
            };
            let color = value.map_or(MUTED, sign_color);
            frame::right_text(root, chart, y, text, color)?;
        }
        Ok(())
    })
}
