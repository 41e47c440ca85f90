//! Experiment bundles: one finished experiment with everything its views need (design, run,
//! trials and their results, trajectories, pairs, the agent configurations and providers it used)
//! as versioned JSON. Skills travel by name and tree SHA-256 only, so the importing workspace must
//! already hold them. Keys never travel (they live in the keyring) and the whole document is
//! scrubbed of key shapes and local paths. Import remaps every id in one transaction. Files may be
//! gzip-compressed (`.gz`): trajectories make bundles large and repetitive.

use crate::design::{self, Condition, ExperimentDesign, Provenance, ProvenanceKind};
use crate::error::{ExperimentError, Result};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use skillscope_atif::Trajectory;
use skillscope_library as library;
use skillscope_models::ProviderConfig;
use skillscope_runs::agents::{self, AgentConfig};
use skillscope_runs::queue::model::{AttemptResult, Phases, TrialSpec, TrialState};
use skillscope_runs::queue::store;
use skillscope_runs::trajectories::{self, NewTrajectory};
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use skillscope_store::IoError;
use std::collections::HashMap;

/// The one format version this build writes and reads.
pub const BUNDLE_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bundle {
    pub bundle_version: u32,
    pub provenance: Provenance,
    pub experiment: ExperimentRow,
    pub run: RunRow,
    pub trials: Vec<TrialRow>,
    pub pairs: Vec<PairRow>,
    pub agent_configs: Vec<AgentConfig>,
    /// Provider configuration only: keys stay in the exporting machine's keyring.
    pub providers: Vec<ProviderConfig>,
    pub skills: Vec<SkillRef>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExperimentRow {
    pub id: i64,
    pub name: String,
    pub created_at: String,
    pub design: ExperimentDesign,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunRow {
    pub id: i64,
    pub name: String,
    pub created_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrialRow {
    pub id: i64,
    pub label: String,
    pub spec: TrialSpec,
    pub state: TrialState,
    pub attempt: u32,
    pub priority: i32,
    pub message: String,
    pub image_digest: Option<String>,
    pub phases: Phases,
    pub created_at: String,
    pub updated_at: String,
    pub results: Vec<AttemptResult>,
    pub trajectories: Vec<TrajectoryRow>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrajectoryRow {
    pub attempt: u32,
    pub origin: String,
    pub label: String,
    pub stop_reason: Option<String>,
    pub atif: Trajectory,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PairRow {
    pub skill_version_id: i64,
    pub task: String,
    pub agent_config_id: i64,
    pub condition: Condition,
    pub repeat: u32,
    pub trial_without: i64,
    pub trial_with: i64,
}

/// A skill version as the bundle names it; import finds it by its tree hash.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SkillRef {
    pub version_id: i64,
    pub name: String,
    pub sha256: String,
}

/// The provenance of a bundle exported from this workspace (not a demo).
fn export_provenance(name: &str) -> Provenance {
    let at = now();
    Provenance {
        kind: ProvenanceKind::Import,
        sentence: format!(
            "Imported: experiment \"{name}\" exported on {} by `skillscope experiment export` from another workspace.",
            &at[..10]
        ),
        produced_at: at,
        produced_by: format!("skillscope experiment export (Skillscope {})", env!("CARGO_PKG_VERSION")),
        imported_at: None,
    }
}

/// The experiment as a scrubbed JSON bundle. A given provenance (the demo's) wins; otherwise an
/// experiment that was itself imported keeps its origin, and any other is marked as an import.
pub fn export(ws: &Workspace, experiment_id: i64, provenance: Option<Provenance>) -> Result<String> {
    let view = design::list(ws)?
        .into_iter()
        .find(|e| e.id == experiment_id)
        .ok_or_else(|| ExperimentError::NotFound(format!("no experiment with id {experiment_id}")))?;
    let provenance = provenance
        .or_else(|| view.provenance.clone().map(|p| Provenance { imported_at: None, ..p }))
        .unwrap_or_else(|| export_provenance(&view.name));
    let conn = ws.conn()?;
    let run = conn.query_row("SELECT id, name, created_at FROM runs WHERE id = ?1", [view.run_id], |r| {
        Ok(RunRow { id: r.get(0)?, name: r.get(1)?, created_at: r.get(2)? })
    })?;
    let mut trials = Vec::new();
    for t in store::trials(ws, view.run_id)? {
        if !t.state.is_final() {
            return Err(ExperimentError::Conflict(format!(
                "experiment #{experiment_id} still has unfinished trials; export it when they are done"
            )));
        }
        let (spec, created_at): (String, String) =
            conn.query_row("SELECT spec_json, created_at FROM trials WHERE id = ?1", [t.id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
        let mut trajs = Vec::new();
        for s in trajectories::for_trial(ws, t.id)? {
            trajs.push(TrajectoryRow {
                attempt: s.attempt.unwrap_or(t.attempt),
                origin: s.origin,
                label: s.label,
                stop_reason: s.stop_reason,
                atif: trajectories::get(ws, s.id)?,
            });
        }
        trials.push(TrialRow {
            id: t.id,
            label: t.label,
            spec: serde_json::from_str(&spec)?,
            state: t.state,
            attempt: t.attempt,
            priority: t.priority,
            message: t.message,
            image_digest: t.image_digest,
            phases: t.phases,
            created_at,
            updated_at: t.updated_at,
            results: store::results(ws, t.id)?,
            trajectories: trajs,
        });
    }
    let mut st = conn.prepare(
        "SELECT skill_version_id, task, agent_config_id, condition, repeat, trial_without, trial_with
         FROM experiment_pairs WHERE experiment_id = ?1 ORDER BY id",
    )?;
    let pairs = st
        .query_map([experiment_id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?, r.get::<_, String>(3)?, r.get(4)?, r.get(5)?, r.get(6)?))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?
        .into_iter()
        .map(|(skill_version_id, task, agent_config_id, condition, repeat, trial_without, trial_with)| {
            Ok(PairRow {
                skill_version_id,
                task,
                agent_config_id,
                condition: serde_json::from_value(serde_json::Value::String(condition))?,
                repeat,
                trial_without,
                trial_with,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let d = &view.design;
    let mut version_ids: Vec<i64> = d.skill_version_ids.iter().chain(&d.decoy_version_ids).copied().collect();
    version_ids.sort();
    version_ids.dedup();
    let skills = version_ids
        .into_iter()
        .map(|id| {
            let v = library::get_version(ws, id)?;
            Ok(SkillRef { version_id: id, name: v.frontmatter.name.unwrap_or_default(), sha256: v.sha256 })
        })
        .collect::<Result<Vec<_>>>()?;
    let agent_configs: Vec<AgentConfig> =
        d.agent_config_ids.iter().map(|&id| agents::agent(ws, id)).collect::<Result<_, _>>()?;
    let mut providers: Vec<ProviderConfig> = Vec::new();
    for a in &agent_configs {
        if !providers.iter().any(|p| p.id == a.provider_id) {
            providers.push(agents::provider(ws, &a.provider_id)?);
        }
    }
    let bundle = Bundle {
        bundle_version: BUNDLE_VERSION,
        provenance,
        experiment: ExperimentRow { id: view.id, name: view.name, created_at: view.created_at, design: view.design },
        run,
        trials,
        pairs,
        agent_configs,
        providers,
        skills,
    };
    let mut value = serde_json::to_value(&bundle)?;
    skillscope_runs::redaction::Scrubber::new(ws)?.json(&mut value);
    Ok(serde_json::to_string_pretty(&value)?)
}

fn refuse(m: impl std::fmt::Display) -> ExperimentError {
    ExperimentError::Bundle(m.to_string())
}

/// Writes a bundle, gzip-compressed when the file name ends in `.gz`.
pub fn write_file(path: &std::path::Path, json: &str) -> Result<()> {
    use std::io::Write;
    let bytes = if path.extension().is_some_and(|e| e == "gz") {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(json.as_bytes()).and_then(|()| gz.finish()).map_err(|e| IoError::new(path.display(), e))?
    } else {
        json.as_bytes().to_vec()
    };
    Ok(std::fs::write(path, bytes).map_err(|e| IoError::new(path.display(), e))?)
}

/// Parses and checks a bundle (JSON, or gzip of it) without touching the workspace.
pub fn parse(bytes: &[u8]) -> Result<Bundle> {
    let mut unzipped = Vec::new();
    let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
        use std::io::Read;
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut unzipped)
            .map_err(|e| refuse(format!("broken gzip ({e})")))?;
        &unzipped[..]
    } else {
        bytes
    };
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| refuse(format!("malformed JSON ({e})")))?;
    match value.get("bundle_version").and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(BUNDLE_VERSION) => {}
        Some(v) => {
            return Err(refuse(format!(
                "bundle_version {v} is not supported; this build reads version {BUNDLE_VERSION}"
            )))
        }
        None => return Err(refuse("it has no bundle_version")),
    }
    let b: Bundle = serde_json::from_value(value).map_err(|e| refuse(format!("malformed bundle ({e})")))?;
    let trial_ids: std::collections::HashSet<i64> = b.trials.iter().map(|t| t.id).collect();
    if let Some(t) = b.trials.iter().find(|t| !t.state.is_final()) {
        return Err(refuse(format!(
            "trial {} is {}; only finished experiments can be imported",
            t.id,
            t.state.as_str()
        )));
    }
    for p in &b.pairs {
        if !trial_ids.contains(&p.trial_without) || !trial_ids.contains(&p.trial_with) {
            return Err(refuse(format!("pair {} r{} names a trial the bundle lacks", p.task, p.repeat)));
        }
    }
    Ok(b)
}

/// Imports a bundle; returns the new experiment's id. Nothing is written unless all of it is.
pub fn import(ws: &Workspace, bytes: &[u8]) -> Result<i64> {
    let b = parse(bytes)?;
    let skills = resolve_skills(ws, &b.skills)?;
    let mut conn = ws.conn()?;
    // A plain BEGIN (not rusqlite's Transaction) so `trajectories::store` can be called on the
    // same connection inside it.
    conn.execute_batch("BEGIN IMMEDIATE")?;
    match write(&mut conn, &b, &skills) {
        Ok(id) => {
            conn.execute_batch("COMMIT")?;
            Ok(id)
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// Bundle skill version id → this workspace's version with the same tree hash.
fn resolve_skills(ws: &Workspace, refs: &[SkillRef]) -> Result<HashMap<i64, i64>> {
    let conn = ws.conn()?;
    let mut out = HashMap::new();
    for s in refs {
        let found: Option<i64> = conn
            .query_row("SELECT MIN(id) FROM skill_versions WHERE sha256 = ?1", [&s.sha256], |r| r.get(0))
            .optional()?
            .flatten();
        let id = found.ok_or_else(|| {
            ExperimentError::NotFound(format!(
                "the bundle's experiment uses skill {} (tree sha256 {}), which this workspace does not hold; import that skill version first",
                s.name, s.sha256
            ))
        })?;
        out.insert(s.version_id, id);
    }
    Ok(out)
}

/// The first of `base`, `base (imported)`, `base (imported 2)`… that `taken` refuses.
fn free_name(base: &str, taken: impl Fn(&str) -> Result<bool>) -> Result<String> {
    let mut name = base.to_string();
    let mut n = 1;
    while taken(&name)? {
        name = if n == 1 { format!("{base} (imported)") } else { format!("{base} (imported {n})") };
        n += 1;
    }
    Ok(name)
}

fn write(conn: &mut Connection, b: &Bundle, skills: &HashMap<i64, i64>) -> Result<i64> {
    let at = now();
    let skill = |id: i64| {
        skills
            .get(&id)
            .copied()
            .ok_or_else(|| refuse(format!("skill version {id} is not listed in the bundle's skills")))
    };

    // Providers and configurations: the same one is reused, a different one of the same name is
    // added under a free name.
    let mut provider_ids = HashMap::new();
    for p in &b.providers {
        let existing: Option<String> =
            conn.query_row("SELECT config_json FROM providers WHERE id = ?1", [&p.id], |r| r.get(0)).optional()?;
        let id = match existing {
            Some(json) if serde_json::from_str::<ProviderConfig>(&json).ok().as_ref() == Some(p) => p.id.clone(),
            _ => {
                let id = free_name(&p.id, |n| {
                    Ok(conn.query_row("SELECT COUNT(*) FROM providers WHERE id = ?1", [n], |r| r.get::<_, i64>(0))? > 0)
                })?;
                let cfg = ProviderConfig { id: id.clone(), ..p.clone() };
                conn.execute(
                    "INSERT INTO providers(id, config_json, updated_at) VALUES (?1, ?2, ?3)",
                    params![id, serde_json::to_string(&cfg)?, at],
                )?;
                id
            }
        };
        provider_ids.insert(p.id.clone(), id);
    }
    let mut config_ids = HashMap::new();
    for a in &b.agent_configs {
        let provider = provider_ids
            .get(&a.provider_id)
            .ok_or_else(|| refuse(format!("agent configuration {:?} names a provider the bundle lacks", a.name)))?;
        let limits = serde_json::to_string(&a.limits)?;
        let same: Option<i64> = conn
            .query_row(
                "SELECT id FROM agent_configs WHERE name = ?1 AND harness = ?2 AND provider_id = ?3 AND model = ?4 AND limits_json = ?5",
                params![a.name, a.harness.as_str(), provider, a.model, limits],
                |r| r.get(0),
            )
            .optional()?;
        let id = match same {
            Some(id) => id,
            None => {
                let name = free_name(&a.name, |n| {
                    Ok(conn
                        .query_row("SELECT COUNT(*) FROM agent_configs WHERE name = ?1", [n], |r| r.get::<_, i64>(0))?
                        > 0)
                })?;
                conn.execute(
                    "INSERT INTO agent_configs(name, harness, provider_id, model, limits_json, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![name, a.harness.as_str(), provider, a.model, limits, at],
                )?;
                conn.last_insert_rowid()
            }
        };
        config_ids.insert(a.id, id);
    }
    let config = |id: i64| {
        config_ids
            .get(&id)
            .copied()
            .ok_or_else(|| refuse(format!("agent configuration {id} is not listed in the bundle")))
    };

    conn.execute("INSERT INTO runs(name, created_at) VALUES (?1, ?2)", params![b.run.name, b.run.created_at])?;
    let run_id = conn.last_insert_rowid();
    let mut trial_ids = HashMap::new();
    for t in &b.trials {
        let mut spec = t.spec.clone();
        if let Some(agent) = spec.agent.as_mut() {
            agent.agent_config_id = config(agent.agent_config_id)?;
            agent.skill_version_ids = agent.skill_version_ids.iter().map(|&v| skill(v)).collect::<Result<_>>()?;
        }
        let p = &t.phases;
        conn.execute(
            "INSERT INTO trials(run_id, label, spec_json, state, attempt, priority, image_digest, message, env_started_at,
                env_finished_at, agent_started_at, agent_finished_at, verifier_started_at, verifier_finished_at, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            params![
                run_id,
                t.label,
                serde_json::to_string(&spec)?,
                t.state.as_str(),
                t.attempt,
                t.priority,
                t.image_digest,
                t.message,
                p.env_started_at,
                p.env_finished_at,
                p.agent_started_at,
                p.agent_finished_at,
                p.verifier_started_at,
                p.verifier_finished_at,
                t.created_at,
                t.updated_at
            ],
        )?;
        let id = conn.last_insert_rowid();
        trial_ids.insert(t.id, id);
        for r in &t.results {
            // The exporting workspace's record time is not carried; the trial's last update stands in.
            store::insert_result(conn, id, r, &t.updated_at)?;
        }
        for tr in &t.trajectories {
            trajectories::store(
                conn,
                NewTrajectory {
                    trial: Some((id, tr.attempt)),
                    origin: &tr.origin,
                    label: &tr.label,
                    trajectory: &tr.atif,
                    stop_reason: tr.stop_reason.as_deref(),
                },
            )?;
        }
    }

    let d = &b.experiment.design;
    let design = ExperimentDesign {
        skill_version_ids: d.skill_version_ids.iter().map(|&v| skill(v)).collect::<Result<_>>()?,
        decoy_version_ids: d.decoy_version_ids.iter().map(|&v| skill(v)).collect::<Result<_>>()?,
        agent_config_ids: d.agent_config_ids.iter().map(|&c| config(c)).collect::<Result<_>>()?,
        ..d.clone()
    };
    let provenance = Provenance { imported_at: Some(at.clone()), ..b.provenance.clone() };
    conn.execute(
        "INSERT INTO experiments(name, run_id, design_json, created_at, provenance_json) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            b.experiment.name,
            run_id,
            serde_json::to_string(&design)?,
            b.experiment.created_at,
            serde_json::to_string(&provenance)?
        ],
    )?;
    let experiment_id = conn.last_insert_rowid();
    let trial = |id: i64| trial_ids.get(&id).copied().ok_or_else(|| refuse(format!("trial {id} is not in the bundle")));
    for p in &b.pairs {
        conn.execute(
            "INSERT INTO experiment_pairs(experiment_id, skill_version_id, task, agent_config_id, condition, repeat, trial_without, trial_with)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                experiment_id,
                skill(p.skill_version_id)?,
                p.task,
                config(p.agent_config_id)?,
                serde_json::to_value(p.condition)?.as_str(),
                p.repeat,
                trial(p.trial_without)?,
                trial(p.trial_with)?
            ],
        )?;
    }
    Ok(experiment_id)
}
