//! The scan's optional semantic pass: a reviewer model reads SKILL.md and the shipped files
//! against the taxonomy. This module builds what the model is asked and checks what it answers;
//! the call itself belongs to the caller (it needs a provider, a key and a runtime). Nothing the
//! model says becomes a finding unless its quote is found in the file it names, and a review that
//! fails leaves the report "not reviewed", with the static result unchanged.

use crate::report::{SecurityFinding, SecurityReport, SemanticPassInfo, Severity};
use crate::security::{self, taxonomy};
use crate::skill::{column_at, line_at, Skill, SkillFile};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use skillscope_answers::{find_quote, json_object};

/// The prompt file's name; its text is part of the binary, and its hash is recorded per review.
pub const PROMPT_VERSION: &str = "security-review-v1";
const PROMPT: &str = include_str!("../prompts/security-review-v1.md");
/// Sampling temperature of every review: the most repeatable setting the APIs offer.
pub const TEMPERATURE: f32 = 0.0;
/// File text sent per review; files past it are listed as not reviewed.
const MAX_REQUEST_BYTES: usize = 200_000;
/// An answer's findings beyond this many are dropped (and counted as dropped).
const MAX_FINDINGS: usize = 50;
/// Quotes shorter than this prove nothing (`os` is in every script).
const MIN_QUOTE_CHARS: usize = 6;
const MAX_QUOTE_CHARS: usize = 300;

/// One skill prepared for review: the prompt, the request, and the files it showed.
pub struct Review<'a> {
    skill: Skill<'a>,
    /// Indices into `skill.texts` of the files sent.
    shown: Vec<usize>,
    not_shown: Vec<String>,
    system: String,
    user: String,
}

/// Who reviewed: the provider configuration and the model as the API named itself.
#[derive(Clone, Debug)]
pub struct Reviewer {
    pub provider: String,
    pub model: String,
}

/// A reviewer's answer that passed the checks: the findings kept, and why each other one was dropped.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    pub findings: Vec<SecurityFinding>,
    pub dropped: Vec<String>,
}

#[derive(Deserialize)]
struct Answer {
    findings: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
struct Item {
    pattern: String,
    severity: Severity,
    file: String,
    quote: String,
    #[serde(default)]
    message: String,
}

impl<'a> Review<'a> {
    /// The request for `files`, listing the static findings of `report` so the model looks past them.
    pub fn prepare(dir_name: &'a str, files: &'a [SkillFile], report: &SecurityReport) -> Review<'a> {
        let skill = Skill::new(dir_name, files);
        // SKILL.md first, then scripts, then the rest; recognised binaries are never sent.
        let rank = |path: &str| match path {
            "SKILL.md" => 0,
            p if p.starts_with("scripts/") => 1,
            _ => 2,
        };
        let mut order: Vec<usize> = (0..skill.texts.len()).collect();
        order.sort_by_key(|&i| (rank(skill.texts[i].path), skill.texts[i].path));
        let mut shown = Vec::new();
        let mut not_shown = Vec::new();
        let mut budget = MAX_REQUEST_BYTES;
        for i in order {
            let t = &skill.texts[i];
            let binary = t.undecodable.as_ref().is_some_and(|u| u.binary_kind.is_some());
            if binary || t.text.len() > budget {
                not_shown.push(t.path.to_string());
            } else {
                budget -= t.text.len();
                shown.push(i);
            }
        }
        let system = PROMPT.replace("{{taxonomy}}", &taxonomy_list());
        let mut user = format!("Skill folder: {dir_name}\n\nFindings the static scanner already reported:\n");
        if report.findings.is_empty() {
            user.push_str("(none)\n");
        }
        for f in &report.findings {
            user.push_str(&format!("- {} {} {}:{}: {}\n", f.pattern, f.severity.as_str(), f.file, f.line, f.message));
        }
        for &i in &shown {
            let t = &skill.texts[i];
            user.push_str(&format!("\n=== FILE {} ===\n{}\n=== END OF FILE {} ===\n", t.path, t.text, t.path));
        }
        if !not_shown.is_empty() {
            user.push_str(&format!("\nNot shown (binary or over the size limit): {}\n", not_shown.join(", ")));
        }
        Review { skill, shown, not_shown, system, user }
    }

    pub fn system(&self) -> &str {
        &self.system
    }

    pub fn user(&self) -> &str {
        &self.user
    }

    /// SHA-256 of the system prompt as sent (the prompt file with the taxonomy filled in).
    pub fn prompt_sha256(&self) -> String {
        hex::encode(Sha256::digest(self.system.as_bytes()))
    }

    /// Checks an answer. Err when it is not the JSON object asked for (the caller may ask again);
    /// otherwise each finding is kept only when its pattern exists, its file was shown and its
    /// quote is in that file, and is not one the scanner reported at the same line.
    pub fn check_answer(&self, answer: &str, report: &SecurityReport) -> Result<Checked, String> {
        let parsed: Answer = serde_json::from_str(json_object(answer))
            .map_err(|e| format!("the reviewer's answer is not the JSON object asked for ({e})"))?;
        let mut out = Checked::default();
        for (n, value) in parsed.findings.into_iter().enumerate() {
            let n = n + 1;
            if n > MAX_FINDINGS {
                out.dropped.push(format!("finding {n}: over the limit of {MAX_FINDINGS} findings per review"));
                continue;
            }
            match self.check_item(value, report) {
                Ok(f) => out.findings.push(f),
                Err(why) => out.dropped.push(format!("finding {n}: {why}")),
            }
        }
        Ok(out)
    }

    fn check_item(&self, value: serde_json::Value, report: &SecurityReport) -> Result<SecurityFinding, String> {
        let item: Item = serde_json::from_value(value).map_err(|e| format!("not a finding ({e})"))?;
        let pattern = item.pattern.trim().to_ascii_uppercase();
        let p = taxonomy::PATTERNS
            .iter()
            .find(|p| p.id == pattern)
            .ok_or_else(|| format!("unknown pattern {:?}", item.pattern))?;
        let file = self
            .shown
            .iter()
            .map(|&i| &self.skill.texts[i])
            .find(|t| t.path == item.file)
            .ok_or_else(|| format!("{pattern} names {:?}, a file it was not shown", item.file))?;
        let quote = item.quote.trim();
        let chars = quote.chars().count();
        if !(MIN_QUOTE_CHARS..=MAX_QUOTE_CHARS).contains(&chars) {
            return Err(format!(
                "{pattern} in {}: a quote of {chars} characters (between {MIN_QUOTE_CHARS} and {MAX_QUOTE_CHARS} are checked)",
                file.path
            ));
        }
        let pos = find_quote(&file.text, quote)
            .ok_or_else(|| format!("{pattern} in {}: the quote is not in the file", file.path))?;
        let line = line_at(&file.text, pos);
        if report.findings.iter().any(|f| f.pattern == pattern && f.file == file.path && f.line == line) {
            return Err(format!("{pattern} in {}:{line}: already reported by the scanner", file.path));
        }
        let start = file.text[..pos].rfind('\n').map_or(0, |i| i + 1);
        let end = file.text[pos..].find('\n').map_or(file.text.len(), |i| pos + i);
        Ok(SecurityFinding {
            pattern: p.id.into(),
            category: p.category.into(),
            severity: item.severity,
            confidence: 0.6,
            file: file.path.into(),
            line,
            column: column_at(&file.text, pos),
            evidence: security::evidence(&file.text[start..end]),
            message: format!("Model review: {}", item.message.trim()),
            decoded: None,
        })
    }

    /// Adds a review's outcome to `report` and scores it again. A failed review (`Err`: no answer,
    /// or none that passed the checks) marks the report "not reviewed" and changes nothing else.
    pub fn apply(
        &self,
        report: &mut SecurityReport,
        reviewer: Reviewer,
        outcome: Result<Checked, String>,
        risky_below: u32,
    ) {
        let mut info = SemanticPassInfo {
            ran: false,
            added_findings: 0,
            error: None,
            provider: reviewer.provider,
            model: reviewer.model,
            prompt_version: PROMPT_VERSION.into(),
            prompt_sha256: self.prompt_sha256(),
            temperature: f64::from(TEMPERATURE),
            dropped: Vec::new(),
            files_not_reviewed: self.not_shown.clone(),
        };
        match outcome {
            Ok(checked) => {
                info.ran = true;
                info.added_findings = checked.findings.len() as u32;
                info.dropped = checked.dropped;
                report.findings.extend(checked.findings);
                report.findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
            }
            Err(e) => info.error = Some(e),
        }
        report.score = security::score(&report.findings);
        report.risky = report.score < risky_below;
        report.semantic_pass = Some(info);
    }
}

fn taxonomy_list() -> String {
    taxonomy::PATTERNS.iter().map(|p| format!("- {} ({}): {}", p.id, p.category, p.name)).collect::<Vec<_>>().join("\n")
}
