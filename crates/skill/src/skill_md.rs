//! Splits SKILL.md into YAML frontmatter and Markdown body, and reads the spec's fields.
//! Refuses only what makes the skill unusable; wrong field types become findings.

use crate::finding::{Finding, Severity};
use serde::{Deserialize, Serialize};
use serde_yaml::Value;
use std::collections::BTreeMap;
use ts_rs::TS;

pub const FILE: &str = "SKILL.md";
const KNOWN_FIELDS: &[&str] = &["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

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

/// Why a SKILL.md cannot be read at all: the skill is unusable (wrong field types are findings).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

impl ParseError {
    fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

#[derive(Debug, Clone)]
pub struct SkillMd {
    pub frontmatter: Frontmatter,
    pub body: String,
    /// 1-based line of each top-level key, for findings.
    key_lines: Vec<(String, u32)>,
    pub findings: Vec<Finding>,
}

impl SkillMd {
    pub fn line_of(&self, key: &str) -> Option<u32> {
        self.key_lines.iter().find(|(k, _)| k == key).map(|(_, l)| *l)
    }
}

pub fn parse(bytes: &[u8]) -> Result<SkillMd, ParseError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        ParseError::new(format!(
            "SKILL.md is not valid UTF-8 (first bad byte at offset {}); save it as UTF-8",
            e.valid_up_to()
        ))
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "---" {
        return Err(ParseError::new("SKILL.md line 1: expected '---' to open the YAML frontmatter"));
    }
    let mut yaml = String::new();
    let mut body_start = None;
    let mut consumed = first.len();
    for line in lines {
        consumed += line.len();
        if line.trim_end() == "---" {
            body_start = Some(consumed);
            break;
        }
        yaml.push_str(line);
    }
    let body_start = body_start
        .ok_or_else(|| ParseError::new("SKILL.md: the frontmatter opened on line 1 is never closed with '---'"))?;
    let value: Value = serde_yaml::from_str(&yaml).map_err(|e| {
        // Frontmatter starts on line 2 of the file.
        let at = e.location().map(|l| format!(" line {}", l.line() + 1)).unwrap_or_default();
        ParseError::new(format!("SKILL.md{at}: frontmatter is not valid YAML: {e}"))
    })?;
    let map = match value {
        Value::Mapping(m) => m,
        Value::Null => Default::default(),
        _ => return Err(ParseError::new("SKILL.md line 2: frontmatter must be a YAML mapping of fields")),
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
        key_lines,
        findings: Vec::new(),
    };
    for (k, v) in map {
        let Some(key) = k.as_str().map(str::to_string) else {
            md.type_finding("frontmatter", "a field name is not a string");
            continue;
        };
        md.read_field(&key, v);
    }
    Ok(md)
}

impl SkillMd {
    fn type_finding(&mut self, key: &str, what: &str) {
        let line = self.line_of(key);
        self.findings.push(Finding::new("field_type", Severity::Error, format!("`{key}`: {what}")).at(FILE, line));
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
                    self.findings.push(
                        Finding::new(
                            "allowed_tools_list",
                            Severity::Warning,
                            "`allowed-tools` should be a space-separated string, not a list",
                        )
                        .at(FILE, self.line_of(key)),
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
                _ => self.type_finding(key, "must be a mapping of strings to strings"),
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
        assert!(md.findings.is_empty());
    }

    #[test]
    fn reports_the_line_of_bad_yaml() {
        let e = parse(b"---\nname: a\ndescription: [unclosed\n---\n").unwrap_err();
        assert!(e.0.contains("line "), "{e}");
    }

    #[test]
    fn refuses_missing_or_unclosed_frontmatter_and_non_utf8() {
        assert!(parse(b"# no frontmatter").unwrap_err().message.contains("line 1"));
        assert!(parse(b"---\nname: a\n").unwrap_err().message.contains("never closed"));
        assert!(parse(b"---\nname: \xff\n---\n").unwrap_err().message.contains("UTF-8"));
    }

    #[test]
    fn wrong_types_become_findings() {
        let md = parse(b"---\nname: [a, b]\nmetadata: 3\ndescription: ok\n---\n").unwrap();
        assert_eq!(md.frontmatter.name, None);
        assert_eq!(md.findings.len(), 2);
        assert_eq!(md.findings[0].line, Some(2));
    }

    #[test]
    fn accepts_crlf_and_bom() {
        let md = parse("\u{feff}---\r\nname: x\r\ndescription: y\r\n---\r\nbody".as_bytes()).unwrap();
        assert_eq!(md.frontmatter.description.as_deref(), Some("y"));
        assert_eq!(md.body, "body");
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
