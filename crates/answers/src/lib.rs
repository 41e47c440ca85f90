//! Asking a model and reading what it answers: a versioned prompt file with its hash (recorded
//! with every answer), the JSON object in an answer's text, and where a passage it quotes is in
//! the text it was shown. Shared by every check that takes a model's word only with a quote (the
//! scan's model review, the judge, task drafting).

use sha2::{Digest, Sha256};

/// A prompt kept as a file in the project: its name (the version) and its text.
#[derive(Debug, Clone, Copy)]
pub struct Prompt {
    pub version: &'static str,
    pub text: &'static str,
}

impl Prompt {
    /// SHA-256 of the text, recorded with what the model answers to it.
    pub fn sha256(&self) -> String {
        hex::encode(Sha256::digest(self.text.as_bytes()))
    }
}

/// The JSON object in an answer: inside a Markdown fence or surrounded by prose, models add both.
pub fn json_object(answer: &str) -> &str {
    match (answer.find('{'), answer.rfind('}')) {
        (Some(a), Some(b)) if a < b => &answer[a..=b],
        _ => answer.trim(),
    }
}

/// Where `quote` is in `text`: verbatim, or else with every run of whitespace taken as one space
/// (models re-indent and re-wrap what they copy). The position is a byte offset in `text`.
pub fn find_quote(text: &str, quote: &str) -> Option<usize> {
    if let Some(p) = text.find(quote) {
        return Some(p);
    }
    let (flat, starts) = collapse_whitespace(text);
    let (q, _) = collapse_whitespace(quote);
    flat.find(q.trim()).map(|i| starts[i])
}

/// `s` with whitespace runs as single spaces, and for each byte of the result the offset in `s`
/// it came from.
fn collapse_whitespace(s: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(s.len());
    let mut starts = Vec::with_capacity(s.len());
    let mut in_space = false;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if !in_space {
                out.push(' ');
                starts.push(i);
            }
            in_space = true;
        } else {
            in_space = false;
            let mut buf = [0u8; 4];
            for _ in 0..c.encode_utf8(&mut buf).len() {
                starts.push(i);
            }
            out.push(c);
        }
    }
    (out, starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_object_is_found_inside_fences_and_prose() {
        assert_eq!(json_object("Sure:\n```json\n{\"a\": 1}\n```"), "{\"a\": 1}");
        assert_eq!(json_object("no json here"), "no json here");
    }

    #[test]
    fn quotes_match_verbatim_or_rewrapped_and_invented_ones_do_not() {
        let text = "Rows: 3\nTotal units:   20\nTotal revenue: 530";
        assert_eq!(find_quote(text, "Total units:   20"), Some(8));
        assert_eq!(find_quote(text, "Rows: 3 Total units: 20"), Some(0));
        assert_eq!(find_quote(text, "Total revenue: 531"), None);
    }
}
