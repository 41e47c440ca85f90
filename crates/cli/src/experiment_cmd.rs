//! `skillscope experiment export|import|pairs|csv`: experiments as bundles (see
//! `skillscope_api::bundle`), every pair with its fairness record and outcome, pairs or trials
//! as CSV.

use clap::{Subcommand, ValueEnum};
use skillscope_api::experiments::csv_export::CsvTable;
use skillscope_api::experiments::{self, pair_record::PairRecord};
use skillscope_api::jobs::{self, JobEvent, JobOutcome, JobRequest};
use skillscope_api::{AppError, Workspace};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Table {
    Pairs,
    Trials,
}

#[derive(Subcommand)]
pub(crate) enum ExperimentCmd {
    /// Write a finished experiment as a bundle (JSON, gzip when OUT ends in .gz; no keys, no local paths).
    Export {
        id: i64,
        #[arg(long)]
        out: PathBuf,
    },
    /// Import a bundle; the skill versions it uses must already be in the library.
    Import { file: PathBuf },
    /// The experiment's pairs or trials as CSV on stdout (one row per pair, or per trial).
    Csv {
        id: i64,
        #[arg(long, value_enum, default_value = "pairs")]
        table: Table,
    },
    /// ACES's deterministic runtime metrics of each scored pair's arms (security, skill execution,
    /// skill efficiency, from the trajectories), their Skill Lift with the paired statistics, and
    /// pass@k per arm.
    Measures {
        id: i64,
        #[arg(long)]
        json: bool,
    },
    /// Calibrate the experiment's judge: graded arms graded again (repeatability), and
    /// verifier-scored arms graded by the judge (agreement with the verifiers).
    Calibrate {
        id: i64,
        /// Gradings per arm, the stored one included.
        #[arg(long, default_value_t = 3)]
        gradings: u32,
        /// The most arms per check (the first in pair order).
        #[arg(long, default_value_t = 20)]
        sample: u32,
        #[arg(long)]
        json: bool,
    },
    /// Every pair: scored or why not, what each arm saw and ran (fairness), and each arm's outcome.
    Pairs {
        id: i64,
        /// One JSON array of pair records instead of a table.
        #[arg(long)]
        json: bool,
    },
}

pub(crate) fn run(ws: &Workspace, cmd: ExperimentCmd) -> Result<(), AppError> {
    let request = match cmd {
        ExperimentCmd::Pairs { id, json } => return pairs(ws, id, json),
        ExperimentCmd::Measures { id, json } => return measures(ws, id, json),
        ExperimentCmd::Calibrate { id, gradings, sample, json } => return calibrate(ws, id, gradings, sample, json),
        ExperimentCmd::Csv { id, table } => {
            let table = match table {
                Table::Pairs => CsvTable::Pairs,
                Table::Trials => CsvTable::Trials,
            };
            print!("{}", experiments::csv_export::to_csv(ws, id, table)?);
            return Ok(());
        }
        ExperimentCmd::Export { id, out } => {
            JobRequest::BundleExport { experiment_id: id, path: Some(out.display().to_string()) }
        }
        ExperimentCmd::Import { file } => JobRequest::BundleImport { path: file.display().to_string() },
    };
    match jobs::run_here(ws, &request, &|_: &JobEvent| {})? {
        JobOutcome::BundleExport { path } => println!("{path}"),
        JobOutcome::BundleImport { experiment_id } => println!("{experiment_id}"),
        other => unreachable!("a bundle job ends with a bundle outcome, not {other:?}"),
    }
    Ok(())
}

fn pairs(ws: &Workspace, id: i64, json: bool) -> Result<(), AppError> {
    let pairs = experiments::pairs(ws, id)?;
    if json {
        let records: Vec<PairRecord> = pairs.iter().map(PairRecord::from).collect();
        println!("{}", serde_json::to_string_pretty(&records)?);
        return Ok(());
    }
    for p in &pairs {
        let score = |s: Option<f64>| s.map_or("-".to_string(), |s| format!("{s:.2}"));
        println!(
            "#{} {} · {} · {} · r{}: without {} {:?}, with {} {:?}{}",
            p.id,
            p.task,
            p.config,
            p.condition_label(),
            p.repeat,
            score(p.without.score),
            p.without.state,
            score(p.with.score),
            p.with.state,
            if p.excluded.is_empty() { String::new() } else { format!(" · excluded: {}", p.excluded.join("; ")) }
        );
    }
    Ok(())
}

fn measures(ws: &Workspace, id: i64, json: bool) -> Result<(), AppError> {
    let m = experiments::measures::experiment_measures(ws, id)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&m)?);
        return Ok(());
    }
    println!("{}\n{}\n", m.method, m.judged_method);
    println!("Skill Lift (with − without, points; 95% paired bootstrap CI; sign-flip q):");
    for metric in &m.metrics {
        for s in metric.report.skills.iter().chain(&metric.report.groups) {
            println!(
                "  {:<17} {} · {}: {:.1} → {:.1}, lift {:+.1} [{:+.1}, {:+.1}], q {:.3}, n {}",
                metric.measure,
                s.skill,
                s.config,
                s.mean_without,
                s.mean_with,
                s.delta,
                s.ci_low,
                s.ci_high,
                s.q_bh,
                s.n
            );
        }
    }
    println!("pass@k (a task passes when some repeat scores ≥ {}):", experiments::measures::PASS_THRESHOLD);
    for p in &m.pass_at_k {
        let k = if p.k_min == p.k_max { p.k_max.to_string() } else { format!("{}–{}", p.k_min, p.k_max) };
        println!(
            "  {} · {}: k {k}, {} task(s): {:.2} → {:.2}, lift {:+.2}",
            p.skill, p.config, p.tasks, p.without, p.with, p.lift
        );
    }
    print_preference(&m.preference);
    print_activation(&m.activation, &m.activation_method);
    for line in &m.not_measured {
        println!("not measured: {line}");
    }
    Ok(())
}

/// Activation accuracy per skill and configuration, each share with its Wilson interval.
pub(crate) fn print_activation(rows: &[experiments::activation::Activation], method: &str) {
    if rows.is_empty() {
        return;
    }
    println!("Activation accuracy ({method}):");
    for a in rows {
        println!(
            "  {} · {}: precision {}, recall {}, false activations {}",
            a.skill, a.config, a.precision, a.recall, a.false_activation_rate
        );
        for why in &a.left_out {
            println!("    left out: {why}");
        }
    }
}

fn calibrate(ws: &Workspace, id: i64, gradings: u32, sample: u32, json: bool) -> Result<(), AppError> {
    let rt = crate::runtime()?;
    let mut progress = |done, total| {
        eprint!("\rgraded {done} of {total} for the calibration");
        true
    };
    let c = rt.block_on(experiments::calibration::calibrate(ws, id, gradings, sample, &mut progress))?;
    eprintln!();
    if json {
        println!("{}", serde_json::to_string_pretty(&c)?);
        return Ok(());
    }
    let pct = |x: Option<f64>| x.map_or("–".to_string(), |v| format!("{:.0}%", v * 100.0));
    let num = |x: Option<f64>| x.map_or("–".to_string(), |v| format!("{v:.3}"));
    let (r, v) = (&c.repeatability, &c.verifier);
    println!("Calibration of {} ({})", c.judge, c.method);
    println!(
        "  repeatability: {} arm(s) × {} gradings: {} of {} expectation verdicts unanimous ({}), score SD {}, widest range {}, {} NO SCORE",
        r.arms, r.gradings, r.unanimous, r.expectations, pct(r.unanimous_rate), num(r.mean_score_sd), num(r.max_score_range), r.no_score
    );
    println!(
        "  agreement with verifiers: {} of {} arm(s) ({} [{}, {}]), kappa {}; judge-only passes {}, verifier-only passes {}, {} NO SCORE",
        v.agree, v.arms, pct(v.rate), pct(v.ci_low), pct(v.ci_high), num(v.kappa), v.judge_only_pass, v.verifier_only_pass, v.no_score
    );
    Ok(())
}

/// The judge's preferences per skill, with the method; nothing without a judge.
pub(crate) fn print_preference(rows: &[experiments::preference::PreferenceSummary]) {
    if rows.is_empty() {
        return;
    }
    println!("Pairwise preference ({}):", experiments::preference::METHOD);
    let pct = |x: Option<f64>| x.map_or("–".to_string(), |v| format!("{:.0}%", v * 100.0));
    for r in rows {
        println!(
            "  {} · {}: with preferred {} [{}, {}] ({} with, {} without, {} tie(s) of {} compared), position flips {}{}",
            r.skill,
            r.config,
            pct(r.rate),
            pct(r.ci_low),
            pct(r.ci_high),
            r.with,
            r.without,
            r.ties,
            r.compared,
            pct(r.flip_rate),
            if r.no_score > 0 { format!(", {} NO SCORE", r.no_score) } else { String::new() }
        );
    }
}
