//! `skillscope demo generate` really runs the pipeline (Docker, built-in agent, scripted model
//! server) and reproduces the committed demo bundle; `skillscope experiment export|import` move an
//! experiment between workspaces and refuse what is not a bundle.

use crate::common;

use common::{join_session_keyring, ok, run, text};
use skillscope_api::bundle::{self, Bundle};
use skillscope_api::{experiments, import, Workspace};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn committed() -> PathBuf {
    root().join("fixtures/demo/experiment.json.gz")
}

/// Per trial label: what ran and what came of it, without times, digests or ids.
fn outcomes(b: &Bundle) -> BTreeMap<String, serde_json::Value> {
    b.trials
        .iter()
        .map(|t| {
            let calls: Vec<_> = t
                .trajectories
                .iter()
                .flat_map(|tr| &tr.atif.steps)
                .flat_map(|s| s.tool_calls.iter().flatten())
                .map(|c| (c.function_name.clone(), c.arguments.clone()))
                .collect();
            let scores: Vec<_> = t.results.iter().map(|r| (r.score, r.skills_listed.clone())).collect();
            (t.label.clone(), serde_json::json!({"state": t.state, "scores": scores, "calls": calls}))
        })
        .collect()
}

/// Per skill: class, delta, n, means and p, as the Results page shows them.
fn classes(dir: &Path, bytes: &[u8]) -> Vec<serde_json::Value> {
    let ws = Workspace::open(dir).unwrap();
    import::seed_samples_once(&ws).unwrap();
    let id = bundle::import(&ws, bytes).unwrap();
    let r = experiments::results(&ws, id).unwrap();
    assert_eq!(r.pairs_excluded, 0);
    r.report
        .skills
        .iter()
        .map(|s| serde_json::json!([s.skill, s.class, s.n, s.mean_without, s.mean_with, s.delta, s.p_signflip]))
        .collect()
}

#[test]
fn demo_generate_reproduces_the_committed_bundle() {
    join_session_keyring();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("demo.json.gz");
    let inputs = root().join("fixtures/demo");
    ok(run(
        &tmp.path().join("unused"),
        &["demo", "generate", "--out", out.to_str().unwrap(), "--inputs", inputs.to_str().unwrap()],
        "",
    ));
    assert!(!tmp.path().join("unused").exists(), "demo generate leaves the --home workspace alone");

    let fresh_bytes = std::fs::read(&out).unwrap();
    let committed_bytes = std::fs::read(committed()).unwrap();
    let (fresh, old) = (bundle::parse(&fresh_bytes).unwrap(), bundle::parse(&committed_bytes).unwrap());
    assert!(fresh.provenance.is_demo() && fresh.provenance.sentence.contains("skillscope demo generate"));
    let skills = |b: &Bundle| b.skills.iter().map(|s| (s.name.clone(), s.sha256.clone())).collect::<Vec<_>>();
    assert_eq!(skills(&fresh), skills(&old));
    assert_eq!(fresh.trials.len(), old.trials.len());
    assert_eq!(
        outcomes(&fresh),
        outcomes(&old),
        "the scripted server is deterministic: regenerate the committed bundle if the pipeline changed"
    );
    let fresh_classes = classes(&tmp.path().join("fresh"), &fresh_bytes);
    assert_eq!(fresh_classes, classes(&tmp.path().join("committed"), &committed_bytes));
    let names: Vec<_> =
        fresh_classes.iter().map(|c| format!("{}={}", c[0].as_str().unwrap(), c[1].as_str().unwrap())).collect();
    for want in ["csv-insights=golden", "commit-messages=harmful", "pytest-triage=ineffective"] {
        assert!(names.iter().any(|n| n == want), "{names:?}");
    }
}

#[test]
fn experiment_export_and_import_between_workspaces() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    ok(run(&a, &["samples"], ""));
    let id = run(&a, &["experiment", "import", committed().to_str().unwrap()], "");
    assert!(id.status.success(), "{}", text(&id));
    let id = String::from_utf8_lossy(&id.stdout).trim().to_string();
    let file = tmp.path().join("exported.json");
    ok(run(&a, &["experiment", "export", &id, "--out", file.to_str().unwrap()], ""));
    let exported = std::fs::read_to_string(&file).unwrap();
    assert!(!exported.contains(a.to_str().unwrap()), "no local path in the bundle");

    // Without the skills the bundle names, the import is refused.
    let refused = run(&b, &["experiment", "import", file.to_str().unwrap()], "");
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused).contains("not_found") && text(&refused).contains("import that skill version first"),
        "{}",
        text(&refused)
    );
    ok(run(&b, &["samples"], ""));
    let imported = run(&b, &["experiment", "import", file.to_str().unwrap()], "");
    assert!(imported.status.success(), "{}", text(&imported));
    let report = ok(run(&b, &["report", "csv-insights", "--format", "json"], ""));
    assert_eq!(report["utility"][0]["summary"]["class"], "golden", "{report}");
    assert_eq!(report["utility"][0]["provenance"]["kind"], "demo", "re-exported demo evidence stays demo evidence");
    let md = run(&b, &["report", "csv-insights", "--format", "md"], "");
    assert!(String::from_utf8_lossy(&md.stdout).contains("Demo evidence"));

    let junk = tmp.path().join("junk.json");
    std::fs::write(&junk, "{\"bundle_version\": 99}").unwrap();
    let refused = run(&b, &["experiment", "import", junk.to_str().unwrap()], "");
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused).contains("bundle_version 99 is not supported"), "{}", text(&refused));
}
