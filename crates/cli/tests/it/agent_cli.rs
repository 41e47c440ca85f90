//! Trajectory, credential, provider and agent subcommands as scripts use them.

use crate::common;

use common::{join_session_keyring, text};
use std::path::Path;
use std::process::Output;

fn run(home: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    common::run(home, args, stdin.unwrap_or(""))
}

#[test]
fn trajectory_validate_reports_each_violation_with_step_and_rule() {
    let home = tempfile::tempdir().unwrap();
    let harbor = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/reference/atif/examples/harbor-example-trajectory.json");
    if harbor.exists() {
        let ok = run(home.path(), &["trajectory", "validate", harbor.to_str().unwrap()], None);
        assert_eq!(ok.status.code(), Some(0), "{}", text(&ok));
        let imported = run(home.path(), &["trajectory", "import", harbor.to_str().unwrap()], None);
        assert_eq!(imported.status.code(), Some(0), "{}", text(&imported));
        assert!(text(&imported).contains("trajectory #1"));
    }
    let bad = home.path().join("bad.json");
    std::fs::write(
        &bad,
        serde_json::json!({
            "schema_version": "ATIF-v1.7", "session_id": "s", "agent": {"name": "a", "version": "1"},
            "steps": [
                {"step_id": 1, "source": "user", "message": "hi", "tool_calls": [{"tool_call_id": "c1", "function_name": "f", "arguments": {}}]},
                {"step_id": 3, "source": "agent", "message": "x", "observation": {"results": [{"source_call_id": "c9", "content": "y"}]}}
            ]
        })
        .to_string(),
    )
    .unwrap();
    let out = run(home.path(), &["trajectory", "validate", bad.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect();
    assert!(lines.len() >= 3, "{lines:?}");
    assert!(lines.iter().all(|l| l.starts_with("step ") || l.contains(':')), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("step 2") && l.contains("source_call_id")), "{lines:?}");
}

#[test]
fn credentials_go_to_the_keyring_and_are_tested_with_a_real_call() {
    join_session_keyring();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let key = "sk-cli-test-0123456789abcdef";
    let server = rt
        .block_on(skillscope_modelserver::start(skillscope_modelserver::ServerOptions {
            require_key: Some(key.into()),
            ..Default::default()
        }))
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let add = run(h, &["provider", "add", "local", "--api", "openai_chat", "--base-url", &server.base_url], None);
    assert!(add.status.success(), "{}", text(&add));
    let no_key = run(h, &["credential", "test", "local", "--model", "m"], None);
    assert_eq!(no_key.status.code(), Some(2), "{}", text(&no_key));
    assert!(run(h, &["credential", "set", "local"], Some("sk-wrong-key-000000000000\n")).status.success());
    let wrong = run(h, &["credential", "test", "local", "--model", "m"], None);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(!text(&wrong).contains("sk-wrong"), "errors never echo the key: {}", text(&wrong));
    assert!(run(h, &["credential", "set", "local"], Some(key)).status.success());
    let ok = run(h, &["credential", "test", "local", "--model", "m"], None);
    assert!(ok.status.success(), "{}", text(&ok));
    let list = run(h, &["provider", "list", "--json"], None);
    let v: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(v[0]["has_key"], true);
    assert!(!String::from_utf8_lossy(&list.stdout).contains(key));
    assert!(run(h, &["agent", "add", "fast", "--provider", "local", "--model", "m"], None).status.success());
    let agents: serde_json::Value = serde_json::from_slice(&run(h, &["agent", "list", "--json"], None).stdout).unwrap();
    assert_eq!(agents[0]["name"], "fast");
    assert!(text(&run(h, &["credential", "delete", "local"], None)).contains("deleted"));
    assert!(text(&run(h, &["credential", "delete", "local"], None)).contains("no key"));
    let db = std::fs::read(h.join("skillscope.db")).unwrap();
    assert!(!db.windows(key.len()).any(|w| w == key.as_bytes()), "the key is not in the database");
}
