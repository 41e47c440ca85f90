//! The workspace: one directory holding the database, the content-addressed file store and settings.
//! The CLI and the app open the same directory.

use crate::blobs::BlobStore;
use crate::config::Config;
use crate::db;
use crate::error::{IoError, Result, StoreError};
use rusqlite::Connection;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use ts_rs::TS;

pub const HOME_ENV: &str = "SKILLSCOPE_HOME";

#[derive(Debug, Clone)]
pub struct Workspace {
    home: PathBuf,
    /// Shared by every clone, so settings saved from the app reach the queue's worker and the
    /// scanner without a restart.
    config: Arc<RwLock<Config>>,
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
        let ws = Self { home, config: Arc::new(RwLock::new(config)), blobs };
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
    /// A new file's path in the exports folder (created if missing): `<stem>-<time>.<ext>`, so
    /// that no export overwrites another.
    pub fn export_path(&self, stem: &str, ext: &str) -> std::result::Result<PathBuf, IoError> {
        let dir = self.exports_dir();
        std::fs::create_dir_all(&dir).map_err(|e| IoError::new(dir.display(), e))?;
        Ok(dir.join(format!("{stem}-{}.{ext}", crate::now().replace([':', '.'], "-"))))
    }
    pub fn db_path(&self) -> PathBuf {
        self.home.join("skillscope.db")
    }
    pub fn config_path(&self) -> PathBuf {
        self.home.join("config.toml")
    }
    /// The settings as they are now (a copy: they may change while work runs).
    pub fn config(&self) -> Config {
        self.config.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
    /// Changes the settings of this process only (a CLI flag, a test); [`Self::save_config`]
    /// persists them.
    pub fn edit_config(&self, edit: impl FnOnce(&mut Config)) {
        edit(&mut self.config.write().unwrap_or_else(|e| e.into_inner()));
    }
    /// Writes `config.toml` (whole, replacing the file in one rename) and makes `config` the
    /// settings of every handle on this workspace.
    pub fn save_config(&self, config: Config) -> Result<()> {
        let path = self.config_path();
        let text = toml::to_string_pretty(&config)
            .map_err(|e| StoreError::Config { path: path.display().to_string(), source: Box::new(e) })?;
        let tmp = tempfile::NamedTempFile::new_in(&self.home).map_err(|e| IoError::new(self.home.display(), e))?;
        std::fs::write(tmp.path(), text).map_err(|e| IoError::new(tmp.path().display(), e))?;
        tmp.persist(&path).map_err(|e| IoError::new(path.display(), e.error))?;
        *self.config.write().unwrap_or_else(|e| e.into_inner()) = config;
        Ok(())
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
