//! The shared ATIF reference material (RFC, Harbor example, native agent
//! logs). Skips only when the reference folder is absent.

use std::path::{Path, PathBuf};

use serde_json::Value;
use skillscope_atif::{import_file, import_value, validate, ImportError};

/// The shared reference folder (override with `ATIF_REFERENCE_DIR`).
fn reference_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("ATIF_REFERENCE_DIR")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/reference/atif"), PathBuf::from);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: ATIF reference folder {} is absent", dir.display());
        None
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every ATIF example validates clean and imports losslessly; every other
/// example is refused as "not ATIF".
#[test]
fn every_example_is_clean_atif_or_refused() {
    let Some(dir) = reference_dir() else { return };
    let mut atif = 0;
    let mut native = 0;
    for entry in std::fs::read_dir(dir.join("examples")).unwrap() {
        let path = entry.unwrap().path();
        let json = read_json(&path);
        let declares_atif = json.get("schema_version").and_then(Value::as_str).is_some_and(|v| v.starts_with("ATIF-"));
        if declares_atif {
            atif += 1;
            assert_eq!(validate(&json), Vec::new(), "{}", path.display());
            let imported = import_file(&path).unwrap();
            assert_eq!(imported.violations, Vec::new());
            assert_eq!(serde_json::to_value(&imported.trajectory).unwrap(), json, "lossless: {}", path.display());
        } else {
            native += 1;
            let err = import_file(&path).unwrap_err();
            assert!(matches!(err, ImportError::NotAtif(_)), "{}: {err}", path.display());
        }
    }
    assert!(atif >= 1 && native >= 1, "found {atif} ATIF and {native} native examples");
}

#[test]
fn harbor_example_imports_with_its_version() {
    let Some(dir) = reference_dir() else { return };
    let imported = import_file(&dir.join("examples/harbor-example-trajectory.json")).unwrap();
    assert_eq!(imported.declared_version.as_deref(), Some("ATIF-v1.7"));
    let trajectory = imported.trajectory;
    assert_eq!(trajectory.agent.name, "claude-code");
    assert_eq!(trajectory.steps.len(), 3);
    let calls = trajectory.steps[1].tool_calls.as_ref().unwrap();
    assert_eq!(calls[0].function_name, "Write");
    assert_eq!(trajectory.final_metrics.unwrap().total_prompt_tokens, Some(37933));
}

#[test]
fn native_logs_are_refused_with_a_hint() {
    let Some(dir) = reference_dir() else { return };
    let cases = [
        (
            "gemini-cli-trajectory.json",
            "not an ATIF trajectory: it has neither an \"ATIF-v1.x\" schema_version nor `agent` and `steps`; \
             it looks like a Gemini CLI session log, which must be converted to ATIF first (Harbor's agent converters do this)",
        ),
        (
            "openhands_trajectory.json",
            "not an ATIF trajectory: the top-level value is an array, not an object; \
             it looks like an OpenHands event log, which must be converted to ATIF first (Harbor's agent converters do this)",
        ),
        (
            "mini-swe-agent-trajectory.json",
            "not an ATIF trajectory: it has neither an \"ATIF-v1.x\" schema_version nor `agent` and `steps`; \
             it looks like a mini-swe-agent trajectory, which must be converted to ATIF first (Harbor's agent converters do this)",
        ),
    ];
    for (file, message) in cases {
        let err = import_file(&dir.join("examples").join(file)).unwrap_err();
        assert_eq!(err.to_string(), message);
    }
}

/// The multi-step example in section IV of the RFC (an ATIF-v1.5 document).
#[test]
fn rfc_example_is_clean() {
    let Some(dir) = reference_dir() else { return };
    let rfc = std::fs::read_to_string(dir.join("0001-trajectory-format.md")).unwrap();
    let example = rfc
        .split("```json")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .find(|block| block.contains("\"schema_version\""))
        .expect("the RFC has a full example");
    let json: Value = serde_json::from_str(example).unwrap();
    assert_eq!(validate(&json), Vec::new());
    let imported = import_value(json.clone()).unwrap();
    assert_eq!(imported.declared_version.as_deref(), Some("ATIF-v1.5"));
    assert_eq!(serde_json::to_value(&imported.trajectory).unwrap(), json);
}
