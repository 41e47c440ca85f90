//! Workspace settings read from `<home>/config.toml`; every field has a safe default.

use crate::error::{IoError, Result, StoreError};
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub import: ImportLimits,
    pub scan: ScanThresholds,
    pub queue: QueueSettings,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QueueSettings {
    /// Trials running at once; default: the number of cores.
    pub concurrency: Option<u32>,
    /// Attempts per trial when the infrastructure fails (the agent's failures are never retried).
    pub max_attempts: Option<u32>,
    /// First retry delay in milliseconds; doubles with each attempt.
    pub backoff_ms: Option<u64>,
    /// Deadline of one attempt over all its phases, in seconds; default: the sum of the phases'
    /// own limits and an allowance for preparing the environment (see `runs::queue::deadline`).
    pub trial_deadline_secs: Option<u64>,
}

impl QueueSettings {
    pub fn concurrency(&self) -> u32 {
        self.concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get() as u32)).max(1)
    }
    pub fn max_attempts(&self) -> u32 {
        self.max_attempts.unwrap_or(3).max(1)
    }
    pub fn backoff_ms(&self) -> u64 {
        self.backoff_ms.unwrap_or(1000)
    }
}

/// Where the static review draws its lines; applied when results are read, so a change
/// takes effect without rescanning.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScanThresholds {
    /// Lowest overall quality score that passes the gate.
    pub quality_gate: f64,
    /// Security scores below this mark a skill risky.
    pub risky_below: u32,
}

impl Default for ScanThresholds {
    fn default() -> Self {
        let d = skillscope_scan::ScanConfig::default();
        Self { quality_gate: d.quality_gate, risky_below: d.risky_below }
    }
}

/// Bounds on what an import may read, so hostile packages fail fast instead of filling the disk.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ImportLimits {
    /// Largest single file, in bytes.
    pub max_file_bytes: u64,
    /// Largest total of all files in one import, in bytes (uncompressed).
    pub max_total_bytes: u64,
    /// Most files in one import.
    pub max_files: usize,
    /// Highest uncompressed/compressed ratio of an archive entry larger than `ratio_floor_bytes`.
    pub max_compression_ratio: u64,
    /// Entries smaller than this are exempt from the ratio check (tiny text compresses well).
    pub ratio_floor_bytes: u64,
}

impl Default for ImportLimits {
    fn default() -> Self {
        Self {
            max_file_bytes: 10 * 1024 * 1024,
            max_total_bytes: 100 * 1024 * 1024,
            max_files: 10_000,
            max_compression_ratio: 100,
            ratio_floor_bytes: 64 * 1024,
        }
    }
}

impl Config {
    pub fn load(path: &Path) -> Result<Self> {
        match std::fs::read_to_string(path) {
            Ok(text) => toml::from_str(&text)
                .map_err(|e| StoreError::Config { path: path.display().to_string(), source: Box::new(e) }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(IoError::new(path.display(), e).into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_overrides_and_rejects_typos() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("config.toml");
        std::fs::write(&p, "[import]\nmax_file_bytes = 42\n").unwrap();
        let c = Config::load(&p).unwrap();
        assert_eq!(c.import.max_file_bytes, 42);
        assert_eq!(c.import.max_files, ImportLimits::default().max_files);
        std::fs::write(&p, "[import]\nmax_file_byte = 42\n").unwrap();
        assert!(Config::load(&p).unwrap_err().to_string().contains("max_file_byte"));
    }
}
