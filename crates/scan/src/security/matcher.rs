//! Runs a regex rule set over text and turns matches into positioned hits.

use super::finder::Candidates;
use super::rules::{compiled, is_placeholder, TextRule, PROSE};
use crate::report::Severity;
use regex::Regex;
use std::cell::OnceCell;
use std::sync::OnceLock;

/// A detector match, positioned by byte offset in the scanned text.
#[derive(Clone, Debug)]
pub(super) struct Hit {
    pub pattern: &'static str,
    pub severity: Severity,
    pub confidence: f64,
    pub pos: usize,
    pub message: String,
    pub decoded: Option<String>,
    /// Context (a setup section, a reference document) may not lower it; see `TextRule::pinned`.
    pub pinned: bool,
}

impl Hit {
    pub(super) fn new(
        pattern: &'static str,
        severity: Severity,
        confidence: f64,
        pos: usize,
        message: impl Into<String>,
    ) -> Hit {
        Hit { pattern, severity, confidence, pos, message: message.into(), decoded: None, pinned: false }
    }

    pub(super) fn pinned(self) -> Hit {
        Hit { pinned: true, ..self }
    }
}

fn negation() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(&super::rules::ascii_boundaries(
            r"(?i)\b(never|not|don'?t|avoid|without|no|refuse\s+to|instead\s+of)\b",
        ))
        .unwrap()
    })
}

/// The line containing `pos`, up to `pos`.
fn line_prefix(text: &str, pos: usize) -> &str {
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    &text[start..pos]
}

/// Inside an open quotation on its line: an example being discussed, not an order.
fn quoted(text: &str, pos: usize) -> bool {
    line_prefix(text, pos).chars().filter(|c| matches!(c, '"' | '“' | '”' | '`')).count() % 2 == 1
}

/// A text and where rules may match in it, learnt once per finder, when a table of it is first
/// asked for: SHELL then ARTIFACT on the same text costs one pass.
pub(super) struct Matched<'t> {
    text: &'t str,
    sets: [OnceCell<Candidates>; 2],
}

impl<'t> Matched<'t> {
    pub(super) fn new(text: &'t str) -> Matched<'t> {
        Matched { text, sets: [OnceCell::new(), OnceCell::new()] }
    }

    pub(super) fn hits(&self, rules: &'static [TextRule]) -> Vec<Hit> {
        let text = self.text;
        let (slot, c, first) = compiled(rules);
        let found = self.sets[slot].get_or_init(|| c.candidates(text));
        let mut hits = Vec::new();
        for (k, rule) in rules.iter().enumerate().filter(|(k, _)| c.may_match(first + k, found)) {
            for m in c.matches(first + k, text, found) {
                if rule.negatable && negation().is_match(line_prefix(text, m.start)) {
                    continue;
                }
                if rule.pattern == "B3" && is_placeholder(&text[m.clone()]) {
                    continue;
                }
                let mut hit = Hit::new(rule.pattern, rule.severity, rule.confidence, m.start, rule.message);
                hit.pinned = rule.pinned;
                if std::ptr::eq(rules, PROSE) && quoted(text, m.start) {
                    hit.severity = Severity::Low;
                    hit.confidence *= 0.5;
                    hit.message = format!("{} (quoted example)", rule.message);
                }
                hits.push(hit);
            }
        }
        hits
    }
}

/// The hits of one table (a text searched with several shares one `Matched`).
pub(super) fn run(rules: &'static [TextRule], text: &str) -> Vec<Hit> {
    Matched::new(text).hits(rules)
}
