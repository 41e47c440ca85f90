//! Static review of stored versions: persisted once, thresholds applied on read, exports written.

use skillscope_api::import::import;
use skillscope_api::model::ImportRequest;
use skillscope_api::scans::{self, ExportFormat};
use skillscope_api::{library, Workspace};
use std::path::Path;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/scan").join(name).display().to_string()
}

fn import_one(ws: &Workspace, name: &str) -> i64 {
    let o = import(ws, &ImportRequest { source: fixture(name), ..Default::default() }, &mut |_| Ok(())).unwrap();
    o.skills[0].version_id
}

#[test]
fn scans_are_stored_summarised_and_exported() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let risky = import_one(&ws, "b2-env-exfil-chain");
    let benign = import_one(&ws, "benign-installer");
    assert!(library::list_skills(&ws).unwrap().iter().all(|s| s.scan.is_none()), "not scanned before scan_pending");

    let mut seen = Vec::new();
    assert_eq!(
        scans::scan_pending(&ws, &mut |d, t| {
            seen.push((d, t));
            Ok(())
        })
        .unwrap(),
        2
    );
    assert_eq!(seen, [(1, 2), (2, 2)]);
    assert_eq!(scans::scan_pending(&ws, &mut |_, _| Ok(())).unwrap(), 0, "current results are not redone");

    let list = library::list_skills(&ws).unwrap();
    let r = list.iter().find(|s| s.version_id == risky).unwrap().scan.clone().unwrap();
    assert!(r.risky && r.security < 80, "{r:?}");
    let b = list.iter().find(|s| s.version_id == benign).unwrap().scan.clone().unwrap();
    assert!(!b.risky, "{b:?}");

    let report = scans::report(&ws, risky).unwrap();
    assert!(report.security.findings.iter().any(|f| f.category == "credential_access"));

    let path = scans::export_versions(&ws, &[risky, benign], ExportFormat::Sarif).unwrap();
    assert!(path.starts_with(&ws.home().join("exports").display().to_string()));
    let sarif: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(!sarif["runs"][0]["results"].as_array().unwrap().is_empty());
    let md = std::fs::read_to_string(scans::export_versions(&ws, &[risky], ExportFormat::Md).unwrap()).unwrap();
    assert!(md.contains("b2-env-exfil-chain"));
    assert!(scans::export_versions(&ws, &[], ExportFormat::Json).is_err());
}

#[test]
fn thresholds_come_from_the_workspace_config_at_read_time() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let ws = Workspace::open(&home).unwrap();
    let v = import_one(&ws, "benign-installer");
    let before = scans::report(&ws, v).unwrap();
    assert!(!before.security.risky);

    std::fs::write(home.join("config.toml"), "[scan]\nrisky_below = 101\nquality_gate = 100\n").unwrap();
    let ws = Workspace::open(&home).unwrap();
    let after = scans::report(&ws, v).unwrap();
    assert!(after.security.risky, "every score is below 101");
    assert!(!after.quality.passed_gate || after.quality.overall >= 100.0);
    assert_eq!(after.security.score, before.security.score, "same stored result");
    assert!(library::list_skills(&ws).unwrap()[0].scan.as_ref().unwrap().risky);
}
