//! The quality rule table. Each check in `quality.rs` emits findings by rule id;
//! deductions, severities and wording live only here.

use crate::report::{Dimension, Severity};

pub struct Rule {
    pub id: &'static str,
    pub dimension: Dimension,
    pub severity: Severity,
    pub deduction: f64,
    pub message: &'static str,
    pub suggestion: &'static str,
    /// Where the rule comes from.
    pub doc: &'static str,
}

use Dimension::{Correctness as C, Discoverability as D, Efficiency as E, Reliability as R};
use Severity::{Critical, High, Info, Low, Medium};

const Q: &str = "SkillEvaluator quality score";
const SPEC: &str = "Agent Skills specification / schema validator";
const UNI: &str = "SkillEvaluator unicode check";

macro_rules! rules {
    ($( $id:literal, $dim:expr, $sev:expr, $ded:literal, $doc:expr, $msg:literal, $sug:literal; )*) => {
        pub static RULES: &[Rule] = &[ $( Rule { id: $id, dimension: $dim, severity: $sev, deduction: $ded,
            message: $msg, suggestion: $sug, doc: $doc } ),* ];
    };
}

rules! {
    // --- Section 1.4 quality rules (numbers are the reference rule numbers) ---
    "xml-in-frontmatter", C, High, 15.0, Q, "XML tag in a frontmatter field", "Remove angle-bracket tags from frontmatter values."; // 1
    "name-charset", C, High, 15.0, Q, "name has characters other than lowercase letters, digits and hyphens", "Use lowercase letters, digits and hyphens only."; // 2
    "name-reserved-word", C, High, 15.0, Q, "name contains a reserved word (anthropic, claude)", "Pick a name without vendor words."; // 3
    "xml-in-name", C, High, 15.0, Q, "XML tag in name", "Remove tags from the name."; // 4
    "xml-in-description", C, High, 15.0, Q, "XML tag in description", "Remove tags from the description."; // 5
    "scripts-dir-without-scripts", C, Medium, 10.0, Q, "scripts/ has no .py or .sh file", "Put the executable scripts in scripts/ or remove the folder."; // 6
    "scripts-dir-missing", C, High, 25.0, Q, "script-type skill without a scripts/ directory", "Move scripts into scripts/."; // 7
    "scripts-undocumented", C, Medium, 10.0, Q, "no `## Available Scripts` section or script table", "List each script with its purpose in `## Available Scripts`."; // 8
    "run-script-not-mentioned", C, Medium, 10.0, Q, "body never says how to run the scripts (run_script)", "Show the exact command or run_script call for each script."; // 9
    "lib-missing-pyproject", C, Medium, 10.0, Q, "library skill without pyproject.toml", "Add a pyproject.toml describing the package."; // 10
    "lib-api-undocumented", C, Medium, 10.0, Q, "library skill without API/import documentation", "Document how to import and call the library."; // 11
    "lib-module-missing", C, Medium, 15.0, Q, "library skill but no module directory found", "Ship the package directory with its __init__.py."; // 12
    "lib-resources-unmentioned", C, Low, 5.0, Q, "library ships resources that SKILL.md never mentions", "Describe the bundled resources and when to use them."; // 13
    "resources-unmentioned", C, Medium, 10.0, Q, "resource skill whose SKILL.md never mentions its templates/assets", "Explain which template or asset to use for what."; // 14
    "guide-too-short", C, Medium, 15.0, Q, "guide-only skill with fewer than 20 non-empty lines", "Add concrete steps, examples and edge cases."; // 15
    "no-examples", C, Low, 5.0, Q, "no examples (no code block, `Example:` or `## Examples`)", "Add at least one worked example."; // 16
    "windows-paths", C, Medium, 10.0, Q, "Windows-style path (backslashes)", "Use forward slashes in paths."; // 17
    "links-readme", C, Medium, 5.0, Q, "SKILL.md links to README.md", "Put agent-facing content in SKILL.md or references/."; // 18
    "version-missing", C, Medium, 5.0, Q, "no version in frontmatter", "Add `version` (or metadata.version) as major.minor.patch."; // 19
    "author-missing", C, Medium, 5.0, Q, "metadata.author missing", "Add metadata.author as `Name <email>`."; // 20
    "tags-missing", C, Medium, 5.0, Q, "metadata.tags missing", "Add metadata.tags to help discovery."; // 21
    "description-too-short", D, Medium, 20.0, Q, "description shorter than 20 characters", "Say what the skill does and when to use it."; // 22
    "description-too-long", D, Low, 5.0, Q, "description longer than 200 characters", "Tighten the description to the essentials."; // 23
    "description-no-trigger", D, Low, 10.0, Q, "description has no trigger wording (use/when/for/helps/allows)", "Add 'Use when …' so agents know when to load it."; // 24
    "description-vague", D, Medium, 15.0, Q, "description uses vague words (something, things, stuff, various, general)", "Name the concrete tasks and inputs."; // 25
    "description-person", D, Medium, 15.0, Q, "description written in first/second person", "Write in the third person: 'Extracts …, use when …'."; // 26
    "description-no-negative-trigger", D, Low, 5.0, Q, "long generic description without a negative trigger", "Add 'Not for …' to prevent over-triggering."; // 27
    "no-purpose-section", D, Low, 5.0, Q, "no `## Purpose` section", "Add a short `## Purpose` section."; // 28
    "dir-name-short", D, Medium, 10.0, Q, "skill directory name shorter than 5 characters", "Use a descriptive directory name."; // 29
    "dir-name-format", D, Medium, 10.0, Q, "skill directory name not ^[a-z][a-z0-9_-]*$", "Rename the directory in lowercase kebab-case."; // 30
    "no-error-handling-docs", R, Low, 10.0, Q, "no error/failure/validation guidance", "Explain what to do when a step fails."; // 31
    "script-no-error-handling", R, Low, 5.0, Q, "a Python script has no error handling", "Validate inputs and handle exceptions with clear messages."; // 32
    "lib-no-error-handling", R, Low, 5.0, Q, "a library module has no error handling", "Raise clear exceptions on bad input."; // 33
    "no-prerequisites", R, Low, 5.0, Q, "no `## Prerequisites` / `## Requirements` section", "List required tools, packages and access."; // 34
    "no-limitations", R, Low, 5.0, Q, "no `## Limitations` section", "State what the skill cannot do."; // 35
    "no-troubleshooting", R, Low, 5.0, Q, "no `## Troubleshooting` / `## Common Issues` / `## FAQ`", "Document common failures and fixes."; // 36
    "too-many-tokens", E, High, 15.0, Q, "SKILL.md is estimated above 5000 tokens", "Move detail into references/ loaded on demand."; // 37
    "repetitive-lines", E, Low, 10.0, Q, "fewer than 70% of non-empty lines are unique", "Remove repeated lines."; // 38
    "instructions-no-action-verbs", E, Medium, 15.0, Q, "Instructions/Usage lack action verbs", "Start steps with verbs: run, call, set, add …"; // 39
    "instructions-not-list", E, Low, 5.0, Q, "Instructions/Usage not written as a list", "Write the steps as a numbered or bulleted list."; // 40
    "corporate-words", E, Low, 5.0, Q, "corporate filler words (utilize, facilitate, leverage, paradigm, synergy)", "Use plain words."; // 41
    "reference-name-vague", E, Low, 5.0, Q, "non-descriptive references/ file name", "Name reference files after their content."; // 42
    "nested-references", E, Medium, 10.0, Q, "a references/ doc links another local .md", "Keep references one level deep from SKILL.md."; // 43
    "non-doc-in-references", E, Low, 5.0, Q, "non-document file in references/", "Move code and data to scripts/ or assets/."; // 44
    // --- Section 1.3 schema checks and the Agent Skills specification ---
    "skill-md-missing", C, Critical, 40.0, SPEC, "SKILL.md is missing", "Add SKILL.md with frontmatter and instructions.";
    "frontmatter-missing", C, High, 30.0, SPEC, "SKILL.md has no YAML frontmatter", "Start SKILL.md with `---` name/description `---`.";
    "frontmatter-invalid", C, High, 30.0, SPEC, "frontmatter is not valid YAML mapping", "Fix the YAML syntax.";
    "name-missing", C, High, 20.0, SPEC, "name is missing", "Add a `name` field.";
    "name-too-long", C, High, 10.0, SPEC, "name longer than 64 characters", "Shorten the name.";
    "name-not-kebab", C, Medium, 10.0, SPEC, "name is not kebab-case (a hyphen at the start or end, or two in a row)", "Use e.g. `pdf-processing`.";
    "name-dir-mismatch", C, Medium, 10.0, SPEC, "name differs from the directory name", "Rename the directory or the name so they match.";
    "description-missing", C, High, 20.0, SPEC, "description is missing or empty", "Add a description of what and when.";
    "description-over-limit", C, Medium, 10.0, SPEC, "description longer than 1024 characters", "Shorten the description.";
    "compatibility-too-long", C, Low, 5.0, SPEC, "compatibility longer than 500 characters", "Shorten compatibility.";
    "forbidden-field", C, Medium, 10.0, SPEC, "forbidden frontmatter field (alwaysApply, always_apply, globs)", "Remove editor-specific fields.";
    "unknown-field", C, Low, 3.0, SPEC, "frontmatter field outside the specification", "Move custom keys under metadata.";
    "metadata-not-map", C, Low, 5.0, SPEC, "metadata is not a string map", "Make metadata a key: value mapping.";
    "unknown-directory", C, Low, 2.0, SPEC, "top-level directory outside the recommended set", "Use scripts/, references/, assets/ …";
    "skill-md-too-long", E, Medium, 5.0, SPEC, "SKILL.md longer than 500 lines", "Split detail into references/.";
    "no-instructions-section", C, Medium, 5.0, SPEC, "no `## Instructions` or `## Usage` section", "Add an Instructions section with steps.";
    "no-examples-section", C, Low, 3.0, SPEC, "no `## Examples` section", "Add an Examples section.";
    "version-format", C, Low, 3.0, SPEC, "version is not major.minor.patch", "Use semantic versioning, e.g. 1.2.0.";
    "author-format", C, Low, 2.0, SPEC, "metadata.author is not `Name <email>`", "Write the author as `Name <email>`.";
    // --- Section 1.3 unicode checks ---
    "unicode-tag-chars", C, Critical, 40.0, UNI, "invisible Unicode Tag characters (hidden text)", "Remove U+E0000–E007F characters; see the decoded text.";
    "unicode-bidi", C, High, 20.0, UNI, "bidirectional override characters", "Remove bidi controls (U+202A–202E, U+2066–2069).";
    "unicode-zero-width", C, Medium, 10.0, UNI, "zero-width characters", "Remove zero-width characters.";
    "unicode-invisible-operator", C, Medium, 10.0, UNI, "invisible math operators (U+2061–2064)", "Remove invisible operators.";
    "unicode-variation-selector", C, Low, 3.0, UNI, "variation selectors outside emoji", "Remove stray variation selectors.";
    "unicode-bom", C, Info, 0.0, UNI, "byte-order mark at start of file", "Save the file as UTF-8 without BOM.";
}

/// Spec rule codes of skillscope-skill that the quality score leaves to the library's
/// validation: they do not make a skill worse to use (wrong value types that are still read,
/// `allowed-tools` as a list, an empty `compatibility`). Every other spec code is a rule above.
pub const SPEC_UNSCORED: &[&str] = {
    use skillscope_skill::validate::code;
    &[code::FIELD_TYPE, code::ALLOWED_TOOLS_LIST, code::COMPATIBILITY_EMPTY]
};

pub fn rule(id: &str) -> &'static Rule {
    RULES.iter().find(|r| r.id == id).unwrap_or_else(|| panic!("unknown quality rule id {id}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_table_covers_reference() {
        let mut ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), RULES.len());
        assert!(RULES.iter().filter(|r| r.doc == Q).count() >= 44);
    }

    #[test]
    fn every_spec_code_is_a_rule_or_left_unscored() {
        for (code, _) in skillscope_skill::validate::code::ALL {
            let ruled = RULES.iter().any(|r| r.id == *code);
            assert!(ruled != SPEC_UNSCORED.contains(code), "{code}: a rule xor unscored");
        }
    }
}
