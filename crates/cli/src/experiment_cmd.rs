//! `skillscope experiment export|import`: experiments as bundles (see `skillscope_api::bundle`).

use clap::Subcommand;
use skillscope_api::{bundle, AppError, Workspace};
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum ExperimentCmd {
    /// Write a finished experiment as a bundle (JSON, gzip when OUT ends in .gz; no keys, no local paths).
    Export {
        id: i64,
        #[arg(long)]
        out: PathBuf,
    },
    /// Import a bundle; the skill versions it uses must already be in the library.
    Import { file: PathBuf },
}

pub fn run(ws: &Workspace, cmd: ExperimentCmd) -> Result<(), AppError> {
    match cmd {
        ExperimentCmd::Export { id, out } => {
            bundle::write_file(&out, &bundle::export(ws, id, None)?)?;
            println!("{}", out.display());
        }
        ExperimentCmd::Import { file } => {
            let bytes = std::fs::read(&file).map_err(|e| AppError::io(file.display(), e))?;
            let id = bundle::import(ws, &bytes)?;
            println!("{id}");
        }
    }
    Ok(())
}
