//! OpenAI Chat Completions: `POST /v1/chat/completions`.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};

use super::{call_id, items, offered_tools, Answer};
use crate::script::{Conversation, Reply};
use crate::sse::{fragments, json_response, sse_response, Delivery, SseEvent};

pub fn conversation(body: &Value) -> Conversation {
    let mut c = Conversation::from_body(body);
    c.tools = offered_tools(body, Some("function"), "parameters");
    let messages = body.get("messages");
    c.tool_results =
        items(messages).filter(|m| matches!(m.get("role").and_then(Value::as_str), Some("tool" | "function"))).count();
    c.set_prefix_from(messages);
    c
}

fn usage(a: &Answer) -> Value {
    json!({
        "prompt_tokens": a.usage.input,
        "completion_tokens": a.usage.output,
        "total_tokens": a.usage.input + a.usage.output,
        "prompt_tokens_details": {"cached_tokens": a.usage.cached, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0}
    })
}

fn id(a: &Answer) -> String {
    format!("chatcmpl-{:06}", a.seq)
}

fn finish_reason(a: &Answer) -> &'static str {
    match a.reply {
        Reply::Text(_) => "stop",
        Reply::ToolCall { .. } => "tool_calls",
    }
}

pub fn render(a: &Answer, delivery: Delivery) -> Response {
    if a.stream {
        return sse_response(events(a), delivery);
    }
    let message = match &a.reply {
        Reply::Text(t) => json!({"role": "assistant", "content": t, "refusal": null}),
        Reply::ToolCall { index, name, args } => json!({
            "role": "assistant",
            "content": null,
            "refusal": null,
            "tool_calls": [{
                "id": call_id("call", *index),
                "type": "function",
                "function": {"name": name, "arguments": args.to_string()}
            }]
        }),
    };
    let body = json!({
        "id": id(a),
        "object": "chat.completion",
        "created": a.created,
        "model": a.model,
        "system_fingerprint": "fp_skillscope",
        "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish_reason(a)}],
        "usage": usage(a),
    });
    json_response(StatusCode::OK, &body, delivery)
}

/// The chunk stream: role, content or tool-call fragments, finish, usage, `[DONE]`.
pub fn events(a: &Answer) -> Vec<SseEvent> {
    let chunk = |delta: Value, finish: Value| {
        let mut c = json!({
            "id": id(a),
            "object": "chat.completion.chunk",
            "created": a.created,
            "model": a.model,
            "system_fingerprint": "fp_skillscope",
            "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}],
        });
        if a.include_usage {
            c["usage"] = Value::Null;
        }
        SseEvent::data(&c)
    };
    let mut out = vec![chunk(json!({"role": "assistant", "content": "", "refusal": null}), Value::Null)];
    match &a.reply {
        Reply::Text(t) => {
            for f in fragments(t, 16) {
                out.push(chunk(json!({"content": f}), Value::Null));
            }
        }
        Reply::ToolCall { index, name, args } => {
            out.push(chunk(
                json!({"tool_calls": [{
                    "index": 0,
                    "id": call_id("call", *index),
                    "type": "function",
                    "function": {"name": name, "arguments": ""}
                }]}),
                Value::Null,
            ));
            for f in fragments(&args.to_string(), 24) {
                out.push(chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": f}}]}), Value::Null));
            }
        }
    }
    out.push(chunk(json!({}), json!(finish_reason(a))));
    if a.include_usage {
        out.push(SseEvent::data(&json!({
            "id": id(a),
            "object": "chat.completion.chunk",
            "created": a.created,
            "model": a.model,
            "system_fingerprint": "fp_skillscope",
            "choices": [],
            "usage": usage(a),
        })));
    }
    out.push(SseEvent::raw("[DONE]"));
    out
}
