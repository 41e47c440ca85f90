//! `skillscope experiment export|import`: experiments as bundles (see `skillscope_api::bundle`).

use clap::Subcommand;
use skillscope_api::jobs::{self, JobEvent, JobOutcome, JobRequest};
use skillscope_api::{AppError, Workspace};
use std::path::PathBuf;

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
}

pub(crate) fn run(ws: &Workspace, cmd: ExperimentCmd) -> Result<(), AppError> {
    let request = match cmd {
        ExperimentCmd::Export { id, out } => {
            JobRequest::BundleExport { experiment_id: id, path: out.display().to_string() }
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
