//! A paired experiment end to end: the built-in agent, the scripted model server and the real
//! engine. A skill whose procedure the tasks need is classified golden, one whose template
//! misplaces the output harmful, an irrelevant one ineffective; the group condition keeps its
//! decoy in both arms; the fairness check passes for every pair.

use crate::common::*;
use serde_json::json;
use skillscope_api::experiments::{self, Condition, ExperimentDesign, ExperimentTask};
use skillscope_api::import::import;
use skillscope_api::model::ImportRequest;
use skillscope_api::Workspace;
use skillscope_modelserver::{Script, ServerOptions};
use std::path::Path;

fn write_skill(root: &Path, name: &str, description: &str, script: Option<&str>) -> String {
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nRun scripts/solve.sh.\n"),
    )
    .unwrap();
    if let Some(s) = script {
        std::fs::write(dir.join("scripts/solve.sh"), s).unwrap();
    }
    dir.display().to_string()
}

fn tasks(root: &Path, n: usize, hard: bool) -> Vec<ExperimentTask> {
    (1..=n)
        .map(|i| {
            let dir = root.join(format!("{}-{i}", if hard { "hard" } else { "easy" }));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("task.txt"), format!("{i}\n")).unwrap();
            ExperimentTask {
                id: format!("{}-{i}", if hard { "hard" } else { "easy" }),
                instruction: format!(
                    "{}Copy the content of task.txt into answer.txt.",
                    if hard { "HARD TASK. " } else { "" }
                ),
                image: IMAGE.into(),
                workspace: Some(dir.display().to_string()),
                verifier: vec!["sh".into(), "-c".into(), "cmp -s task.txt answer.txt".into()],
                scoring: None,
                dockerfile_context: None,
                verifier_in_place: false,
                accepted_skill_paths: Vec::new(),
                settings: Default::default(),
            }
        })
        .collect()
}

#[test]
fn golden_harmful_and_ineffective_skills_are_told_apart() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(engine());
    let script: Script = serde_json::from_value(json!({
        "default": [{"tool": "bash", "args": {"command": "cp task.txt answer.txt"}}, {"text": "done"}],
        "branches": [
            {"if_prompt_contains": "golden-helper", "steps": [{"tool": "bash", "args": {"command": "sh /skills/golden-helper/scripts/solve.sh"}}, {"text": "done with the skill"}]},
            {"if_prompt_contains": "misplacer", "steps": [{"tool": "bash", "args": {"command": "sh /skills/misplacer/scripts/solve.sh"}}, {"text": "done with the skill"}]},
            {"if_prompt_contains": "HARD TASK", "steps": [{"tool": "bash", "args": {"command": "echo guess > answer.txt"}}, {"text": "done"}]}
        ]
    }))
    .unwrap();
    let server = rt.block_on(skillscope_modelserver::start(ServerOptions { script, ..Default::default() })).unwrap();

    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    ws.edit_config(|c| c.queue.concurrency = Some(2));
    let config = scripted_builtin_agent(&ws, &server.base_url, "sk-experiment-000000");
    let skills = tmp.path().join("skills");
    let version = |name: &str, description: &str, script: Option<&str>| {
        let src = write_skill(&skills, name, description, script);
        import(&ws, &ImportRequest { source: src, ..Default::default() }, &mut |_| Ok(())).unwrap().skills[0].version_id
    };
    let golden =
        version("golden-helper", "Solves copy tasks correctly. Use for HARD TASKs.", Some("cp task.txt answer.txt\n"));
    let harmful = version(
        "misplacer",
        "Writes answers into out/. Use for copy tasks.",
        Some("mkdir -p out && cp task.txt out/answer.txt\n"),
    );
    let irrelevant = version("irrelevant-notes", "Notes about gardening. Use when asked about plants.", None);

    let design =
        |name: &str, skills: Vec<i64>, decoys: Vec<i64>, tasks: Vec<ExperimentTask>, conditions: Vec<Condition>| {
            ExperimentDesign {
                name: name.into(),
                skill_version_ids: skills,
                decoy_version_ids: decoys,
                tasks,
                task_set_id: None,
                agent_config_ids: vec![config],
                conditions,
                repeats: 1,
                only: Vec::new(),
                judge: None,
            }
        };
    let e1 = experiments::create(
        &ws,
        &design("golden", vec![golden], vec![], tasks(tmp.path(), 10, true), vec![Condition::Isolated]),
    )
    .unwrap();
    let e2 = experiments::create(
        &ws,
        &design(
            "harmful-and-irrelevant",
            vec![harmful, irrelevant],
            vec![],
            tasks(tmp.path(), 10, false),
            vec![Condition::Isolated],
        ),
    )
    .unwrap();
    let e3 = experiments::create(
        &ws,
        &design("group", vec![golden], vec![irrelevant], tasks(tmp.path(), 2, true), vec![Condition::Group]),
    )
    .unwrap();
    let (sink, _) = recorder();
    rt.block_on(drain(&ws, None, sink)).unwrap();

    for e in [e1, e2, e3] {
        for p in experiments::pairs(&ws, e).unwrap() {
            assert!(p.excluded.is_empty(), "pair {} {} excluded: {:?}", p.skill, p.task, p.excluded);
        }
    }
    let class = |e: i64, skill: &str| {
        let r = experiments::results(&ws, e).unwrap();
        let s = r.report.skills.iter().find(|s| s.skill == skill).unwrap().clone();
        (serde_json::to_value(s.class).unwrap().as_str().unwrap().to_string(), s.delta, s.p_signflip)
    };
    let (c, d, p) = class(e1, "golden-helper");
    assert_eq!((c.as_str(), d), ("golden", 100.0), "p = {p}");
    assert!((p - 2.0 / 1024.0).abs() < 1e-12);
    let (c, d, _) = class(e2, "misplacer");
    assert_eq!((c.as_str(), d), ("harmful", -100.0));
    let (c, d, p) = class(e2, "irrelevant-notes");
    assert_eq!((c.as_str(), d, p), ("ineffective", 0.0, 1.0));

    let group = experiments::pairs(&ws, e3).unwrap();
    assert_eq!(group[0].without.skills_listed.as_deref(), Some(&["irrelevant-notes".to_string()][..]));
    let mut with = group[0].with.skills_listed.clone().unwrap();
    with.sort();
    assert_eq!(with, ["golden-helper", "irrelevant-notes"]);
    let charts = experiments::charts(&ws, e1).unwrap();
    let titles: Vec<&str> = charts.iter().map(|c| c.title.as_str()).collect();
    assert!(
        titles.iter().any(|t| t.starts_with("Skill-level delta"))
            && titles.iter().any(|t| t.starts_with("Time and token deltas")),
        "{titles:?}"
    );
    assert!(charts.iter().all(|c| c.svg.starts_with("<svg") || c.svg.contains("<svg")));
    let isolated = experiments::pairs(&ws, e1).unwrap();
    assert_eq!(isolated[0].without.skills_listed.as_deref(), Some(&[][..]), "no skill at all in the without arm");

    // The statistics are stored once computed and read back while the evidence is unchanged; a
    // new result, a renamed configuration or an unreadable stored copy makes them computed again.
    let conn = ws.conn().unwrap();
    let stored = |conn: &rusqlite::Connection| -> i64 {
        conn.query_row("SELECT COUNT(*) FROM experiment_results_cache WHERE experiment_id = ?1", [e1], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(stored(&conn), 1);
    let trial = isolated[0].with.trial_id;
    conn.execute("UPDATE trial_results SET score = 0.0 WHERE trial_id = ?1", [trial]).unwrap();
    conn.execute("UPDATE trials SET state = 'failed', updated_at = '2999-01-01T00:00:00Z' WHERE id = ?1", [trial])
        .unwrap();
    assert_eq!(class(e1, "golden-helper").1, 90.0, "a changed result is not served stale");
    conn.execute("UPDATE agent_configs SET name = 'renamed' WHERE id = ?1", [config]).unwrap();
    let configs: Vec<String> =
        experiments::results(&ws, e1).unwrap().report.groups.iter().map(|g| g.config.clone()).collect();
    assert_eq!(configs, ["renamed"], "rows carry the configuration's current name");
    conn.execute("UPDATE experiment_results_cache SET results_json = '{\"not\": \"results\"}'", []).unwrap();
    assert_eq!(class(e1, "golden-helper").1, 90.0, "an unreadable stored copy is computed again");
}

/// A task that names no image runs in busybox with the built-in agent and in the Debian image with
/// a real CLI (which needs glibc or /bin/bash); a task that names its image keeps it.
#[test]
fn each_harness_gets_an_image_it_can_run_in() {
    use skillscope_api::agents::{self, AgentConfig};
    use skillscope_api::harnesses::Harness;
    use skillscope_api::models::{ApiKind, ProviderConfig};
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let skill = import_skill(&ws, &tmp.path().join("skills"), "answer-keeper", ANSWER_KEEPER);
    agents::save_provider(&ws, &ProviderConfig::new("responses", ApiKind::OpenAiResponses, "http://127.0.0.1:9"))
        .unwrap();
    let config = |name: &str, harness| {
        let c = AgentConfig {
            id: 0,
            name: name.into(),
            harness,
            provider_id: "responses".into(),
            model: "m".into(),
            limits: Default::default(),
        };
        agents::save_agent(&ws, &c).unwrap()
    };
    let (builtin, codex) = (config("builtin", Harness::Builtin), config("codex", Harness::Codex));
    let default_image = copy_task("plain", &tmp.path().join("plain"));
    let pinned = ExperimentTask { id: "pinned".into(), image: "python:3.12-slim".into(), ..default_image.clone() };
    let design = ExperimentDesign {
        name: "images".into(),
        skill_version_ids: vec![skill],
        decoy_version_ids: vec![],
        tasks: vec![default_image, pinned],
        task_set_id: None,
        agent_config_ids: vec![builtin, codex],
        conditions: vec![Condition::Isolated],
        repeats: 1,
        only: Vec::new(),
        judge: None,
    };
    let id = experiments::create(&ws, &design).unwrap();
    let pairs = experiments::pairs(&ws, id).unwrap();
    let image = |trial: i64| -> String {
        let spec: String =
            ws.conn().unwrap().query_row("SELECT spec_json FROM trials WHERE id = ?1", [trial], |r| r.get(0)).unwrap();
        let spec: serde_json::Value = serde_json::from_str(&spec).unwrap();
        spec["image"]["name"].as_str().unwrap().to_string()
    };
    let mut seen: Vec<(String, String, String, String)> = pairs
        .iter()
        .map(|p| (p.task.clone(), p.config.clone(), image(p.without.trial_id), image(p.with.trial_id)))
        .collect();
    seen.sort();
    let row = |task: &str, config: &str, image: &str| (task.into(), config.into(), image.into(), image.into());
    assert_eq!(
        seen,
        [
            row("pinned", "builtin", "python:3.12-slim"),
            row("pinned", "codex", "python:3.12-slim"),
            row("plain", "builtin", "skillscope/busybox:1"),
            row("plain", "codex", "skillscope/debian-python:12"),
        ]
    );
}
