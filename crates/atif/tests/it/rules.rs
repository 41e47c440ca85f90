//! Every validation rule: a valid document stays clean, and each broken rule
//! yields exactly the expected violation.

use serde_json::{json, Value};
use skillscope_atif::validate;

fn valid() -> Value {
    json!({
        "schema_version": "ATIF-v1.7",
        "session_id": "run-1",
        "agent": {"name": "skillscope", "version": "0.1.0", "model_name": "test-model"},
        "steps": [
            {"step_id": 1, "timestamp": "2026-05-01T12:00:00Z", "source": "system",
             "message": "You are a careful assistant."},
            {"step_id": 2, "timestamp": "2026-05-01T12:00:01Z", "source": "user",
             "message": "Create hello.txt"},
            {"step_id": 3, "timestamp": "2026-05-01T12:00:02.250Z", "source": "agent",
             "message": "", "reasoning_content": "Write the file.",
             "tool_calls": [
                 {"tool_call_id": "call_1", "function_name": "write", "arguments": {"path": "hello.txt"}},
                 {"tool_call_id": "call_2", "function_name": "read", "arguments": {}}
             ],
             "observation": {"results": [
                 {"source_call_id": "call_1", "content": "written"},
                 {"source_call_id": "call_2", "content": [{"type": "text", "text": "Hello"}]}
             ]},
             "metrics": {"prompt_tokens": 100, "completion_tokens": 20, "cached_tokens": 40, "cost_usd": 0.25},
             "llm_call_count": 1},
            {"step_id": 4, "timestamp": "2026-05-01T12:00:03Z", "source": "agent",
             "message": "Done.",
             "metrics": {"prompt_tokens": 150, "completion_tokens": 10, "cached_tokens": 100, "cost_usd": 0.5}}
        ],
        "final_metrics": {
            "total_prompt_tokens": 250, "total_completion_tokens": 30, "total_cached_tokens": 140,
            "total_cost_usd": 0.75, "total_steps": 4
        }
    })
}

fn with(pointer: &str, value: Value) -> Value {
    let mut doc = valid();
    *doc.pointer_mut(pointer).unwrap_or_else(|| panic!("no {pointer}")) = value;
    doc
}

fn without(pointer: &str) -> Value {
    let mut doc = valid();
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    doc.pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .and_then(|o| o.remove(key))
        .unwrap_or_else(|| panic!("no {pointer}"));
    doc
}

fn messages(doc: &Value) -> Vec<String> {
    validate(doc).iter().map(ToString::to_string).collect()
}

#[test]
fn valid_document_is_clean() {
    assert_eq!(messages(&valid()), Vec::<String>::new());
}

#[test]
fn violation_carries_step_rule_and_message() {
    let violations = validate(&with("/steps/2/observation/results/0/source_call_id", json!("call_9")));
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].step, Some(3));
    assert_eq!(violations[0].rule, "source_call_id");
    assert_eq!(violations[0].message, "call_9 does not match a tool call in step 3");
    assert_eq!(violations[0].to_string(), "step 3: source_call_id: call_9 does not match a tool call in step 3");
}

#[test]
fn observation_must_answer_a_call_of_its_own_step() {
    let mut doc = valid();
    doc["steps"][3]["observation"] = json!({"results": [{"source_call_id": "call_1", "content": "late"}]});
    assert_eq!(messages(&doc), ["step 4: source_call_id: call_1 does not match a tool call in step 4"]);
}

#[test]
fn step_ids_run_one_to_n() {
    assert_eq!(
        messages(&with("/steps/3/step_id", json!(5))),
        ["step 4: step_id: expected 4, found 5; step ids run 1..n in order, without gaps or duplicates"]
    );
    assert_eq!(
        messages(&with("/steps/1/step_id", json!(1))),
        ["step 2: step_id: expected 2, found 1; step ids run 1..n in order, without gaps or duplicates"]
    );
}

#[test]
fn agent_only_fields_are_rejected_on_other_steps() {
    let cases = [
        ("model_name", json!("m")),
        ("reasoning_effort", json!("low")),
        ("reasoning_content", json!("thinking")),
        ("tool_calls", json!([])),
        ("metrics", json!({})),
    ];
    for (field, value) in cases {
        let mut doc = valid();
        doc["steps"][1][field] = value;
        assert_eq!(
            messages(&doc),
            [format!("step 2: {field}: only allowed on agent steps, but this step's source is \"user\"")]
        );
    }
    let mut doc = valid();
    doc["steps"][0]["tool_calls"] = json!([]);
    assert_eq!(
        messages(&doc),
        ["step 1: tool_calls: only allowed on agent steps, but this step's source is \"system\""]
    );
    // null counts as absent
    let mut doc = valid();
    doc["steps"][1]["metrics"] = Value::Null;
    assert_eq!(messages(&doc), Vec::<String>::new());
}

#[test]
fn deterministic_dispatch_has_no_metrics_or_reasoning() {
    assert_eq!(
        messages(&with("/steps/2/llm_call_count", json!(0))),
        [
            "step 3: llm_call_count: is 0 (a deterministic, non-LLM dispatch), so `metrics` must be absent",
            "step 3: llm_call_count: is 0 (a deterministic, non-LLM dispatch), so `reasoning_content` must be absent",
        ]
    );
}

#[test]
fn tool_call_ids_are_unique_within_a_step() {
    assert_eq!(
        messages(&with("/steps/2/tool_calls/1/tool_call_id", json!("call_1"))),
        [
            "step 3: tool_call_id: call_1 is used by more than one tool call in step 3",
            "step 3: source_call_id: call_2 does not match a tool call in step 3",
        ]
    );
}

#[test]
fn final_token_totals_match_the_steps() {
    assert_eq!(
        messages(&with("/final_metrics/total_prompt_tokens", json!(999))),
        ["final_metrics.total_prompt_tokens: is 999 but the steps' prompt_tokens sum to 250"]
    );
    assert_eq!(
        messages(&with("/final_metrics/total_completion_tokens", json!(31))),
        ["final_metrics.total_completion_tokens: is 31 but the steps' completion_tokens sum to 30"]
    );
    assert_eq!(
        messages(&with("/final_metrics/total_cached_tokens", json!(0))),
        ["final_metrics.total_cached_tokens: is 0 but the steps' cached_tokens sum to 140"]
    );
}

#[test]
fn final_totals_may_come_from_elsewhere_when_steps_report_nothing() {
    let mut doc = valid();
    for step in doc["steps"].as_array_mut().unwrap() {
        step.as_object_mut().unwrap().remove("metrics");
    }
    assert_eq!(messages(&doc), Vec::<String>::new());
}

#[test]
fn final_step_count_differs_only_with_notes() {
    let doc = with("/final_metrics/total_steps", json!(5));
    assert_eq!(
        messages(&doc),
        ["final_metrics.total_steps: is 5 but the trajectory has 4 steps; a difference must be explained in `notes`"]
    );
    let mut doc = doc;
    doc["notes"] = json!("step 5 was dropped by the converter");
    assert_eq!(messages(&doc), Vec::<String>::new());
}

#[test]
fn final_cost_is_not_below_the_steps() {
    assert_eq!(
        messages(&with("/final_metrics/total_cost_usd", json!(0.5))),
        ["final_metrics.total_cost_usd: is 0.5 but the steps' cost_usd sum to 0.75"]
    );
    // More than the steps is fine: subagents and provider extras add cost.
    assert_eq!(messages(&with("/final_metrics/total_cost_usd", json!(1.0))), Vec::<String>::new());
}

#[test]
fn cached_tokens_are_a_subset_of_the_prompt() {
    let mut doc = without("/final_metrics");
    doc["steps"][2]["metrics"]["cached_tokens"] = json!(200);
    assert_eq!(
        messages(&doc),
        ["step 3: metrics.cached_tokens: 200 exceeds prompt_tokens 100; cached tokens are a subset of the prompt"]
    );
    let mut doc = valid();
    doc["final_metrics"] = json!({"total_prompt_tokens": 10, "total_cached_tokens": 20});
    doc["steps"][2].as_object_mut().unwrap().remove("metrics");
    doc["steps"][3].as_object_mut().unwrap().remove("metrics");
    assert_eq!(
        messages(&doc),
        ["final_metrics.total_cached_tokens: 20 exceeds total_prompt_tokens 10; cached tokens are a subset of the prompt"]
    );
}

#[test]
fn schema_version_is_a_known_atif_version() {
    for older in ["ATIF-v1.0", "ATIF-v1.2", "ATIF-v1.6"] {
        assert_eq!(messages(&with("/schema_version", json!(older))), Vec::<String>::new());
    }
    assert_eq!(
        messages(&with("/schema_version", json!("ATIF-v2.0"))),
        ["schema_version: unknown ATIF version \"ATIF-v2.0\" (known: ATIF-v1.0 to ATIF-v1.7)"]
    );
    assert_eq!(
        messages(&without("/schema_version")),
        ["schema_version: required field is missing (e.g. \"ATIF-v1.7\")"]
    );
}

#[test]
fn timestamps_must_parse() {
    assert_eq!(
        messages(&with("/steps/0/timestamp", json!("yesterday"))),
        ["step 1: timestamp: \"yesterday\" is not an ISO 8601 timestamp"]
    );
    assert_eq!(
        messages(&with("/steps/0/timestamp", json!("2026-13-01T00:00:00Z"))),
        ["step 1: timestamp: \"2026-13-01T00:00:00Z\" is not an ISO 8601 timestamp"]
    );
    for accepted in ["2026-05-01T12:00:00+02:00", "2025-10-10T06:10:15.158090", "2025-10-10 06:10:15", "2025-10-10"] {
        assert_eq!(messages(&with("/steps/0/timestamp", json!(accepted))), Vec::<String>::new(), "{accepted}");
    }
}

#[test]
fn content_parts_carry_what_their_type_needs() {
    assert_eq!(
        messages(&with("/steps/1/message", json!([{"type": "text"}]))),
        ["step 2: message: part 0 is a text part without `text`"]
    );
    assert_eq!(
        messages(&with(
            "/steps/2/observation/results/1/content",
            json!([
                {"type": "text", "text": "ok"},
                {"type": "image", "text": "caption", "source": {"media_type": "image/png", "path": "images/a.png"}}
            ])
        )),
        ["step 3: content: result 1, part 1 is an image part and must not carry `text`"]
    );
}

#[test]
fn subagent_refs_resolve() {
    let doc = with(
        "/steps/2/observation/results/0",
        json!({"source_call_id": "call_1", "subagent_trajectory_ref": [{"session_id": "run-1"}]}),
    );
    assert_eq!(
        messages(&doc),
        ["step 3: subagent_trajectory_ref: result 0 has a reference with neither trajectory_id nor trajectory_path; session_id alone cannot resolve it"]
    );
    let mut doc = with(
        "/steps/2/observation/results/0",
        json!({"source_call_id": "call_1", "subagent_trajectory_ref": [{"trajectory_id": "sub-1"}]}),
    );
    assert_eq!(
        messages(&doc),
        ["step 3: subagent_trajectory_ref: result 0 refers to trajectory_id sub-1, which matches no embedded subagent trajectory, and gives no trajectory_path"]
    );
    doc["subagent_trajectories"] = json!([subagent("sub-1")]);
    assert_eq!(messages(&doc), Vec::<String>::new());
    // A file reference needs no embedded trajectory.
    let doc = with(
        "/steps/2/observation/results/0",
        json!({"subagent_trajectory_ref": [{"trajectory_id": "x", "trajectory_path": "sub/x.json"}]}),
    );
    assert_eq!(messages(&doc), Vec::<String>::new());
}

fn subagent(id: &str) -> Value {
    json!({
        "schema_version": "ATIF-v1.7",
        "trajectory_id": id,
        "agent": {"name": "helper", "version": "1"},
        "steps": [{"step_id": 1, "source": "user", "message": "sub task"}]
    })
}

#[test]
fn embedded_subagents_have_unique_ids_and_are_validated() {
    let mut doc = valid();
    let mut anonymous = subagent("x");
    anonymous.as_object_mut().unwrap().remove("trajectory_id");
    doc["subagent_trajectories"] = json!([subagent("a"), subagent("a"), anonymous]);
    assert_eq!(
        messages(&doc),
        [
            "subagent_trajectories[1].trajectory_id: a is used by more than one embedded subagent trajectory",
            "subagent_trajectories[2].trajectory_id: embedded subagent trajectories must set trajectory_id",
        ]
    );
    let mut doc = valid();
    let mut broken = subagent("a");
    broken["steps"][0]["observation"] = json!({"results": [{"source_call_id": "call_x"}]});
    broken["steps"][0]["step_id"] = json!(2);
    doc["subagent_trajectories"] = json!([broken]);
    assert_eq!(
        messages(&doc),
        [
            "step 1: subagent_trajectories[0].step_id: expected 1, found 2; step ids run 1..n in order, without gaps or duplicates",
            "step 1: subagent_trajectories[0].source_call_id: call_x does not match a tool call in step 1",
        ]
    );
}

#[test]
fn schema_violations_name_the_field() {
    assert_eq!(
        messages(&with("/steps/1/source", json!("bot"))),
        ["step 2: source: \"bot\" is not one of: system, user, agent"]
    );
    assert_eq!(
        messages(&with("/steps/2/tool_calls/0/arguments", json!("hello.txt"))),
        ["step 3: tool_calls[0].arguments: expected an object, found a string"]
    );
    assert_eq!(
        messages(&with("/steps/1/message", Value::Null)),
        ["step 2: message: expected a string or an array of content parts, found null"]
    );
    assert_eq!(messages(&without("/agent/name")), ["agent.name: required field is missing"]);
    let mut doc = valid();
    doc["steps"][1]["mood"] = json!("happy");
    assert_eq!(messages(&doc), ["step 2: mood: is not an ATIF field (custom data belongs in an `extra` object)"]);
    let mut doc = without("/final_metrics");
    doc["steps"] = json!([]);
    assert_eq!(messages(&doc), ["steps: must contain at least one step"]);
    assert_eq!(
        messages(&with("/final_metrics/total_steps", json!(-1))),
        ["final_metrics.total_steps: must be at least 0, found -1"]
    );
    assert_eq!(messages(&json!([1, 2])), ["trajectory: expected an object, found an array"]);
}
