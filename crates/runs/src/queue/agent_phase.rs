//! The agent phase of a trial: resolves the agent configuration, its provider and key (from the
//! keyring, held in memory only), lays the skills out for a read-only mount, runs the agent (the
//! built-in one, or a CLI harness inside the container behind a key-adding proxy), and stores its
//! redacted trajectory.

use super::arm_snapshot::{url_host, ArmSnapshot, SkillSnapshot};
use super::model::{AgentTask, SKILLS_DIR};
use crate::agents;
use crate::credentials;
use crate::error::{Result, RunsError};
use crate::harnesses::Harness;
use crate::trajectories;
use skillscope_agent::{claude_code, cli_harness, codex, gemini, opencode, AgentOutcome, SkillListing};
use skillscope_atif::Redactor;
use skillscope_library as library;
use skillscope_models::{Client, PriceTable, Secret};
use skillscope_sandbox::Container;
use skillscope_store::blobs::sha256_hex;
use skillscope_store::workspace::Workspace;
use skillscope_store::IoError;

/// What runs the agent, with what it needs on the host.
pub enum Runner {
    Builtin,
    /// A CLI harness: its binary (or the folder holding its script and runtime), and the folder
    /// (mounted into the container) where its model proxy's socket goes.
    Cli {
        harness: Harness,
        binary: std::path::PathBuf,
        socket_dir: tempfile::TempDir,
        /// The relay to that socket (the egress forwarder) for a harness with no Unix-socket
        /// setting, in a folder of its own.
        relay: Option<(tempfile::TempDir, std::path::PathBuf)>,
    },
}

pub struct Prepared {
    pub runner: Runner,
    pub client: std::sync::Arc<Client>,
    pub model: String,
    pub limits: skillscope_agent::AgentLimits,
    pub prices: PriceTable,
    pub redactor: Redactor,
    pub skills: Vec<SkillListing>,
    /// Host folder mounted read-only at /skills; None in the without-skill arm.
    pub mount: Option<tempfile::TempDir>,
    /// What runs, as far as the configuration tells; the worker adds the image, the task and
    /// the models the provider reports.
    pub snapshot: ArmSnapshot,
}

/// Resolves what the agent runs with; `wall_cap` (the task's own agent timeout) lowers the
/// configuration's wall-time limit.
pub fn prepare(ws: &Workspace, task: &AgentTask, workdir: &str, wall_cap: Option<u64>) -> Result<Prepared> {
    let mut cfg = agents::agent(ws, task.agent_config_id)?;
    if let Some(cap) = wall_cap {
        cfg.limits.wall_timeout_secs = cfg.limits.wall_timeout_secs.min(cap);
    }
    let provider = agents::provider(ws, &cfg.provider_id)?;
    let mut snapshot = ArmSnapshot {
        api: provider.api,
        provider_host: url_host(&provider.base_url),
        model: cfg.model.clone(),
        limits: cfg.limits.clone(),
        harness: cfg.harness,
        harness_version: cfg.harness.version().into(),
        system_prompt_sha256: match cfg.harness {
            Harness::Builtin => Some(sha256_hex(skillscope_agent::prompt::system_prompt(workdir, &[]).as_bytes())),
            Harness::ClaudeCode | Harness::Codex | Harness::OpenCode | Harness::Gemini => None,
        },
        image_digest: String::new(),
        user: String::new(),
        task_sha256: String::new(),
        skills: Vec::new(),
        reported_models: Vec::new(),
        egress: None,
        disk_limit: None,
    };
    let key = credentials::get(&provider.id)?;
    let redactor = Redactor::new(key.iter().cloned().collect());
    let what = provider.id.clone();
    let limit = crate::provider_limits::shared(&provider);
    let client = Client::new(provider, key.map(Secret::new))
        .map_err(|source| RunsError::Model { what, source })?
        .with_shared_limit(limit);
    let runner = match cfg.harness {
        Harness::Builtin => Runner::Builtin,
        harness => Runner::Cli {
            harness,
            binary: crate::harnesses::mounted(ws, harness)?,
            socket_dir: ws.staging_dir()?,
            relay: match harness {
                Harness::Codex | Harness::OpenCode | Harness::Gemini => {
                    let dir = ws.staging_dir()?;
                    let relay = skillscope_egress::write_forwarder(dir.path())
                        .map_err(|e| IoError::new(dir.path().display(), e))?;
                    Some((dir, relay))
                }
                _ => None,
            },
        },
    };
    let (skills, mount) = if task.skill_version_ids.is_empty() {
        (Vec::new(), None)
    } else {
        let dir = ws.staging_dir()?;
        let mut listed = Vec::new();
        for &vid in &task.skill_version_ids {
            let v = library::get_version(ws, vid)?;
            let name = v.frontmatter.name.clone().unwrap_or_else(|| format!("skill-{vid}"));
            snapshot.skills.push(SkillSnapshot { name: name.clone(), version_id: vid, tree_sha256: v.sha256.clone() });
            let root = dir.path().join(&name);
            for (f, bytes) in library::version_files(ws, vid)? {
                let p = root.join(&f.path);
                std::fs::create_dir_all(p.parent().expect("file under the skill"))
                    .map_err(|e| IoError::new(p.display(), e))?;
                std::fs::write(&p, bytes).map_err(|e| IoError::new(p.display(), e))?;
            }
            listed.push(SkillListing {
                description: v.frontmatter.description.clone().unwrap_or_default(),
                path: format!("{SKILLS_DIR}/{name}"),
                name,
            });
        }
        (listed, Some(dir))
    };
    Ok(Prepared {
        runner,
        client: std::sync::Arc::new(client),
        model: cfg.model,
        limits: cfg.limits,
        prices: crate::prices::load(ws)?.0,
        redactor,
        skills,
        mount,
        snapshot,
    })
}

impl Prepared {
    /// Host folders the container mounts read-only: the skills (with-skill arm) and what a harness
    /// needs (its binary, its proxy's socket folder, the relay).
    pub fn mounts(&self) -> Vec<(std::path::PathBuf, String)> {
        let mut mounts: Vec<_> = self.mount.iter().map(|d| (d.path().to_path_buf(), SKILLS_DIR.to_string())).collect();
        if let Runner::Cli { harness, binary, socket_dir, relay } = &self.runner {
            let at = match harness {
                Harness::Codex => codex::BINARY,
                Harness::OpenCode => opencode::BINARY,
                Harness::Gemini => gemini::MOUNT,
                _ => claude_code::BINARY,
            };
            mounts.push((binary.clone(), at.to_string()));
            mounts.push((socket_dir.path().to_path_buf(), cli_harness::SOCKET_DIR.to_string()));
            if let Some((_, relay)) = relay {
                mounts.push((relay.clone(), skillscope_egress::RELAY_PATH.to_string()));
            }
        }
        mounts
    }
}

pub async fn run(
    p: &Prepared,
    container: &Container,
    workdir: &str,
    instruction: &str,
    owner: Option<skillscope_sandbox::Owner>,
    session_id: String,
    log: &(dyn Fn(&str) + Send + Sync),
) -> std::result::Result<AgentOutcome, skillscope_agent::AgentError> {
    let input = skillscope_agent::run::RunInput {
        client: &p.client,
        model: &p.model,
        prices: &p.prices,
        container,
        workdir,
        instruction,
        owner,
        skills: &p.skills,
        limits: &p.limits,
        redactor: &p.redactor,
        session_id,
        log,
    };
    match &p.runner {
        Runner::Builtin => skillscope_agent::run(input).await,
        Runner::Cli { harness, socket_dir, .. } => {
            // Claude Code and Gemini CLI keep their own turn limit (`--max-turns`,
            // `model.maxSessionTurns`); the others have no such setting, so their proxy holds
            // them to it.
            let most_calls = (!matches!(harness, Harness::ClaudeCode | Harness::Gemini)).then_some(p.limits.max_turns);
            // Lives as long as the run: the harness's only way out of the container.
            let proxy = skillscope_models::proxy::serve_unix(
                p.client.clone(),
                &socket_dir.path().join(cli_harness::SOCKET_NAME),
                most_calls,
            )
            .await
            .map_err(|e| skillscope_agent::AgentError::Harness(format!("cannot open the model proxy: {e}")))?;
            match harness {
                Harness::Codex => codex::run(input, &proxy).await,
                Harness::OpenCode => opencode::run(input, &proxy).await,
                Harness::Gemini => gemini::run(input, &proxy).await,
                _ => claude_code::run(input, &proxy).await,
            }
        }
    }
}

/// Stores the trajectory of an attempt (once); returns its id.
pub fn store_trajectory(ws: &Workspace, trial: i64, attempt: u32, label: &str, outcome: &AgentOutcome) -> Result<i64> {
    let t: skillscope_atif::Trajectory = serde_json::from_value(outcome.trajectory.clone())?;
    let stop = serde_json::to_value(outcome.stop)?;
    trajectories::store(
        &mut ws.conn()?,
        trajectories::NewTrajectory {
            trial: Some((trial, attempt)),
            origin: "trial",
            label,
            trajectory: &t,
            stop_reason: stop.as_str(),
        },
    )
}
