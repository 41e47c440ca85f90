//! Quality score: runs every check, each reporting by rule id from `rules.rs`.

use crate::markdown;
use crate::report::{Dimension, Dimensions, QualityFinding, QualityReport};
use crate::rules::{rule, SPEC_UNSCORED};
use crate::security::unicode::{find_hidden, HiddenKind};
use crate::skill::{line_at, Skill};
use regex::Regex;
use skillscope_skill::validate::code;
use skillscope_skill::ParseErrorKind;
use std::collections::HashSet;
use std::sync::OnceLock;

struct Checker<'a> {
    skill: &'a Skill<'a>,
    findings: Vec<QualityFinding>,
}

fn rx(cell: &'static OnceLock<Regex>, p: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(&crate::security::ascii_boundaries(p)).expect("quality regex"))
}

macro_rules! re {
    ($p:expr) => {{
        static R: OnceLock<Regex> = OnceLock::new();
        rx(&R, $p)
    }};
}

impl<'a> Checker<'a> {
    fn add(&mut self, id: &str, file: &str, line: Option<u32>, detail: Option<String>) {
        let r = rule(id);
        self.findings.push(QualityFinding {
            rule: r.id.into(),
            dimension: r.dimension,
            severity: r.severity,
            deduction: r.deduction,
            message: detail.map_or_else(|| r.message.to_string(), |d| format!("{}: {d}", r.message)),
            suggestion: r.suggestion.into(),
            file: file.into(),
            line,
        });
    }

    fn md(&mut self, id: &str, line: u32) {
        self.add(id, "SKILL.md", Some(line), None);
    }

    fn body(&self) -> &str {
        self.skill.body()
    }

    fn has_heading(&self, re: &Regex) -> bool {
        markdown::headings(self.body(), 0).iter().any(|h| re.is_match(&h.title))
    }

    fn schema(&mut self) -> bool {
        let s = self.skill;
        if !s.has_skill_md {
            self.add("skill-md-missing", "SKILL.md", None, None);
            return false;
        }
        let md = match &s.md {
            Ok(md) => md,
            Err(e) if e.kind == ParseErrorKind::NoFrontmatter => {
                self.md("frontmatter-missing", 1);
                return false;
            }
            Err(e) => {
                self.add("frontmatter-invalid", "SKILL.md", Some(1), Some(e.message.clone()));
                return false;
            }
        };
        let fm = &md.frontmatter;
        // The spec's rules are checked once, by skillscope-skill; their codes are rule ids here.
        // A top-level `version` is outside the spec but is what `version-missing` asks for.
        for v in &s.spec {
            let id = v.finding.code.as_str();
            if SPEC_UNSCORED.contains(&id) || (id == code::UNKNOWN_FIELD && v.field == "version") {
                continue;
            }
            let detail = match id {
                code::FORBIDDEN_FIELD | code::UNKNOWN_FIELD => Some(v.field.clone()),
                code::NAME_DIR_MISMATCH => Some(format!("`{}` vs `{}`", s.name(), s.dir_name)),
                _ => None,
            };
            self.add(id, "SKILL.md", Some(v.finding.line.unwrap_or(1)), detail);
        }
        if let Some(name) = fm.name.as_deref().filter(|n| !n.trim().is_empty()) {
            let l = s.line_of("name");
            if re!(r"(?i)anthropic|claude").is_match(name) {
                self.md("name-reserved-word", l);
            }
            if re!(r"<[^>]+>").is_match(name) {
                self.md("xml-in-name", l);
            }
        }
        if re!(r"<[^>]+>").is_match(&s.description()) {
            self.md("xml-in-description", s.line_of("description"));
        }
        for (key, _) in md.fields().filter(|(k, _)| !matches!(*k, "name" | "description")) {
            if md.field_str(key).is_some_and(|v| re!(r"<[a-zA-Z/][^>]*>").is_match(&v)) {
                self.add("xml-in-frontmatter", "SKILL.md", Some(s.line_of(key)), Some(key.to_string()));
            }
        }
        let version = md.field_str("version").or_else(|| fm.metadata.get("version").cloned());
        match version {
            None => self.md("version-missing", 1),
            Some(v) if !re!(r"^\d+\.\d+\.\d+$").is_match(&v) => self.md("version-format", s.line_of("version")),
            _ => {}
        }
        match fm.metadata.get("author") {
            None => self.md("author-missing", 1),
            Some(a) if !re!(r"^[^<>]+<[^@\s<>]+@[^\s<>]+>$").is_match(a.trim()) => {
                self.md("author-format", s.line_of("metadata"))
            }
            _ => {}
        }
        if md.field("metadata").and_then(|m| m.get("tags")).is_none() {
            self.md("tags-missing", 1);
        }
        true
    }

    fn structure(&mut self) {
        const DIRS: [&str; 8] = ["agents", "references", "scripts", "assets", "evals", "tests", "tools", "config"];
        let mut seen = HashSet::new();
        let lib = self.skill.lib_dir().map(str::to_string);
        for f in self.skill.files {
            if let Some((dir, _)) = f.path.split_once('/') {
                if !DIRS.contains(&dir) && Some(dir) != lib.as_deref() && seen.insert(dir.to_string()) {
                    self.add("unknown-directory", &f.path, None, Some(dir.to_string()));
                }
            }
        }
        let lines = self.skill.skill_md.lines().count();
        if lines > 500 {
            self.add("skill-md-too-long", "SKILL.md", None, Some(format!("{lines} lines")));
        }
        let dir = self.skill.dir_name;
        if dir.chars().count() < 5 {
            self.add("dir-name-short", "", None, Some(dir.into()));
        }
        if !re!(r"^[a-z][a-z0-9_-]*$").is_match(dir) {
            self.add("dir-name-format", "", None, Some(dir.into()));
        }
    }

    fn by_type(&mut self, kind: &str) {
        let s = self.skill;
        let body = self.body().to_string();
        let bl = s.body_line();
        if matches!(kind, "script-based" | "hybrid") {
            if !s.has_dir("scripts") {
                self.md("scripts-dir-missing", bl);
            } else if !s.files_under("scripts").any(|f| f.path.ends_with(".py") || f.path.ends_with(".sh")) {
                self.md("scripts-dir-without-scripts", bl);
            }
            if !self.has_heading(re!(r"^available scripts")) && !body.contains("| Script |") {
                self.md("scripts-undocumented", bl);
            }
            if !body.contains("run_script") {
                self.md("run-script-not-mentioned", bl);
            }
            for f in s.files_under("scripts").filter(|f| f.path.ends_with(".py")) {
                let code = String::from_utf8_lossy(&f.bytes);
                if !re!(r"\btry:|\braise\b|\bassert\b|\bif not\b|Error\b").is_match(&code) {
                    self.add("script-no-error-handling", &f.path, Some(1), None);
                }
            }
        }
        if matches!(kind, "lib-based" | "hybrid") {
            if let Some(lib) = s.lib_dir() {
                if s.text("pyproject.toml").is_none() {
                    self.md("lib-missing-pyproject", bl);
                }
                if !re!(r"(?i)\bimport\b|\bapi\b|\bmodule\b|\blibrary\b|\bpackage\b|\bclass\b|\bfunction\b")
                    .is_match(&body)
                {
                    self.md("lib-api-undocumented", bl);
                }
                let resources = ["assets", "templates", "resources"].iter().any(|d| s.has_dir(d));
                if resources && !re!(r"(?i)template|asset|resource").is_match(&body) {
                    self.md("lib-resources-unmentioned", bl);
                }
                for f in s.files_under(lib).filter(|f| f.path.ends_with(".py") && !f.path.ends_with("__init__.py")) {
                    if !re!(r"\btry:|\braise\b|\bassert\b|Error\b").is_match(&String::from_utf8_lossy(&f.bytes)) {
                        self.add("lib-no-error-handling", &f.path, Some(1), None);
                    }
                }
            } else if kind == "lib-based" {
                self.md("lib-module-missing", bl);
            }
        }
        if kind == "resource-based" && !re!(r"(?i)template|asset|design|style|css|html|resource").is_match(&body) {
            self.md("resources-unmentioned", bl);
        }
        if kind == "guide-only" && body.lines().filter(|l| !l.trim().is_empty()).count() < 20 {
            self.md("guide-too-short", bl);
        }
    }

    fn description(&mut self) {
        let desc = self.skill.description();
        if desc.is_empty() {
            return;
        }
        let l = self.skill.line_of("description");
        let n = desc.chars().count();
        if n < 20 {
            self.md("description-too-short", l);
        }
        if n > 200 {
            self.md("description-too-long", l);
        }
        if !re!(r"(?i)\b(use|when|for|helps|allows)\b").is_match(&desc) {
            self.md("description-no-trigger", l);
        }
        if let Some(m) = re!(r"(?i)\b(something|things|stuff|various|general)\b").find(&desc) {
            self.add("description-vague", "SKILL.md", Some(l), Some(m.as_str().into()));
        }
        if let Some(m) = re!(r"(?i)\b(i can|i will|you can|you should|your|my|we can)\b").find(&desc) {
            self.add("description-person", "SKILL.md", Some(l), Some(m.as_str().into()));
        }
        if n > 100
            && re!(r"(?i)\b(data|files|documents|project|manage|handle|process)\b").is_match(&desc)
            && !re!(r"(?i)not for|do not use|instead use|except when|not when").is_match(&desc)
        {
            self.md("description-no-negative-trigger", l);
        }
    }

    fn sections(&mut self) {
        let bl = self.skill.body_line();
        let body = self.body().to_string();
        let checks: [(&str, &Regex); 6] = [
            ("no-purpose-section", re!(r"^purpose")),
            ("no-prerequisites", re!(r"^(prerequisites|requirements)")),
            ("no-limitations", re!(r"^limitations")),
            ("no-troubleshooting", re!(r"^(troubleshooting|common issues|faq)")),
            ("no-instructions-section", re!(r"^(instructions|usage)")),
            ("no-examples-section", re!(r"^examples?\b")),
        ];
        for (id, heading) in checks {
            if !self.has_heading(heading) {
                self.md(id, bl);
            }
        }
        if !body.contains("```") && !body.contains("Example:") && !self.has_heading(re!(r"^examples?\b")) {
            self.md("no-examples", bl);
        }
        if !re!(r"(?i)error|exception|invalid|fail|validat").is_match(&body) {
            self.md("no-error-handling-docs", bl);
        }
        if let Some((line, text)) = markdown::section(&body, |t| re!(r"^(instructions|usage)").is_match(t)) {
            let line = line + bl - 1;
            if !re!(r"(?i)\b(use|call|run|execute|pass|set|add|mark|update|keep)\b").is_match(&text) {
                self.md("instructions-no-action-verbs", line);
            }
            if !re!(r"(?m)^\s*([-*+]|\d+[.)])\s").is_match(&text) {
                self.md("instructions-not-list", line);
            }
        }
    }

    fn text_hygiene(&mut self) {
        let md = &self.skill.skill_md;
        let bl = self.skill.body_line();
        if let Some(m) = re!(r"\b(scripts|references|assets)\\[\w.]").find(md) {
            self.md("windows-paths", line_at(md, m.start()));
        }
        if let Some(m) = re!(r"\]\((\./)?README\.md\)").find(md) {
            if self.skill.text("README.md").is_some() {
                self.md("links-readme", line_at(md, m.start()));
            }
        }
        if md.len() / 4 > 5000 {
            self.add("too-many-tokens", "SKILL.md", None, Some(format!("~{} tokens", md.len() / 4)));
        }
        let lines: Vec<&str> = self.body().lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let unique: HashSet<&&str> = lines.iter().collect();
        if !lines.is_empty() && (unique.len() as f64) < 0.7 * lines.len() as f64 {
            self.md("repetitive-lines", bl);
        }
        if let Some(m) = re!(r"(?i)\b(utilize|facilitate|leverage|paradigm|synergy)\b").find(md) {
            self.add("corporate-words", "SKILL.md", Some(line_at(md, m.start())), Some(m.as_str().into()));
        }
    }

    fn references(&mut self) {
        for f in self.skill.files_under("references") {
            let name = f.path.rsplit('/').next().unwrap_or("");
            let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
            match ext {
                "md" => {
                    if stem.len() < 4 || re!(r"(?i)\d|^(doc|docs|file|files|data|info|misc|temp|tmp)$").is_match(stem) {
                        self.add("reference-name-vague", &f.path, None, None);
                    }
                    let text = String::from_utf8_lossy(&f.bytes);
                    if let Some(m) = re!(r"\]\((?:\./)?[^):/]+\.md(?:#[^)]*)?\)").find(&text) {
                        self.add("nested-references", &f.path, Some(line_at(&text, m.start())), None);
                    }
                }
                "py" | "sh" | "json" | "csv" | "yaml" | "yml" | "toml" => {
                    self.add("non-doc-in-references", &f.path, None, None)
                }
                _ => {}
            }
        }
    }

    fn unicode(&mut self) {
        for t in self.skill.texts.iter().filter(|t| t.undecodable.as_ref().is_none_or(|u| u.binary_kind.is_none())) {
            let mut seen = HashSet::new();
            for h in find_hidden(&t.text) {
                let id = match h.kind {
                    HiddenKind::Tag => "unicode-tag-chars",
                    HiddenKind::Bidi => "unicode-bidi",
                    HiddenKind::ZeroWidth => "unicode-zero-width",
                    HiddenKind::InvisibleOperator => "unicode-invisible-operator",
                    HiddenKind::VariationSelector => "unicode-variation-selector",
                    HiddenKind::Bom => "unicode-bom",
                    HiddenKind::Homoglyph => continue,
                };
                // One deduction per kind per file; the security report lists each occurrence.
                if seen.insert(id) {
                    self.add(id, t.path, Some(line_at(&t.text, h.pos)), h.decoded.map(|d| format!("decoded: {d}")));
                }
            }
        }
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

pub(crate) fn grade(overall: f64) -> &'static str {
    match overall {
        x if x >= 90.0 => "A",
        x if x >= 80.0 => "B",
        x if x >= 70.0 => "C",
        x if x >= 60.0 => "D",
        _ => "F",
    }
}

pub(crate) fn report(skill: &Skill, gate: f64) -> QualityReport {
    let mut c = Checker { skill, findings: Vec::new() };
    let kind = skill.skill_type();
    if c.schema() {
        c.structure();
        c.by_type(kind);
        c.description();
        c.sections();
        c.text_hygiene();
        c.references();
    }
    c.unicode();
    let dim = |d: Dimension| {
        let lost: f64 = c.findings.iter().filter(|f| f.dimension == d).map(|f| f.deduction).sum();
        round1((100.0 - lost).max(0.0))
    };
    let dimensions = Dimensions {
        correctness: dim(Dimension::Correctness),
        discoverability: dim(Dimension::Discoverability),
        reliability: dim(Dimension::Reliability),
        efficiency: dim(Dimension::Efficiency),
    };
    let overall = round1(
        0.35 * dimensions.correctness
            + 0.25 * dimensions.discoverability
            + 0.25 * dimensions.reliability
            + 0.15 * dimensions.efficiency,
    );
    QualityReport {
        overall,
        grade: grade(overall).into(),
        gate,
        passed_gate: overall >= gate,
        skill_type: kind.into(),
        dimensions,
        findings: c.findings,
    }
}
