//! Package-level checks: opaque files (D4) and manifest hygiene (D5).

use super::matcher::Hit;
use crate::report::Severity::*;
use crate::skill::Skill;

const BINARY_EXT: [&str; 14] =
    ["exe", "dll", "so", "dylib", "bin", "pyc", "pyo", "class", "jar", "msi", "scr", "com", "elf", "o"];
const ARCHIVE_EXT: [&str; 8] = ["zip", "tar", "gz", "tgz", "7z", "rar", "xz", "bz2"];
const CODE_EXT: [&str; 8] = ["py", "sh", "js", "ts", "rb", "pl", "ps1", "bat"];

/// (file path, hit) pairs; positions are 0 (whole file).
pub fn scan(skill: &Skill) -> Vec<(String, Hit)> {
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
        for (key, msg) in [
            ("name", "manifest has no name"),
            ("description", "manifest has no description"),
            ("license", "no license declared"),
        ] {
            if skill.fm.get_str(key).is_none_or(|v| v.trim().is_empty()) {
                out.push(("SKILL.md".into(), Hit::new("D5", if key == "license" { Info } else { Low }, 0.9, 0, msg)));
            }
        }
    } else {
        out.push((String::new(), Hit::new("D5", Low, 0.9, 0, "package has no SKILL.md")));
    }
    out
}
