//! The script languages the scan parses, told from a file's extension, shebang or fence tag.

use tree_sitter::Language;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Lang {
    Python,
    Shell,
    JavaScript,
}

impl Lang {
    pub(super) fn from_path(path: &str, text: &str) -> Option<Lang> {
        let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("py" | "pyw") => Some(Lang::Python),
            Some("sh" | "bash" | "zsh" | "ksh") => Some(Lang::Shell),
            Some("js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx") => Some(Lang::JavaScript),
            _ => Self::from_shebang(text.lines().next().unwrap_or("")),
        }
    }

    fn from_shebang(first: &str) -> Option<Lang> {
        let first = first.strip_prefix("#!")?;
        if first.contains("python") {
            Some(Lang::Python)
        } else if first.contains("node") || first.contains("deno") || first.contains("bun") {
            Some(Lang::JavaScript)
        } else if ["sh", "bash", "zsh"].iter().any(|s| first.ends_with(s) || first.contains(&format!("{s} "))) {
            Some(Lang::Shell)
        } else {
            None
        }
    }

    pub(super) fn from_fence(tag: &str) -> Option<Lang> {
        match tag {
            "python" | "py" | "python3" => Some(Lang::Python),
            "bash" | "sh" | "shell" | "zsh" | "console" | "shell-session" | "terminal" => Some(Lang::Shell),
            "js" | "javascript" | "ts" | "typescript" | "node" | "jsx" | "tsx" | "mjs" => Some(Lang::JavaScript),
            _ => None,
        }
    }

    pub(super) fn grammar(self) -> Language {
        match self {
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Shell => tree_sitter_bash::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        }
    }
}
