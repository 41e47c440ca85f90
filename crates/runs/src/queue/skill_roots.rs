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

/// Where the script searches for `SKILL.md` beyond the roots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// The container's whole own filesystem (image, set-up and uploaded workspace).
    Everywhere,
    /// The workdir only: what lies outside it is known from an earlier search of the same image
    /// and set-up.
    Workdir,
}

/// A POSIX `sh` script, run in the trial's container before the agent: with `wipe`, it removes
/// every root (and [`SKILLS_DIR`] when the arm mounts nothing there, so an image's own copy goes
/// too); then it prints one line per visible entry: a bare name under [`SKILLS_DIR`], the full
/// path of anything left in a root, and, marked `found `, the folder of every `SKILL.md` the
/// search finds on the container's own filesystem (`-xdev` leaves out the mounts, the arm's
/// skills among them). `wipe` is off only in tests that show the listing catches what a wipe
/// would have removed.
pub fn script(workdir: &str, wipe: bool, search: Search) -> String {
    format!(
        "{roots}{wipe}\
         [ -d {SKILLS_DIR} ] && ls -1A {SKILLS_DIR}\n\
         {{ roots | sort -u | while IFS= read -r r; do\n  \
         [ -d \"$r\" ] && ls -1A \"$r\" | while IFS= read -r e; do printf '%s/%s\\n' \"$r\" \"$e\"; done\n\
         done\n\
         find {top} -xdev -name SKILL.md 2>/dev/null | while IFS= read -r f; do printf 'found %s\\n' \"$(dirname \"$f\")\"; done; }} | sort -u\n\
         true\n",
        roots = roots_function(workdir),
        wipe = if wipe { wipe_step() } else { String::new() },
        top = match search {
            Search::Everywhere => "/".to_string(),
            Search::Workdir => sh_quote(workdir),
        },
    )
}

/// Only the wipe of [`script`]: run as the trial's user, who owns the workdir (and its skill
/// roots), which root without capabilities cannot empty. Roots it cannot touch are left to root.
pub fn wipe_script(workdir: &str) -> String {
    format!("{}{}true\n", roots_function(workdir), wipe_step())
}

/// Removes every root, and [`SKILLS_DIR`] when the arm mounts nothing there.
fn wipe_step() -> String {
    format!(
        "roots | while IFS= read -r r; do rm -rf \"$r\" 2>/dev/null; done\n\
         grep -q ' {SKILLS_DIR} ' /proc/mounts || rm -rf {SKILLS_DIR} 2>/dev/null\n"
    )
}

/// A `roots` shell function printing every skill root: the fixed ones, the project roots under
/// the workdir and its ancestors, those under every home, and those under the harnesses' variables.
fn roots_function(workdir: &str) -> String {
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
    format!(
        "roots() {{\n  printf '%s\\n' {fixed}\n  \
         {{ cut -d: -f6 /etc/passwd 2>/dev/null; printf '%s\\n' \"${{HOME:-}}\"; }} | while IFS= read -r h; do\n    \
         [ -n \"$h\" ] && printf '%s\\n' {homes}\n  done\n{env}  true\n}}\n",
        fixed = fixed.join(" "),
        homes = homes.join(" "),
    )
}

/// What the script printed: every visible entry, and (a subset of them) the folders its search
/// found.
pub struct Listing {
    pub visible: Vec<String>,
    pub found: Vec<String>,
}

pub fn parse(stdout: &str) -> Listing {
    let mut visible = Vec::new();
    let mut found = Vec::new();
    for line in stdout.lines().map(str::trim_end).filter(|l| !l.is_empty()) {
        match line.strip_prefix("found ") {
            Some(dir) => {
                found.push(dir.to_string());
                visible.push(dir.to_string());
            }
            None => visible.push(line.to_string()),
        }
    }
    visible.sort();
    visible.dedup();
    Listing { visible, found }
}

/// The container path of a visible entry: a bare name is one of the arm's own under [`SKILLS_DIR`].
pub fn entry_path(entry: &str) -> String {
    if entry.starts_with('/') {
        entry.to_string()
    } else {
        format!("{SKILLS_DIR}/{entry}")
    }
}

/// A POSIX `sh` script printing `HASH<TAB>PATH` for each folder: the tree hash the library gives a
/// skill version (`path NUL sha256 LF` over its sorted files, then SHA-256), so a with-arm skill's
/// hash equals its version's.
pub fn hash_script(paths: &[String]) -> String {
    let quoted: Vec<String> = paths.iter().map(|p| sh_quote(p)).collect();
    format!(
        "for p in {}; do
  h=$(cd \"$p\" 2>/dev/null && find . -type f | LC_ALL=C sort | while IFS= read -r f; do          printf '%s\\000%s\\n' \"${{f#./}}\" \"$(sha256sum < \"$f\" | cut -d' ' -f1)\"; done | sha256sum | cut -d' ' -f1)\n           printf '%s\\t%s\\n' \"$h\" \"$p\"\ndone\n",
        quoted.join(" ")
    )
}

/// The `HASH<TAB>PATH` lines of [`hash_script`], by path.
pub fn parse_hashes(stdout: &str) -> std::collections::BTreeMap<String, String> {
    stdout.lines().filter_map(|l| l.split_once('\t')).map(|(h, p)| (p.to_string(), h.to_string())).collect()
}

/// The found folders outside `workdir`: what a later trial on the same image and set-up can take
/// from the cache instead of searching again.
pub fn outside(found: &[String], workdir: &str) -> Vec<String> {
    let w = workdir.trim_end_matches('/');
    found.iter().filter(|d| *d != w && !d.starts_with(&format!("{w}/"))).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_root_is_named_once_for_the_workdir_and_its_ancestors() {
        let s = script("/work/app", true, Search::Everywhere);
        for root in ["'/work/app/.claude/skills'", "'/work/.agents/skills'", "'/.codex/skills'", "'/harbor/skills'"] {
            assert!(s.contains(root), "{root} missing from:\n{s}");
        }
        assert!(s.contains("\"$h\"/'.claude/skills'") && s.contains("\"$CODEX_HOME\"/'skills'"));
        assert!(s.contains("rm -rf \"$r\""));
        assert!(!script("/work", false, Search::Everywhere).contains("rm -rf"), "no wipe when switched off");
        assert!(s.contains("find / -xdev") && script("/work", true, Search::Workdir).contains("find '/work' -xdev"));
    }

    #[test]
    fn found_folders_are_marked_and_those_outside_the_workdir_can_be_cached() {
        let l = parse("/root/.claude/skills/x\nfound /opt/v/s\nfound /work/a/.agents/skills/b\nfound /opt/v/s\n");
        assert_eq!(l.visible, ["/opt/v/s", "/root/.claude/skills/x", "/work/a/.agents/skills/b"]);
        assert_eq!(outside(&l.found, "/work/a"), ["/opt/v/s", "/opt/v/s"]);
        assert_eq!(entry_path("csv"), "/skills/csv");
        assert_eq!(parse_hashes("ab\t/skills/csv\n").get("/skills/csv").map(String::as_str), Some("ab"));
    }
}
