//! In-memory skill package and the derived views both engines share.

use skillscope_skill::skill_md::{self, ParseError, SkillMd};
use skillscope_skill::validate::{check, Violation};

/// One file of a skill package, path relative to the skill root with '/' separators.
#[derive(Clone, Debug)]
pub struct SkillFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// A file as text. Every file is read: one that is not clean UTF-8 is decoded anyway (UTF-16
/// by its byte-order mark or its NUL pattern, otherwise UTF-8 with invalid bytes replaced and NUL
/// bytes dropped, as a shell drops them), so a stray byte cannot hide a file from the rules.
pub struct TextFile<'a> {
    pub path: &'a str,
    pub text: String,
    /// Set when the bytes did not decode cleanly.
    pub undecodable: Option<Undecodable>,
}

/// How a file failed to decode, and where (a byte offset in the decoded text).
#[derive(Clone, Debug)]
pub struct Undecodable {
    pub pos: usize,
    pub reason: &'static str,
    /// The kind of a recognised binary format (image, font, archive …), which is not text by design.
    pub binary_kind: Option<&'static str>,
}

impl<'a> TextFile<'a> {
    fn decode(f: &'a SkillFile) -> TextFile<'a> {
        if let Ok(text) = std::str::from_utf8(&f.bytes) {
            if !text.contains('\0') {
                return TextFile { path: &f.path, text: text.to_string(), undecodable: None };
            }
        }
        let binary_kind =
            infer::get(&f.bytes).filter(|t| t.matcher_type() != infer::MatcherType::Text).map(|t| t.extension());
        if let Some(text) = utf16(&f.bytes) {
            let undecodable = Undecodable { pos: 0, reason: "UTF-16 text", binary_kind };
            return TextFile { path: &f.path, text, undecodable: Some(undecodable) };
        }
        let invalid = std::str::from_utf8(&f.bytes).err().map(|e| e.valid_up_to());
        let nul = f.bytes.iter().position(|&b| b == 0);
        let reason = if invalid.is_some() { "bytes that are not UTF-8" } else { "NUL bytes" };
        let text = String::from_utf8_lossy(&f.bytes).replace('\0', "");
        // Everything before the first bad byte decodes unchanged (no NUL is dropped before it).
        let bad = invalid.into_iter().chain(nul).min().unwrap_or(0);
        let pos = (0..=bad.min(text.len())).rev().find(|&p| text.is_char_boundary(p)).unwrap_or(0);
        TextFile { path: &f.path, text, undecodable: Some(Undecodable { pos, reason, binary_kind }) }
    }
}

/// UTF-16 by byte-order mark, or when every other byte of a long enough prefix is NUL.
fn utf16(bytes: &[u8]) -> Option<String> {
    let units = |b: &[u8], le: bool| -> String {
        let it =
            b.chunks_exact(2)
                .map(|c| if le { u16::from_le_bytes([c[0], c[1]]) } else { u16::from_be_bytes([c[0], c[1]]) });
        char::decode_utf16(it).map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER)).collect()
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => return Some(units(rest, true)),
        [0xFE, 0xFF, rest @ ..] => return Some(units(rest, false)),
        _ => {}
    }
    let head = &bytes[..bytes.len().min(512) & !1];
    if head.len() < 8 {
        return None;
    }
    let zeros = |odd: usize| head.iter().skip(odd).step_by(2).filter(|&&b| b == 0).count() * 10 >= head.len() / 2 * 9;
    if zeros(1) {
        Some(units(&bytes[..bytes.len() & !1], true))
    } else if zeros(0) {
        Some(units(&bytes[..bytes.len() & !1], false))
    } else {
        None
    }
}

pub struct Skill<'a> {
    pub dir_name: &'a str,
    pub files: &'a [SkillFile],
    pub texts: Vec<TextFile<'a>>,
    /// Raw SKILL.md text ("" when missing).
    pub skill_md: String,
    pub has_skill_md: bool,
    /// SKILL.md as read by the one SKILL.md parser (an error too when there is no SKILL.md).
    pub md: Result<SkillMd, ParseError>,
    /// The Agent Skills spec's findings on SKILL.md (empty when it could not be read).
    pub spec: Vec<Violation>,
}

impl<'a> Skill<'a> {
    pub fn new(dir_name: &'a str, files: &'a [SkillFile]) -> Skill<'a> {
        let texts: Vec<TextFile> = files.iter().map(TextFile::decode).collect();
        let skill_md = texts.iter().find(|t| t.path == "SKILL.md").map(|t| t.text.clone());
        let md = skill_md::parse(skill_md.as_deref().unwrap_or("").as_bytes());
        let spec = md.as_ref().map(|md| check(md, dir_name)).unwrap_or_default();
        Skill {
            dir_name,
            files,
            texts,
            has_skill_md: skill_md.is_some(),
            skill_md: skill_md.unwrap_or_default(),
            md,
            spec,
        }
    }

    /// The parsed SKILL.md, when it could be read.
    pub fn fm(&self) -> Option<&SkillMd> {
        self.md.as_ref().ok()
    }

    /// SKILL.md line of a top-level frontmatter key (1, the opening fence, when it is not written).
    pub fn line_of(&self, key: &str) -> u32 {
        self.fm().and_then(|md| md.line_of(key)).unwrap_or(1)
    }

    /// The Markdown after the frontmatter ("" when SKILL.md could not be read).
    pub fn body(&self) -> &str {
        self.fm().map_or("", |md| md.body.as_str())
    }

    /// 1-based SKILL.md line on which the body starts.
    pub fn body_line(&self) -> u32 {
        self.fm().map_or(1, |md| md.body_line)
    }

    /// Whether the spec check reported `code` (always true of a SKILL.md that could not be read).
    pub fn spec_reports(&self, code: &str) -> bool {
        self.md.is_err() || self.spec.iter().any(|v| v.finding.code == code)
    }

    pub fn text(&self, path: &str) -> Option<&str> {
        self.texts.iter().find(|t| t.path == path).map(|t| t.text.as_str())
    }

    pub fn name(&self) -> String {
        self.fm().and_then(|md| md.frontmatter.name.clone()).unwrap_or_else(|| self.dir_name.to_string())
    }

    pub fn description(&self) -> String {
        self.fm().and_then(|md| md.frontmatter.description.clone()).unwrap_or_default()
    }

    pub fn has_dir(&self, dir: &str) -> bool {
        let prefix = format!("{dir}/");
        self.files.iter().any(|f| f.path.starts_with(&prefix))
    }

    pub fn files_under<'s>(&'s self, dir: &str) -> impl Iterator<Item = &'s SkillFile> + 's {
        let prefix = format!("{dir}/");
        self.files.iter().filter(move |f| f.path.starts_with(&prefix))
    }

    /// Detected skill type, following the reference classifier.
    pub fn skill_type(&self) -> &'static str {
        let scripts = self.files_under("scripts").any(|f| f.path.ends_with(".py") || f.path.ends_with(".sh"));
        let lib = self.lib_dir().is_some();
        let resources = ["assets", "templates", "design-system", "resources"].iter().any(|d| self.has_dir(d));
        match (scripts, lib, resources) {
            (true, true, _) | (true, _, true) => "hybrid",
            (true, false, false) => "script-based",
            (false, true, _) => "lib-based",
            (false, false, true) => "resource-based",
            _ => "guide-only",
        }
    }

    /// First top-level subdirectory that is a Python package (not scripts/tests/…).
    pub fn lib_dir(&self) -> Option<&str> {
        const EXCLUDED: [&str; 6] = ["scripts", "tests", "references", "assets", "evals", "examples"];
        self.files.iter().find_map(|f| {
            let (dir, rest) = f.path.split_once('/')?;
            (rest == "__init__.py" && !EXCLUDED.contains(&dir)).then_some(dir)
        })
    }
}

/// 1-based line number of byte offset `pos` in `text`.
pub(crate) fn line_at(text: &str, pos: usize) -> u32 {
    text[..pos.min(text.len())].matches('\n').count() as u32 + 1
}

/// 1-based column (in characters) of byte offset `pos`.
pub(crate) fn column_at(text: &str, pos: usize) -> u32 {
    let pos = pos.min(text.len());
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    text[start..pos].chars().count() as u32 + 1
}
