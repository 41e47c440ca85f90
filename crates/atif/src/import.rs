//! Import of trajectory files produced elsewhere (Harbor's agent
//! converters, SkillEvaluator, other ATIF writers).
//!
//! A file with violations still imports; the violations come back with it.
//! Only files that are not JSON, not ATIF, or too broken to read into the
//! typed model are refused.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::model::Trajectory;
use crate::validate::{validate, Violation};

/// A successfully read trajectory and what is wrong with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub trajectory: Trajectory,
    /// `schema_version` as the file declares it; `None` when absent (the
    /// typed trajectory then says "ATIF-v1.7").
    pub declared_version: Option<String>,
    pub violations: Vec<Violation>,
}

/// Largest trajectory file read: parsing holds the whole document in memory several times over.
pub const MAX_IMPORT_BYTES: u64 = 512 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{} is {} MB; trajectory files up to {} MB can be imported", path.display(), size / 1_000_000, MAX_IMPORT_BYTES / 1_000_000)]
    TooLarge { path: PathBuf, size: u64 },
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("not JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    #[error("not an ATIF trajectory: {0}")]
    NotAtif(String),
    /// ATIF, but so broken that it does not fit the typed model.
    #[error("ATIF trajectory cannot be read: {reason}")]
    Malformed { reason: String, violations: Vec<Violation> },
}

/// Imports the trajectory file at `path`.
pub fn import_file(path: &Path) -> Result<Imported, ImportError> {
    let read_error = |source| ImportError::Read { path: path.to_owned(), source };
    let size = std::fs::metadata(path).map_err(read_error)?.len();
    if size > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge { path: path.to_owned(), size });
    }
    let bytes = std::fs::read(path).map_err(read_error)?;
    import_bytes(&bytes)
}

/// Imports a trajectory from the bytes of a JSON file (a UTF-8 byte order
/// mark is tolerated).
pub fn import_bytes(bytes: &[u8]) -> Result<Imported, ImportError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let value: Value = serde_json::from_slice(bytes).map_err(ImportError::NotJson)?;
    import_value(value)
}

/// Imports a trajectory already parsed as JSON.
pub fn import_value(value: Value) -> Result<Imported, ImportError> {
    ensure_atif(&value)?;
    let violations = validate(&value);
    let declared_version = value.get("schema_version").and_then(Value::as_str).map(str::to_owned);
    match serde_json::from_value::<Trajectory>(value) {
        Ok(trajectory) => Ok(Imported { trajectory, declared_version, violations }),
        Err(err) => Err(ImportError::Malformed {
            reason: violations.first().map_or_else(|| err.to_string(), Violation::to_string),
            violations,
        }),
    }
}

/// A document is taken for ATIF when it declares an `ATIF-…` schema
/// version or has the required `agent` and `steps`.
fn ensure_atif(value: &Value) -> Result<(), ImportError> {
    let Some(object) = value.as_object() else {
        let found = match value {
            Value::Array(_) => "an array",
            Value::String(_) => "a string",
            Value::Number(_) => "a number",
            Value::Bool(_) => "a boolean",
            _ => "null",
        };
        return Err(ImportError::NotAtif(format!(
            "the top-level value is {found}, not an object{}",
            native_format_hint(value)
        )));
    };
    let declares_atif = object.get("schema_version").and_then(Value::as_str).is_some_and(|v| v.starts_with("ATIF-"));
    if declares_atif || (object.contains_key("agent") && object.contains_key("steps")) {
        return Ok(());
    }
    Err(ImportError::NotAtif(format!(
        "it has neither an \"ATIF-v1.x\" schema_version nor `agent` and `steps`{}",
        native_format_hint(value)
    )))
}

/// Names a native (pre-conversion) agent log format the document resembles.
fn native_format_hint(value: &Value) -> String {
    let has = |key: &str| value.get(key).is_some();
    let format =
        if value.get("trajectory_format").and_then(Value::as_str).is_some_and(|f| f.starts_with("mini-swe-agent")) {
            Some("a mini-swe-agent trajectory")
        } else if has("sessionId") && has("messages") {
            Some("a Gemini CLI session log")
        } else if value.as_array().is_some_and(|events| {
            events.first().is_some_and(|e| {
                e.get("source").is_some() && (e.get("action").is_some() || e.get("observation").is_some())
            })
        }) {
            Some("an OpenHands event log")
        } else {
            None
        };
    format.map_or_else(String::new, |format| {
        format!("; it looks like {format}, which must be converted to ATIF first (Harbor's agent converters do this)")
    })
}
