//! Tasks written in the app.

use crate::files::{check_relative, slug};
use crate::model::*;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub const DEFAULT_AGENT_TIMEOUT_SECS: u64 = 600;
pub const DEFAULT_VERIFIER_TIMEOUT_SECS: u64 = 120;
/// Image used when the author names none.
pub const DEFAULT_IMAGE: &str = "python:3.12-slim";

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "TaskAppVerifierKind")]
pub enum AppVerifierKind {
    /// `sh -c command`; exit 0 scores 1.0, anything else 0.0.
    #[default]
    ExitCode,
    /// `sh -c command` prints `{"score": x}` with x in [0, 1].
    JsonScore,
    /// The verifier text is a pytest file, run from `/tests`; the pass ratio of its tests scores.
    Pytest,
    /// The verifier text is a `tests/test.sh` that writes `/logs/verifier/reward.txt` (Harbor's form).
    RewardFile,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "TaskAppInput")]
pub struct AppTaskInput {
    pub name: String,
    pub instruction: String,
    /// `(relative path, text)` written into the working directory.
    pub files: Vec<(String, String)>,
    /// The shell command (exit code, JSON score), the pytest file, or the test.sh script.
    pub verifier_command: String,
    #[serde(default)]
    pub verifier_kind: AppVerifierKind,
    /// Defaults to [`DEFAULT_IMAGE`].
    pub image: Option<String>,
    #[serde(default)]
    pub agent_timeout_secs: Option<u64>,
    #[serde(default)]
    pub verifier_timeout_secs: Option<u64>,
}

/// What is wrong with an app task, per field (for the form).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, TS)]
#[error("{field}: {message}")]
#[ts(export, rename = "TaskAppInputError")]
pub struct AppInputError {
    pub field: String,
    pub message: String,
}

fn err(field: &str, message: impl Into<String>) -> AppInputError {
    AppInputError { field: field.into(), message: message.into() }
}

pub fn to_task(input: &AppTaskInput) -> Result<TaskSpec, AppInputError> {
    let name = input.name.trim();
    if name.is_empty() {
        return Err(err("name", "is empty"));
    }
    let id_slug = slug(name);
    if id_slug.is_empty() {
        return Err(err("name", "needs at least one letter or digit"));
    }
    if input.instruction.trim().is_empty() {
        return Err(err("instruction", "is empty"));
    }
    let command = input.verifier_command.trim();
    if command.is_empty() {
        return Err(err("verifier_command", "is empty"));
    }
    let mut files: Vec<TaskFile> = Vec::new();
    for (i, (path, text)) in input.files.iter().enumerate() {
        let rel = check_relative(path).map_err(|m| err(&format!("files[{i}]"), m))?;
        if files.iter().any(|f| f.path == rel) {
            return Err(err(&format!("files[{i}]"), format!("`{rel}` is listed twice")));
        }
        files.push(TaskFile::new(rel, text.as_bytes()));
    }
    for (field, v) in
        [("agent_timeout_secs", input.agent_timeout_secs), ("verifier_timeout_secs", input.verifier_timeout_secs)]
    {
        if v == Some(0) {
            return Err(err(field, "must be at least 1 second"));
        }
    }
    let image = match input.image.as_deref().map(str::trim) {
        None | Some("") => DEFAULT_IMAGE.to_string(),
        Some(i) if i.chars().any(char::is_whitespace) => return Err(err("image", "must not contain spaces")),
        Some(i) => i.to_string(),
    };
    let verifier = match input.verifier_kind {
        AppVerifierKind::ExitCode => TaskVerifier::ExitCode { command: command.into() },
        AppVerifierKind::JsonScore => TaskVerifier::JsonScoreCommand { command: command.into() },
        AppVerifierKind::Pytest => TaskVerifier::Pytest {
            test_files: vec![TaskFile::new("test_task.py", input.verifier_command.as_bytes())],
            args: Vec::new(),
            tests_dir: HARBOR_TESTS_DIR.into(),
        },
        AppVerifierKind::RewardFile => TaskVerifier::HarborTests {
            tests_dir_files: vec![TaskFile::new("test.sh", input.verifier_command.as_bytes())],
        },
    };
    Ok(TaskSpec {
        id: format!("app:{id_slug}"),
        name: name.to_string(),
        source: TaskSource { kind: TaskSourceKind::App, path: String::new() },
        instruction: input.instruction.clone(),
        environment: TaskEnvironment {
            image: Some(image),
            workdir: Some(DEFAULT_WORKDIR.into()),
            workspace_files: files,
            ..TaskEnvironment::default()
        },
        verifier,
        agent_timeout_secs: input.agent_timeout_secs.unwrap_or(DEFAULT_AGENT_TIMEOUT_SECS),
        verifier_timeout_secs: input.verifier_timeout_secs.unwrap_or(DEFAULT_VERIFIER_TIMEOUT_SECS),
        verifier_in_place: false,
        run_as_root: false,
        reference_solution: None,
        warnings: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> AppTaskInput {
        AppTaskInput {
            name: "Sum report".into(),
            instruction: "Write the sum of data.csv to report.txt".into(),
            files: vec![("data.csv".into(), "n\n1\n2\n".into())],
            verifier_command: "test \"$(cat report.txt)\" = 3".into(),
            verifier_kind: AppVerifierKind::ExitCode,
            image: None,
            agent_timeout_secs: None,
            verifier_timeout_secs: Some(30),
        }
    }

    #[test]
    fn builds_an_exit_code_task() {
        let t = to_task(&input()).unwrap();
        assert_eq!(t.id, "app:sum-report");
        assert_eq!(t.environment.image.as_deref(), Some(DEFAULT_IMAGE));
        assert_eq!(t.environment.workspace_files[0].contents, b"n\n1\n2\n");
        assert_eq!(t.verifier_timeout_secs, 30);
        assert_eq!(t.agent_timeout_secs, DEFAULT_AGENT_TIMEOUT_SECS);
        assert!(matches!(t.verifier, TaskVerifier::ExitCode { ref command } if command.contains("report.txt")));
    }

    #[test]
    fn json_score_kind() {
        let mut i = input();
        i.verifier_kind = AppVerifierKind::JsonScore;
        i.image = Some("alpine:3".into());
        let t = to_task(&i).unwrap();
        assert!(matches!(t.verifier, TaskVerifier::JsonScoreCommand { .. }));
        assert_eq!(t.environment.image.as_deref(), Some("alpine:3"));
    }

    #[test]
    fn pytest_and_reward_file_kinds_carry_the_verifier_as_a_file() {
        let mut i = input();
        i.verifier_kind = AppVerifierKind::Pytest;
        i.verifier_command = "def test_sum():\n    assert open('report.txt').read().strip() == '3'\n".into();
        let TaskVerifier::Pytest { test_files, tests_dir, .. } = to_task(&i).unwrap().verifier else { panic!() };
        assert_eq!((test_files[0].path.as_str(), tests_dir.as_str()), ("test_task.py", HARBOR_TESTS_DIR));
        i.verifier_kind = AppVerifierKind::RewardFile;
        i.verifier_command = "echo 1 > /logs/verifier/reward.txt".into();
        let TaskVerifier::HarborTests { tests_dir_files } = to_task(&i).unwrap().verifier else { panic!() };
        assert_eq!(tests_dir_files[0].path, "test.sh");
    }

    #[test]
    fn rejects_bad_input_per_field() {
        type Mutate = fn(&mut AppTaskInput);
        let cases: Vec<(Mutate, &str)> = vec![
            (|i| i.name = " ".into(), "name"),
            (|i| i.name = "!!".into(), "name"),
            (|i| i.instruction = "".into(), "instruction"),
            (|i| i.verifier_command = "  ".into(), "verifier_command"),
            (|i| i.files.push(("../x".into(), "".into())), "files[1]"),
            (|i| i.files.push(("/abs".into(), "".into())), "files[1]"),
            (|i| i.files.push(("./data.csv".into(), "".into())), "files[1]"),
            (|i| i.agent_timeout_secs = Some(0), "agent_timeout_secs"),
            (|i| i.image = Some("a b".into()), "image"),
        ];
        for (mutate, field) in cases {
            let mut i = input();
            mutate(&mut i);
            assert_eq!(to_task(&i).unwrap_err().field, field);
        }
    }

    #[test]
    fn input_deserializes_with_defaults() {
        let i: AppTaskInput = serde_json::from_str(
            r#"{"name":"n","instruction":"i","files":[["a.txt","x"]],"verifier_command":"true","image":null}"#,
        )
        .unwrap();
        assert_eq!(i.verifier_kind, AppVerifierKind::ExitCode);
        assert_eq!(i.files, vec![("a.txt".to_string(), "x".to_string())]);
    }
}
