//! SVG document helpers: rendering with plotters into a string, the empty
//! chart, text escaping, number formatting and small geometry helpers.

use crate::style::{self, BACKGROUND, MUTED};
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea, SVGBackend};

/// A drawing area of the SVG backend in pixel coordinates.
pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
/// Result of drawing code.
pub(crate) type DrawResult<T = ()> = Result<T, Box<dyn std::error::Error>>;

/// Message of a chart without data.
pub const EMPTY_MESSAGE: &str = "No scored pairs yet";

/// Escape text for SVG/XML character data and attribute values.
///
/// Text handed to plotters is escaped by its SVG backend; this is for the
/// markup written here directly (the `<title>` and the empty chart).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Replace characters that are not allowed in XML 1.0 (control characters)
/// before text goes to plotters, which escapes markup but not these.
pub(crate) fn clean(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// A small standalone SVG that shows `message` under `title`.
pub(crate) fn message(width: u32, title: &str, message: &str) -> String {
    let w = width.max(200);
    let h = 84;
    format!(
        concat!(
            "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
            "<title>{title}</title>\n",
            "<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"{bg}\"/>\n",
            "<text x=\"{cx}\" y=\"26\" text-anchor=\"middle\" font-family=\"{font}\" font-size=\"{tpx}\" fill=\"#212121\">{title}</text>\n",
            "<text x=\"{cx}\" y=\"58\" text-anchor=\"middle\" font-family=\"{font}\" font-size=\"{mpx}\" fill=\"{muted}\">{message}</text>\n",
            "</svg>\n"
        ),
        w = w,
        h = h,
        cx = w / 2,
        title = escape(&clean(title)),
        message = escape(message),
        bg = style::hex(BACKGROUND),
        muted = style::hex(MUTED),
        font = style::FONT,
        tpx = style::TITLE_PX,
        mpx = style::LABEL_PX + 1.0,
    )
}

/// The chart shown when there is nothing to plot.
pub(crate) fn empty(width: u32, title: &str) -> String {
    message(width, title, EMPTY_MESSAGE)
}

/// Render a `width` × `height` SVG document with plotters; `draw` paints on
/// the white root area. `title` becomes the document's `<title>`.
pub(crate) fn render(width: u32, height: u32, title: &str, draw: impl FnOnce(&Area<'_>) -> DrawResult) -> String {
    let mut buf = String::new();
    let drawn: DrawResult = (|| {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        root.fill(&BACKGROUND)?;
        draw(&root)?;
        root.present()?;
        Ok(())
    })();
    if drawn.is_err() {
        return message(width, title, "The chart could not be drawn");
    }
    insert_title(tidy_font_sizes(&buf), title)
}

/// Round `font-size` values (plotters writes e.g. `15.000000000000002`).
fn tidy_font_sizes(svg: &str) -> String {
    const KEY: &str = "font-size=\"";
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(i) = rest.find(KEY) {
        let start = i + KEY.len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find('"').unwrap_or(rest.len());
        match rest[..end].parse::<f64>() {
            Ok(v) => out.push_str(&tick(v)),
            Err(_) => out.push_str(&rest[..end]),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Insert `<title>` right after the opening `<svg …>` tag.
fn insert_title(mut svg: String, title: &str) -> String {
    if let Some(end) = svg.find('>') {
        let tag = format!("\n<title>{}</title>", escape(&clean(title)));
        svg.insert_str(end + 1, &tag);
    }
    if !svg.ends_with('\n') {
        svg.push('\n');
    }
    svg
}

/// `s` cut to at most `max` characters, ending in `…` when cut.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    let max = max.max(2);
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// A row label `name suffix` whose name is shortened so the whole label has
/// at most `max` characters; the suffix (usually `(n=…)`) is always kept.
pub(crate) fn label(name: &str, suffix: &str, max: usize) -> String {
    let name = clean(name);
    if suffix.is_empty() {
        return truncate(&name, max);
    }
    let budget = max.saturating_sub(suffix.chars().count() + 1).max(4);
    format!("{} {}", truncate(&name, budget), suffix)
}

/// A number with `decimals` decimals and no negative zero.
pub(crate) fn num(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "n/a".to_string();
    }
    let s = format!("{:.*}", decimals, v);
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// A number with an explicit sign (`+1.5`, `-2.0`, `0.0`).
pub(crate) fn signed(v: f64, decimals: usize) -> String {
    let s = num(v, decimals);
    if v.is_finite() && !s.starts_with('-') && s.chars().any(|c| matches!(c, '1'..='9')) {
        format!("+{s}")
    } else {
        s
    }
}

/// Axis tick label: up to two decimals, trailing zeros dropped, `k`/`M`
/// for thousands and millions, never `-0`.
pub(crate) fn tick(v: f64) -> String {
    let a = v.abs();
    if a < 1e-9 {
        return "0".to_string();
    }
    let (scaled, unit) = if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let mut s = num(scaled, 2);
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    s + unit
}

/// A "nice" axis range covering `lo..hi` and zero, padded by 8%.
pub(crate) fn nice_range(lo: f64, hi: f64) -> (f64, f64) {
    let lo = if lo.is_finite() { lo.min(0.0) } else { 0.0 };
    let hi = if hi.is_finite() { hi.max(0.0) } else { 0.0 };
    let span = hi - lo;
    let raw = span.max(1e-6) / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let pad = 0.08 * span;
    if span < 1e-6 {
        return (-1.0, 1.0);
    }
    // Zero always lies strictly inside, so the zero line is never an edge.
    let a = (((lo - pad) / step).floor() * step).min(-step);
    let b = (((hi + pad) / step).ceil() * step).max(step);
    (a, b)
}

/// Diagonal hatch segments (slope −1 in screen space) clipped to the pixel
/// rectangle `(x0, y0)..(x1, y1)`, `spacing` pixels apart.
pub(crate) fn hatch((x0, y0): (i32, i32), (x1, y1): (i32, i32), spacing: i32) -> Vec<[(i32, i32); 2]> {
    let (x0, x1) = (x0.min(x1), x0.max(x1));
    let (y0, y1) = (y0.min(y1), y0.max(y1));
    let spacing = spacing.max(2);
    let mut out = Vec::new();
    // Lines x + y = c.
    let mut c = x0 + y0 + spacing;
    while c < x1 + y1 {
        let lo = x0.max(c - y1);
        let hi = x1.min(c - y0);
        if lo < hi {
            out.push([(lo, c - lo), (hi, c - hi)]);
        }
        c += spacing;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup() {
        assert_eq!(escape("<a & 'b' \"c\">"), "&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;");
        assert_eq!(escape("x\u{1}y"), "x\u{FFFD}y");
    }

    #[test]
    fn numbers_have_no_negative_zero() {
        assert_eq!(num(-0.0001, 1), "0.0");
        assert_eq!(signed(-0.0001, 1), "0.0");
        assert_eq!(signed(2.25, 1), "+2.2");
        assert_eq!(signed(-3.0, 0), "-3");
        assert_eq!(tick(-1e-12), "0");
        assert_eq!(tick(12500.0), "12.5k");
        assert_eq!(tick(-5000.0), "-5k");
        assert_eq!(tick(999.0), "999");
        assert_eq!(tick(-2_000_000.0), "-2M");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(40.0), "40");
    }

    #[test]
    fn labels_keep_the_suffix() {
        let l = label("a-very-long-skill-name-indeed", "(n=12)", 16);
        assert!(l.ends_with(" (n=12)"), "{l}");
        assert!(l.chars().count() <= 16, "{l}");
        assert!(l.contains('…'));
        assert_eq!(label("ok", "(n=1)", 40), "ok (n=1)");
        assert_eq!(truncate("ééééé", 3), "éé…");
    }

    #[test]
    fn nice_range_contains_data_and_zero() {
        for (lo, hi) in [(3.0, 17.0), (-42.0, -5.0), (-12.5, 30.0), (0.0, 0.0), (-0.3, 0.9)] {
            let (a, b) = nice_range(lo, hi);
            assert!(a < 0.0 && b > 0.0, "{lo}..{hi} -> {a}..{b}");
            assert!(a <= lo && b >= hi, "{lo}..{hi} -> {a}..{b}");
        }
    }

    #[test]
    fn hatch_stays_inside_the_rectangle() {
        let segs = hatch((10, 20), (50, 30), 6);
        assert!(!segs.is_empty());
        for [(ax, ay), (bx, by)] in segs {
            for (x, y) in [(ax, ay), (bx, by)] {
                assert!((10..=50).contains(&x) && (20..=30).contains(&y));
            }
        }
        assert!(hatch((0, 0), (0, 10), 6).is_empty());
    }
}
