//! Anthropic Messages: `POST /v1/messages` (`?beta=true` tolerated).

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};

use super::{call_id, items, offered_tools, Answer, ApiError};
use crate::script::{Conversation, Reply};
use crate::sse::{fragments, json_response, sse_response, Delivery, SseEvent};

pub fn conversation(body: &Value) -> Conversation {
    let mut c = Conversation::from_body(body);
    c.tools = offered_tools(body, None, "input_schema");
    let messages = body.get("messages");
    c.tool_results = items(messages)
        .filter(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        .filter_map(|m| m.get("content").and_then(Value::as_array))
        .flatten()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
        .count();
    c.set_prefix_from(messages);
    c
}

/// Anthropic counts `input_tokens` without the cached part.
fn usage(a: &Answer) -> Value {
    json!({
        "input_tokens": a.usage.input - a.usage.cached,
        "output_tokens": a.usage.output,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": a.usage.cached,
    })
}

fn id(a: &Answer) -> String {
    format!("msg_{:06}", a.seq)
}

fn stop_reason(a: &Answer) -> &'static str {
    match a.reply {
        Reply::Text(_) => "end_turn",
        Reply::ToolCall { .. } => "tool_use",
    }
}

fn block(a: &Answer) -> Value {
    match &a.reply {
        Reply::Text(t) => json!({"type": "text", "text": t}),
        Reply::ToolCall { index, name, args } => json!({
            "type": "tool_use", "id": call_id("toolu", *index), "name": name, "input": args
        }),
    }
}

pub fn render(a: &Answer, delivery: Delivery) -> Response {
    if a.stream {
        return sse_response(events(a), delivery);
    }
    let body = json!({
        "id": id(a),
        "type": "message",
        "role": "assistant",
        "model": a.model,
        "content": [block(a)],
        "stop_reason": stop_reason(a),
        "stop_sequence": null,
        "usage": usage(a),
    });
    json_response(StatusCode::OK, &body, delivery)
}

pub fn events(a: &Answer) -> Vec<SseEvent> {
    let mut start_usage = usage(a);
    start_usage["output_tokens"] = json!(1);
    let mut out = vec![
        SseEvent::named(
            "message_start",
            &json!({"type": "message_start", "message": {
                "id": id(a), "type": "message", "role": "assistant", "model": a.model,
                "content": [], "stop_reason": null, "stop_sequence": null, "usage": start_usage
            }}),
        ),
        SseEvent::named("ping", &json!({"type": "ping"})),
    ];
    let (start, deltas) = match &a.reply {
        Reply::Text(t) => (
            json!({"type": "text", "text": ""}),
            fragments(t, 16).into_iter().map(|f| json!({"type": "text_delta", "text": f})).collect::<Vec<_>>(),
        ),
        Reply::ToolCall { index, name, args } => (
            json!({"type": "tool_use", "id": call_id("toolu", *index), "name": name, "input": {}}),
            fragments(&args.to_string(), 24)
                .into_iter()
                .map(|f| json!({"type": "input_json_delta", "partial_json": f}))
                .collect(),
        ),
    };
    out.push(SseEvent::named(
        "content_block_start",
        &json!({"type": "content_block_start", "index": 0, "content_block": start}),
    ));
    for d in deltas {
        out.push(SseEvent::named(
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": 0, "delta": d}),
        ));
    }
    out.push(SseEvent::named("content_block_stop", &json!({"type": "content_block_stop", "index": 0})));
    out.push(SseEvent::named(
        "message_delta",
        &json!({"type": "message_delta",
            "delta": {"stop_reason": stop_reason(a), "stop_sequence": null},
            "usage": usage(a)}),
    ));
    out.push(SseEvent::named("message_stop", &json!({"type": "message_stop"})));
    out
}

pub fn error_body(err: &ApiError) -> Value {
    let (typ, message) = match err {
        ApiError::Unauthorized => ("authentication_error", "invalid x-api-key".to_string()),
        ApiError::ModelNotFound(m) => ("not_found_error", format!("model: {m}")),
        ApiError::RateLimited { .. } => (
            "rate_limit_error",
            "This request would exceed your organization's rate limit. Please try again later.".to_string(),
        ),
        ApiError::Server(529) => ("overloaded_error", "Overloaded".to_string()),
        ApiError::Server(_) => ("api_error", "Internal server error".to_string()),
        ApiError::BadRequest(m) => ("invalid_request_error", m.clone()),
    };
    json!({"type": "error", "error": {"type": typ, "message": message}})
}
