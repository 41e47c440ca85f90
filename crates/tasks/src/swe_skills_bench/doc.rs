//! SWE-Skills-Bench requirement documents: `# Task: <title>`, then `##`
//! sections (`Background`, `Files to Create/Modify`, `Requirements`,
//! optional `Expected Functionality`, `Acceptance Criteria`). Only the title
//! and a non-empty `Acceptance Criteria` section are required: some of the
//! benchmark's own documents use `Objective`/`Scope` instead of the others.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequirementDoc {
    pub title: String,
    /// Every `##` section in order: (heading, body without the heading).
    pub sections: Vec<(String, String)>,
    /// Entries of the `Files to ...` section.
    pub files: Vec<RequirementFile>,
    /// Bullets (or, without bullets, non-empty lines) of `Acceptance Criteria`.
    pub acceptance_criteria: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequirementFile {
    pub path: String,
    /// `create` or `modify` when the document says so.
    pub action: Option<String>,
}

impl RequirementDoc {
    pub fn section(&self, heading: &str) -> Option<&str> {
        self.sections.iter().find(|(h, _)| h.eq_ignore_ascii_case(heading)).map(|(_, b)| b.as_str())
    }
}

/// Parses a requirement document; the error says what is missing.
pub fn parse(text: &str) -> Result<RequirementDoc, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut title = None;
    let mut sections: Vec<(String, String)> = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        if !in_fence {
            if let Some(rest) = line.strip_prefix("# ") {
                if title.is_none() {
                    let rest = rest.trim();
                    let t = rest
                        .strip_prefix("Task:")
                        .ok_or_else(|| format!("first title `# {rest}` is not `# Task: ...`"))?;
                    title = Some(t.trim().to_string());
                    continue;
                }
            }
            if let Some(h) = line.strip_prefix("## ") {
                sections.push((h.trim().to_string(), String::new()));
                continue;
            }
        }
        if let Some((_, body)) = sections.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    let title = title.ok_or("no `# Task:` title")?;
    if title.is_empty() {
        return Err("`# Task:` title is empty".into());
    }
    for (_, b) in &mut sections {
        *b = b.trim().to_string();
    }
    let doc = RequirementDoc { title, files: Vec::new(), acceptance_criteria: Vec::new(), sections };
    let criteria = doc.section("Acceptance Criteria").ok_or("no `## Acceptance Criteria` section")?;
    let acceptance_criteria = bullets(criteria);
    if acceptance_criteria.is_empty() {
        return Err("`## Acceptance Criteria` is empty".into());
    }
    let files = doc
        .sections
        .iter()
        .filter(|(h, _)| h.to_ascii_lowercase().starts_with("files to"))
        .flat_map(|(_, b)| b.lines().filter_map(file_entry))
        .collect();
    Ok(RequirementDoc { files, acceptance_criteria, ..doc })
}

fn bullets(body: &str) -> Vec<String> {
    let items: Vec<String> = body
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            l.strip_prefix("- ").or_else(|| l.strip_prefix("* ")).map(|s| s.trim().to_string())
        })
        .filter(|s| !s.is_empty())
        .collect();
    if !items.is_empty() {
        return items;
    }
    body.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect()
}

/// `- \`path\` (create) — note` → path and action.
fn file_entry(line: &str) -> Option<RequirementFile> {
    let l = line.trim_start().strip_prefix("- ")?;
    let rest = l.strip_prefix('`')?;
    let (path, after) = rest.split_once('`')?;
    let action = after
        .trim_start()
        .strip_prefix('(')
        .and_then(|a| a.split_once(')'))
        .map(|(a, _)| a.trim().to_ascii_lowercase())
        .filter(|a| !a.is_empty());
    Some(RequirementFile { path: path.trim().to_string(), action })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\u{feff}# Task: Add a thing\n\n## Background\n\nRepo context.\n\n\
## Files to Create/Modify\n\n- `src/a.py` (create) — new module\n- `src/b.py` (modify) — wire it\n- `README.md` — docs\n\n\
## Requirements\n\n```md\n## Not a heading\n```\n\n- do it\n\n## Acceptance Criteria\n\n- `a()` returns 1\n- tests pass\n";

    #[test]
    fn parses_sections_files_and_criteria() {
        let d = parse(DOC).unwrap();
        assert_eq!(d.title, "Add a thing");
        let heads: Vec<_> = d.sections.iter().map(|(h, _)| h.as_str()).collect();
        assert_eq!(heads, ["Background", "Files to Create/Modify", "Requirements", "Acceptance Criteria"]);
        assert!(d.section("requirements").unwrap().contains("## Not a heading"));
        assert_eq!(d.files.len(), 3);
        assert_eq!(d.files[0].path, "src/a.py");
        assert_eq!(d.files[0].action.as_deref(), Some("create"));
        assert_eq!(d.files[2].action, None);
        assert_eq!(d.acceptance_criteria, ["`a()` returns 1", "tests pass"]);
    }

    #[test]
    fn reports_what_is_missing() {
        assert!(parse("## Background\nx\n").unwrap_err().contains("no `# Task:`"));
        assert!(parse("# Fix it\n").unwrap_err().contains("is not `# Task:"));
        assert!(parse("# Task:  \n## Acceptance Criteria\n- x\n").unwrap_err().contains("empty"));
        assert!(parse("# Task: x\n## Requirements\n- y\n").unwrap_err().contains("no `## Acceptance Criteria`"));
        assert!(parse("# Task: x\n## Acceptance Criteria\n\n").unwrap_err().contains("is empty"));
    }

    #[test]
    fn criteria_without_bullets_are_lines() {
        let d = parse("# Task: x\n## Acceptance Criteria\nOne.\n\nTwo.\n").unwrap();
        assert_eq!(d.acceptance_criteria, ["One.", "Two."]);
    }
}
