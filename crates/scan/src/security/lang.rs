//! The script languages the scan parses, told from a file's extension, shebang or fence tag.

use std::cell::RefCell;
use tree_sitter::{Language, Parser, Tree};

thread_local! {
    static PARSERS: RefCell<Vec<(Lang, Parser)>> = const { RefCell::new(Vec::new()) };
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Lang {
    Python,
    Shell,
    JavaScript,
    /// TypeScript, analysed as JavaScript but parsed with its own grammar: the JavaScript grammar
    /// turns every type annotation into an error node (and took 1.7× as long on the corpus's fences).
    /// The TSX grammar reads both plain TypeScript and the React components such fences often hold.
    TypeScript,
}

impl Lang {
    pub(super) fn from_path(path: &str, text: &str) -> Option<Lang> {
        let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("py" | "pyw") => Some(Lang::Python),
            Some("sh" | "bash" | "zsh" | "ksh") => Some(Lang::Shell),
            Some("js" | "mjs" | "cjs" | "jsx") => Some(Lang::JavaScript),
            Some("ts" | "mts" | "cts" | "tsx") => Some(Lang::TypeScript),
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
            "js" | "javascript" | "node" | "jsx" | "mjs" => Some(Lang::JavaScript),
            "ts" | "typescript" | "tsx" => Some(Lang::TypeScript),
            _ => None,
        }
    }

    pub(super) fn grammar(self) -> Language {
        match self {
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Shell => tree_sitter_bash::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TSX.into(),
        }
    }

    /// `code` parsed by this thread's parser for the language, kept between files.
    pub(super) fn parse(self, code: &str) -> Option<Tree> {
        PARSERS.with(|cell| {
            let mut parsers = cell.borrow_mut();
            if !parsers.iter().any(|(l, _)| *l == self) {
                let mut p = Parser::new();
                p.set_language(&self.grammar()).ok()?;
                parsers.push((self, p));
            }
            let (_, p) = parsers.iter_mut().find(|(l, _)| *l == self)?;
            p.parse(code, None)
        })
    }

    /// JavaScript or TypeScript: one set of rules covers both.
    pub(super) fn is_javascript(self) -> bool {
        matches!(self, Lang::JavaScript | Lang::TypeScript)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has_error(lang: Lang, code: &str) -> bool {
        lang.parse(code).unwrap().root_node().has_error()
    }

    #[test]
    fn typescript_parses_without_error_nodes() {
        let code = "import type { Job } from './job';\n\
                    enum Mode { Fast, Safe }\n\
                    type Cb = (e: Error | null) => void;\n\
                    abstract class Runner<T> implements Job {\n  private readonly cmd: string = '';\n  run(x: T): void { exec(this.cmd as string); }\n}\n\
                    namespace N { export const c = process.argv[2]!; }\n\
                    const view = <div onClick={() => run(cmd)}>ok</div>;\n";
        assert_eq!(Lang::from_fence("ts"), Some(Lang::TypeScript));
        assert_eq!(Lang::from_path("src/a.tsx", ""), Some(Lang::TypeScript));
        assert!(!has_error(Lang::TypeScript, code));
        assert!(has_error(Lang::JavaScript, code), "the JavaScript grammar does not read it");
    }
}
