//! Verdicts as stored, each with who judged, which prompt and at which temperature: judgements
//! (one per trial attempt: the graded expectations or the NO SCORE reason) and preferences (one
//! per pair of arm attempts).

use crate::call::{Judge, TEMPERATURE};
use crate::error::Result;
use crate::grading;
use crate::preference::Compared;
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use skillscope_answers::Prompt;
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use std::collections::HashMap;
use ts_rs::TS;

/// Who gave a verdict, with which prompt, at which temperature, and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct JudgedBy {
    pub judge: Judge,
    /// The model as the API named itself; None when it never answered.
    pub model_reported: Option<String>,
    pub prompt_version: String,
    pub prompt_sha256: String,
    pub temperature: f32,
    pub judged_at: String,
}

impl JudgedBy {
    fn new(judge: &Judge, model_reported: Option<String>, prompt: &Prompt) -> Self {
        JudgedBy {
            judge: judge.clone(),
            model_reported,
            prompt_version: prompt.version.into(),
            prompt_sha256: prompt.sha256(),
            temperature: TEMPERATURE,
            judged_at: now(),
        }
    }
}

/// A verdict or why there is none.
fn split<T>(outcome: std::result::Result<T, String>) -> (Option<T>, Option<String>) {
    match outcome {
        Ok(v) => (Some(v), None),
        Err(e) => (None, Some(e)),
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Judgement {
    pub trial_id: i64,
    pub attempt: u32,
    #[serde(flatten)]
    pub by: JudgedBy,
    /// The verdicts; None is NO SCORE, and `no_score` says why.
    pub graded: Option<grading::Graded>,
    pub no_score: Option<String>,
}

impl Judgement {
    pub fn new(
        trial_id: i64,
        attempt: u32,
        judge: &Judge,
        model_reported: Option<String>,
        outcome: std::result::Result<grading::Graded, String>,
    ) -> Self {
        let (graded, no_score) = split(outcome);
        let by = JudgedBy::new(judge, model_reported, judge.prompts.grading());
        Judgement { trial_id, attempt, by, graded, no_score }
    }

    pub fn score(&self) -> Option<f64> {
        self.graded.as_ref().map(|g| g.score)
    }
}

/// The judge's preference between a pair's arms (their attempts as compared).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Preference {
    pub without_trial_id: i64,
    pub without_attempt: u32,
    pub with_trial_id: i64,
    pub with_attempt: u32,
    #[serde(flatten)]
    pub by: JudgedBy,
    /// Both orders' answers; None is NO SCORE, and `no_score` says why.
    pub compared: Option<Compared>,
    pub no_score: Option<String>,
}

impl Preference {
    /// `arms` are (trial id, attempt) of the without and the with arm.
    pub fn new(
        arms: [(i64, u32); 2],
        judge: &Judge,
        model_reported: Option<String>,
        outcome: std::result::Result<Compared, String>,
    ) -> Self {
        let (compared, no_score) = split(outcome);
        let by = JudgedBy::new(judge, model_reported, judge.prompts.preference());
        let [(without_trial_id, without_attempt), (with_trial_id, with_attempt)] = arms;
        Preference { without_trial_id, without_attempt, with_trial_id, with_attempt, by, compared, no_score }
    }
}

/// What a judgement graded: a case's own expectations, or ACES's rubric ([`crate::rubric`]). An arm
/// attempt has at most one of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Graded {
    Expectations,
    Rubric,
}

impl Graded {
    fn table(self) -> &'static str {
        match self {
            Graded::Expectations => "judgements",
            Graded::Rubric => "rubric_judgements",
        }
    }
}

pub fn save(ws: &Workspace, kind: Graded, j: &Judgement) -> Result<()> {
    ws.conn()?.execute(
        &format!(
            "INSERT OR REPLACE INTO {}(trial_id, attempt, judgement_json, score, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            kind.table()
        ),
        params![j.trial_id, j.attempt, serde_json::to_string(j)?, j.score(), j.by.judged_at],
    )?;
    Ok(())
}

pub fn get(ws: &Workspace, kind: Graded, trial_id: i64, attempt: u32) -> Result<Option<Judgement>> {
    let json: Option<String> = ws
        .conn()?
        .query_row(
            &format!("SELECT judgement_json FROM {} WHERE trial_id = ?1 AND attempt = ?2", kind.table()),
            params![trial_id, attempt],
            |r| r.get(0),
        )
        .optional()?;
    Ok(json.map(|j| serde_json::from_str(&j)).transpose()?)
}

/// The judgements of a run's trials (their latest attempts), by trial id.
pub fn of_run(ws: &Workspace, kind: Graded, run_id: i64) -> Result<HashMap<i64, Judgement>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(&format!(
        "SELECT j.trial_id, j.judgement_json FROM {} j JOIN trials t ON t.id = j.trial_id AND t.attempt = j.attempt
         WHERE t.run_id = ?1",
        kind.table()
    ))?;
    let rows: Vec<(i64, String)> =
        st.query_map([run_id], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    rows.into_iter().map(|(id, json)| Ok((id, serde_json::from_str(&json)?))).collect()
}

pub fn save_preference(ws: &Workspace, p: &Preference) -> Result<()> {
    ws.conn()?.execute(
        "INSERT OR REPLACE INTO preferences(without_trial_id, without_attempt, with_trial_id, with_attempt, preference_json, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            p.without_trial_id,
            p.without_attempt,
            p.with_trial_id,
            p.with_attempt,
            serde_json::to_string(p)?,
            p.by.judged_at
        ],
    )?;
    Ok(())
}

/// The preferences between a run's arms as they stand (both arms' latest attempts), by the
/// without arm's trial id.
pub fn preferences_of_run(ws: &Workspace, run_id: i64) -> Result<HashMap<i64, Preference>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(
        "SELECT p.without_trial_id, p.preference_json FROM preferences p
         JOIN trials a ON a.id = p.without_trial_id AND a.attempt = p.without_attempt
         JOIN trials b ON b.id = p.with_trial_id AND b.attempt = p.with_attempt
         WHERE a.run_id = ?1",
    )?;
    let rows: Vec<(i64, String)> =
        st.query_map([run_id], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    rows.into_iter().map(|(id, json)| Ok((id, serde_json::from_str(&json)?))).collect()
}
