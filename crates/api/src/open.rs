//! Opening a workspace for an adapter: the store's migrations, then the stages' own catch-up work.

use crate::errors::Result;
use skillscope_store::Workspace;
use std::path::PathBuf;

/// Opens (creating if needed) the workspace at `home` and indexes trajectories stored by older
/// versions, so every reader sees the current layout.
pub fn open(home: impl Into<PathBuf>) -> Result<Workspace> {
    let ws = Workspace::open(home)?;
    skillscope_runs::trajectories::index_pending(&mut ws.conn()?)?;
    Ok(ws)
}
