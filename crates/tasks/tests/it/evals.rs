use crate::common::{copy_fixture, fixtures};
use skillscope_tasks::evals::{import_file, import_skill};
use skillscope_tasks::{score, verifier_plan, ImportError, ScoreError, TaskSourceKind, TaskVerifier};
use std::fs;
use std::path::Path;

#[test]
fn fixture_has_a_deterministic_and_a_judge_case() {
    let tasks = import_skill(&fixtures().join("evals/csv-summary")).unwrap();
    assert_eq!(tasks.len(), 2);
    let (det, judge) = (&tasks[0], &tasks[1]);

    assert_eq!(det.id, "csv-summary#1");
    assert_eq!(det.source.kind, TaskSourceKind::EvalsJson);
    assert!(det.is_deterministic());
    let TaskVerifier::ExitCode { command } = &det.verifier else { panic!("{:?}", det.verifier) };
    assert!(command.contains("Total revenue: 530"));
    // skill-creator style path (relative to the skill root).
    assert_eq!(det.environment.workspace_files[0].path, "input/sales.csv");
    assert!(det.instruction.ends_with("Input files (in the working directory): input/sales.csv"));
    assert_eq!(det.environment.workdir.as_deref(), Some("/workspace"));
    assert!(det.warnings.iter().any(|w| w.contains("2 assertion(s) are not scored")));
    assert_eq!(verifier_plan(&det.verifier).command[2], *command);
    assert_eq!(score(&det.verifier, Some(1), false, "", None).unwrap().value, 0.0);

    assert_eq!(judge.id, "csv-summary#csv-summary-judge-002");
    assert!(!judge.is_deterministic());
    let TaskVerifier::NeedsJudge { expectations, expected_output } = &judge.verifier else {
        panic!("{:?}", judge.verifier)
    };
    assert_eq!(expectations.len(), 2);
    assert!(expected_output.as_deref().unwrap().starts_with("East"));
    // ACES style path (relative to evals/), same file.
    assert_eq!(judge.environment.workspace_files, det.environment.workspace_files);
    assert_eq!(score(&judge.verifier, Some(0), false, "", None), Err(ScoreError::NeedsJudge));
}

fn write_evals(body: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let evals = d.path().join("my-skill/evals");
    fs::create_dir_all(&evals).unwrap();
    let p = evals.join("evals.json");
    fs::write(&p, body).unwrap();
    (d, p)
}

fn err(body: &str) -> ImportError {
    let (_d, p) = write_evals(body);
    import_file(&p).unwrap_err()
}

#[test]
fn not_json_names_file_and_line() {
    let e = err("{\n  \"skill_name\": \"x\",\n  \"evals\": [\n    {\"prompt\": }\n  ]\n}\n");
    match &e {
        ImportError::Syntax { path, line, .. } => {
            assert!(path.ends_with("evals/evals.json"));
            assert_eq!(*line, 4);
        }
        e => panic!("{e}"),
    }
    assert!(e.to_string().contains("evals.json: line 4, column"), "{e}");
}

#[test]
fn case_without_prompt() {
    let e = err(r#"{"evals": [{"id": 1, "prompt": "ok"}, {"id": "b-2", "expected_output": "x"}]}"#);
    assert!(matches!(&e, ImportError::Invalid { .. }), "{e}");
    let m = e.to_string();
    assert!(m.contains("case #2") && m.contains("`b-2`") && m.contains("no `prompt`"), "{m}");
    let e = err(r#"{"evals": [{"prompt": "   "}]}"#);
    assert!(e.to_string().contains("no `prompt`"), "{e}");
}

#[test]
fn wrong_shapes_are_named() {
    let cases = [
        (r#"{"evals": {}}"#, "`evals` is not an array"),
        (r#"{"skill_name": 3, "evals": []}"#, "`skill_name` is not a string"),
        (r#"{"cases": []}"#, "missing `evals` array"),
        (r#""hello""#, "expected an object"),
        (r#"{"evals": []}"#, "no eval cases"),
        (r#"{"evals": [7]}"#, "case #1: is not an object"),
        (r#"{"evals": [{"prompt": "p", "assertions": "a"}]}"#, "`assertions` is not an array"),
        (r#"{"evals": [{"prompt": "p", "expectations": [1]}]}"#, "`expectations`[0] is not a string"),
        (r#"{"evals": [{"prompt": "p", "id": true}]}"#, "`id` must be"),
        (r#"{"evals": [{"prompt": "p", "id": 1}, {"prompt": "q", "id": "1"}]}"#, "duplicate id"),
        (r#"{"evals": [{"prompt": "p", "verify_command": "a", "score_command": "b"}]}"#, "both"),
        (r#"{"evals": [{"prompt": "p", "files": ["../secret"]}]}"#, ".."),
        (r#"{"evals": [{"prompt": "p", "files": ["/etc/passwd"]}]}"#, "absolute"),
        (r#"{"evals": [{"prompt": "p", "files": ["files/nope.txt"]}]}"#, "`files/nope.txt` not found"),
    ];
    for (body, needle) in cases {
        let e = err(body);
        assert!(e.to_string().contains(needle), "{body}: {e}");
        assert!(e.path().ends_with("evals.json"), "{e}");
    }
}

#[test]
fn legacy_array_and_score_command() {
    let (_d, p) = write_evals(
        r#"[{"id": "q1", "question": "What is 2+2?", "ground_truth": "4", "expected_behavior": ["Says 4"]},
            {"question": "Make out.json", "score_command": "python3 grade.py"}]"#,
    );
    let t = import_file(&p).unwrap();
    // Without skill_name, the skill folder's name.
    assert_eq!(t[0].id, "my-skill#q1");
    assert_eq!(t[1].id, "my-skill#2");
    assert!(matches!(
        &t[0].verifier,
        TaskVerifier::NeedsJudge { expectations, expected_output }
            if expectations == &["Says 4"] && expected_output.as_deref() == Some("4")
    ));
    assert!(matches!(&t[1].verifier, TaskVerifier::JsonScoreCommand { command } if command == "python3 grade.py"));
}

#[test]
fn jsonl_and_negative_cases() {
    let d = tempfile::tempdir().unwrap();
    let evals = d.path().join("s/evals");
    fs::create_dir_all(&evals).unwrap();
    fs::write(
        evals.join("evals.jsonl"),
        "{\"id\": \"a\", \"prompt\": \"p\", \"should_trigger\": false, \"assertions\": [\"y\"]}\n\n{\"id\": \"b\", \"prompt\": \"q\"}\n",
    )
    .unwrap();
    let t = import_skill(&d.path().join("s")).unwrap();
    assert_eq!(t.len(), 2);
    // A negative case with an outcome to check is scored on it, and says it is not a routing case.
    assert!(matches!(t[0].verifier, TaskVerifier::NeedsJudge { .. }));
    assert!(t[0].warnings.iter().any(|w| w.contains("does not count toward activation accuracy")));
    assert!(t[1].warnings.iter().any(|w| w.contains("nothing to check")));
    fs::write(evals.join("evals.jsonl"), "{\"prompt\": \"p\"}\n{broken\n").unwrap();
    let e = import_skill(&d.path().join("s")).unwrap_err();
    assert!(matches!(e, ImportError::Syntax { line: 2, .. }), "{e}");
}

#[test]
fn environment_dockerfile_is_used_and_missing_file_reported() {
    let (_d, skill) = copy_fixture("evals/csv-summary");
    fs::create_dir_all(skill.join("evals/environment")).unwrap();
    fs::write(skill.join("evals/environment/Dockerfile"), "FROM python:3.12-slim\n").unwrap();
    let t = import_skill(&skill).unwrap();
    assert!(t[0].environment.dockerfile_context.as_deref().unwrap().ends_with("evals/environment"));

    let e = import_skill(Path::new("/nonexistent/skill")).unwrap_err();
    assert!(matches!(&e, ImportError::Missing { what, .. } if what == "evals/evals.json"), "{e}");
}

#[test]
fn trigger_evals_and_routing_only_cases_are_routing_cases() {
    let tasks = import_file(&fixtures().join("evals/csv-summary/evals/trigger-evals.json")).unwrap();
    let routes: Vec<_> = tasks
        .iter()
        .map(|t| match t.verifier {
            TaskVerifier::Routing { should_trigger } => should_trigger,
            ref other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(routes, [true, true, true, false, false, false]);
    assert!(tasks.iter().all(|t| t.runs_without_judge() && !t.is_deterministic() && t.warnings.is_empty()));
    assert_eq!(tasks[0].instruction, "Give me a quick summary of the columns and totals in sales.csv");
    // ACES's expected_skill: null, or another skill's name, is a negative case; this skill's, a positive one.
    let (_d, p) = write_evals(
        r#"{"skill_name": "my-skill", "evals": [{"prompt": "a", "expected_skill": null},
            {"prompt": "b", "expected_skill": "other"}, {"prompt": "c", "expected_skill": "my-skill"}]}"#,
    );
    let v: Vec<_> = import_file(&p).unwrap().into_iter().map(|t| t.verifier).collect();
    assert_eq!(v, [false, false, true].map(|should_trigger| TaskVerifier::Routing { should_trigger }),);
    assert!(err(r#"[{"query": "a", "should_trigger": "yes"}]"#)
        .to_string()
        .contains("`should_trigger` is not true or false"));
}
