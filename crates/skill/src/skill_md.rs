//! Splits SKILL.md into YAML frontmatter and Markdown body, and reads the spec's fields.
//! Refuses only what makes the skill unusable; wrong field types become findings.

use crate::finding::Finding;
use crate::rules::{code, rule_severity, Violation};
use serde::{Deserialize, Serialize};
pub use serde_yaml::Value;
use std::collections::BTreeMap;
use ts_rs::TS;

pub const FILE: &str = "SKILL.md";
/// The top-level fields the Agent Skills spec defines.
pub const KNOWN_FIELDS: &[&str] = &["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

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

/// What kind of problem keeps a SKILL.md from being read at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The file is not UTF-8.
    NotUtf8,
    /// Line 1 is not the `---` that opens the frontmatter (an empty file included).
    NoFrontmatter,
    /// The frontmatter is opened but never closed.
    Unclosed,
    /// The frontmatter is not valid YAML.
    InvalidYaml,
    /// The frontmatter is valid YAML but not a mapping of fields.
    NotMapping,
}

/// Why a SKILL.md cannot be read at all: the skill is unusable (wrong field types are findings).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    pub kind: ParseErrorKind,
    /// The whole explanation, starting with where in SKILL.md.
    pub message: String,
}

impl ParseError {
    fn new(kind: ParseErrorKind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into() }
    }
}

#[derive(Debug, Clone)]
pub struct SkillMd {
    pub frontmatter: Frontmatter,
    pub body: String,
    /// 1-based line of SKILL.md on which `body` starts (the line after the closing `---`).
    pub body_line: u32,
    /// Every top-level field with a string key as written, in document order.
    fields: Vec<(String, Value)>,
    /// 1-based line of each top-level key, for findings.
    key_lines: Vec<(String, u32)>,
    /// Problems found while reading the fields (wrong types); `validate` adds the spec's rules.
    pub(crate) violations: Vec<Violation>,
}

impl SkillMd {
    /// 1-based SKILL.md line of a top-level key, if the key is written.
    pub fn line_of(&self, key: &str) -> Option<u32> {
        self.key_lines.iter().find(|(k, _)| k == key).map(|(_, l)| *l)
    }

    /// Top-level fields as written (spec fields and others, any type), in document order.
    pub fn fields(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.fields.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// A top-level field as written, whatever its type.
    pub fn field(&self, key: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A top-level scalar field as text (numbers and booleans included); `None` for other types.
    pub fn field_str(&self, key: &str) -> Option<String> {
        scalar(self.field(key)?)
    }

    /// Findings from reading the fields (wrong types); `validate::validate` returns these and
    /// the spec's rules together.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.violations.iter().map(|v| &v.finding)
    }
}

pub fn parse(bytes: &[u8]) -> Result<SkillMd, ParseError> {
    use ParseErrorKind::*;
    let text = std::str::from_utf8(bytes).map_err(|e| {
        ParseError::new(
            NotUtf8,
            format!("SKILL.md is not valid UTF-8 (first bad byte at offset {}); save it as UTF-8", e.valid_up_to()),
        )
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "---" {
        return Err(ParseError::new(NoFrontmatter, "SKILL.md line 1: expected '---' to open the YAML frontmatter"));
    }
    let mut yaml = String::new();
    let mut body_start = None;
    let mut consumed = first.len();
    let mut closing_line = 1;
    for line in lines {
        consumed += line.len();
        closing_line += 1;
        if line.trim_end() == "---" {
            body_start = Some(consumed);
            break;
        }
        yaml.push_str(line);
    }
    let body_start = body_start.ok_or_else(|| {
        ParseError::new(Unclosed, "SKILL.md: the frontmatter opened on line 1 is never closed with '---'")
    })?;
    let value: Value = serde_yaml::from_str(&yaml).map_err(|e| {
        // Frontmatter starts on line 2 of the file.
        let at = e.location().map(|l| format!(" line {}", l.line() + 1)).unwrap_or_default();
        ParseError::new(InvalidYaml, format!("SKILL.md{at}: frontmatter is not valid YAML: {e}"))
    })?;
    let map = match value {
        Value::Mapping(m) => m,
        Value::Null => Default::default(),
        _ => return Err(ParseError::new(NotMapping, "SKILL.md line 2: frontmatter must be a YAML mapping of fields")),
    };
    let key_lines = yaml
        .lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let key = l.split(':').next()?;
            (!l.starts_with([' ', '\t', '#']) && l.contains(':'))
                .then(|| (key.trim().trim_matches(['"', '\'']).to_string(), i as u32 + 2))
        })
        .collect();
    let mut md = SkillMd {
        frontmatter: Frontmatter::default(),
        body: text[body_start..].to_string(),
        body_line: closing_line + 1,
        fields: Vec::new(),
        key_lines,
        violations: Vec::new(),
    };
    for (k, v) in map {
        let Some(key) = k.as_str().map(str::to_string) else {
            md.type_finding("frontmatter", "a field name is not a string");
            continue;
        };
        md.fields.push((key.clone(), v.clone()));
        md.read_field(&key, v);
    }
    Ok(md)
}

impl SkillMd {
    fn problem(&mut self, code: &'static str, key: &str, message: String) {
        let finding = Finding::new(code, rule_severity(code), message).at(FILE, self.line_of(key));
        self.violations.push(Violation { field: key.to_string(), finding });
    }

    fn type_finding(&mut self, key: &str, what: &str) {
        self.problem(code::FIELD_TYPE, key, format!("`{key}`: {what}"));
    }

    fn string_field(&mut self, key: &str, v: Value) -> Option<String> {
        match v {
            Value::String(s) => Some(s),
            Value::Null => None,
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => {
                self.type_finding(key, "must be a string");
                None
            }
        }
    }

    fn read_field(&mut self, key: &str, v: Value) {
        match key {
            "name" => self.frontmatter.name = self.string_field(key, v),
            "description" => self.frontmatter.description = self.string_field(key, v),
            "license" => self.frontmatter.license = self.string_field(key, v),
            "compatibility" => self.frontmatter.compatibility = self.string_field(key, v),
            "allowed-tools" => match v {
                Value::String(s) => self.frontmatter.allowed_tools = s.split_whitespace().map(String::from).collect(),
                Value::Sequence(items) => {
                    self.problem(
                        code::ALLOWED_TOOLS_LIST,
                        key,
                        "`allowed-tools` should be a space-separated string, not a list".into(),
                    );
                    self.frontmatter.allowed_tools =
                        items.iter().filter_map(|i| i.as_str().map(String::from)).collect();
                }
                _ => self.type_finding(key, "must be a space-separated string"),
            },
            "metadata" => match v {
                Value::Mapping(m) => {
                    for (mk, mv) in m {
                        let (Some(mk), Some(mv)) = (scalar(&mk), scalar(&mv)) else {
                            self.type_finding(key, "must map string keys to string values");
                            continue;
                        };
                        self.frontmatter.metadata.insert(mk, mv);
                    }
                }
                Value::Null => {}
                _ => self.problem(
                    code::METADATA_NOT_MAP,
                    key,
                    "`metadata`: must be a mapping of strings to strings".into(),
                ),
            },
            _ => {
                let json = serde_json::to_value(&v).unwrap_or(serde_json::Value::Null);
                self.frontmatter.extra.insert(key.to_string(), json);
            }
        }
        debug_assert!(KNOWN_FIELDS.contains(&key) || self.frontmatter.extra.contains_key(key));
    }
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fields_and_keeps_unknown_ones() {
        let md = parse(
            b"---\nname: pdf-tools\ndescription: Work with PDFs.\nlicense: MIT\nmetadata:\n  author: me\n  version: 1.0\nallowed-tools: Bash Read\nglobs: '*.pdf'\n---\n# Body\n",
        )
        .unwrap();
        let fm = &md.frontmatter;
        assert_eq!(fm.name.as_deref(), Some("pdf-tools"));
        assert_eq!(fm.metadata["version"], "1.0");
        assert_eq!(fm.allowed_tools, ["Bash", "Read"]);
        assert_eq!(fm.extra["globs"], serde_json::json!("*.pdf"));
        assert_eq!(md.body, "# Body\n");
        assert_eq!(md.line_of("globs"), Some(9));
        assert!(md.findings().next().is_none());
        assert_eq!(md.body_line, 11);
        assert_eq!(md.field_str("license").as_deref(), Some("MIT"));
        assert!(md.field("metadata").is_some_and(Value::is_mapping));
        let keys: Vec<_> = md.fields().map(|(k, _)| k).collect();
        assert_eq!(keys, ["name", "description", "license", "metadata", "allowed-tools", "globs"]);
    }

    #[test]
    fn reports_the_line_of_bad_yaml() {
        let e = parse(b"---\nname: a\ndescription: [unclosed\n---\n").unwrap_err();
        assert!(e.message.contains("line "), "{e}");
        assert_eq!(e.kind, ParseErrorKind::InvalidYaml);
        assert_eq!(parse(b"---\n- a\n---\n").unwrap_err().kind, ParseErrorKind::NotMapping);
    }

    #[test]
    fn refuses_missing_or_unclosed_frontmatter_and_non_utf8() {
        let kind_and = |b: &[u8]| parse(b).map(|_| ()).unwrap_err();
        let e = kind_and(b"# no frontmatter");
        assert!(e.message.contains("line 1") && e.kind == ParseErrorKind::NoFrontmatter, "{e:?}");
        assert_eq!(kind_and(b"").kind, ParseErrorKind::NoFrontmatter);
        let e = kind_and(b"---\nname: a\n");
        assert!(e.to_string().contains("never closed") && e.kind == ParseErrorKind::Unclosed, "{e:?}");
        let e = kind_and(b"---\nname: \xff\n---\n");
        assert!(e.message.contains("UTF-8") && e.kind == ParseErrorKind::NotUtf8, "{e:?}");
    }

    #[test]
    fn wrong_types_become_findings() {
        let md = parse(b"---\nname: [a, b]\nmetadata: 3\ndescription: ok\n---\n").unwrap();
        assert_eq!(md.frontmatter.name, None);
        let f: Vec<_> = md.findings().collect();
        assert_eq!(f.len(), 2);
        assert_eq!((f[0].code.as_str(), f[0].line), ("field-type", Some(2)));
        assert_eq!((f[1].code.as_str(), f[1].line), ("metadata-not-map", Some(3)));
    }

    #[test]
    fn accepts_crlf_and_bom() {
        let md = parse("\u{feff}---\r\nname: x\r\ndescription: y\r\n---\r\nbody".as_bytes()).unwrap();
        assert_eq!(md.frontmatter.description.as_deref(), Some("y"));
        assert_eq!(md.body, "body");
        assert_eq!(md.body_line, 5);
    }

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
