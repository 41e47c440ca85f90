//! Library types shared by the CLI and the app (and exported to TypeScript).

use serde::{Deserialize, Serialize};
use skillscope_store::Workspace;
use ts_rs::TS;

pub use skillscope_skill::{Finding, Frontmatter, Severity, ValidationStatus};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum SourceKind {
    Folder,
    Archive,
    Git,
    /// The project's own sample skills, embedded in the binary.
    Sample,
}

/// Where a skill version came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Source {
    pub kind: SourceKind,
    /// Canonical folder or archive path, or the repository URL as given.
    pub location: String,
    /// The skill's directory inside the source, when the source holds more than the skill.
    pub subpath: Option<String>,
    pub git_ref: Option<String>,
    pub git_commit: Option<String>,
}

impl Source {
    /// Identity of a skill across re-imports: same place, same skill; ref and commit may change.
    pub fn key(&self) -> String {
        let kind = serde_json::to_value(self.kind).expect("enum serialises");
        format!("{}|{}|{}", kind.as_str().unwrap_or_default(), self.location, self.subpath.as_deref().unwrap_or(""))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillSummary {
    pub id: i64,
    pub name: String,
    pub description: String,
    pub version: u32,
    pub version_id: i64,
    pub version_count: u32,
    pub source: Source,
    pub license: Option<String>,
    pub status: ValidationStatus,
    pub finding_count: u32,
    pub imported_at: String,
    pub sha256: String,
    /// Static review of the latest version; None until it has been scanned.
    pub scan: Option<ScanSummary>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VersionInfo {
    pub id: i64,
    pub version: u32,
    pub sha256: String,
    pub imported_at: String,
    pub source: Source,
    pub finding_count: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillDetail {
    pub summary: SkillSummary,
    pub versions: Vec<VersionInfo>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FileEntry {
    pub path: String,
    pub size: u64,
    pub sha256: String,
    pub binary: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VersionDetail {
    pub id: i64,
    pub skill_id: i64,
    pub version: u32,
    pub sha256: String,
    pub imported_at: String,
    pub source: Source,
    pub frontmatter: Frontmatter,
    /// SKILL.md body as safe HTML (raw HTML in the Markdown is escaped).
    pub body_html: String,
    pub files: Vec<FileEntry>,
    pub findings: Vec<Finding>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FileContent {
    pub path: String,
    pub size: u64,
    pub binary: bool,
    pub text: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ChangeKind {
    Added,
    Removed,
    Modified,
    Unchanged,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FileChange {
    pub path: String,
    pub change: ChangeKind,
    pub binary: bool,
    pub unified_diff: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VersionDiff {
    pub from_version: u32,
    pub to_version: u32,
    pub files: Vec<FileChange>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ImportRequest {
    /// A folder, a `.zip`/`.skill` archive, or a git URL or local repository.
    pub source: String,
    pub git_ref: Option<String>,
    pub subpath: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ImportStatus {
    NewSkill,
    NewVersion,
    /// Same content as the latest version: nothing was written.
    Unchanged,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ImportedSkill {
    pub skill_id: i64,
    pub version_id: i64,
    pub name: String,
    pub version: u32,
    pub sha256: String,
    pub status: ImportStatus,
    pub finding_count: u32,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ImportOutcome {
    pub skills: Vec<ImportedSkill>,
}

/// Identifies the rule set that produced a stored result; results of older scanners are redone.
pub const SCANNER: &str = concat!("skillscope-scan ", env!("CARGO_PKG_VERSION"), "+r", "3");

/// The numbers the library table shows for a scanned version.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ScanSummary {
    pub quality: f64,
    pub grade: String,
    pub passed_gate: bool,
    pub security: u32,
    pub risky: bool,
}

impl ScanSummary {
    /// The summary under the workspace's current thresholds (applied on read, like reports).
    pub fn under(ws: &Workspace, quality: f64, grade: String, security: u32) -> Self {
        let t = &ws.config().scan;
        Self { quality, grade, passed_gate: quality >= t.quality_gate, security, risky: security < t.risky_below }
    }
}
