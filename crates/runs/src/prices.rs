//! The workspace's model prices: `prices.toml` when it exists, else the built-in table. Read for
//! every trial, so an edit applies to the next one.

use crate::error::{Result, RunsError};
use skillscope_models::PriceTable;
use skillscope_store::{IoError, Workspace};
use std::path::PathBuf;

pub fn path(ws: &Workspace) -> PathBuf {
    ws.home().join("prices.toml")
}

/// The table in force, and whether it comes from `prices.toml`.
pub fn load(ws: &Workspace) -> Result<(PriceTable, bool)> {
    let path = path(ws);
    match std::fs::read_to_string(&path) {
        Ok(text) => PriceTable::from_toml_str(&text)
            .map(|t| (t, true))
            .map_err(|e| RunsError::PriceTable { path: path.display().to_string(), source: Box::new(e) }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((PriceTable::default(), false)),
        Err(e) => Err(IoError::new(path.display(), e).into()),
    }
}

/// Writes `prices.toml` whole.
pub fn save(ws: &Workspace, table: &PriceTable) -> Result<()> {
    let path = path(ws);
    let text = table.to_toml_string().map_err(|e| RunsError::Internal(format!("price table: {e}")))?;
    std::fs::write(&path, text).map_err(|e| IoError::new(path.display(), e))?;
    Ok(())
}
