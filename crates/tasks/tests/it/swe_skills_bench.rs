use crate::common::{copy_fixture, corpus, fixtures};
use skillscope_tasks::swe_skills_bench::{config, import_benchmark, import_requirement};
use skillscope_tasks::{verifier_plan, ImportError, TaskSourceKind, TaskVerifier};
use std::fs;

#[test]
fn fixture_benchmark_with_and_without_tests() {
    let root = fixtures().join("swe-skills-bench");
    let b = import_benchmark(&root).unwrap();
    assert!(b.errors.is_empty(), "{:?}", b.errors);
    let ids: Vec<_> = b.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["httpx-timeout-docs@batch1", "word-count@batch1"]);

    let wc = &b.tasks[1];
    assert_eq!(wc.name, "Word Count Command-Line Tool");
    assert_eq!(wc.source.kind, TaskSourceKind::SweSkillsBench);
    assert!(wc.instruction.starts_with("# Task: Word Count"));
    let env = &wc.environment;
    assert_eq!(env.image.as_deref(), Some("python:3.12-slim"));
    assert_eq!(env.workdir.as_deref(), Some("/workspace"));
    assert_eq!(env.repository, None);
    assert_eq!(env.setup, ["pip install --quiet pytest==8.3.3"]);
    assert_eq!((env.cpus, env.memory_mb), (Some(1.0), Some(1024)));
    assert_eq!(env.env.get("PYTHONDONTWRITEBYTECODE").map(String::as_str), Some("1"));
    // total_timeout_sec comes from the repeated `limits:` block.
    assert_eq!((wc.agent_timeout_secs, wc.verifier_timeout_secs), (600, 120));
    let TaskVerifier::Pytest { test_files, args, tests_dir } = &wc.verifier else { panic!("{:?}", wc.verifier) };
    assert_eq!(test_files[0].path, "test_word_count.py");
    assert_eq!(args, &["--tb=short"]);
    assert_eq!(tests_dir, "/workspace/tests");
    let plan = verifier_plan(&wc.verifier);
    assert_eq!(plan.files_to_upload[0].0, "/workspace/tests/test_word_count.py");
    assert!(wc.warnings.is_empty(), "{:?}", wc.warnings);

    let docs = &b.tasks[0];
    let repo = docs.environment.repository.as_ref().unwrap();
    assert_eq!(repo.url, "https://github.com/encode/httpx");
    assert_eq!(repo.commit.as_deref(), Some("b5addb64f0161ff6bfe94c124ef76f6a1fba5254"));
    assert!(docs.environment.setup[0].contains("origin b5addb64f0161ff6bfe94c124ef76f6a1fba5254"));
    assert_eq!((docs.environment.cpus, docs.environment.memory_mb), (Some(2.0), Some(2048)));
    assert_eq!(docs.agent_timeout_secs, 900);
    let TaskVerifier::Missing { reason } = &docs.verifier else { panic!("{:?}", docs.verifier) };
    assert!(reason.contains("test_httpx_timeout_docs.py") && reason.contains("not provided"), "{reason}");
    assert!(docs.warnings.iter().any(|w| w.contains("build check")));
}

#[test]
fn without_a_benchmark_root_there_is_no_verifier() {
    let root = fixtures().join("swe-skills-bench");
    let cfg = config::load(&root.join("config/benchmark_config.yaml")).unwrap();
    let t = import_requirement(&root.join("tasks/batch1/word-count.md"), &cfg, None).unwrap();
    assert!(matches!(t.verifier, TaskVerifier::Missing { .. }));
}

#[test]
fn malformed_documents_and_configs() {
    let (_d, root) = copy_fixture("swe-skills-bench");
    let doc = root.join("tasks/batch1/word-count.md");
    let text = fs::read_to_string(&doc).unwrap();
    fs::write(&doc, text.replace("## Acceptance Criteria", "## Notes")).unwrap();
    fs::write(root.join("tasks/batch1/unknown-skill.md"), "# Task: X\n## Acceptance Criteria\n- y\n").unwrap();
    let b = import_benchmark(&root).unwrap();
    assert_eq!(b.tasks.len(), 1);
    let msgs: Vec<_> = b.errors.iter().map(|e| e.to_string()).collect();
    assert!(msgs.iter().any(|m| m.contains("unknown-skill.md") && m.contains("no skill `unknown-skill`")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("word-count.md") && m.contains("no `## Acceptance Criteria`")), "{msgs:?}");

    let cfg = root.join("config/benchmark_config.yaml");
    let text = fs::read_to_string(&cfg).unwrap();
    fs::write(&cfg, text.replace("commit: \"b5addb64f0161ff6bfe94c124ef76f6a1fba5254\"", "commit: \"main; reboot\""))
        .unwrap();
    let b = import_benchmark(&root).unwrap();
    assert!(b.errors.iter().any(|e| e.to_string().contains("not a hexadecimal commit")), "{:?}", b.errors);

    fs::write(&cfg, "skills:\n  - id: [oops\n").unwrap();
    let e = import_benchmark(&root).unwrap_err();
    assert!(matches!(&e, ImportError::Syntax { path, .. } if path.ends_with("benchmark_config.yaml")), "{e}");
    fs::remove_file(&cfg).unwrap();
    let e = import_benchmark(&root).unwrap_err();
    assert!(matches!(e, ImportError::Missing { .. }), "{e}");
}

/// The shared corpus (read-only; skipped when absent): the real config with
/// its repeated keys and byte-order mark, and every requirement document.
#[test]
fn corpus_swe_skills_bench() {
    let Some(root) = corpus("swe-skills-bench") else {
        return;
    };
    let b = import_benchmark(&root).unwrap();
    // dotnet-backend-patterns has documents but no config entry.
    assert!(b.tasks.len() >= 480, "{}", b.tasks.len());
    assert!(!b.errors.is_empty());
    for e in &b.errors {
        let m = e.to_string();
        assert!(m.contains("no skill `dotnet-backend-patterns`"), "{m}");
    }
    for t in &b.tasks {
        // The public copy ships no pytest verifiers.
        let TaskVerifier::Missing { reason } = &t.verifier else { panic!("{}: {:?}", t.id, t.verifier) };
        assert!(reason.contains("not provided"), "{reason}");
        assert!(t.environment.image.as_deref().unwrap_or("").starts_with("zhangyiiiiii/"), "{}", t.id);
    }
    let fix = b.tasks.iter().find(|t| t.id == "fix@batch1").unwrap();
    assert_eq!(fix.name, "Fix ESLint Violations in TypeScript Codebase");
    let repo = fix.environment.repository.as_ref().unwrap();
    assert_eq!(repo.url, "https://github.com/michaelasper/upgradle");
    assert_eq!(repo.commit.as_deref(), Some("5f292188e9b427a96d3573b29e5677e4cdce58ea"));
    assert_eq!((fix.environment.cpus, fix.environment.memory_mb), (Some(4.0), Some(8192)));
    assert_eq!(fix.agent_timeout_secs, 1800);
    // pytorch: the repository is already in the image.
    let uint = b.tasks.iter().find(|t| t.id == "add-uint-support@batch1").unwrap();
    assert_eq!(uint.environment.repository, None);
    assert_eq!(uint.environment.memory_mb, Some(16384));
    assert!(uint.warnings.iter().any(|w| w.contains("build check")));

    // With the tests supplied beside it, the same document gets pytest.
    let d = tempfile::tempdir().unwrap();
    fs::create_dir_all(d.path().join("tests/batch1")).unwrap();
    fs::write(d.path().join("tests/batch1/test_fix.py"), "def test_x():\n    assert True\n").unwrap();
    let cfg = config::load(&root.join("config/benchmark_config.yaml")).unwrap();
    let t = import_requirement(&root.join("tasks/batch1/fix.md"), &cfg, Some(d.path())).unwrap();
    assert!(matches!(&t.verifier, TaskVerifier::Pytest { tests_dir, .. } if tests_dir == "/workspace/tests"));
}
