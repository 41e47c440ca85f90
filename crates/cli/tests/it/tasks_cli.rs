//! `skillscope tasks import|list`: a task set is stored once per content (wherever it was read
//! from), a changed task makes a new version, a Dockerfile context outlives its source folder,
//! and every importer is reachable by kind.

use crate::common::{ok, run, text};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/tasks")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    assert!(Command::new("cp").arg("-r").arg(from).arg(to).status().unwrap().success());
}

fn import(home: &Path, path: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["tasks", "import", path.to_str().unwrap(), "--json"];
    args.extend(extra);
    ok(run(home, &args, ""))
}

#[test]
fn a_task_set_is_stored_once_per_content_and_versioned_when_it_changes() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let src = tempfile::tempdir().unwrap();
    let harbor = src.path().join("a/harbor");
    copy_dir(&fixtures().join("harbor"), &harbor);
    std::fs::create_dir_all(harbor.join("broken")).unwrap();
    std::fs::write(harbor.join("broken/task.toml"), "version = [\n").unwrap();

    let first = import(h, &harbor, &[]);
    let set = &first["task_set"];
    assert_eq!((set["name"].as_str(), set["version"].as_u64()), (Some("harbor"), Some(1)), "{first}");
    assert_eq!((set["source_kind"].as_str(), first["reused"].as_bool()), (Some("harbor"), Some(false)));
    let ids: Vec<&str> = first["tasks"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["skillscope/greeting-prebuilt", "skillscope/sum-report"]);
    for t in first["tasks"].as_array().unwrap() {
        assert!(t["verifier"].as_str().unwrap().contains("reward"), "{t}");
        assert!(t["warnings"].is_array());
    }
    let errors = first["errors"].as_array().unwrap();
    assert!(errors.len() == 1 && errors[0].as_str().unwrap().contains("broken"), "one bad task, named: {errors:?}");

    // The same content read from elsewhere is the same set; the build context lives in the workspace.
    let moved = src.path().join("b/harbor");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::rename(&harbor, &moved).unwrap();
    let again = import(h, &moved, &[]);
    assert_eq!((again["task_set"]["id"].clone(), again["reused"].as_bool()), (set["id"].clone(), Some(true)));
    std::fs::remove_dir_all(src.path().join("b")).unwrap();
    let contexts: Vec<_> = std::fs::read_dir(h.join("task-sets/contexts")).unwrap().collect();
    assert_eq!(contexts.len(), 1, "sum-report's environment/ is kept");
    assert!(contexts[0].as_ref().unwrap().path().join("Dockerfile").is_file());

    // A changed instruction is a new version of the set.
    let changed = src.path().join("c/harbor");
    copy_dir(&fixtures().join("harbor"), &changed);
    std::fs::write(changed.join("sum-report/instruction.md"), "Sum the numbers, then write report.txt.\n").unwrap();
    let second = import(h, &changed, &[]);
    assert_eq!((second["task_set"]["version"].as_u64(), second["reused"].as_bool()), (Some(2), Some(false)));
    assert_ne!(second["task_set"]["sha256"], set["sha256"]);

    let listed = ok(run(h, &["tasks", "list", "--json"], ""));
    let versions: Vec<u64> = listed.as_array().unwrap().iter().map(|s| s["version"].as_u64().unwrap()).collect();
    assert_eq!(versions, [2, 1], "newest first");
}

#[test]
fn every_importer_is_reachable_and_a_wrong_kind_says_what_is_missing() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let evals = import(h, &fixtures().join("evals/csv-summary"), &["--kind", "evals"]);
    assert_eq!(evals["task_set"]["source_kind"], "evals_json", "{evals}");
    let runnable: Vec<bool> =
        evals["tasks"].as_array().unwrap().iter().map(|t| t["runnable"].as_bool().unwrap()).collect();
    assert_eq!(runnable, [true, false], "the judge-only case is listed, not runnable");
    assert_eq!(evals["task_set"]["runnable_count"], 1);

    let bench = import(h, &fixtures().join("swe-skills-bench"), &[]);
    assert_eq!(bench["task_set"]["source_kind"], "swe_skills_bench", "auto finds the benchmark config: {bench}");
    assert_eq!(bench["tasks"].as_array().unwrap().len(), 2);

    let wrong =
        run(h, &["tasks", "import", fixtures().join("evals/csv-summary").to_str().unwrap(), "--kind", "harbor"], "");
    assert!(!wrong.status.success());
    assert!(text(&wrong).contains("task.toml"), "{}", text(&wrong));
    let nothing = run(h, &["tasks", "import", "/nonexistent/tasks"], "");
    assert!(!nothing.status.success());
    assert!(text(&nothing).contains("no such file or folder"), "{}", text(&nothing));
    let empty = tempfile::tempdir().unwrap();
    let none = run(h, &["tasks", "import", empty.path().to_str().unwrap()], "");
    assert!(text(&none).contains("not a task source"), "{}", text(&none));
}
