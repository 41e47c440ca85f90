//! Security scan: deterministic detectors for the 25-pattern taxonomy.

mod artifacts;
mod decode;
mod docs;
mod escalate;
mod finder;
mod lang;
mod matcher;
mod names;
mod python;
mod rules;
mod scripts;
mod shell_vars;
pub mod taxonomy;
mod tree;
pub mod unicode;

use crate::report::{SecurityFinding, SecurityReport, Severity};
use crate::skill::{column_at, line_at, Skill, TextFile};
use lang::Lang;
use matcher::{Hit, Matched};
pub(crate) use rules::ascii_boundaries;
use std::collections::HashMap;
use unicode::HiddenKind;

/// The snippet shown as evidence: invisible characters removed, at most 200 chars.
pub(crate) fn evidence(s: &str) -> String {
    let visible: String = s.chars().filter(|&c| !unicode::is_invisible(c) && !c.is_control()).collect();
    let t = visible.trim();
    if t.chars().count() > 200 {
        format!("{}…", t.chars().take(199).collect::<String>())
    } else {
        t.to_string()
    }
}

fn to_finding(file: &str, text: &str, h: Hit) -> SecurityFinding {
    let pos = h.pos.min(text.len());
    let pos = (0..=pos).rev().find(|&p| text.is_char_boundary(p)).unwrap_or(0);
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    SecurityFinding {
        pattern: h.pattern.into(),
        category: taxonomy::pattern(h.pattern).category.into(),
        severity: h.severity,
        confidence: h.confidence,
        file: file.into(),
        line: line_at(text, pos),
        column: column_at(text, pos),
        evidence: evidence(&text[start..end]),
        message: h.message,
        decoded: h.decoded,
    }
}

/// Findings for hidden text found at `pos`: the carrier itself plus whatever the
/// decoded plaintext says, re-scanned as instructions and commands.
fn rescan(decoded: &str, pos: usize, how: &str) -> Vec<Hit> {
    let matched = Matched::new(decoded);
    let mut hits = matched.hits(rules::PROSE);
    hits.extend(matched.hits(rules::SHELL));
    hits.extend(matched.hits(rules::ARTIFACT));
    for h in &mut hits {
        h.pos = pos;
        h.message = format!("{} (inside {how})", h.message);
        h.decoded = Some(decoded.to_string());
    }
    hits
}

fn unicode_hits(text: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    for hd in unicode::find_hidden(text) {
        let (sev, msg) = match (hd.kind, &hd.decoded) {
            (HiddenKind::Tag, Some(_)) => {
                (Severity::Critical, "invisible Unicode Tag characters encode a hidden message")
            }
            (HiddenKind::Tag, None) => (Severity::High, "invisible Unicode Tag characters"),
            (HiddenKind::Bidi, _) => (Severity::High, "bidirectional override reorders displayed text"),
            (HiddenKind::ZeroWidth, Some(_)) => (Severity::High, "zero-width characters encode a hidden message"),
            (HiddenKind::ZeroWidth, None) if hd.count > 1 => (Severity::Medium, "run of zero-width characters"),
            (HiddenKind::ZeroWidth, None) => (Severity::Low, "zero-width character"),
            (HiddenKind::InvisibleOperator, _) => (Severity::Medium, "invisible math operator characters"),
            (HiddenKind::VariationSelector, _) => (Severity::Low, "variation selector outside an emoji"),
            (HiddenKind::Homoglyph, _) => (Severity::Medium, "word mixes Latin with Cyrillic/Greek look-alike letters"),
            (HiddenKind::Bom, _) => continue,
        };
        let mut h = Hit::new("A2", sev, 0.9, hd.pos, msg);
        if let Some(d) = &hd.decoded {
            h.decoded = Some(d.clone());
            hits.extend(rescan(d, hd.pos, "hidden Unicode text"));
        }
        hits.push(h);
    }
    hits
}

fn decode_hits(text: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    for p in decode::payloads(text) {
        let inner = rescan(&p.text, p.pos, &format!("{} payload", p.encoding));
        let sev = if inner.iter().any(|h| h.severity >= Severity::Medium) { Severity::High } else { Severity::Medium };
        let mut h = Hit::new("D3", sev, 0.7, p.pos, format!("{}-encoded text hides readable content", p.encoding));
        h.decoded = Some(p.text);
        hits.push(h);
        hits.extend(inner);
    }
    hits
}

fn file_hits(t: &TextFile) -> Vec<Hit> {
    let (path, text) = (t.path, t.text.as_str());
    let lower = path.to_ascii_lowercase();
    let markdown = lower.ends_with(".md") || lower.ends_with(".markdown") || lower.ends_with(".mdx");
    let lang = Lang::from_path(path, text);
    if let Some(kind) = t.undecodable.as_ref().and_then(|u| u.binary_kind) {
        // An image, font or archive: only commands and secrets are looked for in its readable runs.
        let matched = Matched::new(text);
        let mut hits = matched.hits(rules::SHELL);
        hits.extend(matched.hits(rules::ARTIFACT));
        for h in &mut hits {
            h.message = format!("{} (inside a {kind} file)", h.message);
        }
        return hits;
    }
    let mut hits = unicode_hits(text);
    hits.extend(decode_hits(text));
    if markdown {
        hits.extend(docs::scan(text, path == "SKILL.md"));
    } else if let Some(lang) = lang {
        hits.extend(scripts::scan(lang, text));
    } else if lower.ends_with(".txt") {
        hits.extend(matcher::run(rules::PROSE, text));
    } else {
        hits.extend(matcher::run(rules::ARTIFACT, text));
    }
    if let Some(u) = &t.undecodable {
        // NULs or UTF-16 in something an agent or interpreter reads is a way to blind a scanner.
        let hiding = u.reason != "bytes that are not UTF-8" && (markdown || lang.is_some());
        let msg = format!("file holds {} (first at this line); it was decoded lossily and scanned", u.reason);
        hits.push(Hit::new("D3", if hiding { Severity::High } else { Severity::Medium }, 0.7, u.pos, msg));
    }
    hits
}

/// Compiles the rule tables now, one per thread, instead of on first use, where the first skill
/// scanned builds them one after the other while every other worker waits for them.
pub fn compile_rules() {
    std::thread::scope(|s| {
        s.spawn(|| rules::compiled(rules::PROSE));
        rules::compiled(rules::SHELL);
    });
}

pub fn analyze(skill: &Skill) -> Vec<SecurityFinding> {
    let mut findings: Vec<SecurityFinding> =
        skill.texts.iter().flat_map(|t| file_hits(t).into_iter().map(|h| to_finding(t.path, &t.text, h))).collect();
    findings.extend(artifacts::scan(skill).into_iter().map(|(file, h)| {
        let text = skill.text(&file).unwrap_or("");
        to_finding(&file, text, h)
    }));
    escalate::apply(skill, &mut findings);
    dedupe(findings)
}

/// One finding per (pattern, file, line), keeping the most severe.
fn dedupe(findings: Vec<SecurityFinding>) -> Vec<SecurityFinding> {
    let mut best: HashMap<(String, String, u32), SecurityFinding> = HashMap::new();
    for f in findings {
        let key = (f.pattern.clone(), f.file.clone(), f.line);
        match best.get(&key) {
            Some(b) if b.severity >= f.severity => {}
            _ => {
                best.insert(key, f);
            }
        }
    }
    let mut out: Vec<_> = best.into_values().collect();
    out.sort_by(|a, b| {
        b.severity.cmp(&a.severity).then(a.file.cmp(&b.file)).then(a.line.cmp(&b.line)).then(a.pattern.cmp(&b.pattern))
    });
    out
}

/// Per-severity penalty, after skillsec.io's 40/20/8/3 with HIGH raised to 25 so
/// that one HIGH alone crosses the risky line of 80.
fn penalty(s: Severity) -> u32 {
    match s {
        Severity::Critical => 40,
        Severity::High => 25,
        Severity::Medium => 8,
        Severity::Low => 3,
        Severity::Info => 0,
    }
}

/// 100 minus penalties, floor 10. A pattern repeated in one file is charged once
/// (at its worst) so a long file with one habit is not scored like many problems.
pub fn score(findings: &[SecurityFinding]) -> u32 {
    let mut worst: HashMap<(&str, &str), Severity> = HashMap::new();
    for f in findings {
        let e = worst.entry((&f.pattern, &f.file)).or_insert(f.severity);
        *e = (*e).max(f.severity);
    }
    let total: u32 = worst.values().map(|&s| penalty(s)).sum();
    100u32.saturating_sub(total).max(10)
}

pub fn report(skill: &Skill, risky_below: u32) -> SecurityReport {
    let findings = analyze(skill);
    let score = score(&findings);
    SecurityReport { score, risky: score < risky_below, findings, semantic_pass: None }
}

/// Every text file under 1 MiB the project writes as a fixture, and the corpus when it is there:
/// the texts a prefilter or gate is checked against.
#[cfg(test)]
fn fixture_texts() -> Vec<String> {
    fixture_files().into_iter().map(|(_, text)| text).collect()
}

/// [`fixture_texts`] with each one's path.
#[cfg(test)]
fn fixture_files() -> Vec<(std::path::PathBuf, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in [root.join("fixtures"), root.join("../shared/corpus")] {
        for e in walkdir::WalkDir::new(dir).into_iter().filter_map(Result::ok) {
            if e.file_type().is_file() && e.metadata().is_ok_and(|m| m.len() < 1 << 20) {
                if let Ok(b) = std::fs::read(e.path()) {
                    out.push((e.path().to_path_buf(), String::from_utf8_lossy(&b).into_owned()));
                }
            }
        }
    }
    out
}
