//! OpenAI Responses: `POST /v1/responses`.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};

use super::{call_id, items, offered_tools, Answer};
use crate::script::{Conversation, Reply};
use crate::sse::{fragments, json_response, sse_response, Delivery, SseEvent};

pub fn conversation(body: &Value) -> Conversation {
    let mut c = Conversation::from_body(body);
    c.tools = offered_tools(body, Some("function"), "parameters");
    let input = body.get("input");
    c.tool_results = items(input)
        .filter(|i| i.get("type").and_then(Value::as_str).is_some_and(|t| t.ends_with("_call_output")))
        .count();
    c.set_prefix_from(input);
    c
}

fn usage(a: &Answer) -> Value {
    json!({
        "input_tokens": a.usage.input,
        "input_tokens_details": {"cached_tokens": a.usage.cached},
        "output_tokens": a.usage.output,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": a.usage.input + a.usage.output,
    })
}

fn item(a: &Answer, done: bool) -> Value {
    let status = if done { "completed" } else { "in_progress" };
    match &a.reply {
        Reply::Text(t) => json!({
            "type": "message",
            "id": format!("msg_{:06}", a.seq),
            "status": status,
            "role": "assistant",
            "content": if done {
                json!([{"type": "output_text", "text": t, "annotations": []}])
            } else {
                json!([])
            },
        }),
        Reply::ToolCall { index, name, args } => json!({
            "type": "function_call",
            "id": format!("fc_{:06}", a.seq),
            "call_id": call_id("call", *index),
            "name": name,
            "arguments": if done { args.to_string() } else { String::new() },
            "status": status,
        }),
    }
}

fn response(a: &Answer, done: bool) -> Value {
    json!({
        "id": format!("resp_{:06}", a.seq),
        "object": "response",
        "created_at": a.created,
        "status": if done { "completed" } else { "in_progress" },
        "error": null,
        "incomplete_details": null,
        "model": a.model,
        "output": if done { json!([item(a, true)]) } else { json!([]) },
        "parallel_tool_calls": true,
        "tool_choice": "auto",
        "usage": if done { usage(a) } else { Value::Null },
    })
}

pub fn render(a: &Answer, delivery: Delivery) -> Response {
    if a.stream {
        return sse_response(events(a), delivery);
    }
    json_response(StatusCode::OK, &response(a, true), delivery)
}

pub fn events(a: &Answer) -> Vec<SseEvent> {
    let mut evs: Vec<(&str, Value)> = vec![
        ("response.created", json!({"response": response(a, false)})),
        ("response.in_progress", json!({"response": response(a, false)})),
        ("response.output_item.added", json!({"output_index": 0, "item": item(a, false)})),
    ];
    let item_id = item(a, false)["id"].clone();
    match &a.reply {
        Reply::Text(t) => {
            let part = |text: &str| json!({"type": "output_text", "text": text, "annotations": []});
            let at = json!({"item_id": item_id, "output_index": 0, "content_index": 0});
            let with = |extra: Value| {
                let mut v = at.clone();
                if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
                    o.extend(e.clone());
                }
                v
            };
            evs.push(("response.content_part.added", with(json!({"part": part("")}))));
            for f in fragments(t, 16) {
                evs.push(("response.output_text.delta", with(json!({"delta": f}))));
            }
            evs.push(("response.output_text.done", with(json!({"text": t}))));
            evs.push(("response.content_part.done", with(json!({"part": part(t)}))));
        }
        Reply::ToolCall { args, .. } => {
            let text = args.to_string();
            for f in fragments(&text, 24) {
                evs.push((
                    "response.function_call_arguments.delta",
                    json!({"item_id": item_id, "output_index": 0, "delta": f}),
                ));
            }
            evs.push((
                "response.function_call_arguments.done",
                json!({"item_id": item_id, "output_index": 0, "arguments": text}),
            ));
        }
    }
    evs.push(("response.output_item.done", json!({"output_index": 0, "item": item(a, true)})));
    evs.push(("response.completed", json!({"response": response(a, true)})));
    evs.into_iter()
        .enumerate()
        .map(|(i, (name, mut data))| {
            data["type"] = json!(name);
            data["sequence_number"] = json!(i);
            SseEvent::named(name, &data)
        })
        .collect()
}
