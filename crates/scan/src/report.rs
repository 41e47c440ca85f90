//! Report types shared by the quality and security engines; exported to TypeScript.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Finding severity, ordered from least to most serious.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Severity {
    Info,
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }
}

/// Quality dimension a rule deducts from.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Dimension {
    Correctness,
    Discoverability,
    Reliability,
    Efficiency,
}

#[derive(Serialize, Deserialize, Clone, Debug, TS)]
#[ts(export)]
pub struct ScanReport {
    pub name: String,
    pub quality: QualityReport,
    pub security: SecurityReport,
}

#[derive(Serialize, Deserialize, Clone, Debug, TS)]
#[ts(export)]
pub struct QualityReport {
    pub overall: f64,
    pub grade: String,
    pub gate: f64,
    pub passed_gate: bool,
    pub skill_type: String,
    pub dimensions: Dimensions,
    pub findings: Vec<QualityFinding>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, TS)]
#[ts(export)]
pub struct Dimensions {
    pub correctness: f64,
    pub discoverability: f64,
    pub reliability: f64,
    pub efficiency: f64,
}

#[derive(Serialize, Deserialize, Clone, Debug, TS)]
#[ts(export)]
pub struct QualityFinding {
    pub rule: String,
    pub dimension: Dimension,
    pub severity: Severity,
    pub deduction: f64,
    pub message: String,
    pub suggestion: String,
    pub file: String,
    pub line: Option<u32>,
}

#[derive(Serialize, Deserialize, Clone, Debug, TS)]
#[ts(export)]
pub struct SecurityReport {
    pub score: u32,
    pub risky: bool,
    pub findings: Vec<SecurityFinding>,
    pub semantic_pass: Option<SemanticPassInfo>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, TS)]
#[ts(export)]
pub struct SecurityFinding {
    pub pattern: String,
    pub category: String,
    pub severity: Severity,
    pub confidence: f64,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub evidence: String,
    pub message: String,
    pub decoded: Option<String>,
}

/// The optional model review (semantic pass): who reviewed with which prompt, and what it added.
/// `ran == false` means "not reviewed" (see `error`), never "reviewed and found safe".
#[derive(Serialize, Deserialize, Clone, Debug, TS)]
#[ts(export)]
pub struct SemanticPassInfo {
    pub ran: bool,
    pub added_findings: u32,
    pub error: Option<String>,
    /// The provider configuration the user picked.
    pub provider: String,
    /// The model as the API reported it (the requested name when the call failed).
    pub model: String,
    pub prompt_version: String,
    /// SHA-256 of the system prompt as sent.
    pub prompt_sha256: String,
    pub temperature: f64,
    /// Why each finding of the answer that was not kept was dropped (an invented quote, say).
    pub dropped: Vec<String>,
    /// Files not sent to the reviewer (binary, or past the request's size limit).
    pub files_not_reviewed: Vec<String>,
}

impl SemanticPassInfo {
    /// One sentence for reports: who reviewed with which prompt and what came of it.
    pub fn summary(&self) -> String {
        let who = format!(
            "{} via {}, prompt {} (sha256 {})",
            self.model,
            self.provider,
            self.prompt_version,
            &self.prompt_sha256[..self.prompt_sha256.len().min(12)]
        );
        match (&self.error, self.ran) {
            (None, true) => format!(
                "Model review by {who}: {} finding(s) added, {} dropped (not backed by a quote in the file).",
                self.added_findings,
                self.dropped.len()
            ),
            (error, _) => format!(
                "Not reviewed by a model ({who}): {}. Only the static findings count.",
                error.as_deref().unwrap_or("no answer")
            ),
        }
    }
}
