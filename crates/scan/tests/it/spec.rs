//! The Agent Skills spec's rules: checked once by skillscope-skill, scored by the scanner under
//! the same codes the library stores.

use crate::common::{file, rules, scan_skill_md};
use skillscope_scan::{scan, ScanConfig};
use skillscope_skill::skill_md::parse;
use skillscope_skill::validate::{code, validate};

/// The spec codes of a SKILL.md as the library's validation reports them.
fn library_codes(dir_name: &str, skill_md: &str) -> Vec<String> {
    validate(&parse(skill_md.as_bytes()).unwrap(), dir_name).into_iter().map(|f| f.code).collect()
}

#[test]
fn scanner_and_library_report_the_spec_under_the_same_codes() {
    let long = "d".repeat(1025);
    let md = format!(
        "---\nname: Pdf--Tools\ndescription: {long}\ncompatibility: {}\nglobs: x\nextra: 1\n---\n# Body\n",
        "c".repeat(501)
    );
    let lib = library_codes("pdf-tools", &md);
    let scanned = scan_skill_md("pdf-tools", &md);
    let scanned = rules(&scanned);
    for c in [
        code::NAME_CHARSET,
        code::NAME_NOT_KEBAB,
        code::NAME_DIR_MISMATCH,
        code::DESCRIPTION_OVER_LIMIT,
        code::COMPATIBILITY_TOO_LONG,
        code::FORBIDDEN_FIELD,
        code::UNKNOWN_FIELD,
    ] {
        assert!(lib.iter().any(|l| l == c), "library lacks {c}: {lib:?}");
        assert_eq!(scanned.iter().filter(|s| **s == c).count(), 1, "scanner reports {c} once: {scanned:?}");
    }
    // The quality advice on description length is a different rule from the spec's limit.
    assert!(scanned.contains(&"description-too-long"));
}

#[test]
fn a_name_problem_is_reported_once() {
    let r = scan_skill_md("pdf-tools", "---\nname: PDF-Tools\ndescription: Reads PDFs. Use when given a PDF.\n---\n");
    let name_rules: Vec<_> = rules(&r).into_iter().filter(|r| r.starts_with("name-")).collect();
    assert_eq!(name_rules, ["name-charset", "name-dir-mismatch"]);
    let missing = scan_skill_md("x", "---\nname: '  '\ndescription: Reads PDFs. Use when given a PDF.\n---\n");
    let name_rules: Vec<_> = rules(&missing).into_iter().filter(|r| r.starts_with("name-")).collect();
    assert_eq!(name_rules, ["name-missing"], "a blank name is missing, not malformed");
}

#[test]
fn findings_keep_their_lines() {
    let r = scan_skill_md("demo", "---\nname: demo\n'description': short\nmetadata: 3\nalwaysApply: true\n---\n");
    let at = |rule: &str| r.quality.findings.iter().find(|f| f.rule == rule).and_then(|f| f.line);
    assert_eq!(at("description-too-short"), Some(3));
    assert_eq!(at("metadata-not-map"), Some(4));
    assert_eq!(at("forbidden-field"), Some(5));
    let f = r.quality.findings.iter().find(|f| f.rule == "forbidden-field").unwrap();
    assert!(f.message.ends_with(": alwaysApply"), "{}", f.message);
}

#[test]
fn validation_only_codes_and_a_top_level_version_are_not_scored() {
    let md = "---\nname: demo\ndescription: Demo skill. Use for tests.\nversion: 1.0.0\nallowed-tools: [Bash]\n\
              compatibility: ''\nmetadata:\n  tags: [a, b]\n---\n";
    let lib = library_codes("demo", md);
    for c in [code::UNKNOWN_FIELD, code::ALLOWED_TOOLS_LIST, code::COMPATIBILITY_EMPTY, code::FIELD_TYPE] {
        assert!(lib.iter().any(|l| l == c), "library lacks {c}: {lib:?}");
    }
    let r = scan_skill_md("demo", md);
    let scanned = rules(&r);
    for c in
        [code::UNKNOWN_FIELD, code::ALLOWED_TOOLS_LIST, code::COMPATIBILITY_EMPTY, code::FIELD_TYPE, "tags-missing"]
    {
        assert!(!scanned.contains(&c), "{c} in {scanned:?}");
    }
    assert!(!scanned.contains(&"version-missing") && !scanned.contains(&"version-format"));
}

#[test]
fn unreadable_frontmatter_is_one_finding() {
    for (md, rule) in [
        ("", "frontmatter-missing"),
        ("# no frontmatter\n", "frontmatter-missing"),
        ("---\nname: a\n", "frontmatter-invalid"),
        ("---\nname: [a\n---\n", "frontmatter-invalid"),
        ("---\n- a\n---\n", "frontmatter-invalid"),
    ] {
        let r = scan_skill_md("demo", md);
        let spec: Vec<_> = rules(&r).into_iter().filter(|r| !r.starts_with("dir-name")).collect();
        assert_eq!(spec, [rule], "{md:?}");
    }
    let bad = scan("demo", &[file("SKILL.md", "---\nname: [a\n---\n")], &ScanConfig::default());
    let f = &bad.quality.findings[0];
    assert!(f.message.contains("not valid YAML") && f.line == Some(1), "{f:?}");
}

#[test]
fn manifest_hygiene_follows_the_spec_check() {
    // D5 findings share one location, so the scan keeps the most severe of them.
    let d5 = |md: &str| -> Vec<String> {
        let r = scan_skill_md("demo", md);
        r.security.findings.iter().filter(|f| f.pattern == "D5").map(|f| f.message.clone()).collect()
    };
    assert_eq!(d5("---\nname: demo\ndescription: Demo skill.\nlicense: MIT\n---\n"), Vec::<String>::new());
    assert_eq!(d5("---\nname: demo\ndescription: Demo skill.\n---\n"), ["no license declared"]);
    assert_eq!(d5("---\nname: ' '\ndescription: Demo skill.\nlicense: MIT\n---\n"), ["manifest has no name"]);
    assert_eq!(d5("---\nname: demo\ndescription: ''\nlicense: MIT\n---\n"), ["manifest has no description"]);
    assert_eq!(d5("no frontmatter").len(), 1, "an unreadable manifest has no name either");
}
