//! Decisions: required rationale and reviewer, append-only at the database level, and a new
//! skill version is not covered by older decisions.

use skillscope_api::decisions::{self, EvidenceLink, NewDecision, Verdict};
use skillscope_api::import::import;
use skillscope_api::model::ImportRequest;
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
        evidence: vec![EvidenceLink { kind: "experiment".into(), id: 7, label: "eval on tasks".into() }],
    };
    assert_eq!(AppError::from(decisions::record(&ws, &new("  ", "Ana")).unwrap_err()).code, ErrorCode::InvalidInput);
    assert_eq!(
        AppError::from(decisions::record(&ws, &new("Helps on every task", "")).unwrap_err()).code,
        ErrorCode::InvalidInput
    );
    let d = decisions::record(&ws, &new("Golden on 10 tasks, no risky findings", "Ana")).unwrap();
    assert!(d.covers_latest);
    assert_eq!(d.evidence[0].id, 7);

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
