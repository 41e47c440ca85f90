//! Verifier outputs → a score in [0, 1], by the paired-evaluation method's
//! rules:
//!
//! - pytest: pass ratio = passed / (passed + failed + skipped + errors),
//!   counted per test case from the JUnit XML report (never from the text
//!   output). A test case with both a failure and a teardown error counts
//!   once, as failed. No test cases (or pytest's exit code 5) is an error,
//!   not a pass.
//! - Harbor: `reward.json` is read first, then `reward.txt` (as Harbor does).
//!   `reward.json` gives its `reward` key, or its only key; several named
//!   rewards without a `reward` key fall back to `reward.txt` and are an
//!   error without one (Harbor's default `mean` metric also refuses reward
//!   maps with more than one key). `reward.txt` is one number.
//! - JSON score command: the last line of stdout that is a JSON object must
//!   hold `"score": x` (optionally `passed`, `failed`, `skipped`, `errors`).
//! - exit-code command: exit 0 scores 1.0, any other exit 0.0.
//! - a verifier that timed out scores 0.
//! - a value outside [0, 1] (or not finite) is an error.
//!
//! Errors are never scores: the worker records them and does not count the
//! run as the agent's result.

mod junit;
mod plan;
mod reward;

pub use plan::{verifier_plan, VerifierPlan, HARBOR_REPORT_PATH, JUNIT_REPORT_PATH};

use crate::model::TaskVerifier;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "TaskScore")]
pub struct Score {
    /// In [0, 1].
    pub value: f64,
    pub passed: u32,
    pub failed: u32,
    pub skipped: u32,
    pub errors: u32,
    /// One line on how the value was reached.
    pub detail: String,
    /// Each check the verifier reported (a pytest test case); empty when it reports only a value.
    #[serde(default)]
    pub checks: Vec<Check>,
}

/// One check of a verifier run, as its report gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "VerifierCheck")]
pub struct Check {
    /// `classname::name` for a pytest test case.
    pub id: String,
    pub outcome: CheckOutcome,
    pub duration_ms: Option<u64>,
    /// The failure, error or skip message.
    pub message: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "VerifierCheckOutcome")]
pub enum CheckOutcome {
    Passed,
    Failed,
    Error,
    Skipped,
}

impl Score {
    fn plain(value: f64, detail: impl Into<String>) -> Self {
        Self { value, passed: 0, failed: 0, skipped: 0, errors: 0, detail: detail.into(), checks: Vec::new() }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScoreError {
    #[error("no deterministic verifier: a judge has to grade this run")]
    NeedsJudge,
    #[error("the task has no verifier: {0}")]
    NoVerifier(String),
    #[error("no report: {0}")]
    MissingReport(String),
    #[error("unreadable report: {0}")]
    BadReport(String),
    #[error("no tests collected: {0}")]
    NoTestsCollected(String),
    #[error("{what} = {value} is outside [0, 1]")]
    OutOfRange { what: String, value: f64 },
    #[error("no exit code recorded for an exit-code verifier")]
    MissingExitCode,
    #[error("verifier failed: {0}")]
    VerifierFailed(String),
    #[error("report contradicts the exit code: {0}")]
    Inconsistent(String),
}

/// Scores one verifier run. `exit_code` is the plan command's exit status
/// (`None` when unknown), `stdout` its output, `report` the downloaded
/// [`VerifierPlan::report_path`] (`None` when the file was absent).
pub fn score(
    v: &TaskVerifier,
    exit_code: Option<i64>,
    timed_out: bool,
    stdout: &str,
    report: Option<&[u8]>,
) -> Result<Score, ScoreError> {
    match v {
        TaskVerifier::NeedsJudge { .. } => return Err(ScoreError::NeedsJudge),
        TaskVerifier::Routing { .. } => {
            return Err(ScoreError::NoVerifier("a routing case has no outcome to score".into()))
        }
        TaskVerifier::Missing { reason } => return Err(ScoreError::NoVerifier(reason.clone())),
        _ => {}
    }
    if timed_out {
        return Ok(Score::plain(0.0, "verifier timed out"));
    }
    match v {
        TaskVerifier::Pytest { .. } => junit::score(exit_code, stdout, report),
        TaskVerifier::HarborTests { .. } => reward::score_harbor(exit_code, stdout, report),
        TaskVerifier::JsonScoreCommand { .. } => reward::score_json_stdout(exit_code, stdout),
        TaskVerifier::ExitCode { .. } => match exit_code {
            Some(0) => Ok(Score { passed: 1, ..Score::plain(1.0, "command exited 0") }),
            Some(n) => Ok(Score { failed: 1, ..Score::plain(0.0, format!("command exited {n}")) }),
            None => Err(ScoreError::MissingExitCode),
        },
        TaskVerifier::NeedsJudge { .. } | TaskVerifier::Routing { .. } | TaskVerifier::Missing { .. } => unreachable!(),
    }
}

/// Rejects values that are not finite or not in [0, 1].
fn in_range(what: &str, value: f64) -> Result<f64, ScoreError> {
    if value.is_finite() && (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(ScoreError::OutOfRange { what: what.to_string(), value })
    }
}

/// The last `n` characters of verifier output, for error messages.
fn tail(s: &str, n: usize) -> String {
    let s = s.trim_end();
    let count = s.chars().count();
    if count <= n {
        return s.to_string();
    }
    let start = s.char_indices().nth(count - n).map_or(0, |(i, _)| i);
    format!("…{}", &s[start..])
}

#[cfg(test)]
mod tests;
