//! Clean arms on the real engine: an image in the SkillsBench form (skills copied into the
//! harnesses' own folders) and a task workspace carrying `.agents/skills` run clean, because every
//! skill root is emptied before the agent starts; with the wipe switched off, the listing still
//! sees every baked skill and the pair is excluded, naming the paths. A skill at a path on no list
//! is found by searching the container's filesystem, and its pair is excluded too, unless the
//! reviewer accepted that path as part of the task.

use crate::common::*;
use skillscope_api::experiments::{self, Condition, ExperimentDesign, ExperimentTask, PairView};
use skillscope_api::import::import;
use skillscope_api::model::ImportRequest;
use skillscope_api::queue::store;
use skillscope_api::queue::worker::{self, WorkerOptions};
use skillscope_api::Workspace;
use std::path::Path;

/// Where the image bakes a skill: the roots Harbor's SkillsBench tasks copy into, one per harness.
const BAKED: &[&str] = &[
    "/root/.claude/skills/baked",
    "/etc/claude-code/.claude/skills/baked",
    "/root/.agents/skills/baked",
    "/root/.codex/skills/baked",
    "/skills/baked",
];

/// A skill at a path no harness is known to search: only the image search finds it.
const HIDDEN: &str = "/opt/vendor/hidden-skill";

fn image_context(root: &Path, baked: &[&str]) -> String {
    let dir = root.join("image");
    std::fs::create_dir_all(&dir).unwrap();
    let mkdirs: Vec<String> = baked.iter().map(|p| format!("mkdir -p {p} && touch {p}/SKILL.md")).collect();
    std::fs::write(dir.join("Dockerfile"), format!("FROM {IMAGE}\nRUN {}\n", mkdirs.join(" && "))).unwrap();
    dir.display().to_string()
}

fn run_experiment(wipe: bool, baked: &[&str], tag: &str, accepted: &[&str]) -> Vec<PairView> {
    run_with(wipe, baked, tag, accepted, &|_, _| {}).0
}

/// As [`run_experiment`], calling `before` with the workspace and the built image's id first;
/// also returns what the workspace's cache holds for the image after the run.
fn run_with(
    wipe: bool,
    baked: &[&str],
    tag: &str,
    accepted: &[&str],
    before: &dyn Fn(&Workspace, &str),
) -> (Vec<PairView>, Vec<String>) {
    let rt = rt();
    let engine = rt.block_on(engine());
    let server = copying_model_server(&rt);
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let config = scripted_builtin_agent(&ws, &server.base_url, "sk-clean-arms-0000000");

    let skill = tmp.path().join("skills/target-skill");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: target-skill\ndescription: Copies files. Use for copy tasks.\n---\n# Copy\n",
    )
    .unwrap();
    let request = ImportRequest { source: skill.display().to_string(), ..Default::default() };
    let version = import(&ws, &request, &mut |_| Ok(())).unwrap().skills[0].version_id;

    let workspace = tmp.path().join("task");
    std::fs::create_dir_all(workspace.join(".agents/skills/in-workspace")).unwrap();
    std::fs::write(workspace.join(".agents/skills/in-workspace/SKILL.md"), "---\nname: in-workspace\n---\n").unwrap();
    std::fs::write(workspace.join("task.txt"), "1\n").unwrap();
    let task = ExperimentTask {
        id: "copy".into(),
        instruction: "Copy the content of task.txt into answer.txt.".into(),
        image: format!("skillscope-test/{tag}:1"),
        workspace: Some(workspace.display().to_string()),
        verifier: vec!["sh".into(), "-c".into(), "cmp -s task.txt answer.txt".into()],
        scoring: None,
        dockerfile_context: Some(image_context(tmp.path(), baked)),
        verifier_in_place: false,
        accepted_skill_paths: accepted.iter().map(|p| p.to_string()).collect(),
        settings: Default::default(),
    };
    let design = ExperimentDesign {
        name: "baked".into(),
        skill_version_ids: vec![version],
        decoy_version_ids: vec![],
        tasks: vec![task],
        task_set_id: None,
        agent_config_ids: vec![config],
        conditions: vec![Condition::Isolated],
        repeats: 1,
        only: Vec::new(),
        judge: None,
    };
    let context = design.tasks[0].dockerfile_context.clone().unwrap();
    let image = rt.block_on(engine.build_image(Path::new(&context), &design.tasks[0].image)).unwrap().id;
    before(&ws, &image);
    let id = experiments::create(&ws, &design).unwrap();
    let (sink, _) = recorder();
    let opts = WorkerOptions { drain: true, skip_skill_wipe: !wipe, ..Default::default() };
    rt.block_on(worker::run(ws.clone(), opts, sink)).unwrap();
    let setup = skillscope_store::blobs::sha256_hex(b"");
    let cached = store::image_search(&ws.conn().unwrap(), &image, &setup).unwrap().unwrap_or_default();
    (experiments::pairs(&ws, id).unwrap(), cached)
}

#[test]
fn skills_baked_into_the_image_or_the_workspace_are_wiped_from_both_arms() {
    join_session_keyring();
    let pairs = run_experiment(true, BAKED, "baked-skills", &[]);
    assert_eq!(pairs.len(), 1);
    let p = &pairs[0];
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
    let pairs = run_experiment(false, BAKED, "baked-skills", &[]);
    let p = &pairs[0];
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
    join_session_keyring();
    let (pairs, cached) = run_with(true, &[HIDDEN], "hidden-skill", &[], &|_, _| {});
    assert_eq!(cached, [HIDDEN], "what the search found outside the workdir is kept for later trials");
    let p = &pairs[0];
    for arm in [&p.without, &p.with] {
        assert!(arm.skills_listed.clone().unwrap_or_default().contains(&HIDDEN.to_string()), "{arm:?}");
    }
    assert!(p.excluded.iter().any(|r| r.contains(HIDDEN)), "the reason names the path: {:?}", p.excluded);
}

#[test]
fn a_skill_path_the_reviewer_accepted_as_part_of_the_task_is_listed_but_excludes_nothing() {
    join_session_keyring();
    let pairs = run_experiment(true, &[HIDDEN], "hidden-skill", &[HIDDEN]);
    let p = &pairs[0];
    assert!(p.excluded.is_empty(), "an accepted path is part of the task: {:?}", p.excluded);
    for arm in [&p.without, &p.with] {
        assert!(arm.skills_listed.clone().unwrap_or_default().contains(&HIDDEN.to_string()), "still listed: {arm:?}");
    }
}

#[test]
fn later_trials_on_an_image_take_the_search_outside_the_workdir_from_the_cache() {
    join_session_keyring();
    // The workspace's cache already holds a search of this image: the trials search only their
    // workdir and take the rest from the cache, so a path only the cache knows shows in both arms
    // and the hidden skill (outside the workdir) is not found again.
    let only_cached = "/opt/known-from-the-cache";
    let (pairs, _) = run_with(true, &[HIDDEN], "hidden-skill", &[], &|ws, image| {
        let setup = skillscope_store::blobs::sha256_hex(b"");
        store::save_image_search(&ws.conn().unwrap(), image, &setup, &[only_cached.to_string()]).unwrap();
    });
    let p = &pairs[0];
    for arm in [&p.without, &p.with] {
        let listed = arm.skills_listed.clone().unwrap_or_default();
        assert!(listed.contains(&only_cached.to_string()), "the cached result is used: {listed:?}");
        assert!(!listed.contains(&HIDDEN.to_string()), "the image is not searched again: {listed:?}");
    }
    assert!(p.excluded.iter().any(|r| r.contains(only_cached)), "{:?}", p.excluded);
}
