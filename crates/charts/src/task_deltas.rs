//! Chart 2: requirement-level (per task) deltas of one skill and config.

use crate::frame::{self, Frame, Marker};
use crate::style::{sign_color, GOLDEN, HARMFUL, INEFFECTIVE, MUTED, TEXT};
use crate::svg::{self, signed};
use crate::{DEFAULT_WIDTH, MIN_WIDTH};
use plotters::prelude::*;

/// The delta of one task: `100 × (with − without)` pass ratio, points.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskDelta {
    pub task: String,
    /// Points, −100..100.
    pub delta: f64,
    /// Left out of the statistics (e.g. an infrastructure failure); drawn
    /// hatched grey and not counted in `n`.
    pub excluded: bool,
}

const ROW_H: u32 = 22;
const RIGHT_W: u32 = 56;

/// Bars of per-task deltas (points, fixed axis −100..100) for `skill` (pass
/// `"skill · config"` to name the configuration). Counted tasks come first,
/// sorted by delta (largest first); excluded tasks follow, hatched grey
/// with a note. `n` counts the tasks that are not excluded.
pub fn task_deltas(skill: &str, deltas: &[TaskDelta]) -> String {
    task_deltas_sized(skill, deltas, DEFAULT_WIDTH, None)
}

/// [`task_deltas`] at `width` px and `height` px (`None`: by row count).
pub fn task_deltas_sized(skill: &str, deltas: &[TaskDelta], width: u32, height: Option<u32>) -> String {
    let width = width.max(MIN_WIDTH);
    let base = format!("Per-task Δ: {}", svg::truncate(&svg::clean(skill), 48));
    if deltas.is_empty() {
        return svg::empty(width, &base);
    }
    let mut rows: Vec<&TaskDelta> = deltas.iter().collect();
    rows.sort_by(|a, b| {
        a.excluded.cmp(&b.excluded).then_with(|| b.delta.total_cmp(&a.delta)).then_with(|| a.task.cmp(&b.task))
    });
    let n = rows.iter().filter(|t| !t.excluded).count();
    let n_excluded = rows.len() - n;
    let title = format!("{base} (n = {n} pairs)");
    let notes = 1 + u32::from(n_excluded > 0);
    let height = height.unwrap_or_else(|| frame::auto_height(rows.len(), ROW_H, notes));
    let suffix = |t: &TaskDelta| if t.excluded { "(excluded)" } else { "" };
    let (label_w, fit) = frame::label_column(rows.iter().map(|t| t.task.chars().count() + suffix(t).len() + 1), width);
    svg::render(width, height, &title, |root| {
        let (plot_area, ny) = frame::layout(root, &title, notes)?;
        let n_rows = rows.len();
        let f = Frame {
            x: -100.0..100.0,
            rows: n_rows,
            left: label_w,
            right: RIGHT_W,
            x_desc: "Δ score (points, with − without skill)",
        };
        let mut chart = frame::build(&plot_area, &f)?;
        let mut labels = Vec::with_capacity(n_rows);
        for (i, t) in rows.iter().enumerate() {
            let y = frame::row_y(n_rows, i);
            let d = if t.delta.is_finite() { t.delta.clamp(-100.0, 100.0) } else { 0.0 };
            if t.excluded {
                let a = frame::px(&chart, 0.0, y + 0.32);
                let b = frame::px(&chart, d, y - 0.32);
                // Keep a visible stub for a zero delta.
                let b = if (b.0 - a.0).abs() < 4 { (a.0 + 4, b.1) } else { b };
                frame::hatched_rect(root, a, b)?;
                labels.push((svg::label(&t.task, "(excluded)", fit), MUTED));
                frame::right_text(root, &chart, y, signed(t.delta, 0), MUTED)?;
            } else {
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(0.0, y - 0.32), (d, y + 0.32)],
                    sign_color(d).filled(),
                )))?;
                labels.push((svg::label(&t.task, "", fit), TEXT));
                frame::right_text(root, &chart, y, signed(t.delta, 0), sign_color(d))?;
            }
        }
        frame::zero_line(&mut chart, n_rows)?;
        frame::side_columns(root, &chart, &labels, "Task", "Δ, pts")?;
        frame::legend(
            root,
            12,
            ny,
            &[
                (Marker::Square(GOLDEN, 1.0), "with skill better".into()),
                (Marker::Square(HARMFUL, 1.0), "with skill worse".into()),
                (Marker::Square(INEFFECTIVE, 1.0), "no change".into()),
            ],
        )?;
        if n_excluded > 0 {
            let task_word = if n_excluded == 1 { "task" } else { "tasks" };
            frame::legend(
                root,
                12,
                ny + frame::LINE_H as i32,
                &[(
                    Marker::Hatched,
                    format!("Hatched grey: {n_excluded} {task_word} excluded from the statistics (not in n)"),
                )],
            )?;
        }
        Ok(())
    })
}
