//! The workspace: one directory holding the database, the content-addressed file store and settings.
//! The CLI and the app open the same directory.

use crate::blobs::BlobStore;
use crate::config::Config;
use crate::db;
use crate::error::{IoError, Result, StoreError};
use rusqlite::Connection;
use serde::Serialize;
use std::path::{Path, PathBuf};
use ts_rs::TS;

pub const HOME_ENV: &str = "SKILLSCOPE_HOME";

#[derive(Debug, Clone)]
pub struct Workspace {
    home: PathBuf,
    config: Config,
    blobs: BlobStore,
}

#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct WorkspaceInfo {
    pub home: String,
    pub database: String,
    pub schema_version: u32,
    pub skill_count: u32,
}

/// `$SKILLSCOPE_HOME`, else the XDG data directory (`~/.local/share/skillscope`).
pub fn default_home() -> Result<PathBuf> {
    if let Some(h) = std::env::var_os(HOME_ENV).filter(|h| !h.is_empty()) {
        return Ok(PathBuf::from(h));
    }
    dirs::data_dir().map(|d| d.join("skillscope")).ok_or(StoreError::NoHome(HOME_ENV))
}

impl Workspace {
    /// Creates the directory layout if needed and migrates the database.
    pub fn open(home: impl Into<PathBuf>) -> Result<Self> {
        let home = home.into();
        std::fs::create_dir_all(&home).map_err(|e| IoError::new(home.display(), e))?;
        let home = home.canonicalize().map_err(|e| IoError::new(home.display(), e))?;
        let config = Config::load(&home.join("config.toml"))?;
        let blobs = BlobStore::open(home.join("objects"))?;
        let ws = Self { home, config, blobs };
        let mut conn = db::connect(&ws.db_path())?;
        db::migrate(&mut conn)?;
        Ok(ws)
    }

    pub fn home(&self) -> &Path {
        &self.home
    }
    /// Where reports and scan exports are written (the app may open and reveal files here).
    pub fn exports_dir(&self) -> PathBuf {
        self.home.join("exports")
    }
    pub fn db_path(&self) -> PathBuf {
        self.home.join("skillscope.db")
    }
    pub fn config(&self) -> &Config {
        &self.config
    }
    pub fn config_mut(&mut self) -> &mut Config {
        &mut self.config
    }
    pub fn blobs(&self) -> &BlobStore {
        &self.blobs
    }
    /// Scratch space inside the workspace (git clones), so nothing is written outside it.
    pub fn staging_dir(&self) -> Result<tempfile::TempDir> {
        let dir = self.home.join("staging");
        std::fs::create_dir_all(&dir).map_err(|e| IoError::new(dir.display(), e))?;
        Ok(tempfile::tempdir_in(&dir).map_err(|e| IoError::new(dir.display(), e))?)
    }

    /// A fresh connection; cheap, and lets app threads work concurrently under WAL.
    pub fn conn(&self) -> Result<Connection> {
        db::connect(&self.db_path())
    }

    pub fn info(&self) -> Result<WorkspaceInfo> {
        let conn = self.conn()?;
        let skill_count: u32 = conn.query_row("SELECT COUNT(*) FROM skills", [], |r| r.get(0))?;
        Ok(WorkspaceInfo {
            home: self.home.display().to_string(),
            database: self.db_path().display().to_string(),
            schema_version: db::schema_version(&conn)?,
            skill_count,
        })
    }
}
