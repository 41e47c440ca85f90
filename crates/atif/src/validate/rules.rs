//! The RFC's cross-field rules, which the JSON Schema cannot express.
//! They read the raw JSON and skip whatever has the wrong shape (the schema
//! layer reports that).

use std::collections::HashSet;

use serde_json::{Map, Value};
use time::format_description::well_known::{Iso8601, Rfc3339};
use time::{Date, OffsetDateTime, PrimitiveDateTime};

use super::{Location, Violation};

/// Fields the RFC allows only when `source` is `"agent"`.
const AGENT_ONLY: [&str; 5] = ["model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics"];

/// (final_metrics field, the per-step metrics field it sums).
const TOKEN_TOTALS: [(&str, &str); 3] = [
    ("total_prompt_tokens", "prompt_tokens"),
    ("total_completion_tokens", "completion_tokens"),
    ("total_cached_tokens", "cached_tokens"),
];

pub(super) fn check(doc: &Value) -> Vec<Violation> {
    let mut out = Vec::new();
    if let Some(doc) = doc.as_object() {
        check_trajectory(doc, &Location::default(), &mut out);
    }
    out
}

fn check_trajectory(doc: &Map<String, Value>, loc: &Location, out: &mut Vec<Violation>) {
    if is_absent(doc.get("schema_version")) {
        out.push(loc.violation("schema_version", "required field is missing (e.g. \"ATIF-v1.7\")"));
    }
    let embedded = check_subagents(doc, loc, out);
    let steps = array(doc.get("steps"));
    for (i, step) in steps.iter().enumerate() {
        if let Some(step) = step.as_object() {
            check_step(step, &loc.step(i), &embedded, out);
        }
    }
    if let Some(final_metrics) = doc.get("final_metrics").and_then(Value::as_object) {
        check_final_metrics(doc, final_metrics, loc, out);
    }
}

/// Embedded subagents need unique `trajectory_id`s and are themselves
/// checked as complete trajectories. Returns their ids.
fn check_subagents<'a>(doc: &'a Map<String, Value>, loc: &Location, out: &mut Vec<Violation>) -> HashSet<&'a str> {
    let mut ids = HashSet::new();
    for (i, sub) in array(doc.get("subagent_trajectories")).iter().enumerate() {
        let Some(sub) = sub.as_object() else { continue };
        let sub_loc = loc.subagent(i);
        match sub.get("trajectory_id").and_then(Value::as_str) {
            None => {
                out.push(sub_loc.violation("trajectory_id", "embedded subagent trajectories must set trajectory_id"))
            }
            Some(id) if !ids.insert(id) => out.push(
                sub_loc
                    .violation("trajectory_id", format!("{id} is used by more than one embedded subagent trajectory")),
            ),
            Some(_) => {}
        }
        check_trajectory(sub, &sub_loc, out);
    }
    ids
}

fn check_step(step: &Map<String, Value>, loc: &Location, embedded: &HashSet<&str>, out: &mut Vec<Violation>) {
    let n = loc.step.unwrap_or_default();
    if let Some(found) = step.get("step_id").filter(|v| v.is_number()) {
        if found.as_f64() != Some(n as f64) {
            out.push(loc.violation(
                "step_id",
                format!("expected {n}, found {found}; step ids run 1..n in order, without gaps or duplicates"),
            ));
        }
    }
    if let Some(ts) = step.get("timestamp").and_then(Value::as_str) {
        if !is_iso8601(ts) {
            out.push(loc.violation("timestamp", format!("\"{ts}\" is not an ISO 8601 timestamp")));
        }
    }
    match step.get("source").and_then(Value::as_str) {
        Some("agent") => check_deterministic_dispatch(step, loc, out),
        Some(source) => {
            for field in AGENT_ONLY.iter().filter(|f| !is_absent(step.get(**f))) {
                out.push(
                    loc.violation(
                        field,
                        format!("only allowed on agent steps, but this step's source is \"{source}\""),
                    ),
                );
            }
        }
        None => {}
    }
    let call_ids = check_tool_call_ids(step, loc, out);
    if let Some(parts) = step.get("message").and_then(Value::as_array) {
        check_content_parts(parts, "message", "", loc, out);
    }
    let results = step.get("observation").and_then(|o| o.get("results")).and_then(Value::as_array);
    for (k, result) in results.into_iter().flatten().enumerate() {
        if let Some(id) = result.get("source_call_id").and_then(Value::as_str) {
            if !call_ids.contains(id) {
                out.push(loc.violation("source_call_id", format!("{id} does not match a tool call in step {n}")));
            }
        }
        if let Some(parts) = result.get("content").and_then(Value::as_array) {
            check_content_parts(parts, "content", &format!("result {k}, "), loc, out);
        }
        for reference in array(result.get("subagent_trajectory_ref")) {
            check_subagent_ref(reference, k, embedded, loc, out);
        }
    }
    if let Some(metrics) = step.get("metrics") {
        let prompt = metrics.get("prompt_tokens").and_then(Value::as_i64);
        let cached = metrics.get("cached_tokens").and_then(Value::as_i64);
        if let (Some(prompt), Some(cached)) = (prompt, cached) {
            if cached > prompt {
                out.push(loc.violation(
                    "metrics.cached_tokens",
                    format!("{cached} exceeds prompt_tokens {prompt}; cached tokens are a subset of the prompt"),
                ));
            }
        }
    }
}

/// `llm_call_count == 0` marks a non-LLM dispatch: no metrics, no reasoning.
fn check_deterministic_dispatch(step: &Map<String, Value>, loc: &Location, out: &mut Vec<Violation>) {
    if step.get("llm_call_count").and_then(Value::as_f64) != Some(0.0) {
        return;
    }
    for field in ["metrics", "reasoning_content"] {
        if !is_absent(step.get(field)) {
            out.push(loc.violation(
                "llm_call_count",
                format!("is 0 (a deterministic, non-LLM dispatch), so `{field}` must be absent"),
            ));
        }
    }
}

/// Tool call ids must be unique within the step. Returns them.
fn check_tool_call_ids<'a>(step: &'a Map<String, Value>, loc: &Location, out: &mut Vec<Violation>) -> HashSet<&'a str> {
    let mut ids = HashSet::new();
    for call in array(step.get("tool_calls")) {
        if let Some(id) = call.get("tool_call_id").and_then(Value::as_str) {
            if !ids.insert(id) {
                out.push(loc.violation(
                    "tool_call_id",
                    format!("{id} is used by more than one tool call in step {}", loc.step.unwrap_or_default()),
                ));
            }
        }
    }
    ids
}

/// A text part carries `text` and no `source`; an image part the reverse.
fn check_content_parts(parts: &[Value], rule: &str, context: &str, loc: &Location, out: &mut Vec<Violation>) {
    for (j, part) in parts.iter().enumerate() {
        let (kind, needed, forbidden) = match part.get("type").and_then(Value::as_str) {
            Some("text") => ("a text", "text", "source"),
            Some("image") => ("an image", "source", "text"),
            _ => continue,
        };
        if is_absent(part.get(needed)) {
            out.push(loc.violation(rule, format!("{context}part {j} is {kind} part without `{needed}`")));
        }
        if !is_absent(part.get(forbidden)) {
            out.push(loc.violation(rule, format!("{context}part {j} is {kind} part and must not carry `{forbidden}`")));
        }
    }
}

/// A ref needs `trajectory_id` or `trajectory_path`; an embedded-only ref
/// (no path) must name an embedded subagent trajectory.
fn check_subagent_ref(
    reference: &Value,
    result: usize,
    embedded: &HashSet<&str>,
    loc: &Location,
    out: &mut Vec<Violation>,
) {
    let id = reference.get("trajectory_id").and_then(Value::as_str);
    let path = reference.get("trajectory_path").and_then(Value::as_str);
    match (id, path) {
        (None, None) => out.push(loc.violation(
            "subagent_trajectory_ref",
            format!("result {result} has a reference with neither trajectory_id nor trajectory_path; session_id alone cannot resolve it"),
        )),
        (Some(id), None) if !embedded.contains(id) => out.push(loc.violation(
            "subagent_trajectory_ref",
            format!("result {result} refers to trajectory_id {id}, which matches no embedded subagent trajectory, and gives no trajectory_path"),
        )),
        _ => {}
    }
}

fn check_final_metrics(
    doc: &Map<String, Value>,
    final_metrics: &Map<String, Value>,
    loc: &Location,
    out: &mut Vec<Violation>,
) {
    let steps = array(doc.get("steps"));
    let total = |key: &str| final_metrics.get(key).and_then(Value::as_i64);
    for (total_key, step_key) in TOKEN_TOTALS {
        let (Some(total), Some(own)) = (total(total_key), token_sum(steps, step_key)) else {
            continue;
        };
        // Totals may or may not include embedded subagents' tokens.
        if total != own && total != own + subagent_token_sum(doc, step_key) {
            out.push(loc.violation(
                &format!("final_metrics.{total_key}"),
                format!("is {total} but the steps' {step_key} sum to {own}"),
            ));
        }
    }
    if let (Some(prompt), Some(cached)) = (total("total_prompt_tokens"), total("total_cached_tokens")) {
        if cached > prompt {
            out.push(loc.violation(
                "final_metrics.total_cached_tokens",
                format!("{cached} exceeds total_prompt_tokens {prompt}; cached tokens are a subset of the prompt"),
            ));
        }
    }
    let notes = doc.get("notes").and_then(Value::as_str).unwrap_or("");
    if let Some(count) = final_metrics.get("total_steps").and_then(Value::as_u64) {
        if count != steps.len() as u64 && notes.trim().is_empty() {
            out.push(loc.violation(
                "final_metrics.total_steps",
                format!(
                    "is {count} but the trajectory has {} steps; a difference must be explained in `notes`",
                    steps.len()
                ),
            ));
        }
    }
    let costs: Vec<f64> = steps.iter().filter_map(|s| s.get("metrics")?.get("cost_usd")?.as_f64()).collect();
    let total_cost = final_metrics.get("total_cost_usd").and_then(Value::as_f64);
    if let (Some(total_cost), false) = (total_cost, costs.is_empty()) {
        // The total may exceed the steps (subagents, provider extras), never fall short.
        let sum: f64 = costs.iter().sum();
        if total_cost < sum - (1e-9 + sum * 1e-6) {
            out.push(loc.violation(
                "final_metrics.total_cost_usd",
                format!("is {total_cost} but the steps' cost_usd sum to {sum}"),
            ));
        }
    }
}

/// Sum of a metrics field over steps; `None` when no step reports it.
fn token_sum(steps: &[Value], key: &str) -> Option<i64> {
    steps.iter().filter_map(|s| s.get("metrics")?.get(key)?.as_i64()).reduce(|a, b| a + b)
}

/// The same sum over all embedded subagents, recursively.
fn subagent_token_sum(doc: &Map<String, Value>, key: &str) -> i64 {
    array(doc.get("subagent_trajectories"))
        .iter()
        .filter_map(Value::as_object)
        .map(|sub| token_sum(array(sub.get("steps")), key).unwrap_or(0) + subagent_token_sum(sub, key))
        .sum()
}

/// ISO 8601 as Harbor's validator (`datetime.fromisoformat`) accepts it:
/// with or without an offset, `T` or space between date and time.
fn is_iso8601(ts: &str) -> bool {
    let normalized = match ts.as_bytes().get(10) {
        Some(b' ') => format!("{}T{}", &ts[..10], &ts[11..]),
        _ => ts.to_owned(),
    };
    let ts = normalized.as_str();
    OffsetDateTime::parse(ts, &Rfc3339).is_ok()
        || OffsetDateTime::parse(ts, &Iso8601::DEFAULT).is_ok()
        || PrimitiveDateTime::parse(ts, &Iso8601::DEFAULT).is_ok()
        || Date::parse(ts, &Iso8601::DEFAULT).is_ok()
}

fn is_absent(value: Option<&Value>) -> bool {
    value.is_none_or(Value::is_null)
}

fn array(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}
