//! Issue 19, tasks from the skill itself: `skillscope generate` with the scripted model server as
//! the writer. A good answer becomes drafts (one clean, one copying the SKILL.md procedure and
//! flagged with the copied spans); malformed and unverifiable answers are refused with why;
//! drafts stay out of experiments until approved, and an approved draft runs end to end with a
//! judge.

use crate::common::{self, join_session_keyring, ok, run, text};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A writer answering every drafting request (a question without tools) with `text`.
fn writer(text: String) -> serde_json::Value {
    serde_json::json!({"branches": [{"if_prompt_contains": "## SKILL.md", "steps": [{"text": text}]}]})
}

fn evals(items: serde_json::Value) -> serde_json::Value {
    writer(serde_json::json!({ "evals": items }).to_string())
}

#[test]
fn drafts_are_guarded_reviewed_and_only_approved_ones_run() {
    join_session_keyring();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let clean = "Summarise input/q3.csv for the finance team: how many rows, and what are the totals?";
    let leaky = "Read the CSV with Python's csv module, count the data rows and total every numeric column of q3.csv";
    let good = common::scripted_server(
        &rt,
        evals(serde_json::json!([
            {"prompt": clean, "expected_output": "Rows: 3", "expectations": ["States the number of rows"]},
            {"prompt": leaky, "expected_output": "Rows: 3", "expectations": ["States the number of rows"]}])),
    );
    let malformed = common::scripted_server(&rt, writer("Here are some ideas: …".into()));
    let unverifiable = common::scripted_server(&rt, evals(serde_json::json!([{"prompt": clean, "expectations": []}])));
    let agent = common::scripted_server(&rt, serde_json::json!({"default": [{"text": "Rows: 3"}]}));
    let judge = common::scripted_server(
        &rt,
        serde_json::json!({"branches": [
            {"if_prompt_contains": "## Run B", "steps": [{"text": "{\"better\": \"A\", \"reason\": \"first\"}"}]},
            {"if_prompt_contains": "Transcript of the run", "steps": [{"text":
                "{\"expectations\": [{\"passed\": true, \"evidence\": \"Rows: 3\"}]}"}]}]}),
    );
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    ok(run(h, &["image", "bootstrap", "--busybox-only"], ""));
    for (id, server) in [
        ("good", &good),
        ("malformed", &malformed),
        ("unverifiable", &unverifiable),
        ("agent", &agent),
        ("judge", &judge),
    ] {
        ok(run(h, &["provider", "add", id, "--api", "openai_chat", "--base-url", &server.base_url], ""));
        ok(run(h, &["credential", "set", id], &format!("sk-{id}-generate-test-0000")));
        ok(run(h, &["agent", "add", id, "--provider", id, "--model", "m"], ""));
    }
    ok(run(h, &["import", root().join("fixtures/tasks/evals/csv-summary").to_str().unwrap()], ""));

    let g = ok(run(h, &["generate", "csv-summary", "--count", "2", "--config", "good", "--json"], ""));
    assert_eq!((g["prompt_version"].as_str(), g["model_reported"].as_str()), (Some("draft-evals-v1"), Some("m")));
    let drafts = g["drafts"].as_array().unwrap();
    assert_eq!(drafts.len(), 2);
    assert_eq!(drafts[0]["leakage"]["flagged"], false, "{}", drafts[0]);
    let leak = &drafts[1]["leakage"];
    assert_eq!(leak["flagged"], true, "{leak}");
    let spans: Vec<&str> = leak["spans"].as_array().unwrap().iter().map(|s| s["text"].as_str().unwrap()).collect();
    // Two copied runs side by side make one span: all but the file name is the skill's procedure.
    let copied = "Read the CSV with Python's csv module, count the data rows and total every numeric column";
    assert_eq!(spans, [copied]);
    assert!(drafts[1]["task"]["warnings"][0].as_str().unwrap().contains(&format!("\"{copied}\"")));
    let set = g["import"]["task_set"]["id"].as_i64().unwrap().to_string();
    assert_eq!(g["import"]["task_set"]["source_kind"], "generated");
    let (first, second) = (drafts[0]["task"]["id"].as_str().unwrap(), drafts[1]["task"]["id"].as_str().unwrap());

    for (writer, why) in [
        ("malformed", "did not draft usable tasks: the model's answer is not the JSON asked for"),
        ("unverifiable", "did not draft usable tasks: task 1 has 0 expectation(s)"),
    ] {
        let out = run(h, &["generate", "csv-summary", "--count", "1", "--config", writer], "");
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(text(&out).contains(why), "{}", text(&out));
    }

    let eval = |h: &Path| {
        let args = ["eval", "--skill", "csv-summary", "--task-set", &set, "--config", "agent", "--judge", "judge"];
        run(h, &[&args[..], &["--json"]].concat(), "")
    };
    // Nothing approved yet: nothing runs, and the reason is said.
    let out = eval(h);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains(&format!("{first}: left out, a draft not approved")), "{}", text(&out));

    let approved = run(h, &["tasks", "approve", first, "--reviewer", "Ada Lovelace"], "");
    assert!(text(&approved).contains("Approved by Ada Lovelace"), "{}", text(&approved));
    ok(run(h, &["tasks", "reject", second, "--reviewer", "Ada Lovelace", "--set", &set], ""));
    let out = run(h, &["tasks", "approve", "csv-summary#gen-nope", "--reviewer", "Ada"], "");
    assert!(text(&out).contains("no generated task \"csv-summary#gen-nope\""), "{}", text(&out));
    let out = run(h, &["tasks", "approve", first, "--reviewer", " "], "");
    assert!(text(&out).contains("a review needs the reviewer's name"), "{}", text(&out));

    // The approved draft runs through an experiment with both arms and is graded; the rejected one does not.
    let out = eval(h);
    let v = ok(out);
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1, "{v}");
    assert_eq!((pairs[0]["task"].as_str(), pairs[0]["scored"].as_bool()), (Some(first), Some(true)), "{v}");
    assert_eq!(pairs[0]["judged"]["with"]["score"].as_f64(), Some(1.0));
    // The deployment report's evidence says who approved the draft the experiment ran.
    let md = String::from_utf8_lossy(&run(h, &["report", "csv-summary", "--format", "md"], "").stdout).into_owned();
    let line = md.lines().find(|l| l.starts_with("- task set #")).unwrap_or_else(|| panic!("{md}"));
    assert!(line.contains(&format!("{first} approved by Ada Lovelace at ")) && !line.contains(second), "{line}");
}
