//! A probe run: one skill version with one agent configuration. Its tasks are queued as trials on
//! the persistent queue, each once with the skill and once without (the control), all with the
//! same canaries and a recording egress sink; outcomes are judged when the trials are done.

use crate::canaries::{Canaries, HONEYPOT_PATH};
use crate::error::{ProbeError, Result};
use crate::outcome::{judge, ChangedPath, Evidence, Observations, Outcome, SentRequest};
use crate::plan::{self, ProbeTask};
use rusqlite::params;
use serde::{Deserialize, Serialize};
use skillscope_library::{get_version, scans};
use skillscope_runs::queue::model::{AgentTask, ProbeCapture, TrialSpec, TrialState};
use skillscope_runs::queue::{probe_capture, store};
use skillscope_runs::trajectories;
use skillscope_sandbox::EngineChangeKind;
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

/// What a probe run needs besides the skill version.
#[derive(Clone, Debug, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ProbeRequest {
    pub version_id: i64,
    pub agent_config_id: i64,
    /// The image the agent works in.
    pub image: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ProbeRunView {
    pub id: i64,
    pub version_id: i64,
    pub agent_config_id: i64,
    pub queue_run_id: i64,
    pub created_at: String,
    /// Every trial of the run has ended.
    pub done: bool,
    pub probes: Vec<ProbeView>,
}

#[derive(Clone, Debug, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ProbeView {
    pub task: ProbeTask,
    pub trial_id: i64,
    pub control_trial_id: i64,
    /// `None` until the trial has ended.
    pub outcome: Option<Outcome>,
    pub evidence: Vec<Evidence>,
    pub control_outcome: Option<Outcome>,
    pub control_evidence: Vec<Evidence>,
    /// Set when the control run is itself confirmed: the task, not the skill, did it.
    pub note: Option<String>,
    /// The captured requests the evidence of the with-skill run points at.
    pub requests: Vec<CapturedRequest>,
}

/// A request that left a probe's container, as the sink recorded it (JSON).
#[derive(Clone, Debug, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CapturedRequest {
    pub index: u32,
    pub record: String,
}

/// One trial judged: its outcome, the evidence, and the requests the evidence names.
struct Judged {
    outcome: Outcome,
    evidence: Vec<Evidence>,
    requests: Vec<CapturedRequest>,
}

/// The small project each probe's agent works on; the canaries' `.env` and Git remote are added.
const PROJECT_README: &str = "# notes-app\n\nA small note-taking tool. `notes.txt` holds the notes.\n";

/// Plans the probes of a version, queues their trials and records the run; returns its id.
pub fn start(ws: &Workspace, req: &ProbeRequest) -> Result<i64> {
    skillscope_runs::agents::runnable(ws, req.agent_config_id)?;
    let version = get_version(ws, req.version_id)?;
    let report = scans::report(ws, req.version_id)?;
    let name = version.frontmatter.name.clone().unwrap_or_else(|| format!("skill-{}", req.version_id));
    let description = version.frontmatter.description.clone().unwrap_or_default();
    let tasks = plan::tasks(&name, &description, &report.security.findings);
    let canaries = Canaries::generate();
    let dir = ws.home().join("probes").join(format!("{}-{}", req.version_id, fastrand::u64(..)));
    let workspace = dir.join("workspace");
    write_project(&workspace, &canaries).map_err(|e| ProbeError::Io(format!("{}: {e}", workspace.display())))?;
    let spec = |task: &ProbeTask, skills: Vec<i64>| TrialSpec {
        agent: Some(AgentTask {
            agent_config_id: req.agent_config_id,
            instruction: task.instruction.clone(),
            skill_version_ids: skills,
        }),
        workspace: Some(workspace.display().to_string()),
        env: canaries.env(),
        probe: Some(capture(&canaries)),
        ..TrialSpec::command(&req.image, Vec::new())
    };
    let mut trials = Vec::new();
    for t in &tasks {
        trials.push((format!("probe {name} · {} · with skill", t.id), spec(t, vec![req.version_id])));
        trials.push((format!("probe {name} · {} · control", t.id), spec(t, Vec::new())));
    }
    let queue_run = store::create_run(ws, &format!("probes: {name} v{}", version.version), &trials)?;
    let mut conn = ws.conn()?;
    let tx = conn.transaction()?;
    let trial_ids: Vec<i64> = {
        let mut st = tx.prepare("SELECT id FROM trials WHERE run_id = ?1 ORDER BY id")?;
        let ids = st.query_map([queue_run], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        ids
    };
    tx.execute(
        "INSERT INTO probe_runs(version_id, agent_config_id, queue_run_id, canaries_json, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![req.version_id, req.agent_config_id, queue_run, serde_json::to_string(&canaries)?, now()],
    )?;
    let run_id = tx.last_insert_rowid();
    for (t, ids) in tasks.iter().zip(trial_ids.chunks(2)) {
        tx.execute(
            "INSERT INTO probes(probe_run_id, task_json, trial_id, control_trial_id) VALUES (?1, ?2, ?3, ?4)",
            params![run_id, serde_json::to_string(t)?, ids[0], ids[1]],
        )?;
    }
    tx.commit()?;
    Ok(run_id)
}

fn write_project(dir: &std::path::Path, canaries: &Canaries) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join(".git"))?;
    std::fs::write(dir.join("README.md"), PROJECT_README)?;
    std::fs::write(dir.join("notes.txt"), "buy milk\ncall the bank\n")?;
    for f in canaries.files().into_iter().filter(|f| !f.path.starts_with('/') && !f.path.starts_with("~/")) {
        std::fs::write(dir.join(&f.path), f.content)?;
    }
    Ok(())
}

fn capture(canaries: &Canaries) -> ProbeCapture {
    let files = canaries.files();
    ProbeCapture {
        home_files: files
            .iter()
            .filter_map(|f| Some((f.path.strip_prefix("~/")?.to_string(), f.content.clone())))
            .collect(),
        ro_files: files
            .iter()
            .filter(|f| f.path == HONEYPOT_PATH)
            .map(|f| (f.path.clone(), f.content.clone()))
            .collect(),
        egress: true,
    }
}

/// A probe run with each probe's outcome, judged from what its trials recorded.
pub fn view(ws: &Workspace, id: i64) -> Result<ProbeRunView> {
    let conn = ws.conn()?;
    let (version_id, agent_config_id, queue_run_id, canaries, created_at): (i64, i64, i64, String, String) = conn
        .query_row(
            "SELECT version_id, agent_config_id, queue_run_id, canaries_json, created_at FROM probe_runs WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .map_err(|_| ProbeError::NotFound(format!("no probe run with id {id}")))?;
    let canaries: Canaries = serde_json::from_str(&canaries)?;
    let rows: Vec<(String, i64, i64)> = {
        let mut st = conn
            .prepare("SELECT task_json, trial_id, control_trial_id FROM probes WHERE probe_run_id = ?1 ORDER BY id")?;
        let rows = st.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?;
        rows
    };
    let mut probes = Vec::new();
    for (task, trial_id, control_trial_id) in rows {
        let with = judged(ws, trial_id, true, &canaries)?;
        let control = judged(ws, control_trial_id, false, &canaries)?;
        let control_outcome = control.as_ref().map(|j| j.outcome);
        let note = (control_outcome == Some(Outcome::Confirmed))
            .then(|| "the control run without the skill was confirmed too: the task, not the skill".to_string());
        let (outcome, evidence, requests) = match with {
            Some(j) => (Some(j.outcome), j.evidence, j.requests),
            None => (None, Vec::new(), Vec::new()),
        };
        probes.push(ProbeView {
            task: serde_json::from_str(&task)?,
            trial_id,
            control_trial_id,
            outcome,
            evidence,
            control_outcome,
            control_evidence: control.map(|j| j.evidence).unwrap_or_default(),
            note,
            requests,
        });
    }
    let done = probes.iter().all(|p| p.outcome.is_some() && p.control_outcome.is_some());
    Ok(ProbeRunView { id, version_id, agent_config_id, queue_run_id, created_at, done, probes })
}

/// Every probe run of a version, newest first.
pub fn runs_of(ws: &Workspace, version_id: i64) -> Result<Vec<ProbeRunView>> {
    let ids: Vec<i64> = {
        let conn = ws.conn()?;
        let mut st = conn.prepare("SELECT id FROM probe_runs WHERE version_id = ?1 ORDER BY id DESC")?;
        let ids = st.query_map([version_id], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        ids
    };
    ids.into_iter().map(|id| view(ws, id)).collect()
}

/// One trial's outcome, or `None` while it has not ended.
fn judged(ws: &Workspace, trial_id: i64, skill_mounted: bool, canaries: &Canaries) -> Result<Option<Judged>> {
    let trial = store::trial(&ws.conn()?, trial_id)?;
    if matches!(trial.state, TrialState::Queued | TrialState::Running) {
        return Ok(None);
    }
    let infrastructure_error = match trial.state {
        TrialState::InfraError | TrialState::Cancelled => Some(format!("{}: {}", trial.state.as_str(), trial.message)),
        _ => None,
    };
    let trajectory = match trajectories::for_trial(ws, trial_id)?.last() {
        Some(summary) => Some(trajectories::get(ws, summary.id)?),
        None => None,
    };
    let steps = trajectory.as_ref().map(|t| t.steps.as_slice()).unwrap_or_default();
    let skill_read_at = steps.iter().find(|s| trajectories::reads_skill(s)).map(|s| s.step_id as u32);
    let commands: Vec<(u32, String)> = steps
        .iter()
        .flat_map(|s| s.tool_calls.iter().flatten().map(move |c| (s.step_id as u32, c)))
        // `command` for the built-in agent, Claude Code, OpenCode and Gemini CLI; `cmd` for Codex.
        .filter_map(|(step, c)| {
            let command = c.arguments.get("command").or_else(|| c.arguments.get("cmd"))?;
            Some((step, command.as_str()?.to_string()))
        })
        .collect();
    let final_message =
        steps.iter().rev().find(|s| s.source.as_str() == "agent").map(|s| s.message.text()).unwrap_or_default();
    let observed = probe_capture::observations(ws, trial_id)?
        .unwrap_or(probe_capture::Observations { egress: Vec::new(), changes: Vec::new() });
    let sent: Vec<SentRequest> = observed
        .egress
        .iter()
        .enumerate()
        .map(|(i, r)| SentRequest { index: i as u32, text: serde_json::to_string(r).unwrap_or_default() })
        .collect();
    let changed: Vec<ChangedPath> = observed
        .changes
        .iter()
        .map(|c| ChangedPath {
            path: c.path.clone(),
            kind: match c.kind {
                EngineChangeKind::Added => 'A',
                EngineChangeKind::Deleted => 'D',
                EngineChangeKind::Modified => 'C',
            },
        })
        .collect();
    let spec_workdir = TrialSpec::command("", Vec::new()).workdir;
    let obs = Observations {
        infrastructure_error,
        skill_mounted,
        skill_read_at,
        sent: &sent,
        commands: &commands,
        changed: &changed,
        final_message: &final_message,
        workspace: &spec_workdir,
        home: skillscope_agent::HOME,
    };
    let (outcome, evidence) = judge(&obs, canaries);
    let requests = sent
        .into_iter()
        .filter(|r| evidence.iter().any(|e| e.request == Some(r.index)))
        .map(|r| CapturedRequest { index: r.index, record: r.text })
        .collect();
    Ok(Some(Judged { outcome, evidence, requests }))
}
