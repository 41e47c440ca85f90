//! Import errors: every one names the file and what is wrong with it.

use crate::model::TaskSpec;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: missing {what}", path.display())]
    Missing { path: PathBuf, what: String },
    /// The file does not parse (TOML, JSON, YAML); line and column are 1-based.
    #[error("{}: line {line}, column {column}: {message}", path.display())]
    Syntax { path: PathBuf, line: usize, column: usize, message: String },
    /// The file parses but its content is not acceptable.
    #[error("{}: {what}", path.display())]
    Invalid { path: PathBuf, what: String },
    /// A valid task that uses a feature this app does not run.
    #[error("{}: unsupported: {what}", path.display())]
    Unsupported { path: PathBuf, what: String },
}

impl ImportError {
    pub fn path(&self) -> &Path {
        match self {
            Self::Io { path, .. }
            | Self::Missing { path, .. }
            | Self::Syntax { path, .. }
            | Self::Invalid { path, .. }
            | Self::Unsupported { path, .. } => path,
        }
    }

    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io { path: path.to_path_buf(), source }
    }

    pub(crate) fn missing(path: &Path, what: impl Into<String>) -> Self {
        Self::Missing { path: path.to_path_buf(), what: what.into() }
    }

    pub(crate) fn invalid(path: &Path, what: impl Into<String>) -> Self {
        Self::Invalid { path: path.to_path_buf(), what: what.into() }
    }

    pub(crate) fn unsupported(path: &Path, what: impl Into<String>) -> Self {
        Self::Unsupported { path: path.to_path_buf(), what: what.into() }
    }

    pub(crate) fn json(path: &Path, e: &serde_json::Error) -> Self {
        let message = e.to_string();
        // serde_json appends " at line L column C"; keep the message bare.
        let message = match message.rfind(" at line ") {
            Some(i) => message[..i].to_string(),
            None => message,
        };
        Self::Syntax { path: path.to_path_buf(), line: e.line(), column: e.column(), message }
    }

    pub(crate) fn toml(path: &Path, text: &str, e: &toml::de::Error) -> Self {
        let (line, column) = e.span().map(|s| line_col(text, s.start)).unwrap_or((0, 0));
        let mut message = e.message().trim().replace('\n', "; ");
        if let Some(src) = text.lines().nth(line.wrapping_sub(1)).map(str::trim) {
            if !src.is_empty() && src.len() <= 120 {
                message.push_str(&format!(" (in `{src}`)"));
            }
        }
        Self::Syntax { path: path.to_path_buf(), line, column, message }
    }

    pub(crate) fn yaml(path: &Path, e: &serde_yaml::Error) -> Self {
        let (line, column) = e.location().map(|l| (l.line(), l.column())).unwrap_or((0, 0));
        let message = e.to_string();
        let message = match message.rfind(" at line ") {
            Some(i) => message[..i].to_string(),
            None => message,
        };
        Self::Syntax { path: path.to_path_buf(), line, column, message }
    }
}

/// 1-based line and column of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The result of importing many tasks: the ones that imported, and an error
/// for each one that did not (one bad task never blocks the others).
#[derive(Debug, Default)]
pub struct ImportBatch {
    pub tasks: Vec<TaskSpec>,
    pub errors: Vec<ImportError>,
}

impl ImportBatch {
    pub(crate) fn push(&mut self, r: Result<TaskSpec, ImportError>) {
        match r {
            Ok(t) => self.tasks.push(t),
            Err(e) => self.errors.push(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::line_col;

    #[test]
    fn line_col_counts_from_one() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("ab\ncd", 99), (2, 3));
    }
}
