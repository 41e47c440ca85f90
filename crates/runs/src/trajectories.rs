//! ATIF trajectories in the workspace: stored gzip-compressed (already redacted), whole and step by
//! step, so that a viewer reads one window of steps at a time however long the trajectory is.
//! Trials write theirs; files from Harbor or SkillEvaluator are imported.

use crate::error::{Result, RunsError};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use skillscope_atif::{Content, ContentPart, Step, Trajectory, Violation};
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TrajectorySummary {
    pub id: i64,
    pub trial_id: Option<i64>,
    pub attempt: Option<u32>,
    pub origin: String,
    pub label: String,
    pub stop_reason: Option<String>,
    pub input_tokens: u64,
    pub cached_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: Option<f64>,
    pub steps: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ImportedTrajectory {
    pub id: i64,
    pub violations: Vec<Violation>,
}

pub struct NewTrajectory<'a> {
    pub trial: Option<(i64, u32)>,
    pub origin: &'a str,
    pub label: &'a str,
    pub trajectory: &'a Trajectory,
    pub stop_reason: Option<&'a str>,
}

/// Stores a trajectory once (a trial attempt's second write is ignored); returns its id.
pub fn store(conn: &mut Connection, t: NewTrajectory) -> Result<i64> {
    let gz = skillscope_atif::compress(t.trajectory)?;
    let fm = t.trajectory.final_metrics.as_ref();
    let tok = |f: fn(&skillscope_atif::FinalMetrics) -> Option<i64>| fm.and_then(f).unwrap_or(0);
    let tx = conn.savepoint()?; // nests inside a caller's transaction (bundle import)
    let inserted = tx.execute(
        "INSERT INTO trajectories(trial_id, attempt, origin, label, atif_gz, stop_reason, input_tokens, cached_tokens,
            output_tokens, cost_usd, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
         ON CONFLICT DO NOTHING",
        params![
            t.trial.map(|x| x.0),
            t.trial.map(|x| x.1),
            t.origin,
            t.label,
            gz,
            t.stop_reason,
            tok(|m| m.total_prompt_tokens),
            tok(|m| m.total_cached_tokens),
            tok(|m| m.total_completion_tokens),
            fm.and_then(|m| m.total_cost_usd),
            now()
        ],
    )?;
    if inserted == 0 {
        let (trial, attempt) = t.trial.expect("only trial trajectories are unique");
        return Ok(tx.query_row(
            "SELECT id FROM trajectories WHERE trial_id = ?1 AND attempt = ?2",
            params![trial, attempt],
            |r| r.get(0),
        )?);
    }
    let id = tx.last_insert_rowid();
    index_steps(&tx, id, t.trajectory)?;
    tx.commit()?;
    Ok(id)
}

/// Writes the step rows of a trajectory and its step count.
fn index_steps(conn: &Connection, id: i64, trajectory: &Trajectory) -> Result<()> {
    let mut ins = conn.prepare(
        "INSERT INTO trajectory_steps(trajectory_id, position, step_id, source, text, at_ms, signature, reads_skill, step_gz)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    for (row, step) in skillscope_atif::index(trajectory).into_iter().zip(&trajectory.steps) {
        let step_gz = skillscope_atif::compress(step)?;
        ins.execute(params![
            id,
            row.position,
            row.step_id as i64,
            row.source.as_str(),
            row.text,
            row.at_ms,
            row.signature,
            reads_skill(step),
            step_gz
        ])?;
    }
    conn.execute("UPDATE trajectories SET step_count = ?2 WHERE id = ?1", params![id, trajectory.steps.len() as i64])?;
    Ok(())
}

/// Indexes the steps of trajectories stored before steps were kept one by one (schema 7).
pub fn index_pending(conn: &mut Connection) -> Result<usize> {
    let ids: Vec<i64> = conn
        .prepare("SELECT id FROM trajectories WHERE step_count IS NULL")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for &id in &ids {
        let tx = conn.transaction()?;
        let trajectory = read(&tx, id)?;
        index_steps(&tx, id, &trajectory)?;
        tx.commit()?;
    }
    Ok(ids.len())
}

/// Whether a step reads a skill's SKILL.md (the skill was invoked).
pub fn reads_skill(step: &Step) -> bool {
    let prefix = format!("{}/", crate::queue::model::SKILLS_DIR);
    step.tool_calls.iter().flatten().any(|call| {
        // A CLI harness's converter marks the calls that read a skill its own way (Claude Code's
        // Skill tool, Codex's `cat …/SKILL.md`); the built-in agent's reads go to /skills.
        let marked = call.extra.as_ref().is_some_and(|e| e.contains_key("skill_read"));
        let args = serde_json::Value::Object(call.arguments.clone()).to_string();
        marked
            || (matches!(call.function_name.as_str(), "read_file" | "bash")
                && args.contains(&prefix)
                && args.contains("SKILL.md"))
    })
}

/// A trial's trajectory is labelled by its trial (skill, task, arm …), an imported one by its file.
const SUMMARY_SQL: &str = "SELECT t.id AS id, t.trial_id, t.attempt, t.origin,
    COALESCE((SELECT tr.label FROM trials tr WHERE tr.id = t.trial_id), t.label) AS label, t.stop_reason, t.input_tokens,
    t.cached_tokens, t.output_tokens, t.cost_usd, COALESCE(t.step_count, 0) FROM trajectories t";

fn summary(r: &rusqlite::Row) -> rusqlite::Result<TrajectorySummary> {
    Ok(TrajectorySummary {
        id: r.get(0)?,
        trial_id: r.get(1)?,
        attempt: r.get(2)?,
        origin: r.get(3)?,
        label: r.get(4)?,
        stop_reason: r.get(5)?,
        input_tokens: r.get::<_, i64>(6)? as u64,
        cached_tokens: r.get::<_, i64>(7)? as u64,
        output_tokens: r.get::<_, i64>(8)? as u64,
        cost_usd: r.get(9)?,
        steps: r.get(10)?,
    })
}

/// Most trajectories one page of the list carries.
pub const MAX_PAGE: u32 = 200;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TrajectoryQuery {
    pub offset: u32,
    /// At most [`MAX_PAGE`].
    pub limit: u32,
    /// Only trajectories whose label (the trial's, or the imported file's name) contains this,
    /// case-insensitive; blank for all.
    #[serde(default)]
    pub search: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TrajectoryPage {
    /// Trajectories matching the search.
    pub total: u32,
    pub offset: u32,
    pub items: Vec<TrajectorySummary>,
}

/// One page of the workspace's trajectories, newest first: an experiment has tens of thousands.
pub fn page(ws: &Workspace, q: &TrajectoryQuery) -> Result<TrajectoryPage> {
    let conn = ws.conn()?;
    let needle = needle(&q.search);
    let filtered = format!("SELECT * FROM ({SUMMARY_SQL}) WHERE ?1 = '' OR instr(lower(label), ?1) > 0");
    let total = conn.query_row(&format!("SELECT COUNT(*) FROM ({filtered})"), [&needle], |r| r.get(0))?;
    let mut st = conn.prepare(&format!("{filtered} ORDER BY id DESC LIMIT ?2 OFFSET ?3"))?;
    let items =
        st.query_map(params![needle, q.limit.min(MAX_PAGE), q.offset], summary)?.collect::<rusqlite::Result<_>>()?;
    Ok(TrajectoryPage { total, offset: q.offset, items })
}

/// One trajectory's summary.
pub fn summary_of(ws: &Workspace, id: i64) -> Result<TrajectorySummary> {
    ws.conn()?
        .query_row(&format!("{SUMMARY_SQL} WHERE t.id = ?1"), [id], summary)
        .optional()?
        .ok_or_else(|| no_trajectory(id))
}

pub fn for_trial(ws: &Workspace, trial_id: i64) -> Result<Vec<TrajectorySummary>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(&format!("{SUMMARY_SQL} WHERE t.trial_id = ?1 ORDER BY t.attempt"))?;
    let rows = st.query_map([trial_id], summary)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The full ATIF document (for evidence bundles and exports; viewers read [`window`]s).
pub fn get(ws: &Workspace, id: i64) -> Result<Trajectory> {
    read(&ws.conn()?, id)
}

fn read(conn: &Connection, id: i64) -> Result<Trajectory> {
    let gz: Vec<u8> = conn
        .query_row("SELECT atif_gz FROM trajectories WHERE id = ?1", [id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| no_trajectory(id))?;
    Ok(skillscope_atif::decompress(&gz)?)
}

fn no_trajectory(id: i64) -> RunsError {
    RunsError::NotFound(format!("no trajectory with id {id}"))
}

/// Most steps one window carries: what a screen or two shows, never the whole of a long run.
pub const MAX_WINDOW: u32 = 500;

/// Longest text (message, reasoning, argument, output) a window carries; longer ones come cut and
/// marked, and the step can be asked for whole.
pub const WINDOW_TEXT_CHARS: usize = 100_000;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct WindowRequest {
    /// Index of the first step wanted in the (filtered) list.
    pub offset: u32,
    /// At most [`MAX_WINDOW`].
    pub limit: u32,
    /// Only steps whose visible text contains this (case-insensitive); blank for all.
    #[serde(default)]
    pub filter: String,
    /// Texts whole, however long (for one step a reader asked to see in full).
    #[serde(default)]
    pub whole: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct WindowStep {
    /// Index in the trajectory.
    pub position: u32,
    /// Milliseconds since the previous step of the trajectory, when both have a timestamp (never
    /// negative: clock skew shows as 0).
    pub since_ms: Option<i64>,
    pub step: Step,
    /// Some text of the step was cut at [`WINDOW_TEXT_CHARS`] characters.
    pub cut: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct StepWindow {
    /// Steps in the trajectory.
    pub steps_total: u32,
    /// Steps matching the filter (all of them without one).
    pub matching: u32,
    pub offset: u32,
    pub steps: Vec<WindowStep>,
}

fn needle(filter: &str) -> String {
    filter.trim().to_lowercase()
}

/// One window of a trajectory's steps (optionally filtered), in trajectory order.
pub fn window(ws: &Workspace, id: i64, req: &WindowRequest) -> Result<StepWindow> {
    let conn = ws.conn()?;
    let steps_total: Option<u32> = conn
        .query_row("SELECT COALESCE(step_count, 0) FROM trajectories WHERE id = ?1", [id], |r| r.get(0))
        .optional()?;
    let steps_total = steps_total.ok_or_else(|| no_trajectory(id))?;
    let needle = needle(&req.filter);
    let matching = if needle.is_empty() {
        steps_total
    } else {
        conn.query_row(
            "SELECT COUNT(*) FROM trajectory_steps WHERE trajectory_id = ?1 AND instr(text, ?2) > 0",
            params![id, needle],
            |r| r.get(0),
        )?
    };
    // The previous step's time comes from the trajectory, not from the filtered list.
    let mut st = conn.prepare_cached(
        "SELECT s.position, s.at_ms - (SELECT p.at_ms FROM trajectory_steps p WHERE p.trajectory_id = s.trajectory_id
                                       AND p.position = s.position - 1), s.step_gz
         FROM trajectory_steps s
         WHERE s.trajectory_id = ?1 AND (?2 = '' OR instr(s.text, ?2) > 0)
         ORDER BY s.position LIMIT ?3 OFFSET ?4",
    )?;
    let rows = st.query_map(params![id, needle, req.limit.min(MAX_WINDOW), req.offset], |r| {
        Ok((r.get::<_, u32>(0)?, r.get::<_, Option<i64>>(1)?, r.get::<_, Vec<u8>>(2)?))
    })?;
    let mut steps = Vec::new();
    for row in rows {
        let (position, since, gz) = row?;
        let mut step = skillscope_atif::decompress(&gz)?;
        let cut = !req.whole && cut_texts(&mut step);
        steps.push(WindowStep { position, since_ms: since.map(|ms| ms.max(0)), step, cut });
    }
    Ok(StepWindow { steps_total, matching, offset: req.offset, steps })
}

/// Cuts a text longer than [`WINDOW_TEXT_CHARS`], saying how much is left out; whether it did.
fn cut_text(text: &mut String) -> bool {
    // A text of no more bytes than the limit has no more characters either.
    if text.len() <= WINDOW_TEXT_CHARS {
        return false;
    }
    let Some((end, _)) = text.char_indices().nth(WINDOW_TEXT_CHARS) else { return false };
    let rest = text[end..].chars().count();
    text.truncate(end);
    text.push_str(&format!("\n… [{rest} more characters not loaded]"));
    true
}

fn cut_content(content: &mut Content) -> bool {
    match content {
        Content::Text(text) => cut_text(text),
        Content::Parts(parts) => parts.iter_mut().fold(false, |cut, part| match part {
            ContentPart::Text { text } => cut_text(text) | cut,
            ContentPart::Image { .. } => cut,
        }),
    }
}

/// Cuts every long text of a step (so that one huge output cannot make a window huge).
fn cut_texts(step: &mut Step) -> bool {
    let mut cut = cut_content(&mut step.message);
    if let Some(reasoning) = &mut step.reasoning_content {
        cut |= cut_text(reasoning);
    }
    let in_arguments = std::cell::Cell::new(false);
    for call in step.tool_calls.iter_mut().flatten() {
        for value in call.arguments.values_mut() {
            skillscope_atif::redact::map_strings(value, &|text| {
                let mut text = text.to_owned();
                in_arguments.set(cut_text(&mut text) | in_arguments.get());
                text
            });
        }
    }
    for result in step.observation.iter_mut().flat_map(|o| &mut o.results) {
        if let Some(content) = &mut result.content {
            cut |= cut_content(content);
        }
    }
    cut | in_arguments.get()
}

/// The position of the first step with this id (what a link to a step names), if any.
pub fn step_position(ws: &Workspace, id: i64, step_id: u64) -> Result<Option<u32>> {
    Ok(ws.conn()?.query_row(
        "SELECT MIN(position) FROM trajectory_steps WHERE trajectory_id = ?1 AND step_id = ?2",
        params![id, step_id as i64],
        |r| r.get(0),
    )?)
}

/// How the two runs of a pair line up, step index by step index.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PairAlignment {
    pub without_steps: u32,
    pub with_steps: u32,
    /// The first index where the runs differ in tool calls or outputs (messages are not compared),
    /// or where one has ended and the other has not; none when they are the same throughout.
    pub first_divergence: Option<u32>,
    /// The first step of the with-skill run that reads a skill's SKILL.md.
    pub skill_read: Option<u32>,
}

/// Aligns the trajectories of a pair's two arms (either may be missing: no steps).
pub fn align(ws: &Workspace, without: Option<i64>, with: Option<i64>) -> Result<PairAlignment> {
    let conn = ws.conn()?;
    let count = |id: Option<i64>| -> Result<u32> {
        Ok(conn.query_row("SELECT COUNT(*) FROM trajectory_steps WHERE trajectory_id = ?1", [id], |r| r.get(0))?)
    };
    let (without_steps, with_steps) = (count(without)?, count(with)?);
    let differing: Option<u32> = conn.query_row(
        "SELECT MIN(a.position) FROM trajectory_steps a JOIN trajectory_steps b
            ON b.trajectory_id = ?2 AND b.position = a.position
         WHERE a.trajectory_id = ?1 AND a.signature <> b.signature",
        params![without, with],
        |r| r.get(0),
    )?;
    let first_divergence = differing.or((without_steps != with_steps).then(|| without_steps.min(with_steps)));
    let skill_read = conn.query_row(
        "SELECT MIN(position) FROM trajectory_steps WHERE trajectory_id = ?1 AND reads_skill",
        [with],
        |r| r.get(0),
    )?;
    Ok(PairAlignment { without_steps, with_steps, first_divergence, skill_read })
}

/// Imports an ATIF file produced elsewhere. Files with violations are kept (and the violations
/// returned); files that are not ATIF at all are refused.
pub fn import_file(ws: &Workspace, path: &std::path::Path) -> Result<(i64, Vec<Violation>)> {
    let imported = skillscope_atif::import_file(path)?;
    let label = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let id = store(
        &mut ws.conn()?,
        NewTrajectory {
            trial: None,
            origin: "import",
            label: &label,
            trajectory: &imported.trajectory,
            stop_reason: None,
        },
    )?;
    Ok((id, imported.violations))
}
