//! SQLite connection set-up and the schema's migrations (versioned by `PRAGMA user_version`).

use crate::error::{Result, StoreError};
use rusqlite::Connection;
use rusqlite_migration::{Migrations, M};
use std::path::Path;

/// Append-only: never edit a released migration, add a new one.
const MIGRATIONS: &[&str] = &[
    // 1: skill library and jobs.
    r#"
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE skills (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        -- kind|location|subpath: two skills of one name from different sources stay apart.
        source_key TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
    );
    CREATE INDEX skills_name ON skills(name);
    CREATE TABLE skill_versions (
        id INTEGER PRIMARY KEY,
        skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        dir_name TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        license TEXT,
        frontmatter_json TEXT NOT NULL,
        source_json TEXT NOT NULL,
        body TEXT NOT NULL,
        imported_at TEXT NOT NULL,
        UNIQUE (skill_id, version)
    );
    CREATE TABLE version_files (
        version_id INTEGER NOT NULL REFERENCES skill_versions(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        blob TEXT NOT NULL,
        size INTEGER NOT NULL,
        binary INTEGER NOT NULL,
        PRIMARY KEY (version_id, path)
    );
    CREATE TABLE findings (
        id INTEGER PRIMARY KEY,
        version_id INTEGER NOT NULL REFERENCES skill_versions(id) ON DELETE CASCADE,
        code TEXT NOT NULL,
        severity TEXT NOT NULL,
        message TEXT NOT NULL,
        file TEXT,
        line INTEGER
    );
    CREATE INDEX findings_version ON findings(version_id);
    CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        state TEXT NOT NULL,
        done INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL DEFAULT 0,
        message TEXT NOT NULL DEFAULT '',
        request_json TEXT NOT NULL,
        error_json TEXT,
        outcome_json TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    "#,
    // 2: static review results, one per skill version.
    r#"
    CREATE TABLE scans (
        version_id INTEGER PRIMARY KEY REFERENCES skill_versions(id) ON DELETE CASCADE,
        quality REAL NOT NULL,
        grade TEXT NOT NULL,
        security INTEGER NOT NULL,
        report_json TEXT NOT NULL,
        scanner TEXT NOT NULL,
        scanned_at TEXT NOT NULL
    );
    "#,
    // 3: the persistent run queue.
    r#"
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE trials (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        spec_json TEXT NOT NULL,
        state TEXT NOT NULL,
        attempt INTEGER NOT NULL DEFAULT 1,
        priority INTEGER NOT NULL DEFAULT 0,
        -- Backoff after an infrastructure failure: not claimed before this time (unix ms).
        not_before INTEGER,
        container_id TEXT,
        image_digest TEXT,
        message TEXT NOT NULL DEFAULT '',
        env_started_at TEXT, env_finished_at TEXT,
        agent_started_at TEXT, agent_finished_at TEXT,
        verifier_started_at TEXT, verifier_finished_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX trials_claim ON trials(state, priority DESC, id);
    CREATE INDEX trials_run ON trials(run_id);
    -- One row per attempt, written once: a restart can neither lose nor duplicate a result.
    CREATE TABLE trial_results (
        trial_id INTEGER NOT NULL REFERENCES trials(id) ON DELETE CASCADE,
        attempt INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        exit_code INTEGER,
        timed_out INTEGER NOT NULL DEFAULT 0,
        oom_killed INTEGER NOT NULL DEFAULT 0,
        stdout TEXT NOT NULL DEFAULT '',
        stderr TEXT NOT NULL DEFAULT '',
        file_changes_json TEXT NOT NULL DEFAULT '[]',
        error TEXT,
        duration_ms INTEGER NOT NULL DEFAULT 0,
        recorded_at TEXT NOT NULL,
        PRIMARY KEY (trial_id, attempt)
    );
    "#,
    // 4: model providers and agent configurations (secrets live in the OS keyring, never here),
    // and agent trajectories with a step index for search.
    r#"
    CREATE TABLE providers (
        id TEXT PRIMARY KEY,
        config_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE agent_configs (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        harness TEXT NOT NULL,
        provider_id TEXT NOT NULL REFERENCES providers(id),
        model TEXT NOT NULL,
        limits_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    -- ATIF trajectories: from trials (trial_id, attempt) or imported from elsewhere.
    CREATE TABLE trajectories (
        id INTEGER PRIMARY KEY,
        trial_id INTEGER REFERENCES trials(id) ON DELETE CASCADE,
        attempt INTEGER,
        origin TEXT NOT NULL,
        label TEXT NOT NULL,
        -- gzip of the ATIF JSON (already redacted).
        atif_gz BLOB NOT NULL,
        stop_reason TEXT,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        cached_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL,
        created_at TEXT NOT NULL,
        UNIQUE (trial_id, attempt)
    );
    CREATE TABLE trajectory_steps (
        trajectory_id INTEGER NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
        step_id INTEGER NOT NULL,
        source TEXT NOT NULL,
        text TEXT NOT NULL,
        tool_names TEXT NOT NULL,
        PRIMARY KEY (trajectory_id, step_id)
    );
    "#,
    // 5: scores and the skills seen by each attempt; paired experiments.
    r#"
    ALTER TABLE trial_results ADD COLUMN score REAL;
    ALTER TABLE trial_results ADD COLUMN skills_json TEXT;
    CREATE TABLE experiments (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        run_id INTEGER NOT NULL REFERENCES runs(id),
        design_json TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE experiment_pairs (
        id INTEGER PRIMARY KEY,
        experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        skill_version_id INTEGER NOT NULL REFERENCES skill_versions(id),
        task TEXT NOT NULL,
        agent_config_id INTEGER NOT NULL,
        condition TEXT NOT NULL,
        repeat INTEGER NOT NULL,
        trial_without INTEGER NOT NULL REFERENCES trials(id),
        trial_with INTEGER NOT NULL REFERENCES trials(id)
    );
    CREATE INDEX experiment_pairs_exp ON experiment_pairs(experiment_id);
    "#,
    // 6: the reviewer's decisions, append-only (enforced by triggers, not just by the code).
    r#"
    CREATE TABLE decisions (
        id INTEGER PRIMARY KEY,
        skill_id INTEGER NOT NULL REFERENCES skills(id),
        version_id INTEGER NOT NULL REFERENCES skill_versions(id),
        sha256 TEXT NOT NULL,
        verdict TEXT NOT NULL CHECK (verdict IN ('approve', 'reject', 'needs_work')),
        rationale TEXT NOT NULL CHECK (length(trim(rationale)) > 0),
        reviewer TEXT NOT NULL CHECK (length(trim(reviewer)) > 0),
        evidence_json TEXT NOT NULL,
        decided_at TEXT NOT NULL
    );
    CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions
        BEGIN SELECT RAISE(ABORT, 'decisions are append-only'); END;
    CREATE TRIGGER decisions_no_delete BEFORE DELETE ON decisions
        BEGIN SELECT RAISE(ABORT, 'decisions are append-only'); END;
    "#,
    // 7: trajectories are read a window of steps at a time (each step stored on its own, with what
    // filtering, timing and pair alignment need); imported experiments say where they came from.
    r#"
    DROP TABLE trajectory_steps;
    CREATE TABLE trajectory_steps (
        trajectory_id INTEGER NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        step_id INTEGER NOT NULL,
        source TEXT NOT NULL,
        -- What a reader can see (message, reasoning, tool calls, outputs), lower-cased, for filtering.
        text TEXT NOT NULL,
        -- The step's timestamp (unix ms) when it has a readable one.
        at_ms INTEGER,
        -- Hash of the calls made and the outputs seen: where two runs of a pair diverge.
        signature TEXT NOT NULL,
        reads_skill INTEGER NOT NULL,
        step_gz BLOB NOT NULL,
        PRIMARY KEY (trajectory_id, position)
    );
    -- NULL for trajectories stored before migration 7: their steps are indexed when the workspace opens.
    ALTER TABLE trajectories ADD COLUMN step_count INTEGER;
    ALTER TABLE experiments ADD COLUMN provenance_json TEXT;
    "#,
    // 8: what ran in each attempt (effective configuration, image, task and skill hashes, the
    // models the provider reported) and the verifier's own output and checks, recorded with its
    // result; NULL for older attempts.
    r#"
    ALTER TABLE trial_results ADD COLUMN snapshot_json TEXT;
    ALTER TABLE trial_results ADD COLUMN verifier_json TEXT;
    ALTER TABLE trial_results ADD COLUMN skills_seen_json TEXT;
    -- A decision's evidence, hashed when it is recorded (NULL for older decisions).
    ALTER TABLE decisions ADD COLUMN evidence_sha256 TEXT;
    -- Skill folders found outside the workdir of a container of this image after this set-up
    -- (the costly part of the clean-arms search, done once per image and set-up).
    CREATE TABLE image_skill_searches (
        image_digest TEXT NOT NULL,
        setup_sha256 TEXT NOT NULL,
        found_json TEXT NOT NULL,
        searched_at TEXT NOT NULL,
        PRIMARY KEY (image_digest, setup_sha256)
    );
    "#,
    // 9: an experiment's statistics as last computed, with the fingerprint of what they were
    // computed from (its trials' states and results, its design, the configurations' names), and
    // its rows by the fingerprint of their pairs (so a change recomputes only the rows it touches).
    r#"
    CREATE TABLE experiment_results_cache (
        experiment_id INTEGER PRIMARY KEY REFERENCES experiments(id) ON DELETE CASCADE,
        fingerprint TEXT NOT NULL,
        results_json TEXT NOT NULL,
        rows_json TEXT NOT NULL
    );
    "#,
    // 10: security probes. A probe run is one skill version with one agent configuration, its
    // canaries and its queue run; each probe is a task run with the skill and once without (the
    // control). What left a trial's container and what changed in it are kept per attempt.
    r#"
    CREATE TABLE probe_runs (
        id INTEGER PRIMARY KEY,
        version_id INTEGER NOT NULL REFERENCES skill_versions(id) ON DELETE CASCADE,
        agent_config_id INTEGER NOT NULL,
        queue_run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        canaries_json TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE probes (
        id INTEGER PRIMARY KEY,
        probe_run_id INTEGER NOT NULL REFERENCES probe_runs(id) ON DELETE CASCADE,
        task_json TEXT NOT NULL,
        trial_id INTEGER NOT NULL REFERENCES trials(id) ON DELETE CASCADE,
        control_trial_id INTEGER NOT NULL REFERENCES trials(id) ON DELETE CASCADE
    );
    CREATE TABLE trial_observations (
        trial_id INTEGER NOT NULL REFERENCES trials(id) ON DELETE CASCADE,
        attempt INTEGER NOT NULL,
        egress_json TEXT NOT NULL,
        changes_json TEXT NOT NULL,
        PRIMARY KEY (trial_id, attempt)
    );
    "#,
    // 11: task sets, stored whole and versioned by content hash.
    r#"
    CREATE TABLE task_sets (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        version INTEGER NOT NULL,
        sha256 TEXT NOT NULL UNIQUE,
        source_kind TEXT NOT NULL,
        source_path TEXT NOT NULL,
        tasks_json TEXT NOT NULL,
        errors_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (name, version)
    );
    "#,
    // 12: a judge's verdicts on a trial attempt (or why there is no score).
    r#"
    CREATE TABLE judgements (
        trial_id INTEGER NOT NULL REFERENCES trials(id),
        attempt INTEGER NOT NULL,
        judgement_json TEXT NOT NULL,
        score REAL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (trial_id, attempt)
    );
    "#,
    // 13: a judge's preference between a pair's arms, as compared (or why there is none).
    r#"
    CREATE TABLE preferences (
        without_trial_id INTEGER NOT NULL REFERENCES trials(id),
        without_attempt INTEGER NOT NULL,
        with_trial_id INTEGER NOT NULL REFERENCES trials(id),
        with_attempt INTEGER NOT NULL,
        preference_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (without_trial_id, without_attempt, with_trial_id, with_attempt)
    );
    "#,
    // 14: the latest calibration of an experiment's judge.
    r#"
    CREATE TABLE judge_calibrations (
        experiment_id INTEGER PRIMARY KEY REFERENCES experiments(id),
        calibration_json TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    "#,
    // 15: a judge's ACES rubric (goal, accuracy criteria) on an arm attempt, or why there is none.
    r#"
    CREATE TABLE rubric_judgements (
        trial_id INTEGER NOT NULL REFERENCES trials(id),
        attempt INTEGER NOT NULL,
        judgement_json TEXT NOT NULL,
        score REAL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (trial_id, attempt)
    );
    "#,
    // 16: a reviewer's verdict on a generated draft task (only approved drafts run).
    r#"
    CREATE TABLE draft_reviews (
        task_set_id INTEGER NOT NULL REFERENCES task_sets(id),
        task_id TEXT NOT NULL,
        verdict TEXT NOT NULL,
        reviewer TEXT NOT NULL,
        decided_at TEXT NOT NULL,
        PRIMARY KEY (task_set_id, task_id)
    );
    "#,
    // 17: a generated task set's skill version (its leakage is measured against that SKILL.md),
    // and the queue run that checks its verifiers (untouched, reference, twice).
    r#"
    CREATE TABLE generated_sets (
        task_set_id INTEGER PRIMARY KEY REFERENCES task_sets(id),
        version_id INTEGER NOT NULL REFERENCES skill_versions(id),
        sanity_run_id INTEGER REFERENCES runs(id)
    );
    "#,
    // 18: the clean-arms search cache is keyed by everything that decides what the wipe leaves
    // (set-up, workdir, environment, users, mounts, the search itself), not the set-up alone. The
    // old rows are dropped: a search that timed out was kept as "no skills" for good.
    r#"
    DROP TABLE image_skill_searches;
    CREATE TABLE image_skill_searches (
        image_digest TEXT NOT NULL,
        search_key TEXT NOT NULL,
        found_json TEXT NOT NULL,
        searched_at TEXT NOT NULL,
        PRIMARY KEY (image_digest, search_key)
    );
    "#,
];

fn migrations() -> Migrations<'static> {
    Migrations::new(MIGRATIONS.iter().map(|sql| M::up(sql)).collect())
}

/// Number of the newest migration this build knows.
pub fn latest_schema_version() -> u32 {
    MIGRATIONS.len() as u32
}

/// Opens a connection with the pragmas every caller relies on.
pub fn connect(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    Ok(conn)
}

/// Brings the schema to the latest version; refuses a database written by a newer build.
pub fn migrate(conn: &mut Connection) -> Result<()> {
    let current: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if current > latest_schema_version() {
        return Err(StoreError::NewerSchema { found: current, supported: latest_schema_version() });
    }
    migrations().to_latest(conn)?;
    Ok(())
}

pub fn schema_version(conn: &Connection) -> Result<u32> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

pub fn get_meta(conn: &Connection, key: &str) -> Result<Option<String>> {
    use rusqlite::OptionalExtension;
    Ok(conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0)).optional()?)
}

pub fn set_meta(conn: &Connection, key: &str, value: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [key, value],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid_and_set_version() {
        migrations().validate().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut c = connect(&dir.path().join("t.db")).unwrap();
        migrate(&mut c).unwrap();
        assert_eq!(schema_version(&c).unwrap(), latest_schema_version());
        let fk: i64 = c.pragma_query_value(None, "foreign_keys", |r| r.get(0)).unwrap();
        assert_eq!(fk, 1);
        let mode: String = c.pragma_query_value(None, "journal_mode", |r| r.get(0)).unwrap();
        assert_eq!(mode, "wal");
    }

    #[test]
    fn refuses_newer_schema() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = connect(&dir.path().join("t.db")).unwrap();
        c.pragma_update(None, "user_version", 999).unwrap();
        let e = migrate(&mut c).unwrap_err();
        assert!(e.to_string().contains("newer"), "{e}");
    }
}
