//! `skillscope queue ...`: inspect and steer the run queue, run its worker, and benchmark it.

use clap::Subcommand;
use skillscope_api::queue::model::{QueueEvent, TrialSpec, TrialState};
use skillscope_api::queue::skill_roots::{self, Search};
use skillscope_api::queue::{store, worker};
use skillscope_api::{AppError, ErrorCode, Workspace};
use std::sync::Arc;
use std::time::Instant;

#[derive(Subcommand)]
pub(crate) enum QueueCmd {
    /// Queue state: paused or not, engine problems, trial counts, runs.
    Status {
        #[arg(long)]
        json: bool,
    },
    /// Stop starting new trials (running ones finish).
    Pause {
        #[arg(long)]
        json: bool,
    },
    /// Start trials again.
    Resume {
        #[arg(long)]
        json: bool,
    },
    /// Cancel one trial, or every unfinished trial of a run.
    Cancel {
        #[arg(long, conflicts_with = "run", required_unless_present = "run")]
        trial: Option<i64>,
        #[arg(long)]
        run: Option<i64>,
        #[arg(long)]
        json: bool,
    },
    /// Run the queue's worker in this process until nothing is queued or running.
    Work,
    /// Push N trials of a fixed command through the real queue and compare with `docker run --rm`.
    Bench {
        #[arg(long, default_value_t = 100)]
        trials: u32,
        #[arg(long, default_value_t = 2)]
        concurrency: u32,
        #[arg(long, default_value = "skillscope/busybox:1")]
        image: String,
        /// `docker run --rm IMAGE true` samples for the floor.
        #[arg(long, default_value_t = 10)]
        floor_samples: u32,
        /// Give each trial a verifier (`true`), which runs in a fresh container of its own: two
        /// containers per trial.
        #[arg(long)]
        verifier: bool,
    },
}

fn print_log(ev: QueueEvent) {
    match ev {
        QueueEvent::Log { text, stream, .. } if stream == "stderr" => eprint!("{text}"),
        QueueEvent::Log { text, .. } => print!("{text}"),
        QueueEvent::Trial { trial } if trial.state.is_final() => {
            eprintln!("trial {} ({}): {:?} {}", trial.id, trial.label, trial.state, trial.message)
        }
        QueueEvent::Status { status } => {
            if let Some(p) = status.engine_problem {
                eprintln!("queue waiting: {p}");
            }
        }
        _ => {}
    }
}

pub(crate) fn run(ws: &mut Workspace, cmd: QueueCmd) -> Result<bool, AppError> {
    match cmd {
        QueueCmd::Status { json } => {
            let status = store::status(ws)?;
            let runs = store::runs(ws)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "status": status, "runs": runs }))?);
                return Ok(true);
            }
            let c = &status.counts;
            println!(
                "{} · concurrency {} · {} queued, {} running, {} passed, {} failed, {} agent errors, {} infra errors, {} verifier tampered, {} cancelled",
                if status.paused { "paused" } else { "active" },
                status.concurrency, c.queued, c.running, c.passed, c.failed, c.agent_error, c.infra_error, c.verifier_tampered, c.cancelled
            );
            if let Some(p) = status.engine_problem {
                println!("engine: {p}");
            }
            for r in runs {
                println!("run #{} {:<30} {}/{} finished", r.id, r.name, r.counts.finished(), r.counts.total());
            }
        }
        QueueCmd::Pause { json } | QueueCmd::Resume { json } => {
            let paused = matches!(cmd, QueueCmd::Pause { .. });
            store::set_paused(ws, paused)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&store::status(ws)?)?);
            } else if paused {
                println!("queue paused: running trials finish, no new ones start");
            } else {
                println!("queue resumed");
            }
        }
        QueueCmd::Cancel { trial, run, json } => {
            let n = match (trial, run) {
                (Some(t), _) => u32::from(store::cancel_trial(ws, t)?),
                (_, Some(r)) => store::cancel_run(ws, r)?,
                _ => unreachable!("clap requires one"),
            };
            if json {
                println!("{}", serde_json::json!({ "cancelled": n }));
            } else {
                println!("cancelled {n} trial(s)");
            }
        }
        QueueCmd::Work => {
            crate::runtime()?.block_on(worker::run(
                ws.clone(),
                worker::WorkerOptions { drain: true, ..Default::default() },
                Arc::new(print_log),
            ))?;
        }
        QueueCmd::Bench { trials, concurrency, image, floor_samples, verifier } => {
            let b = Bench { trials, concurrency, image, floor_samples, verifier };
            return bench(ws, &b).map(|()| true);
        }
    }
    Ok(true)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One `docker run --rm --network none IMAGE true`, timed.
fn docker_run(image: &str) -> Result<f64, AppError> {
    let t = Instant::now();
    let st = std::process::Command::new("docker")
        .args(["run", "--rm", "--network", "none", image, "true"])
        .status()
        .map_err(|e| AppError::new(ErrorCode::Internal, format!("cannot run the docker CLI: {e}")))?;
    if !st.success() {
        return Err(AppError::new(ErrorCode::Internal, format!("`docker run --rm {image} true` failed ({st})")));
    }
    Ok(t.elapsed().as_secs_f64())
}

/// The raw floor: median of sequential `docker run --rm`.
fn docker_run_floor(image: &str, samples: u32) -> Result<f64, AppError> {
    let times = (0..samples.max(1)).map(|_| docker_run(image)).collect::<Result<Vec<_>, _>>()?;
    Ok(median(times))
}

/// Wall time of `trials` raw `docker run --rm` at `concurrency`: what this machine's engine can
/// do in parallel, without any queue.
fn docker_run_parallel(image: &str, trials: u32, concurrency: u32) -> Result<f64, AppError> {
    let t = Instant::now();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..concurrency)
            .map(|slot| {
                s.spawn(move || {
                    (slot..trials).step_by(concurrency as usize).try_for_each(|_| docker_run(image).map(drop))
                })
            })
            .collect();
        handles.into_iter().try_for_each(|h| h.join().expect("benchmark thread"))
    })?;
    Ok(t.elapsed().as_secs_f64())
}

struct Bench {
    trials: u32,
    concurrency: u32,
    image: String,
    floor_samples: u32,
    verifier: bool,
}

/// Median time of the clean-arms step (empty every skill root, list what is left as root and as
/// the trial's user, search for SKILL.md as `search` says) in a running container of `image`, over
/// `samples` runs.
fn clean_arms_cost(image: &str, samples: u32, search: Search) -> Result<f64, AppError> {
    use skillscope_api::sandbox::{ContainerSpec, Engine};
    let spec = TrialSpec::command(image, Vec::new());
    let container_spec = ContainerSpec { workdir: Some(spec.workdir.clone()), ..ContainerSpec::new(image) };
    let clean = skill_roots::Clean::new(&spec, &container_spec, Default::default());
    crate::runtime()?.block_on(async {
        let engine = Engine::connect().await?;
        let c = engine.create(&container_spec).await?;
        let timed = async {
            c.start().await?;
            let mut times = Vec::new();
            for _ in 0..samples.max(1) {
                let t = Instant::now();
                clean.list(&c, search).await.map_err(|e| match e {
                    skill_roots::ListError::Engine(e) => e.into(),
                    skill_roots::ListError::Unverified(cause) => AppError::new(ErrorCode::Internal, cause),
                })?;
                times.push(t.elapsed().as_secs_f64());
            }
            Ok::<_, AppError>(median(times))
        }
        .await;
        let _ = c.remove().await;
        timed
    })
}

fn bench(ws: &mut Workspace, b: &Bench) -> Result<(), AppError> {
    let (trials, concurrency, image, floor_samples) = (b.trials, b.concurrency, b.image.as_str(), b.floor_samples);
    ws.edit_config(|c| c.queue.concurrency = Some(concurrency));
    let floor = docker_run_floor(image, floor_samples)?;
    let spec = TrialSpec {
        verifier: b.verifier.then(|| vec!["true".to_string()]),
        ..TrialSpec::command(image, vec!["true".into()])
    };
    let containers = if b.verifier { 2.0 } else { 1.0 };
    let specs: Vec<_> = (0..trials).map(|i| (format!("bench-{i}"), spec.clone())).collect();
    let run_id = store::create_run(ws, "queue benchmark", &specs)?;
    let t = Instant::now();
    crate::runtime()?.block_on(worker::run(
        ws.clone(),
        worker::WorkerOptions { drain: true, ..Default::default() },
        Arc::new(|_| {}),
    ))?;
    let wall = t.elapsed().as_secs_f64();
    let done = store::trials(ws, run_id)?;
    let passed = done.iter().filter(|t| t.state == TrialState::Passed).count();
    let per_trial = wall * f64::from(concurrency) / f64::from(trials);
    let ideal = f64::from(trials) * containers * floor / f64::from(concurrency);
    println!("trials: {trials} at concurrency {concurrency}, {passed} passed, {containers} container(s) each");
    println!("raw floor (docker run --rm {image} true, median of {floor_samples}): {:.0} ms", floor * 1e3);
    println!(
        "queue: wall {wall:.2} s; per trial per slot {:.0} ms = {:.2}x the floor per container",
        per_trial * 1e3,
        per_trial / (containers * floor)
    );
    println!("wall vs ideal {ideal:.2} s (trials x containers x floor / concurrency): {:.2}x", wall / ideal);
    let raw = docker_run_parallel(image, trials * containers as u32, concurrency)?;
    println!(
        "raw docker run --rm, the same {} containers at concurrency {concurrency}: wall {raw:.2} s; queue / raw = {:.2}x",
        trials * containers as u32,
        wall / raw
    );
    for (search, what) in [(Search::Everywhere, "whole filesystem, once per image"), (Search::Workdir, "workdir only")]
    {
        println!(
            "clean-arms step (wipe, listing as root and as the trial's user, SKILL.md search of the {what}) in {image}, median of 10: {:.0} ms",
            clean_arms_cost(image, 10, search)? * 1e3
        );
    }
    if passed as u32 != trials {
        return Err(AppError::new(ErrorCode::Internal, format!("only {passed} of {trials} trials passed")));
    }
    Ok(())
}
