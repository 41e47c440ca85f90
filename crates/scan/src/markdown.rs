//! Minimal Markdown structure: headings and fenced code blocks, with line numbers.

pub(crate) struct Heading {
    pub level: usize,
    /// Lower-cased title text.
    pub title: String,
    pub line: u32,
}

pub(crate) struct Fence {
    /// Lower-cased info string's first word ("" when none).
    pub lang: String,
    /// 1-based line of the first code line.
    pub first_line: u32,
    pub code: String,
    /// Lower-cased title of the nearest heading above, if any.
    pub heading: Option<String>,
    /// Up to three prose lines right before the fence, lower-cased.
    pub lead_in: String,
}

/// Headings outside fenced blocks. `offset` is added to line numbers.
pub(crate) fn headings(text: &str, offset: u32) -> Vec<Heading> {
    let mut out = Vec::new();
    for (i, line, fenced) in lines(text) {
        if fenced {
            continue;
        }
        let t = line.trim_start();
        let level = t.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&level) && t[level..].starts_with(' ') {
            out.push(Heading { level, title: t[level..].trim().to_lowercase(), line: i + offset });
        }
    }
    out
}

/// Iterates `(1-based line, text, inside_fence)`; fence delimiter lines count as inside.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (u32, &str, bool)> {
    let mut open: Option<String> = None;
    text.lines().enumerate().map(move |(i, line)| {
        let t = line.trim_start();
        let marker = fence_marker(t);
        let inside = match (&open, marker) {
            (None, Some(m)) => {
                open = Some(m);
                true
            }
            (Some(o), Some(_)) if closes(o, t) => {
                open = None;
                true
            }
            (o, _) => o.is_some(),
        };
        (i as u32 + 1, line, inside)
    })
}

fn fence_marker(t: &str) -> Option<String> {
    let ch = t.chars().next()?;
    if ch != '`' && ch != '~' {
        return None;
    }
    let n = t.chars().take_while(|&c| c == ch).count();
    (n >= 3).then(|| ch.to_string().repeat(n))
}

/// A closing fence: only the fence character, at least as many as the opener.
fn closes(marker: &str, line: &str) -> bool {
    let l = line.trim();
    l.len() >= marker.len() && l.chars().all(|c| marker.starts_with(c))
}

pub(crate) fn fences(text: &str, offset: u32) -> Vec<Fence> {
    let all: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut heading: Option<String> = None;
    let mut i = 0;
    while i < all.len() {
        let t = all[i].trim_start();
        if let Some(marker) = fence_marker(t) {
            let lang = t[marker.len()..].split_whitespace().next().unwrap_or("").to_lowercase();
            let end = (i + 1..all.len()).find(|&j| closes(&marker, all[j])).unwrap_or(all.len());
            let lead_in = all[i.saturating_sub(3)..i].iter().map(|l| l.to_lowercase()).collect::<Vec<_>>().join("\n");
            out.push(Fence {
                lang,
                first_line: i as u32 + 2 + offset,
                code: all[(i + 1).min(end)..end].join("\n"),
                heading: heading.clone(),
                lead_in,
            });
            i = end + 1;
            continue;
        }
        if t.starts_with('#') {
            heading = Some(t.trim_start_matches('#').trim().to_lowercase());
        }
        i += 1;
    }
    out
}

/// Body of the first section whose heading satisfies `pred`: (heading line, text).
pub(crate) fn section(text: &str, pred: impl Fn(&str) -> bool) -> Option<(u32, String)> {
    let hs = headings(text, 0);
    let idx = hs.iter().position(|h| pred(&h.title))?;
    let h = &hs[idx];
    let end = hs[idx + 1..].iter().find(|n| n.level <= h.level).map_or(u32::MAX, |n| n.line);
    let body = text
        .lines()
        .enumerate()
        .filter(|(i, _)| (*i as u32 + 1) > h.line && (*i as u32 + 1) < end)
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n");
    Some((h.line, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fences_and_headings() {
        let md = "# Title\n## Install\n\n```bash\ncurl x\n```\n## Usage\ntext";
        let f = fences(md, 0);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].lang, "bash");
        assert_eq!(f[0].first_line, 5);
        assert_eq!(f[0].code, "curl x");
        assert_eq!(f[0].heading.as_deref(), Some("install"));
        assert_eq!(headings(md, 0).len(), 3);
        assert_eq!(section(md, |t| t == "usage").unwrap().1, "text");
    }
}
