//! The code form of the schema ([`super::shape`]) must accept and reject
//! exactly what the published ATIF v1.7 JSON Schema does.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::shape;

/// The shared reference folder (override with `ATIF_REFERENCE_DIR`).
fn reference_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("ATIF_REFERENCE_DIR")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/reference/atif"), PathBuf::from);
    dir.is_dir().then_some(dir)
}

fn valid() -> Value {
    json!({
        "schema_version": "ATIF-v1.7",
        "agent": {"name": "a", "version": "1", "tool_definitions": [{"type": "function"}]},
        "steps": [
            {"step_id": 1, "source": "user", "message": "hi"},
            {"step_id": 2, "source": "agent", "message": "",
             "tool_calls": [{"tool_call_id": "c1", "function_name": "f", "arguments": {}}],
             "observation": {"results": [{"source_call_id": "c1", "content": "ok"}]},
             "metrics": {"prompt_tokens": 3, "completion_tokens": 1}}
        ],
        "final_metrics": {"total_steps": 2}
    })
}

fn set(pointer: &str, value: Value) -> Value {
    let mut doc = valid();
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let parent = doc.pointer_mut(parent).unwrap_or_else(|| panic!("no {parent}"));
    match parent {
        Value::Object(map) => {
            map.insert(key.to_owned(), value);
        }
        Value::Array(items) => items[key.parse::<usize>().unwrap()] = value,
        _ => panic!("{pointer} is not inside a container"),
    }
    doc
}

fn remove(pointer: &str) -> Value {
    let mut doc = valid();
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    doc.pointer_mut(parent).unwrap().as_object_mut().unwrap().remove(key).unwrap();
    doc
}

fn documents() -> Vec<(&'static str, Value)> {
    let sub = json!({"trajectory_id": "s", "agent": {"name": "b", "version": "1"},
                     "steps": [{"step_id": 1, "source": "user", "message": "x"}]});
    vec![
        ("valid", valid()),
        ("no schema_version", remove("/schema_version")),
        ("unknown schema_version", set("/schema_version", json!("ATIF-v9"))),
        ("null session_id", set("/session_id", Value::Null)),
        ("numeric session_id", set("/session_id", json!(5))),
        ("no agent", remove("/agent")),
        ("no agent name", remove("/agent/name")),
        ("agent extra not an object", set("/agent/extra", json!("x"))),
        ("tool definition not an object", set("/agent/tool_definitions/0", json!(1))),
        ("no steps", set("/steps", json!([]))),
        ("steps not an array", set("/steps", json!({}))),
        ("step_id 0", set("/steps/0/step_id", json!(0))),
        ("step_id string", set("/steps/0/step_id", json!("1"))),
        ("step_id integral float", set("/steps/0/step_id", json!(1.0))),
        ("unknown source", set("/steps/0/source", json!("bot"))),
        ("null message", set("/steps/0/message", Value::Null)),
        ("numeric message", set("/steps/0/message", json!(5))),
        ("no message", remove("/steps/0/message")),
        ("text part", set("/steps/0/message", json!([{"type": "text", "text": "hi"}]))),
        ("unknown part type", set("/steps/0/message", json!([{"type": "video"}]))),
        ("part with unknown field", set("/steps/0/message", json!([{"type": "text", "alt": "x"}]))),
        (
            "bad media type",
            set("/steps/0/message", json!([{"type": "image", "source": {"media_type": "image/bmp", "path": "x"}}])),
        ),
        (
            "image without path",
            set("/steps/0/message", json!([{"type": "image", "source": {"media_type": "image/png"}}])),
        ),
        ("numeric effort", set("/steps/1/reasoning_effort", json!(0.5))),
        ("boolean effort", set("/steps/1/reasoning_effort", json!(true))),
        ("array arguments", set("/steps/1/tool_calls/0/arguments", json!([]))),
        ("tool call extra", set("/steps/1/tool_calls/0/extra", json!({"retries": 1}))),
        ("tool call unknown field", set("/steps/1/tool_calls/0/timeout", json!(3))),
        ("no tool call id", remove("/steps/1/tool_calls/0/tool_call_id")),
        ("observation without results", set("/steps/1/observation", json!({}))),
        ("null content", set("/steps/1/observation/results/0/content", Value::Null)),
        (
            "file ref",
            set("/steps/1/observation/results/0/subagent_trajectory_ref", json!([{"trajectory_path": "x.json"}])),
        ),
        ("ref unknown field", set("/steps/1/observation/results/0/subagent_trajectory_ref", json!([{"foo": 1}]))),
        ("fractional tokens", set("/steps/1/metrics/prompt_tokens", json!(1.5))),
        ("string logprobs", set("/steps/1/metrics/logprobs", json!(["a"]))),
        ("token ids", set("/steps/1/metrics/completion_token_ids", json!([1, 2]))),
        ("negative llm_call_count", set("/steps/1/llm_call_count", json!(-1))),
        ("string is_copied_context", set("/steps/1/is_copied_context", json!("yes"))),
        ("negative total_steps", set("/final_metrics/total_steps", json!(-1))),
        ("string total cost", set("/final_metrics/total_cost_usd", json!("1"))),
        ("root unknown field", set("/foo", json!(1))),
        ("embedded subagent", set("/subagent_trajectories", json!([sub]))),
        ("subagent not an object", set("/subagent_trajectories", json!([5]))),
        ("subagent without steps", set("/subagent_trajectories", json!([{"agent": {"name": "b", "version": "1"}}]))),
        ("root array", json!([valid()])),
    ]
}

#[test]
fn code_schema_agrees_with_published_schema() {
    let Some(dir) = reference_dir() else {
        eprintln!("skipping: ATIF reference folder is absent");
        return;
    };
    let text = std::fs::read_to_string(dir.join("atif-v1.7.schema.json")).unwrap();
    let mut schema: Value = serde_json::from_str(&text).unwrap();
    // Its `$id` is a description, not a URI.
    schema.as_object_mut().unwrap().remove("$id");
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut disagreements = Vec::new();
    let mut invalid = 0;
    for (name, doc) in documents() {
        let published = validator.is_valid(&doc);
        let ours = shape::check(&doc);
        invalid += usize::from(!published);
        if published != ours.is_empty() {
            disagreements.push(format!("{name}: schema says {published}, code says {ours:?}"));
        }
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    assert!(invalid >= 25, "the corpus must exercise rejections, got {invalid}");
}
