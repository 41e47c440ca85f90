//! Helpers shared by the test modules.

use skillscope_scan::{load_dir, scan, ScanConfig, ScanReport, Severity, SkillFile};
use std::path::PathBuf;

/// An in-memory package file.
pub(crate) fn file(path: &str, text: &str) -> SkillFile {
    SkillFile { path: path.into(), bytes: text.as_bytes().to_vec() }
}

/// Scans the hand-written skill `fixtures/scan/<name>`.
pub(crate) fn fixture(name: &str) -> ScanReport {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/scan").join(name);
    let files = load_dir(&dir).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(!files.is_empty(), "{name} has no files");
    scan(name, &files, &ScanConfig::default())
}

/// Scans a package whose only file is SKILL.md.
pub(crate) fn scan_skill_md(dir_name: &str, skill_md: &str) -> ScanReport {
    scan(dir_name, &[file("SKILL.md", skill_md)], &ScanConfig::default())
}

/// The quality rule ids a report holds, in order.
pub(crate) fn rules(r: &ScanReport) -> Vec<&str> {
    r.quality.findings.iter().map(|f| f.rule.as_str()).collect()
}

/// The most severe finding of `pattern`, if any.
pub(crate) fn worst(r: &ScanReport, pattern: &str) -> Option<Severity> {
    r.security.findings.iter().filter(|f| f.pattern == pattern).map(|f| f.severity).max()
}
