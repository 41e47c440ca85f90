//! How much of a drafted task's instruction is copied from the skill's SKILL.md body. Both texts
//! are split into words (maximal runs of alphanumeric characters, lowercased); an instruction word
//! is shared when it lies in a run of [`SHINGLE_WORDS`] consecutive words that also occurs in the
//! body. Maximal runs of shared words are reported as spans, quoted from the instruction as written.
//! A draft is flagged when its longest span has at least [`FLAG_SPAN_WORDS`] words or when the
//! shared words are at least [`FLAG_SHARE`] of its words. See [`METHOD`].

use std::collections::HashSet;
use std::ops::Range;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Words in a shingle: a run this long found in the body counts as copied.
pub const SHINGLE_WORDS: usize = 6;
/// A copied span at least this long flags the draft on its own.
pub const FLAG_SPAN_WORDS: usize = 12;
/// A share of shared words at least this high flags the draft.
pub const FLAG_SHARE: f64 = 0.25;

pub const METHOD: &str = "words are maximal runs of alphanumeric characters, lowercased; an instruction word is shared when it is in a run of 6 consecutive words that also occurs in the SKILL.md body; spans are maximal runs of shared words, quoted from the instruction; shared share = shared words / instruction words (0 with no words); flagged when the longest span has at least 12 words or the shared share is at least 0.25";

/// A run of instruction words copied from the body, as written in the instruction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct LeakedSpan {
    pub text: String,
    pub words: u32,
}

/// How much of an instruction is copied from the SKILL.md body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Leakage {
    /// Shared instruction words / all instruction words.
    pub shared_share: f64,
    pub longest_span_words: u32,
    pub spans: Vec<LeakedSpan>,
    pub flagged: bool,
}

/// The lowercased words of `text`, each with its byte range in `text` so spans quote the original.
fn words(text: &str) -> Vec<(String, Range<usize>)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_alphanumeric() && i < text.len(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((text[s..i].to_lowercase(), s..i));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The leakage of `instruction` against `skill_body`.
pub fn leakage(instruction: &str, skill_body: &str) -> Leakage {
    let body: Vec<String> = words(skill_body).into_iter().map(|(w, _)| w).collect();
    let shingles: HashSet<&[String]> = body.windows(SHINGLE_WORDS).collect();
    let (tokens, ranges): (Vec<String>, Vec<Range<usize>>) = words(instruction).into_iter().unzip();

    // `windows` yields nothing for a text shorter than a shingle, so short texts share nothing.
    let mut shared = vec![false; tokens.len()];
    for (i, shingle) in tokens.windows(SHINGLE_WORDS).enumerate() {
        if shingles.contains(shingle) {
            shared[i..i + SHINGLE_WORDS].fill(true);
        }
    }

    let mut spans = Vec::new();
    let mut i = 0;
    while i < shared.len() {
        if !shared[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < shared.len() && shared[i] {
            i += 1;
        }
        let text = instruction[ranges[start].start..ranges[i - 1].end].to_string();
        spans.push(LeakedSpan { text, words: (i - start) as u32 });
    }

    let shared_words = shared.iter().filter(|&&s| s).count();
    let shared_share = if tokens.is_empty() { 0.0 } else { shared_words as f64 / tokens.len() as f64 };
    let longest_span_words = spans.iter().map(|s| s.words).max().unwrap_or(0);
    let flagged = longest_span_words as usize >= FLAG_SPAN_WORDS || shared_share >= FLAG_SHARE;
    Leakage { shared_share, longest_span_words, spans, flagged }
}

/// The warning a reviewer reads on a flagged draft, with the copied spans; None when not flagged.
pub fn warning(l: &Leakage) -> Option<String> {
    if !l.flagged {
        return None;
    }
    let spans: Vec<String> = l.spans.iter().map(|s| format!("\"{}\"", s.text)).collect();
    Some(format!(
        "{WARNING_PREFIX}{:.0}% of the instruction's words are in runs copied from SKILL.md (longest {} words): {}; review before approving",
        l.shared_share * 100.0,
        l.longest_span_words,
        spans.join(", ")
    ))
}

/// How a leakage warning starts, so an edit can replace it.
pub const WARNING_PREFIX: &str = "leakage: ";

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "# CSV reports\n\nUse this skill when a user wants a report from tabular data.\n\n\
        1. Load the file with pandas and check the header row.\n\
        2. Count the records and add up the numeric columns.\n\
        3. Open the workbook, read every sheet and add up the revenue column before reporting.\n\
        4. Write a Markdown report with a short table of the totals.\n";

    #[test]
    fn a_differently_worded_instruction_shares_nothing() {
        let l = leakage("Summarise sales.csv into summary.md with the row count and total revenue.", BODY);
        assert_eq!(l, Leakage { shared_share: 0.0, longest_span_words: 0, spans: vec![], flagged: false });
    }

    #[test]
    fn a_pasted_sentence_is_one_span_quoted_as_written() {
        // 4 + 14 + 1 = 19 words; the 14 in the middle are step 3 of the body.
        let instruction = "Here is the job. open THE Workbook — read every sheet, and add up the revenue column \
                           before reporting!! Thanks.";
        let l = leakage(instruction, BODY);
        let text = "open THE Workbook — read every sheet, and add up the revenue column before reporting";
        assert_eq!(l.spans, vec![LeakedSpan { text: text.into(), words: 14 }]);
        assert_eq!(l.longest_span_words, 14);
        assert_eq!(l.shared_share, 14.0 / 19.0);
        assert!(l.flagged);
    }

    #[test]
    fn a_short_run_in_a_long_instruction_is_not_flagged() {
        // 40 words, 7 of them ("load the file with pandas and check") copied.
        let instruction = "We keep monthly exports from the shop in a folder called data and nobody has looked at \
                           them since spring. First load the file with pandas and check whether any months are \
                           missing, then tell me which ones by name.";
        let l = leakage(instruction, BODY);
        assert_eq!(l.spans, vec![LeakedSpan { text: "load the file with pandas and check".into(), words: 7 }]);
        assert_eq!(l.shared_share, 7.0 / 40.0);
        assert!(!l.flagged);
    }

    #[test]
    fn short_runs_that_cover_a_quarter_are_flagged() {
        // 24 words, two separate 8-word runs copied: 16 / 24.
        let instruction = "Open orders.csv, count the records and add up the numeric fields you find, then write a \
                           markdown report with a short table today.";
        let l = leakage(instruction, BODY);
        let texts: Vec<&str> = l.spans.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["count the records and add up the numeric", "write a markdown report with a short table"]);
        assert_eq!(l.longest_span_words, 8);
        assert_eq!(l.shared_share, 16.0 / 24.0);
        assert!(l.flagged);
    }

    #[test]
    fn empty_or_short_texts_share_nothing() {
        let none = Leakage { shared_share: 0.0, longest_span_words: 0, spans: vec![], flagged: false };
        assert_eq!(leakage("", BODY), none);
        assert_eq!(leakage("Summarise sales.csv into summary.md with the row count.", ""), none);
        // Five words copied verbatim are shorter than a shingle.
        assert_eq!(leakage("Load the file with pandas", BODY), none);
        assert_eq!(leakage("Load the file with pandas", "Load the file with pandas"), none);
        assert_eq!(leakage("?! —", "..."), none);
    }
}
