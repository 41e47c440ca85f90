//! Invisible and deceptive Unicode: tag characters, bidi controls, zero-width
//! characters, invisible operators, variation selectors, BOM, mixed-script words.

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HiddenKind {
    Tag,
    Bidi,
    ZeroWidth,
    InvisibleOperator,
    VariationSelector,
    Bom,
    Homoglyph,
}

/// A run of consecutive hidden characters of one kind.
pub struct Hidden {
    pub kind: HiddenKind,
    pub pos: usize,
    pub count: usize,
    pub decoded: Option<String>,
}

fn kind_of(c: char, pos: usize, prev: Option<char>) -> Option<HiddenKind> {
    match c as u32 {
        0xE0000..=0xE007F => Some(HiddenKind::Tag),
        0x202A..=0x202E | 0x2066..=0x2069 => Some(HiddenKind::Bidi),
        0xFEFF if pos == 0 => Some(HiddenKind::Bom),
        0x200B..=0x200D | 0x2060 | 0xFEFF | 0x180E => Some(HiddenKind::ZeroWidth),
        0x2061..=0x2064 => Some(HiddenKind::InvisibleOperator),
        // A selector after an ASCII letter/digit has no emoji to modify: likely smuggling.
        0xFE00..=0xFE0F | 0xE0100..=0xE01EF if prev.is_some_and(|p| p.is_ascii_alphanumeric()) => {
            Some(HiddenKind::VariationSelector)
        }
        _ => None,
    }
}

/// Characters that render as nothing (used to clean evidence snippets).
pub fn is_invisible(c: char) -> bool {
    matches!(c as u32, 0xE0000..=0xE007F | 0x202A..=0x202E | 0x2066..=0x2069 | 0x200B..=0x200D | 0x2060..=0x2064 | 0xFEFF | 0x180E | 0xFE00..=0xFE0F | 0xE0100..=0xE01EF)
}

pub fn find_hidden(text: &str) -> Vec<Hidden> {
    if text.is_ascii() {
        return Vec::new();
    }
    let bytes = text.as_bytes();
    let mut out: Vec<Hidden> = Vec::new();
    // (kind, start, chars, end): a run of one kind of hidden character, ending at byte `end`.
    let mut run: Option<(HiddenKind, usize, Vec<char>, usize)> = None;
    let mut prev: Option<char> = None;
    let mut i = 0;
    // Every hidden character is outside ASCII: jump from one non-ASCII character to the next.
    while let Some(off) = bytes[i..].iter().position(|&b| b >= 0x80) {
        let pos = i + off;
        if off > 0 {
            // ASCII in between ends a run, and is what comes before this character.
            prev = Some(bytes[pos - 1] as char);
        }
        let c = text[pos..].chars().next().expect("a character at a char boundary");
        let kind = kind_of(c, pos, prev);
        match (&mut run, kind) {
            (Some((k, _, chars, end)), Some(nk)) if *k == nk && *end == pos => {
                chars.push(c);
                *end = pos + c.len_utf8();
            }
            (_, nk) => {
                if let Some((k, p, chars, _)) = run.take() {
                    out.push(finish(k, p, &chars));
                }
                run = nk.map(|k| (k, pos, vec![c], pos + c.len_utf8()));
            }
        }
        if kind.is_none() {
            prev = Some(c);
        }
        i = pos + c.len_utf8();
    }
    if let Some((k, p, chars, _)) = run {
        out.push(finish(k, p, &chars));
    }
    // Greek and Cyrillic letters (U+0370..U+04FF) start with UTF-8 lead bytes 0xCD..=0xD3.
    if bytes.iter().any(|b| (0xCD..=0xD3).contains(b)) {
        out.extend(homoglyph_words(text));
    }
    out
}

fn finish(kind: HiddenKind, pos: usize, chars: &[char]) -> Hidden {
    let decoded = match kind {
        HiddenKind::Tag => {
            let s: String = chars
                .iter()
                .filter_map(|&c| char::from_u32(c as u32 - 0xE0000).filter(|a| (' '..='~').contains(a)))
                .collect();
            (!s.trim().is_empty()).then_some(s)
        }
        HiddenKind::ZeroWidth => decode_bits(chars),
        _ => None,
    };
    Hidden { kind, pos, count: chars.len(), decoded }
}

/// Zero-width steganography: ZWSP/ZWNJ (either polarity) as bits, 8 per byte.
fn decode_bits(chars: &[char]) -> Option<String> {
    let bits: Vec<char> = chars.iter().copied().filter(|c| matches!(c, '\u{200B}' | '\u{200C}')).collect();
    if bits.len() < 16 {
        return None;
    }
    [('\u{200B}', '\u{200C}'), ('\u{200C}', '\u{200B}')].iter().find_map(|&(zero, _)| {
        let bytes: Vec<u8> =
            bits.chunks_exact(8).map(|ch| ch.iter().fold(0u8, |acc, &b| (acc << 1) | u8::from(b != zero))).collect();
        let s = String::from_utf8(bytes).ok()?;
        (s.chars().all(|c| (' '..='~').contains(&c)) && s.chars().any(char::is_alphabetic)).then_some(s)
    })
}

/// Words mixing Latin with Cyrillic or Greek letters ("pаypal" with a Cyrillic а).
fn homoglyph_words(text: &str) -> Vec<Hidden> {
    let mut out = Vec::new();
    let mut start = None;
    let mut latin = false;
    let mut foreign = false;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        if c.is_alphabetic() {
            start.get_or_insert(i);
            latin |= c.is_ascii_alphabetic();
            foreign |= matches!(c as u32, 0x0370..=0x04FF);
        } else {
            if let (Some(s), true, true) = (start, latin, foreign) {
                out.push(Hidden { kind: HiddenKind::Homoglyph, pos: s, count: 1, decoded: None });
            }
            start = None;
            latin = false;
            foreign = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_tag_characters() {
        let hidden: String = "run me".chars().map(|c| char::from_u32(0xE0000 + c as u32).unwrap()).collect();
        let text = format!("Hello{hidden} world");
        let h = find_hidden(&text);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].kind, HiddenKind::Tag);
        assert_eq!(h[0].decoded.as_deref(), Some("run me"));
    }

    #[test]
    fn emoji_selector_is_not_flagged_but_homoglyph_is() {
        assert!(find_hidden("ok \u{2764}\u{FE0F} done").is_empty());
        assert_eq!(find_hidden("visit p\u{0430}ypal now")[0].kind, HiddenKind::Homoglyph);
    }
}
