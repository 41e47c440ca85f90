//! Shared fixtures and SVG inspection helpers of the chart tests.

use roxmltree::{Document, Node};
use skillscope_charts::style;
use skillscope_stats::{analyze, Class, Pair, Summary};

mod pairs;
pub(crate) use pairs::ramp;

/// A skill name that would break unescaped markup.
pub(crate) const HOSTILE: &str = "<script>&";

/// Pooled per-skill summaries of a real analysis: `pdf-forms` golden (10
/// pairs), `legacy` harmful (8 pairs), the hostile name ineffective (6
/// pairs).
pub(crate) fn summaries() -> Vec<Summary> {
    let mut pairs: Vec<Pair> = (0..10).map(|t| ramp("pdf-forms", t, 10, (0.1, 0.05), (0.6, 0.3))).collect();
    pairs.extend((0..8).map(|t| ramp("legacy", t, 8, (0.9, -0.1), (0.3, 0.2))));
    for t in 0..6 {
        let (wo, wi) = if t % 2 == 0 { (0.5, 0.7) } else { (0.6, 0.45) };
        pairs.push(Pair::new(HOSTILE, "all", &format!("t{t}"), wo, wi));
    }
    let report = analyze(&pairs);
    let s = report.skills;
    assert_eq!(class_of(&s, "pdf-forms"), Class::Golden);
    assert_eq!(class_of(&s, "legacy"), Class::Harmful);
    assert_eq!(class_of(&s, HOSTILE), Class::Ineffective);
    s
}

pub(crate) fn class_of(s: &[Summary], skill: &str) -> Class {
    s.iter().find(|x| x.skill == skill).expect("skill").class
}

pub(crate) fn get<'a>(s: &'a [Summary], skill: &str) -> &'a Summary {
    s.iter().find(|x| x.skill == skill).expect("skill")
}

/// Parse `svg` and check it is a standalone SVG document.
pub(crate) fn parse(svg: &str) -> Document<'_> {
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    assert!(svg.starts_with("<svg "), "must start with the <svg> tag");
    assert!(svg.trim_end().ends_with("</svg>"));
    let w: f64 = root.attribute("width").unwrap().parse().unwrap();
    let h: f64 = root.attribute("height").unwrap().parse().unwrap();
    assert!(w >= 360.0 && h >= 60.0, "{w}x{h}");
    doc
}

/// One `<text>` element: trimmed content and position.
#[derive(Debug, Clone)]
pub(crate) struct Txt {
    pub(crate) text: String,
    pub(crate) x: f64,
    pub(crate) y: f64,
    /// `0.76em` for x-axis tick labels (top-anchored).
    pub(crate) dy: String,
}

pub(crate) fn texts(doc: &Document<'_>) -> Vec<Txt> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| Txt {
            text: n.text().unwrap_or("").trim().to_string(),
            x: num(n, "x"),
            y: num(n, "y"),
            dy: n.attribute("dy").unwrap_or("").to_string(),
        })
        .collect()
}

/// The text element whose content equals `s`.
pub(crate) fn text_eq(doc: &Document<'_>, s: &str) -> Txt {
    let all = texts(doc);
    let found: Vec<_> = all.iter().filter(|t| t.text == s).collect();
    assert_eq!(found.len(), 1, "exactly one text {s:?} in {:?}", all.iter().map(|t| &t.text).collect::<Vec<_>>());
    found[0].clone()
}

/// Whether any text contains `s`.
pub(crate) fn has_text(doc: &Document<'_>, s: &str) -> bool {
    texts(doc).iter().any(|t| t.text.contains(s))
}

pub(crate) fn title(doc: &Document<'_>) -> String {
    doc.descendants().find(|n| n.has_tag_name("title")).and_then(|n| n.text()).unwrap_or("").to_string()
}

pub(crate) fn num(n: Node<'_, '_>, attr: &str) -> f64 {
    n.attribute(attr).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
}

/// Circles: (cx, cy, fill, stroke).
pub(crate) fn circles(doc: &Document<'_>) -> Vec<(f64, f64, String, String)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| {
            (
                num(n, "cx"),
                num(n, "cy"),
                n.attribute("fill").unwrap_or("").to_string(),
                n.attribute("stroke").unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Filled rectangles: (x, y, width, height, fill, opacity).
#[derive(Debug, Clone)]
pub(crate) struct R {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) w: f64,
    pub(crate) h: f64,
    pub(crate) fill: String,
    pub(crate) opacity: f64,
}

pub(crate) fn rects(doc: &Document<'_>) -> Vec<R> {
    doc.descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") != Some("none"))
        .map(|n| R {
            x: num(n, "x"),
            y: num(n, "y"),
            w: num(n, "width"),
            h: num(n, "height"),
            fill: n.attribute("fill").unwrap_or("").to_string(),
            opacity: num(n, "opacity"),
        })
        .collect()
}

/// Polylines with their stroke and points.
pub(crate) fn polylines(doc: &Document<'_>) -> Vec<(String, Vec<(f64, f64)>)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .map(|n| {
            let pts = n
                .attribute("points")
                .unwrap_or("")
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            (n.attribute("stroke").unwrap_or("").to_string(), pts)
        })
        .collect()
}

/// Pixel x of the x-axis tick labelled `label` (tick labels hang below the
/// axis, `dy="0.76em"`); one per panel.
pub(crate) fn tick_xs(doc: &Document<'_>, label: &str) -> Vec<f64> {
    texts(doc).into_iter().filter(|t| t.text == label && t.dy == "0.76em").map(|t| t.x).collect()
}

/// Vertical zero lines (in the zero-line colour) that sit exactly at an x
/// tick labelled `0` and span more than `min_len` pixels.
pub(crate) fn zero_lines_at_zero_tick(doc: &Document<'_>, min_len: f64) -> usize {
    let zero = style::hex(style::ZERO_LINE);
    let ticks = tick_xs(doc, "0");
    polylines(doc)
        .into_iter()
        .filter(|(stroke, pts)| {
            *stroke == zero
                && pts.len() == 2
                && pts[0].0 == pts[1].0
                && (pts[0].1 - pts[1].1).abs() > min_len
                && ticks.iter().any(|x| (x - pts[0].0).abs() <= 1.0)
        })
        .count()
}

/// Linear pixel position of value `v` on an x axis with ticks `a` at `xa`
/// and `b` at `xb`.
pub(crate) fn lerp(v: f64, (a, xa): (f64, f64), (b, xb): (f64, f64)) -> f64 {
    xa + (v - a) / (b - a) * (xb - xa)
}

/// Hostile text must be escaped in the markup and intact in the text.
pub(crate) fn assert_escaped(svg: &str) {
    assert!(!svg.contains("<script"), "unescaped name in:\n{svg}");
    assert!(svg.contains("&lt;script&gt;&amp;"), "escaped name missing");
    let doc = parse(svg);
    assert!(has_text(&doc, HOSTILE) || title(&doc).contains(HOSTILE), "the name must survive as text");
}

pub(crate) fn green() -> String {
    style::hex(style::GOLDEN)
}
pub(crate) fn red() -> String {
    style::hex(style::HARMFUL)
}
pub(crate) fn grey() -> String {
    style::hex(style::INEFFECTIVE)
}
