//! Library types shared by the CLI and the app (and exported to TypeScript).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ts_rs::TS;

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "ValidationSeverity")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
    pub fn parse(s: &str) -> Self {
        match s {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            _ => Severity::Info,
        }
    }
}

/// A validation finding: the skill is kept, the problem is reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Finding {
    pub code: String,
    pub severity: Severity,
    pub message: String,
    pub file: Option<String>,
    pub line: Option<u32>,
}

impl Finding {
    pub fn new(code: &str, severity: Severity, message: impl Into<String>) -> Self {
        Self { code: code.into(), severity, message: message.into(), file: None, line: None }
    }
    pub fn at(mut self, file: &str, line: Option<u32>) -> Self {
        self.file = Some(file.into());
        self.line = line;
        self
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ValidationStatus {
    Valid,
    Warnings,
    Errors,
}

impl ValidationStatus {
    pub fn of(findings: impl IntoIterator<Item = Severity>) -> Self {
        match findings.into_iter().max() {
            Some(Severity::Error) => Self::Errors,
            Some(Severity::Warning) => Self::Warnings,
            _ => Self::Valid,
        }
    }
}

/// Parsed SKILL.md frontmatter. Fields of the wrong type are reported as findings and left empty.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Frontmatter {
    pub name: Option<String>,
    pub description: Option<String>,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub allowed_tools: Vec<String>,
    /// Top-level fields the spec does not define.
    #[ts(type = "Record<string, unknown>")]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl Frontmatter {
    /// The skill's category as its author gives it: `metadata.category` (the spec's place for
    /// such keys), else a top-level `category`.
    pub fn category(&self) -> Option<&str> {
        self.metadata
            .get("category")
            .map(String::as_str)
            .or_else(|| self.extra.get("category").and_then(serde_json::Value::as_str))
            .map(str::trim)
            .filter(|c| !c.is_empty())
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SkillSummary {
    #[ts(type = "number")]
    pub id: i64,
    pub name: String,
    pub description: String,
    pub version: u32,
    #[ts(type = "number")]
    pub version_id: i64,
    pub version_count: u32,
    pub source: Source,
    pub license: Option<String>,
    pub status: ValidationStatus,
    pub finding_count: u32,
    pub imported_at: String,
    pub sha256: String,
    /// Static review of the latest version; None until it has been scanned.
    pub scan: Option<crate::review::ScanSummary>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VersionInfo {
    #[ts(type = "number")]
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
    #[ts(type = "number")]
    pub size: u64,
    pub sha256: String,
    pub binary: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VersionDetail {
    #[ts(type = "number")]
    pub id: i64,
    #[ts(type = "number")]
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
    #[ts(type = "number")]
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
    #[ts(type = "number")]
    pub skill_id: i64,
    #[ts(type = "number")]
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

#[cfg(test)]
mod tests {
    use super::Frontmatter;

    #[test]
    fn category_comes_from_metadata_then_top_level() {
        let mut fm = Frontmatter::default();
        assert_eq!(fm.category(), None);
        fm.extra.insert("category".into(), serde_json::json!("docs"));
        assert_eq!(fm.category(), Some("docs"));
        fm.metadata.insert("category".into(), " data ".into());
        assert_eq!(fm.category(), Some("data"), "metadata wins, trimmed");
        fm.metadata.insert("category".into(), "  ".into());
        assert_eq!(fm.category(), None, "a blank category is none");
    }
}
