//! A long trajectory in the viewers: 5,000 steps, about 50 MB of ATIF JSON. Measures what the
//! first screen costs on the Rust side of IPC (the summaries, one window of steps and its JSON
//! serialisation, which is what crosses IPC), a jump to a far step, a filter, and a pair's
//! alignment; and, for contrast, reading and serialising the whole document.
//! `cargo bench -p skillscope-api --bench trajectory_window` (target: first screen under 1 s).

use skillscope_api::trajectories::{self, NewTrajectory, TrajectoryQuery, WindowRequest};
use skillscope_api::Workspace;
use std::time::Instant;

const STEPS: usize = 5_000;
const OUTPUT_BYTES: usize = 10_000;
/// What the viewer asks for first (ui/src/lib/stepWindow.ts).
const FIRST_WINDOW: u32 = 50;

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path()).unwrap();
    let trajectory = skillscope_atif::synthetic(STEPS, OUTPUT_BYTES);
    let doc = serde_json::to_vec(&trajectory).unwrap().len();
    let t = Instant::now();
    let store = |label| {
        let t = NewTrajectory { trial: None, origin: "import", label, trajectory: &trajectory, stop_reason: None };
        trajectories::store(&mut ws.conn().unwrap(), t).unwrap()
    };
    let id = store("without");
    println!("stored {STEPS} steps ({:.1} MB of JSON) in {:.2} s", mb(doc), t.elapsed().as_secs_f64());
    let other = store("with");

    for round in 1..=3 {
        let t = Instant::now();
        let list = TrajectoryQuery { offset: 0, limit: 50, search: String::new() };
        let summaries = serde_json::to_vec(&trajectories::page(&ws, &list).unwrap()).unwrap();
        let request = WindowRequest { offset: 0, limit: FIRST_WINDOW, filter: String::new(), whole: false };
        let first = serde_json::to_vec(&trajectories::window(&ws, id, &request).unwrap()).unwrap();
        let first_screen = t.elapsed();

        let t = Instant::now();
        let position = trajectories::step_position(&ws, id, 4_321).unwrap().unwrap();
        let request = WindowRequest {
            offset: position.saturating_sub(25),
            limit: FIRST_WINDOW,
            filter: String::new(),
            whole: false,
        };
        let far = serde_json::to_vec(&trajectories::window(&ws, id, &request).unwrap()).unwrap();
        let jump = t.elapsed();

        let t = Instant::now();
        let request = WindowRequest { offset: 0, limit: FIRST_WINDOW, filter: "echo step 432".into(), whole: false };
        let filtered = trajectories::window(&ws, id, &request).unwrap();
        let filter = t.elapsed();

        let t = Instant::now();
        let alignment = trajectories::align(&ws, Some(id), Some(other)).unwrap();
        let align = t.elapsed();

        let t = Instant::now();
        let whole = serde_json::to_vec(&trajectories::get(&ws, id).unwrap()).unwrap().len();
        let full = t.elapsed();

        println!(
            "round {round}: first screen {:.1} ms ({:.2} MB cross IPC: summaries {:.1} KB + {FIRST_WINDOW} steps; target < 1 s) · \
             jump to step 4,321 {:.1} ms ({:.2} MB) · filter {:.1} ms ({} of {STEPS} match) · pair alignment {:.1} ms \
             (divergence {:?}) · whole document {:.0} ms ({:.1} MB)",
            first_screen.as_secs_f64() * 1e3,
            mb(summaries.len() + first.len()),
            summaries.len() as f64 / 1e3,
            jump.as_secs_f64() * 1e3,
            mb(far.len()),
            filter.as_secs_f64() * 1e3,
            filtered.matching,
            align.as_secs_f64() * 1e3,
            alignment.first_divergence,
            full.as_secs_f64() * 1e3,
            mb(whole),
        );
    }
}
