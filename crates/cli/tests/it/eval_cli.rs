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
    let server = common::scripted_server(&rt, script);
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
    let out = run(h, &["eval", "--skill", "csv-insights", "--task-set", &set_id, "--config", "builtin", "--json"], "");
    let ended: Vec<String> =
        String::from_utf8_lossy(&out.stderr).lines().filter(|l| l.ends_with(": Passed")).map(String::from).collect();
    assert_eq!(ended.len(), 2, "each arm's end is printed once: {ended:?}");
    let v = ok(out);
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

/// Issue 18, activation accuracy: skill-creator trigger evals run with the skill beside a decoy
/// (group condition); the scripted agent reads the skill on two of three should-trigger queries
/// and on one of three should-not queries, so precision, recall and the false-activation rate
/// are 2/3, 2/3 and 1/3, each with the trials behind it; no routing pair gets a pass ratio.
#[test]
fn trigger_evals_give_activation_precision_recall_and_false_activations() {
    join_session_keyring();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let read = serde_json::json!([{"tool": "bash", "args": {"command": "cat /skills/csv-summary/SKILL.md"}}, {"text": "Done."}]);
    let agent = common::scripted_server(
        &rt,
        serde_json::json!({"default": [{"text": "Done."}], "branches": [
            {"if_prompt_contains": "quick summary of the columns", "steps": read},
            {"if_prompt_contains": "quarterly figures", "steps": read},
            {"if_prompt_contains": "lines of this text file", "steps": read}]}),
    );
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    ok(run(h, &["image", "bootstrap", "--busybox-only"], ""));
    ok(run(h, &["provider", "add", "agent", "--api", "openai_chat", "--base-url", &agent.base_url], ""));
    ok(run(h, &["credential", "set", "agent"], "sk-agent-trigger-test-0000"));
    ok(run(h, &["agent", "add", "agent", "--provider", "agent", "--model", "m"], ""));
    for skill in ["fixtures/tasks/evals/csv-summary", "fixtures/skills/csv-insights"] {
        ok(run(h, &["import", root().join(skill).to_str().unwrap()], ""));
    }
    let triggers = root().join("fixtures/tasks/evals/csv-summary/evals/trigger-evals.json");
    let args = ["eval", "--skill", "csv-summary", "--tasks", triggers.to_str().unwrap(), "--config", "agent"];
    let v = ok(run(h, &[&args[..], &["--condition", "group", "--decoy", "csv-insights", "--json"]].concat(), ""));
    assert_eq!((v["pairs_scored"].as_u64(), v["pairs_excluded"].as_u64()), (Some(0), Some(6)), "{v}");
    let a = &v["activation"][0];
    let counts = ["true_positives", "false_negatives", "false_positives", "true_negatives"].map(|k| a[k].as_u64());
    assert_eq!(counts, [Some(2), Some(1), Some(1), Some(2)], "{a}");
    let share = |k: &str| (a[k]["k"].as_u64(), a[k]["n"].as_u64());
    assert_eq!(
        (share("accuracy"), share("precision"), share("recall"), share("false_activation_rate")),
        ((Some(4), Some(6)), (Some(2), Some(3)), (Some(2), Some(3)), (Some(1), Some(3)))
    );
    assert!((a["precision"]["ci_low"].as_f64().unwrap() - 0.2077).abs() < 1e-3, "Wilson's interval of 2/3: {a}");
    assert_eq!(a["config"], "agent (group)");
    // The false activation is traceable to its trial.
    let fp: Vec<_> = a["trials"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["activated"] == true && t["should_trigger"] == false)
        .collect();
    assert_eq!(fp.len(), 1);
    assert!(fp[0]["task"].as_str().unwrap().ends_with("#6") && fp[0]["trial_id"].is_number(), "{fp:?}");
    assert!(v["activation_method"].as_str().unwrap().contains("Wilson"));
    // The deployment report carries it, with the method.
    let md = String::from_utf8_lossy(&run(h, &["report", "csv-summary", "--format", "md"], "").stdout).into_owned();
    assert!(
        md.contains("activation: accuracy 4/6 = 67% [30%, 90%], precision 2/3 = 67% [21%, 94%], recall 2/3"),
        "{md}"
    );
    assert!(md.contains("Method (experiment #1"), "{md}");
}

/// Issue 18, judged outcomes end to end: a skill whose evals.json case has only expectations runs
/// in both arms (built-in agent, real engine) and a scripted judge grades them, each pass quoting
/// the run; the with arm's transcript shows the skill read, so only it passes. A judge that never
/// answers with the JSON asked for leaves the pair with NO SCORE, never 0 and never a pass.
#[test]
fn eval_with_a_judge_grades_expectations_with_quotes_and_no_score_is_not_a_pass() {
    join_session_keyring();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let agent = common::scripted_server(
        &rt,
        serde_json::json!({"default": [{"text": "I am not sure."}], "branches": [{
            "if_prompt_contains": "csv-summary/SKILL.md",
            "steps": [{"tool": "bash", "args": {"command": "cat /skills/csv-summary/SKILL.md"}},
                      {"text": "East sells at 30 per unit, the highest."}]}]}),
    );
    // Grades, gives the rubric and calibrates in favour of the run that read the skill, and names
    // that run in either position when comparing (see fixtures/models/README.md).
    let script: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("fixtures/models/csv-summary-judge.json")).unwrap())
            .unwrap();
    let judge = common::scripted_server(&rt, script.clone());
    // The same grading, but comparing it names whichever run is shown first: a position-biased judge.
    let mut biased = script;
    let branches = biased["branches"].as_array_mut().unwrap();
    let names_a =
        branches.iter().find(|b| b["if_prompt_contains"] == "## Run A\n\n[call bash]").unwrap()["steps"].clone();
    branches.retain(|b| !b["if_prompt_contains"].as_str().unwrap().starts_with("## Run"));
    branches.insert(0, serde_json::json!({"if_prompt_contains": "## Run B", "steps": names_a}));
    let biased = common::scripted_server(&rt, biased);
    let refusing = common::scripted_server(
        &rt,
        serde_json::json!({"branches": [{"if_prompt_contains": "Transcript", "steps": [{"text": "I cannot grade this."}]}]}),
    );
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    ok(run(h, &["image", "bootstrap", "--busybox-only"], ""));
    for (id, server) in [("agent", &agent), ("judge", &judge), ("refusing", &refusing), ("biased", &biased)] {
        ok(run(h, &["provider", "add", id, "--api", "openai_chat", "--base-url", &server.base_url], ""));
        ok(run(h, &["credential", "set", id], &format!("sk-{id}-judge-test-0000")));
        ok(run(h, &["agent", "add", id, "--provider", id, "--model", "m"], ""));
    }
    let skill = root().join("fixtures/tasks/evals/csv-summary");
    ok(run(h, &["import", skill.to_str().unwrap()], ""));
    let eval = |judge: &str, prompts: &str| {
        let args = ["eval", "--skill", "csv-summary", "--tasks", skill.to_str().unwrap(), "--config", "agent"];
        ok(run(h, &[&args[..], &["--judge", judge, "--judge-prompts", prompts, "--json"]].concat(), ""))
    };
    // A prompt version that does not exist is refused before anything runs.
    let unknown = run(
        h,
        &[
            "eval",
            "--skill",
            "csv-summary",
            "--task-set",
            "1",
            "--config",
            "agent",
            "--judge",
            "judge",
            "--judge-prompts",
            "v9",
        ],
        "",
    );
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("no prompt version \"v9\"; there are v1, v2"),
        "{unknown:?}"
    );

    // The judge asked with the second prompt version, recorded with every verdict.
    let v = eval("judge", "v2");
    let pairs = v["pairs"].as_array().unwrap();
    let judged = pairs.iter().find(|p| p["task"] == "csv-summary#csv-summary-judge-002").expect("the judged case ran");
    assert_eq!(judged["scored"], true, "{judged}");
    let with = &judged["judged"]["with"];
    assert_eq!((with["score"].as_f64(), judged["judged"]["without"]["score"].as_f64()), (Some(1.0), Some(0.0)));
    assert_eq!(with["expectations"][1]["evidence"], "30 per unit");
    assert_eq!(with["judge"]["prompt_version"], "grade-expectations-v2");
    assert_eq!(with["judge"]["judge"]["prompts"], "v2");
    assert_eq!(with["judge"]["model_reported"], "m");
    assert_eq!(with["judge"]["prompt_sha256"].as_str().unwrap().len(), 64);
    let verified = pairs.iter().find(|p| p["task"] == "csv-summary#1").expect("the verify_command case ran too");
    let verified_with = &verified["judged"]["with"];
    assert_eq!(verified_with["score"], serde_json::Value::Null, "a verifier scores it, not the judge");
    // ACES's rubric on every arm: the goal only where the task has no reference answer.
    assert_eq!(verified_with["rubric"]["expectations"].as_array().map(Vec::len), Some(1), "{verified_with}");
    let metrics = |arm: &serde_json::Value| {
        let m = &arm["metrics"];
        (m["goal_accuracy"].as_f64(), m["accuracy"].as_f64(), m["behavior_check"].as_f64())
    };
    assert_eq!(metrics(verified_with), (Some(1.0), None, None));
    assert_eq!(metrics(with), (Some(1.0), Some(0.8), Some(1.0)));
    assert_eq!(metrics(&judged["judged"]["without"]), (Some(0.0), Some(0.0), Some(0.0)));
    // The deterministic three beside them, from the trajectory: the with arm read its skill.
    assert!(with["metrics"]["skill_execution"].as_f64().is_some_and(|x| x > 0.5), "{with}");
    assert_eq!(with["rubric"]["judge"]["prompt_version"], "grade-expectations-v2");
    // The judged case has a reference answer: its goal is judged against it (RAGAS's form).
    let goal = with["rubric"]["expectations"][0]["text"].as_str().unwrap();
    assert!(goal.starts_with("The outcome the run reached is the one this reference describes: "), "{goal}");
    // Both orders named the arm that read the skill: a preference for it, on every scored pair.
    for p in pairs {
        assert_eq!(
            (p["judged"]["preference"].as_str(), p["judged"]["position_flip"].as_bool()),
            (Some("with"), Some(false)),
            "{p}"
        );
    }
    let pref = &v["preference"][0];
    assert_eq!(
        (pref["with"].as_u64(), pref["compared"].as_u64(), pref["rate"].as_f64()),
        (Some(2), Some(2), Some(1.0))
    );
    // Wilson's 95% interval of 2/2.
    assert!((pref["ci_low"].as_f64().unwrap() - 0.3424).abs() < 1e-3 && pref["ci_high"] == 1.0, "{pref}");
    assert_eq!(pref["flip_rate"].as_f64(), Some(0.0));
    // Skill Lift per skill: the graded expectations (behavior_check) went from 0 to 100 points on
    // the judged case; the verify_command case has no judgement and stays out of it.
    let lift = &v["lift"][0];
    assert_eq!(lift["per_metric"]["behavior_check"].as_f64(), Some(100.0), "{lift}");
    assert_eq!(
        (lift["per_metric"]["goal_accuracy"].as_f64(), lift["per_metric"]["accuracy"].as_f64()),
        (Some(100.0), Some(80.0)),
        "{lift}"
    );
    // The preferences as a paired measure: preferred on both pairs, a net preference of 100 points.
    assert_eq!(lift["per_metric"]["preference"].as_f64(), Some(100.0), "{lift}");
    // All six metrics exist on the judged case only: ACES's overall is its lift there.
    assert_eq!(lift["overall_measure"], "overall", "{lift}");
    assert!(lift["overall"].is_number() && lift["ci_low"].is_number(), "{lift}");
    assert_eq!(v["pass_at_k"][0]["tasks"], 2);

    // Calibration: the judged arms graded twice more give the same verdicts; on the verified case
    // (both arms fail their verifier) the judge passes the with arm: one agreement in two, kappa 0.
    let c = ok(run(h, &["experiment", "calibrate", "1", "--gradings", "3", "--json"], ""));
    let r = &c["repeatability"];
    assert_eq!(
        (r["arms"].as_u64(), r["gradings"].as_u64(), r["unanimous"].as_u64(), r["expectations"].as_u64()),
        (Some(2), Some(3), Some(4), Some(4)),
        "{c}"
    );
    assert_eq!(r["mean_score_sd"].as_f64(), Some(0.0));
    let a = &c["verifier"];
    assert_eq!(
        (a["arms"].as_u64(), a["agree"].as_u64(), a["judge_only_pass"].as_u64(), a["kappa"].as_f64()),
        (Some(2), Some(1), Some(1), Some(0.0)),
        "{c}"
    );

    // The deployment report names the judge beside each judged measure and its preference.
    let md = String::from_utf8_lossy(&run(h, &["report", "csv-summary", "--format", "md"], "").stdout).into_owned();
    let section = md.split("## Judged measures and activation").nth(1).expect("the judged section");
    assert!(
        section.contains("behavior_check: 0.0 → 100.0 points") && section.contains("(judge judge · m, prompts v2)"),
        "{section}"
    );
    assert!(section.contains("preference for the with arm: 2/2 = 100%"), "{section}");
    // The gate reads the judged Skill Lift the policy names: accuracy went up 80 points.
    let gate = |least: f64| {
        let policy = h.join("judged-policy.toml");
        std::fs::write(
            &policy,
            format!("[quality]\nmin_score = 0.0\n[security]\nmin_score = 0\nmax_severity = \"critical\"\n[evaluation]\njudged_measure = \"accuracy\"\nmin_judged_lift = {least}\n"),
        )
        .unwrap();
        let out = h.join("gate-out");
        run(h, &["gate", "csv-summary", "--policy", policy.to_str().unwrap(), "--out", out.to_str().unwrap()], "")
    };
    assert_eq!(gate(50.0).status.code(), Some(0), "{}", common::text(&gate(50.0)));
    let failed = gate(90.0);
    assert_eq!(failed.status.code(), Some(1), "{}", common::text(&failed));
    assert!(common::text(&failed).contains("accuracy Skill Lift +80.0 < +90.0"), "{}", common::text(&failed));
    // So do the charts: a Skill Lift chart per judged measure.
    let out = run(h, &["charts", "1", "--out", h.join("charts").to_str().unwrap()], "");
    let listed = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        listed.contains("skill-lift-of-behavior-check-with-95--ci--judged-by-judge---m--prompts-v2.svg"),
        "{listed}"
    );

    let v = eval("biased", "v1");
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 2);
    for p in pairs {
        assert_eq!(
            (p["judged"]["preference"].as_str(), p["judged"]["position_flip"].as_bool()),
            (Some("tie"), Some(true)),
            "{p}"
        );
    }
    let pref = &v["preference"][0];
    assert_eq!(
        (pref["ties"].as_u64(), pref["rate"].clone(), pref["flip_rate"].as_f64()),
        (Some(2), serde_json::Value::Null, Some(1.0))
    );

    let v = eval("refusing", "v1");
    let judged =
        v["pairs"].as_array().unwrap().iter().find(|p| p["task"] == "csv-summary#csv-summary-judge-002").unwrap();
    assert_eq!(judged["scored"], false);
    let why = judged["excluded"][0].as_str().unwrap();
    assert!(
        why.starts_with("NO SCORE on the without arm: the judge's answer is not the JSON asked for")
            && why.ends_with("asked twice"),
        "{why}"
    );
    assert_eq!(judged["judged"]["with"]["score"], serde_json::Value::Null);
}
