//! The queue's persistent state. Every transition is a guarded UPDATE (`WHERE state = ...`) so a
//! cancelled or recovered trial is never overwritten by a late writer, and results are keyed by
//! (trial, attempt) so each is written exactly once.

use super::model::*;
use crate::error::{Result, RunsError};
use rusqlite::{params, Connection, OptionalExtension, Row};
use skillscope_store::db;
use skillscope_store::now;
use skillscope_store::workspace::Workspace;

const PAUSED: &str = "queue.paused";
const ENGINE: &str = "queue.engine_problem";

pub fn now_ms() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

pub fn create_run(ws: &Workspace, name: &str, trials: &[(String, TrialSpec)]) -> Result<i64> {
    let mut conn = ws.conn()?;
    let tx = conn.transaction()?;
    let at = now();
    tx.execute("INSERT INTO runs(name, created_at) VALUES (?1, ?2)", params![name, at])?;
    let run_id = tx.last_insert_rowid();
    {
        let mut ins = tx.prepare(
            "INSERT INTO trials(run_id, label, spec_json, state, created_at, updated_at) VALUES (?1, ?2, ?3, 'queued', ?4, ?4)",
        )?;
        for (label, spec) in trials {
            ins.execute(params![run_id, label, serde_json::to_string(spec)?, at])?;
        }
    }
    tx.commit()?;
    Ok(run_id)
}

pub struct Claimed {
    pub id: i64,
    pub attempt: u32,
    pub spec: TrialSpec,
}

/// Moves up to `limit` due trials from queued to running, highest priority first.
pub fn claim(conn: &Connection, limit: u32) -> Result<Vec<Claimed>> {
    let mut st = conn.prepare(
        "UPDATE trials SET state = 'running', updated_at = ?1, message = 'Starting',
                env_started_at = NULL, env_finished_at = NULL, agent_started_at = NULL,
                agent_finished_at = NULL, verifier_started_at = NULL, verifier_finished_at = NULL
         WHERE id IN (SELECT id FROM trials WHERE state = 'queued' AND (not_before IS NULL OR not_before <= ?2)
                      ORDER BY priority DESC, id LIMIT ?3)
         RETURNING id, attempt, spec_json",
    )?;
    let rows = st.query_map(params![now(), now_ms(), limit], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, u32>(1)?, r.get::<_, String>(2)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, attempt, spec) = row?;
        out.push(Claimed { id, attempt, spec: serde_json::from_str(&spec)? });
    }
    out.sort_by_key(|c| c.id);
    Ok(out)
}

#[derive(Debug, Clone, Copy)]
pub enum Phase {
    Env,
    Agent,
    Verifier,
}

impl Phase {
    /// The phase as a message names it.
    pub fn describe(self) -> &'static str {
        match self {
            Phase::Env => "the environment's preparation (image, workspace upload, set-up, skill listing)",
            Phase::Agent => "the agent's work",
            Phase::Verifier => "the verifier",
        }
    }
}

/// The last phase the trial's running attempt started, if any.
pub fn current_phase(conn: &Connection, id: i64) -> Result<Option<Phase>> {
    let (env, agent, verifier): (Option<String>, Option<String>, Option<String>) = conn.query_row(
        "SELECT env_started_at, agent_started_at, verifier_started_at FROM trials WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    Ok(match (env, agent, verifier) {
        (_, _, Some(_)) => Some(Phase::Verifier),
        (_, Some(_), None) => Some(Phase::Agent),
        (Some(_), None, None) => Some(Phase::Env),
        _ => None,
    })
}

/// Stamps the start or end of a phase of a running attempt.
pub fn stamp(conn: &Connection, id: i64, attempt: u32, phase: Phase, start: bool, message: &str) -> Result<()> {
    let col = match (phase, start) {
        (Phase::Env, true) => "env_started_at",
        (Phase::Env, false) => "env_finished_at",
        (Phase::Agent, true) => "agent_started_at",
        (Phase::Agent, false) => "agent_finished_at",
        (Phase::Verifier, true) => "verifier_started_at",
        (Phase::Verifier, false) => "verifier_finished_at",
    };
    let at = now();
    conn.execute(
        &format!("UPDATE trials SET {col} = ?1, message = ?2, updated_at = ?1 WHERE id = ?3 AND attempt = ?4 AND state = 'running'"),
        params![at, message, id, attempt],
    )?;
    Ok(())
}

/// The skill folders an earlier trial found outside its workdir in a container of `digest` whose
/// search had the same `key` (`skill_roots::Clean::key`), if one searched to the end.
pub fn image_search(conn: &Connection, digest: &str, key: &str) -> Result<Option<Vec<String>>> {
    let json: Option<String> = conn
        .query_row(
            "SELECT found_json FROM image_skill_searches WHERE image_digest = ?1 AND search_key = ?2",
            params![digest, key],
            |r| r.get(0),
        )
        .optional()?;
    Ok(json.map(|j| serde_json::from_str(&j)).transpose()?)
}

/// Keeps what a search that ran to its end found outside the workdir.
pub fn save_image_search(conn: &Connection, digest: &str, key: &str, found: &[String]) -> Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO image_skill_searches(image_digest, search_key, found_json, searched_at)
         VALUES (?1, ?2, ?3, ?4)",
        params![digest, key, serde_json::to_string(found)?, now()],
    )?;
    Ok(())
}

pub fn set_container(conn: &Connection, id: i64, attempt: u32, container: &str, digest: &str) -> Result<()> {
    conn.execute(
        "UPDATE trials SET container_id = ?1, image_digest = ?2, updated_at = ?3 WHERE id = ?4 AND attempt = ?5",
        params![container, digest, now(), id, attempt],
    )?;
    Ok(())
}

/// Writes an attempt's result once and moves the trial on: to its final state, or, for an
/// infrastructure failure with attempts left, back to the queue after `backoff_ms`.
/// Returns false when the trial was no longer running (cancelled meanwhile).
/// Writes an attempt's result row once (a second write of the same attempt is ignored).
pub fn insert_result(conn: &Connection, trial_id: i64, r: &AttemptResult, recorded_at: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO trial_results(trial_id, attempt, outcome, exit_code, timed_out, oom_killed, stdout, stderr,
            file_changes_json, error, duration_ms, recorded_at, score, skills_json, snapshot_json, verifier_json,
            skills_seen_json)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17) ON CONFLICT DO NOTHING",
        params![
            trial_id,
            r.attempt,
            r.outcome.as_str(),
            r.exit_code,
            r.timed_out,
            r.oom_killed,
            r.stdout,
            r.stderr,
            r.file_changes.to_string(),
            r.error,
            r.duration_ms as i64,
            recorded_at,
            r.score,
            r.skills_listed.as_ref().map(serde_json::to_string).transpose()?,
            r.snapshot.as_ref().map(serde_json::to_string).transpose()?,
            r.verifier.as_ref().map(serde_json::to_string).transpose()?,
            r.skills_seen_sha256.as_ref().map(serde_json::to_string).transpose()?
        ],
    )?;
    Ok(())
}

pub fn record(conn: &mut Connection, id: i64, r: &AttemptResult, max_attempts: u32, backoff_ms: i64) -> Result<bool> {
    let tx = conn.transaction()?;
    insert_result(&tx, id, r, &now())?;
    let changed = apply_outcome(&tx, id, r.attempt, r.outcome, r.error.as_deref(), max_attempts, backoff_ms)?;
    tx.commit()?;
    Ok(changed)
}

fn apply_outcome(
    conn: &Connection,
    id: i64,
    attempt: u32,
    outcome: TrialState,
    error: Option<&str>,
    max_attempts: u32,
    backoff_ms: i64,
) -> Result<bool> {
    let at = now();
    let n = if outcome == TrialState::InfraError && attempt < max_attempts {
        let msg = format!("Infrastructure failure on attempt {attempt}, retrying: {}", error.unwrap_or("unknown"));
        conn.execute(
            "UPDATE trials SET state = 'queued', attempt = attempt + 1, not_before = ?1, container_id = NULL, message = ?2,
                 updated_at = ?3 WHERE id = ?4 AND attempt = ?5 AND state = 'running'",
            params![now_ms() + backoff_ms, msg, at, id, attempt],
        )?
    } else {
        let msg = error.map_or_else(|| outcome.as_str().replace('_', " "), String::from);
        conn.execute(
            "UPDATE trials SET state = ?1, message = ?2, updated_at = ?3 WHERE id = ?4 AND attempt = ?5 AND state = 'running'",
            params![outcome.as_str(), msg, at, id, attempt],
        )?
    };
    Ok(n == 1)
}

/// After a crash: a running trial whose result was written gets its final state; any other
/// running trial's attempt is recorded as an infrastructure failure, and the trial goes back to
/// the queue while it has attempts left. Returns the ids re-queued.
pub fn recover(conn: &mut Connection, max_attempts: u32) -> Result<Vec<i64>> {
    let tx = conn.transaction()?;
    let running: Vec<(i64, u32)> = {
        let mut st = tx.prepare("SELECT id, attempt FROM trials WHERE state = 'running'")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
        rows
    };
    let mut requeued = Vec::new();
    for (id, attempt) in running {
        let done: Option<(String, Option<String>)> = tx
            .query_row(
                "SELECT outcome, error FROM trial_results WHERE trial_id = ?1 AND attempt = ?2",
                params![id, attempt],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        match done {
            Some((outcome, error)) => {
                apply_outcome(&tx, id, attempt, TrialState::parse(&outcome), error.as_deref(), max_attempts, 0)?;
            }
            // The attempt was cut off: an infrastructure failure like any other, so it counts
            // toward the attempt limit (a trial that brings the worker down cannot loop for ever).
            None => {
                let why = "interrupted: the queue worker stopped (crash or restart) during this attempt";
                insert_result(
                    &tx,
                    id,
                    &AttemptResult::ended_early(attempt, TrialState::InfraError, why.into()),
                    &now(),
                )?;
                apply_outcome(&tx, id, attempt, TrialState::InfraError, Some(why), max_attempts, 0)?;
                if attempt < max_attempts {
                    requeued.push(id);
                }
            }
        }
    }
    tx.commit()?;
    Ok(requeued)
}

pub fn cancel_trial(ws: &Workspace, id: i64) -> Result<bool> {
    let n = ws.conn()?.execute(
        "UPDATE trials SET state = 'cancelled', message = 'Cancelled', updated_at = ?1 WHERE id = ?2 AND state IN ('queued', 'running')",
        params![now(), id],
    )?;
    Ok(n == 1)
}

pub fn cancel_run(ws: &Workspace, run_id: i64) -> Result<u32> {
    let n = ws.conn()?.execute(
        "UPDATE trials SET state = 'cancelled', message = 'Cancelled', updated_at = ?1 WHERE run_id = ?2 AND state IN ('queued', 'running')",
        params![now(), run_id],
    )?;
    Ok(n as u32)
}

/// Ids among `ids` that are no longer running (cancelled by a user, or recovered elsewhere).
pub fn not_running(conn: &Connection, ids: &[i64]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    for &id in ids {
        let state: Option<String> =
            conn.query_row("SELECT state FROM trials WHERE id = ?1", [id], |r| r.get(0)).optional()?;
        if state.as_deref() != Some("running") {
            out.push(id);
        }
    }
    Ok(out)
}

pub fn set_paused(ws: &Workspace, paused: bool) -> Result<()> {
    let conn = ws.conn()?;
    if paused {
        Ok(db::set_meta(&conn, PAUSED, &now())?)
    } else {
        conn.execute("DELETE FROM meta WHERE key = ?1", [PAUSED])?;
        Ok(())
    }
}

pub fn is_paused(conn: &Connection) -> Result<bool> {
    Ok(db::get_meta(conn, PAUSED)?.is_some())
}

pub fn set_engine_problem(conn: &Connection, problem: Option<&str>) -> Result<()> {
    match problem {
        Some(p) => Ok(db::set_meta(conn, ENGINE, p)?),
        None => {
            conn.execute("DELETE FROM meta WHERE key = ?1", [ENGINE])?;
            Ok(())
        }
    }
}

fn counts(conn: &Connection, run_id: Option<i64>) -> Result<StateCounts> {
    let mut st = conn.prepare("SELECT state, COUNT(*) FROM trials WHERE ?1 IS NULL OR run_id = ?1 GROUP BY state")?;
    let mut c = StateCounts::default();
    for row in st.query_map([run_id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, u32>(1)?)))? {
        let (s, n) = row?;
        c.add(TrialState::parse(&s), n);
    }
    Ok(c)
}

pub fn status(ws: &Workspace) -> Result<QueueStatus> {
    let conn = ws.conn()?;
    Ok(QueueStatus {
        paused: is_paused(&conn)?,
        engine_problem: db::get_meta(&conn, ENGINE)?,
        concurrency: ws.config().queue.concurrency(),
        counts: counts(&conn, None)?,
    })
}

pub fn runs(ws: &Workspace) -> Result<Vec<RunView>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare("SELECT id, name, created_at FROM runs ORDER BY id DESC")?;
    let rows: Vec<(i64, String, String)> =
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|(id, name, created_at)| Ok(RunView { id, name, created_at, counts: counts(&conn, Some(id))? }))
        .collect()
}

const TRIAL_SQL: &str = "SELECT id, run_id, label, state, attempt, priority, message, image_digest, env_started_at,
    env_finished_at, agent_started_at, agent_finished_at, verifier_started_at, verifier_finished_at, updated_at FROM trials";

fn trial_row(r: &Row) -> rusqlite::Result<TrialView> {
    Ok(TrialView {
        id: r.get(0)?,
        run_id: r.get(1)?,
        label: r.get(2)?,
        state: TrialState::parse(&r.get::<_, String>(3)?),
        attempt: r.get(4)?,
        priority: r.get(5)?,
        message: r.get(6)?,
        image_digest: r.get(7)?,
        phases: Phases {
            env_started_at: r.get(8)?,
            env_finished_at: r.get(9)?,
            agent_started_at: r.get(10)?,
            agent_finished_at: r.get(11)?,
            verifier_started_at: r.get(12)?,
            verifier_finished_at: r.get(13)?,
        },
        updated_at: r.get(14)?,
    })
}

pub fn trials(ws: &Workspace, run_id: i64) -> Result<Vec<TrialView>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(&format!("{TRIAL_SQL} WHERE run_id = ?1 ORDER BY id"))?;
    let rows = st.query_map([run_id], trial_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

pub fn trial(conn: &Connection, id: i64) -> Result<TrialView> {
    conn.query_row(&format!("{TRIAL_SQL} WHERE id = ?1"), [id], trial_row)
        .optional()?
        .ok_or_else(|| RunsError::NotFound(format!("no trial with id {id}")))
}

pub fn results(ws: &Workspace, trial_id: i64) -> Result<Vec<AttemptResult>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(
        "SELECT attempt, outcome, exit_code, timed_out, oom_killed, stdout, stderr, file_changes_json, error, duration_ms,
                score, skills_json, snapshot_json, verifier_json, skills_seen_json
         FROM trial_results WHERE trial_id = ?1 ORDER BY attempt",
    )?;
    let rows = st
        .query_map([trial_id], |r| {
            Ok(AttemptResult {
                attempt: r.get(0)?,
                outcome: TrialState::parse(&r.get::<_, String>(1)?),
                exit_code: r.get(2)?,
                timed_out: r.get(3)?,
                oom_killed: r.get(4)?,
                stdout: r.get(5)?,
                stderr: r.get(6)?,
                file_changes: serde_json::from_str(&r.get::<_, String>(7)?).unwrap_or_default(),
                error: r.get(8)?,
                duration_ms: r.get::<_, i64>(9)? as u64,
                score: r.get(10)?,
                skills_listed: r.get::<_, Option<String>>(11)?.and_then(|j| serde_json::from_str(&j).ok()),
                snapshot: r.get::<_, Option<String>>(12)?.and_then(|j| serde_json::from_str(&j).ok()),
                verifier: r.get::<_, Option<String>>(13)?.and_then(|j| serde_json::from_str(&j).ok()),
                skills_seen_sha256: r.get::<_, Option<String>>(14)?.and_then(|j| serde_json::from_str(&j).ok()),
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}
