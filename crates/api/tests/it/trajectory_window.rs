//! Viewers read trajectories a window of steps at a time: windows, filters, step links, pair
//! alignment, and trajectories stored before steps were kept one by one.

use serde_json::json;
use skillscope_api::trajectories::{self, NewTrajectory, TrajectoryQuery, WindowRequest, MAX_PAGE, MAX_WINDOW};
use skillscope_api::{AppError, ErrorCode, Workspace};
use skillscope_atif::{synthetic, Agent, Trajectory, TrajectoryBuilder, TurnMetrics};
use time::macros::datetime;

fn store(ws: &Workspace, trajectory: &Trajectory) -> i64 {
    let t = NewTrajectory { trial: None, origin: "import", label: "t", trajectory, stop_reason: None };
    trajectories::store(&mut ws.conn().unwrap(), t).unwrap()
}

fn window(ws: &Workspace, id: i64, offset: u32, limit: u32, filter: &str) -> trajectories::StepWindow {
    trajectories::window(ws, id, &WindowRequest { offset, limit, filter: filter.into(), whole: false }).unwrap()
}

#[test]
fn windows_carry_only_the_steps_asked_for() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let id = store(&ws, &synthetic(1200, 300));

    let w = window(&ws, id, 100, 50, "");
    assert_eq!((w.steps_total, w.matching, w.offset), (1200, 1200, 100));
    assert_eq!(w.steps.iter().map(|s| s.position).collect::<Vec<_>>(), (100..150).collect::<Vec<_>>());
    assert_eq!(w.steps[0].step.step_id, 101);
    assert!(w.steps.iter().all(|s| s.since_ms == Some(1500)), "agent steps are 1.5 s apart");
    assert_eq!(window(&ws, id, 0, 1, "").steps[0].since_ms, None, "the first step has no previous one");
    assert_eq!(window(&ws, id, 1190, 50, "").steps.len(), 10, "the last window is short");
    assert!(window(&ws, id, 5000, 50, "").steps.is_empty());
    assert_eq!(
        window(&ws, id, 0, 100_000, "").steps.len() as u32,
        MAX_WINDOW,
        "a window is never the whole of a long run"
    );
}

#[test]
fn filters_count_and_window_the_matching_steps() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let id = store(&ws, &synthetic(300, 100));
    // "step 12" is in the commands of steps 12 and 120–129; case and surrounding blanks do not matter.
    let w = window(&ws, id, 0, 5, " ECHO STEP 12 && ");
    assert_eq!(w.matching, 1);
    assert_eq!(w.steps[0].step.step_id, 12);
    let w = window(&ws, id, 2, 3, "echo step 12");
    assert_eq!(w.matching, 11);
    assert_eq!(w.steps.iter().map(|s| s.step.step_id).collect::<Vec<_>>(), [121, 122, 123]);
    assert_eq!(w.steps[0].since_ms, Some(1500), "time since the trajectory's previous step, not the previous match");
    assert_eq!(window(&ws, id, 0, 10, "no such text").matching, 0);
    assert_eq!(window(&ws, id, 0, 10, "  ").matching, 300, "a blank filter shows everything");

    assert_eq!(trajectories::step_position(&ws, id, 250).unwrap(), Some(249));
    assert_eq!(trajectories::step_position(&ws, id, 9999).unwrap(), None);
    let missing =
        trajectories::window(&ws, 9999, &WindowRequest { offset: 0, limit: 1, filter: String::new(), whole: false })
            .unwrap_err();
    assert_eq!(AppError::from(missing).code, ErrorCode::NotFound);
}

/// A run that lists the directory, optionally reads the skill, then writes `answer`.
fn run(read_skill: bool, answer: &str) -> Trajectory {
    let mut b = TrajectoryBuilder::new("pair", Agent::new("skillscope", "1", None));
    b.user_step("Solve the task.");
    let call = |b: &mut TrajectoryBuilder, name: &str, args: serde_json::Value, output: &str| {
        let id = b.agent_step(
            "",
            None,
            vec![("c".into(), name.into(), args)],
            TurnMetrics::default(),
            datetime!(2026-05-01 12:00 UTC),
        );
        b.observation(id, "c", output).unwrap();
    };
    call(&mut b, "list_dir", json!({"path": "."}), "task.txt");
    if read_skill {
        call(&mut b, "read_file", json!({"path": "/skills/csv-insights/SKILL.md"}), "---\nname: csv-insights");
    }
    call(&mut b, "write_file", json!({"path": "answer.txt", "content": answer}), "written");
    b.finish(None)
}

#[test]
fn pairs_align_on_their_first_divergence_and_the_skill_read() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let without = store(&ws, &run(false, "42"));
    let with = store(&ws, &run(true, "42"));
    let a = trajectories::align(&ws, Some(without), Some(with)).unwrap();
    assert_eq!((a.without_steps, a.with_steps), (3, 4));
    assert_eq!(a.first_divergence, Some(2), "the with run reads SKILL.md where the without run writes");
    assert_eq!(a.skill_read, Some(2));

    let same = store(&ws, &run(false, "42"));
    let a = trajectories::align(&ws, Some(without), Some(same)).unwrap();
    assert_eq!((a.first_divergence, a.skill_read), (None, None), "identical runs (messages aside) do not diverge");
    let other = store(&ws, &run(false, "41"));
    assert_eq!(trajectories::align(&ws, Some(without), Some(other)).unwrap().first_divergence, Some(2));
    let longer = store(&ws, &synthetic(3, 10));
    let a = trajectories::align(&ws, None, Some(longer)).unwrap();
    assert_eq!((a.without_steps, a.with_steps, a.first_divergence), (0, 3, Some(0)), "a missing run diverges at once");
}

#[test]
fn trajectories_stored_before_step_windows_are_indexed_on_open() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let id = store(&ws, &synthetic(40, 50));
    {
        // What a workspace from before schema 7 holds: the document without step rows.
        let conn = ws.conn().unwrap();
        conn.execute("DELETE FROM trajectory_steps", []).unwrap();
        conn.execute("UPDATE trajectories SET step_count = NULL", []).unwrap();
    }
    let ws = skillscope_api::open(home.path()).unwrap();
    let w = window(&ws, id, 30, 20, "");
    assert_eq!((w.steps_total, w.steps.len()), (40, 10));
    let page = trajectories::page(&ws, &TrajectoryQuery { offset: 0, limit: 10, search: String::new() }).unwrap();
    assert_eq!(page.items[0].steps, 40);
}

#[test]
fn step_times_need_both_timestamps_and_never_go_negative() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let stamps = [
        Some("2024-01-01T10:00:05Z"),
        None,
        Some("2024-01-01T10:00:06Z"),
        Some("nonsense"),
        Some("2024-01-01T10:00:07Z"),
        Some("2024-01-01T10:00:04Z"),
        Some("2024-01-01T10:00:05.250Z"),
    ];
    let steps: Vec<_> = stamps
        .iter()
        .enumerate()
        .map(|(i, ts)| {
            let mut step = json!({"step_id": i + 1, "source": "user", "message": "x"});
            if let Some(ts) = ts {
                step["timestamp"] = json!(ts);
            }
            step
        })
        .collect();
    let doc = json!({"schema_version": "ATIF-v1.7", "session_id": "s", "agent": {"name": "a", "version": "1"}, "steps": steps});
    let imported = skillscope_atif::import_value(doc).unwrap();
    let id = store(&ws, &imported.trajectory);
    let since: Vec<Option<i64>> = window(&ws, id, 0, 10, "").steps.iter().map(|s| s.since_ms).collect();
    assert_eq!(since, [None, None, None, None, None, Some(0), Some(1250)]);
}

#[test]
fn huge_texts_come_cut_in_windows_and_whole_on_request() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let mut b = TrajectoryBuilder::new("huge", Agent::new("skillscope", "1", None));
    b.user_step("Write the log.");
    let content = "é".repeat(150_000);
    let id = b.agent_step(
        "",
        None,
        vec![("c".into(), "write_file".into(), json!({"path": "log", "content": content}))],
        TurnMetrics::default(),
        datetime!(2026-05-01 12:00 UTC),
    );
    b.observation(id, "c", "x".repeat(250_000).as_str()).unwrap();
    let id = store(&ws, &b.finish(None));

    let w = window(&ws, id, 0, 10, "");
    assert!(!w.steps[0].cut, "a short step is whole");
    let step = &w.steps[1];
    assert!(step.cut);
    let argument = step.step.tool_calls.as_ref().unwrap()[0].arguments["content"].as_str().unwrap();
    assert!(argument.starts_with(&"é".repeat(trajectories::WINDOW_TEXT_CHARS)));
    assert!(argument.ends_with("[50000 more characters not loaded]"), "{}", &argument[argument.len() - 60..]);
    let output = step.step.observation.as_ref().unwrap().results[0].content.as_ref().unwrap().text();
    assert!(output.ends_with("[150000 more characters not loaded]"));

    let whole =
        trajectories::window(&ws, id, &WindowRequest { offset: 1, limit: 1, filter: String::new(), whole: true })
            .unwrap();
    assert!(!whole.steps[0].cut);
    let output = whole.steps[0].step.observation.as_ref().unwrap().results[0].content.as_ref().unwrap().text();
    assert_eq!(output.len(), 250_000);
}

#[test]
fn the_list_comes_a_page_at_a_time_and_searches_labels() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let small = synthetic(2, 10);
    let mut conn = ws.conn().unwrap();
    for i in 0..250 {
        let label = if i % 50 == 0 { format!("Nightly-{i}.json") } else { format!("run-{i}.json") };
        trajectories::store(
            &mut conn,
            NewTrajectory { trial: None, origin: "import", label: &label, trajectory: &small, stop_reason: None },
        )
        .unwrap();
    }
    let page = |offset, limit, search: &str| {
        trajectories::page(&ws, &TrajectoryQuery { offset, limit, search: search.into() }).unwrap()
    };
    let first = page(0, 20, "");
    assert_eq!((first.total, first.items.len()), (250, 20));
    assert_eq!(first.items[0].label, "run-249.json", "newest first");
    assert_eq!(page(240, 20, "").items.len(), 10);
    assert_eq!(page(0, 10_000, "").items.len() as u32, MAX_PAGE);
    let nightly = page(0, 20, "NIGHTLY");
    assert_eq!(nightly.total, 5);
    assert_eq!(
        nightly.items.iter().map(|t| t.label.as_str()).collect::<Vec<_>>(),
        ["Nightly-200.json", "Nightly-150.json", "Nightly-100.json", "Nightly-50.json", "Nightly-0.json"]
    );
}
