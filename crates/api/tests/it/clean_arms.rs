//! Clean arms on the real engine: an image in the SkillsBench form (skills copied into the
//! harnesses' own folders) and a task workspace carrying `.agents/skills` run clean, because every
//! skill root is emptied before the agent starts; with the wipe switched off, the listing still
//! sees every baked skill and the pair is excluded, naming the paths. A skill at a path on no list
//! is found by searching the container's filesystem, and its pair is excluded too, unless the
//! reviewer accepted that path as part of the task.

use crate::common::*;
use skillscope_api::experiments::{self, Condition, ExperimentDesign, ExperimentTask, PairView};
use skillscope_api::queue::worker::{self, WorkerOptions};
use skillscope_api::Workspace;
use skillscope_modelserver::ServerHandle;

/// Where the image bakes a skill: the roots Harbor's SkillsBench tasks copy into, one per harness,
/// Codex's admin folder, and folders Skillscope points a harness at (Claude Code's configuration,
/// the agent's home).
const BAKED: &[&str] = &[
    "/root/.claude/skills/baked",
    "/etc/claude-code/.claude/skills/baked",
    "/root/.agents/skills/baked",
    "/root/.codex/skills/baked",
    "/etc/codex/skills/baked",
    "/tmp/skillscope-claude/skills/baked",
    "/tmp/skillscope-home/.agents/skills/baked",
    "/skills/baked",
];

/// A skill at a path no harness is known to search: only the image search finds it.
const HIDDEN: &str = "/opt/vendor/hidden-skill";

/// Dockerfile steps that bake an empty `SKILL.md` into each of `dirs`.
fn baked(dirs: &[&str]) -> String {
    let mkdirs: Vec<String> = dirs.iter().map(|p| format!("mkdir -p {p} && touch {p}/SKILL.md")).collect();
    format!("RUN {}\n", mkdirs.join(" && "))
}

/// A workspace with the target skill and the scripted built-in agent that does the copy task, on
/// the real engine: each test builds its image, then runs pairs on it.
pub(crate) struct Bench {
    rt: tokio::runtime::Runtime,
    _server: ServerHandle,
    tmp: tempfile::TempDir,
    pub(crate) ws: Workspace,
    version: i64,
    config: i64,
}

impl Bench {
    pub(crate) fn new() -> Self {
        join_session_keyring();
        let rt = rt();
        rt.block_on(engine());
        let server = copying_model_server(&rt);
        let tmp = tempfile::tempdir().unwrap();
        let ws = Workspace::open(tmp.path().join("home")).unwrap();
        let config = scripted_builtin_agent(&ws, &server.base_url, "sk-clean-arms-0000000");
        let skill_md = "---\nname: target-skill\ndescription: Copies files. Use for copy tasks.\n---\n# Copy\n";
        let version = import_skill(&ws, &tmp.path().join("skills"), "target-skill", skill_md);
        Self { rt, _server: server, tmp, ws, version, config }
    }

    /// The copy task, its workspace carrying `.agents/skills/in-workspace`, on an image the queue
    /// builds from busybox and `steps` (Dockerfile lines) as `skillscope-test/{tag}:1`.
    pub(crate) fn task(&self, tag: &str, steps: &str) -> ExperimentTask {
        let context = self.tmp.path().join(format!("image-{tag}"));
        std::fs::create_dir_all(&context).unwrap();
        std::fs::write(context.join("Dockerfile"), format!("FROM {IMAGE}\n{steps}")).unwrap();
        let workspace = self.tmp.path().join(format!("task-{tag}"));
        std::fs::create_dir_all(workspace.join(".agents/skills/in-workspace")).unwrap();
        std::fs::write(workspace.join(".agents/skills/in-workspace/SKILL.md"), "---\nname: in-workspace\n---\n")
            .unwrap();
        ExperimentTask {
            image: format!("skillscope-test/{tag}:1"),
            dockerfile_context: Some(context.display().to_string()),
            ..copy_task("copy", &workspace)
        }
    }

    /// Runs one isolated pair of `task` to the end with `opts`.
    pub(crate) fn pair(&self, task: ExperimentTask, opts: WorkerOptions) -> PairView {
        let design = ExperimentDesign {
            name: "clean arms".into(),
            skill_version_ids: vec![self.version],
            decoy_version_ids: vec![],
            tasks: vec![task],
            task_set_id: None,
            agent_config_ids: vec![self.config],
            conditions: vec![Condition::Isolated],
            repeats: 1,
            only: Vec::new(),
            judge: None,
        };
        let id = experiments::create(&self.ws, &design).unwrap();
        let (sink, _) = recorder();
        self.rt.block_on(worker::run(self.ws.clone(), WorkerOptions { drain: true, ..opts }, sink)).unwrap();
        let mut pairs = experiments::pairs(&self.ws, id).unwrap();
        assert_eq!(pairs.len(), 1);
        pairs.remove(0)
    }

    /// What the workspace's cache of image searches holds: one row per image and key.
    pub(crate) fn cached(&self) -> Vec<Vec<String>> {
        let conn = self.ws.conn().unwrap();
        let mut st = conn.prepare("SELECT found_json FROM image_skill_searches").unwrap();
        let rows = st.query_map([], |r| r.get::<_, String>(0)).unwrap();
        rows.map(|json| serde_json::from_str(&json.unwrap()).unwrap()).collect()
    }
}

/// One pair of the copy task on an image baking a skill into each of `dirs`.
fn run_experiment(wipe: bool, dirs: &[&str], tag: &str, accepted: &[&str]) -> PairView {
    let bench = Bench::new();
    let task = ExperimentTask {
        accepted_skill_paths: accepted.iter().map(|p| p.to_string()).collect(),
        ..bench.task(tag, &baked(dirs))
    };
    bench.pair(task, WorkerOptions { skip_skill_wipe: !wipe, ..Default::default() })
}

#[test]
fn skills_baked_into_the_image_or_the_workspace_are_wiped_from_both_arms() {
    join_session_keyring();
    let p = &run_experiment(true, BAKED, "baked-skills", &[]);
    assert!(p.excluded.is_empty(), "the pair is fair once the roots are emptied: {:?}", p.excluded);
    assert_eq!(p.without.skills_listed.as_deref(), Some(&[][..]), "the without arm sees no skill");
    assert_eq!(
        p.with.skills_listed.as_deref(),
        Some(&["target-skill".to_string()][..]),
        "the with arm sees exactly its skill"
    );
    // What it saw is recorded by content: the same tree hash the library gives the version.
    let seen = p.with.skills_seen_sha256.clone().unwrap();
    let version = p.with.snapshot.as_ref().unwrap().skills[0].tree_sha256.clone();
    assert_eq!(seen.get("/skills/target-skill"), Some(&version), "{seen:?}");
}

#[test]
fn with_the_wipe_switched_off_the_listing_catches_every_baked_skill() {
    join_session_keyring();
    let p = &run_experiment(false, BAKED, "baked-skills", &[]);
    let reasons = p.excluded.join("\n");
    assert!(!p.excluded.is_empty(), "a contaminated pair is excluded");
    let seen = p.without.skills_listed.clone().unwrap_or_default();
    for path in BAKED.iter().filter(|p| !p.starts_with("/skills/")) {
        assert!(seen.contains(&path.to_string()), "{path} not listed: {seen:?}");
        assert!(reasons.contains(path), "the reason names {path}: {reasons}");
    }
    assert!(seen.contains(&"baked".to_string()), "the image's own /skills copy shows in the without arm: {seen:?}");
    assert!(seen.iter().any(|s| s.ends_with("/.agents/skills/in-workspace")), "the workspace's skill: {seen:?}");
}

#[test]
fn a_skill_at_a_path_on_no_list_is_found_by_the_image_search_and_excludes_the_pair() {
    let bench = Bench::new();
    let p = bench.pair(bench.task("hidden-skill", &baked(&[HIDDEN])), WorkerOptions::default());
    assert_eq!(bench.cached(), [[HIDDEN]], "what the search found outside the workdir is kept for later trials");
    for arm in [&p.without, &p.with] {
        assert!(arm.skills_listed.clone().unwrap_or_default().contains(&HIDDEN.to_string()), "{arm:?}");
    }
    assert!(p.excluded.iter().any(|r| r.contains(HIDDEN)), "the reason names the path: {:?}", p.excluded);
}

#[test]
fn a_skill_path_the_reviewer_accepted_as_part_of_the_task_is_listed_but_excludes_nothing() {
    let p = run_experiment(true, &[HIDDEN], "hidden-skill", &[HIDDEN]);
    assert!(p.excluded.is_empty(), "an accepted path is part of the task: {:?}", p.excluded);
    for arm in [&p.without, &p.with] {
        assert!(arm.skills_listed.clone().unwrap_or_default().contains(&HIDDEN.to_string()), "still listed: {arm:?}");
    }
}

#[test]
fn later_trials_on_an_image_take_the_search_outside_the_workdir_from_the_cache() {
    // Once a pair has searched the image, the cache says only another path is there: the next
    // pair's trials search only their workdir and take the rest from the cache, so the path only
    // the cache knows shows in both arms and the hidden skill (outside the workdir) is not found again.
    let bench = Bench::new();
    let task = bench.task("hidden-skill", &baked(&[HIDDEN]));
    bench.pair(task.clone(), WorkerOptions::default());
    let only_cached = "/opt/known-from-the-cache";
    let cache = "UPDATE image_skill_searches SET found_json = ?1";
    let changed = bench.ws.conn().unwrap().execute(cache, [format!("[\"{only_cached}\"]")]).unwrap();
    assert_eq!(changed, 1, "both arms searched with one key");
    let p = bench.pair(task, WorkerOptions::default());
    for arm in [&p.without, &p.with] {
        let listed = arm.skills_listed.clone().unwrap_or_default();
        assert!(listed.contains(&only_cached.to_string()), "the cached result is used: {listed:?}");
        assert!(!listed.contains(&HIDDEN.to_string()), "the image is not searched again: {listed:?}");
    }
    assert!(p.excluded.iter().any(|r| r.contains(only_cached)), "{:?}", p.excluded);
}
