//! Splits SKILL.md into YAML frontmatter and Markdown body.

use serde_yaml::{Mapping, Value};

pub struct Frontmatter {
    /// Parsed mapping; `None` when absent or unparsable (see `error`).
    pub map: Option<Mapping>,
    pub present: bool,
    pub error: Option<String>,
    /// Frontmatter lines (without the `---` fences), used to locate keys.
    raw_lines: Vec<String>,
    pub body: String,
    /// 1-based line number of the first body line in SKILL.md.
    pub body_line: u32,
}

impl Frontmatter {
    pub fn parse(text: &str) -> Frontmatter {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let lines: Vec<&str> = text.lines().collect();
        let absent = Frontmatter {
            map: None,
            present: false,
            error: None,
            raw_lines: Vec::new(),
            body: text.to_string(),
            body_line: 1,
        };
        if lines.first().map(|l| l.trim_end()) != Some("---") {
            return absent;
        }
        let Some(end) = lines.iter().skip(1).position(|l| l.trim_end() == "---") else {
            return Frontmatter { error: Some("frontmatter has no closing `---`".into()), present: true, ..absent };
        };
        let raw_lines: Vec<String> = lines[1..=end].iter().map(|s| s.to_string()).collect();
        let body = lines[end + 2..].join("\n");
        let (map, error) = match serde_yaml::from_str::<Value>(&raw_lines.join("\n")) {
            Ok(Value::Mapping(m)) => (Some(m), None),
            Ok(Value::Null) => (Some(Mapping::new()), None),
            Ok(_) => (None, Some("frontmatter is not a mapping".into())),
            Err(e) => (None, Some(e.to_string())),
        };
        Frontmatter { map, present: true, error, raw_lines, body, body_line: end as u32 + 3 }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.map.as_ref()?.get(key)
    }

    /// A scalar field rendered as a string (numbers and bools included).
    pub fn get_str(&self, key: &str) -> Option<String> {
        scalar(self.get(key)?)
    }

    pub fn metadata_str(&self, key: &str) -> Option<String> {
        scalar(self.get("metadata")?.get(key)?)
    }

    pub fn keys(&self) -> Vec<String> {
        self.map.iter().flat_map(|m| m.keys()).filter_map(scalar).collect()
    }

    /// SKILL.md line of a top-level key (1 when not found, i.e. the opening fence).
    pub fn line_of(&self, key: &str) -> u32 {
        self.raw_lines
            .iter()
            .position(|l| l.starts_with(key) && l[key.len()..].trim_start().starts_with(':'))
            .map_or(1, |i| i as u32 + 2)
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
