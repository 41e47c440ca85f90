//! Importing trajectory files: clear refusals for what is not ATIF, and
//! violations returned alongside what can be read.

use std::path::Path;

use serde_json::{json, Value};
use skillscope_atif::{import_bytes, import_file, ImportError, Imported};

fn minimal() -> Value {
    json!({
        "schema_version": "ATIF-v1.7",
        "agent": {"name": "a", "version": "1"},
        "steps": [
            {"step_id": 1, "source": "user", "message": "hi"},
            {"step_id": 2, "source": "agent", "message": "",
             "tool_calls": [{"tool_call_id": "c1", "function_name": "bash", "arguments": {"cmd": "ls"}}],
             "observation": {"results": [{"source_call_id": "c1", "content": "a.txt"}]}}
        ]
    })
}

fn import(doc: &Value) -> Result<Imported, ImportError> {
    import_bytes(doc.to_string().as_bytes())
}

fn error_text(bytes: &[u8]) -> String {
    import_bytes(bytes).unwrap_err().to_string()
}

#[test]
fn clean_file_imports_without_violations() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("atif-import-clean.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&minimal()).unwrap()).unwrap();
    let imported = import_file(&path).unwrap();
    assert_eq!(imported.violations, Vec::new());
    assert_eq!(imported.declared_version.as_deref(), Some("ATIF-v1.7"));
    assert_eq!(imported.trajectory.steps.len(), 2);
    assert_eq!(serde_json::to_value(&imported.trajectory).unwrap(), minimal());
}

#[test]
fn byte_order_mark_is_tolerated() {
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(minimal().to_string().into_bytes());
    assert!(import_bytes(&bytes).unwrap().violations.is_empty());
}

#[test]
fn non_json_is_refused() {
    assert_eq!(error_text(b"hello"), "not JSON: expected value at line 1 column 1");
    assert_eq!(error_text(b"{\"schema_version\": "), "not JSON: EOF while parsing a value at line 1 column 19");
    assert_eq!(error_text(b""), "not JSON: EOF while parsing a value at line 1 column 0");
    assert!(matches!(import_bytes(b"[1,"), Err(ImportError::NotJson(_))));
}

#[test]
fn json_that_is_not_atif_is_refused() {
    assert_eq!(error_text(b"\"trajectory\""), "not an ATIF trajectory: the top-level value is a string, not an object");
    assert_eq!(
        error_text(br#"{"skill_name": "x", "evals": []}"#),
        "not an ATIF trajectory: it has neither an \"ATIF-v1.x\" schema_version nor `agent` and `steps`"
    );
    assert_eq!(
        error_text(br#"{"schema_version": "1.3", "agent": {}}"#),
        "not an ATIF trajectory: it has neither an \"ATIF-v1.x\" schema_version nor `agent` and `steps`"
    );
}

#[test]
fn unreadable_atif_names_its_first_violation() {
    let mut doc = minimal();
    doc["steps"][0]["message"] = json!(5);
    match import(&doc) {
        Err(ImportError::Malformed { violations, .. }) => assert_eq!(violations.len(), 1),
        other => panic!("expected Malformed, got {other:?}"),
    }
    assert_eq!(
        import(&doc).unwrap_err().to_string(),
        "ATIF trajectory cannot be read: step 1: message: expected a string or an array of content parts, found an integer"
    );
    let doc = json!({"schema_version": "ATIF-v1.7", "agent": {"name": "a", "version": "1"}});
    assert_eq!(
        import(&doc).unwrap_err().to_string(),
        "ATIF trajectory cannot be read: steps: required field is missing"
    );
}

#[test]
fn readable_atif_with_violations_imports_with_them() {
    let mut doc = minimal();
    doc["steps"][1]["observation"]["results"][0]["source_call_id"] = json!("c9");
    doc["steps"][1]["colour"] = json!("blue");
    let imported = import(&doc).unwrap();
    let violations: Vec<String> = imported.violations.iter().map(ToString::to_string).collect();
    assert_eq!(
        violations,
        [
            "step 2: colour: is not an ATIF field (custom data belongs in an `extra` object)",
            "step 2: source_call_id: c9 does not match a tool call in step 2",
        ]
    );
    let results = &imported.trajectory.steps[1].observation.as_ref().unwrap().results;
    assert_eq!(results[0].source_call_id.as_deref(), Some("c9"));
}

#[test]
fn version_is_detected() {
    let mut doc = minimal();
    doc["schema_version"] = json!("ATIF-v1.4");
    let imported = import(&doc).unwrap();
    assert_eq!(imported.declared_version.as_deref(), Some("ATIF-v1.4"));
    assert_eq!(imported.trajectory.schema_version, "ATIF-v1.4");
    assert!(imported.violations.is_empty());

    doc["schema_version"] = json!("ATIF-v2.0");
    let imported = import(&doc).unwrap();
    assert_eq!(imported.declared_version.as_deref(), Some("ATIF-v2.0"));
    assert_eq!(
        imported.violations[0].to_string(),
        "schema_version: unknown ATIF version \"ATIF-v2.0\" (known: ATIF-v1.0 to ATIF-v1.7)"
    );

    doc.as_object_mut().unwrap().remove("schema_version");
    let imported = import(&doc).unwrap();
    assert_eq!(imported.declared_version, None);
    assert_eq!(imported.trajectory.schema_version, "ATIF-v1.7");
    assert_eq!(imported.violations[0].to_string(), "schema_version: required field is missing (e.g. \"ATIF-v1.7\")");
}

#[test]
fn unreadable_file_names_its_path() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("atif-import-missing.json");
    let err = import_file(&path).unwrap_err();
    assert!(matches!(err, ImportError::Read { .. }));
    assert!(err.to_string().starts_with(&format!("cannot read {}: ", path.display())), "{err}");
}

#[test]
fn oversized_file_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.json");
    // A sparse file: its size is what counts, nothing is written or read.
    std::fs::File::create(&path).unwrap().set_len(skillscope_atif::import::MAX_IMPORT_BYTES + 1).unwrap();
    let err = import_file(&path).unwrap_err();
    assert!(matches!(err, ImportError::TooLarge { .. }), "{err}");
    assert!(err.to_string().contains("trajectory files up to 536 MB"), "{err}");
}
