//! Clean arms: every folder a coding-agent harness searches for skills is emptied before the agent
//! starts, and then everything still visible is listed for the fairness check. The roots are the
//! union of SkillEvaluator's staging list and the harnesses' documented search paths
//! (`../shared/reference/harnesses.md`), under every home in `/etc/passwd`, the working directory
//! and each of its ancestors, and the configuration folders named by environment variables.
//! The arm's own skills are mounted at [`SKILLS_DIR`] and copied from there by a harness after
//! this step, so they are the only skills an arm can read.

use super::model::SKILLS_DIR;
use skillscope_tasks::sh_quote;
use std::path::Path;

/// Searched under each home directory.
const HOME_ROOTS: &[&str] = &[
    ".claude/skills",
    ".agents/skills",
    ".codex/skills",
    ".config/opencode/skill",
    ".config/opencode/skills",
    ".gemini/skills",
    ".goose/skills",
    ".factory/skills",
    ".qwen/skills",
    ".cursor/skills",
];
/// Searched under the working directory and each of its ancestors.
const PROJECT_ROOTS: &[&str] = &[
    ".claude/skills",
    ".agents/skills",
    ".codex/skills",
    ".opencode/skill",
    ".opencode/skills",
    ".gemini/skills",
    ".goose/skills",
    ".factory/skills",
    ".qwen/skills",
    ".cursor/skills",
];
const FIXED_ROOTS: &[&str] = &["/harbor/skills", "/etc/claude-code/.claude/skills"];
/// Skill folders under a configuration folder named by an environment variable.
const ENV_ROOTS: &[(&str, &str)] = &[
    ("CLAUDE_CONFIG_DIR", "skills"),
    ("CODEX_HOME", "skills"),
    ("GEMINI_CLI_HOME", ".gemini/skills"),
    ("OPENCODE_CONFIG_DIR", "skill"),
    ("OPENCODE_CONFIG_DIR", "skills"),
    ("XDG_CONFIG_HOME", "opencode/skill"),
    ("XDG_CONFIG_HOME", "opencode/skills"),
];

/// A POSIX `sh` script, run in the trial's container before the agent: with `wipe`, it removes
/// every root (and [`SKILLS_DIR`] when the arm mounts nothing there, so an image's own copy goes
/// too); then it prints one line per visible entry: a bare name under [`SKILLS_DIR`], the full
/// path of anything left in a root, and the folder of every `SKILL.md` anywhere else on the
/// container's own filesystem (image and uploaded workspace; `-xdev` leaves out the mounts, the
/// arm's skills among them). The search runs in every trial; it is not cached per image. `wipe`
/// is off only in tests that show the listing catches what a wipe would have removed.
pub fn script(workdir: &str, wipe: bool) -> String {
    let mut fixed: Vec<String> = FIXED_ROOTS.iter().map(|r| r.to_string()).collect();
    for dir in Path::new(workdir).ancestors() {
        fixed.extend(PROJECT_ROOTS.iter().map(|r| dir.join(r).display().to_string()));
    }
    let fixed: Vec<String> = fixed.iter().map(|r| sh_quote(r)).collect();
    let homes: Vec<String> = HOME_ROOTS.iter().map(|r| format!("\"$h\"/{}", sh_quote(r))).collect();
    let env: String = ENV_ROOTS
        .iter()
        .map(|(var, sub)| format!("  [ -n \"${{{var}:-}}\" ] && printf '%s\\n' \"${var}\"/{}\n", sh_quote(sub)))
        .collect();
    let wipe_step = if wipe {
        format!(
            "roots | while IFS= read -r r; do rm -rf \"$r\"; done\n\
             grep -q ' {SKILLS_DIR} ' /proc/mounts || rm -rf {SKILLS_DIR}\n"
        )
    } else {
        String::new()
    };
    format!(
        "roots() {{\n  printf '%s\\n' {fixed}\n  \
         {{ cut -d: -f6 /etc/passwd 2>/dev/null; printf '%s\\n' \"${{HOME:-}}\"; }} | while IFS= read -r h; do\n    \
         [ -n \"$h\" ] && printf '%s\\n' {homes}\n  done\n{env}  true\n}}\n\
         {wipe_step}\
         [ -d {SKILLS_DIR} ] && ls -1A {SKILLS_DIR}\n\
         {{ roots | sort -u | while IFS= read -r r; do\n  \
         [ -d \"$r\" ] && ls -1A \"$r\" | while IFS= read -r e; do printf '%s/%s\\n' \"$r\" \"$e\"; done\n\
         done\n\
         find / -xdev -name SKILL.md 2>/dev/null | while IFS= read -r f; do dirname \"$f\"; done; }} | sort -u\n\
         true\n",
        fixed = fixed.join(" "),
        homes = homes.join(" "),
    )
}

/// The visible entries the script printed.
pub fn parse(stdout: &str) -> Vec<String> {
    stdout.lines().map(str::trim_end).filter(|l| !l.is_empty()).map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_root_is_named_once_for_the_workdir_and_its_ancestors() {
        let s = script("/work/app", true);
        for root in ["'/work/app/.claude/skills'", "'/work/.agents/skills'", "'/.codex/skills'", "'/harbor/skills'"] {
            assert!(s.contains(root), "{root} missing from:\n{s}");
        }
        assert!(s.contains("\"$h\"/'.claude/skills'") && s.contains("\"$CODEX_HOME\"/'skills'"));
        assert!(s.contains("rm -rf \"$r\""));
        assert!(!script("/work", false).contains("rm -rf"), "no wipe when switched off");
    }
}
