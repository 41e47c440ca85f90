//! Verifier sanity of generated tasks, checked in the sandbox before a reviewer approves them: a
//! task's verifier runs twice on the untouched environment (it must fail: a verifier that passes
//! before any work tests nothing) and, when the task has a reference solution, twice after it (it
//! must pass). Two runs of the same case that score differently flag the verifier as flaky. The
//! runs are one queue run per task set, run like any other (queued by `sanity_queue`); the verdict
//! is read here from their scores.

use crate::error::Result;
use rusqlite::OptionalExtension;
use serde::{Deserialize, Serialize};
use skillscope_runs::queue::model::TrialState;
use skillscope_runs::queue::store;
use skillscope_store::workspace::Workspace;
use std::collections::HashMap;
use ts_rs::TS;

/// Runs of each case: two, so that a flaky verifier shows.
pub(crate) const REPEATS: u32 = 2;
pub(crate) const UNTOUCHED: &str = "untouched";
pub(crate) const REFERENCE: &str = "reference";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum SanityState {
    /// Runs still queued or running.
    Pending,
    /// Fails untouched, passes after the reference solution (when there is one), same result twice.
    Passed,
    /// One of the checks failed; `problems` says which.
    Flagged,
}

/// One generated task's verifier sanity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VerifierSanity {
    pub state: SanityState,
    /// The queue run holding the checks.
    pub run_id: i64,
    /// Pass ratio of each run on the untouched environment (None: not scored, or not yet).
    pub untouched: Vec<Option<f64>>,
    /// Pass ratio of each run after the reference solution; empty when the task has none.
    pub reference: Vec<Option<f64>>,
    pub problems: Vec<String>,
}

pub(crate) fn run_of(ws: &Workspace, set_id: i64) -> Result<Option<i64>> {
    Ok(ws
        .conn()?
        .query_row("SELECT sanity_run_id FROM generated_sets WHERE task_set_id = ?1", [set_id], |r| r.get(0))
        .optional()?
        .flatten())
}

pub(crate) fn label(task_id: &str, case: &str, n: u32) -> String {
    format!("{task_id} · {case} {n}")
}

/// The sanity of each checked task of set `set_id`, by task id (empty when it has no checks).
pub fn of_set(ws: &Workspace, set_id: i64) -> Result<HashMap<String, VerifierSanity>> {
    let Some(run_id) = run_of(ws, set_id)? else { return Ok(HashMap::new()) };
    let mut runs: HashMap<String, Vec<(String, Run)>> = HashMap::new();
    for t in store::trials(ws, run_id)? {
        let Some((task_id, case)) = t.label.rsplit_once(" · ") else { continue };
        let result = if t.state.is_final() { store::results(ws, t.id)?.pop() } else { None };
        let run = Run {
            done: t.state.is_final(),
            score: result.as_ref().and_then(|r| r.score),
            why: result
                .and_then(|r| r.error)
                .filter(|_| t.state != TrialState::Passed && t.state != TrialState::Failed),
        };
        runs.entry(task_id.to_string()).or_default().push((case.to_string(), run));
    }
    Ok(runs.into_iter().map(|(task, cases)| (task, verdict(run_id, &cases))).collect())
}

/// One check's run as the verdict reads it.
#[derive(Debug, Clone, PartialEq)]
struct Run {
    done: bool,
    score: Option<f64>,
    /// Why the run has no usable score (an infrastructure or verifier error).
    why: Option<String>,
}

fn verdict(run_id: i64, cases: &[(String, Run)]) -> VerifierSanity {
    let of = |case: &str| -> Vec<&Run> {
        let mut runs: Vec<(&String, &Run)> =
            cases.iter().filter(|(c, _)| c.starts_with(case)).map(|(c, r)| (c, r)).collect();
        runs.sort_by_key(|(c, _)| c.as_str());
        runs.into_iter().map(|(_, r)| r).collect()
    };
    let (untouched, reference) = (of(UNTOUCHED), of(REFERENCE));
    let scores = |runs: &[&Run]| runs.iter().map(|r| r.score).collect::<Vec<_>>();
    let mut sanity = VerifierSanity {
        state: SanityState::Pending,
        run_id,
        untouched: scores(&untouched),
        reference: scores(&reference),
        problems: Vec::new(),
    };
    if untouched.iter().chain(&reference).any(|r| !r.done) {
        return sanity;
    }
    let p = &mut sanity.problems;
    for (case, runs) in [(UNTOUCHED, &untouched), (REFERENCE, &reference)] {
        for (i, r) in runs.iter().enumerate() {
            if r.score.is_none() {
                let why = r.why.as_deref().unwrap_or("no score");
                p.push(format!("the {case} run {} was not scored: {why}", i + 1));
            }
        }
        let seen: Vec<f64> = runs.iter().filter_map(|r| r.score).collect();
        if seen.windows(2).any(|w| w[0] != w[1]) {
            let list: Vec<String> = seen.iter().map(|s| format!("{s:.2}")).collect();
            p.push(format!("flaky: the {case} runs scored {}", list.join(" then ")));
        }
    }
    if let Some(s) = untouched.iter().filter_map(|r| r.score).find(|s| *s >= 1.0) {
        p.push(format!("passes on the untouched environment (pass ratio {s:.2}): it does not test the change"));
    }
    if let Some(s) = reference.iter().filter_map(|r| r.score).find(|s| *s < 1.0) {
        p.push(format!("the reference solution does not pass (pass ratio {s:.2})"));
    }
    sanity.state = if p.is_empty() { SanityState::Passed } else { SanityState::Flagged };
    sanity
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(score: Option<f64>) -> Run {
        Run { done: true, score, why: score.is_none().then(|| "verifier error: no JUnit report".into()) }
    }

    fn cases(untouched: &[Option<f64>], reference: &[Option<f64>]) -> Vec<(String, Run)> {
        let mut out = Vec::new();
        for (case, scores) in [(UNTOUCHED, untouched), (REFERENCE, reference)] {
            for (i, s) in scores.iter().enumerate() {
                out.push((format!("{case} {}", i + 1), run(*s)));
            }
        }
        out
    }

    #[test]
    fn a_sound_verifier_passes_and_each_fault_is_flagged_with_why() {
        let v = verdict(7, &cases(&[Some(0.0), Some(0.0)], &[Some(1.0), Some(1.0)]));
        assert_eq!((v.state, v.problems.len(), v.run_id), (SanityState::Passed, 0, 7));
        // No reference solution: nothing to prove passing with, still sound.
        assert_eq!(verdict(7, &cases(&[Some(0.25), Some(0.25)], &[])).state, SanityState::Passed);

        let flaky = verdict(7, &cases(&[Some(0.0), Some(0.5)], &[Some(1.0), Some(1.0)]));
        assert_eq!(flaky.state, SanityState::Flagged);
        assert_eq!(flaky.problems, ["flaky: the untouched runs scored 0.00 then 0.50"]);
        let trivial = verdict(7, &cases(&[Some(1.0), Some(1.0)], &[]));
        assert_eq!(
            trivial.problems,
            ["passes on the untouched environment (pass ratio 1.00): it does not test the change"]
        );
        let wrong = verdict(7, &cases(&[Some(0.0), Some(0.0)], &[Some(0.67), Some(0.67)]));
        assert_eq!(wrong.problems, ["the reference solution does not pass (pass ratio 0.67)"]);
        let broken = verdict(7, &cases(&[None, Some(0.0)], &[]));
        assert_eq!(broken.problems, ["the untouched run 1 was not scored: verifier error: no JUnit report"]);

        let mut waiting = cases(&[Some(0.0), Some(0.0)], &[Some(1.0)]);
        waiting.push(("reference 2".into(), Run { done: false, score: None, why: None }));
        let v = verdict(7, &waiting);
        assert_eq!((v.state, v.reference.clone()), (SanityState::Pending, vec![Some(1.0), None]));
    }
}
