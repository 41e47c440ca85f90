//! Removal of secrets from trajectory text before it is stored or shown:
//! the exact values of known secrets plus common credential shapes.

use std::ops::Range;
use std::sync::LazyLock;

use regex::{Captures, Regex};
use serde_json::Value;

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// Known secret values shorter than this are ignored: replacing short
/// strings everywhere would destroy ordinary text.
pub const MIN_SECRET_CHARS: usize = 8;

/// A credential shape. Only the `secret` capture group is replaced, so
/// `Bearer ` or `api_key=` stay readable.
struct Shape {
    regex: Regex,
    /// Tells a real secret from a look-alike (e.g. a slug after `sk-`).
    plausible: fn(&str) -> bool,
}

fn always(_: &str) -> bool {
    true
}

fn has_digit(candidate: &str) -> bool {
    candidate.bytes().any(|b| b.is_ascii_digit())
}

/// Neither a plain lowercase word nor a bare number, so `password: required`
/// and `total_token: 12345678` survive.
fn not_word_or_number(candidate: &str) -> bool {
    !candidate.bytes().all(|b| b.is_ascii_lowercase()) && !candidate.bytes().all(|b| b.is_ascii_digit())
}

static SHAPES: LazyLock<Vec<Shape>> = LazyLock::new(|| {
    let shape = |pattern: &str, plausible: fn(&str) -> bool| Shape {
        regex: Regex::new(pattern).expect("redaction pattern is valid"),
        plausible,
    };
    vec![
        // PEM private key blocks (RSA, EC, OPENSSH, ENCRYPTED, PKCS#8 …).
        shape(r"(?s)(?P<secret>-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?-----END [A-Z0-9 ]*PRIVATE KEY-----)", always),
        // JSON Web Tokens: header.payload.signature, both JSON parts base64url.
        shape(r"\b(?P<secret>eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+)", always),
        // Authorization: Bearer <token>
        shape(r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)", has_digit),
        // OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-) and Anthropic (sk-ant-) keys.
        shape(r"\b(?P<secret>sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})", has_digit),
        // GitHub classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained tokens.
        shape(r"\b(?P<secret>gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\b", always),
        // AWS access key ids.
        shape(r"\b(?P<secret>(?:AKIA|ASIA)[A-Z0-9]{16})\b", always),
        // api_key=…, "api_key": "…", OPENAI_API_KEY=…, password: …, also
        // inside escaped JSON.
        shape(
            r#"(?i)\b[A-Za-z0-9_-]*(?:api[_-]?key|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key|aws_secret_access_key|password|passwd|secret|token)\\?["']?\s*[:=]\s*\\?["']?(?P<secret>[^\s"'\\&,;]{8,})"#,
            not_word_or_number,
        ),
    ]
});

/// Replaces secrets in text with [`REDACTED`].
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    /// Known secret values, at least [`MIN_SECRET_CHARS`] long.
    secrets: Vec<String>,
}

impl Redactor {
    /// A redactor for these exact secret values (e.g. the API keys the run
    /// was given) on top of the built-in credential shapes. Values shorter
    /// than [`MIN_SECRET_CHARS`] are ignored.
    pub fn new(secrets: Vec<String>) -> Self {
        let mut secrets: Vec<String> = secrets.into_iter().filter(|s| s.chars().count() >= MIN_SECRET_CHARS).collect();
        secrets.sort();
        secrets.dedup();
        Redactor { secrets }
    }

    /// `text` with every known secret and every credential shape replaced.
    pub fn redact(&self, text: &str) -> String {
        let mut text = self.redact_known(text);
        for shape in SHAPES.iter() {
            if let std::borrow::Cow::Owned(replaced) =
                shape.regex.replace_all(&text, |caps: &Captures| replace_secret(caps, shape.plausible))
            {
                text = replaced;
            }
        }
        text
    }

    /// Applies [`Redactor::redact`] to every string in `value` (object keys
    /// are left as they are).
    pub fn redact_json(&self, value: &mut Value) {
        map_strings(value, &|text| self.redact(text));
    }

    /// Replaces every occurrence of a known secret; overlapping occurrences
    /// of different secrets are merged so no fragment survives.
    fn redact_known(&self, text: &str) -> String {
        let mut spans: Vec<Range<usize>> = self
            .secrets
            .iter()
            .flat_map(|secret| text.match_indices(secret.as_str()).map(|(start, found)| start..start + found.len()))
            .collect();
        spans.sort_by_key(|span| span.start);
        let mut out = String::with_capacity(text.len());
        let mut done = 0;
        for span in spans {
            if span.end <= done {
                continue;
            }
            if span.start >= done {
                out.push_str(&text[done..span.start]);
                out.push_str(REDACTED);
            }
            done = span.end;
        }
        out.push_str(&text[done..]);
        out
    }
}

/// The whole match with its `secret` group replaced, or the match unchanged
/// when the candidate is not plausible.
fn replace_secret(caps: &Captures, plausible: fn(&str) -> bool) -> String {
    let whole = caps.get(0).expect("group 0 always matches");
    let secret = caps.name("secret").expect("every shape has a secret group");
    if !plausible(secret.as_str()) {
        return whole.as_str().to_owned();
    }
    let start = secret.start() - whole.start();
    let end = secret.end() - whole.start();
    format!("{}{REDACTED}{}", &whole.as_str()[..start], &whole.as_str()[end..])
}

/// Rewrites every string of a JSON document with `f` (object keys are left
/// as they are).
pub fn map_strings(value: &mut Value, f: &impl Fn(&str) -> String) {
    match value {
        Value::String(text) => *text = f(text),
        Value::Array(items) => items.iter_mut().for_each(|item| map_strings(item, f)),
        Value::Object(map) => map.values_mut().for_each(|item| map_strings(item, f)),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}
