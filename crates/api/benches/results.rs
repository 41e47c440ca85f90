//! Heatmap aggregates at scale: 100 skills × 8 configurations × 10 tasks × 3 repeats
//! (24,000 pairs, 48,000 trials) written straight into a workspace, then the experiment's
//! pairs, fairness checks and statistics computed as the Results page asks for them.
//! `cargo bench -p skillscope-api --bench results` (target: under 1 s).

use rusqlite::params;
use skillscope_api::experiments::{self, Condition, ExperimentDesign, ExperimentTask};
use skillscope_api::import::import;
use skillscope_api::model::ImportRequest;
use skillscope_api::Workspace;
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
        agent_config_ids: configs,
        conditions: vec![Condition::Isolated],
        repeats: REPEATS as u32,
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
    for (tw, tv, version, pair) in rows {
        let skill = versions.iter().position(|v| *v == version).unwrap();
        for (trial, with) in [(tw, false), (tv, true)] {
            let score = if with { ((pair + skill as i64) % 3) as f64 / 2.0 } else { (pair % 2) as f64 };
            let listed = if with { format!("[\"skill-{skill:03}\"]") } else { "[]".into() };
            tx.execute("UPDATE trials SET state = 'passed', image_digest = 'sha256:bench', agent_started_at = '2026-01-01T00:00:00Z', agent_finished_at = '2026-01-01T00:00:05Z' WHERE id = ?1", [trial]).unwrap();
            tx.execute("INSERT INTO trial_results(trial_id, attempt, outcome, recorded_at, score, skills_json) VALUES (?1, 1, 'passed', 'x', ?2, ?3)", params![trial, score, listed]).unwrap();
        }
    }
    tx.commit().unwrap();

    let t = Instant::now();
    let pairs = serde_json::to_vec(&experiments::pairs(&ws, exp).unwrap()).unwrap();
    println!(
        "pairs for the Results page: {:.1} MB of JSON in {:.3} s",
        pairs.len() as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    for round in 1..=3 {
        let t = Instant::now();
        let r = experiments::results(&ws, exp).unwrap();
        assert_eq!(r.pairs_scored as usize, SKILLS * CONFIGS * TASKS * REPEATS);
        println!(
            "round {round}: heatmap aggregates ({} groups, {} skills) in {:.3} s (target < 1 s)",
            r.report.groups.len(),
            r.report.skills.len(),
            t.elapsed().as_secs_f64()
        );
    }
}
