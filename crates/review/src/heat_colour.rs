//! The report's heatmap colours: the app's colour-blind-safe diverging scale (ColorBrewer PuOr
//! and RdBu, light scheme; `ui/src/lib/heatmap.ts` holds the same stops), blue for a gain and
//! orange for a loss, with the sign also shown as a symbol and the text black or white, whichever
//! contrasts more with the cell.

const HEAT_LIMIT: f64 = 100.0;
const NEUTRAL: [u8; 3] = [0xf7, 0xf7, 0xf7];
const LOSS: [[u8; 3]; 4] = [[0xfe, 0xe0, 0xb6], [0xfd, 0xb8, 0x63], [0xe0, 0x82, 0x14], [0xb3, 0x58, 0x06]];
const GAIN: [[u8; 3]; 4] = [[0xd1, 0xe5, 0xf0], [0x92, 0xc5, 0xde], [0x43, 0x93, 0xc3], [0x21, 0x66, 0xac]];

/// WCAG relative luminance of an sRGB colour.
fn luminance(c: [u8; 3]) -> f64 {
    let lin = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// The cell's background and text colours as CSS `#rrggbb`.
pub(crate) fn heat_colour(delta: f64) -> (String, &'static str) {
    let side = if delta < 0.0 { LOSS } else { GAIN };
    let stops: Vec<[u8; 3]> = std::iter::once(NEUTRAL).chain(side).collect();
    let at = delta.abs().min(HEAT_LIMIT) / HEAT_LIMIT * (stops.len() - 1) as f64;
    let i = (at.floor() as usize).min(stops.len() - 2);
    let mix = |k: usize| {
        let (a, b) = (f64::from(stops[i][k]), f64::from(stops[i + 1][k]));
        (a + (b - a) * (at - i as f64)).round() as u8
    };
    let bg = [mix(0), mix(1), mix(2)];
    let l = luminance(bg);
    // Contrast with black is (l + 0.05) / 0.05, with white 1.05 / (l + 0.05).
    let text = if (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) { "#000000" } else { "#ffffff" };
    (format!("#{:02x}{:02x}{:02x}", bg[0], bg[1], bg[2]), text)
}

/// "▲" for a gain, "▼" for a loss, nothing when the delta shows as 0.0.
pub(crate) fn heat_symbol(delta: f64) -> &'static str {
    if (delta.abs() * 10.0).round() == 0.0 {
        ""
    } else if delta > 0.0 {
        "▲"
    } else {
        "▼"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neutral_at_zero_blue_gains_orange_losses_and_readable_text() {
        assert_eq!(heat_colour(0.0), ("#f7f7f7".into(), "#000000"));
        assert_eq!(heat_colour(100.0), ("#2166ac".into(), "#ffffff"));
        assert_eq!(heat_colour(-250.0).0, "#b35806", "clamped at the limit");
        assert_eq!((heat_symbol(12.0), heat_symbol(-0.04), heat_symbol(-3.0)), ("▲", "", "▼"));
        for d in (-100..=100).map(f64::from) {
            let (bg, text) = heat_colour(d);
            let c = |i: usize| u8::from_str_radix(&bg[i..i + 2], 16).unwrap();
            let l = luminance([c(1), c(3), c(5)]);
            let ratio = if text == "#000000" { (l + 0.05) / 0.05 } else { 1.05 / (l + 0.05) };
            assert!(ratio >= 4.5, "{d}: {bg} with {text} is {ratio:.2}:1");
        }
    }
}
