//! Decisions: required rationale and reviewer, append-only at the database level, and a new
//! skill version is not covered by older decisions. Verdicts are per version: a decision rests only
//! on evidence on its own version (hashed when recorded), and the report on a new version says it
//! has not been evaluated rather than pooling an older version's experiments.

use skillscope_api::decisions::{self, EvidenceLink, NewDecision, Verdict};
use skillscope_api::experiments::{self, Condition, ExperimentDesign};
use skillscope_api::import::import;
use skillscope_api::model::ImportRequest;
use skillscope_api::report::{self, ReportFormat};
use skillscope_api::{agents, basis};
use skillscope_api::{AppError, ErrorCode, Workspace};

#[test]
fn decisions_are_append_only_and_tied_to_a_version() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let dir = tmp.path().join("tool");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), "---\nname: tool\ndescription: Does things. Use when needed.\n---\n# v1\n")
        .unwrap();
    let req = ImportRequest { source: dir.display().to_string(), ..Default::default() };
    let v1 = import(&ws, &req, &mut |_| Ok(())).unwrap().skills[0].clone();
    let new = |rationale: &str, reviewer: &str| NewDecision {
        version_id: v1.version_id,
        verdict: Verdict::Approve,
        rationale: rationale.into(),
        reviewer: reviewer.into(),
        evidence: vec![EvidenceLink { kind: "scan".into(), id: v1.version_id, label: "static scan".into() }],
    };
    assert_eq!(AppError::from(decisions::record(&ws, &new("  ", "Ana")).unwrap_err()).code, ErrorCode::InvalidInput);
    assert_eq!(
        AppError::from(decisions::record(&ws, &new("Helps on every task", "")).unwrap_err()).code,
        ErrorCode::InvalidInput
    );
    let d = decisions::record(&ws, &new("Golden on 10 tasks, no risky findings", "Ana")).unwrap();
    assert!(d.covers_latest);
    assert_eq!(d.evidence[0].id, v1.version_id);
    assert_eq!(d.evidence_sha256.as_deref(), Some(basis::digest(&ws, v1.version_id, &d.evidence).unwrap().as_str()));

    let conn = ws.conn().unwrap();
    let err = conn.execute("UPDATE decisions SET verdict = 'reject'", []).unwrap_err().to_string();
    assert!(err.contains("append-only"), "{err}");
    assert!(conn.execute("DELETE FROM decisions", []).is_err());

    std::fs::write(dir.join("SKILL.md"), "---\nname: tool\ndescription: Does things. Use when needed.\n---\n# v2\n")
        .unwrap();
    import(&ws, &req, &mut |_| Ok(())).unwrap();
    let all = decisions::list(&ws, v1.skill_id).unwrap();
    assert_eq!(all.len(), 1);
    assert!(!all[0].covers_latest, "a new version is not covered by the old decision");
}

#[test]
fn verdicts_and_reports_are_per_version() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let dir = tmp.path().join("tool");
    std::fs::create_dir_all(&dir).unwrap();
    let write = |body: &str| {
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: tool\ndescription: Does things. Use when needed.\n---\n{body}\n"),
        )
        .unwrap()
    };
    let req = ImportRequest { source: dir.display().to_string(), ..Default::default() };
    write("# v1");
    let v1 = import(&ws, &req, &mut |_| Ok(())).unwrap().skills[0].clone();
    agents::save_provider(
        &ws,
        &skillscope_models::ProviderConfig::new("p", skillscope_models::ApiKind::OpenAiChat, "http://127.0.0.1:9"),
    )
    .unwrap();
    let config = agents::save_agent(
        &ws,
        &agents::AgentConfig {
            id: 0,
            name: "a".into(),
            harness: Default::default(),
            provider_id: "p".into(),
            model: "m".into(),
            limits: Default::default(),
        },
    )
    .unwrap();
    let task = crate::common::copy_task("t", &tmp.path().join("task"));
    let design = ExperimentDesign {
        name: "on v1".into(),
        skill_version_ids: vec![v1.version_id],
        decoy_version_ids: vec![],
        tasks: vec![task],
        task_set_id: None,
        agent_config_ids: vec![config],
        conditions: vec![Condition::Isolated],
        repeats: 1,
        only: Vec::new(),
        judge: None,
    };
    let on_v1 = experiments::create(&ws, &design).unwrap();
    write("# v2");
    let v2 = import(&ws, &req, &mut |_| Ok(())).unwrap().skills[0].clone();
    assert_ne!(v1.version_id, v2.version_id);

    // Evidence on offer: v1 has its experiment and scan, v2 only its scan.
    let kinds = |v: i64| basis::options(&ws, v).unwrap().into_iter().map(|e| (e.kind, e.id)).collect::<Vec<_>>();
    assert_eq!(kinds(v1.version_id), [("experiment".to_string(), on_v1), ("scan".to_string(), v1.version_id)]);
    assert_eq!(kinds(v2.version_id), [("scan".to_string(), v2.version_id)]);
    let borrowed = NewDecision {
        version_id: v2.version_id,
        verdict: Verdict::Approve,
        rationale: "v1 looked fine".into(),
        reviewer: "Ana".into(),
        evidence: vec![EvidenceLink { kind: "experiment".into(), id: on_v1, label: "on v1".into() }],
    };
    let err = AppError::from(decisions::record(&ws, &borrowed).unwrap_err());
    assert_eq!(err.code, ErrorCode::InvalidInput, "{}", err.message);
    assert!(err.message.contains("not evidence on this version"), "{}", err.message);

    // The report on v2 does not inherit v1's experiment; the report on v1 rests on it.
    let latest = report::build(&ws, v1.skill_id, None).unwrap();
    assert_eq!(latest.version, 2);
    assert!(latest.utility.is_empty() && latest.evidence.iter().all(|e| e.kind == "scan"), "{:?}", latest.evidence);
    let md = report::render(&ws, v1.skill_id, None, ReportFormat::Md).unwrap();
    assert!(md.contains("Version 2 has not been evaluated yet"), "{md}");
    assert!(md.contains("on v1 ran v1"), "names the other version's experiment: {md}");
    // An experiment on both versions keeps them apart: each version's pairs are their own rows.
    let both =
        ExperimentDesign { name: "both".into(), skill_version_ids: vec![v1.version_id, v2.version_id], ..design };
    let id = experiments::create(&ws, &both).unwrap();
    let mut labels: Vec<String> = experiments::pairs(&ws, id).unwrap().into_iter().map(|p| p.skill).collect();
    labels.dedup();
    assert_eq!(labels, ["tool v1", "tool v2"]);
    let first = report::build(&ws, v1.skill_id, Some(1)).unwrap();
    assert_eq!(first.version, 1);
    assert!(first.evidence.iter().any(|e| e.kind == "experiment" && e.id == on_v1), "{:?}", first.evidence);
}
