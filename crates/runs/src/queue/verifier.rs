//! The verifier's side of an attempt: a fresh container for it (prepared while the agent works),
//! the tamper checks, and the verifier's run and score, kept apart from everything the agent did.

use super::disk_watch;
use super::model::TrialSpec;
use super::runtime_paths::RuntimePaths;
use super::store::Claimed;
use super::tamper::{self, Runner};
use super::trial_error::TrialError;
use skillscope_sandbox::{ContainerSpec, Engine, ExecOptions, OutputStream};

/// How a verifier run ended: scored (its own result and the score, or why it could not score), or
/// not run because the agent changed what it runs on (the paths).
pub(super) enum Verdict {
    /// The verifier's run, its score (or why none), and for a verifier in place the engine's
    /// record of what the agent changed outside the workdir.
    Scored(skillscope_sandbox::ExecResult, Result<skillscope_tasks::Score, String>, Vec<String>),
    Tampered(Vec<String>),
    /// The verifier's container wrote more than the trial's disk allows (the bytes): the run
    /// was stopped there.
    OverDisk(u64),
}

/// What the agent changed: its workdir, and (for a verifier in place) the engine's own changes
/// from before the agent started, which are not the agent's.
#[derive(Clone, Copy)]
pub(super) struct AgentChanges<'a> {
    pub workdir: &'a [skillscope_sandbox::FileChange],
    pub engine_at_start: &'a [skillscope_sandbox::EngineChange],
    /// The workdir as read after the agent stopped, when it could be, and its files.
    pub archive: Option<&'a skillscope_sandbox::DirArchive>,
    pub after: Option<&'a skillscope_sandbox::Snapshot>,
    /// Where the verifier's runtime loads from, read before the agent started.
    pub runtime: &'a RuntimePaths,
}

pub(super) type Fresh = Result<skillscope_sandbox::Container, TrialError>;

/// A container for the verifier from the trial's image, without the arm's skill or harness
/// mounts, its workdir emptied so that files the agent deleted stay deleted once the agent's
/// workdir is copied in.
pub(super) async fn fresh_container(engine: &Engine, spec: ContainerSpec, workdir: &str) -> Fresh {
    let fresh = engine.create(&spec).await?;
    let ready = async {
        fresh.start().await?;
        let clear = vec!["rm".to_string(), "-rf".into(), "--".into(), workdir.to_string()];
        let quick = ExecOptions::seconds(60);
        let cleared = fresh.exec(&clear, quick, &mut |_, _| {}).await?;
        if cleared.exit_code != Some(0) {
            return Err(TrialError {
                infra: true,
                message: format!("could not clear {workdir} in the verifier's container: {}", cleared.stderr),
            });
        }
        Ok(())
    }
    .await;
    match ready {
        Ok(()) => Ok(fresh),
        Err(e) => {
            let _ = fresh.remove().await;
            Err(e)
        }
    }
}

/// Runs the verifier where the agent cannot have touched it: by default in the fresh container
/// (`fresh`, from the same image) that receives the agent's workdir and nothing else; for a task
/// that declares it, in the agent's (stopped) container, restarted, once its changes pass the
/// tamper check.
pub(super) async fn verify(
    c: &Claimed,
    agent: &skillscope_sandbox::Container,
    fresh: Option<tokio::sync::oneshot::Receiver<Fresh>>,
    changes: AgentChanges<'_>,
    log: &mut (dyn FnMut(OutputStream, &[u8]) + Send),
) -> Result<Verdict, TrialError> {
    let spec = &c.spec;
    let mut tampered = workspace_tampering(spec, &changes)?;
    if spec.verifier_in_place {
        let now = agent.engine_changes().await?;
        tampered.extend(tamper::in_place_tampering(&now, changes.engine_at_start, &spec.workdir, changes.runtime));
        tampered.sort();
        tampered.dedup();
        if !tampered.is_empty() {
            return Ok(Verdict::Tampered(tampered));
        }
        agent.start().await?;
        let diff = tamper::outside_workdir(&now, changes.engine_at_start, &spec.workdir);
        return Ok(match run_verifier(agent, spec, log).await? {
            Verdict::Scored(r, scored, _) => Verdict::Scored(r, scored, diff),
            tampered => tampered,
        });
    }
    if !tampered.is_empty() {
        return Ok(Verdict::Tampered(tampered));
    }
    let lost = || TrialError { infra: true, message: "the verifier's container was not prepared".into() };
    let fresh = fresh.ok_or_else(lost)?.await.map_err(|_| lost())??;
    match changes.archive {
        Some(archive) => fresh.put_dir(archive).await?,
        None => agent.copy_dir_to(&spec.workdir, &fresh).await?,
    }
    run_verifier(&fresh, spec, log).await
}

/// What in the agent's workdir its verifier would load as code ([`tamper::workspace_tampering`]).
fn workspace_tampering(spec: &TrialSpec, changes: &AgentChanges<'_>) -> Result<Vec<String>, TrialError> {
    let runner = match &spec.scoring {
        Some(skillscope_tasks::TaskVerifier::Pytest { .. }) => Runner::Isolated,
        _ => Runner::TaskScript,
    };
    let links = changes.archive.map(|a| a.links()).transpose()?.unwrap_or_default();
    let ws =
        tamper::Workspace { workdir: &spec.workdir, changes: changes.workdir, links: &links, after: changes.after };
    Ok(tamper::workspace_tampering(&ws, changes.runtime, runner))
}

/// Removes Python bytecode from `dirs` before a verifier runs there: it is a cache, rebuilt from
/// the sources, and one the agent wrote (with an old timestamp, beside tests uploaded later) would
/// run in place of those sources. Folders the agent made unwritable are opened first; bytecode
/// still there afterwards marks the trial tampered.
async fn purge_bytecode(
    container: &skillscope_sandbox::Container,
    dirs: &[String],
    spec: &TrialSpec,
) -> Result<Vec<String>, TrialError> {
    let quoted: Vec<String> = dirs.iter().map(|d| skillscope_tasks::sh_quote(d)).collect();
    let script = format!(
        "for d in {dirs}; do [ -d \"$d\" ] || continue; \
         find \"$d\" -type d ! -perm -u+w -exec chmod u+w {{}} + 2>/dev/null; \
         find \"$d\" \\( -name __pycache__ -o -name '*.pyc' -o -name '*.pyo' \\) -prune -exec rm -rf -- {{}} + 2>/dev/null; \
         find \"$d\" \\( -name __pycache__ -o -name '*.pyc' -o -name '*.pyo' \\) -print; done; echo end=ok",
        dirs = quoted.join(" ")
    );
    let cmd = vec!["/bin/sh".to_string(), "-c".into(), script];
    let r = container.exec(&cmd, spec.in_workdir(120), &mut |_, _| {}).await?;
    if r.timed_out || !r.stdout.ends_with("end=ok\n") {
        return Err(TrialError {
            infra: true,
            message: format!("could not clear bytecode before the verifier: {}", r.stderr.trim()),
        });
    }
    Ok(r.stdout.lines().filter(|l| *l != "end=ok").map(String::from).collect())
}

/// The folders a verifier reads its code from besides its runtime: the workdir and the folders it
/// is uploaded into.
fn verifier_dirs(spec: &TrialSpec, plan: Option<&skillscope_tasks::VerifierPlan>) -> Vec<String> {
    let mut dirs = vec![spec.workdir.clone()];
    let uploads = plan.map(|p| p.files_to_upload.as_slice()).unwrap_or_default();
    dirs.extend(uploads.iter().filter_map(|(path, _)| path.rsplit_once('/').map(|(d, _)| d.to_string())));
    dirs.sort();
    dirs.dedup();
    dirs
}

/// The task verifier when there is one, else the verifier command (exit 0 scores 1).
async fn run_verifier(
    container: &skillscope_sandbox::Container,
    spec: &TrialSpec,
    log: &mut (dyn FnMut(OutputStream, &[u8]) + Send),
) -> Result<Verdict, TrialError> {
    let opts = spec.in_workdir(spec.verifier_timeout_secs);
    if let Some(v) = &spec.scoring {
        return run_task_verifier(container, v, spec, log).await;
    }
    let left = purge_bytecode(container, &verifier_dirs(spec, None), spec).await?;
    if !left.is_empty() {
        return Ok(Verdict::Tampered(left));
    }
    let cmd = spec.verifier.as_ref().expect("verify runs only with a verifier");
    let r = match disk_watch::within(container, disk_watch::limit(spec), container.exec(cmd, opts, log)).await {
        Ok(r) => r?,
        Err(used) => return Ok(Verdict::OverDisk(used)),
    };
    // Scored as an exit-code task verifier: exit 0 is 1, anything else (or a timeout) 0.
    let exit_code = skillscope_tasks::TaskVerifier::ExitCode { command: cmd.join(" ") };
    let scored =
        skillscope_tasks::score(&exit_code, r.exit_code, r.timed_out, &r.stdout, None).map_err(|e| e.to_string());
    Ok(Verdict::Scored(r, scored, Vec::new()))
}

/// Clears bytecode, uploads a task verifier's files, runs it, fetches its report and scores the run.
async fn run_task_verifier(
    container: &skillscope_sandbox::Container,
    v: &skillscope_tasks::TaskVerifier,
    spec: &TrialSpec,
    log: &mut (dyn FnMut(OutputStream, &[u8]) + Send),
) -> Result<Verdict, TrialError> {
    let plan = skillscope_tasks::verifier_plan(v);
    let left = purge_bytecode(container, &verifier_dirs(spec, Some(&plan)), spec).await?;
    if !left.is_empty() {
        return Ok(Verdict::Tampered(left));
    }
    let owner = spec.owner();
    // The verifier runs as the trial's user: its files and report folders are theirs.
    for dir in &plan.output_dirs {
        container.upload_files(&[], dir, owner).await?;
    }
    for (path, bytes) in &plan.files_to_upload {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("/", path));
        let dir = if dir.is_empty() { "/" } else { dir };
        let mkdir = vec!["mkdir".to_string(), "-p".into(), dir.to_string()];
        container.exec(&mkdir, ExecOptions::seconds(30), &mut |_, _| {}).await?;
        container.upload_files(&[(name.to_string(), bytes.clone())], dir, owner).await?;
    }
    let run = container.exec(&plan.command, spec.in_workdir(spec.verifier_timeout_secs), log);
    let r = match disk_watch::within(container, disk_watch::limit(spec), run).await {
        Ok(r) => r?,
        Err(used) => return Ok(Verdict::OverDisk(used)),
    };
    let report = match &plan.report_path {
        Some(p) => container.download(p).await.ok().and_then(|files| files.into_iter().next().map(|(_, b)| b)),
        None => None,
    };
    let scored =
        skillscope_tasks::score(v, r.exit_code, r.timed_out, &r.stdout, report.as_deref()).map_err(|e| e.to_string());
    Ok(Verdict::Scored(r, scored, Vec::new()))
}
