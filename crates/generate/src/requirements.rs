//! SWE-Skills-Bench-style requirement documents: the four-field template (Background, Files to
//! Create/Modify, Requirements, Acceptance Criteria under a `# Task:` title), scored by a
//! generated pytest file of at least [`MIN_TESTS`] tests, with a reference solution that must make
//! them pass (checked in the sandbox before a reviewer approves the task).

use crate::items::{each, filled, Item};
use serde::Deserialize;
use skillscope_tasks::swe_skills_bench::doc;
use skillscope_tasks::{TaskFile, TaskVerifier};

/// Fewest test functions a generated pytest file may have.
pub const MIN_TESTS: usize = 3;
/// The generated test file's name, and where the verifier puts it.
pub const TEST_FILE: &str = "test_requirement.py";
pub const TESTS_DIR: &str = "/skillscope-tests";
/// The sections every document has, besides its title.
const SECTIONS: [&str; 4] = ["Background", "Files to Create/Modify", "Requirements", "Acceptance Criteria"];

#[derive(Deserialize)]
struct Requirement {
    document: String,
    #[serde(default)]
    tests: String,
    #[serde(default)]
    solution: Option<String>,
}

pub(crate) fn items(json: serde_json::Value) -> Result<Vec<Item>, String> {
    each(json, "tasks", |n, r: Requirement| {
        let document = r.document.trim().to_string();
        let parsed = doc::parse(&document).map_err(|e| format!("requirement {n}: {e}"))?;
        if let Some(missing) = SECTIONS.iter().find(|s| parsed.section(s).is_none_or(str::is_empty)) {
            return Err(format!("requirement {n} has no `## {missing}` section (or it is empty)"));
        }
        let tests = count_tests(&r.tests);
        if tests < MIN_TESTS {
            return Err(format!(
                "requirement {n}'s pytest file has {tests} test function(s); at least {MIN_TESTS} are needed"
            ));
        }
        Ok(Item {
            label: Some(parsed.title.clone()),
            instruction: document,
            verifier: TaskVerifier::Pytest {
                test_files: vec![TaskFile::new(TEST_FILE, r.tests.into_bytes())],
                args: Vec::new(),
                tests_dir: TESTS_DIR.into(),
            },
            reference_solution: filled(r.solution),
        })
    })
}

/// Top-level and method test functions pytest collects by name (`def test_…` / `async def test_…`).
fn count_tests(source: &str) -> usize {
    source
        .lines()
        .map(str::trim_start)
        .map(|l| l.strip_prefix("async ").unwrap_or(l))
        .filter(|l| l.strip_prefix("def test").is_some_and(|rest| rest.starts_with(['_', '('])))
        .count()
}
