//! The demo experiment: produced by `skillscope demo generate` (the real pipeline against the
//! scripted model server), committed at `fixtures/demo/experiment.json`, embedded in the binary
//! and imported once into a new workspace so every view has something to show.

use crate::bundle;
use crate::design::{Provenance, ProvenanceKind};
use crate::error::{ExperimentError, Result};
use skillscope_store::db;
use skillscope_store::now;
use skillscope_store::workspace::Workspace;

const SEEDED: &str = "demo_seeded";

/// How demo evidence introduces itself wherever it is shown.
pub fn provenance() -> Provenance {
    let at = now();
    Provenance {
        kind: ProvenanceKind::Demo,
        sentence: format!(
            "Demo data: produced on {} by `skillscope demo generate`, which ran the real pipeline (Docker sandbox, built-in agent, verifiers) against the scripted model server — not a real model.",
            &at[..10]
        ),
        produced_at: at,
        produced_by: format!("skillscope demo generate (Skillscope {})", env!("CARGO_PKG_VERSION")),
        imported_at: None,
    }
}

/// The committed demo bundle (regenerate with `skillscope demo generate --out fixtures/demo/experiment.json.gz`).
pub const BUNDLE: &[u8] = include_bytes!("../../../fixtures/demo/experiment.json.gz");

/// Imports the demo experiment once per workspace, after the samples it evaluates were seeded;
/// later starts leave it alone, even if the user deleted it.
pub fn seed_once(ws: &Workspace) -> Result<Option<i64>> {
    let conn = ws.conn()?;
    if db::get_meta(&conn, SEEDED)?.is_some() {
        return Ok(None);
    }
    match bundle::import(ws, BUNDLE) {
        Ok(id) => {
            db::set_meta(&conn, SEEDED, &now())?;
            Ok(Some(id))
        }
        // The samples it evaluates are gone from this library: that will not change by itself,
        // so say it once and stop trying.
        Err(e @ ExperimentError::NotFound(_)) => {
            db::set_meta(&conn, SEEDED, &format!("skipped: {e}"))?;
            Err(e.context("importing the demo experiment (not tried again)"))
        }
        Err(e) => Err(e.context("importing the demo experiment")),
    }
}
