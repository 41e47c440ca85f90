//! The clean-arms search fails closed, on the real engine: it reads what the trial's user can read
//! (a folder only uid 1000 may enter), walks every mount (an image `VOLUME`, the engine's tmpfs),
//! and a listing that times out or cannot read a path marks the pair "fairness unverified": an
//! infrastructure failure, retried, never scored, and nothing cached.

use crate::clean_arms::Bench;
use skillscope_api::experiments::{ArmView, ExperimentTask, PairView};
use skillscope_api::queue::model::TrialState;
use skillscope_api::queue::worker::WorkerOptions;

/// The paths of `expected` an arm of `p` did not list, and those the pair's exclusion does not name.
fn unseen(p: &PairView, expected: &[&str]) -> Vec<String> {
    let mut missed = Vec::new();
    for (name, arm) in [("without", &p.without), ("with", &p.with)] {
        let listed = arm.skills_listed.clone().unwrap_or_default();
        missed.extend(expected.iter().filter(|e| !listed.contains(&e.to_string())).map(|e| format!("{name} arm: {e}")));
    }
    let reasons = p.excluded.join("\n");
    missed.extend(expected.iter().filter(|e| !reasons.contains(*e)).map(|e| format!("exclusion: {e}")));
    missed
}

/// Both arms ended as infrastructure failures whose message starts "fairness unverified" and names
/// `cause`, after `attempts` attempts, and the pair is not scored.
fn assert_unverified(p: &PairView, cause: &str, attempts: u32) {
    for arm in [&p.without, &p.with] {
        let ArmView { state, error, reruns, .. } = arm;
        let error = error.clone().unwrap_or_default();
        assert_eq!(*state, TrialState::InfraError, "{error}");
        assert!(error.starts_with("fairness unverified: ") && error.contains(cause), "{error}");
        assert_eq!(reruns + 1, attempts, "retried as an infrastructure failure");
    }
    assert!(p.excluded.iter().any(|r| r.contains("infra_error")), "not scored: {:?}", p.excluded);
}

#[test]
fn a_skill_only_the_trials_user_can_read_is_found() {
    // Root without capabilities cannot enter a folder of uid 1000 with mode 0700; the agent, as
    // 1000, can. One skill lies where no harness looks by default; the other in the folder that
    // CLAUDE_CONFIG_DIR names, made read-only so that the wipe cannot remove it.
    let private = "/home/agent/private/.claude/skills/private-skill";
    let config = "/opt/cfg/.claude/skills/config-skill";
    let bench = Bench::new();
    let steps = format!(
        "RUN mkdir -p {private} {config} && touch {private}/SKILL.md {config}/SKILL.md \
         && chown -R 1000:1000 /home/agent /opt/cfg && chmod -R a-w /opt/cfg/.claude \
         && chmod 0700 /home/agent/private /opt/cfg\n"
    );
    let mut task = bench.task("private-skills", &steps);
    task.settings.env.insert("CLAUDE_CONFIG_DIR".into(), "/opt/cfg/.claude".into());
    let p = bench.pair(task, WorkerOptions::default());
    let missed = unseen(&p, &[private, config]);
    assert!(missed.is_empty(), "not seen: {missed:?}\npair: {p:?}");
}

#[test]
fn a_skill_in_a_volume_or_a_tmpfs_is_found() {
    // `find -xdev` from / stays on the container's own layer: an image VOLUME and the engine's
    // /dev/shm tmpfs (written by the task's set-up) are each a filesystem of their own.
    let volume = "/data/vendor/volume-skill";
    let tmpfs = "/dev/shm/tmpfs-skill";
    let bench = Bench::new();
    let steps = format!("RUN mkdir -p {volume} && touch {volume}/SKILL.md\nVOLUME /data\n");
    let mut task = bench.task("mounted-skills", &steps);
    task.settings.setup = vec![format!("mkdir -p {tmpfs} && touch {tmpfs}/SKILL.md")];
    let p = bench.pair(task, WorkerOptions::default());
    let missed = unseen(&p, &[volume, tmpfs]);
    assert!(missed.is_empty(), "not seen: {missed:?}\npair: {p:?}");
    assert_eq!(bench.cached(), [[volume, tmpfs]], "the search of every mount is what the cache keeps");
}

/// The copy task on `image`'s steps with `settings` changed by `change`, run once per trial with at
/// most `attempts` attempts and the listing's time limit at `listing_timeout`.
fn failing_pair(
    tag: &str,
    steps: &str,
    change: impl FnOnce(&mut ExperimentTask),
    attempts: u32,
    listing_timeout: Option<std::time::Duration>,
) -> (PairView, Vec<Vec<String>>) {
    let bench = Bench::new();
    bench.ws.edit_config(|c| {
        c.queue.max_attempts = Some(attempts);
        c.queue.backoff_ms = Some(10);
    });
    let mut task = bench.task(tag, steps);
    change(&mut task);
    let p = bench.pair(task, WorkerOptions { listing_timeout, ..Default::default() });
    (p, bench.cached())
}

#[test]
fn a_listing_that_times_out_leaves_the_pair_unverified_and_nothing_cached() {
    // A real walk of 20,000 files at a twentieth of a CPU takes about 4 s here; the listing may
    // take one.
    let steps = "RUN mkdir /many && cd /many && seq 1 20000 | xargs touch\n";
    let slow = |t: &mut ExperimentTask| t.settings.cpus = Some(0.05);
    let (p, cached) = failing_pair("many-files", steps, slow, 1, Some(std::time::Duration::from_secs(1)));
    assert_unverified(&p, "timed out after 1 s", 1);
    assert!(cached.is_empty(), "a search that timed out is not cached: {cached:?}");
}

#[test]
fn a_listing_that_cannot_read_a_path_leaves_the_pair_unverified_and_nothing_cached() {
    // The set-up hides a skill past PATH_MAX, where `find` cannot reach it by its full path (the
    // agent can, one `cd` at a time); the listing names the path it could not read.
    let d = "d".repeat(50);
    let deep = format!(
        "mkdir -p /tmp/deep && cd /tmp/deep && while mkdir {d} && cd {d} 2>/dev/null; do :; done; \
         mkdir deep-skill && touch deep-skill/SKILL.md"
    );
    let hide = |t: &mut ExperimentTask| t.settings.setup = vec![deep];
    let (p, cached) = failing_pair("deep-skill", "", hide, 2, None);
    assert_unverified(&p, &format!("could not read: find: /tmp/deep/{d}/"), 2);
    assert!(p.without.error.as_deref().unwrap_or_default().contains("File name too long"), "{p:?}");
    assert!(cached.is_empty(), "a search that could not read everything is not cached: {cached:?}");
}
