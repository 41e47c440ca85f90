//! Calibrating an experiment's judge, shown beside its judged results: repeatability (graded arms
//! graded again with the same judge and prompt) and agreement with the deterministic verifiers
//! (verifier-scored arms also graded by the judge). The latest calibration is kept per experiment.

use crate::design::{design, pairs, ArmView};
use crate::error::{ExperimentError, Result};
use crate::judging::{arm_transcript, Progress};
use rusqlite::OptionalExtension;
use serde::{Deserialize, Serialize};
use skillscope_judge::calibration::{self, Repeatability, VerifierAgreement};
use skillscope_judge::grading::{expectations, Graded, Grading};
use skillscope_judge::rubric::GOAL;
use skillscope_judge::{Judge, Session};
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

/// How the calibration is made, said wherever it is shown.
pub const METHOD: &str = "repeatability: the first graded arms (in pair order, up to the sample) graded again with the same judge and prompt at temperature 0; an expectation is unanimous when every grading gave it the same verdict; the score's standard deviation per arm, averaged. Agreement: the first verifier-scored arms (up to the sample) graded by the judge on one expectation, \"The run accomplished the task as it was given\"; a pass is a score ≥ 0.5 for judge and verifier alike; agreement with its 95% Wilson score interval, and Cohen's kappa";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Calibration {
    pub judge: Judge,
    pub method: String,
    /// Gradings per arm asked for (the stored one included), and the most arms per check.
    pub gradings: u32,
    pub sample: u32,
    pub repeatability: Repeatability,
    pub verifier: VerifierAgreement,
    pub created_at: String,
}

/// Grades `asked` of `arm` once; None for a NO SCORE or a run without a trajectory.
async fn grade(
    ws: &Workspace,
    session: &Session,
    instruction: &str,
    asked: Vec<String>,
    arm: &ArmView,
) -> Result<Option<Graded>> {
    let Some(text) = arm_transcript(ws, arm)?.1 else { return Ok(None) };
    Ok(session.grade(&Grading::prepare(instruction, asked, text)).await.outcome.ok())
}

/// Calibrates the experiment's judge with `gradings` gradings per arm over at most `sample` arms
/// per check, and keeps the result as the experiment's latest calibration. `progress` hears the
/// gradings done of those planned; when it answers false the calibration stops and nothing is kept
/// (a calibration is whole or not at all).
pub async fn calibrate(
    ws: &Workspace,
    experiment_id: i64,
    gradings: u32,
    sample: u32,
    progress: Progress<'_>,
) -> Result<Calibration> {
    if gradings < 2 || sample == 0 {
        return Err(ExperimentError::InvalidInput("a calibration needs at least 2 gradings per arm and 1 arm".into()));
    }
    let design = design(ws, experiment_id)?;
    let judge = design.judge.clone().ok_or_else(|| {
        ExperimentError::InvalidInput(format!("experiment {experiment_id} has no judge to calibrate"))
    })?;
    let session = Session::judge(ws, &judge)?;
    let all = pairs(ws, experiment_id)?;
    // The arms first, so the total is known: graded arms to grade again, verifier-scored ones to grade.
    let (mut regrade, mut verified) = (Vec::new(), Vec::new());
    for (p, arm) in all.iter().flat_map(|p| [(p, &p.without), (p, &p.with)]) {
        let Some(task) = design.tasks.iter().find(|t| t.id == p.task) else { continue };
        match (task.judged(), arm.judgement.as_ref().and_then(|j| j.graded.clone()), arm.score) {
            (Some((asked, expected)), Some(stored), _) if (regrade.len() as u32) < sample => {
                regrade.push((task, expectations(asked, expected), stored, arm))
            }
            (None, _, Some(score)) if p.excluded.is_empty() && (verified.len() as u32) < sample => {
                verified.push((task, score, arm))
            }
            _ => {}
        }
    }
    let total = regrade.len() as u32 * (gradings - 1) + verified.len() as u32;
    let mut done = 0;
    let mut tell = |done: u32| match progress(done, total) {
        true => Ok(()),
        false => Err(ExperimentError::Conflict("the calibration stopped on request; nothing was kept".into())),
    };
    tell(done)?;
    let mut repeated = Vec::new();
    for (task, asked, stored, arm) in regrade {
        let mut all = vec![Some(stored)];
        for _ in 1..gradings {
            all.push(grade(ws, &session, &task.instruction, asked.clone(), arm).await?);
            done += 1;
            tell(done)?;
        }
        repeated.push(all);
    }
    let mut against = Vec::new();
    for (task, score, arm) in verified {
        let judged = grade(ws, &session, &task.instruction, vec![GOAL.into()], arm).await?;
        against.push((score, judged.map(|g| g.score)));
        done += 1;
        tell(done)?;
    }
    let c = Calibration {
        judge,
        method: METHOD.into(),
        gradings,
        sample,
        repeatability: calibration::repeatability(&repeated),
        verifier: calibration::verifier_agreement(&against),
        created_at: skillscope_store::now(),
    };
    ws.conn()?.execute(
        "INSERT OR REPLACE INTO judge_calibrations(experiment_id, calibration_json, created_at) VALUES (?1, ?2, ?3)",
        rusqlite::params![experiment_id, serde_json::to_string(&c)?, c.created_at],
    )?;
    Ok(c)
}

/// The experiment's latest calibration, if any.
pub fn latest(ws: &Workspace, experiment_id: i64) -> Result<Option<Calibration>> {
    let json: Option<String> = ws
        .conn()?
        .query_row("SELECT calibration_json FROM judge_calibrations WHERE experiment_id = ?1", [experiment_id], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(json.map(|j| serde_json::from_str(&j)).transpose()?)
}
