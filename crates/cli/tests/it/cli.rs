//! The `skillscope` binary as scripts use it: JSON shapes, exit codes, one-line errors.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

use crate::common;

fn run(home: &Path, args: &[&str]) -> Output {
    common::run(home, args, "")
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn import_list_show_carry_the_documented_fields() {
    let home = tempfile::tempdir().unwrap();
    let src = fixtures().join("skills");
    let v = json(&run(home.path(), &["import", src.to_str().unwrap(), "--json"]));
    let skills = v["skills"].as_array().unwrap();
    assert_eq!(skills.len(), 3);
    for s in skills {
        for key in ["id", "name", "version", "sha256", "source", "findings", "status"] {
            assert!(s.get(key).is_some(), "import JSON lacks {key}: {s}");
        }
        assert_eq!(s["status"], "new_skill");
    }
    let again = json(&run(home.path(), &["import", src.to_str().unwrap(), "--json"]));
    assert!(again["skills"].as_array().unwrap().iter().all(|s| s["status"] == "unchanged"));

    let list = json(&run(home.path(), &["list", "--json"]));
    assert_eq!(list.as_array().unwrap().len(), 3);
    assert!(list[0]["scan"]["grade"].is_string(), "imports are scanned: {}", list[0]);

    let show = json(&run(home.path(), &["show", "csv-insights", "--json"]));
    assert_eq!(show["name"], "csv-insights");
    assert!(show["files"].as_array().unwrap().iter().any(|f| f["path"] == "scripts/summarize.py"));
}

#[test]
fn errors_are_one_line_with_code_and_exit_2() {
    let home = tempfile::tempdir().unwrap();
    let out = run(home.path(), &["show", "no-such-skill"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("skillscope: not_found:"), "{err}");
}

#[test]
fn scan_a_path_of_many_skills_with_formats_and_gate() {
    let home = tempfile::tempdir().unwrap();
    let scan_dir = fixtures().join("scan");
    let v = json(&run(home.path(), &["scan", scan_dir.to_str().unwrap(), "--format", "json"]));
    let skills = v["skills"].as_array().unwrap();
    assert!(skills.len() >= 20, "each skill under the path is scanned");
    let b2 = skills.iter().find(|s| s["name"] == "b2-env-exfil-chain").unwrap();
    for key in ["overall", "grade", "dimensions", "findings"] {
        assert!(b2["quality"].get(key).is_some(), "quality lacks {key}");
    }
    assert_eq!(b2["security"]["risky"], true);
    let f = &b2["security"]["findings"][0];
    for key in ["pattern", "category", "severity", "file", "line", "message", "evidence"] {
        assert!(f.get(key).is_some(), "finding lacks {key}: {f}");
    }
    assert!(b2["path"].as_str().unwrap().ends_with("b2-env-exfil-chain"));

    // A folder of many skills: each location is relative to the scanned folder, named by a
    // `uriBaseId`, and no local path is left anywhere in the file (code scanning anchors findings
    // to the repository; the file travels).
    let raw = run(home.path(), &["scan", scan_dir.to_str().unwrap(), "--format", "sarif"]);
    let text = String::from_utf8_lossy(&raw.stdout);
    let canonical = scan_dir.canonicalize().unwrap();
    for local in [scan_dir.as_path(), canonical.as_path(), home.path()] {
        assert!(!text.contains(local.to_str().unwrap()), "{} is in the SARIF", local.display());
    }
    let sarif = json(&raw);
    assert_eq!(sarif["version"], "2.1.0");
    let run0 = &sarif["runs"][0];
    assert_eq!(run0["originalUriBaseIds"]["%SRCROOT%"]["description"]["text"], "folder <local>/scan");
    let results = run0["results"].as_array().unwrap();
    let b2 = results
        .iter()
        .find(|r| {
            r["properties"]["skill"] == "b2-env-exfil-chain" && r["ruleId"].as_str().unwrap().starts_with("security/")
        })
        .expect("a security finding of b2");
    let at = &b2["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(at["uriBaseId"], "%SRCROOT%");
    assert!(at["uri"].as_str().unwrap().starts_with("b2-env-exfil-chain/"), "{at}");
    assert!(b2["partialFingerprints"]["skillscopeFinding/v1"].as_str().unwrap().len() == 64);
    let rule = run0["tool"]["driver"]["rules"].as_array().unwrap().iter().find(|r| r["id"] == b2["ruleId"]).unwrap();
    assert!(rule["properties"]["security-severity"].as_str().unwrap().parse::<f64>().unwrap() > 0.0);
    assert!(rule["help"]["text"].as_str().is_some_and(|t| !t.is_empty()));

    let benign = fixtures().join("scan/csv-column-profiler");
    let ok = run(home.path(), &["scan", benign.to_str().unwrap(), "--fail-under", "50"]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    let gate = run(home.path(), &["scan", scan_dir.join("b2-env-exfil-chain").to_str().unwrap(), "--fail-under", "80"]);
    assert_eq!(gate.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&gate.stderr).contains("b2-env-exfil-chain"));
    assert_eq!(
        json(&run(home.path(), &["list", "--json"])).as_array().unwrap().len(),
        0,
        "scanning a path imports nothing"
    );
}

#[test]
fn queue_status_pause_resume_cancel_as_json() {
    let home = tempfile::tempdir().unwrap();
    let st = json(&run(home.path(), &["queue", "status", "--json"]));
    assert_eq!(st["status"]["paused"], false);
    assert!(st["status"]["counts"]["queued"].is_number() && st["runs"].is_array());
    assert_eq!(json(&run(home.path(), &["queue", "pause", "--json"]))["paused"], true);
    assert_eq!(json(&run(home.path(), &["queue", "status", "--json"]))["status"]["paused"], true);
    assert_eq!(json(&run(home.path(), &["queue", "resume", "--json"]))["paused"], false);
    assert_eq!(json(&run(home.path(), &["queue", "cancel", "--run", "999", "--json"]))["cancelled"], 0);
    let bad = run(home.path(), &["queue", "cancel"]);
    assert_eq!(bad.status.code(), Some(2), "clap usage errors exit 2");
}

#[test]
fn a_dead_container_engine_is_an_engine_error_that_says_where_it_looked() {
    let home = tempfile::tempdir().unwrap();
    let socket = home.path().join("no-daemon.sock");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .arg("--home")
        .arg(home.path())
        .args(["image", "bootstrap", "--busybox-only"])
        .env("DOCKER_HOST", format!("unix://{}", socket.display()))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("skillscope: engine: "), "{stderr}");
    assert!(last.contains("no-daemon.sock"), "the message names the socket it tried: {stderr}");
}
