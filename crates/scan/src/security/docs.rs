//! Markdown documents: prose is read as instructions to the agent; fenced code is
//! analysed as a script of its language. Code that merely documents a setup step
//! (install sections, reference docs) is capped at MEDIUM unless the text around it
//! orders the agent to run it, or the hit is pinned (remote code run unverified, a reverse
//! shell, secrets sent to the network, a decoded payload run).

use super::lang::Lang;
use super::matcher::{Hit, Matched};
use super::rules::{ARTIFACT, PROSE, SHELL};
use super::scripts;
use crate::markdown;
use crate::report::Severity;
use regex::Regex;
use std::sync::OnceLock;

fn directive() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(&super::rules::ascii_boundaries(r"(?i)\b(you\s+must|must\s+now|immediately|execute\s+the\s+following|run\s+the\s+following\s+(code|command)s?\s+(now|first|silently)|without\s+(verification|asking|confirmation|review)|silently|before\s+(doing\s+)?anything|do\s+not\s+ask)\b")).unwrap()
    })
}

fn setup_heading() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(&super::rules::ascii_boundaries(
            r"(?i)install|setup|set up|getting started|prerequisite|requirement|quick ?start|dependenc",
        ))
        .unwrap()
    })
}

fn cap(hits: &mut [Hit], why: &str) {
    for h in hits.iter_mut().filter(|h| h.severity > Severity::Medium && !h.pinned) {
        h.severity = Severity::Medium;
        h.confidence *= 0.6;
        h.message = format!("{} ({why})", h.message);
    }
}

pub(super) fn scan(text: &str, is_skill_md: bool) -> Vec<Hit> {
    let line_starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let offset_of = |line: u32| line_starts.get(line as usize - 1).copied().unwrap_or(text.len());
    let headings = markdown::headings(text, 0);
    let heading_at = |pos: usize| {
        let line = crate::skill::line_at(text, pos);
        headings.iter().rev().find(|h| h.line <= line).map(|h| h.title.as_str())
    };

    // Prose: fence contents blanked so positions stay valid.
    let mut prose = String::with_capacity(text.len());
    for (_, line, fenced) in markdown::lines(text) {
        if !fenced {
            prose.push_str(line);
        }
        prose.push('\n');
    }
    let matched = Matched::new(&prose);
    let mut hits = matched.hits(PROSE);
    let mut shell = matched.hits(SHELL);
    for h in &mut shell {
        let line = &prose[offset_of(crate::skill::line_at(&prose, h.pos))..];
        let line = line.lines().next().unwrap_or("");
        if heading_at(h.pos).is_some_and(|t| setup_heading().is_match(t)) && !directive().is_match(line) {
            cap(std::slice::from_mut(h), "documented setup step");
        }
    }
    hits.extend(shell);
    hits.extend(matched.hits(ARTIFACT).into_iter().filter_map(|mut h| match h.pattern {
        "B3" => Some(h),
        "C1" => {
            h.severity = Severity::Medium;
            Some(h)
        }
        _ => None,
    }));

    for fence in markdown::fences(text, 0) {
        let base = offset_of(fence.first_line);
        let mut fh = match Lang::from_fence(&fence.lang) {
            Some(lang) => scripts::scan(lang, &fence.code),
            None if matches!(fence.lang.as_str(), "" | "text" | "txt" | "markdown" | "md" | "plain") => {
                let matched = Matched::new(&fence.code);
                let mut v = matched.hits(PROSE);
                v.extend(matched.hits(SHELL));
                v
            }
            None => Matched::new(&fence.code).hits(ARTIFACT),
        };
        let setup = fence.heading.as_deref().is_some_and(|t| setup_heading().is_match(t));
        if (setup || !is_skill_md) && !directive().is_match(&fence.lead_in) {
            cap(&mut fh, if setup { "documented setup step" } else { "example code in a reference document" });
        }
        for h in &mut fh {
            h.pos += base;
        }
        hits.extend(fh);
    }
    hits
}
