//! In-memory skill package and the derived views both engines share.

use skillscope_skill::skill_md::{self, ParseError, SkillMd};
use skillscope_skill::validate::{check, Violation};

/// One file of a skill package, path relative to the skill root with '/' separators.
#[derive(Clone, Debug)]
pub struct SkillFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// A decoded text file (UTF-8 only; anything else is treated as binary).
pub struct TextFile<'a> {
    pub path: &'a str,
    pub text: String,
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
        let texts: Vec<TextFile> = files
            .iter()
            .filter_map(|f| {
                let text = std::str::from_utf8(&f.bytes).ok()?;
                (!text.contains('\0')).then(|| TextFile { path: &f.path, text: text.to_string() })
            })
            .collect();
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
