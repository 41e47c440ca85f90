//! Skillscope static review: a quality score and a security scan for one skill
//! package, computed from an in-memory file list (no I/O except `load_dir`).

pub mod export;
mod markdown;
mod quality;
pub mod report;
pub mod rules;
pub mod security;
pub mod semantic;
mod skill;

pub use report::*;
pub use skill::SkillFile;

use std::path::Path;

#[derive(Clone, Debug)]
pub struct ScanConfig {
    /// Minimum overall quality score to pass (0..100).
    pub quality_gate: f64,
    /// Security scores below this are flagged risky.
    pub risky_below: u32,
}

impl Default for ScanConfig {
    fn default() -> Self {
        ScanConfig { quality_gate: 70.0, risky_below: 80 }
    }
}

/// Static scan (quality and security); the model review is added with [`semantic::Review`].
pub fn scan(dir_name: &str, files: &[SkillFile], cfg: &ScanConfig) -> ScanReport {
    let skill = skill::Skill::new(dir_name, files);
    ScanReport {
        name: skill.name(),
        quality: quality::report(&skill, cfg.quality_gate),
        security: security::report(&skill, cfg.risky_below),
    }
}

/// Security findings of one shell command, read as a script line (the probes judge what an agent
/// ran with the same rules the scan applies to what a skill ships).
pub fn scan_command(command: &str) -> Vec<SecurityFinding> {
    let files = [SkillFile { path: "scripts/command.sh".into(), bytes: command.as_bytes().to_vec() }];
    security::analyze(&skill::Skill::new("command", &files))
}

const MAX_FILE: u64 = 5 * 1024 * 1024;

/// Reads a skill directory recursively. Symlinks are skipped (they could point
/// outside the package) and files over 5 MiB are left out.
pub fn load_dir(path: &Path) -> std::io::Result<Vec<SkillFile>> {
    let mut out = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let ft = entry.file_type()?;
            let p = entry.path();
            if ft.is_symlink() {
                continue;
            } else if ft.is_dir() {
                if entry.file_name() != ".git" {
                    stack.push(p);
                }
            } else if ft.is_file() && entry.metadata()?.len() <= MAX_FILE {
                let rel = p.strip_prefix(path).unwrap_or(&p);
                let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
                out.push(SkillFile { path: rel, bytes: std::fs::read(&p)? });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}
