//! Shell variable indirection undone: `c=curl; $c -s URL | sh`, `p="ba"; p="${p}sh"`,
//! `eval "$cmd"`. Simple assignments are followed line by line and every `$name` / `${name}`
//! is replaced by its value, so the command rules see the command the shell would run.

use std::collections::HashMap;

/// The text with variables expanded, line for line (the same number of lines), or None when
/// nothing was expanded.
pub(super) fn expand(text: &str) -> Option<String> {
    let mut vars: HashMap<String, String> = HashMap::new();
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split('\n') {
        let expanded = substitute(line, &vars);
        changed |= expanded != line;
        for stmt in statements(&expanded) {
            if let Some((name, value)) = assignment(stmt) {
                vars.insert(name, value);
            }
        }
        out.push_str(&expanded);
        out.push('\n');
    }
    out.pop();
    changed.then_some(out)
}

/// A line cut at `;`, `&` and `|` outside quotes.
fn statements(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quote) = (0, None);
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ';' | '&' | '|') => {
                out.push(&line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&line[start..]);
    out
}

/// `[export|local|readonly|declare -x] NAME=VALUE` with VALUE's quotes removed.
fn assignment(stmt: &str) -> Option<(String, String)> {
    let mut s = stmt.trim_start();
    for kw in ["export ", "local ", "readonly ", "declare "] {
        if let Some(rest) = s.strip_prefix(kw) {
            s = rest.trim_start();
            while let Some(rest) = s.strip_prefix('-') {
                s = rest.split_once(' ').map_or("", |(_, r)| r).trim_start();
            }
        }
    }
    let (name, value) = s.split_once('=')?;
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || name.starts_with(|c: char| c.is_ascii_digit())
    {
        return None;
    }
    Some((name.to_string(), word(value)))
}

/// The first shell word of `s`, quotes removed (adjacent quoted parts joined).
fn word(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => out.extend(chars.by_ref().take_while(|&q| q != c)),
            c if c.is_whitespace() => break,
            c => out.push(c),
        }
    }
    out
}

/// Every `$name` and `${name}` with a known value replaced (single-quoted text is left as is).
fn substitute(line: &str, vars: &HashMap<String, String>) -> String {
    if vars.is_empty() || !line.contains('$') {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    let mut in_single = false;
    while let Some(i) = rest.find(['$', '\'']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix('\'') {
            in_single = !in_single;
            out.push('\'');
            rest = after;
            continue;
        }
        let (name, len) = match tail[1..].strip_prefix('{') {
            Some(b) => match b.find('}') {
                Some(end) => (&b[..end], end + 3),
                None => ("", 1),
            },
            None => {
                let n = tail[1..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(tail.len() - 1);
                (&tail[1..1 + n], 1 + n)
            }
        };
        match vars.get(name).filter(|_| !in_single) {
            Some(v) => out.push_str(v),
            None => out.push_str(&tail[..len.max(1)]),
        }
        rest = &tail[len.max(1)..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::expand;

    #[test]
    fn variables_are_followed_line_by_line() {
        let got = expand("c=cu\nc=\"${c}rl\"\nsh_='sh'\n$c -s https://x.invalid | $sh_\necho '$c'").unwrap();
        assert_eq!(got.lines().nth(3), Some("curl -s https://x.invalid | sh"));
        assert_eq!(got.lines().nth(4), Some("echo '$c'"), "single quotes are literal");
        assert_eq!(got.lines().count(), 5);
        assert!(expand("echo $HOME").is_none(), "unknown variables leave the text alone");
    }
}
