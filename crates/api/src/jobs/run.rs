//! Runs one job to its end: each step is persisted and emitted, and a cancel request is honoured
//! at the next step (between skills of an import, versions of a scan, while npm runs, between
//! images). A job cancelled mid-import commits nothing; a cancelled scan keeps what it stored.

use super::model::{JobEvent, JobOutcome, JobRequest, JobState};
use super::store;
use crate::errors::{AppError, ErrorCode, Result};
use skillscope_experiments::{bundle, calibration, drafts, judging};
use skillscope_library::error::LibraryError;
use skillscope_library::import::{import, Progress};
use skillscope_library::scans;
use skillscope_runs::harnesses;
use skillscope_sandbox::{bootstrap, Engine};
use skillscope_store::workspace::Workspace;
use skillscope_store::StoreError;
use std::sync::atomic::{AtomicBool, Ordering};

/// The job being run: its latest event, where events go and whether it was asked to stop.
struct Step<'a> {
    ws: &'a Workspace,
    ev: JobEvent,
    emit: &'a dyn Fn(&JobEvent),
    cancel: &'a AtomicBool,
}

impl Step<'_> {
    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Records progress; fails once the job was asked to stop, which unwinds the work.
    fn progress(&mut self, done: u32, total: u32, message: String) -> Result<()> {
        self.ev.done = done;
        self.ev.total = total;
        self.ev.message = message;
        self.publish();
        if self.cancelled() {
            return Err(AppError::new(ErrorCode::Conflict, "cancelled"));
        }
        Ok(())
    }

    fn publish(&self) {
        // A failed progress write must not abort the job; the final state is written again at the end.
        if let Err(e) = store::save(self.ws, &self.ev) {
            tracing::warn!("could not record progress of job {}: {e}", self.ev.job_id);
        }
        (self.emit)(&self.ev);
    }
}

/// Runs the job `ev` (as created by [`store::create`]) and returns its final event.
pub fn run(ws: &Workspace, ev: JobEvent, req: &JobRequest, cancel: &AtomicBool, emit: &dyn Fn(&JobEvent)) -> JobEvent {
    let mut step = Step { ws, ev, emit, cancel };
    step.ev.state = JobState::Running;
    step.publish();
    let result = execute(&mut step, req);
    let ev = &mut step.ev;
    match result {
        Ok(outcome) => {
            ev.state = JobState::Succeeded;
            ev.message = finished_message(&outcome);
            ev.outcome = Some(outcome);
        }
        Err(_) if step.cancel.load(Ordering::Relaxed) => {
            ev.state = JobState::Cancelled;
            // An import cancelled during its review has already said what it kept.
            if ev.outcome.is_none() {
                ev.message = cancelled_message(req).into();
            }
        }
        Err(e) => {
            ev.state = JobState::Failed;
            if ev.outcome.is_none() {
                ev.message = failed_message(req).into();
            }
            ev.error = Some(e);
        }
    }
    step.publish();
    step.ev
}

fn execute(step: &mut Step, req: &JobRequest) -> Result<JobOutcome> {
    let ws = step.ws;
    match req {
        JobRequest::Import(request) => {
            let outcome = import(ws, request, &mut |p: Progress| {
                step.progress(p.done, p.total, p.message).map_err(|_| LibraryError::Cancelled)
            })?;
            let n = outcome.skills.len();
            // The import is committed: a failed or cancelled review after it keeps the outcome.
            step.ev.outcome = Some(JobOutcome::Import(outcome));
            scan_library(step).map_err(|e| {
                step.ev.message = format!("Imported {n} skill(s), but the static review did not finish");
                e.context("static review after import")
            })?;
            Ok(step.ev.outcome.take().expect("set above"))
        }
        JobRequest::ScanLibrary => Ok(JobOutcome::ScanLibrary { scanned: scan_library(step)? }),
        JobRequest::HarnessInstall { harness } => {
            let what = format!("Installing {} {} with npm", harness.as_str(), harness.version());
            step.progress(0, 1, what.clone())?;
            let mut watch = |bytes: u64| {
                let mb = bytes as f64 / 1e6;
                step.progress(0, 1, format!("{what}: {mb:.1} MB written so far")).is_ok()
            };
            let status = harnesses::install(ws, *harness, &mut watch)?;
            Ok(JobOutcome::HarnessInstall(status))
        }
        JobRequest::ImagePreparation { debian } => prepare_images(step, *debian),
        JobRequest::ImagePull { image } => pull_image(step, image),
        JobRequest::BundleExport { experiment_id, path } => {
            step.progress(0, 1, format!("Exporting experiment #{experiment_id}"))?;
            let path = match path {
                Some(path) => std::path::PathBuf::from(path),
                None => ws
                    .export_path(&format!("experiment-{experiment_id}-bundle"), "json.gz")
                    .map_err(StoreError::from)?,
            };
            bundle::write_file(&path, &bundle::export(ws, *experiment_id, None)?)?;
            Ok(JobOutcome::BundleExport { path: path.display().to_string() })
        }
        JobRequest::BundleImport { path } => {
            step.progress(0, 1, format!("Importing {path}"))?;
            let bytes = std::fs::read(path).map_err(|e| AppError::io(path, e))?;
            Ok(JobOutcome::BundleImport { experiment_id: bundle::import(ws, &bytes)? })
        }
        JobRequest::Judge { experiment_id } => {
            let rt = crate::runtime::current_thread("the judge")?;
            let mut progress =
                |done, total| step.progress(done, total, format!("Judged {done} of {total} verdict(s)")).is_ok();
            Ok(JobOutcome::Judge(rt.block_on(judging::judge_pending(ws, *experiment_id, &mut progress))?))
        }
        JobRequest::CalibrateJudge { experiment_id, gradings, sample } => {
            let rt = crate::runtime::current_thread("the judge")?;
            let mut progress = |done, total| {
                step.progress(done, total, format!("Graded {done} of {total} for the calibration")).is_ok()
            };
            let c = calibration::calibrate(ws, *experiment_id, *gradings, *sample, &mut progress);
            Ok(JobOutcome::CalibrateJudge(Box::new(rt.block_on(c)?)))
        }
        JobRequest::DraftTasks(r) => {
            let steps = 1 + u32::from(r.repository.is_some());
            if steps == 2 {
                step.progress(0, steps, "Building the repository's environment".into())?;
            }
            let w = &r.writer;
            let what = format!("{} · {} is drafting {} {}", w.provider, w.model, r.count, r.draft_kind.as_str());
            step.progress(steps - 1, steps, what)?;
            let rt = crate::runtime::current_thread("the task writer")?;
            Ok(JobOutcome::DraftTasks(Box::new(rt.block_on(drafts::generate(ws, r))?)))
        }
    }
}

fn scan_library(step: &mut Step) -> Result<u32> {
    let ws = step.ws;
    let mut progress = |done, total| {
        step.progress(done, total, format!("Reviewed {done}/{total}")).map_err(|_| LibraryError::Cancelled)
    };
    Ok(scans::scan_pending(ws, &mut progress)?)
}

/// Builds the base images one after the other; a cancel takes effect between them.
fn prepare_images(step: &mut Step, debian: bool) -> Result<JobOutcome> {
    let total = if debian { 2 } else { 1 };
    let runtime = crate::runtime::current_thread("the image job")?;
    let mut images = Vec::new();
    step.progress(0, total, format!("Building {}", bootstrap::BUSYBOX_TAG))?;
    let engine = runtime.block_on(Engine::connect())?;
    let id = runtime.block_on(bootstrap::busybox(&engine))?;
    images.push(format!("{} {id}", bootstrap::BUSYBOX_TAG));
    if debian {
        step.progress(
            1,
            total,
            format!("Building {} (debootstrap; minutes the first time)", bootstrap::DEBIAN_PYTHON_TAG),
        )?;
        let mut log = |m: &str| tracing::info!("{m}");
        let id = runtime.block_on(bootstrap::debian_python(&engine, &mut log))?;
        images.push(format!("{} {id}", bootstrap::DEBIAN_PYTHON_TAG));
    }
    step.progress(total, total, "Images ready".into())?;
    Ok(JobOutcome::ImagePreparation { images })
}

/// Pulls one image, its status lines as progress (at most a few a second); a cancel stops the pull.
fn pull_image(step: &mut Step, image: &str) -> Result<JobOutcome> {
    let image = image.trim();
    if image.is_empty() || image.chars().any(char::is_whitespace) {
        return Err(AppError::invalid_input(format!("{image:?} is not an image reference (e.g. python:3.12-slim)")));
    }
    let runtime = crate::runtime::current_thread("the image pull")?;
    step.progress(0, 1, format!("Pulling {image}"))?;
    let engine = runtime.block_on(Engine::connect())?;
    let cancel = step.cancel;
    let mut last = std::time::Instant::now();
    let mut report = |line: &str| {
        if last.elapsed() >= std::time::Duration::from_millis(250) {
            last = std::time::Instant::now();
            let _ = step.progress(0, 1, line.to_string());
        }
    };
    let stopped = async {
        while !cancel.load(Ordering::Relaxed) {
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    };
    let id = runtime.block_on(async {
        tokio::select! {
            pulled = engine.pull(image, &mut report) => pulled.map_err(AppError::from),
            () = stopped => Err(AppError::new(ErrorCode::Conflict, "cancelled")),
        }
    })?;
    Ok(JobOutcome::ImagePull { image: image.to_string(), id })
}

fn finished_message(outcome: &JobOutcome) -> String {
    match outcome {
        JobOutcome::Import(o) => format!("Imported {} skill(s)", o.skills.len()),
        JobOutcome::ScanLibrary { scanned } => format!("Reviewed {scanned} version(s)"),
        JobOutcome::HarnessInstall(s) => format!("{} {} is installed", s.harness.as_str(), s.version),
        JobOutcome::ImagePreparation { images } => format!("Built {} image(s)", images.len()),
        JobOutcome::ImagePull { image, id } => format!("Pulled {image} ({id})"),
        JobOutcome::BundleExport { path } => format!("Wrote {path}"),
        JobOutcome::BundleImport { experiment_id } => format!("Imported experiment #{experiment_id}"),
        JobOutcome::Judge(j) => {
            format!("Graded {} arm(s), gave {} the rubric, compared {} pair(s)", j.graded, j.rubric, j.compared)
        }
        JobOutcome::CalibrateJudge(c) => format!("Calibrated the judge ({})", c.judge),
        JobOutcome::DraftTasks(g) => {
            format!("Drafted {} task(s) into task set #{}", g.drafts.len(), g.import.task_set.id)
        }
    }
}

fn failed_message(req: &JobRequest) -> &'static str {
    match req {
        JobRequest::Import(_) => "Import failed; nothing was changed",
        JobRequest::ScanLibrary => "The review stopped; versions reviewed before the error keep their results",
        JobRequest::HarnessInstall { .. } => "The install failed",
        JobRequest::ImagePreparation { .. } => "The image build failed",
        JobRequest::ImagePull { .. } => "The pull failed",
        JobRequest::BundleExport { .. } => "The export failed",
        JobRequest::BundleImport { .. } => "The bundle import failed; nothing was changed",
        JobRequest::Judge { .. } => "The judging stopped; the verdicts given before the error are kept",
        JobRequest::CalibrateJudge { .. } => "The calibration stopped; the latest one before it is kept",
        JobRequest::DraftTasks(_) => "No task was drafted; nothing was stored",
    }
}

fn cancelled_message(req: &JobRequest) -> &'static str {
    match req {
        JobRequest::Import(_) => "Cancelled; nothing was imported",
        JobRequest::ScanLibrary => "Cancelled; versions reviewed before the cancel keep their results",
        JobRequest::HarnessInstall { .. } => "Cancelled; npm was stopped",
        JobRequest::ImagePreparation { .. } => "Cancelled; images built before the cancel are kept",
        JobRequest::ImagePull { .. } => "Cancelled; the pull was stopped",
        JobRequest::BundleExport { .. } => "Cancelled before the export started",
        JobRequest::BundleImport { .. } => "Cancelled before the import started",
        JobRequest::Judge { .. } => "Cancelled; the verdicts given before the cancel are kept",
        JobRequest::CalibrateJudge { .. } => "Cancelled; the latest calibration before it is kept",
        JobRequest::DraftTasks(_) => "Cancelled; nothing was stored",
    }
}
