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
