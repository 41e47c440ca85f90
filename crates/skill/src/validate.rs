//! Agent Skills spec checks (agentskills.io specification). Each problem is a finding, never a refusal.
//!
//! This is the one implementation of the spec's rules: the library stores these findings and the
//! scanner scores them, both under the codes in [`code`] (kebab-case, as the scanner's rule ids).

use crate::finding::Finding;
use crate::rules::rule_severity;
pub use crate::rules::{code, Violation};
use crate::skill_md::{SkillMd, FILE, KNOWN_FIELDS};

pub const NAME_MAX: usize = 64;
pub const DESCRIPTION_MAX: usize = 1024;
pub const COMPATIBILITY_MAX: usize = 500;
/// Editor-specific fields (Cursor rules) that do not belong in a skill.
pub const FORBIDDEN_FIELDS: &[&str] = &["alwaysApply", "always_apply", "globs"];

/// Checks the frontmatter of a skill whose directory is named `dir_name`: the findings from
/// reading it, then the spec's rules.
pub fn validate(md: &SkillMd, dir_name: &str) -> Vec<Finding> {
    check(md, dir_name).into_iter().map(|v| v.finding).collect()
}

/// [`validate`], with the field each finding concerns.
pub fn check(md: &SkillMd, dir_name: &str) -> Vec<Violation> {
    let fm = &md.frontmatter;
    let mut out = md.violations.clone();
    let mut push = |code: &'static str, msg: String, key: &str| {
        let finding = Finding::new(code, rule_severity(code), msg).at(FILE, md.line_of(key));
        out.push(Violation { field: key.to_string(), finding });
    };
    match fm.name.as_deref().filter(|n| !n.trim().is_empty()) {
        None => {
            push(code::NAME_MISSING, "`name` is required; the directory name is used until it is set".into(), "name")
        }
        Some(name) => {
            for (code, problem) in name_problems(name) {
                push(code, format!("`name` {problem}"), "name");
            }
            if name != dir_name {
                push(
                    code::NAME_DIR_MISMATCH,
                    format!("`name` is {name:?} but the directory is {dir_name:?}; they must match"),
                    "name",
                );
            }
        }
    }
    match fm.description.as_deref().map(str::trim) {
        None | Some("") => push(
            code::DESCRIPTION_MISSING,
            "`description` is required: say what the skill does and when to use it".into(),
            "description",
        ),
        Some(d) if d.chars().count() > DESCRIPTION_MAX => push(
            code::DESCRIPTION_OVER_LIMIT,
            format!("`description` has {} characters; the limit is {DESCRIPTION_MAX}", d.chars().count()),
            "description",
        ),
        Some(_) => {}
    }
    if let Some(c) = fm.compatibility.as_deref() {
        let n = c.chars().count();
        if n == 0 {
            push(
                code::COMPATIBILITY_EMPTY,
                format!("`compatibility` is empty; when given it must be 1 to {COMPATIBILITY_MAX} characters"),
                "compatibility",
            );
        } else if n > COMPATIBILITY_MAX {
            push(
                code::COMPATIBILITY_TOO_LONG,
                format!("`compatibility` has {n} characters; the limit is {COMPATIBILITY_MAX}"),
                "compatibility",
            );
        }
    }
    for (key, _) in md.fields().filter(|(k, _)| !KNOWN_FIELDS.contains(k)) {
        if FORBIDDEN_FIELDS.contains(&key) {
            push(
                code::FORBIDDEN_FIELD,
                format!("`{key}` is an editor-specific field, not part of the Agent Skills spec; remove it"),
                key,
            );
        } else {
            push(
                code::UNKNOWN_FIELD,
                format!("`{key}` is not a field of the Agent Skills spec; agents will ignore it"),
                key,
            );
        }
    }
    out
}

/// Every way `name` breaks the spec's naming rules, at most one problem per code.
/// Lowercase letters and digits of any script are allowed, as in the spec's reference validator.
pub fn name_problems(name: &str) -> Vec<(&'static str, String)> {
    let mut p = Vec::new();
    let len = name.chars().count();
    if len > NAME_MAX {
        p.push((code::NAME_TOO_LONG, format!("has {len} characters; the limit is {NAME_MAX}")));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_lowercase() || c.is_numeric() || *c == '-')) {
        p.push((code::NAME_CHARSET, format!("may hold only lowercase letters, digits and hyphens, not {c:?}")));
    }
    let mut hyphens = Vec::new();
    if name.starts_with('-') || name.ends_with('-') {
        hyphens.push("must not start or end with a hyphen");
    }
    if name.contains("--") {
        hyphens.push("must not contain consecutive hyphens");
    }
    if !hyphens.is_empty() {
        p.push((code::NAME_NOT_KEBAB, hyphens.join(" and ")));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill_md::parse;
    use crate::Severity;

    fn codes(src: &str, dir: &str) -> Vec<String> {
        validate(&parse(src.as_bytes()).unwrap(), dir).into_iter().map(|f| f.code).collect()
    }

    fn name_codes(name: &str) -> Vec<&'static str> {
        name_problems(name).into_iter().map(|(c, _)| c).collect()
    }

    #[test]
    fn valid_skill_has_no_findings() {
        assert!(codes("---\nname: pdf-tools\ndescription: Does PDFs.\n---\n", "pdf-tools").is_empty());
    }

    #[test]
    fn name_rules() {
        assert_eq!(name_codes("PDF-tools"), [code::NAME_CHARSET]);
        assert_eq!(name_codes("-pdf"), [code::NAME_NOT_KEBAB]);
        assert_eq!(name_codes("pdf--x"), [code::NAME_NOT_KEBAB]);
        assert_eq!(
            name_problems("-a--b-")[0].1,
            "must not start or end with a hyphen and must not contain consecutive hyphens"
        );
        assert_eq!(name_codes(&"a".repeat(65)), [code::NAME_TOO_LONG]);
        assert_eq!(name_codes("Pdf_x-"), [code::NAME_CHARSET, code::NAME_NOT_KEBAB]);
        assert!(name_problems("données-2").is_empty());
        assert!(name_problems("3d-tools").is_empty(), "the spec does not ask for a letter first");
        assert_eq!(codes("---\nname: a\ndescription: d\n---\n", "b"), [code::NAME_DIR_MISMATCH]);
        assert_eq!(codes("---\nname: '  '\ndescription: d\n---\n", "a"), [code::NAME_MISSING]);
    }

    #[test]
    fn description_and_compatibility_limits_and_unknown_fields() {
        let long = "x".repeat(1025);
        let src = format!("---\nname: a\ndescription: {long}\ncompatibility: ''\nglobs: x\nversion: 1\n---\n");
        let f = check(&parse(src.as_bytes()).unwrap(), "a");
        let c: Vec<_> = f.iter().map(|v| v.finding.code.as_str()).collect();
        assert_eq!(
            c,
            [code::DESCRIPTION_OVER_LIMIT, code::COMPATIBILITY_EMPTY, code::FORBIDDEN_FIELD, code::UNKNOWN_FIELD]
        );
        assert_eq!((f[2].field.as_str(), f[2].finding.line), ("globs", Some(5)));
        assert_eq!((f[3].field.as_str(), f[3].finding.severity), ("version", Severity::Warning));
        let src = format!("---\nname: a\ndescription: d\ncompatibility: {}\n---\n", "c".repeat(501));
        assert_eq!(codes(&src, "a"), [code::COMPATIBILITY_TOO_LONG]);
        assert_eq!(codes("---\nname: a\n---\n", "a"), [code::DESCRIPTION_MISSING]);
    }

    #[test]
    fn unknown_fields_come_in_document_order() {
        let src = "---\nname: a\ndescription: d\nzeta: 1\nalpha: 2\n---\n";
        let f = validate(&parse(src.as_bytes()).unwrap(), "a");
        assert_eq!(f.iter().map(|f| f.line).collect::<Vec<_>>(), [Some(4), Some(5)]);
    }

    #[test]
    fn type_problems_are_findings_with_their_field() {
        let md = parse(b"---\nname: a\ndescription: d\nmetadata: [1]\nallowed-tools: [Bash]\n---\n").unwrap();
        let f = check(&md, "a");
        let got: Vec<_> = f.iter().map(|v| (v.finding.code.as_str(), v.field.as_str(), v.finding.severity)).collect();
        assert_eq!(
            got,
            [
                (code::METADATA_NOT_MAP, "metadata", Severity::Error),
                (code::ALLOWED_TOOLS_LIST, "allowed-tools", Severity::Warning)
            ]
        );
    }

    #[test]
    fn codes_are_unique_kebab_case() {
        let mut all: Vec<_> = code::ALL.iter().map(|(c, _)| *c).collect();
        assert!(all.iter().all(|c| c.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')), "{all:?}");
        all.sort();
        all.dedup();
        assert_eq!(all.len(), code::ALL.len());
    }
}
