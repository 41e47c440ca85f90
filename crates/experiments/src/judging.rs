//! What the experiment's judge does, once its trials have run: grades every finished arm of a
//! task with expectations (not yet judged on its current attempt) from the transcript of its run,
//! applies ACES's rubric (goal, and accuracy where the task has a reference answer) to every
//! finished arm not yet given it, and compares the two arms of every scored pair in both orders (not yet compared on their
//! current attempts). A verdict that cannot be had is stored as NO SCORE with its reason: a
//! graded arm's pair stays unscored; a pair without a preference counts in no preference rate.

use crate::design::{design, pairs, ArmView, ExperimentDesign, PairView};
use crate::error::{ExperimentError, Result};
use serde::{Deserialize, Serialize};
use skillscope_judge::grading::{expectations, transcript, Grading};
use skillscope_judge::preference::Comparison;
use skillscope_judge::rubric;
use skillscope_judge::store::{self, Graded, Judgement, Preference};
use skillscope_judge::{Judge, Session};
use skillscope_runs::queue::model::TrialState;
use skillscope_runs::trajectories;
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

/// What the judge did: arms graded on their expectations, arms given the ACES rubric, and pairs
/// compared (NO SCOREs included).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Judged {
    pub graded: u32,
    pub rubric: u32,
    pub compared: u32,
}

fn finished(arm: &ArmView) -> bool {
    matches!(arm.state, TrialState::Passed | TrialState::Failed | TrialState::AgentError)
}

/// The arm's current attempt and the transcript of its run, if it left one.
pub(crate) fn arm_transcript(ws: &Workspace, arm: &ArmView) -> Result<(u32, Option<String>)> {
    let attempt = arm.reruns + 1;
    let stored = trajectories::for_trial(ws, arm.trial_id)?.into_iter().find(|t| t.attempt == Some(attempt));
    let text = stored.map(|t| trajectories::get(ws, t.id).map(|t| transcript(&t))).transpose()?;
    Ok((attempt, text))
}

/// Grades `asked` of the arm's current attempt and stores the verdict (or NO SCORE) as `kind`.
async fn grade_arm(
    ws: &Workspace,
    (session, judge): (&Session, &Judge),
    instruction: &str,
    asked: Vec<String>,
    arm: &ArmView,
    kind: Graded,
) -> Result<()> {
    let (attempt, text) = arm_transcript(ws, arm)?;
    let outcome = match (asked.is_empty(), text) {
        (true, _) => (None, Err("the case has no expectation and no expected output to grade".into())),
        (false, None) => (None, Err("the run left no trajectory to grade".into())),
        (false, Some(text)) => {
            let a = session.grade(&Grading::prepare(instruction, asked, text)).await;
            (a.model_reported, a.outcome)
        }
    };
    store::save(ws, kind, &Judgement::new(arm.trial_id, attempt, judge, outcome.0, outcome.1))?;
    Ok(())
}

/// Told after each verdict: (done, total so far); false stops the judging there (what is judged
/// stays stored).
pub type Progress<'a> = &'a mut dyn FnMut(u32, u32) -> bool;

fn stopped() -> ExperimentError {
    ExperimentError::Conflict("judging stopped on request; the verdicts given so far are kept".into())
}

/// Judges what is pending in the experiment; nothing when its design names no judge.
pub async fn judge_pending(ws: &Workspace, experiment_id: i64, progress: Progress<'_>) -> Result<Judged> {
    let design = design(ws, experiment_id)?;
    let Some(judge) = &design.judge else { return Ok(Judged::default()) };
    let session = Session::judge(ws, judge)?;
    let mut done = Judged::default();
    let all = pairs(ws, experiment_id)?;
    // The comparisons' count is known once the grading has scored the judged pairs; until then the
    // total counts the pairs scored already.
    let mut total = pending_grades(&design, &all)
        + all.iter().filter(|p| p.excluded.is_empty() && p.preference.is_none()).count() as u32;
    let mut tell = |done: &Judged, total: u32| match progress(done.graded + done.rubric + done.compared, total) {
        true => Ok(()),
        false => Err(stopped()),
    };
    tell(&done, total)?;
    for p in all {
        let Some(task) = design.tasks.iter().find(|t| t.id == p.task) else { continue };
        let judged = task.judged();
        for arm in [&p.without, &p.with].into_iter().filter(|a| finished(a)) {
            if let (Some((asked, expected_output)), None) = (judged, &arm.judgement) {
                let asked = expectations(asked, expected_output);
                grade_arm(ws, (&session, judge), &task.instruction, asked, arm, Graded::Expectations).await?;
                done.graded += 1;
                tell(&done, total)?;
            }
            // A routing case is there for where the agent went, not for what it achieved.
            if arm.rubric.is_none() && task.routing().is_none() {
                let asked = rubric::asked(judged.and_then(|(_, reference)| reference));
                grade_arm(ws, (&session, judge), &task.instruction, asked, arm, Graded::Rubric).await?;
                done.rubric += 1;
                tell(&done, total)?;
            }
        }
    }
    // Compared after grading, so that a pair's judged arms are scored first.
    let to_compare: Vec<PairView> =
        pairs(ws, experiment_id)?.into_iter().filter(|p| p.excluded.is_empty() && p.preference.is_none()).collect();
    total = done.graded + done.rubric + to_compare.len() as u32;
    for p in &to_compare {
        let Some(task) = design.tasks.iter().find(|t| t.id == p.task) else { continue };
        store::save_preference(ws, &compare(ws, &session, judge, &task.instruction, p).await?)?;
        done.compared += 1;
        tell(&done, total)?;
    }
    Ok(done)
}

/// Arms waiting for their expectations to be graded or for the rubric.
fn pending_grades(design: &ExperimentDesign, all: &[PairView]) -> u32 {
    let mut n = 0;
    for p in all {
        let Some(task) = design.tasks.iter().find(|t| t.id == p.task) else { continue };
        for arm in [&p.without, &p.with].into_iter().filter(|a| finished(a)) {
            n += u32::from(task.judged().is_some() && arm.judgement.is_none());
            n += u32::from(task.routing().is_none() && arm.rubric.is_none());
        }
    }
    n
}

async fn compare(
    ws: &Workspace,
    session: &Session,
    judge: &Judge,
    instruction: &str,
    p: &PairView,
) -> Result<Preference> {
    let (without_attempt, without) = arm_transcript(ws, &p.without)?;
    let (with_attempt, with) = arm_transcript(ws, &p.with)?;
    let arms = [(p.without.trial_id, without_attempt), (p.with.trial_id, with_attempt)];
    Ok(match (without, with) {
        (Some(without), Some(with)) => {
            let a = Comparison::prepare(instruction, without, with).compare(session).await;
            Preference::new(arms, judge, a.model_reported, a.outcome)
        }
        _ => Preference::new(arms, judge, None, Err("an arm left no trajectory to compare".into())),
    })
}
