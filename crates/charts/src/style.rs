//! Colours and fonts shared by all charts.
//!
//! Colour meaning is the same everywhere: green for a positive / golden
//! effect, red for a negative / harmful one, grey for no directional
//! effect (ineffective) or zero. The hex strings are exactly what the SVG
//! contains (`fill="#2E7D32"`), so HTML legends can reuse them.

use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{IntoFont, RGBColor, TextStyle};
use skillscope_stats::Class;

/// Golden / positive effect.
pub const GOLDEN: RGBColor = RGBColor(0x2E, 0x7D, 0x32);
/// Harmful / negative effect.
pub const HARMFUL: RGBColor = RGBColor(0xC6, 0x28, 0x28);
/// Ineffective / zero effect.
pub const INEFFECTIVE: RGBColor = RGBColor(0x75, 0x75, 0x75);
/// Fill of excluded tasks (drawn hatched).
pub const EXCLUDED: RGBColor = RGBColor(0xE0, 0xE0, 0xE0);
/// Hatch strokes and outlines of excluded tasks.
pub const HATCH: RGBColor = RGBColor(0x9E, 0x9E, 0x9E);
/// The zero reference line (used for nothing else).
pub const ZERO_LINE: RGBColor = RGBColor(0x42, 0x42, 0x42);
/// Vertical grid lines at the axis ticks.
pub const GRID: RGBColor = RGBColor(0xEE, 0xEE, 0xEE);
/// Axis lines and tick marks.
pub const AXIS: RGBColor = RGBColor(0x61, 0x61, 0x61);
/// Main text.
pub const TEXT: RGBColor = RGBColor(0x21, 0x21, 0x21);
/// Secondary text (notes, values).
pub const MUTED: RGBColor = RGBColor(0x61, 0x61, 0x61);
/// Background.
pub const BACKGROUND: RGBColor = RGBColor(0xFF, 0xFF, 0xFF);

/// Font family of every text element (no font files are needed: the SVG
/// viewer picks its own sans-serif face).
pub const FONT: &str = "sans-serif";
/// Chart title size, px.
pub const TITLE_PX: f64 = 15.0;
/// Row labels and axis descriptions, px.
pub const LABEL_PX: f64 = 12.0;
/// Values, legends and notes, px.
pub const NOTE_PX: f64 = 11.0;
/// Approximate advance of one character per px of font size (sans-serif).
pub const CHAR_EM: f64 = 0.58;

/// Colour of a class.
pub fn class_color(class: Class) -> RGBColor {
    match class {
        Class::Golden => GOLDEN,
        Class::Harmful => HARMFUL,
        Class::Ineffective | Class::Undecided | Class::TooFewTasks => INEFFECTIVE,
    }
}

/// Colour of a signed value where larger is better: green above zero, red
/// below, grey at zero (or not finite).
pub fn sign_color(v: f64) -> RGBColor {
    if v > 0.0 {
        GOLDEN
    } else if v < 0.0 {
        HARMFUL
    } else {
        INEFFECTIVE
    }
}

/// `#RRGGBB` as written into the SVG.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// Text style whose SVG `font-size` is `px` (plotters divides by 1.24).
pub(crate) fn text(px: f64, color: RGBColor) -> TextStyle<'static> {
    (FONT, px * 1.24).into_font().color(&color)
}

/// [`text`] with an anchor.
pub(crate) fn anchored(px: f64, color: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    text(px, color).pos(Pos::new(h, v))
}

/// Estimated rendered width of `s` at `px`, in pixels.
pub(crate) fn text_width(s: &str, px: f64) -> i32 {
    (s.chars().count() as f64 * px * CHAR_EM).ceil() as i32
}
