//! Heatmap aggregates at scale: 100 skills × 8 configurations × 10 tasks × 3 repeats
//! (24,000 pairs, 48,000 trials) written straight into a workspace with realistic pass ratios
//! (each task has 1 to 50 tests, mostly 5 to 16; a trial's score is k/m), then what the Results
//! page asks the app for when it opens an experiment (its results and its pairs, through the
//! same `Api` the app's handlers call, serialised as they cross IPC), and its charts.
//! `cargo bench -p skillscope-api --bench results` (target: the page's data under 1 s).

use rusqlite::params;
use skillscope_api::experiments::{self, Condition, ExperimentDesign, ExperimentTask};
use skillscope_api::import::import;
use skillscope_api::model::ImportRequest;
use skillscope_api::{Api, Workspace};
use std::sync::Arc;
use std::time::Instant;

const SKILLS: usize = 100;
const CONFIGS: usize = 8;
const TASKS: usize = 10;
const REPEATS: usize = 3;

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let src = tmp.path().join("skills");
    for s in 0..SKILLS {
        let d = src.join(format!("skill-{s:03}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: skill-{s:03}\ndescription: Bench skill {s}. Use when benchmarking.\n---\n# {s}\n"),
        )
        .unwrap();
    }
    let versions: Vec<i64> =
        import(&ws, &ImportRequest { source: src.display().to_string(), ..Default::default() }, &mut |_| Ok(()))
            .unwrap()
            .skills
            .iter()
            .map(|s| s.version_id)
            .collect();
    let conn = ws.conn().unwrap();
    conn.execute("INSERT INTO providers(id, config_json, updated_at) VALUES ('p', ?1, 'x')",
        [serde_json::json!({"id": "p", "api": "openai_chat", "base_url": "http://127.0.0.1:9", "max_concurrency": 4, "timeout_secs": 60, "max_retries": 1}).to_string()]).unwrap();
    let limits = serde_json::to_string(&skillscope_agent::AgentLimits::default()).unwrap();
    let configs: Vec<i64> = (0..CONFIGS)
        .map(|c| {
            conn.execute("INSERT INTO agent_configs(name, harness, provider_id, model, limits_json, updated_at) VALUES (?1, 'builtin', 'p', 'm', ?2, 'x')", params![format!("config-{c}"), limits]).unwrap();
            conn.last_insert_rowid()
        })
        .collect();
    let tasks: Vec<ExperimentTask> = (0..TASKS)
        .map(|t| ExperimentTask {
            id: format!("task-{t}"),
            instruction: "x".into(),
            image: "img".into(),
            workspace: None,
            verifier: vec!["true".into()],
            scoring: None,
            dockerfile_context: None,
            verifier_in_place: false,
            accepted_skill_paths: Vec::new(),
            settings: Default::default(),
        })
        .collect();
    let design = ExperimentDesign {
        name: "bench".into(),
        skill_version_ids: versions.clone(),
        decoy_version_ids: vec![],
        tasks,
        task_set_id: None,
        agent_config_ids: configs,
        conditions: vec![Condition::Isolated],
        repeats: REPEATS as u32,
        only: Vec::new(),
        judge: None,
    };
    let t = Instant::now();
    let exp = experiments::create(&ws, &design).unwrap();
    println!("created {} pairs in {:.2} s", SKILLS * CONFIGS * TASKS * REPEATS, t.elapsed().as_secs_f64());

    // Every trial finished: a deterministic mix of scores, same digest, skill listings as the arm requires.
    let mut conn = ws.conn().unwrap();
    let tx = conn.transaction().unwrap();
    let rows: Vec<(i64, i64, i64, i64)> = {
        let mut st = tx
            .prepare(
                "SELECT trial_without, trial_with, skill_version_id, id FROM experiment_pairs WHERE experiment_id = ?1",
            )
            .unwrap();
        st.query_map([exp], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))).unwrap().map(Result::unwrap).collect()
    };
    let tasks: Vec<String> = {
        let mut st = tx.prepare("SELECT task FROM experiment_pairs WHERE experiment_id = ?1 ORDER BY id").unwrap();
        st.query_map([exp], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    for ((tw, tv, version, pair), task) in rows.into_iter().zip(tasks) {
        let skill = versions.iter().position(|v| *v == version).unwrap();
        let task_index: u64 = task.trim_start_matches("task-").parse().unwrap();
        let m = tests_of(task_index);
        let k_without = mix(pair as u64 * 2) % (m + 1);
        // Most pairs come out the same in both arms; the rest draw again, nudged by the skill.
        let k_with = match mix(pair as u64 * 2 + 1) % 10 {
            0..=5 => k_without,
            _ => (mix(pair as u64 * 3 + skill as u64) % (m + 1) + (skill % 3) as u64).min(m),
        };
        for (trial, with) in [(tw, false), (tv, true)] {
            let score = (if with { k_with } else { k_without }) as f64 / m as f64;
            let listed = if with { format!("[\"skill-{skill:03}\"]") } else { "[]".into() };
            // What ran, as a real trial records it: the arms agree in everything but the skill.
            let skills = if with {
                serde_json::json!([{"name": format!("skill-{skill:03}"), "version_id": version, "tree_sha256": format!("{version:064x}")}])
            } else {
                serde_json::json!([])
            };
            let snapshot = serde_json::json!({
                "api": "openai_chat", "provider_host": "http://127.0.0.1:9", "model": "m",
                "limits": skillscope_agent::AgentLimits::default(), "harness": "builtin", "harness_version": "builtin",
                "system_prompt_sha256": format!("{:064x}", 7), "image_digest": "sha256:bench", "user": "1000:1000",
                "task_sha256": format!("{task_index:064x}"), "skills": skills, "reported_models": ["m"],
            })
            .to_string();
            tx.execute("UPDATE trials SET state = 'passed', image_digest = 'sha256:bench', agent_started_at = '2026-01-01T00:00:00Z', agent_finished_at = '2026-01-01T00:00:05Z' WHERE id = ?1", [trial]).unwrap();
            tx.execute("INSERT INTO trial_results(trial_id, attempt, outcome, recorded_at, score, skills_json, snapshot_json) VALUES (?1, 1, 'passed', 'x', ?2, ?3, ?4)", params![trial, score, listed, snapshot]).unwrap();
        }
    }
    tx.commit().unwrap();

    let api = Api::new(Ok(ws.clone()), Arc::new(skillscope_api::events::Discard));
    for round in 1..=3 {
        let t = Instant::now();
        let r = api.experiment_results(exp).unwrap();
        let results_json = serde_json::to_vec(&r).unwrap();
        let results_secs = t.elapsed().as_secs_f64();
        let pairs_json = serde_json::to_vec(&api.experiment_pairs(exp).unwrap()).unwrap();
        assert_eq!(r.pairs_scored as usize, SKILLS * CONFIGS * TASKS * REPEATS);
        let grid = r.report.skills.iter().chain(&r.report.groups).filter(|s| s.p_signflip_error > 0.0).count();
        println!(
            "round {round}: the page's data in {:.3} s (target < 1 s): results ({} groups, {} skills, {} p-values on a certified grid) {results_secs:.3} s, {:.1} MB; pairs {:.1} MB",
            t.elapsed().as_secs_f64(),
            r.report.groups.len(),
            r.report.skills.len(),
            grid,
            results_json.len() as f64 / 1e6,
            pairs_json.len() as f64 / 1e6,
        );
    }
    // One pair's arm gets a new result, as when a trial finishes: the statistics are computed
    // again, only the rows it touches afresh (what the app does in the background).
    let conn = ws.conn().unwrap();
    conn.execute(
        "UPDATE trial_results SET score = 1.0 - score WHERE trial_id = (SELECT MIN(trial_with) FROM experiment_pairs)",
        [],
    )
    .unwrap();
    conn.execute("UPDATE trials SET updated_at = '2999-01-01T00:00:00Z' WHERE id = (SELECT MIN(trial_with) FROM experiment_pairs)", []).unwrap();
    let t = Instant::now();
    api.experiment_results(exp).unwrap();
    println!(
        "after one trial changed: statistics computed again in {:.3} s (two of 900 rows afresh)",
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let charts = api.experiment_charts(exp).unwrap();
    println!("charts (loaded after the page opens): {} in {:.3} s", charts.len(), t.elapsed().as_secs_f64());
}

/// A well-mixed 64-bit hash (SplitMix64's finaliser), for deterministic scores.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Tests of task `t`: 5 to 16 for most tasks, 1 to 4 for some, up to 50 for others.
fn tests_of(t: u64) -> u64 {
    match mix(t) % 10 {
        0 => 1 + mix(t + 1) % 4,
        1 | 2 => 17 + mix(t + 1) % 34,
        _ => 5 + mix(t + 1) % 12,
    }
}
