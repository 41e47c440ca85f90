//! Exporters: project JSON, SARIF 2.1.0 and Markdown.

use crate::report::{ScanReport, Severity};
use crate::rules::RULES;
use crate::security::taxonomy::PATTERNS;
use serde_json::{json, Value};
use std::fmt::Write;

/// `{"skills":[{name, path, quality{…}, security{…}}]}`; `path` is where the skill was read from.
pub fn to_json(reports: &[(String, ScanReport)]) -> Value {
    let skills: Vec<Value> = reports
        .iter()
        .map(|(path, r)| {
            json!({
                "name": r.name,
                "path": path,
                "quality": {
                    "overall": r.quality.overall,
                    "grade": r.quality.grade,
                    "gate": r.quality.gate,
                    "passed_gate": r.quality.passed_gate,
                    "skill_type": r.quality.skill_type,
                    "dimensions": r.quality.dimensions,
                    "findings": r.quality.findings,
                },
                "security": {
                    "score": r.security.score,
                    "risky": r.security.risky,
                    "findings": r.security.findings,
                    "semantic_pass": r.security.semantic_pass,
                },
            })
        })
        .collect();
    json!({ "skills": skills })
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low | Severity::Info => "note",
    }
}

/// GitHub code scanning's `security-severity` (0–10; ≥9 critical, ≥7 high, ≥4 medium, else low).
fn security_severity(s: Severity) -> &'static str {
    match s {
        Severity::Critical => "9.5",
        Severity::High => "8.0",
        Severity::Medium => "5.5",
        Severity::Low => "3.0",
        Severity::Info => "1.0",
    }
}

/// What to do about a finding of each taxonomy category (the rule's `help`).
fn category_help(category: &str) -> &'static str {
    match category {
        "prompt_injection" => "The skill's text tries to steer the agent against its user or its instructions. Remove the flagged wording, or show why it is benign before installing the skill.",
        "credential_access" => "The skill reads or sends credentials. A skill should never touch keys, tokens or credential stores; remove the flagged access.",
        "unsafe_behavior" => "The skill runs or asks for a dangerous action (remote code, destruction, persistence, privilege). Remove it, or confine it to what the skill's description promises.",
        "supply_chain" => "The skill fetches or installs code that is not pinned or not verified. Pin versions and checksums, or vendor what it needs.",
        _ => "The skill's code or instructions can fail in ways that harm the agent's work. Fix the flagged lines.",
    }
}

/// One scanned skill for [`to_sarif`]: its report and where its files sit.
pub struct SarifSkill<'a> {
    /// The `uriBaseId` its files are relative to: one per scanned folder, archive or repository.
    pub base: &'a str,
    /// What that base is, without local paths (e.g. a repository URL, or "the scanned folder").
    pub base_description: &'a str,
    /// The skill's folder under that base, `/`-separated ("" when the skill is the base itself).
    pub dir: &'a str,
    pub report: &'a ScanReport,
}

fn location(skill: &SarifSkill, file: &str, line: u32, column: u32) -> Value {
    let uri = match (skill.dir.trim_matches('/'), file.trim_start_matches('/')) {
        (d, "") => format!("{d}/"),
        ("", f) => f.to_string(),
        (d, f) => format!("{d}/{f}"),
    };
    json!({ "physicalLocation": {
        "artifactLocation": { "uri": uri, "uriBaseId": skill.base },
        "region": { "startLine": line.max(1), "startColumn": column.max(1) }
    }})
}

/// A finding's identity across runs: rule, skill, file and what was found, never the line (lines
/// move when the text above them changes).
fn fingerprint(parts: &[&str]) -> Value {
    use sha2::{Digest, Sha256};
    json!({ "skillscopeFinding/v1": hex::encode(Sha256::digest(parts.join("\u{1f}").as_bytes())) })
}

/// SARIF 2.1.0 log with one run; rule ids are `quality/<id>` and `security/<pattern>`. Locations
/// are relative to a `uriBaseId` per scanned root, so the file holds no local path.
pub fn to_sarif(skills: &[SarifSkill]) -> Value {
    let mut rules: Vec<Value> = RULES
        .iter()
        .map(|r| {
            json!({
                "id": format!("quality/{}", r.id),
                "name": r.id,
                "shortDescription": { "text": r.message },
                "fullDescription": { "text": format!("{} ({})", r.message, r.doc) },
                "help": { "text": r.suggestion },
                "defaultConfiguration": { "level": level(r.severity) },
                "properties": {
                    "tags": ["quality", r.dimension],
                    "problem.severity": level(r.severity),
                    "deduction": r.deduction,
                    "source": r.doc,
                },
            })
        })
        .collect();
    rules.extend(PATTERNS.iter().map(|p| {
        json!({
            "id": format!("security/{}", p.id),
            "name": p.name,
            "shortDescription": { "text": p.name },
            "fullDescription": { "text": format!("{} ({}, taxonomy pattern {})", p.name, p.category, p.id) },
            "help": { "text": category_help(p.category) },
            "defaultConfiguration": { "level": level(p.default) },
            "properties": {
                "tags": ["security", p.category],
                "security-severity": security_severity(p.default),
            },
        })
    }));
    let mut results = Vec::new();
    for skill in skills {
        let r = skill.report;
        for f in &r.quality.findings {
            let rule = format!("quality/{}", f.rule);
            results.push(json!({
                "ruleId": rule,
                "level": level(f.severity),
                "message": { "text": format!("{} — {}", f.message, f.suggestion) },
                "locations": [location(skill, &f.file, f.line.unwrap_or(1), 1)],
                "partialFingerprints": fingerprint(&[&rule, &r.name, &f.file, &f.message]),
                "properties": { "skill": r.name, "deduction": f.deduction },
            }));
        }
        for f in &r.security.findings {
            let rule = format!("security/{}", f.pattern);
            let mut props =
                json!({ "skill": r.name, "severity": f.severity, "confidence": f.confidence, "evidence": f.evidence });
            if let Some(d) = &f.decoded {
                props["decoded"] = json!(d);
            }
            results.push(json!({
                "ruleId": rule,
                "level": level(f.severity),
                "message": { "text": f.message },
                "locations": [location(skill, &f.file, f.line, f.column)],
                "partialFingerprints": fingerprint(&[&rule, &r.name, &f.file, &f.evidence]),
                "properties": props,
            }));
        }
    }
    let mut bases = serde_json::Map::new();
    for s in skills {
        bases.entry(s.base).or_insert_with(|| json!({ "description": { "text": s.base_description } }));
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "skillscope",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/skillscope/skillscope",
                "rules": rules,
            }},
            "originalUriBaseIds": bases,
            "results": results,
        }],
    })
}

/// Human-readable summary, one section per skill.
pub fn to_markdown(reports: &[(String, ScanReport)]) -> String {
    let mut md = String::from("# Skillscope static review\n");
    for (path, r) in reports {
        let q = &r.quality;
        let s = &r.security;
        let _ = write!(
            md,
            "\n## {} (`{path}`)\n\nQuality **{:.1}** ({}) — gate {} {} · Security **{}**/100{}\n\n\
             | Correctness | Discoverability | Reliability | Efficiency |\n|---|---|---|---|\n| {:.1} | {:.1} | {:.1} | {:.1} |\n",
            r.name,
            q.overall,
            q.grade,
            q.gate,
            if q.passed_gate { "passed" } else { "failed" },
            s.score,
            if s.risky { " — **risky**" } else { "" },
            q.dimensions.correctness,
            q.dimensions.discoverability,
            q.dimensions.reliability,
            q.dimensions.efficiency,
        );
        if let Some(pass) = &s.semantic_pass {
            let _ = writeln!(md, "\n{}", pass.summary());
        }
        if !s.findings.is_empty() {
            md.push_str("\n### Security findings\n\n| Severity | Pattern | Location | Message |\n|---|---|---|---|\n");
            for f in &s.findings {
                let _ = writeln!(
                    md,
                    "| {} | {} | {}:{} | {} |",
                    f.severity.as_str(),
                    f.pattern,
                    f.file,
                    f.line,
                    cell(&f.message)
                );
            }
        }
        if !q.findings.is_empty() {
            md.push_str("\n### Quality findings\n\n| Rule | Deduction | Location | Message |\n|---|---|---|---|\n");
            for f in &q.findings {
                let line = f.line.map_or(String::new(), |l| format!(":{l}"));
                let _ = writeln!(md, "| {} | -{} | {}{line} | {} |", f.rule, f.deduction, f.file, cell(&f.message));
            }
        }
    }
    md
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}
