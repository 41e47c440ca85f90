//! PNG export of a chart: the SVG rasterized with resvg, text set in the system's fonts.

use resvg::{tiny_skia, usvg};
use std::sync::{Arc, LazyLock};

static FONTS: LazyLock<Arc<usvg::fontdb::Database>> = LazyLock::new(|| {
    let mut db = usvg::fontdb::Database::new();
    db.load_system_fonts();
    // The charts ask for `sans-serif`; fontdb maps it to Arial, absent on most Linux systems.
    let family = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Arial"]
        .into_iter()
        .find(|f| db.faces().any(|face| face.families.iter().any(|(name, _)| name == f)));
    if let Some(f) = family {
        db.set_sans_serif_family(f);
    }
    Arc::new(db)
});

/// Renders `svg` at `scale` (2.0 for sharp text on high-density screens) to PNG bytes.
pub fn to_png(svg: &str, scale: f32) -> Result<Vec<u8>, String> {
    let options = usvg::Options { fontdb: FONTS.clone(), ..usvg::Options::default() };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| format!("not a valid SVG: {e}"))?;
    let size = tree.size().to_int_size().scale_by(scale).ok_or("chart too large to rasterize")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("chart has no area")?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| format!("PNG encoding failed: {e}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn renders_a_chart_to_png() {
        let svg = crate::task_deltas("demo", &[crate::TaskDelta { task: "t1".into(), delta: 50.0, excluded: false }]);
        let png = super::to_png(&svg, 1.0).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert!(png.len() > 2_000, "a real image, not an empty canvas: {} bytes", png.len());
        assert!(super::to_png("<not svg", 1.0).is_err());
    }
}
