//! Clean arms: every folder a coding-agent harness searches for skills is emptied before the agent
//! starts, and then everything still visible is listed for the fairness check. The roots are the
//! union of SkillEvaluator's staging list and the harnesses' documented search paths
//! (`../shared/reference/harnesses.md`, Codex's admin folder), under every home in `/etc/passwd`,
//! the working directory and each of its ancestors, the configuration folders named by environment
//! variables, and the folders Skillscope points each harness at ([`skillscope_agent::HARNESS_DIRS`]).
//! The arm's own skills are mounted at [`SKILLS_DIR`] and copied from there by a harness after
//! this step, so they are the only skills an arm can read.
//!
//! The listing runs as the container's default user and as the trial's, over every mount, and is
//! trusted only when it ran to its end: one that timed out, exited non-zero, could not read
//! something for another reason than permissions, did not search where it should, or lacks its
//! last line is an error, and the attempt an infrastructure failure ("fairness unverified"), never
//! cached.

use super::model::{TrialSpec, SKILLS_DIR};
use serde::Serialize;
use skillscope_sandbox::{Container, ContainerSpec, ExecOptions, ExecResult, Owner, SandboxError};
use skillscope_tasks::sh_quote;
use std::path::Path;
use std::time::Duration;

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
const FIXED_ROOTS: &[&str] = &["/harbor/skills", "/etc/claude-code/.claude/skills", "/etc/codex/skills"];
/// Skill folders under a configuration folder named by an environment variable.
const ENV_ROOTS: &[(&str, &str)] = &[
    ("CLAUDE_CONFIG_DIR", "skills"),
    ("CODEX_HOME", "skills"),
    ("GEMINI_CLI_HOME", ".gemini/skills"),
    ("GEMINI_CLI_HOME", ".agents/skills"),
    ("OPENCODE_CONFIG_DIR", "skill"),
    ("OPENCODE_CONFIG_DIR", "skills"),
    ("XDG_CONFIG_HOME", "opencode/skill"),
    ("XDG_CONFIG_HOME", "opencode/skills"),
];
/// Filesystems of the kernel's own making, which hold no files an image or a set-up put there.
const PSEUDO_FILESYSTEMS: &[&str] = &[
    "proc",
    "sysfs",
    "cgroup",
    "cgroup2",
    "devpts",
    "mqueue",
    "securityfs",
    "debugfs",
    "tracefs",
    "pstore",
    "bpf",
    "configfs",
    "fusectl",
    "hugetlbfs",
    "binfmt_misc",
    "autofs",
    "nsfs",
    "efivarfs",
    "selinuxfs",
];
/// The last line of a listing that ran to its end.
const DONE: &str = "done";
/// How long one listing may take: the search of the whole container runs once per image and
/// [`Clean::key`], and a large image can take minutes at one CPU.
pub const TIMEOUT: Duration = Duration::from_secs(300);

/// Where the script searches for `SKILL.md` beyond the roots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Every mount of the container (image, set-up, uploaded workspace, volumes, tmpfs).
    Everywhere,
    /// The workdir and the mounts under it only: what lies outside it is known from an earlier
    /// search with the same image and [`Clean::key`].
    Workdir,
}

/// How the queue runs the step; tests switch the wipe off or shorten the time limit.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Off only in tests that show the listing catches what a wipe would have removed.
    pub wipe: bool,
    pub timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Self { wipe: true, timeout: TIMEOUT }
    }
}

/// The clean-arms step of one trial's container.
pub struct Clean {
    pub workdir: String,
    /// The trial's user (None when the task runs as root, the container's default user): it wipes
    /// what it owns and lists what it can read, since root without capabilities can do neither in
    /// its folders.
    pub owner: Option<Owner>,
    /// Mount points Skillscope makes itself (a harness's install, its socket, the egress files, a
    /// probe's canaries), left out of the search: their content is Skillscope's and the same in
    /// both arms. The arm's skills at [`SKILLS_DIR`] are listed by name instead.
    pub own_mounts: Vec<String>,
    pub options: Options,
    /// The cache's key of the search outside the workdir: SHA-256 of everything that decides what
    /// the wipe leaves and the search finds there, besides the image: the set-up, the container's
    /// environment, user and read-only root (whose /tmp is a tmpfs), who lists, and the listing's
    /// own script (which names the workdir, the roots and the mounts left out).
    pub key: String,
}

/// Why a listing gave no result.
pub enum ListError {
    Engine(SandboxError),
    /// It did not run to its end, or could not read something: its cause.
    Unverified(String),
}

impl From<SandboxError> for ListError {
    fn from(e: SandboxError) -> Self {
        Self::Engine(e)
    }
}

impl Clean {
    /// The step for a trial of `spec` in a container made from `container`.
    pub fn new(spec: &TrialSpec, container: &ContainerSpec, options: Options) -> Self {
        let mut own_mounts: Vec<String> =
            container.ro_mounts.iter().map(|(_, at)| at.clone()).filter(|at| at != SKILLS_DIR).collect();
        own_mounts.sort();
        let mut clean =
            Self { workdir: spec.workdir.clone(), owner: spec.owner(), own_mounts, options, key: String::new() };
        clean.key = clean.search_key(spec, container);
        clean
    }

    /// The [`Self::key`] of this step for a trial of `spec` in a container made from `container`.
    fn search_key(&self, spec: &TrialSpec, container: &ContainerSpec) -> String {
        #[derive(Serialize)]
        struct Key<'a> {
            setup: &'a [String],
            env: &'a [String],
            container_user: &'a Option<String>,
            read_only_rootfs: bool,
            users: Vec<Option<String>>,
            script: String,
        }
        let key = Key {
            setup: &spec.setup,
            env: &container.env,
            container_user: &container.user,
            read_only_rootfs: container.read_only_rootfs,
            users: self.users(),
            script: self.script(Search::Everywhere, true),
        };
        skillscope_store::blobs::sha256_hex(serde_json::to_string(&key).unwrap_or_default().as_bytes())
    }

    /// Who lists: the container's default user (None), who empties the roots, and the trial's user.
    fn users(&self) -> Vec<Option<String>> {
        std::iter::once(None).chain(self.owner.map(|o| Some(o.user()))).collect()
    }

    /// Empties every root (with the wipe), then lists what each user can see: the union is what
    /// the agent could read, whichever of them it runs as. The trial's user lists as itself rather
    /// than root gaining CAP_DAC_READ_SEARCH: an exec cannot add a capability, the container's
    /// would reach the agent too, and on rootless Docker or Podman it covers only the ids mapped
    /// into the user namespace; the trial's own user sees exactly what its agent sees.
    pub async fn list(&self, container: &Container, search: Search) -> Result<Listing, ListError> {
        if let (true, Some(owner)) = (self.options.wipe, self.owner) {
            // The workdir's roots belong to the trial's user; root empties the rest just below.
            let own = ["sh".to_string(), "-c".into(), self.wipe_script()];
            container.exec(&own, self.exec_as(Some(owner.user())), &mut |_, _| {}).await?;
        }
        let mut listing = Listing::default();
        for (i, user) in self.users().into_iter().enumerate() {
            let script = ["sh".to_string(), "-c".into(), self.script(search, self.options.wipe && i == 0)];
            let run = container.exec(&script, self.exec_as(user.clone()), &mut |_, _| {}).await?;
            let who = user.unwrap_or_else(|| "the container's default user".into());
            let top = match search {
                Search::Everywhere => "/",
                Search::Workdir => &self.workdir,
            };
            listing.merge(
                read(&run, top, self.options.timeout)
                    .map_err(|cause| ListError::Unverified(format!("the skill listing as {who} {cause}")))?,
            );
        }
        Ok(listing)
    }

    fn exec_as(&self, user: Option<String>) -> ExecOptions {
        ExecOptions { timeout: self.options.timeout, user, ..ExecOptions::default() }
    }

    /// A POSIX `sh` script, run in the trial's container before the agent: with `wipe`, it removes
    /// every root (and [`SKILLS_DIR`] when the arm mounts nothing there, so an image's own copy
    /// goes too); then it prints one line per visible entry: `own NAME` under [`SKILLS_DIR`],
    /// `left PATH` for anything left in a root, `found DIR` for the folder of every `SKILL.md` the
    /// search finds, `searched TOP` after the walk of each mount point, `error MESSAGE` for
    /// whatever it could not read for another reason than permissions, and [`DONE`] last.
    fn script(&self, search: Search, wipe: bool) -> String {
        let tops = match search {
            Search::Everywhere => "mounts".to_string(),
            Search::Workdir => format!(
                "printf '%s\\n' {w}; mounts | while IFS= read -r m; do case \"$m\" in {under}/*) printf '%s\\n' \"$m\";; esac; done",
                w = sh_quote(&self.workdir),
                under = sh_quote(self.workdir.trim_end_matches('/')),
            ),
        };
        format!(
            "{roots}{mounts}{wipe}tops() {{ {tops}; }}\n\
             list() {{\n  \
             [ -d {SKILLS_DIR} ] && ls -1A {SKILLS_DIR} | while IFS= read -r e; do printf 'own %s\\n' \"$e\"; done\n  \
             roots | while IFS= read -r r; do\n    \
             [ -d \"$r\" ] && ls -1A \"$r\" | while IFS= read -r e; do printf 'left %s/%s\\n' \"$r\" \"$e\"; done\n  \
             done\n  \
             tops | while IFS= read -r t; do\n    \
             find \"$t\" -xdev -path {SKILLS_DIR} -prune -o -name SKILL.md -print | while IFS= read -r f; do d=${{f%/*}}; printf 'found %s\\n' \"${{d:-/}}\"; done\n    \
             printf 'searched %s\\n' \"$t\"\n  \
             done\n}}\n\
             {{ {{ list; }} 2>&1 >&3 | while IFS= read -r l; do case \"$l\" in *'Permission denied') ;; *) printf 'error %s\\n' \"$l\";; esac; done; }} 3>&1\n\
             echo {DONE}\n",
            roots = roots_function(&self.workdir),
            mounts = self.mounts_function(),
            wipe = if wipe { wipe_step() } else { String::new() },
        )
    }

    /// Only the wipe of [`Self::script`]: run as the trial's user, who owns the workdir (and its
    /// skill roots), which root without capabilities cannot empty. Roots it cannot touch are left
    /// to root.
    fn wipe_script(&self) -> String {
        format!("{}{}true\n", roots_function(&self.workdir), wipe_step())
    }

    /// A `mounts` shell function printing every mount point of the container but the kernel's
    /// pseudo filesystems, /proc and /sys, and Skillscope's own mounts: each is searched on its
    /// own (`find -xdev` stays on one filesystem, so a volume or a tmpfs is no blind spot).
    fn mounts_function(&self) -> String {
        let skipped: Vec<String> = ["/proc", "/proc/*", "/sys", "/sys/*", SKILLS_DIR]
            .iter()
            .map(|p| p.to_string())
            .chain(self.own_mounts.iter().map(|m| sh_quote(m)))
            .collect();
        format!(
            "mounts() {{\n  while read -r _ _ _ _ m _ rest; do\n    \
             t=\" $rest\"; t=${{t#* - }}\n    \
             case \"${{t%% *}}\" in {pseudo}) continue;; esac\n    \
             case \"$m\" in *\\\\*) m=$(printf '%b' \"$m\");; esac\n    \
             case \"$m\" in {skipped}) continue;; esac\n    \
             printf '%s\\n' \"$m\"\n  done < /proc/self/mountinfo\n}}\n",
            pseudo = PSEUDO_FILESYSTEMS.join("|"),
            skipped = skipped.join("|"),
        )
    }
}

/// Removes every root, and [`SKILLS_DIR`] when the arm mounts nothing there. `rm` runs only
/// for a root that is there: most are not, and a process each made the wipe the step's main cost.
fn wipe_step() -> String {
    format!(
        "roots | while IFS= read -r r; do {{ [ -e \"$r\" ] || [ -L \"$r\" ]; }} && rm -rf \"$r\" 2>/dev/null; done\n\
         grep -q ' {SKILLS_DIR} ' /proc/mounts || rm -rf {SKILLS_DIR} 2>/dev/null\n"
    )
}

/// A `roots` shell function printing every skill root: the fixed ones, the project roots under
/// the workdir and its ancestors, those under every home, those under the harnesses' variables
/// as the container sets them, and those under the folders Skillscope points the harnesses at.
fn roots_function(workdir: &str) -> String {
    let mut fixed: Vec<String> = FIXED_ROOTS.iter().map(|r| r.to_string()).collect();
    for dir in Path::new(workdir).ancestors() {
        fixed.extend(PROJECT_ROOTS.iter().map(|r| dir.join(r).display().to_string()));
    }
    for (var, dir) in skillscope_agent::HARNESS_DIRS {
        fixed.extend(under_variable(var).map(|sub| Path::new(dir).join(sub).display().to_string()));
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

/// The skill folders under the folder an environment variable names (`HOME`: its home roots).
fn under_variable(var: &str) -> impl Iterator<Item = &'static str> + '_ {
    let home = if var == "HOME" { HOME_ROOTS } else { &[] };
    home.iter().copied().chain(ENV_ROOTS.iter().filter(move |(v, _)| *v == var).map(|(_, sub)| *sub))
}

/// What the listings printed: every visible entry, and (a subset of them) the folders the search
/// found.
#[derive(Debug, Default)]
pub struct Listing {
    pub visible: Vec<String>,
    pub found: Vec<String>,
}

impl Listing {
    fn merge(&mut self, other: Listing) {
        self.visible.extend(other.visible);
        self.found.extend(other.found);
        self.tidy();
    }

    fn tidy(&mut self) {
        for entries in [&mut self.visible, &mut self.found] {
            entries.sort();
            entries.dedup();
        }
    }
}

/// What one listing printed, if it ran to its end within `limit` having searched `top`; else why
/// not (to follow "the skill listing as USER").
pub fn read(run: &ExecResult, top: &str, limit: Duration) -> Result<Listing, String> {
    if run.timed_out {
        return Err(format!("timed out after {} s", limit.as_secs()));
    }
    if run.exit_code != Some(0) {
        return Err(format!("exited {:?}: {}", run.exit_code, run.stderr.trim()));
    }
    let mut listing = Listing::default();
    let (mut errors, mut searched, mut done) = (Vec::new(), false, false);
    for line in run.stdout.lines().filter(|l| !l.is_empty()) {
        if done {
            return Err(format!("printed after its last line: {line}"));
        }
        match line.split_once(' ') {
            Some(("own", name)) => listing.visible.push(name.to_string()),
            Some(("left", path)) => listing.visible.push(path.to_string()),
            Some(("found", dir)) => {
                listing.found.push(dir.to_string());
                listing.visible.push(dir.to_string());
            }
            Some(("searched", t)) => searched |= t == top,
            Some(("error", message)) => errors.push(message.to_string()),
            None if line == DONE => done = true,
            _ => return Err(format!("printed an unexpected line: {line}")),
        }
    }
    if !errors.is_empty() {
        return Err(format!("could not read: {}", brief(&errors)));
    }
    if !done {
        return Err("ended before its last line".into());
    }
    if !searched {
        return Err(format!("did not search {top}"));
    }
    listing.tidy();
    Ok(listing)
}

/// The first few of a listing's errors, each cut to its start and end (a path can be 4 KiB long,
/// and its end says what went wrong).
fn brief(errors: &[String]) -> String {
    const FEW: usize = 3;
    const ENDS: usize = 100;
    let cut = |e: &String| {
        let chars: Vec<char> = e.chars().collect();
        if chars.len() <= 2 * ENDS {
            return e.clone();
        }
        let (start, end): (String, String) =
            (chars[..ENDS].iter().collect(), chars[chars.len() - ENDS..].iter().collect());
        format!("{start}…{end}")
    };
    let mut text = errors.iter().take(FEW).map(cut).collect::<Vec<_>>().join("; ");
    if errors.len() > FEW {
        text.push_str(&format!(" (and {} more)", errors.len() - FEW));
    }
    text
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

/// The found folders outside `workdir`: what a later trial with the same image and key can take
/// from the cache instead of searching again.
pub fn outside(found: &[String], workdir: &str) -> Vec<String> {
    let w = workdir.trim_end_matches('/');
    found.iter().filter(|d| *d != w && !d.starts_with(&format!("{w}/"))).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(spec: &TrialSpec, container: &ContainerSpec) -> Clean {
        Clean::new(spec, container, Options::default())
    }

    fn trial() -> (TrialSpec, ContainerSpec) {
        (TrialSpec::command("img", vec!["true".into()]), ContainerSpec::new("img"))
    }

    #[test]
    fn every_root_is_named_once_for_the_workdir_and_its_ancestors() {
        let (mut spec, container) = trial();
        spec.workdir = "/work/app".into();
        let s = clean(&spec, &container).script(Search::Everywhere, true);
        for root in [
            "'/work/app/.claude/skills'",
            "'/work/.agents/skills'",
            "'/.codex/skills'",
            "'/harbor/skills'",
            "'/etc/codex/skills'",
            "'/tmp/skillscope-home/.agents/skills'",
            "'/tmp/skillscope-claude/skills'",
            "'/tmp/skillscope-opencode/config/opencode/skills'",
        ] {
            assert!(s.contains(root), "{root} missing from:\n{s}");
        }
        assert!(s.contains("\"$h\"/'.claude/skills'") && s.contains("\"$CODEX_HOME\"/'skills'"));
        assert!(s.contains("rm -rf \"$r\""));
        spec.workdir = "/work".into();
        let c = clean(&spec, &container);
        assert!(!c.script(Search::Everywhere, false).contains("rm -rf"), "no wipe when switched off");
        assert!(c.script(Search::Workdir, true).contains("printf '%s\\n' '/work'; mounts"));
    }

    #[test]
    fn the_search_leaves_out_skillscopes_own_mounts_and_the_kernels() {
        let (spec, mut container) = trial();
        container.ro_mounts =
            vec![("/host/skills".into(), SKILLS_DIR.into()), ("/host/claude".into(), "/opt/skillscope/claude".into())];
        let s = clean(&spec, &container).script(Search::Everywhere, true);
        assert!(s.contains("/proc|/proc/*|/sys|/sys/*|/skills|'/opt/skillscope/claude') continue"), "{s}");
        assert!(s.contains("proc|sysfs|cgroup|") && s.contains("< /proc/self/mountinfo"));
        assert!(s.contains("find \"$t\" -xdev -path /skills -prune"));
    }

    fn ran(stdout: &str) -> ExecResult {
        ExecResult { exit_code: Some(0), stdout: stdout.into(), ..ExecResult::default() }
    }

    #[test]
    fn found_folders_are_marked_and_those_outside_the_workdir_can_be_cached() {
        let out = "own csv\nleft /root/.claude/skills/x\nfound /opt/v/s\nfound /work/a/.agents/skills/b\nfound /opt/v/s\nsearched /\ndone\n";
        let l = read(&ran(out), "/", TIMEOUT).unwrap();
        assert_eq!(l.visible, ["/opt/v/s", "/root/.claude/skills/x", "/work/a/.agents/skills/b", "csv"]);
        assert_eq!(outside(&l.found, "/work/a"), ["/opt/v/s"]);
        assert_eq!(entry_path("csv"), "/skills/csv");
        assert_eq!(parse_hashes("ab\t/skills/csv\n").get("/skills/csv").map(String::as_str), Some("ab"));
    }

    #[test]
    fn a_listing_that_did_not_run_to_its_end_is_no_result() {
        let timed_out = ExecResult { timed_out: true, exit_code: Some(137), ..ran("found /a\n") };
        assert_eq!(read(&timed_out, "/", TIMEOUT).unwrap_err(), "timed out after 300 s");
        assert!(read(&ExecResult { exit_code: Some(2), ..ran("done\n") }, "/", TIMEOUT)
            .unwrap_err()
            .starts_with("exited Some(2)"));
        assert_eq!(read(&ran("found /a\nsearched /\n"), "/", TIMEOUT).unwrap_err(), "ended before its last line");
        let unreadable = ran("error find: /data: Input/output error\nsearched /\ndone\n");
        assert_eq!(read(&unreadable, "/", TIMEOUT).unwrap_err(), "could not read: find: /data: Input/output error");
        let deep = format!("error find: /deep{}: File name too long\n", "/d".repeat(3000)).repeat(5);
        let cause = read(&ran(&format!("{deep}searched /\ndone\n")), "/", TIMEOUT).unwrap_err();
        assert!(cause.len() < 1000 && cause.ends_with("/d/d: File name too long (and 2 more)"), "{cause}");
        assert_eq!(read(&ran("done\n"), "/", TIMEOUT).unwrap_err(), "did not search /");
        assert!(read(&ran("garbage\nsearched /\ndone\n"), "/", TIMEOUT)
            .unwrap_err()
            .starts_with("printed an unexpected line"));
        assert!(read(&ran("searched /\ndone\nfound /x\n"), "/", TIMEOUT)
            .unwrap_err()
            .starts_with("printed after its last line"));
    }

    #[test]
    fn the_cache_key_covers_what_decides_the_search_but_not_the_arms_skills() {
        let (spec, container) = trial();
        let key = |spec: &TrialSpec, container: &ContainerSpec| clean(spec, container).key;
        let base = key(&spec, &container);
        let with_skills =
            ContainerSpec { ro_mounts: vec![("/host/skills".into(), SKILLS_DIR.into())], ..container.clone() };
        assert_eq!(key(&spec, &with_skills), base, "both arms of a pair share the key");
        let workdir = TrialSpec { workdir: "/app".into(), ..spec.clone() };
        let setup = TrialSpec { setup: vec!["true".into()], ..spec.clone() };
        let root = TrialSpec { run_as_root: true, ..spec.clone() };
        let env = ContainerSpec { env: vec!["CLAUDE_CONFIG_DIR=/opt/cfg".into()], ..container.clone() };
        let home = ContainerSpec { env: vec!["HOME=/home/agent".into()], ..container.clone() };
        let mount =
            ContainerSpec { ro_mounts: vec![("/h".into(), "/opt/skillscope/claude".into())], ..container.clone() };
        let ro = ContainerSpec { read_only_rootfs: true, ..container.clone() };
        let user = ContainerSpec { user: Some("65534".into()), ..container.clone() };
        let keys = [
            key(&workdir, &container),
            key(&setup, &container),
            key(&root, &container),
            key(&spec, &env),
            key(&spec, &home),
            key(&spec, &mount),
            key(&spec, &ro),
            key(&spec, &user),
        ];
        for (i, k) in keys.iter().enumerate() {
            assert_ne!(*k, base, "change {i} keeps the key");
            assert!(keys[i + 1..].iter().all(|other| other != k), "change {i} shares its key");
        }
    }
}
