//! What a call really calls, for Python and JavaScript: import aliases (`import os as o`,
//! `from os import system as s`, `const { exec: run } = require('child_process')`), callables
//! assigned to a name (`s = os.system`), dynamic lookups (`getattr`, `__import__`,
//! `importlib.import_module`, `sys.modules[...]`, `globalThis[...]`) and the constant strings
//! built to hide a name (`'o'+'s'`, `''.join([...])`, `'metsys'[::-1]`, `chr(111)`,
//! `bytes.fromhex(...)`, `String.fromCharCode(...)`, `atob(...)`). Flow-insensitive: every
//! binding in the file counts, wherever it is.

use super::decode::{base64_bytes, hex_bytes};
use super::lang::Lang;
use super::tree::{Flat, SyntaxNode};
use std::collections::HashMap;

/// A callee's canonical dotted name (`os.system`, `child_process.exec`, `eval`).
#[derive(Clone, Debug)]
pub(super) struct Resolved {
    pub name: String,
    /// Reached through a dynamic lookup or a string built at run time, not written plainly.
    pub hidden: bool,
}

pub(super) struct Names<'a> {
    lang: Lang,
    code: &'a str,
    bindings: HashMap<String, Resolved>,
    /// Names assigned a constant string (`m = 'o' + 's'`), with whether it was built.
    consts: HashMap<String, (String, bool)>,
}

/// Bindings are followed at most this deep (`a = b`, `b = a` must end).
const MAX_DEPTH: u8 = 8;

impl<'a> Names<'a> {
    pub(super) fn collect<N: SyntaxNode>(lang: Lang, code: &'a str, flat: &Flat<N>) -> Names<'a> {
        let mut names = Names { lang, code, bindings: HashMap::new(), consts: HashMap::new() };
        let mut pending = Vec::new();
        for (&n, &kind) in flat.nodes.iter().zip(&flat.kinds) {
            match kind {
                "import_statement" | "import_from_statement" => names.imports(n),
                "assignment" | "variable_declarator" | "assignment_expression" => pending.push(n),
                _ => {}
            }
        }
        // Assignments may refer to each other in any order: settle them in a few rounds.
        for _ in 0..3 {
            for &n in &pending {
                names.assignment(n);
            }
        }
        names
    }

    fn text<N: SyntaxNode>(&self, n: N) -> &'a str {
        &self.code[n.start_byte()..n.end_byte()]
    }

    fn bind(&mut self, name: &str, target: String, hidden: bool) {
        if !name.is_empty() && name != target {
            self.bindings.insert(name.to_string(), Resolved { name: target, hidden });
        }
    }

    fn imports<N: SyntaxNode>(&mut self, n: N) {
        if self.lang.is_javascript() {
            return self.js_import(n);
        }
        let module = n.child_by_field_name("module_name").map(|m| self.text(m).to_string());
        for child in n.children_by_field_name("name") {
            let (path, alias) = match child.kind() {
                "aliased_import" => (
                    child.child_by_field_name("name").map_or("", |x| self.text(x)),
                    child.child_by_field_name("alias").map_or("", |x| self.text(x)),
                ),
                _ => (self.text(child), ""),
            };
            let target = match &module {
                Some(m) => format!("{m}.{path}"),
                None => path.to_string(),
            };
            // `import os.path` binds `os`; only an alias or a from-import binds the full path.
            let local = if !alias.is_empty() {
                alias
            } else if module.is_some() {
                path
            } else {
                continue;
            };
            self.bind(local, target, false);
        }
    }

    fn js_import<N: SyntaxNode>(&mut self, n: N) {
        let Some((source, hidden)) = n.child_by_field_name("source").and_then(|s| self.fold(s)) else { return };
        let Some(module) = node_builtin(&source) else { return };
        let source = (module, hidden);
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            match x.kind() {
                "namespace_import" => {
                    if let Some(id) = x.named_child(0) {
                        self.bind(self.text(id), source.0.clone(), source.1);
                    }
                }
                "import_clause" => {
                    if let Some(id) = x.named_child(0).filter(|c| c.kind() == "identifier") {
                        self.bind(self.text(id), source.0.clone(), source.1);
                    }
                }
                "import_specifier" => {
                    let name = x.child_by_field_name("name").map_or("", |c| self.text(c));
                    let local = x.child_by_field_name("alias").map_or(name, |c| self.text(c));
                    self.bind(local, format!("{}.{name}", source.0), source.1);
                }
                _ => {}
            }
            stack.extend(x.children());
        }
    }

    fn assignment<N: SyntaxNode>(&mut self, n: N) {
        let (left, right) = match n.kind() {
            "variable_declarator" => (n.child_by_field_name("name"), n.child_by_field_name("value")),
            _ => (n.child_by_field_name("left"), n.child_by_field_name("right")),
        };
        let (Some(left), Some(right)) = (left, right) else { return };
        if left.kind() == "identifier" {
            if let Some(value) = self.fold(right) {
                self.consts.insert(self.text(left).to_string(), value);
                return;
            }
        }
        let Some(value) = self.resolve(right) else { return };
        match left.kind() {
            "identifier" => self.bind(self.text(left), value.name, value.hidden),
            // const { exec, execSync: run } = require('child_process')
            "object_pattern" => {
                for p in left.named_children() {
                    let (key, local) = match p.kind() {
                        "shorthand_property_identifier_pattern" => (self.text(p), self.text(p)),
                        "pair_pattern" => (
                            p.child_by_field_name("key").map_or("", |k| self.text(k)),
                            p.child_by_field_name("value").map_or("", |v| self.text(v)),
                        ),
                        _ => continue,
                    };
                    self.bind(local, format!("{}.{key}", value.name), value.hidden);
                }
            }
            _ => {}
        }
    }

    /// The canonical name an expression refers to, when it names a module or a callable.
    pub(super) fn resolve<N: SyntaxNode>(&self, n: N) -> Option<Resolved> {
        self.resolve_at(n, 0)
    }

    fn resolve_at<N: SyntaxNode>(&self, n: N, depth: u8) -> Option<Resolved> {
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        match n.kind() {
            "identifier" | "property_identifier" => {
                let name = self.text(n);
                let mut r = Resolved { name: name.to_string(), hidden: false };
                // Follow chains of bindings (`s = o.system`, `o` = `os`).
                for _ in 0..MAX_DEPTH {
                    match self.bindings.get(&r.name) {
                        Some(b) if b.name != r.name => {
                            r = Resolved { name: b.name.clone(), hidden: r.hidden || b.hidden };
                        }
                        _ => break,
                    }
                }
                Some(r)
            }
            "attribute" | "member_expression" => {
                let object = n.child_by_field_name("object")?;
                let attr = n.child_by_field_name("attribute").or_else(|| n.child_by_field_name("property"))?;
                let base = self.resolve_at(object, d)?;
                Some(Resolved { name: format!("{}.{}", base.name, self.text(attr)), hidden: base.hidden })
            }
            "parenthesized_expression" => self.resolve_at(n.named_child(0)?, d),
            "subscript" | "subscript_expression" => {
                // sys.modules['os'], globals()['eval'], globalThis['ev' + 'al'], os.__dict__['system']
                let value = n.child_by_field_name("value").or_else(|| n.child_by_field_name("object"))?;
                let index = n.child_by_field_name("subscript").or_else(|| n.child_by_field_name("index"))?;
                let (key, _) = self.fold_at(index, d)?;
                let holder = self.text(value).replace(char::is_whitespace, "");
                let global = matches!(
                    holder.as_str(),
                    "sys.modules" | "globals()" | "locals()" | "vars()" | "globalThis" | "window" | "global" | "self"
                ) || holder.starts_with("vars(")
                    || holder.ends_with("__builtins__");
                let name = if global {
                    key
                } else {
                    let base = self.resolve_at(value, d)?;
                    format!("{}.{key}", base.name.trim_end_matches(".__dict__"))
                };
                Some(Resolved { name, hidden: true })
            }
            "call" | "call_expression" => {
                let f = n.child_by_field_name("function")?;
                let args = n.child_by_field_name("arguments")?;
                let callee = self.resolve_at(f, d)?;
                let arg = |i| args.named_child(i).filter(|a: &N| a.kind() != "keyword_argument");
                match callee.name.as_str() {
                    "getattr" | "Reflect.get" => {
                        let base = self.resolve_at(arg(0)?, d)?;
                        let (attr, _) = self.fold_at(arg(1)?, d)?;
                        let base = base.name.trim_start_matches("builtins.").trim_start_matches("__builtins__.");
                        let name =
                            if matches!(base, "builtins" | "__builtins__") { attr } else { format!("{base}.{attr}") };
                        Some(Resolved { name, hidden: true })
                    }
                    "__import__" | "importlib.import_module" => {
                        let (module, _) = self.fold_at(arg(0)?, d)?;
                        Some(Resolved { name: module, hidden: true })
                    }
                    "require" => {
                        let (module, built) = self.fold_at(arg(0)?, d)?;
                        node_builtin(&module).map(|name| Resolved { name, hidden: built })
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A constant string expression's value, and whether it was built rather than written.
    pub(super) fn fold<N: SyntaxNode>(&self, n: N) -> Option<(String, bool)> {
        self.fold_at(n, 0)
    }

    fn fold_at<N: SyntaxNode>(&self, n: N, depth: u8) -> Option<(String, bool)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        match n.kind() {
            "string" => self.literal(n).map(|s| (s, false)),
            "concatenated_string" | "binary_expression" | "binary_operator" => {
                if n.kind() != "concatenated_string"
                    && n.child_by_field_name("operator").map(|o| self.text(o)) != Some("+")
                {
                    return None;
                }
                let mut out = String::new();
                for part in n.named_children() {
                    out.push_str(&self.fold_at(part, d)?.0);
                }
                Some((out, true))
            }
            "parenthesized_expression" => self.fold_at(n.named_child(0)?, d),
            "identifier" => self.consts.get(self.text(n)).cloned(),
            "subscript" => {
                // 'metsys'[::-1]
                let value = n.child_by_field_name("value")?;
                let index = n.child_by_field_name("subscript")?;
                let (s, _) = self.fold_at(value, d)?;
                (self.text(index).replace(' ', "") == "::-1").then(|| (s.chars().rev().collect(), true))
            }
            "call" | "call_expression" => self.fold_call(n, d),
            _ => None,
        }
    }

    fn fold_call<N: SyntaxNode>(&self, n: N, d: u8) -> Option<(String, bool)> {
        let f = n.child_by_field_name("function")?;
        let args = n.child_by_field_name("arguments")?;
        let arg = |i| args.named_child(i);
        let ftext = self.text(f).replace(char::is_whitespace, "");
        let ints = || -> Option<String> {
            args.named_children()
                .into_iter()
                .map(|a| self.text(a).parse::<u32>().ok().and_then(char::from_u32))
                .collect()
        };
        let decoded = |bytes: Vec<u8>| String::from_utf8(bytes).ok().map(|s| (s, true));
        match ftext.as_str() {
            "chr" | "String.fromCharCode" => return ints().map(|s| (s, true)),
            "atob" => return decoded(base64_bytes(&self.fold_at(arg(0)?, d)?.0)?),
            _ => {}
        }
        // ''.join([...]) / [...].join('') / X.decode() / X.toString()
        let (object, method) = match f.kind() {
            "attribute" | "member_expression" => (
                f.child_by_field_name("object")?,
                self.text(f.child_by_field_name("attribute").or_else(|| f.child_by_field_name("property"))?),
            ),
            _ => return None,
        };
        match method {
            "join" => {
                let (sep, list) = match object.kind() {
                    "string" => (self.literal(object)?, arg(0)?),
                    _ => (arg(0).map_or(Some(String::new()), |a| self.literal(a))?, object),
                };
                if !matches!(list.kind(), "list" | "tuple" | "array") {
                    return None;
                }
                let parts: Option<Vec<String>> =
                    list.named_children().into_iter().map(|p| self.fold_at(p, d).map(|x| x.0)).collect();
                Some((parts?.join(&sep), true))
            }
            "decode" | "toString" => {
                // bytes.fromhex('6f73').decode(), base64.b64decode('b3M=').decode(), Buffer.from('b3M=', 'base64').toString()
                let inner_f =
                    object.child_by_field_name("function").map(|x| self.text(x).replace(char::is_whitespace, ""))?;
                let inner_args = object.child_by_field_name("arguments")?;
                let (payload, _) = self.fold_at(inner_args.named_child(0)?, d)?;
                let second = inner_args.named_child(1).and_then(|a| self.literal(a));
                match (inner_f.as_str(), second.as_deref()) {
                    ("bytes.fromhex", _) | ("Buffer.from", Some("hex")) => decoded(hex_bytes(&payload)?),
                    ("base64.b64decode", _) | ("Buffer.from", Some("base64")) => decoded(base64_bytes(&payload)?),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A plain string literal's value (no interpolation), with the common escapes undone.
    fn literal<N: SyntaxNode>(&self, n: N) -> Option<String> {
        if n.kind() != "string" {
            return None;
        }
        let mut out = String::new();
        for part in n.named_children() {
            match part.kind() {
                "string_content" | "string_fragment" | "escape_sequence" => out.push_str(self.text(part)),
                "string_start" | "string_end" => {}
                _ => return None,
            }
        }
        Some(unescape(&out))
    }
}

/// A Node.js core module's name (`node:` prefix dropped). Other packages keep the local name
/// they are bound to: `const fetch = require('node-fetch')` is still called as `fetch`.
fn node_builtin(module: &str) -> Option<String> {
    const CORE: [&str; 14] = [
        "child_process",
        "vm",
        "net",
        "http",
        "https",
        "http2",
        "dgram",
        "dns",
        "fs",
        "fs/promises",
        "os",
        "process",
        "module",
        "worker_threads",
    ];
    let m = module.strip_prefix("node:").unwrap_or(module);
    CORE.contains(&m).then(|| m.to_string())
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('x') => {
                let h: String = chars.by_ref().take(2).collect();
                match u8::from_str_radix(&h, 16) {
                    Ok(b) => out.push(b as char),
                    Err(_) => out.push_str(&h),
                }
            }
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(o) => out.push(o),
            None => {}
        }
    }
    out
}
