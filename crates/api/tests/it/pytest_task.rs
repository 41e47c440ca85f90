//! A pytest-verified task through the whole pipeline: the built-in agent writes code in the Debian
//! python image, pytest runs the task's tests after it, and the JUnit report's pass ratio is the
//! score of each arm.

use crate::common::*;
use serde_json::json;
use skillscope_api::experiments::ExperimentTask;
use skillscope_api::Workspace;
use skillscope_modelserver::{Script, ServerOptions};
use skillscope_sandbox::bootstrap::DEBIAN_PYTHON_TAG;
use skillscope_tasks::{TaskFile, TaskVerifier};

const TESTS: &str = "from word_count import count\n\n\
def test_words():\n    assert count('a b c') == 3\n\n\
def test_empty():\n    assert count('') == 0\n\n\
def test_newlines():\n    assert count('a\\nb') == 2\n\n\
def test_extra_spaces():\n    assert count('  a   b  ') == 2\n";

/// Counts words split on single spaces: right for two of the four tests.
const NAIVE: &str = "def count(text):\n    return len(text.split(' ')) if text else 0\n";
/// What the skill teaches: split on any whitespace.
const RIGHT: &str = "def count(text):\n    return len(text.split())\n";

#[test]
fn pytest_tasks_are_scored_by_their_pass_ratio_in_the_container() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(debian_engine());
    let script: Script = serde_json::from_value(json!({
        "default": [{"tool": "write_file", "args": {"path": "word_count.py", "content": NAIVE}}, {"text": "written"}],
        "branches": [{"if_prompt_contains": "word-splitting", "steps": [
            {"tool": "read_file", "args": {"path": "/skills/word-splitting/SKILL.md"}},
            {"tool": "write_file", "args": {"path": "word_count.py", "content": RIGHT}},
            {"text": "written as the skill says"}
        ]}]
    }))
    .unwrap();
    let server = rt.block_on(skillscope_modelserver::start(ServerOptions { script, ..Default::default() })).unwrap();

    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let config = scripted_builtin_agent(&ws, &server.base_url, "sk-pytest-task-000000");
    let skill = "---\nname: word-splitting\ndescription: Counts words right. Use when counting words in text.\n---\nSplit on any whitespace: `text.split()`.\n";
    let version = import_skill(&ws, tmp.path(), "word-splitting", skill);

    let workspace = tmp.path().join("task");
    std::fs::create_dir_all(&workspace).unwrap();
    std::fs::write(workspace.join("README"), "Write word_count.py with count(text) -> number of words.\n").unwrap();
    let task = ExperimentTask {
        id: "word-count".into(),
        instruction: "Write word_count.py with a function count(text) returning the number of words in text.".into(),
        image: DEBIAN_PYTHON_TAG.into(),
        workspace: Some(workspace.display().to_string()),
        verifier: Vec::new(),
        scoring: Some(TaskVerifier::Pytest {
            test_files: vec![TaskFile { path: "test_word_count.py".into(), contents: TESTS.as_bytes().to_vec() }],
            args: Vec::new(),
            tests_dir: "/tests".into(),
        }),
        dockerfile_context: None,
        verifier_in_place: false,
        accepted_skill_paths: Vec::new(),
        settings: Default::default(),
    };
    let (p, _) = run_one_pair(&ws, &rt, version, task, config);
    assert!(p.excluded.is_empty(), "{:?}", p.excluded);
    assert_eq!(p.without.score, Some(0.5), "the naive split passes two of the four tests");
    assert_eq!(p.with.score, Some(1.0), "the skill's split passes all four");
    let result = skillscope_api::queue::store::results(&ws, p.with.trial_id).unwrap().pop().unwrap();
    let held = result.snapshot.and_then(|s| s.disk_limit).unwrap_or_default();
    assert!(held.contains("quota") || held.contains("watch"), "the arm's snapshot names what bounded its disk: {held}");
}
