//! `skillscope gate`: exit codes and their one-line reasons, each check failing on its own, evidence
//! counted only on the exact content, and result files other tools read (JUnit parsed back here;
//! the SARIF goes through Microsoft's validator in CI, `scripts/validate_sarif.sh`).

use crate::common::{run, text};
use junit_parser::TestStatus;
use std::path::{Path, PathBuf};

fn scan_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/scan").join(name).canonicalize().unwrap()
}

/// Runs the gate on `target` with an optional policy text; returns the exit code, stderr and the
/// parsed JUnit file.
fn gate(home: &Path, target: &Path, policy: Option<&str>) -> (i32, String, junit_parser::TestSuites) {
    let out = home.join("out");
    let _ = std::fs::remove_dir_all(&out);
    let mut args = vec!["gate".to_string(), target.display().to_string(), "--out".into(), out.display().to_string()];
    if let Some(text) = policy {
        let path = home.join("policy.toml");
        std::fs::write(&path, text).unwrap();
        args.extend(["--policy".into(), path.display().to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(home, &args, "");
    let code = o.status.code().unwrap();
    assert!(code < 2, "{}", text(&o));
    for f in ["gate.json", "gate.sarif", "gate.md"] {
        assert!(out.join(f).is_file(), "{f} not written");
    }
    let xml = std::fs::File::open(out.join("gate.junit.xml")).unwrap();
    (
        code,
        String::from_utf8_lossy(&o.stderr).into_owned(),
        junit_parser::from_reader(std::io::BufReader::new(xml)).unwrap(),
    )
}

/// The status of `check` for the (only) skill in a JUnit report.
fn status<'a>(junit: &'a junit_parser::TestSuites, check: &str) -> &'a TestStatus {
    let cases = &junit.suites[0].cases;
    &cases
        .iter()
        .find(|c| c.name.ends_with(&format!("::{check}")))
        .unwrap_or_else(|| panic!("no {check} in {cases:?}"))
        .status
}

fn failure(s: &TestStatus) -> &str {
    match s {
        TestStatus::Failure(f) => &f.message,
        other => panic!("not a failure: {other:?}"),
    }
}

#[test]
fn the_gate_passes_fails_each_check_and_says_why() {
    let home = tempfile::tempdir().unwrap();
    let benign = scan_fixture("csv-column-profiler");

    let (code, stderr, junit) = gate(home.path(), &benign, None);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!((junit.suites.len(), junit.suites[0].cases.len()), (1, 5));
    assert!(status(&junit, "quality").is_success() && status(&junit, "security").is_success());
    match status(&junit, "evaluation") {
        TestStatus::Skipped(s) => assert!(s.message.starts_with("not evaluated"), "{}", s.message),
        other => panic!("{other:?}"),
    }

    let (code, stderr, junit) = gate(home.path(), &scan_fixture("b2-env-exfil-chain"), None);
    assert_eq!(code, 1);
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("b2-env-exfil-chain security: security"), "{stderr}");
    assert!(failure(status(&junit, "security")).contains("critical at scripts/diag.js"));

    // Quality 78.7, security 97 with one low finding.
    let modest = scan_fixture("benign-api-keys");
    assert_eq!(gate(home.path(), &modest, None).0, 0);
    let (code, stderr, junit) = gate(home.path(), &modest, Some("[quality]\nmin_score = 80\n"));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(failure(status(&junit, "quality")), "quality 78.7 < 80");
    let (code, _, junit) = gate(home.path(), &modest, Some("[security]\nmax_severity = \"info\"\n"));
    assert_eq!(code, 1);
    assert!(failure(status(&junit, "security")).contains("1 finding(s) above info"));

    for check in ["evaluation", "probes", "decision"] {
        let (code, _, junit) = gate(home.path(), &benign, Some(&format!("[{check}]\nrequired = true\n")));
        assert_eq!(code, 1, "{check} required without evidence");
        assert!(failure(status(&junit, check)).ends_with("(required by the policy)"));
    }
}

#[test]
fn evidence_counts_only_on_the_exact_content() {
    let home = tempfile::tempdir().unwrap();
    let skill = home.path().join("src/csv-column-profiler");
    std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
    let copy = std::process::Command::new("cp").arg("-r").arg(scan_fixture("csv-column-profiler")).arg(&skill).status();
    assert!(copy.unwrap().success());
    let path = skill.to_str().unwrap();
    assert!(run(home.path(), &["import", path], "").status.success());
    let decide =
        ["decide", "csv-column-profiler", "--verdict", "reject", "--rationale", "no tests", "--reviewer", "ana"];
    assert!(run(home.path(), &decide, "").status.success());

    // The library holds this content: the reviewer's rejection fails the gate though the policy
    // does not require a decision.
    let (code, stderr, junit) = gate(home.path(), &skill, None);
    assert_eq!(code, 1);
    assert!(failure(status(&junit, "decision")).starts_with("reject by ana"), "{stderr}");

    // One changed byte is other content: the rejection of version 1 says nothing about it.
    let md = skill.join("SKILL.md");
    std::fs::write(&md, std::fs::read_to_string(&md).unwrap() + "\n").unwrap();
    let (code, _, junit) = gate(home.path(), &skill, None);
    assert_eq!(code, 0);
    assert!(matches!(status(&junit, "decision"), TestStatus::Skipped(_)));
    let summary = std::fs::read_to_string(home.path().join("out/gate.md")).unwrap();
    assert!(summary.contains("csv-column-profiler (not in the library)"), "{summary}");
}

#[test]
fn a_gate_that_cannot_run_exits_2_with_the_reason() {
    let home = tempfile::tempdir().unwrap();
    let benign = scan_fixture("csv-column-profiler");
    let policy = home.path().join("policy.toml");
    std::fs::write(&policy, "[security]\nmin_scor = 90\n").unwrap();
    for (args, says) in [
        (vec!["gate", benign.to_str().unwrap(), "--policy", policy.to_str().unwrap()], "unknown field `min_scor`"),
        (vec!["gate", "/nonexistent/skills"], "no skill named"),
        (vec!["gate", benign.to_str().unwrap(), "--policy", "/nonexistent/policy.toml"], "cannot read the policy"),
    ] {
        let o = run(home.path(), &args, "");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(
            stderr.starts_with("skillscope: invalid_input: ") || stderr.starts_with("skillscope: not_found: "),
            "{stderr}"
        );
        assert!(stderr.contains(says) && stderr.lines().count() == 1, "{stderr}");
    }
}

/// Evals as code: with `evaluation.run_with`, the gate imports the skill and runs its own evals/
/// (the case with a verify_command; the judge-only case is left out) on the real engine with the
/// scripted model, then judges the experiment it ran on this exact content.
#[test]
fn the_gate_runs_a_skills_own_evals_when_the_policy_names_an_agent() {
    crate::common::join_session_keyring();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let write = "printf 'Rows: 3\\nTotal units: 20\\nTotal revenue: 530\\n' > summary.md";
    let script = serde_json::json!({"default": [{"tool": "bash", "args": {"command": write}}, {"text": "written"}]});
    let server = crate::common::scripted_server(&rt, script);
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    for args in [
        vec!["image", "bootstrap", "--busybox-only"],
        vec!["provider", "add", "local", "--api", "anthropic", "--base-url", &server.base_url],
        vec!["agent", "add", "builtin", "--provider", "local", "--model", "m"],
    ] {
        crate::common::ok(run(h, &args, ""));
    }
    crate::common::ok(run(h, &["credential", "set", "local"], "sk-gate-evals-000000"));
    let skill =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/tasks/evals/csv-summary").canonicalize().unwrap();

    let (code, stderr, junit) = gate(h, &skill, Some("[evaluation]\nrun_with = \"builtin\"\nrequired = true\n"));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("csv-summary: its evals ran as experiment #1"), "{stderr}");
    assert!(stderr.contains("left out, its verifier is"), "the judge-only case is named: {stderr}");
    let TestStatus::Success = status(&junit, "evaluation") else { panic!("{:?}", status(&junit, "evaluation")) };
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(h.join("out/gate.json")).unwrap()).unwrap();
    let evaluation = &json["skills"][0]["checks"][3];
    assert_eq!(evaluation["check"], "evaluation");
    assert!(evaluation["detail"].as_str().unwrap().contains("Δ +0.0 (q 1.000, n 1)"), "{evaluation}");
    assert_eq!(json["skills"][0]["version"], 1, "judged on the version it imported");
}
