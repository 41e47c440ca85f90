//! `skillscope stats` and `skillscope eval` as scripts use them; eval runs a Harbor-format task
//! (built from a Dockerfile context, scored from reward.txt) with the built-in agent and the
//! scripted model server on the real engine.

use crate::common;

use common::{join_session_keyring, ok, run};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn stats_json_shape_and_line_numbered_errors() {
    let home = tempfile::tempdir().unwrap();
    let csv = home.path().join("pairs.csv");
    let mut rows = String::from("skill,config,task,without,with\n");
    for i in 0..10 {
        rows += &format!("good,c1,t{i},0,1\nflat,c1,t{i},0.5,0.5\n");
    }
    std::fs::write(&csv, rows).unwrap();
    let v = ok(run(home.path(), &["stats", "--pairs", csv.to_str().unwrap(), "--json"], ""));
    assert_eq!(v["overall"]["n_pairs"], 20);
    let good = v["skills"].as_array().unwrap().iter().find(|s| s["skill"] == "good").unwrap();
    assert_eq!(good["config"], "all");
    assert_eq!(good["class"], "golden");
    for key in
        ["n", "mean_without", "mean_with", "delta", "p_signflip", "p_wilcoxon", "p_ttest", "ci_low", "ci_high", "q_bh"]
    {
        assert!(good.get(key).is_some(), "missing {key}");
    }
    assert!(v["groups"].as_array().unwrap().iter().any(|g| g["config"] == "c1"));
    std::fs::write(&csv, "skill,config,task,without,with\nx,c,t,0,1\nx,c,t2,oops,1\n").unwrap();
    let bad = run(home.path(), &["stats", "--pairs", csv.to_str().unwrap()], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("line 3"), "{}", String::from_utf8_lossy(&bad.stderr));
}

#[test]
fn eval_runs_a_harbor_task_in_both_arms_and_reports() {
    join_session_keyring();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let script = serde_json::json!({"default": [{"tool": "bash", "args": {"command": "cp task.txt answer.txt"}}, {"text": "copied"}]});
    let server = rt
        .block_on(skillscope_modelserver::start(skillscope_modelserver::ServerOptions {
            script: serde_json::from_value(script).unwrap(),
            ..Default::default()
        }))
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    ok(run(h, &["image", "bootstrap", "--busybox-only"], ""));
    ok(run(h, &["provider", "add", "local", "--api", "anthropic", "--base-url", &server.base_url], ""));
    ok(run(h, &["credential", "set", "local"], "sk-eval-test-000000"));
    ok(run(h, &["agent", "add", "builtin", "--provider", "local", "--model", "m"], ""));
    ok(run(h, &["import", root().join("fixtures/skills/csv-insights").to_str().unwrap()], ""));
    // The task set is stored first, then evaluated by its id (`--tasks DIR` imports it the same way).
    let tasks = root().join("fixtures/tasks/harbor-local");
    let set = ok(run(h, &["tasks", "import", tasks.to_str().unwrap(), "--json"], ""));
    let set_id = set["task_set"]["id"].to_string();
    let v =
        ok(run(h, &["eval", "--skill", "csv-insights", "--task-set", &set_id, "--config", "builtin", "--json"], ""));
    assert_eq!(v["pairs_scored"], 1, "{v}");
    assert_eq!(v["pairs_excluded"], 0);
    let s = &v["report"]["skills"][0];
    assert_eq!((s["mean_without"].as_f64(), s["mean_with"].as_f64()), (Some(100.0), Some(100.0)), "{s}");
    // One task cannot show an effect at 0.05 whatever happens: said so, with the smallest p.
    assert_eq!((s["class"].as_str(), s["min_p"].as_f64()), (Some("too_few_tasks"), Some(1.0)), "{s}");
    assert_eq!(s["p_signflip_method"], "exact");

    // Every pair with its fairness record and outcomes, for scripts.
    let pairs = ok(run(h, &["experiment", "pairs", "1", "--json"], ""));
    let p = &pairs[0];
    assert_eq!((p["scored"].as_bool(), p["fairness"]["ok"].as_bool()), (Some(true), Some(true)), "{p}");
    assert_eq!(p["excluded"], serde_json::json!([]));
    assert_eq!(p["fairness"]["without"]["skills_seen"], serde_json::json!([]));
    assert_eq!(p["fairness"]["with"]["skills_seen"], serde_json::json!(["csv-insights"]));
    let (a, b) = (&p["fairness"]["without"]["snapshot"], &p["fairness"]["with"]["snapshot"]);
    assert_eq!((a["model"].as_str(), a["reported_models"][0].as_str()), (Some("m"), Some("m")), "{a}");
    assert_eq!(a["image_digest"], b["image_digest"]);
    assert_eq!(b["skills"][0]["name"], "csv-insights");
    for arm in ["without", "with"] {
        assert_eq!(p[arm]["state"], "passed", "{p}");
        assert_eq!(p[arm]["score"].as_f64(), Some(1.0));
        assert!(p[arm]["checks"].is_array());
    }
    assert!(!pairs.to_string().contains("sk-eval-test"), "no key in the records");

    // The reviewer's decision and the deployment report built on this evidence.
    ok(run(
        h,
        &[
            "decide",
            "csv-insights",
            "--verdict",
            "approve",
            "--rationale",
            "No effect, but safe and well made",
            "--reviewer",
            "Ana",
        ],
        "",
    ));
    let html_path = h.join("report.html");
    ok(run(h, &["report", "csv-insights", "--format", "html", "--out", html_path.to_str().unwrap()], ""));
    let html = std::fs::read_to_string(&html_path).unwrap();
    for needle in [
        "id=\"heatmap\"",
        "id=\"decision\"",
        "No effect, but safe",
        "Ana",
        "<svg",
        "Security score",
        "too_few_tasks (smallest reachable p 1.000)",
        "1.000 (exact)",
    ] {
        assert!(html.contains(needle), "report lacks {needle}");
    }
    assert!(html.contains("id=\"ran-with\"") && html.contains("model m (reported: m)"), "what ran is shown");
    assert!(!html.contains("<script"), "no scripts in a report");
    assert!(!html.contains(h.to_str().unwrap()), "local paths are redacted");
    assert!(!html.contains("sk-eval-test"), "keys are redacted");
    let md = run(h, &["report", "csv-insights", "--format", "md"], "");
    assert!(String::from_utf8_lossy(&md.stdout).contains("## Utility"));
    let charts = h.join("charts");
    ok(run(h, &["charts", "1", "--out", charts.to_str().unwrap(), "--format", "png"], ""));
    let pngs: Vec<_> = std::fs::read_dir(&charts).unwrap().flatten().map(|e| e.path()).collect();
    assert!(pngs.len() >= 4, "{pngs:?}");
    assert!(pngs.iter().all(|p| std::fs::read(p).unwrap().starts_with(b"\x89PNG")));
    let json = ok(run(h, &["report", "csv-insights", "--format", "json"], ""));
    assert_eq!(json["decisions"][0]["verdict"], "approve");
    assert_eq!(json["utility"][0]["summary"]["class"], "too_few_tasks");
}
