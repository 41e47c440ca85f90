//! Agent Skills spec checks (agentskills.io specification). Each problem is a finding, never a refusal.

use crate::finding::{Finding, Severity};
use crate::skill_md::{SkillMd, FILE};

const NAME_MAX: usize = 64;
const DESCRIPTION_MAX: usize = 1024;
const COMPATIBILITY_MAX: usize = 500;

/// Checks the frontmatter of a skill whose directory is named `dir_name`.
pub fn validate(md: &SkillMd, dir_name: &str) -> Vec<Finding> {
    let fm = &md.frontmatter;
    let mut out = md.findings.clone();
    let mut push = |code: &str, sev: Severity, msg: String, key: &str| {
        out.push(Finding::new(code, sev, msg).at(FILE, md.line_of(key)));
    };
    match fm.name.as_deref() {
        None | Some("") => push(
            "name_missing",
            Severity::Error,
            "`name` is required; the directory name is used until it is set".into(),
            "name",
        ),
        Some(name) => {
            for problem in name_problems(name) {
                push("name_invalid", Severity::Error, format!("`name` {problem}"), "name");
            }
            if name != dir_name {
                push(
                    "name_dir_mismatch",
                    Severity::Warning,
                    format!("`name` is {name:?} but the directory is {dir_name:?}; they must match"),
                    "name",
                );
            }
        }
    }
    match fm.description.as_deref().map(str::trim) {
        None | Some("") => push(
            "description_missing",
            Severity::Error,
            "`description` is required: say what the skill does and when to use it".into(),
            "description",
        ),
        Some(d) if d.chars().count() > DESCRIPTION_MAX => push(
            "description_too_long",
            Severity::Error,
            format!("`description` has {} characters; the limit is {DESCRIPTION_MAX}", d.chars().count()),
            "description",
        ),
        Some(_) => {}
    }
    if let Some(c) = fm.compatibility.as_deref() {
        let n = c.chars().count();
        if n == 0 || n > COMPATIBILITY_MAX {
            push(
                "compatibility_length",
                Severity::Error,
                format!("`compatibility` has {n} characters; it must be 1 to {COMPATIBILITY_MAX}"),
                "compatibility",
            );
        }
    }
    for key in fm.extra.keys() {
        push(
            "unknown_field",
            Severity::Warning,
            format!("`{key}` is not a field of the Agent Skills spec; agents will ignore it"),
            key,
        );
    }
    out
}

/// Every way `name` breaks the spec's naming rules.
pub fn name_problems(name: &str) -> Vec<String> {
    let mut p = Vec::new();
    let len = name.chars().count();
    if len > NAME_MAX {
        p.push(format!("has {len} characters; the limit is {NAME_MAX}"));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_lowercase() || c.is_numeric() || *c == '-')) {
        p.push(format!("may hold only lowercase letters, digits and hyphens, not {c:?}"));
    }
    if name.starts_with('-') || name.ends_with('-') {
        p.push("must not start or end with a hyphen".into());
    }
    if name.contains("--") {
        p.push("must not contain consecutive hyphens".into());
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill_md::parse;

    fn codes(src: &str, dir: &str) -> Vec<String> {
        validate(&parse(src.as_bytes()).unwrap(), dir).into_iter().map(|f| f.code).collect()
    }

    #[test]
    fn valid_skill_has_no_findings() {
        assert!(codes("---\nname: pdf-tools\ndescription: Does PDFs.\n---\n", "pdf-tools").is_empty());
    }

    #[test]
    fn name_rules() {
        assert_eq!(name_problems("PDF-tools").len(), 1);
        assert_eq!(name_problems("-pdf").len(), 1);
        assert_eq!(name_problems("pdf--x").len(), 1);
        assert_eq!(name_problems(&"a".repeat(65)).len(), 1);
        assert!(name_problems("données-2").is_empty());
        assert_eq!(codes("---\nname: a\ndescription: d\n---\n", "b"), ["name_dir_mismatch"]);
    }

    #[test]
    fn description_and_compatibility_limits_and_unknown_fields() {
        let long = "x".repeat(1025);
        let src = format!("---\nname: a\ndescription: {long}\ncompatibility: ''\nglobs: x\n---\n");
        let f = validate(&parse(src.as_bytes()).unwrap(), "a");
        let c: Vec<_> = f.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(c, ["description_too_long", "compatibility_length", "unknown_field"]);
        assert_eq!(f[2].line, Some(5));
        assert_eq!(codes("---\nname: a\n---\n", "a"), ["description_missing"]);
    }
}
