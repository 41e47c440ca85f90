//! ACES's measures on the committed demo (real trajectories of the built-in agent against the
//! scripted model): the skill read only in the with arm shows as Skill Lift in skill execution and
//! efficiency, tested with the same paired statistics as pass ratios; pass@k per arm.

use skillscope_api::experiments::measures::{experiment_measures, JUDGED_METHOD};
use skillscope_api::{demo, import, Workspace};

#[test]
fn the_demo_measured_lifts_skill_execution_and_says_how_judged_measures_are_made() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path()).unwrap();
    import::seed_samples_once(&ws).unwrap();
    let id = demo::seed_once(&ws).unwrap().unwrap();
    let m = experiment_measures(&ws, id).unwrap();
    assert!(m.method.starts_with("ACES runtime metrics") && m.judged_method == JUDGED_METHOD);
    assert!(m.not_measured.is_empty(), "{:?}", m.not_measured);
    assert_eq!(m.pairs.len(), 36);
    let row = |measure: &str, skill: &str| {
        let r = &m.metrics.iter().find(|r| r.measure == measure).unwrap().report;
        r.groups.iter().find(|s| s.skill == skill).unwrap().clone()
    };
    // Without the skill nothing can be read: activation 0 and order 0 of four checks (0.5); with
    // it, every check holds (1.0): a lift of 50 points on each of 6 tasks, exact sign-flip p 1/32.
    let exec = row("skill_execution", "csv-insights");
    assert_eq!((exec.mean_without, exec.mean_with, exec.delta, exec.n), (50.0, 100.0, 50.0, 6));
    assert_eq!(exec.p_signflip, 2.0 / 64.0);
    let composite = row("composite", "csv-insights");
    assert!((composite.delta - 100.0 / 3.0).abs() < 1e-9, "{}", composite.delta);
    assert_eq!(row("security", "csv-insights").delta, 0.0, "nothing unsafe in either arm");
    // Each pair's evidence says why.
    let first = &m.pairs[0];
    assert!(first.without.skill_execution.evidence.iter().any(|e| e.contains("never read")), "{first:?}");
    assert!(first.with.skill_execution.evidence.iter().any(|e| e.starts_with("activation 1.00")), "{first:?}");
    // pass@k over the 2 repeats: commit-messages fails every task with the skill, as its pass
    // ratios do (the demo's harmful skill).
    let harmful = m.pass_at_k.iter().find(|p| p.skill == "commit-messages").unwrap();
    assert_eq!((harmful.k_min, harmful.k_max, harmful.tasks), (2, 2, 6));
    assert_eq!((harmful.without, harmful.with, harmful.lift), (1.0, 0.0, -1.0));
}
