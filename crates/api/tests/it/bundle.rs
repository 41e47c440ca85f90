//! Experiment bundles without Docker: the committed demo bundle imports into a workspace that has
//! the samples, shows every class and readable pair evidence, and never reaches the queue; an
//! export imports elsewhere with the same results under new ids and without keys or local paths;
//! bad bundles are refused with a specific message and leave the workspace as it was.

use crate::common::join_session_keyring;
use serde_json::Value;
use skillscope_api::experiments::{self, PairView};
use skillscope_api::queue::store;
use skillscope_api::{bundle, experiments::ProvenanceKind};
use skillscope_api::{credentials, demo, import, trajectories, AppError, ErrorCode, Workspace};
use std::path::Path;

const CANARY: &str = "sk-canary-bundle-5e1d8c3a9f7b2046";

fn seeded(dir: &Path) -> Workspace {
    let ws = Workspace::open(dir).unwrap();
    import::seed_samples_once(&ws).unwrap();
    ws
}

fn class_of(ws: &Workspace, experiment: i64, skill: &str) -> String {
    let r = experiments::results(ws, experiment).unwrap();
    let s = r.report.skills.iter().find(|s| s.skill == skill).unwrap_or_else(|| panic!("no results for {skill}"));
    serde_json::to_value(s.class).unwrap().as_str().unwrap().to_string()
}

/// What the views show of a pair, without ids.
fn pair_key(p: &PairView) -> Value {
    serde_json::json!([
        p.skill,
        p.task,
        p.config,
        p.repeat,
        p.without.score,
        p.with.score,
        p.without.state,
        p.with.state,
        p.excluded
    ])
}

fn steps(ws: &Workspace, trial: i64) -> usize {
    let t = trajectories::for_trial(ws, trial).unwrap();
    assert_eq!(t.len(), 1, "one trajectory for trial {trial}");
    trajectories::get(ws, t[0].id).unwrap().steps.len()
}

fn count(ws: &Workspace, table: &str) -> i64 {
    ws.conn().unwrap().query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0)).unwrap()
}

#[test]
fn the_committed_demo_shows_every_class_and_never_runs_again() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = seeded(tmp.path());
    let id = demo::seed_once(&ws).unwrap().expect("a new workspace takes the demo");
    assert_eq!(demo::seed_once(&ws).unwrap(), None, "once only");

    let view = experiments::list(&ws).unwrap().into_iter().find(|e| e.id == id).unwrap();
    let p = view.provenance.expect("the demo says where it came from");
    assert_eq!(p.kind, ProvenanceKind::Demo);
    assert!(p.sentence.starts_with("Demo data:") && p.sentence.contains("scripted model server"), "{}", p.sentence);
    assert!(p.imported_at.is_some());
    assert_eq!((view.pairs, view.pairs_finished), (36, 36), "progress counted in the database");

    assert_eq!(class_of(&ws, id, "csv-insights"), "golden");
    assert_eq!(class_of(&ws, id, "commit-messages"), "harmful");
    assert_eq!(class_of(&ws, id, "pytest-triage"), "ineffective");
    // The heatmap's categories, as the samples' SKILL.md declare them.
    let categories = experiments::results(&ws, id).unwrap().categories;
    let expected = [("commit-messages", "version-control"), ("csv-insights", "data"), ("pytest-triage", "testing")];
    assert_eq!(categories, expected.map(|(s, c)| (s.to_string(), c.to_string())).into());
    let pairs = experiments::pairs(&ws, id).unwrap();
    assert!(pairs.len() >= 12 && pairs.iter().all(|p| p.excluded.is_empty()), "{} pairs", pairs.len());
    for p in &pairs {
        assert!(steps(&ws, p.without.trial_id) > 0 && steps(&ws, p.with.trial_id) > 0);
    }
    // The pair view's markers: where the arms part ways, and the with arm reading SKILL.md.
    let golden = pairs.iter().find(|p| p.skill == "csv-insights").unwrap();
    let ids = |t: i64| trajectories::for_trial(&ws, t).unwrap().first().map(|s| s.id);
    let a = trajectories::align(&ws, ids(golden.without.trial_id), ids(golden.with.trial_id)).unwrap();
    assert!(a.first_divergence.is_some(), "{a:?}");
    assert!(a.skill_read.is_some(), "the with arm reads /skills/csv-insights/SKILL.md: {a:?}");

    // Every trial is finished: the queue has nothing to claim.
    assert!(store::claim(&ws.conn().unwrap(), 100).unwrap().is_empty());
}

#[test]
fn export_then_import_elsewhere_gives_the_same_results_under_new_ids_without_secrets() {
    join_session_keyring();
    let tmp = tempfile::tempdir().unwrap();
    let a = seeded(&tmp.path().join("a"));
    let ea = bundle::import(&a, demo::BUNDLE).unwrap();
    // A home-grown experiment (no provenance), with the provider's key and a local path in its output.
    a.conn().unwrap().execute("UPDATE experiments SET provenance_json = NULL WHERE id = ?1", [ea]).unwrap();
    credentials::set("scripted-demo", CANARY).unwrap();
    let leak = format!("key {CANARY} in {}", a.home().display());
    a.conn()
        .unwrap()
        .execute("UPDATE trial_results SET stdout = ?1 WHERE trial_id = (SELECT MIN(id) FROM trials)", [&leak])
        .unwrap();
    let json = bundle::export(&a, ea, None).unwrap();
    credentials::delete("scripted-demo").unwrap();
    assert!(!json.contains(CANARY), "the key leaked into the bundle");
    assert!(!json.contains(&a.home().display().to_string()), "the workspace path leaked into the bundle");
    assert!(json.contains("[REDACTED]") && json.contains("<workspace>"));

    // The other workspace already holds an experiment, so every id must move.
    let b = seeded(&tmp.path().join("b"));
    bundle::import(&b, demo::BUNDLE).unwrap();
    let eb = bundle::import(&b, json.as_bytes()).unwrap();
    assert_ne!(ea, eb);
    assert_eq!(
        serde_json::to_value(experiments::results(&a, ea).unwrap().report).unwrap(),
        serde_json::to_value(experiments::results(&b, eb).unwrap().report).unwrap()
    );
    let (pa, pb) = (experiments::pairs(&a, ea).unwrap(), experiments::pairs(&b, eb).unwrap());
    assert_eq!(pa.iter().map(pair_key).collect::<Vec<_>>(), pb.iter().map(pair_key).collect::<Vec<_>>());
    for (x, y) in pa.iter().zip(&pb) {
        assert_ne!(x.with.trial_id, y.with.trial_id, "trial ids are remapped");
        assert_eq!(steps(&a, x.with.trial_id), steps(&b, y.with.trial_id));
        assert_eq!(steps(&a, x.without.trial_id), steps(&b, y.without.trial_id));
    }
    let view = experiments::list(&b).unwrap().into_iter().find(|e| e.id == eb).unwrap();
    let p = view.provenance.unwrap();
    assert_eq!(p.kind, ProvenanceKind::Import);
    assert!(p.sentence.contains(&view.name), "{}", p.sentence);
    // The same provider and configuration are reused, not duplicated.
    assert_eq!((count(&b, "providers"), count(&b, "agent_configs")), (1, 1));
}

#[test]
fn bad_bundles_are_refused_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let a = seeded(&tmp.path().join("a"));
    let id = bundle::import(&a, demo::BUNDLE).unwrap();
    let good: Value = serde_json::from_str(&bundle::export(&a, id, None).unwrap()).unwrap();

    let b = seeded(&tmp.path().join("b"));
    let tables = [
        "experiments",
        "experiment_pairs",
        "runs",
        "trials",
        "trial_results",
        "trajectories",
        "providers",
        "agent_configs",
    ];
    let before: Vec<i64> = tables.iter().map(|t| count(&b, t)).collect();
    let refused = |bytes: &[u8], code: ErrorCode, needle: &str| {
        let e = AppError::from(bundle::import(&b, bytes).unwrap_err());
        assert_eq!(e.code, code, "{e}");
        assert!(e.message.contains(needle), "{e}");
        assert_eq!(tables.iter().map(|t| count(&b, t)).collect::<Vec<_>>(), before, "nothing written after: {e}");
    };
    refused(b"{\"bundle_version\": 1, \"trials\": [", ErrorCode::InvalidInput, "malformed JSON");
    let mut v = good.clone();
    v["bundle_version"] = 2.into();
    refused(v.to_string().as_bytes(), ErrorCode::InvalidInput, "bundle_version 2 is not supported");
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("bundle_version");
    refused(v.to_string().as_bytes(), ErrorCode::InvalidInput, "no bundle_version");
    let mut v = good.clone();
    v["pairs"] = "none".into();
    refused(v.to_string().as_bytes(), ErrorCode::InvalidInput, "malformed bundle");
    let mut v = good.clone();
    v["trials"][0]["state"] = "queued".into();
    refused(v.to_string().as_bytes(), ErrorCode::InvalidInput, "only finished experiments");
    // Found wrong only after runs, trials and trajectories were written: all of it rolls back.
    let mut v = good.clone();
    let last = v["pairs"].as_array().unwrap().len() - 1;
    v["pairs"][last]["skill_version_id"] = 9999.into();
    refused(v.to_string().as_bytes(), ErrorCode::InvalidInput, "skill version 9999");

    // A workspace without the samples lacks the demo's skills.
    let bare = Workspace::open(tmp.path().join("bare")).unwrap();
    let e = AppError::from(bundle::import(&bare, demo::BUNDLE).unwrap_err());
    assert_eq!(e.code, ErrorCode::NotFound);
    assert!(e.message.contains("import that skill version first"), "{e}");
    assert_eq!(count(&bare, "runs"), 0);
}

#[test]
fn a_library_without_the_samples_declines_the_demo_once() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path()).unwrap();
    let err = AppError::from(demo::seed_once(&ws).unwrap_err());
    assert_eq!(err.code, ErrorCode::NotFound);
    assert!(err.message.contains("not tried again"), "{}", err.message);
    assert_eq!(count(&ws, "experiments"), 0, "nothing half-imported");
    assert_eq!(demo::seed_once(&ws).unwrap(), None, "later starts stay quiet");
}

#[test]
fn the_app_exports_an_experiment_as_csv_and_as_a_bundle_into_the_exports_folder() {
    use skillscope_api::experiments::csv_export::{self, CsvTable};
    use skillscope_api::jobs::{self, JobEvent, JobOutcome, JobRequest};
    let tmp = tempfile::tempdir().unwrap();
    let ws = seeded(tmp.path());
    let id = demo::seed_once(&ws).unwrap().unwrap();
    let pairs = experiments::pairs(&ws, id).unwrap();

    let read = |table| {
        let path = csv_export::export(&ws, id, table).unwrap();
        assert!(Path::new(&path).starts_with(ws.exports_dir()), "{path}");
        let mut r = csv::Reader::from_path(&path).unwrap();
        let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
        let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        (header, rows)
    };
    let (header, rows) = read(CsvTable::Pairs);
    assert_eq!(rows.len(), pairs.len());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no {name} in {header:?}"));
    for (row, p) in rows.iter().zip(&pairs) {
        assert_eq!(row[col("pair_id")], p.id.to_string());
        assert_eq!(row[col("task")], p.task);
        let scored = p.excluded.is_empty();
        assert_eq!(row[col("scored")], scored.to_string());
        match (scored, p.without.score, p.with.score) {
            (true, Some(without), Some(with)) => {
                assert_eq!(row[col("delta")].parse::<f64>().unwrap(), with - without);
            }
            _ => assert_eq!(&row[col("delta")], "", "an unscored pair has no delta"),
        }
    }
    let (header, rows) = read(CsvTable::Trials);
    assert_eq!(rows.len(), 2 * pairs.len());
    let arm = header.iter().position(|h| h == "arm").unwrap();
    assert_eq!((&rows[0][arm], &rows[1][arm]), ("without", "with"));

    let request = JobRequest::BundleExport { experiment_id: id, path: None };
    let JobOutcome::BundleExport { path } = jobs::run_here(&ws, &request, &|_: &JobEvent| {}).unwrap() else {
        panic!("a bundle export ends with its path")
    };
    assert!(Path::new(&path).starts_with(ws.exports_dir()) && path.ends_with(".json.gz"), "{path}");
    bundle::parse(&std::fs::read(&path).unwrap()).expect("the exported bundle parses");
}
