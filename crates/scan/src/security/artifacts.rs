//! Package-level checks: opaque files (D4) and manifest hygiene (D5).

use super::matcher::Hit;
use crate::report::Severity::*;
use crate::skill::Skill;
use skillscope_skill::validate::code;

const BINARY_EXT: [&str; 14] =
    ["exe", "dll", "so", "dylib", "bin", "pyc", "pyo", "class", "jar", "msi", "scr", "com", "elf", "o"];
const ARCHIVE_EXT: [&str; 8] = ["zip", "tar", "gz", "tgz", "7z", "rar", "xz", "bz2"];
const CODE_EXT: [&str; 8] = ["py", "sh", "js", "ts", "rb", "pl", "ps1", "bat"];

/// (file path, hit) pairs; positions are 0 (whole file).
pub(super) fn scan(skill: &Skill) -> Vec<(String, Hit)> {
    let mut out = Vec::new();
    for f in skill.files {
        let name = f.path.rsplit('/').next().unwrap_or(&f.path);
        let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
        let magic_exec = f.bytes.starts_with(b"\x7fELF")
            || f.bytes.starts_with(b"MZ")
            || [b"\xcf\xfa\xed\xfe", b"\xfe\xed\xfa\xcf", b"\xca\xfe\xba\xbe"].iter().any(|m| f.bytes.starts_with(*m));
        let hit = if magic_exec || BINARY_EXT.contains(&ext.as_str()) {
            Some(Hit::new("D4", High, 0.8, 0, "ships an executable or compiled binary that cannot be reviewed"))
        } else if ARCHIVE_EXT.contains(&ext.as_str())
            || f.bytes.starts_with(b"PK\x03\x04") && !matches!(ext.as_str(), "docx" | "xlsx" | "pptx" | "odt")
        {
            Some(Hit::new("D4", Medium, 0.6, 0, "ships an archive whose contents are not scanned"))
        } else if name.starts_with('.') && CODE_EXT.contains(&ext.as_str()) {
            Some(Hit::new("D4", High, 0.7, 0, "hidden dotfile containing code"))
        } else {
            None
        };
        if let Some(h) = hit {
            out.push((f.path.clone(), h));
        }
    }
    if skill.has_skill_md {
        // Missing name and description come from the spec check; the spec does not require a license.
        let no_license =
            skill.fm().and_then(|md| md.frontmatter.license.as_deref()).is_none_or(|l| l.trim().is_empty());
        for (missing, severity, msg) in [
            (skill.spec_reports(code::NAME_MISSING), Low, "manifest has no name"),
            (skill.spec_reports(code::DESCRIPTION_MISSING), Low, "manifest has no description"),
            (no_license, Info, "no license declared"),
        ] {
            if missing {
                out.push(("SKILL.md".into(), Hit::new("D5", severity, 0.9, 0, msg)));
            }
        }
    } else {
        out.push((String::new(), Hit::new("D5", Low, 0.9, 0, "package has no SKILL.md")));
    }
    out
}
