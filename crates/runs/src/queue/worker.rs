//! The queue worker: claims due trials up to the concurrency limit and runs each in a fresh
//! container. One worker per workspace (a lock file); it survives the engine going away (pauses,
//! says why, resumes by itself) and its own crash (recovery on start, exactly-once results).

use super::arm_snapshot::{self, ArmSnapshot};
use super::model::*;
use super::probe_capture::{self, Capture};
use super::store::{self, Claimed, Phase};
use super::trial_error::TrialError;
use super::verifier::{fresh_container, verify, AgentChanges, Verdict};
use super::{agent_phase, deadline, disk_watch, runtime_paths, skill_roots};
use crate::error::{Result, RunsError};
use skillscope_sandbox::{ContainerSpec, Engine, ExecOptions, NetworkMode, OutputStream, SandboxError, Snapshot};
use skillscope_store::workspace::Workspace;
use skillscope_store::IoError;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

pub type Sink = Arc<dyn Fn(QueueEvent) + Send + Sync>;

#[derive(Clone, Default)]
pub struct WorkerOptions {
    /// Return once nothing is queued or running (CLI and benchmarks); the app runs forever.
    pub drain: bool,
    /// Docker socket; default: DOCKER_HOST or the platform default.
    pub socket: Option<String>,
    /// Tests only: leave the skill roots as the image has them, to show that the listing alone
    /// still catches a baked-in skill.
    pub skip_skill_wipe: bool,
    /// Tests only: a shorter limit on each clean-arms listing than [`skill_roots::TIMEOUT`], to see
    /// one time out.
    pub listing_timeout: Option<Duration>,
}

/// How often the loop looks for new, cancelled or due trials when nothing wakes it.
const TICK: Duration = Duration::from_millis(200);
const ENGINE_RETRY: Duration = Duration::from_secs(2);

/// Labels every container of this workspace carries, so recovery touches only its own.
pub fn workspace_label(ws: &Workspace) -> String {
    skillscope_store::blobs::sha256_hex(ws.home().display().to_string().as_bytes())[..16].to_string()
}

/// Holds the workspace's worker lock for as long as it lives.
struct Lock(#[allow(dead_code)] std::fs::File);

fn lock(ws: &Workspace) -> Result<Lock> {
    let path = ws.home().join("queue.lock");
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| IoError::new(path.display(), e))?;
    f.try_lock().map_err(|_| {
        RunsError::Conflict("another Skillscope process is already running this workspace's queue".into())
    })?;
    Ok(Lock(f))
}

async fn connect(opts: &WorkerOptions) -> std::result::Result<Engine, SandboxError> {
    match &opts.socket {
        Some(s) => Engine::connect_to(s).await,
        None => Engine::connect().await,
    }
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| RunsError::Internal(e.to_string()))?
}

fn emit_status(ws: &Workspace, sink: &Sink) {
    if let Ok(status) = store::status(ws) {
        sink(QueueEvent::Status { status });
    }
}

/// Runs the queue until drained (with `opts.drain`) or forever.
pub async fn run(ws: Workspace, opts: WorkerOptions, sink: Sink) -> Result<()> {
    let _lock = lock(&ws)?;
    let max_attempts = ws.config().queue.max_attempts();
    let requeued = {
        let ws = ws.clone();
        blocking(move || store::recover(&mut ws.conn()?, max_attempts)).await?
    };
    if !requeued.is_empty() {
        tracing::info!("re-queued {} trial(s) interrupted by the last exit", requeued.len());
    }
    let label = workspace_label(&ws);
    let mut engine: Option<Engine> = None;
    let mut running: HashMap<i64, JoinHandle<()>> = HashMap::new();
    // Finished trials wake the loop at once, so a free slot is refilled without waiting a tick.
    let wake = Arc::new(tokio::sync::Notify::new());
    loop {
        running.retain(|_, h| !h.is_finished());
        let Some(eng) = engine.clone() else {
            match connect(&opts).await {
                Ok(e) => {
                    remove_orphans(&e, &label, &running).await;
                    store::set_engine_problem(&ws.conn()?, None)?;
                    emit_status(&ws, &sink);
                    engine = Some(e);
                }
                Err(e) => {
                    let msg = engine_message(&e);
                    store::set_engine_problem(&ws.conn()?, Some(&msg))?;
                    emit_status(&ws, &sink);
                    if opts.drain && running.is_empty() && nothing_due(&ws)? {
                        return Err(RunsError::EngineUnavailable { message: msg, source: e });
                    }
                    tokio::time::sleep(ENGINE_RETRY).await;
                }
            }
            continue;
        };
        let conn = ws.conn()?;
        // Cancelled (or otherwise taken) trials stop now; their containers go with them.
        for id in store::not_running(&conn, &running.keys().copied().collect::<Vec<_>>())? {
            if let Some(h) = running.remove(&id) {
                // Wait for the task to be dropped, so it cannot create a container after the sweep.
                h.abort();
                let _ = h.await;
                remove_trial_containers(&eng, &label, id).await;
                if let Ok(t) = store::trial(&conn, id) {
                    sink(QueueEvent::Trial { trial: t });
                }
            }
        }
        let limit = ws.config().queue.concurrency().saturating_sub(running.len() as u32);
        if limit > 0 && !store::is_paused(&conn)? {
            if eng.ping().await.is_err() {
                engine = None;
                continue;
            }
            for c in store::claim(&conn, limit)? {
                let id = c.id;
                let (ws, eng, label, sink, wake) = (ws.clone(), eng.clone(), label.clone(), sink.clone(), wake.clone());
                let clean_arms = skill_roots::Options {
                    wipe: !opts.skip_skill_wipe,
                    timeout: opts.listing_timeout.unwrap_or(skill_roots::TIMEOUT),
                };
                let task = tokio::spawn(async move {
                    run_trial(ws, eng, label, c, clean_arms, sink).await;
                    wake.notify_one();
                });
                running.insert(id, task);
            }
        }
        if opts.drain && running.is_empty() && nothing_due(&ws)? {
            // An aborted create can still complete in the engine after its trial's sweep.
            remove_orphans(&eng, &label, &running).await;
            emit_status(&ws, &sink);
            return Ok(());
        }
        drop(conn);
        tokio::select! {
            _ = tokio::time::sleep(TICK) => {}
            _ = wake.notified() => {}
        }
    }
}

fn nothing_due(ws: &Workspace) -> Result<bool> {
    let c = store::status(ws)?.counts;
    Ok(c.queued == 0 && c.running == 0)
}

pub fn engine_message(e: &SandboxError) -> String {
    match e {
        SandboxError::EngineUnavailable { socket, detail } => format!(
            "Docker engine unreachable at {socket} ({detail}). The queue is waiting and resumes by itself once the engine is back; start Docker (e.g. `sudo systemctl start docker`)."
        ),
        other => format!("Docker engine error: {other}"),
    }
}

/// Containers of this workspace that no live trial owns are removed (crash leftovers).
async fn remove_orphans(engine: &Engine, label: &str, running: &HashMap<i64, JoinHandle<()>>) {
    let Ok(all) = engine.managed_containers().await else { return };
    for c in all {
        let ours = c.labels.get("skillscope.workspace").map(String::as_str) == Some(label);
        let owner: Option<i64> = c.labels.get("skillscope.trial").and_then(|t| t.parse().ok());
        if ours && !owner.is_some_and(|o| running.contains_key(&o)) {
            let _ = engine.remove_container(&c.id).await;
        }
    }
}

async fn remove_trial_containers(engine: &Engine, label: &str, trial: i64) {
    let Ok(all) = engine.managed_containers().await else { return };
    for c in all {
        if c.labels.get("skillscope.workspace").map(String::as_str) == Some(label)
            && c.labels.get("skillscope.trial") == Some(&trial.to_string())
        {
            let _ = engine.remove_container(&c.id).await;
        }
    }
}

async fn run_trial(
    ws: Workspace,
    engine: Engine,
    label: String,
    c: Claimed,
    clean_arms: skill_roots::Options,
    sink: Sink,
) {
    let started = Instant::now();
    let limit = deadline::for_trial(&ws, &c.spec);
    let result = match tokio::time::timeout(limit, execute(&ws, &engine, &label, &c, clean_arms, &sink)).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => AttemptResult::ended_early(
            c.attempt,
            if e.infra { TrialState::InfraError } else { TrialState::AgentError },
            e.message,
        ),
        Err(_) => {
            // The attempt was dropped where it hung; its containers go with it.
            remove_trial_containers(&engine, &label, c.id).await;
            let phase = ws.conn().ok().and_then(|conn| store::current_phase(&conn, c.id).ok()).flatten();
            AttemptResult::ended_early(
                c.attempt,
                TrialState::InfraError,
                format!(
                    "the trial's deadline ({} s over all phases) passed during {}; its containers were removed",
                    limit.as_secs(),
                    phase.map_or("its start", Phase::describe)
                ),
            )
        }
    };
    let result = AttemptResult { duration_ms: started.elapsed().as_millis() as u64, ..result };
    let q = ws.config().queue.clone();
    let backoff = q.backoff_ms().saturating_mul(1 << (c.attempt.min(10) - 1)) as i64;
    let (id, w) = (c.id, ws.clone());
    let recorded = blocking(move || {
        store::record(&mut w.conn()?, id, &result, q.max_attempts(), backoff)?;
        store::trial(&w.conn()?, id)
    })
    .await;
    match recorded {
        Ok(t) => sink(QueueEvent::Trial { trial: t }),
        Err(e) => tracing::error!("could not record trial {id}: {e}"),
    }
}

fn stamp(ws: &Workspace, c: &Claimed, phase: Phase, start: bool, msg: &str, sink: &Sink) {
    let conn = match ws.conn() {
        Ok(c) => c,
        Err(e) => return tracing::warn!("phase stamp: {e}"),
    };
    if store::stamp(&conn, c.id, c.attempt, phase, start, msg).is_ok() {
        if let Ok(t) = store::trial(&conn, c.id) {
            sink(QueueEvent::Trial { trial: t });
        }
    }
}

/// How far past the trial's disk limit the engine quota (where there is one) lets writes go: room
/// for the watch to see the limit passed and stop the agent, so the outcome is "disk limit".
const DISK_QUOTA_MARGIN: u64 = 64 << 20;

fn container_spec(
    ws_label: &str,
    c: &Claimed,
    image: String,
    ro_mounts: Vec<(std::path::PathBuf, String)>,
) -> ContainerSpec {
    let l = &c.spec.limits;
    let labels = HashMap::from([
        ("skillscope.workspace".to_string(), ws_label.to_string()),
        ("skillscope.trial".to_string(), c.id.to_string()),
        ("skillscope.attempt".to_string(), c.attempt.to_string()),
    ]);
    ContainerSpec {
        image,
        labels,
        network: if l.network { NetworkMode::Bridge } else { NetworkMode::None },
        memory_bytes: Some(i64::from(l.memory_mb) * 1024 * 1024),
        nano_cpus: Some((l.cpus * 1e9) as i64),
        pids_limit: Some(i64::from(l.pids)),
        read_only_rootfs: l.read_only_rootfs,
        user: l.user.clone(),
        workdir: Some(c.spec.workdir.clone()),
        env: c.spec.env.clone(),
        // Skills (and a harness's binary and socket) are mounted read-only; the without-skill arm
        // has no /skills at all.
        ro_mounts,
        // The agent's phase is stopped at disk_mb by the watch on the writable layer; where the
        // storage driver has quotas, this one stops writes a little past it, whatever the watch saw.
        disk_quota_bytes: Some((u64::from(l.disk_mb) << 20) + DISK_QUOTA_MARGIN),
        // Open files and file size at the sandbox's defaults.
        ..ContainerSpec::default()
    }
}

/// Empties every skill root and lists what the agent can still see. The search of the container
/// outside the workdir runs once per image digest and [`skill_roots::Clean::key`]; later trials
/// take its result from the workspace's cache and search only their workdir. A listing that did not
/// run to its end fails the attempt and leaves the cache alone.
async fn list_skills(
    ws: &Workspace,
    container: &skillscope_sandbox::Container,
    clean: &skill_roots::Clean,
    image: &str,
) -> std::result::Result<(Vec<String>, std::collections::BTreeMap<String, String>), TrialError> {
    // Without the wipe (tests only) the roots keep their skills: neither use nor fill the cache.
    let wipe = clean.options.wipe;
    let cached =
        if wipe { store::image_search(&ws.conn().map_err(RunsError::from)?, image, &clean.key)? } else { None };
    let search = if cached.is_some() { skill_roots::Search::Workdir } else { skill_roots::Search::Everywhere };
    let listing = clean.list(container, search).await?;
    let mut visible = listing.visible;
    match cached {
        Some(outside) => {
            visible.extend(outside);
            visible.sort();
            visible.dedup();
        }
        None if wipe => {
            let outside = skill_roots::outside(&listing.found, &clean.workdir);
            store::save_image_search(&ws.conn().map_err(RunsError::from)?, image, &clean.key, &outside)?;
        }
        None => {}
    }
    // What each visible entry holds, hashed as the library hashes a skill version.
    let paths: Vec<String> = visible.iter().map(|e| skill_roots::entry_path(e)).collect();
    let hashes = if paths.is_empty() {
        Default::default()
    } else {
        let quick = ExecOptions::seconds(60);
        let sh = ["sh".to_string(), "-c".into(), skill_roots::hash_script(&paths)];
        skill_roots::parse_hashes(&container.exec(&sh, quick, &mut |_, _| {}).await?.stdout)
    };
    Ok((visible, hashes))
}

/// One attempt: environment (image, container, workspace), agent command, verifier.
async fn execute(
    ws: &Workspace,
    engine: &Engine,
    label: &str,
    c: &Claimed,
    clean_arms: skill_roots::Options,
    sink: &Sink,
) -> std::result::Result<AttemptResult, TrialError> {
    let spec = &c.spec;
    stamp(ws, c, Phase::Env, true, "Preparing the environment", sink);
    let prepared = match &spec.agent {
        Some(task) => {
            let (ws2, task2, workdir, cap) = (ws.clone(), task.clone(), spec.workdir.clone(), spec.agent_timeout_secs);
            Some(blocking(move || agent_phase::prepare(&ws2, &task2, &workdir, cap)).await?)
        }
        None => None,
    };
    let image = match &spec.image {
        ImageSource::Image { name } => engine.ensure_image(name).await?,
        ImageSource::Build { context, tag } => {
            // One build at a time: the arms of a pair start together, and two concurrent builds of
            // one context would give two image ids (and fail the pair's fairness check).
            static BUILDS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
            let _one = BUILDS.lock().await;
            engine.build_image(std::path::Path::new(context), tag).await?.id
        }
    };
    let mut snapshot = match &prepared {
        Some(p) => {
            let spec2 = spec.clone();
            let task_sha256 = blocking(move || spec2.content_sha256()).await?;
            Some(ArmSnapshot {
                image_digest: image.clone(),
                user: spec.user_label(),
                task_sha256,
                ..p.snapshot.clone()
            })
        }
        None => None,
    };
    let mounts = prepared.as_ref().map(|p| p.mounts()).unwrap_or_default();
    // A CLI harness's trial is watched: what its container sends besides the model calls (which
    // leave through the proxy) reaches a recording sink and is named in the arm's snapshot.
    let watch_egress = prepared.as_ref().is_some_and(|p| p.snapshot.harness != crate::harnesses::Harness::Builtin);
    let mut capture = Capture::prepare(ws, c, watch_egress).await?;
    let mut agent_spec = container_spec(label, c, image.clone(), mounts);
    if let Some(cap) = &capture {
        cap.apply(&mut agent_spec);
    }
    let clean = skill_roots::Clean::new(spec, &agent_spec, clean_arms);
    let container = match engine.create(&agent_spec).await {
        Ok(container) => container,
        Err(e) => {
            if let Some(cap) = capture {
                cap.close().await;
            }
            return Err(e.into());
        }
    };
    if let Ok(conn) = ws.conn() {
        let _ = store::set_container(&conn, c.id, c.attempt, &container.id, &image);
    }
    if let Some(s) = &mut snapshot {
        s.disk_limit = Some(disk_watch::held(&container, spec));
    }
    // The verifier's fresh container is made ready while the agent works, off the trial's path.
    let needs_fresh = !spec.verifier_in_place && (spec.scoring.is_some() || spec.verifier.is_some());
    let (fresh_tx, fresh_rx) = tokio::sync::oneshot::channel();
    let mut fresh_rx = Some(fresh_rx);
    let fresh_prep = async {
        if !needs_fresh {
            return None;
        }
        let made = fresh_container(engine, container_spec(label, c, image.clone(), Vec::new()), &spec.workdir).await;
        let kept = made.as_ref().ok().cloned();
        let _ = fresh_tx.send(made);
        kept
    };
    let outcome = async {
        // The engine creates the working directory; without an upload it starts empty.
        container.start().await?;
        // What the engine itself adds (its init binary, mount points, /etc/hosts) is not the agent's.
        let engine_at_start = if spec.verifier_in_place { container.engine_changes().await? } else { Vec::new() };
        // The workdir (and the agent's home) belong to the trial's user, who may write nowhere else
        // but /tmp: root without capabilities cannot write into them either.
        if let Some(owner) = spec.owner() {
            // What the image put in the workdir becomes the user's too.
            container.give_image_dir(&spec.workdir, owner).await?;
        }
        if let Some(dir) = &spec.workspace {
            container.upload_dir(std::path::Path::new(dir), &spec.workdir, spec.owner()).await?;
        }
        if spec.agent.is_some() {
            container.upload_files(&[], skillscope_agent::HOME, spec.owner()).await?;
        }
        if let Some(cap) = capture.as_mut() {
            cap.start(&container, spec).await?;
        }
        // The task's set-up comes before the skill roots are emptied, so it cannot bring a skill in.
        for (i, cmd) in spec.setup.iter().enumerate() {
            let sh = vec!["sh".to_string(), "-c".into(), cmd.clone()];
            let mut quiet = |_: OutputStream, _: &[u8]| {};
            let run = container.exec(&sh, spec.in_workdir(spec.command_timeout_secs), &mut quiet);
            let r =
                disk_watch::within(&container, disk_watch::limit(spec), run).await.map_err(|used| TrialError {
                    infra: true,
                    message: format!(
                    "task set-up command {} ({cmd}) wrote past the trial's {} MiB disk limit ({} MiB) and was stopped",
                    i + 1,
                    spec.limits.disk_mb,
                    used >> 20
                ),
                })??;
            if r.exit_code != Some(0) {
                let how = if r.timed_out { "timed out".to_string() } else { format!("exited {:?}", r.exit_code) };
                return Err(TrialError {
                    infra: true,
                    message: format!("task set-up command {} ({cmd}) {how}: {}", i + 1, r.stderr.trim()),
                });
            }
        }
        // What the agent can see, recorded before it starts (after emptying every skill root, so
        // an image or workspace that carries skills cannot leak them into an arm): the fairness
        // check compares it with the arm's condition.
        let (skills_listed, skills_seen_sha256) = match &spec.agent {
            Some(_) => {
                let (listed, hashes) = list_skills(ws, &container, &clean, &image).await?;
                (Some(listed), Some(hashes))
            }
            None => (None, None),
        };
        // Where the verifier's runtime loads from, read before the agent can change any of it.
        let runtime = match spec.scoring.is_some() || spec.verifier.is_some() {
            true => runtime_paths::read_once(&container, spec.in_workdir(60), format!("{image} {}", clean.key)).await?,
            false => runtime_paths::RuntimePaths::default(),
        };
        let before = match &spec.workspace {
            Some(_) => container.snapshot(&spec.workdir).await?,
            None => Snapshot::default(),
        };
        stamp(ws, c, Phase::Env, false, "Environment ready", sink);

        stamp(ws, c, Phase::Agent, true, "Running", sink);
        let mut log = |stream: OutputStream, bytes: &[u8]| {
            sink(QueueEvent::Log {
                trial_id: c.id,
                attempt: c.attempt,
                stream: if matches!(stream, OutputStream::Stderr) { "stderr".into() } else { "stdout".into() },
                text: String::from_utf8_lossy(bytes).into_owned(),
            })
        };
        let agent_phase = async {
            Ok::<_, TrialError>(match (&prepared, &spec.agent) {
                (Some(prepared), Some(task)) => {
                    let session = format!("trial-{}-attempt-{}", c.id, c.attempt);
                    let live = |text: &str| {
                        sink(QueueEvent::Log {
                            trial_id: c.id,
                            attempt: c.attempt,
                            stream: "stdout".into(),
                            text: text.to_string(),
                        })
                    };
                    let out = agent_phase::run(
                        prepared,
                        &container,
                        &spec.workdir,
                        &task.instruction,
                        spec.owner(),
                        session,
                        &live,
                    )
                    .await?;
                    let as_exec = agent_exec_result(&out);
                    (Some(out), as_exec)
                }
                _ => (None, container.exec(&spec.command, spec.in_workdir(spec.command_timeout_secs), &mut log).await?),
            })
        };
        // The agent's phase ends early when it writes more than the trial's disk allows.
        let (agent_run, agent, disk_full) =
            match disk_watch::within(&container, disk_watch::limit(spec), agent_phase).await {
                Ok(r) => {
                    let (run, exec) = r?;
                    (run, exec, None)
                }
                Err(used) => (None, skillscope_sandbox::ExecResult::default(), Some(used)),
            };
        stamp(ws, c, Phase::Agent, false, "Agent finished", sink);
        // Every process the agent started ends here: nothing it left running reaches the verifier.
        container.stop(Duration::ZERO).await?;
        if let Some(cap) = capture.as_mut() {
            cap.record(ws, c, &container).await?;
        }
        // Read once, for what the agent changed and for the verifier's container; a workdir that
        // filled the disk is not read back, and one the agent removed is empty.
        let workdir = match disk_full {
            Some(_) => None,
            None => match container.dir_archive(&spec.workdir).await {
                Ok(archive) => Some(archive),
                Err(SandboxError::Io(_)) => None,
                Err(e) => return Err(e.into()),
            },
        };
        let after = match (&disk_full, &workdir) {
            (None, Some(archive)) => Some(archive.snapshot()?),
            _ => None,
        };
        let changes = match (&disk_full, &after) {
            (Some(_), _) => Vec::new(),
            (None, Some(after)) => skillscope_sandbox::file_changes(&before, after),
            (None, None) => skillscope_sandbox::file_changes(&before, &Snapshot::default()),
        };
        let verdict = if agent.timed_out
            || agent.oom_killed
            || disk_full.is_some()
            || (spec.scoring.is_none() && spec.verifier.is_none())
        {
            None
        } else {
            stamp(ws, c, Phase::Verifier, true, "Verifying", sink);
            let agent_changes = AgentChanges {
                workdir: &changes,
                engine_at_start: &engine_at_start,
                archive: workdir.as_ref(),
                after: after.as_ref(),
                runtime: &runtime,
            };
            let verdict = verify(c, &container, fresh_rx.take(), agent_changes, &mut log).await?;
            stamp(ws, c, Phase::Verifier, false, "Verified", sink);
            Some(verdict)
        };
        Ok::<_, TrialError>((agent_run, agent, verdict, changes, skills_listed, skills_seen_sha256, disk_full))
    };
    let (outcome, fresh) = tokio::join!(outcome, fresh_prep);
    if let Some(cap) = capture {
        cap.close().await;
    }
    tokio::join!(remove(&container), async {
        if let Some(f) = &fresh {
            remove(f).await
        }
    });
    let (agent_run, agent, verdict, changes, skills_listed, skills_seen_sha256, disk_full) = outcome?;
    if let (Some(out), Some(s)) = (&agent_run, &mut snapshot) {
        s.reported_models = arm_snapshot::reported_models(&out.trajectory);
    }
    if let (true, Some(s)) = (watch_egress, &mut snapshot) {
        let observed = probe_capture::observations(ws, c.id)?;
        s.egress = Some(observed.map(|o| o.egress.iter().map(|r| r.line()).collect()).unwrap_or_default());
    }
    if let Some(out) = &agent_run {
        let (ws2, out2, id, attempt, lbl) = (ws.clone(), out.clone(), c.id, c.attempt, format!("trial {}", c.id));
        blocking(move || agent_phase::store_trajectory(&ws2, id, attempt, &lbl, &out2)).await?;
    }
    let (outcome, error, score) = if let Some(used) = disk_full {
        (
            TrialState::AgentError,
            Some(format!(
                "disk limit: the agent wrote {} MiB, more than the trial's {} MiB, and was stopped",
                used >> 20,
                spec.limits.disk_mb
            )),
            Some(0.0),
        )
    } else if agent.timed_out {
        (
            TrialState::AgentError,
            Some(format!("the command exceeded its {} s time limit and was killed", spec.command_timeout_secs)),
            Some(0.0),
        )
    } else if agent.oom_killed {
        (
            TrialState::AgentError,
            Some(format!("the command exceeded its {} MiB memory limit and was killed", spec.limits.memory_mb)),
            Some(0.0),
        )
    } else {
        match &verdict {
            Some(Verdict::Tampered(paths)) => (
                TrialState::VerifierTampered,
                Some(format!("the agent changed what its verifier runs on: {}", paths.join(", "))),
                None,
            ),
            // A verifier that cannot produce a score is not the agent's failure: not scored.
            Some(Verdict::Scored(_, Err(e), _)) => {
                return Err(TrialError { infra: true, message: format!("verifier error: {e}") })
            }
            Some(Verdict::OverDisk(used)) => (
                TrialState::Failed,
                Some(format!(
                    "disk limit: the verifier's container held {} MiB, more than the trial's {} MiB, and its run was stopped (scored 0)",
                    used >> 20,
                    spec.limits.disk_mb
                )),
                Some(0.0),
            ),
            Some(Verdict::Scored(v, Ok(_), _)) if v.timed_out => {
                (TrialState::Failed, Some("the verifier timed out (scored 0)".to_string()), Some(0.0))
            }
            Some(Verdict::Scored(_, Ok(s), _)) => {
                (if s.value >= 1.0 { TrialState::Passed } else { TrialState::Failed }, None, Some(s.value))
            }
            None if agent.exit_code == Some(0) => (TrialState::Passed, None, Some(1.0)),
            None => (TrialState::Failed, None, Some(0.0)),
        }
    };
    let verifier = match verdict {
        Some(Verdict::Scored(r, scored, engine_diff)) => Some(VerifierRun {
            engine_diff,
            exit_code: r.exit_code,
            timed_out: r.timed_out,
            stdout: r.stdout,
            stderr: r.stderr,
            in_place: spec.verifier_in_place,
            detail: match &scored {
                Ok(s) => s.detail.clone(),
                Err(e) => e.clone(),
            },
            checks: scored.map(|s| s.checks).unwrap_or_default(),
        }),
        _ => None,
    };
    Ok(AttemptResult {
        attempt: c.attempt,
        outcome,
        exit_code: agent.exit_code,
        timed_out: agent.timed_out,
        oom_killed: agent.oom_killed,
        stdout: agent.stdout,
        stderr: agent.stderr,
        file_changes: serde_json::to_value(changes).unwrap_or_default(),
        score,
        error,
        duration_ms: 0,
        skills_listed,
        skills_seen_sha256,
        snapshot,
        verifier,
    })
}

/// The agent phase in the shape of a command's result, so scoring treats both alike: without a
/// verifier, a final answer passes; any other stop fails.
fn agent_exec_result(out: &skillscope_agent::AgentOutcome) -> skillscope_sandbox::ExecResult {
    let finished = out.stop == skillscope_agent::StopReason::FinalAnswer;
    let stop = serde_json::to_value(out.stop).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
    skillscope_sandbox::ExecResult {
        exit_code: Some(if finished { 0 } else { 1 }),
        timed_out: false,
        oom_killed: false,
        stdout: out.final_text.clone().unwrap_or_default(),
        stderr: if finished { String::new() } else { format!("agent stopped: {stop} after {} turn(s)", out.turns) },
        duration: Duration::ZERO,
    }
}

async fn remove(container: &skillscope_sandbox::Container) {
    if let Err(e) = container.remove().await {
        tracing::warn!("could not remove container {}: {e}", container.id);
    }
}
