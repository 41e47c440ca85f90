//! Paired experiments: skills × tasks × agent configurations × conditions × repeats. Each pair
//! is one task run twice through the queue, identical but for the skill under test. A pair is
//! scored only when both runs finished cleanly and the fairness check holds.

use crate::error::{ExperimentError, Result};
use crate::results_cache;
use rusqlite::params;
use serde::{Deserialize, Serialize};
use skillscope_judge::rubric::{self, RubricScores};
use skillscope_judge::store::{self as verdicts, Preference};
use skillscope_judge::{Judge, Judgement};
use skillscope_library as library;
use skillscope_runs::agents::{self, AgentConfig};
use skillscope_runs::queue::arm_snapshot::{self, ArmSnapshot};
use skillscope_runs::queue::model::{AgentTask, TrialLimits, TrialSpec, TrialState};
use skillscope_runs::queue::store;
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use skillscope_tasks::score::Check as VerifierCheck;
use std::collections::{BTreeMap, HashMap};
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Condition {
    /// Without: no skill at all. With: only the skill under test.
    Isolated,
    /// The fixed decoy skills are present in both arms; the with arm adds the skill under test.
    Group,
}

/// One task of an experiment, as the queue runs it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExperimentTask {
    pub id: String,
    pub instruction: String,
    pub image: String,
    /// Host folder copied into the working directory before the agent starts.
    pub workspace: Option<String>,
    /// Command whose exit code scores the run (0 = 1.0, else 0.0), unless `scoring` is set.
    pub verifier: Vec<String>,
    /// A task verifier that scores a pass ratio (pytest, Harbor tests, JSON score).
    #[serde(default)]
    pub scoring: Option<skillscope_tasks::TaskVerifier>,
    /// Build the image from this Dockerfile context instead of using `image`.
    #[serde(default)]
    pub dockerfile_context: Option<String>,
    /// Verify in the agent's own container instead of a fresh one (the task declares it).
    #[serde(default)]
    pub verifier_in_place: bool,
    /// Skill folders the image or workspace carries that the reviewer accepted as part of the task
    /// (full paths, as the arms' listings name them): seen in both arms, they exclude no pair.
    /// Recorded with the design.
    #[serde(default)]
    pub accepted_skill_paths: Vec<String>,
    /// What the task asks of its environment, applied to both arms alike.
    #[serde(default)]
    pub settings: TaskSettings,
}

impl ExperimentTask {
    /// The expectations a judge grades and the expected output, for a task scored that way.
    pub fn judged(&self) -> Option<(&[String], Option<&str>)> {
        match &self.scoring {
            Some(skillscope_tasks::TaskVerifier::NeedsJudge { expectations, expected_output }) => {
                Some((expectations, expected_output.as_deref()))
            }
            _ => None,
        }
    }

    /// For a routing case (a trigger eval): whether the skill should be used.
    pub fn routing(&self) -> Option<bool> {
        match &self.scoring {
            Some(skillscope_tasks::TaskVerifier::Routing { should_trigger }) => Some(*should_trigger),
            _ => None,
        }
    }
}

/// Why a routing case's pair has no pass ratio.
pub const ROUTING_CASE: &str = "a routing case: it counts toward activation accuracy, not pass ratio";

/// A task's own environment settings (Harbor's `[environment]` and timeouts, a requirement
/// document's set-up): each one reaches the trial; unset ones keep the queue's defaults.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TaskSettings {
    /// Where the agent starts and the verifier runs; default `/workspace`.
    pub workdir: Option<String>,
    /// `sh -c` commands run in order in the workdir after the workspace is copied in and before
    /// the agent starts, without network; a failing one ends the attempt as an infrastructure
    /// error that names it.
    pub setup: Vec<String>,
    /// Environment variables of the trial's containers.
    pub env: BTreeMap<String, String>,
    pub memory_mb: Option<u32>,
    pub cpus: Option<f64>,
    /// Caps the agent's wall time (the configuration's own limit applies when lower).
    pub agent_timeout_secs: Option<u64>,
    pub verifier_timeout_secs: Option<u64>,
    /// Set-up, agent and verifier run as root instead of the trial's unprivileged user.
    #[serde(default)]
    pub run_as_root: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExperimentDesign {
    pub name: String,
    pub skill_version_ids: Vec<i64>,
    /// Present in both arms under the group condition.
    pub decoy_version_ids: Vec<i64>,
    /// Empty when `task_set_id` names the tasks: they are then taken from the stored set.
    pub tasks: Vec<ExperimentTask>,
    /// The stored task set the tasks come from, if any (recorded with the design).
    #[serde(default)]
    pub task_set_id: Option<i64>,
    pub agent_config_ids: Vec<i64>,
    pub conditions: Vec<Condition>,
    pub repeats: u32,
    /// When not empty, only these pairs of the expansion are run (a re-run of another
    /// experiment's unscored pairs).
    #[serde(default)]
    pub only: Vec<PairSlot>,
    /// Who grades the tasks that need a judge (their expectations); without one, such tasks are
    /// left out.
    #[serde(default)]
    pub judge: Option<Judge>,
}

/// One pair of a design's expansion: skill version × task × configuration × condition × repeat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PairSlot {
    pub skill_version_id: i64,
    pub task: String,
    pub agent_config_id: i64,
    pub condition: Condition,
    pub repeat: u32,
}

impl ExperimentDesign {
    /// Every pair the design runs, in queue order, with the index of its task.
    pub fn slots(&self) -> Vec<(PairSlot, usize)> {
        let mut out = Vec::new();
        for &skill in &self.skill_version_ids {
            for (t, task) in self.tasks.iter().enumerate() {
                for &config in &self.agent_config_ids {
                    for &condition in &self.conditions {
                        for repeat in 1..=self.repeats {
                            let slot = PairSlot {
                                skill_version_id: skill,
                                task: task.id.clone(),
                                agent_config_id: config,
                                condition,
                                repeat,
                            };
                            if self.only.is_empty() || self.only.contains(&slot) {
                                out.push((slot, t));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ArmView {
    pub trial_id: i64,
    pub state: TrialState,
    pub score: Option<f64>,
    /// Attempts beyond the first: infrastructure re-runs.
    pub reruns: u32,
    pub skills_listed: Option<Vec<String>>,
    /// The tree hash of each of those entries, by container path, recorded when the trial ran.
    pub skills_seen_sha256: Option<BTreeMap<String, String>>,
    pub image_digest: Option<String>,
    /// Agent phase wall time in seconds, and effective input tokens (input minus cached).
    pub agent_secs: Option<f64>,
    pub effective_input_tokens: Option<f64>,
    /// What the attempt reported beside its outcome: an error, or the paths of a tampered verifier.
    pub error: Option<String>,
    /// What ran: the effective configuration, image, task and skills, as recorded by the trial.
    pub snapshot: Option<ArmSnapshot>,
    /// The verifier's checks (a pytest test case each); empty when it reported only a value.
    pub checks: Vec<VerifierCheck>,
    /// For a task a judge grades: the judge's verdicts on this attempt (or why there is no score).
    #[serde(default)]
    pub judgement: Option<Judgement>,
    /// With a judge: its ACES rubric on this attempt (goal, and accuracy against a reference
    /// answer) or why there is none, and the scores it gives.
    #[serde(default)]
    pub rubric: Option<Judgement>,
    #[serde(default)]
    pub rubric_scores: Option<RubricScores>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PairView {
    pub id: i64,
    /// The skill's name; with its version (`name v2`) when the experiment ran more than one
    /// version of it, so that each version's pairs form their own rows.
    pub skill: String,
    pub skill_version_id: i64,
    /// The version's number in the library.
    pub skill_version: u32,
    pub task: String,
    pub config: String,
    pub condition: Condition,
    pub repeat: u32,
    pub without: ArmView,
    pub with: ArmView,
    /// Why the pair is not scored (unfinished, infrastructure failure, tampering, fairness); empty
    /// when it is.
    pub excluded: Vec<String>,
    /// What the fairness check found: where the arms differ in more than their skills, or saw
    /// other skills than their condition allows; empty when they are a fair pair.
    pub fairness: Vec<String>,
    /// What the arms ran with in a few words ([`ArmSnapshot::short`]), each distinct one once.
    pub ran_with: Vec<String>,
    /// With a judge: its preference between the arms as they stand (or why there is none).
    pub preference: Option<Preference>,
}

impl PairView {
    /// The pair as a list shows it: without each arm's full snapshot, verifier checks and graded
    /// expectations (the pair's own view loads those; a judgement keeps its score, judge and NO
    /// SCORE reason), so that tens of thousands of pairs stay small.
    pub fn listed(mut self) -> PairView {
        for arm in [&mut self.without, &mut self.with] {
            arm.snapshot = None;
            arm.checks = Vec::new();
            for j in [&mut arm.judgement, &mut arm.rubric].into_iter().flatten() {
                if let Some(graded) = j.graded.as_mut() {
                    graded.expectations = Vec::new();
                }
            }
        }
        self
    }

    /// The pair as the statistics take it, with `without` and `with` as its two values in [0, 1]
    /// (pass ratios, or another measure of the arms).
    pub fn stats_pair(&self, without: f64, with: f64) -> skillscope_stats::Pair {
        skillscope_stats::Pair {
            skill: self.skill.clone(),
            config: self.config.clone(),
            condition: (self.condition == Condition::Group).then(|| self.condition_label().to_string()),
            task: self.task.clone(),
            repeat: Some(self.repeat),
            without,
            with,
            time_without: self.without.agent_secs,
            time_with: self.with.agent_secs,
            tokens_without: self.without.effective_input_tokens,
            tokens_with: self.with.effective_input_tokens,
        }
    }

    /// The configuration as results report it: the group condition is its own column.
    pub fn config_label(&self) -> String {
        match self.condition {
            Condition::Isolated => self.config.clone(),
            Condition::Group => format!("{} (group)", self.config),
        }
    }

    pub fn condition_label(&self) -> &'static str {
        match self.condition {
            Condition::Isolated => "isolated",
            Condition::Group => "group",
        }
    }
}

pub(crate) fn skill_name(ws: &Workspace, version_id: i64) -> Result<String> {
    let v = library::get_version(ws, version_id)?;
    Ok(v.frontmatter.name.unwrap_or_else(|| format!("skill-{version_id}")))
}

/// One arm of a pair: `task` run by configuration `config` (whose harness picks the image of a
/// task that names none) with `skills`.
fn arm_spec(task: &ExperimentTask, config: &AgentConfig, skills: Vec<i64>) -> TrialSpec {
    TrialSpec {
        agent: Some(AgentTask {
            agent_config_id: config.id,
            instruction: task.instruction.clone(),
            skill_version_ids: skills,
        }),
        ..task_trial(task, config.harness.task_image(&task.image), Vec::new())
    }
}

/// `task`'s environment, settings and verifier as a trial in `image` (unless the task builds its
/// own) that runs `command` where an arm runs its agent.
pub(crate) fn task_trial(task: &ExperimentTask, image: &str, command: Vec<String>) -> TrialSpec {
    let image = match &task.dockerfile_context {
        Some(context) => {
            skillscope_runs::queue::model::ImageSource::Build { context: context.clone(), tag: task.image.clone() }
        }
        None => skillscope_runs::queue::model::ImageSource::Image { name: image.to_string() },
    };
    let defaults = TrialSpec::command(&task.image, command);
    let s = &task.settings;
    TrialSpec {
        image,
        workdir: s.workdir.clone().unwrap_or(defaults.workdir.clone()),
        limits: TrialLimits {
            memory_mb: s.memory_mb.unwrap_or(defaults.limits.memory_mb),
            cpus: s.cpus.unwrap_or(defaults.limits.cpus),
            ..defaults.limits.clone()
        },
        verifier_timeout_secs: s.verifier_timeout_secs.unwrap_or(defaults.verifier_timeout_secs),
        agent_timeout_secs: s.agent_timeout_secs,
        setup: s.setup.clone(),
        env: s.env.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        workspace: task.workspace.clone(),
        verifier: (!task.verifier.is_empty()).then(|| task.verifier.clone()),
        // Expectations are graded by the judge after the run, not by a verifier in the sandbox.
        scoring: task.scoring.clone().filter(|s| s.runs_in_container()),
        verifier_in_place: task.verifier_in_place,
        run_as_root: s.run_as_root,
        ..defaults
    }
}

/// Queues every trial of the design; returns the experiment id.
/// The design with its tasks: taken from the stored set when it names one and lists none.
pub fn with_tasks<'a>(ws: &Workspace, d: &'a ExperimentDesign) -> Result<std::borrow::Cow<'a, ExperimentDesign>> {
    Ok(match d.task_set_id {
        Some(set) if d.tasks.is_empty() => std::borrow::Cow::Owned(ExperimentDesign {
            tasks: crate::task_sets::experiment_tasks(ws, set, d.judge.is_some())?.0,
            ..d.clone()
        }),
        _ => std::borrow::Cow::Borrowed(d),
    })
}

pub fn create(ws: &Workspace, d: &ExperimentDesign) -> Result<i64> {
    let d = &*with_tasks(ws, d)?;
    if d.skill_version_ids.is_empty() || d.tasks.is_empty() || d.agent_config_ids.is_empty() || d.conditions.is_empty()
    {
        return Err(ExperimentError::InvalidInput(
            "an experiment needs skills, tasks, agent configurations and conditions".into(),
        ));
    }
    if d.repeats == 0 {
        return Err(ExperimentError::InvalidInput("repeats must be at least 1".into()));
    }
    match &d.judge {
        Some(judge) => {
            agents::provider(ws, &judge.provider)?;
        }
        None => {
            if let Some(t) = d.tasks.iter().find(|t| t.judged().is_some()) {
                return Err(ExperimentError::InvalidInput(format!(
                    "task {} has expectations for a judge to grade: choose a judge, or leave the task out",
                    t.id
                )));
            }
        }
    }
    let configs: BTreeMap<i64, AgentConfig> =
        d.agent_config_ids.iter().map(|&c| Ok((c, agents::runnable(ws, c)?))).collect::<Result<_>>()?;
    for &skill in &d.skill_version_ids {
        skill_name(ws, skill)?;
    }
    let slots = d.slots();
    if slots.is_empty() {
        return Err(ExperimentError::InvalidInput("the design names no pair to run".into()));
    }
    let mut trials = Vec::new();
    for (slot, t) in &slots {
        let (task, cond, repeat) = (&d.tasks[*t], slot.condition, slot.repeat);
        let decoys = if cond == Condition::Group { d.decoy_version_ids.clone() } else { Vec::new() };
        let with: Vec<i64> = decoys.iter().copied().chain([slot.skill_version_id]).collect();
        let label = format!("{} · {} · {:?} · r{repeat}", task.id, slot.skill_version_id, cond).to_lowercase();
        let config = &configs[&slot.agent_config_id];
        trials.push((format!("{label} · without"), arm_spec(task, config, decoys)));
        trials.push((format!("{label} · with"), arm_spec(task, config, with)));
    }
    let run_id = store::create_run(ws, &format!("experiment: {}", d.name), &trials)?;
    let ids: Vec<i64> = store::trials(ws, run_id)?.into_iter().map(|t| t.id).collect();
    let mut conn = ws.conn()?;
    let tx = conn.transaction()?;
    tx.execute(
        "INSERT INTO experiments(name, run_id, design_json, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![d.name, run_id, serde_json::to_string(d)?, now()],
    )?;
    let exp = tx.last_insert_rowid();
    for (i, (PairSlot { skill_version_id: skill, task, agent_config_id: config, condition: cond, repeat }, _)) in
        slots.into_iter().enumerate()
    {
        tx.execute(
            "INSERT INTO experiment_pairs(experiment_id, skill_version_id, task, agent_config_id, condition, repeat, trial_without, trial_with)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![exp, skill, task, config, serde_json::to_value(cond)?.as_str(), repeat, ids[2 * i], ids[2 * i + 1]],
        )?;
    }
    tx.commit()?;
    Ok(exp)
}

fn seconds_between(a: &Option<String>, b: &Option<String>) -> Option<f64> {
    use time::format_description::well_known::Rfc3339;
    let a = time::OffsetDateTime::parse(a.as_deref()?, &Rfc3339).ok()?;
    let b = time::OffsetDateTime::parse(b.as_deref()?, &Rfc3339).ok()?;
    Some((b - a).as_seconds_f64())
}

/// An arm as loaded, with its stored specification (read only for attempts recorded before
/// snapshots, whose fairness is checked on it).
type Arm = (ArmView, String);

/// The arm of a judged task scored by its judgement: the judge's pass ratio, never the run's own
/// (a final answer would pass it); returns why the pair cannot be scored on this arm, if so.
fn judged(arm: &mut ArmView, judgements: &mut HashMap<i64, Judgement>, name: &str) -> Option<String> {
    let finished = matches!(arm.state, TrialState::Passed | TrialState::Failed | TrialState::AgentError);
    arm.judgement = judgements.remove(&arm.trial_id);
    arm.score = arm.judgement.as_ref().and_then(Judgement::score);
    match &arm.judgement {
        _ if !finished => None,
        None => Some(format!("{name} arm not judged yet")),
        Some(j) => j.no_score.as_ref().map(|why| format!("NO SCORE on the {name} arm: {why}")),
    }
}

fn run_of(ws: &Workspace, experiment_id: i64) -> Result<i64> {
    Ok(ws.conn()?.query_row("SELECT run_id FROM experiments WHERE id = ?1", [experiment_id], |r| r.get(0))?)
}

/// Every trial of the experiment's run with what its pairs need, in one query: the Results page
/// asks for tens of thousands of pairs at once.
fn load_arms(ws: &Workspace, experiment_id: i64) -> Result<HashMap<i64, Arm>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(
        "SELECT t.id, t.state, t.attempt, t.image_digest, t.spec_json, t.agent_started_at, t.agent_finished_at,
                r.score, r.skills_json, r.error, r.snapshot_json, json_extract(r.verifier_json, '$.checks'), r.skills_seen_json,
                (SELECT tr.input_tokens - tr.cached_tokens FROM trajectories tr WHERE tr.trial_id = t.id AND tr.attempt = t.attempt)
         FROM experiments e JOIN trials t ON t.run_id = e.run_id
         LEFT JOIN trial_results r ON r.trial_id = t.id AND r.attempt = t.attempt
         WHERE e.id = ?1",
    )?;
    let rows = st.query_map([experiment_id], |r| {
        let attempt: u32 = r.get(2)?;
        let spec: String = r.get(4)?;
        let skills: Option<String> = r.get(8)?;
        let tokens: Option<i64> = r.get(13)?;
        let seen: Option<String> = r.get(12)?;
        let checks: Option<String> = r.get(11)?;
        let snapshot: Option<String> = r.get(10)?;
        Ok((
            r.get::<_, i64>(0)?,
            (
                ArmView {
                    trial_id: r.get(0)?,
                    state: TrialState::parse(&r.get::<_, String>(1)?),
                    score: r.get(7)?,
                    reruns: attempt.saturating_sub(1),
                    skills_listed: skills.and_then(|j| serde_json::from_str(&j).ok()),
                    skills_seen_sha256: seen.and_then(|j| serde_json::from_str(&j).ok()),
                    agent_secs: seconds_between(&r.get(5)?, &r.get(6)?),
                    image_digest: r.get(3)?,
                    effective_input_tokens: tokens.map(|t| t.max(0) as f64),
                    error: r.get(9)?,
                    snapshot: snapshot.and_then(|j| serde_json::from_str(&j).ok()),
                    checks: checks.and_then(|j| serde_json::from_str(&j).ok()).unwrap_or_default(),
                    judgement: None,
                    rubric: None,
                    rubric_scores: None,
                },
                spec,
            ),
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One stored pair as read from `experiment_pairs`.
struct PairRow {
    id: i64,
    skill_version_id: i64,
    task: String,
    config_id: i64,
    condition: String,
    repeat: u32,
    trial_without: i64,
    trial_with: i64,
}

/// Arms whose outcome cannot be scored: unfinished, infrastructure failures, tampered verifiers.
fn arm_problems(without: &Arm, with: &Arm) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, (a, _)) in [("without", without), ("with", with)] {
        match a.state {
            TrialState::Passed | TrialState::Failed | TrialState::AgentError => {}
            TrialState::Queued | TrialState::Running => problems.push(format!("{name} arm not finished")),
            TrialState::VerifierTampered => problems
                .push(format!("{name} arm: verifier tampered ({})", a.error.as_deref().unwrap_or("no paths recorded"))),
            other => problems.push(format!(
                "{name} arm ended {} after {} attempt(s)",
                serde_json::to_value(other).unwrap_or_default().as_str().unwrap_or(""),
                a.reruns + 1
            )),
        }
    }
    problems
}

/// Where the arms differ in more than their skills, or saw other skills than their condition
/// allows; checked once both arms have run their agent.
fn fairness_problems(without: &Arm, with: &Arm, expected: (&[String], &[String]), accepted: &[String]) -> Vec<String> {
    let (expect_without, expect_with) = expected;
    if without.0.skills_listed.is_none() || with.0.skills_listed.is_none() {
        return vec!["not checked: an arm has not run its agent".into()];
    }
    let mut problems = Vec::new();
    match (&without.0.snapshot, &with.0.snapshot) {
        (Some(a), Some(b)) => problems.extend(arm_snapshot::differences(a, b)),
        // Attempts recorded before snapshots existed: compare what the queue stored.
        _ => {
            if without.0.image_digest != with.0.image_digest {
                problems.push("the arms ran different image digests".into());
            }
            let without_skills = |spec: &str| serde_json::from_str::<TrialSpec>(spec).ok().map(|s| s.without_skills());
            if without_skills(&without.1) != without_skills(&with.1) {
                problems.push("the arms differ in more than the skill (image, tools, limits or model)".into());
            }
        }
    }
    let sorted = |v: &[String]| {
        let mut v = v.to_vec();
        v.sort();
        v
    };
    for (name, arm, expected) in [("without", &without.0, expect_without), ("with", &with.0, expect_with)] {
        let seen: Vec<String> = arm.skills_listed.iter().flatten().filter(|s| !accepted.contains(s)).cloned().collect();
        if sorted(&seen) != sorted(expected) {
            problems.push(format!("{name} arm saw skills {seen:?} but its condition allows {expected:?}"));
        }
    }
    problems
}

/// The design an experiment was created with (its tasks filled in).
pub fn design(ws: &Workspace, experiment_id: i64) -> Result<ExperimentDesign> {
    let conn = ws.conn()?;
    let json: String = conn
        .query_row("SELECT design_json FROM experiments WHERE id = ?1", [experiment_id], |r| r.get(0))
        .map_err(|_| ExperimentError::NotFound(format!("no experiment with id {experiment_id}")))?;
    Ok(serde_json::from_str(&json)?)
}

pub fn pairs(ws: &Workspace, experiment_id: i64) -> Result<Vec<PairView>> {
    let design = design(ws, experiment_id)?;
    let decoys: Vec<String> = design.decoy_version_ids.iter().map(|&v| skill_name(ws, v)).collect::<Result<_>>()?;
    let rows: Vec<PairRow> = {
        let conn = ws.conn()?;
        let mut st = conn.prepare(
            "SELECT id, skill_version_id, task, agent_config_id, condition, repeat, trial_without, trial_with
             FROM experiment_pairs WHERE experiment_id = ?1 ORDER BY id",
        )?;
        let rows = st
            .query_map([experiment_id], |r| {
                Ok(PairRow {
                    id: r.get(0)?,
                    skill_version_id: r.get(1)?,
                    task: r.get(2)?,
                    config_id: r.get(3)?,
                    condition: r.get(4)?,
                    repeat: r.get(5)?,
                    trial_without: r.get(6)?,
                    trial_with: r.get(7)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        rows
    };
    let mut arms = load_arms(ws, experiment_id)?;
    let (mut judgements, mut rubrics, mut preferences) = match design.judge {
        Some(_) => {
            let run = run_of(ws, experiment_id)?;
            (
                verdicts::of_run(ws, verdicts::Graded::Expectations, run)?,
                verdicts::of_run(ws, verdicts::Graded::Rubric, run)?,
                verdicts::preferences_of_run(ws, run)?,
            )
        }
        None => (HashMap::new(), HashMap::new(), HashMap::new()),
    };
    let configs: HashMap<i64, String> = agents::agents(ws)?.into_iter().map(|a| (a.id, a.name)).collect();
    let mut names: HashMap<i64, (String, u32)> = HashMap::new();
    // Each trial is one arm of one pair: taken, not copied.
    let mut arm = |id: i64| {
        arms.remove(&id).ok_or_else(|| ExperimentError::NotFound(format!("trial {id} of the experiment is missing")))
    };
    let mut out = Vec::new();
    for PairRow { id, skill_version_id, task, config_id, condition, repeat, trial_without: tw, trial_with: tv } in rows
    {
        let condition: Condition = serde_json::from_value(serde_json::Value::String(condition))?;
        let (skill, skill_version) = match names.get(&skill_version_id) {
            Some(n) => n.clone(),
            None => {
                let v = library::get_version(ws, skill_version_id)?;
                let n = (v.frontmatter.name.unwrap_or_else(|| format!("skill-{skill_version_id}")), v.version);
                names.insert(skill_version_id, n.clone());
                n
            }
        };
        let (expect_without, expect_with) = match condition {
            Condition::Isolated => (Vec::new(), vec![skill.clone()]),
            Condition::Group => (decoys.clone(), decoys.iter().cloned().chain([skill.clone()]).collect()),
        };
        let mut without = arm(tw)?;
        let mut with = arm(tv)?;
        let spec = design.tasks.iter().find(|t| t.id == task);
        let accepted = spec.map_or(&[][..], |t| &t.accepted_skill_paths);
        let fairness = fairness_problems(&without, &with, (&expect_without, &expect_with), accepted);
        let mut excluded = arm_problems(&without, &with);
        if spec.is_some_and(|t| t.judged().is_some()) {
            excluded.extend(judged(&mut without.0, &mut judgements, "without"));
            excluded.extend(judged(&mut with.0, &mut judgements, "with"));
        }
        if spec.is_some_and(|t| t.routing().is_some()) {
            excluded.push(ROUTING_CASE.into());
        }
        for arm in [&mut without.0, &mut with.0] {
            arm.rubric = rubrics.remove(&arm.trial_id);
            arm.rubric_scores = arm.rubric.as_ref().and_then(|j| j.graded.as_ref()).map(rubric::scores);
        }
        if excluded.is_empty() {
            excluded = fairness.clone();
        }
        let mut ran_with: Vec<String> =
            [&without.0.snapshot, &with.0.snapshot].into_iter().flatten().map(ArmSnapshot::short).collect();
        ran_with.dedup();
        out.push(PairView {
            ran_with,
            id,
            skill,
            skill_version_id,
            skill_version,
            task,
            config: configs.get(&config_id).cloned().unwrap_or_else(|| format!("config {config_id}")),
            condition,
            repeat,
            without: without.0,
            with: with.0,
            excluded,
            fairness,
            preference: preferences.remove(&tw),
        });
    }
    // Two versions of one skill in an experiment are two rows of evidence, never pooled.
    let mut versions: HashMap<&str, Vec<i64>> = HashMap::new();
    for (id, (name, _)) in &names {
        versions.entry(name.as_str()).or_default().push(*id);
    }
    let split: Vec<String> =
        versions.into_iter().filter(|(_, ids)| ids.len() > 1).map(|(n, _)| n.to_string()).collect();
    for p in out.iter_mut().filter(|p| split.contains(&p.skill)) {
        p.skill = format!("{} v{}", p.skill, p.skill_version);
    }
    Ok(out)
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExperimentResults {
    pub report: skillscope_stats::Report,
    pub pairs_scored: u32,
    pub pairs_excluded: u32,
    pub reruns: u32,
    /// Each tested skill's category (by skill name), for those whose SKILL.md declares one.
    pub categories: BTreeMap<String, String>,
}

/// Statistics over the scored pairs (the group condition reports as config `<name> (group)`).
/// Computes and stores the statistics of every experiment of trial run `run_id`.
pub fn refresh_results_of_run(ws: &Workspace, run_id: i64) -> Result<()> {
    let ids: Vec<i64> = {
        let conn = ws.conn()?;
        let mut st = conn.prepare("SELECT id FROM experiments WHERE run_id = ?1")?;
        let ids = st.query_map([run_id], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        ids
    };
    ids.into_iter().try_for_each(|id| results(ws, id).map(|_| ()))
}

/// One pair of the experiment, whole (snapshots and checks included).
pub fn pair(ws: &Workspace, experiment_id: i64, pair_id: i64) -> Result<PairView> {
    pairs(ws, experiment_id)?
        .into_iter()
        .find(|p| p.id == pair_id)
        .ok_or_else(|| ExperimentError::NotFound(format!("experiment {experiment_id} has no pair {pair_id}")))
}

/// The experiment's statistics: stored ones when its evidence has not changed since they were
/// computed (`results_cache`), else computed now and stored.
pub fn results(ws: &Workspace, experiment_id: i64) -> Result<ExperimentResults> {
    let fingerprint = results_cache::fingerprint(ws, experiment_id)?;
    let (stored, mut rows) = results_cache::get(ws, experiment_id, &fingerprint)?;
    if let Some(r) = stored {
        return Ok(r);
    }
    let r = summarize(ws, experiment_id, pairs(ws, experiment_id)?, &mut rows)?;
    results_cache::put(ws, experiment_id, &fingerprint, &r, &rows)?;
    Ok(r)
}

/// The statistics over the pairs of one skill version only: another version of the same skill in
/// the experiment is other evidence, never pooled with it.
pub fn results_for_version(ws: &Workspace, experiment_id: i64, version_id: i64) -> Result<ExperimentResults> {
    let mine = pairs(ws, experiment_id)?.into_iter().filter(|p| p.skill_version_id == version_id).collect();
    summarize(ws, experiment_id, mine, &mut skillscope_stats::RowMemo::new())
}

/// The statistics over `all`'s scored pairs; rows found in `rows` unchanged are not computed again.
fn summarize(
    ws: &Workspace,
    experiment_id: i64,
    all: Vec<PairView>,
    rows: &mut skillscope_stats::RowMemo,
) -> Result<ExperimentResults> {
    let reruns = all.iter().map(|p| p.without.reruns + p.with.reruns).sum();
    let scored: Vec<skillscope_stats::Pair> = all
        .iter()
        .filter(|p| p.excluded.is_empty())
        .map(|p| p.stats_pair(p.without.score.unwrap_or(0.0), p.with.score.unwrap_or(0.0)))
        .collect();
    Ok(ExperimentResults {
        pairs_scored: scored.len() as u32,
        pairs_excluded: (all.len() - scored.len()) as u32,
        report: skillscope_stats::analyze_with(&scored, rows),
        reruns,
        categories: categories(ws, experiment_id)?,
    })
}

fn categories(ws: &Workspace, experiment_id: i64) -> Result<BTreeMap<String, String>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(
        "SELECT DISTINCT v.name, v.frontmatter_json FROM experiment_pairs p JOIN skill_versions v ON v.id = p.skill_version_id
         WHERE p.experiment_id = ?1",
    )?;
    let rows: Vec<(String, String)> =
        st.query_map([experiment_id], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    let mut out = BTreeMap::new();
    for (name, json) in rows {
        let fm: skillscope_library::model::Frontmatter = serde_json::from_str(&json)?;
        if let Some(c) = fm.category() {
            out.insert(name, c.to_owned());
        }
    }
    Ok(out)
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExperimentView {
    pub id: i64,
    pub name: String,
    pub run_id: i64,
    pub created_at: String,
    pub design: ExperimentDesign,
    /// Set for an experiment imported from a bundle (the built-in demo is one).
    pub provenance: Option<Provenance>,
    /// Pairs in the design.
    pub pairs: u32,
    /// Pairs whose two trials have both ended (passed, failed or errored, or were cancelled).
    pub pairs_finished: u32,
}

/// Every experiment, newest first, with its progress counted in the database (the list must not
/// read tens of thousands of pairs per experiment).
pub fn list(ws: &Workspace) -> Result<Vec<ExperimentView>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(
        "SELECT e.id, e.name, e.run_id, e.created_at, e.design_json, e.provenance_json,
            (SELECT COUNT(*) FROM experiment_pairs p WHERE p.experiment_id = e.id),
            (SELECT COUNT(*) FROM experiment_pairs p JOIN trials a ON a.id = p.trial_without JOIN trials b ON b.id = p.trial_with
             WHERE p.experiment_id = e.id AND a.state NOT IN ('queued', 'running') AND b.state NOT IN ('queued', 'running'))
         FROM experiments e ORDER BY e.id DESC",
    )?;
    type Row = (i64, String, i64, String, String, Option<String>, u32, u32);
    let rows: Vec<Row> = st
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|(id, name, run_id, created_at, d, p, pairs, pairs_finished)| {
            let provenance = p.map(|p| serde_json::from_str(&p)).transpose()?;
            Ok(ExperimentView {
                id,
                name,
                run_id,
                created_at,
                design: serde_json::from_str(&d)?,
                provenance,
                pairs,
                pairs_finished,
            })
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ProvenanceKind {
    /// Produced by `skillscope demo generate` against the scripted model server: not a real model.
    Demo,
    /// Exported from another workspace.
    Import,
}

/// Where an imported experiment came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Provenance {
    pub kind: ProvenanceKind,
    /// What a reader is told about the evidence.
    pub sentence: String,
    /// When the bundle was produced, and by what (command and Skillscope version).
    pub produced_at: String,
    pub produced_by: String,
    /// When this workspace imported it.
    pub imported_at: Option<String>,
}

impl Provenance {
    pub fn is_demo(&self) -> bool {
        self.kind == ProvenanceKind::Demo
    }
}
