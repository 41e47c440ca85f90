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

fn location(root: &str, file: &str, line: u32, column: u32) -> Value {
    let uri = match (root.trim_end_matches('/'), file) {
        (r, "") => r.to_string(),
        ("", f) => f.to_string(),
        (r, f) => format!("{r}/{f}"),
    };
    json!({ "physicalLocation": {
        "artifactLocation": { "uri": uri },
        "region": { "startLine": line.max(1), "startColumn": column.max(1) }
    }})
}

/// SARIF 2.1.0 log with one run; rule ids are `quality/<id>` and `security/<pattern>`.
pub fn to_sarif(reports: &[(String, ScanReport)]) -> Value {
    let mut rules: Vec<Value> = RULES
        .iter()
        .map(|r| {
            json!({
                "id": format!("quality/{}", r.id),
                "name": r.id,
                "shortDescription": { "text": r.message },
                "help": { "text": r.suggestion },
                "defaultConfiguration": { "level": level(r.severity) },
                "properties": { "dimension": r.dimension, "deduction": r.deduction, "source": r.doc },
            })
        })
        .collect();
    rules.extend(PATTERNS.iter().map(|p| {
        json!({
            "id": format!("security/{}", p.id),
            "name": p.name,
            "shortDescription": { "text": p.name },
            "defaultConfiguration": { "level": level(p.default) },
            "properties": { "category": p.category },
        })
    }));
    let mut results = Vec::new();
    for (path, r) in reports {
        for f in &r.quality.findings {
            results.push(json!({
                "ruleId": format!("quality/{}", f.rule),
                "level": level(f.severity),
                "message": { "text": format!("{} — {}", f.message, f.suggestion) },
                "locations": [location(path, &f.file, f.line.unwrap_or(1), 1)],
                "properties": { "skill": r.name, "deduction": f.deduction },
            }));
        }
        for f in &r.security.findings {
            let mut props =
                json!({ "skill": r.name, "severity": f.severity, "confidence": f.confidence, "evidence": f.evidence });
            if let Some(d) = &f.decoded {
                props["decoded"] = json!(d);
            }
            results.push(json!({
                "ruleId": format!("security/{}", f.pattern),
                "level": level(f.severity),
                "message": { "text": f.message },
                "locations": [location(path, &f.file, f.line, f.column)],
                "properties": props,
            }));
        }
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
