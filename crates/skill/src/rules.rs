//! The Agent Skills spec's rule codes, their severities, and one broken rule ([`Violation`]):
//! shared by the parser (problems found while reading) and [`crate::validate`] (the rules).

use crate::finding::{Finding, Severity};

/// The codes of the spec's rules.
pub mod code {
    /// A field has the wrong type (e.g. a list for `name`, a non-string metadata value).
    pub const FIELD_TYPE: &str = "field-type";
    /// `allowed-tools` written as a YAML list instead of a space-separated string.
    pub const ALLOWED_TOOLS_LIST: &str = "allowed-tools-list";
    /// `metadata` is not a mapping.
    pub const METADATA_NOT_MAP: &str = "metadata-not-map";
    pub const NAME_MISSING: &str = "name-missing";
    pub const NAME_TOO_LONG: &str = "name-too-long";
    /// A character other than a lowercase letter, a digit or a hyphen.
    pub const NAME_CHARSET: &str = "name-charset";
    /// A hyphen at the start or end, or two in a row.
    pub const NAME_NOT_KEBAB: &str = "name-not-kebab";
    pub const NAME_DIR_MISMATCH: &str = "name-dir-mismatch";
    pub const DESCRIPTION_MISSING: &str = "description-missing";
    pub const DESCRIPTION_OVER_LIMIT: &str = "description-over-limit";
    pub const COMPATIBILITY_EMPTY: &str = "compatibility-empty";
    pub const COMPATIBILITY_TOO_LONG: &str = "compatibility-too-long";
    pub const FORBIDDEN_FIELD: &str = "forbidden-field";
    pub const UNKNOWN_FIELD: &str = "unknown-field";

    /// Every spec rule code with its severity.
    pub const ALL: &[(&str, super::Severity)] = {
        use super::Severity::{Error, Warning};
        &[
            (FIELD_TYPE, Error),
            (ALLOWED_TOOLS_LIST, Warning),
            (METADATA_NOT_MAP, Error),
            (NAME_MISSING, Error),
            (NAME_TOO_LONG, Error),
            (NAME_CHARSET, Error),
            (NAME_NOT_KEBAB, Error),
            (NAME_DIR_MISMATCH, Warning),
            (DESCRIPTION_MISSING, Error),
            (DESCRIPTION_OVER_LIMIT, Error),
            (COMPATIBILITY_EMPTY, Error),
            (COMPATIBILITY_TOO_LONG, Error),
            (FORBIDDEN_FIELD, Warning),
            (UNKNOWN_FIELD, Warning),
        ]
    };
}

/// The severity of a spec rule code.
pub(crate) fn rule_severity(code: &str) -> Severity {
    code::ALL.iter().find(|(c, _)| *c == code).map(|(_, s)| *s).unwrap_or_else(|| panic!("unknown spec rule {code}"))
}

/// One broken spec rule and the top-level field it concerns (`"frontmatter"` for a key that is
/// not a string).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub field: String,
    pub finding: Finding,
}
