use super::plan::{harbor_script, pytest_script};
use super::*;
use crate::model::{TaskFile, TaskVerifier};

macro_rules! junit {
    ($name:literal) => {
        include_bytes!(concat!("../../../../fixtures/tasks/junit/", $name)).as_slice()
    };
}

fn pytest() -> TaskVerifier {
    TaskVerifier::Pytest {
        test_files: vec![TaskFile::new("test_x.py", "def test_a(): pass\n")],
        args: vec![],
        tests_dir: "/tests".into(),
    }
}

fn harbor() -> TaskVerifier {
    TaskVerifier::HarborTests {
        tests_dir_files: vec![TaskFile::new("test.sh", "echo 1 > /logs/verifier/reward.txt\n")],
    }
}

fn json_cmd() -> TaskVerifier {
    TaskVerifier::JsonScoreCommand { command: "python3 score.py".into() }
}

fn exit_cmd() -> TaskVerifier {
    TaskVerifier::ExitCode { command: "test -f out.txt".into() }
}

// ---- pytest / JUnit ----

#[test]
fn junit_all_passed() {
    let s = score(&pytest(), Some(0), false, "", Some(junit!("all_passed.xml"))).unwrap();
    assert_eq!((s.passed, s.failed, s.skipped, s.errors), (3, 0, 0, 0));
    assert_eq!(s.value, 1.0);
}

#[test]
fn junit_mixed_outcomes_count_every_kind_in_the_denominator() {
    // pass, fail, skip, xfail (skipped), setup error, fail + teardown error
    // (two <testcase> elements, one test).
    let s = score(&pytest(), Some(1), false, "", Some(junit!("mixed.xml"))).unwrap();
    assert_eq!((s.passed, s.failed, s.skipped, s.errors), (1, 2, 2, 1));
    assert!((s.value - 1.0 / 6.0).abs() < 1e-12, "{}", s.value);
    assert!(s.detail.contains("teardown"), "{}", s.detail);
}

#[test]
fn junit_collection_error_scores_zero_with_an_error() {
    let s = score(&pytest(), Some(2), false, "", Some(junit!("collection_error.xml"))).unwrap();
    assert_eq!((s.passed, s.errors), (0, 1));
    assert_eq!(s.value, 0.0);
    assert!(s.detail.contains("exited 2"), "{}", s.detail);
}

#[test]
fn junit_legacy_root_and_nested_children() {
    let s = score(&pytest(), None, false, "", Some(junit!("legacy_testsuite_root.xml"))).unwrap();
    assert_eq!((s.passed, s.failed, s.skipped, s.errors), (2, 1, 1, 0));
    assert_eq!(s.value, 0.5);
}

#[test]
fn junit_no_tests_is_an_error_not_a_pass() {
    let e = score(&pytest(), Some(0), false, "", Some(junit!("no_tests.xml"))).unwrap_err();
    assert!(matches!(e, ScoreError::NoTestsCollected(_)), "{e}");
    let e = score(&pytest(), Some(5), false, "", Some(junit!("no_tests.xml"))).unwrap_err();
    assert!(matches!(e, ScoreError::NoTestsCollected(_)), "{e}");
    // Exit 5 wins even without a report.
    let e = score(&pytest(), Some(5), false, "", None).unwrap_err();
    assert!(matches!(e, ScoreError::NoTestsCollected(_)), "{e}");
}

#[test]
fn junit_missing_truncated_or_foreign_reports_are_errors() {
    let e = score(&pytest(), Some(1), false, "No module named pytest", None).unwrap_err();
    match e {
        ScoreError::MissingReport(m) => assert!(m.contains("No module named pytest"), "{m}"),
        e => panic!("{e}"),
    }
    let e = score(&pytest(), Some(1), false, "", Some(junit!("truncated.xml"))).unwrap_err();
    assert!(matches!(e, ScoreError::BadReport(_)), "{e}");
    let e = score(&pytest(), Some(0), false, "", Some(b"<html><body/></html>")).unwrap_err();
    assert!(matches!(e, ScoreError::BadReport(ref m) if m.contains("<html>")), "{e}");
    let e = score(&pytest(), Some(0), false, "", Some(b"")).unwrap_err();
    assert!(matches!(e, ScoreError::BadReport(_)), "{e}");
}

#[test]
fn junit_contradicting_exit_codes_are_errors() {
    let e = score(&pytest(), Some(0), false, "", Some(junit!("mixed.xml"))).unwrap_err();
    assert!(matches!(e, ScoreError::Inconsistent(_)), "{e}");
    let e = score(&pytest(), Some(1), false, "", Some(junit!("all_passed.xml"))).unwrap_err();
    assert!(matches!(e, ScoreError::Inconsistent(_)), "{e}");
    for code in [3, 4] {
        let e = score(&pytest(), Some(code), false, "boom", Some(junit!("all_passed.xml"))).unwrap_err();
        assert!(matches!(e, ScoreError::VerifierFailed(_)), "{e}");
    }
}

#[test]
fn junit_same_name_cases_merge_but_parametrized_ones_do_not() {
    let xml = br#"<testsuites><testsuite>
        <testcase classname="m" name="t[1]"/><testcase classname="m" name="t[2]"><skipped/></testcase>
        <testcase classname="m" name="u"><error/></testcase><testcase classname="m" name="u"><error/></testcase>
        <testcase classname="other" name="u"/>
    </testsuite></testsuites>"#;
    let s = score(&pytest(), Some(1), false, "", Some(xml)).unwrap();
    assert_eq!((s.passed, s.failed, s.skipped, s.errors), (2, 0, 1, 1));
    assert_eq!(s.value, 0.5);
}

#[test]
fn junit_ignores_rerun_and_output_children() {
    // pytest-rerunfailures: a flaky test that passed on rerun.
    let xml = br#"<testsuites><testsuite><testcase classname="m" name="flaky">
        <rerunFailure message="x">trace</rerunFailure><system-out>log</system-out>
    </testcase></testsuite></testsuites>"#;
    let s = score(&pytest(), Some(0), false, "", Some(xml)).unwrap();
    assert_eq!((s.passed, s.value), (1, 1.0));
}

// ---- timeouts, judge, missing ----

#[test]
fn timeout_scores_zero_for_every_command_verifier() {
    for v in [pytest(), harbor(), json_cmd(), exit_cmd()] {
        let s = score(&v, None, true, "", None).unwrap();
        assert_eq!(s.value, 0.0);
        assert!(s.detail.contains("timed out"));
    }
}

#[test]
fn judge_and_missing_verifiers_do_not_score() {
    let judge = TaskVerifier::NeedsJudge { expectations: vec!["x".into()], expected_output: None };
    assert_eq!(score(&judge, Some(0), false, "", None), Err(ScoreError::NeedsJudge));
    let missing = TaskVerifier::Missing { reason: "no tests".into() };
    assert_eq!(score(&missing, Some(0), true, "", None), Err(ScoreError::NoVerifier("no tests".into())));
}

// ---- Harbor rewards ----

fn harbor_score(report: &str) -> Result<Score, ScoreError> {
    score(&harbor(), Some(0), false, "", Some(report.as_bytes()))
}

#[test]
fn harbor_reward_txt() {
    assert_eq!(harbor_score("1\n").unwrap().value, 1.0);
    assert_eq!(harbor_score("0").unwrap().value, 0.0);
    assert_eq!(harbor_score(" 0.25 \n").unwrap().value, 0.25);
    assert_eq!(harbor_score("--- reward.txt\n0.5\n\n").unwrap().value, 0.5);
    let e = harbor_score("pass\n").unwrap_err();
    assert!(matches!(e, ScoreError::BadReport(ref m) if m.contains("pass")), "{e}");
    let e = harbor_score("1.5").unwrap_err();
    assert!(matches!(e, ScoreError::OutOfRange { value, .. } if value == 1.5), "{e}");
    assert!(matches!(harbor_score("-0.1"), Err(ScoreError::OutOfRange { .. })));
    assert!(matches!(harbor_score("NaN"), Err(ScoreError::OutOfRange { .. })));
}

#[test]
fn harbor_reward_json_shapes() {
    assert_eq!(harbor_score(r#"{"reward": 0.75}"#).unwrap().value, 0.75);
    // The only key, whatever its name.
    let s = harbor_score(r#"{"accuracy": 1}"#).unwrap();
    assert_eq!(s.value, 1.0);
    assert!(s.detail.contains("accuracy"));
    // `reward` wins over other keys, even non-numeric ones.
    assert_eq!(harbor_score(r#"{"reward": 0.5, "accuracy": 0.9, "note": "x"}"#).unwrap().value, 0.5);
    let e = harbor_score(r#"{"accuracy": 0.5, "runtime_sec": 12.0}"#).unwrap_err();
    assert!(matches!(e, ScoreError::BadReport(ref m) if m.contains("accuracy, runtime_sec")), "{e}");
    assert!(matches!(harbor_score(r#"{"reward": true}"#), Err(ScoreError::BadReport(_))));
    assert!(matches!(harbor_score(r#"{"reward": 2}"#), Err(ScoreError::OutOfRange { .. })));
    assert!(matches!(harbor_score(r#"{"note": "x"}"#), Err(ScoreError::BadReport(_))));
    assert!(matches!(harbor_score("{oops"), Err(ScoreError::BadReport(_))));
    assert!(matches!(harbor_score("--- reward.json\n[1]\n"), Err(ScoreError::BadReport(_))));
}

#[test]
fn harbor_json_first_then_txt() {
    // Harbor reads reward.json first.
    let both = "--- reward.json\n{\"reward\": 0.2}\n\n--- reward.txt\n1\n\n";
    assert_eq!(harbor_score(both).unwrap().value, 0.2);
    // Several named rewards and no `reward` key: reward.txt decides.
    let aces =
        "--- reward.json\n{\"security\": 1, \"accuracy\": 0.5, \"metric_set\": \"v2\"}\n\n--- reward.txt\n0.75\n\n";
    let s = harbor_score(aces).unwrap();
    assert_eq!(s.value, 0.75);
    assert!(s.detail.contains("reward.txt"));
}

#[test]
fn harbor_without_reward_files_is_an_error() {
    let e = score(&harbor(), Some(1), false, "pytest: command not found", Some(b"")).unwrap_err();
    match e {
        ScoreError::MissingReport(m) => {
            assert!(m.contains("exit 1") && m.contains("command not found"), "{m}")
        }
        e => panic!("{e}"),
    }
    assert!(matches!(score(&harbor(), Some(0), false, "", None), Err(ScoreError::MissingReport(_))));
    assert!(matches!(score(&harbor(), Some(0), false, "", Some(&[0xff, 0xfe])), Err(ScoreError::BadReport(_))));
}

#[test]
fn harbor_exit_code_is_noted_not_scored() {
    let s = score(&harbor(), Some(1), false, "", Some(b"1")).unwrap();
    assert_eq!(s.value, 1.0);
    assert!(s.detail.contains("exited 1"), "{}", s.detail);
}

// ---- JSON score command ----

#[test]
fn json_score_takes_the_last_json_line() {
    let out =
        "building...\n{\"score\": 0.1}\nmore logs\n{\"score\": 0.8, \"passed\": 4, \"failed\": 1}\ntrailing text\n";
    let s = score(&json_cmd(), Some(0), false, out, None).unwrap();
    assert_eq!((s.value, s.passed, s.failed), (0.8, 4, 1));
    let s = score(&json_cmd(), Some(3), false, "{\"score\": 1}", None).unwrap();
    assert!(s.detail.contains("exited 3"));
}

#[test]
fn json_score_errors() {
    let e = score(&json_cmd(), Some(1), false, "Traceback ...\n", None).unwrap_err();
    assert!(matches!(e, ScoreError::MissingReport(ref m) if m.contains("Traceback")), "{e}");
    let e = score(&json_cmd(), Some(0), false, "{\"result\": 1}\n", None).unwrap_err();
    assert!(matches!(e, ScoreError::BadReport(_)), "{e}");
    let e = score(&json_cmd(), Some(0), false, "{\"score\": \"1\"}\n", None).unwrap_err();
    assert!(matches!(e, ScoreError::BadReport(_)), "{e}");
    let e = score(&json_cmd(), Some(0), false, "{\"score\": 1.01}\n", None).unwrap_err();
    assert!(matches!(e, ScoreError::OutOfRange { .. }), "{e}");
    let e = score(&json_cmd(), Some(0), false, "{\"score\": 1, \"passed\": -1}\n", None).unwrap_err();
    assert!(matches!(e, ScoreError::BadReport(_)), "{e}");
}

// ---- exit code ----

#[test]
fn exit_code_verifier() {
    let s = score(&exit_cmd(), Some(0), false, "", None).unwrap();
    assert_eq!((s.value, s.passed), (1.0, 1));
    let s = score(&exit_cmd(), Some(2), false, "", None).unwrap();
    assert_eq!((s.value, s.failed), (0.0, 1));
    assert_eq!(score(&exit_cmd(), None, false, "", None), Err(ScoreError::MissingExitCode));
}

// ---- plans ----

#[test]
fn plans_upload_run_and_report() {
    let p = verifier_plan(&TaskVerifier::Pytest {
        test_files: vec![
            TaskFile::new("test_app.py", "x"),
            TaskFile::new("conftest.py", "y"),
            TaskFile::new("data/in.txt", "z"),
        ],
        args: vec!["--tb=short".into()],
        tests_dir: "/workspace/tests/".into(),
    });
    let paths: Vec<_> = p.files_to_upload.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["/workspace/tests/test_app.py", "/workspace/tests/conftest.py", "/workspace/tests/data/in.txt"]);
    assert_eq!(p.report_path.as_deref(), Some(JUNIT_REPORT_PATH));
    let script = &p.command[2];
    assert!(
        script.contains("'--junitxml=/logs/verifier/skillscope-junit.xml' '--tb=short' '/workspace/tests/test_app.py'"),
        "{script}"
    );
    assert!(!script.contains("conftest.py'"), "{script}");

    let p = verifier_plan(&harbor());
    assert_eq!(p.files_to_upload[0].0, "/tests/test.sh");
    assert_eq!(p.report_path.as_deref(), Some(HARBOR_REPORT_PATH));

    let p = verifier_plan(&exit_cmd());
    assert_eq!(p.command, ["/bin/sh", "-c", "test -f out.txt"]);
    assert!(p.report_path.is_none() && p.files_to_upload.is_empty());

    let judge = TaskVerifier::NeedsJudge { expectations: vec![], expected_output: None };
    assert!(verifier_plan(&judge).command.is_empty());
}

#[test]
fn pytest_plan_without_python_files_fails_as_usage_error() {
    let p = verifier_plan(&TaskVerifier::Pytest {
        test_files: vec![TaskFile::new("data.txt", "x")],
        args: vec![],
        tests_dir: "/tests".into(),
    });
    let out = std::process::Command::new("sh").args(&p.command[1..]).output().unwrap();
    assert_eq!(out.status.code(), Some(4));
    let e = score(&pytest(), out.status.code().map(i64::from), false, "", None).unwrap_err();
    assert!(matches!(e, ScoreError::VerifierFailed(_)), "{e}");
}

fn run_sh(script: &str, cwd: &std::path::Path) -> (Option<i64>, String) {
    let out = std::process::Command::new("sh").args(["-c", script]).current_dir(cwd).output().unwrap();
    (out.status.code().map(i64::from), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn harbor_script_collects_rewards_and_clears_stale_ones() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().to_str().unwrap().to_string();
    let (logs, tests, report) = (format!("{root}/logs"), format!("{root}/tests"), format!("{root}/report"));
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::create_dir_all(format!("{logs}/verifier")).unwrap();
    let script = harbor_script(&logs, &tests, &report);
    let write_test = |body: &str| std::fs::write(format!("{tests}/test.sh"), body).unwrap();
    let read_report = || std::fs::read(&report).unwrap();

    // A stale reward the agent may have planted is removed before test.sh.
    std::fs::write(format!("{logs}/verifier/reward.txt"), "1").unwrap();
    write_test("echo testing\nexit 3\n");
    let (code, out) = run_sh(&script, d.path());
    assert_eq!(code, Some(3));
    assert!(out.contains("testing"));
    let r = read_report();
    assert!(matches!(score(&harbor(), code, false, &out, Some(&r)), Err(ScoreError::MissingReport(_))));

    write_test(&format!(
        "echo '{{\"reward\": 0.5}}' > {logs}/verifier/reward.json\necho 1 > {logs}/verifier/reward.txt\n"
    ));
    let (code, out) = run_sh(&script, d.path());
    let s = score(&harbor(), code, false, &out, Some(&read_report())).unwrap();
    assert_eq!(s.value, 0.5);

    write_test(&format!("printf 0 > {logs}/verifier/reward.txt\n"));
    let (code, out) = run_sh(&script, d.path());
    let s = score(&harbor(), code, false, &out, Some(&read_report())).unwrap();
    assert_eq!((s.value, code), (0.0, Some(0)));
}

/// Runs the pytest plan script against the SWE-Skills-Bench fixture's test
/// file when pytest is installed (it is not part of the build's toolchain).
#[test]
fn pytest_script_end_to_end_when_pytest_is_available() {
    let has_pytest =
        std::process::Command::new("python3").args(["-c", "import pytest"]).output().is_ok_and(|o| o.status.success());
    if !has_pytest {
        eprintln!("skipped: python3 with pytest not installed");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let tests = d.path().join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(
        tests.join("test_word_count.py"),
        include_str!("../../../../fixtures/tasks/swe-skills-bench/tests/batch1/test_word_count.py"),
    )
    .unwrap();
    // Right counting, but the CLI exits 1 for a missing file (should be 2).
    std::fs::write(
        d.path().join("wordcount.py"),
        "import sys\n\
def count_words(t):\n    w = t.split()\n    n = t.count('\\n') + (1 if t and not t.endswith('\\n') else 0)\n    return {'words': len(w), 'lines': n, 'unique': len({x.lower() for x in w})}\n\
if __name__ == '__main__':\n    try:\n        t = open(sys.argv[1]).read()\n    except OSError as e:\n        print(e, file=sys.stderr); sys.exit(1)\n    c = count_words(t)\n    print(f\"words={c['words']} lines={c['lines']} unique={c['unique']}\")\n",
    )
    .unwrap();
    let report = d.path().join("logs/junit.xml");
    let argv = vec![
        "-p".to_string(),
        "no:cacheprovider".into(),
        format!("--junitxml={}", report.display()),
        "tests/test_word_count.py".into(),
    ];
    let (code, out) = run_sh(&pytest_script(report.to_str().unwrap(), tests.to_str().unwrap(), &argv), d.path());
    let xml = std::fs::read(&report).unwrap();
    let s = score(&pytest(), code, false, &out, Some(&xml)).unwrap();
    assert_eq!((s.passed, s.failed), (4, 1), "{out}");
    assert_eq!(s.value, 0.8);
}
