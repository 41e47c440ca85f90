use crate::common::{copy_fixture, corpus, fixtures};
use skillscope_tasks::harbor::{import_dir, import_task, DEFAULT_AGENT_TIMEOUT_SECS};
use skillscope_tasks::{score, verifier_plan, ImportError, TaskSourceKind, TaskVerifier};
use std::fs;

#[test]
fn sum_report_fixture() {
    let t = import_task(&fixtures().join("harbor/sum-report")).unwrap();
    assert_eq!(t.id, "skillscope/sum-report");
    assert_eq!(t.name, "sum-report");
    assert_eq!(t.source.kind, TaskSourceKind::Harbor);
    assert!(t.instruction.contains("/app/report.txt"));
    assert_eq!((t.agent_timeout_secs, t.verifier_timeout_secs), (300, 60));
    assert!(t.verifier_in_place, "environment_mode = \"shared\": the verifier runs in the agent's container");
    let env = &t.environment;
    assert!(env.dockerfile_context.as_deref().unwrap().ends_with("sum-report/environment"));
    assert_eq!(env.image, None);
    assert_eq!(env.workdir.as_deref(), Some("/app"));
    assert_eq!((env.cpus, env.memory_mb), (Some(1.0), Some(512)));
    assert!(env.workspace_files.is_empty(), "the Dockerfile context carries data.csv");
    let TaskVerifier::HarborTests { tests_dir_files } = &t.verifier else { panic!("{:?}", t.verifier) };
    let names: Vec<_> = tests_dir_files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(names, ["check.py", "test.sh"]);
    // network_mode is reported as not applied; test.sh's /tests/check.py exists.
    assert_eq!(t.warnings.len(), 1, "{:?}", t.warnings);
    assert!(t.warnings[0].contains("network_mode"));

    let plan = verifier_plan(&t.verifier);
    let uploaded: Vec<_> = plan.files_to_upload.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(uploaded, ["/tests/check.py", "/tests/test.sh"]);
    assert_eq!(score(&t.verifier, Some(0), false, "", Some(b"--- reward.txt\n1\n\n")).unwrap().value, 1.0);
}

#[test]
fn prebuilt_image_fixture_uploads_environment_files() {
    let t = import_task(&fixtures().join("harbor/greeting-prebuilt")).unwrap();
    let env = &t.environment;
    assert_eq!(env.image.as_deref(), Some("alpine:3.20"));
    assert_eq!(env.dockerfile_context, None);
    assert_eq!(env.workdir.as_deref(), Some("/work"));
    assert_eq!(env.cpus, Some(0.5));
    assert_eq!(env.env.get("GREETING_LANG").map(String::as_str), Some("en"));
    assert_eq!(env.workspace_files.len(), 1);
    assert_eq!(env.workspace_files[0].path, "names.txt");
    assert_eq!(env.workspace_files[0].contents, b"Ada\nGrace\n");
    assert_eq!((t.agent_timeout_secs, t.verifier_timeout_secs), (120, 30));
    assert!(!t.verifier_in_place, "environment_mode = \"separate\": a fresh container");
    assert!(t.warnings.is_empty(), "{:?}", t.warnings);
}

#[test]
fn without_an_environment_mode_the_verifier_runs_fresh_and_the_task_says_so() {
    let (_d, t) = copy_fixture("harbor/greeting-prebuilt");
    let text = fs::read_to_string(t.join("task.toml")).unwrap().replace("environment_mode = \"separate\"\n", "");
    fs::write(t.join("task.toml"), text).unwrap();
    let task = import_task(&t).unwrap();
    assert!(!task.verifier_in_place);
    assert_eq!(task.warnings.len(), 1, "{:?}", task.warnings);
    assert!(task.warnings[0].contains("fresh container"), "{:?}", task.warnings);
}

/// Harbor's `user` of the agent or the verifier: root (by name or uid) runs the trial as root,
/// and says so; another user is not created, and the importer says who runs instead; none keeps
/// the unprivileged default.
#[test]
fn a_task_asking_for_root_runs_as_root_and_another_user_is_named() {
    let (_d, t) = copy_fixture("harbor/greeting-prebuilt");
    let text = fs::read_to_string(t.join("task.toml")).unwrap();
    assert!(!import_task(&t).unwrap().run_as_root, "unprivileged by default");
    for (section, user, root) in [("[verifier]", "root", true), ("[agent]", "0", true), ("[agent]", "agent", false)] {
        fs::write(t.join("task.toml"), text.replace(section, &format!("{section}\nuser = \"{user}\""))).unwrap();
        let task = import_task(&t).unwrap();
        assert_eq!(task.run_as_root, root, "{section} user = {user}");
        let said = if root { "run as root".to_string() } else { format!("not as {user}") };
        assert!(task.warnings.iter().any(|w| w.contains(&said)), "{section} {user}: {:?}", task.warnings);
    }
}

#[test]
fn folder_of_tasks_imports_each_sorted() {
    let b = import_dir(&fixtures().join("harbor")).unwrap();
    assert!(b.errors.is_empty(), "{:?}", b.errors);
    let ids: Vec<_> = b.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["skillscope/greeting-prebuilt", "skillscope/sum-report"]);
    // A single task folder is a batch of one.
    assert_eq!(import_dir(&fixtures().join("harbor/sum-report")).unwrap().tasks.len(), 1);
}

#[test]
fn one_broken_task_does_not_block_the_others() {
    let (_d, root) = copy_fixture("harbor");
    fs::remove_file(root.join("sum-report/instruction.md")).unwrap();
    let b = import_dir(&root).unwrap();
    assert_eq!(b.tasks.len(), 1);
    assert_eq!(b.errors.len(), 1);
    assert!(b.errors[0].path().ends_with("sum-report"));
}

#[test]
fn missing_instruction() {
    let (_d, t) = copy_fixture("harbor/sum-report");
    fs::remove_file(t.join("instruction.md")).unwrap();
    let e = import_task(&t).unwrap_err();
    assert!(matches!(&e, ImportError::Missing { what, .. } if what == "instruction.md"), "{e}");
    assert!(e.to_string().ends_with("sum-report: missing instruction.md"), "{e}");
}

#[test]
fn empty_instruction() {
    let (_d, t) = copy_fixture("harbor/sum-report");
    fs::write(t.join("instruction.md"), "  \n").unwrap();
    let e = import_task(&t).unwrap_err();
    assert!(matches!(&e, ImportError::Invalid { what, .. } if what.contains("empty")), "{e}");
}

#[test]
fn bad_toml_reports_file_and_line() {
    let (_d, t) = copy_fixture("harbor/sum-report");
    let mut text = fs::read_to_string(t.join("task.toml")).unwrap();
    text = text.replace("timeout_sec = 60.0", "timeout_sec = = 60");
    fs::write(t.join("task.toml"), &text).unwrap();
    let line = text.lines().position(|l| l.contains("= = 60")).unwrap() + 1;
    match import_task(&t).unwrap_err() {
        ImportError::Syntax { path, line: l, .. } => {
            assert!(path.ends_with("task.toml"));
            assert_eq!(l, line);
        }
        e => panic!("{e}"),
    }
}

#[test]
fn wrong_types_in_toml_are_syntax_errors_with_line() {
    let (_d, t) = copy_fixture("harbor/sum-report");
    let text = fs::read_to_string(t.join("task.toml")).unwrap().replace("memory_mb = 512", "memory_mb = \"lots\"");
    fs::write(t.join("task.toml"), &text).unwrap();
    let line = text.lines().position(|l| l.contains("\"lots\"")).unwrap() + 1;
    let e = import_task(&t).unwrap_err();
    assert!(matches!(e, ImportError::Syntax { line: l, .. } if l == line), "{e}");
    assert!(e.to_string().contains("(in `memory_mb = \"lots\"`)"), "{e}");
}

#[test]
fn missing_task_toml_test_sh_and_environment() {
    let (_d, t) = copy_fixture("harbor/sum-report");
    fs::remove_file(t.join("tests/test.sh")).unwrap();
    let e = import_task(&t).unwrap_err();
    assert!(matches!(&e, ImportError::Missing { what, .. } if what == "tests/test.sh"), "{e}");

    let (_d, t) = copy_fixture("harbor/sum-report");
    fs::remove_file(t.join("environment/Dockerfile")).unwrap();
    let e = import_task(&t).unwrap_err();
    assert!(matches!(&e, ImportError::Missing { what, .. } if what.contains("Dockerfile")), "{e}");

    let (_d, t) = copy_fixture("harbor/sum-report");
    fs::remove_file(t.join("task.toml")).unwrap();
    let e = import_task(&t).unwrap_err();
    assert!(matches!(&e, ImportError::Missing { what, .. } if what == "task.toml"), "{e}");
    let e = import_dir(&t).unwrap_err();
    assert!(matches!(e, ImportError::Missing { .. }), "{e}");
}

#[test]
fn invalid_values_and_unsupported_features() {
    let cases = [
        ("timeout_sec = 60.0", "timeout_sec = -5", "must be a positive"),
        ("cpus = 1", "cpus = 0", "cpus"),
        ("[environment]", "[environment]\nos = \"windows\"", "windows"),
        ("[agent]", "[[steps]]\nname = \"a\"\n\n[agent]", "multi-step"),
        ("[agent]", "[verifier.environment]\ndocker_image = \"g\"\n\n[agent]", "separate verifier"),
    ];
    for (from, to, needle) in cases {
        let (_d, t) = copy_fixture("harbor/sum-report");
        let text = fs::read_to_string(t.join("task.toml")).unwrap().replacen(from, to, 1);
        fs::write(t.join("task.toml"), text).unwrap();
        let e = import_task(&t).unwrap_err();
        assert!(e.to_string().contains(needle), "{to}: {e}");
        assert!(e.path().ends_with("task.toml"), "{e}");
    }
    let (_d, t) = copy_fixture("harbor/sum-report");
    fs::write(t.join("environment/docker-compose.yaml"), "services: {}\n").unwrap();
    let e = import_task(&t).unwrap_err();
    assert!(matches!(e, ImportError::Unsupported { .. }), "{e}");
}

#[test]
fn defaults_when_timeouts_are_absent() {
    let (_d, t) = copy_fixture("harbor/sum-report");
    fs::write(t.join("task.toml"), "[environment]\n").unwrap();
    let task = import_task(&t).unwrap();
    assert_eq!(task.id, "sum-report", "folder name without [task].name");
    assert_eq!(task.agent_timeout_secs, DEFAULT_AGENT_TIMEOUT_SECS);
    assert_eq!(task.verifier_timeout_secs, 600);
}

/// The shared corpus's Harbor tasks (read-only; skipped when absent).
#[test]
fn corpus_harbor_tasks() {
    let Some(dir) = corpus("harbor-tasks") else {
        return;
    };
    let b = import_dir(&dir).unwrap();
    assert!(b.errors.is_empty(), "{:?}", b.errors);
    assert_eq!(b.tasks.len(), 3);
    let hello = b.tasks.iter().find(|t| t.id == "harbor/hello-skills").unwrap();
    assert_eq!((hello.agent_timeout_secs, hello.verifier_timeout_secs), (600, 120));
    assert_eq!(hello.environment.workdir.as_deref(), Some("/app"));
    assert_eq!(hello.environment.bundled_skills, ["environment/skills/generate-greeting"]);
    // Its test.sh runs /tests/test_greeting.py, which the copy lacks.
    assert!(hello.warnings.iter().any(|w| w.contains("/tests/test_greeting.py")), "{:?}", hello.warnings);
    assert!(hello.warnings.iter().any(|w| w.contains("skills_dir")));

    let lake = b.tasks.iter().find(|t| t.id == "skillsbench-lake-warming-attribution").unwrap();
    assert_eq!((lake.environment.cpus, lake.environment.memory_mb), (Some(1.0), Some(4096)));
    assert_eq!(lake.environment.workdir.as_deref(), Some("/root"));
    assert_eq!(lake.environment.bundled_skills.len(), 4);
    assert!(lake.warnings.iter().any(|w| w.contains("/tests/test_outputs.py")));
    for t in &b.tasks {
        assert!(!t.instruction.trim().is_empty());
        assert!(matches!(t.verifier, TaskVerifier::HarborTests { .. }));
        assert!(t.environment.dockerfile_context.is_some());
    }
}

/// Found by the fuzzer: a JUnit report whose repeated test case has huge durations overflowed
/// their sum; it saturates instead, and the report still scores.
#[test]
fn a_junit_report_with_huge_durations_scores() {
    let xml = r#"<testsuite name="p"><testcase name="t" time="1e300"/><testcase name="t" time="1e300"/></testsuite>"#;
    let v = TaskVerifier::Pytest { test_files: Vec::new(), args: Vec::new(), tests_dir: "/tests".into() };
    assert!(score(&v, Some(0), false, "", Some(xml.as_bytes())).is_ok());
}
