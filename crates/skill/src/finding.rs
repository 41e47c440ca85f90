//! Findings about a skill: what is wrong, how badly, and where.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

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
