//! Issue 19, tasks set in a repository: `skillscope generate --kind requirements --repo R --commit
//! C` with the scripted model server as the writer (`fixtures/models/stats-requirements-writer.json`),
//! over `fixtures/repos/stats-lib` put under Git by this test (a module, and a requirements file
//! naming a wheel vendored in the repository). The
//! environment is built from the repository at the commit, with the dependency installed, and
//! reused on the second generation; each generated pytest verifier is checked in the sandbox
//! (fails untouched, passes after the reference solution, same result twice) and a faulty one is
//! flagged; unverifiable and malformed documents and an unfetchable dependency are refused with
//! why; an approved requirement runs through an experiment end to end.

use crate::common::{self, join_session_keyring, ok, run, text};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn sh(dir: &Path, script: &str) -> String {
    let out = Command::new("sh").arg("-c").arg(script).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "{script}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `fixtures/repos/stats-lib` as a Git repository at `dir`, its requirements file replaced by
/// `requirement` when given. Returns its commit.
fn make_repository(dir: &Path, requirement: Option<&str>) -> String {
    let fixture = root().join("fixtures/repos/stats-lib");
    sh(Path::new("/"), &format!("cp -r '{}' '{}'", fixture.display(), dir.display()));
    if let Some(r) = requirement {
        std::fs::write(dir.join("requirements.txt"), format!("{r}\n")).unwrap();
    }
    sh(dir, "git init -q . && git config user.email t@e && git config user.name t && git add . && git commit -qm init && git rev-parse HEAD")
}

/// A writer answering a drafting request (a question without tools) with these tasks.
fn writer(tasks: serde_json::Value) -> serde_json::Value {
    let text = serde_json::json!({ "tasks": tasks }).to_string();
    serde_json::json!({"branches": [{"if_prompt_contains": "## SKILL.md", "steps": [{"text": text}]}]})
}

/// The fixture writer's sound requirement, changed by `change`.
fn sound_requirement(script: &serde_json::Value, change: impl Fn(&mut serde_json::Value)) -> serde_json::Value {
    let text = script["branches"][0]["steps"][0]["text"].as_str().unwrap();
    let mut sound = serde_json::from_str::<serde_json::Value>(text).unwrap()["tasks"][0].clone();
    change(&mut sound);
    sound
}

#[test]
fn requirements_in_a_repository_are_built_checked_in_the_sandbox_reviewed_and_run() {
    join_session_keyring();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // Three documents: sound, passing untouched, wrongly solved; as an agent, it solves the sound one.
    let script: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("fixtures/models/stats-requirements-writer.json")).unwrap(),
    )
    .unwrap();
    let good = common::scripted_server(&rt, script.clone());
    let one_test = sound_requirement(&script, |r| r["tests"] = "def test_one():\n    assert True\n".into());
    let unverifiable = common::scripted_server(&rt, writer(serde_json::json!([one_test])));
    let no_criteria = sound_requirement(&script, |r| {
        r["document"] = r["document"].as_str().unwrap().replace("## Acceptance Criteria", "## Notes").into()
    });
    let malformed = common::scripted_server(&rt, writer(serde_json::json!([no_criteria])));
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    ok(run(h, &["image", "bootstrap"], ""));
    for (id, server) in [("good", &good), ("unverifiable", &unverifiable), ("malformed", &malformed)] {
        ok(run(h, &["provider", "add", id, "--api", "openai_chat", "--base-url", &server.base_url], ""));
        ok(run(h, &["credential", "set", id], &format!("sk-{id}-generate-repo-test-0000")));
        ok(run(h, &["agent", "add", id, "--provider", id, "--model", "m"], ""));
    }
    ok(run(h, &["import", root().join("fixtures/tasks/evals/csv-summary").to_str().unwrap()], ""));
    let repo = h.join("stats-repo");
    let commit = make_repository(&repo, None);
    // A later commit the tasks are not set at: the environment holds the pinned one.
    sh(&repo, "echo 'def later(): pass' >> stats.py && git commit -qam later");
    let generate = |writer: &str, repo: &Path, commit: &str| {
        let args = ["generate", "csv-summary", "--kind", "requirements", "--count", "3", "--config", writer];
        run(h, &[&args[..], &["--repo", repo.to_str().unwrap(), "--commit", commit, "--json"]].concat(), "")
    };

    let g = ok(generate("good", &repo, &commit[..10]));
    assert_eq!(
        (g["draft_kind"].as_str(), g["prompt_version"].as_str()),
        (Some("requirements"), Some("draft-requirements-v1"))
    );
    let env = &g["environment"];
    assert_eq!(
        (env["origin"]["commit"].as_str(), env["language"].as_str()),
        (Some(commit.as_str()), Some("python")),
        "{env}"
    );
    assert_eq!(env["notes"][0], "pip installs requirements.txt");
    let drafts = g["drafts"].as_array().unwrap();
    let sanity = |i: usize| &drafts[i]["verifier_sanity"];
    assert_eq!(sanity(0)["state"], "passed", "{}", sanity(0));
    assert_eq!(
        (sanity(0)["untouched"].clone(), sanity(0)["reference"].clone()),
        (serde_json::json!([0.0, 0.0]), serde_json::json!([1.0, 1.0]))
    );
    assert_eq!(sanity(1)["state"], "flagged");
    assert_eq!(
        sanity(1)["problems"],
        serde_json::json!(["passes on the untouched environment (pass ratio 1.00): it does not test the change"])
    );
    assert_eq!(sanity(2)["problems"], serde_json::json!(["the reference solution does not pass (pass ratio 0.33)"]));
    let first = drafts[0]["task"]["id"].as_str().unwrap().to_string();
    assert_eq!(first, "csv-summary#req-1");
    assert_eq!(drafts[0]["task"]["name"], "csv-summary requirement #1: Add a median");

    // Generated again over the same repository state: the environment's image is reused.
    let again = ok(generate("good", &repo, &commit));
    assert_eq!(again["environment"]["reused"], true, "{}", again["environment"]);
    assert_eq!(again["environment"]["image_id"], g["environment"]["image_id"]);
    assert_eq!(again["sanity_run"], g["sanity_run"]);
    // The human text says the same.
    let out = text(&run(h, &["tasks", "list"], ""));
    assert!(out.contains("csv-summary v1 requirements v1  3 task(s), 3 runnable"), "{out}");

    for (writer, why) in [
        ("unverifiable", "requirement 1's pytest file has 1 test function(s); at least 3 are needed"),
        ("malformed", "requirement 1: no `## Acceptance Criteria` section"),
    ] {
        let out =
            run(h, &["generate", "csv-summary", "--kind", "requirements", "--count", "1", "--config", writer], "");
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(text(&out).contains(why), "{}", text(&out));
    }
    let absent = h.join("absent-repo");
    let absent_commit = make_repository(&absent, Some("skillscope-absent-package==9.9.9"));
    let out = generate("good", &absent, &absent_commit);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("the environment's dependencies could not be fetched: skillscope-absent-package==9.9.9"),
        "{}",
        text(&out)
    );
    // A lockfile's pins are what pip installs: the one pin no index has is named.
    let locked = h.join("locked-repo");
    make_repository(&locked, None);
    let lock = r#"{"default": {"skillscope-absent-locked": {"version": "==1.2.3"}}, "develop": {}}"#;
    std::fs::write(locked.join("Pipfile.lock"), lock).unwrap();
    let locked_commit =
        sh(&locked, "git rm -q requirements.txt && git add . && git commit -qm lock && git rev-parse HEAD");
    let out = generate("good", &locked, &locked_commit);
    assert!(
        text(&out).contains("the environment's dependencies could not be fetched: skillscope-absent-locked==1.2.3"),
        "{}",
        text(&out)
    );

    // A reviewer's edit: a draft approved, then changed to carry the skill's procedure, is flagged
    // for leakage and loses its approval.
    let set = g["import"]["task_set"]["id"].as_i64().unwrap().to_string();
    let second = drafts[1]["task"]["id"].as_str().unwrap();
    ok(run(h, &["tasks", "approve", second, "--reviewer", "Grace Hopper", "--set", &set], ""));
    let leaky = "Read the CSV with Python's csv module, count the data rows and total every numeric column, then write summary.md.";
    let out = run(h, &["tasks", "edit", second, "--set", &set, "--instruction-file", "-"], leaky);
    assert!(text(&out).contains("edited; any verdict on it was withdrawn"), "{}", text(&out));
    assert!(text(&out).contains("warning: leakage: "), "{}", text(&out));
    let detail = ok(run(h, &["tasks", "show", &set, "--json"], ""));
    let edited = detail["tasks"].as_array().unwrap().iter().find(|t| t["id"] == second).unwrap();
    assert_eq!(edited["review"], serde_json::Value::Null, "{edited}");

    // The approved requirement runs in its built environment, both arms, scored by its pytest file.
    ok(run(h, &["tasks", "approve", &first, "--reviewer", "Grace Hopper"], ""));
    let v = ok(run(h, &["eval", "--skill", "csv-summary", "--task-set", &set, "--config", "good", "--json"], ""));
    assert_eq!((v["pairs_scored"].as_u64(), v["pairs_excluded"].as_u64()), (Some(1), Some(0)), "{v}");
    let s = &v["report"]["skills"][0];
    assert_eq!((s["mean_without"].as_f64(), s["mean_with"].as_f64()), (Some(100.0), Some(100.0)), "{s}");
    // The only experiment of this workspace.
    let pairs = ok(run(h, &["experiment", "pairs", "1", "--json"], ""));
    assert_eq!(pairs[0]["task"].as_str(), Some(first.as_str()), "{pairs}");
    // Once an experiment ran the set, its tasks stay as they ran.
    let out = run(h, &["tasks", "edit", &first, "--set", &set, "--instruction-file", "-"], "Something else.");
    assert!(
        text(&out).contains(&format!("task set #{set} was run by experiment #1: its tasks stay as they ran")),
        "{}",
        text(&out)
    );
}
