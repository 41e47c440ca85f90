//! Google's Generative Language API: `POST /v1beta/models/{model}:generateContent`,
//! `:streamGenerateContent?alt=sse` (each event a partial response) and `:countTokens`. The model
//! and whether to stream are in the path, not the body.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};

use super::{call_id, items, Answer, ApiError};
use crate::script::{Conversation, OfferedTool, Reply};
use crate::sse::{fragments, json_response, sse_response, Delivery, SseEvent};

/// What a request path asks: `…/models/{model}:{action}`.
pub fn model_and_action(path: &str) -> Option<(&str, &str)> {
    path.rsplit('/').next()?.split_once(':')
}

pub fn conversation(path: &str, body: &Value) -> Conversation {
    let mut c = Conversation::from_body(body);
    let (model, action) = model_and_action(path).unwrap_or_default();
    c.model = model.to_string();
    c.stream = action == "streamGenerateContent";
    c.tools = items(body.get("tools"))
        .flat_map(|t| items(t.get("functionDeclarations")))
        .filter_map(|f| {
            let schema = f.get("parametersJsonSchema").or_else(|| f.get("parameters"));
            Some(OfferedTool {
                name: f.get("name")?.as_str()?.to_string(),
                schema: schema.cloned().unwrap_or_default(),
            })
        })
        .collect();
    let contents = body.get("contents");
    c.tool_results =
        items(contents).flat_map(|m| items(m.get("parts"))).filter(|p| p.get("functionResponse").is_some()).count();
    c.set_prefix_from(contents);
    c
}

/// Gemini counts cached tokens inside the prompt's.
fn usage(a: &Answer) -> Value {
    json!({
        "promptTokenCount": a.usage.input,
        "cachedContentTokenCount": a.usage.cached,
        "candidatesTokenCount": a.usage.output,
        "totalTokenCount": a.usage.input + a.usage.output,
    })
}

/// One (partial) response with `parts`; the last one carries the finish reason and usage.
fn response(a: &Answer, parts: Vec<Value>, last: bool) -> Value {
    let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
    let mut r = json!({"modelVersion": a.model, "responseId": format!("resp_{:06}", a.seq)});
    if last {
        candidate["finishReason"] = json!("STOP");
        r["usageMetadata"] = usage(a);
    }
    r["candidates"] = json!([candidate]);
    r
}

fn call_part(index: usize, name: &str, args: &Value) -> Value {
    json!({"functionCall": {"id": call_id("call", index), "name": name, "args": args}})
}

pub fn render(a: &Answer, delivery: Delivery) -> Response {
    if a.stream {
        return sse_response(events(a), delivery);
    }
    let part = match &a.reply {
        Reply::Text(t) => json!({"text": t}),
        Reply::ToolCall { index, name, args } => call_part(*index, name, args),
    };
    json_response(StatusCode::OK, &response(a, vec![part], true), delivery)
}

/// Text in fragments (a function call whole, as Gemini sends it), the last with the usage.
pub fn events(a: &Answer) -> Vec<SseEvent> {
    let parts: Vec<Value> = match &a.reply {
        Reply::Text(t) => fragments(t, 16).into_iter().map(|f| json!({"text": f})).collect(),
        Reply::ToolCall { index, name, args } => vec![call_part(*index, name, args)],
    };
    let n = parts.len();
    parts.into_iter().enumerate().map(|(i, p)| SseEvent::data(&response(a, vec![p], i + 1 == n))).collect()
}

/// `:countTokens`: the same estimate as usage.
pub fn count_tokens(conv: &Conversation) -> Value {
    json!({"totalTokens": (conv.prompt_chars as u64).div_ceil(4).max(1)})
}

/// Google's error body.
pub fn error_body(err: &ApiError) -> Value {
    let (status, message) = match err {
        ApiError::Unauthorized => ("UNAUTHENTICATED", "API key not valid. Please pass a valid API key.".to_string()),
        ApiError::ModelNotFound(m) => ("NOT_FOUND", format!("models/{m} is not found for API version v1beta")),
        ApiError::RateLimited { .. } => {
            ("RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).".into())
        }
        ApiError::Server(_) => ("INTERNAL", "An internal error has occurred.".to_string()),
        ApiError::BadRequest(m) => ("INVALID_ARGUMENT", m.clone()),
    };
    json!({"error": {"code": err.status().as_u16(), "message": message, "status": status}})
}
