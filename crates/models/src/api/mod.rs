//! The four wire protocols: each builds its request JSON from a [`ChatRequest`], parses a
//! non-streamed response, and folds streamed events into a [`ChatResponse`].

pub(crate) mod anthropic;
pub(crate) mod gemini;
pub(crate) mod openai_chat;
pub(crate) mod responses;

use crate::config::ApiKind;
use crate::error::ModelError;
use crate::sse::SseEvent;
use crate::types::{ChatRequest, ChatResponse, Usage};
use serde_json::Value;

/// What every message about a call needs: who was asked, for which model.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx<'a> {
    pub provider: &'a str,
    pub model: &'a str,
    /// The provider is OpenAI's own API (which wants `max_completion_tokens`).
    pub openai_hosted: bool,
}

pub(crate) fn build_request(api: ApiKind, ctx: &Ctx, req: &ChatRequest, stream: bool) -> Value {
    match api {
        ApiKind::OpenAiChat => openai_chat::build_request(ctx, req, stream),
        ApiKind::OpenAiResponses => responses::build_request(req, stream),
        ApiKind::Anthropic => anthropic::build_request(req, stream),
        ApiKind::Gemini => gemini::build_request(req),
    }
}

/// Reads a provider's whole (not streamed) answer as the client does: for checking a body by
/// hand, and for the fuzzer.
pub fn parse_answer(api: ApiKind, body: &str) -> Result<ChatResponse, ModelError> {
    parse_response(api, &Ctx { provider: "provider", model: "model", openai_hosted: false }, body)
}

pub(crate) fn parse_response(api: ApiKind, ctx: &Ctx, body: &str) -> Result<ChatResponse, ModelError> {
    let v = parse_json(ctx, body, "response")?;
    if v.get("error").is_some_and(|e| !e.is_null()) && v.get("choices").is_none() {
        return Err(error_from_body(ctx, None, &v));
    }
    match api {
        ApiKind::OpenAiChat => openai_chat::parse_response(ctx, &v),
        ApiKind::OpenAiResponses => responses::parse_response(ctx, &v),
        ApiKind::Anthropic => anthropic::parse_response(ctx, &v),
        ApiKind::Gemini => gemini::parse_response(ctx, &v),
    }
}

/// The state of one streamed answer being assembled.
pub(crate) enum Fold {
    Chat(openai_chat::StreamState),
    Responses(responses::StreamState),
    Anthropic(anthropic::StreamState),
    Gemini(gemini::StreamState),
}

impl Fold {
    pub(crate) fn new(api: ApiKind) -> Self {
        match api {
            ApiKind::OpenAiChat => Fold::Chat(Default::default()),
            ApiKind::OpenAiResponses => Fold::Responses(Default::default()),
            ApiKind::Anthropic => Fold::Anthropic(Default::default()),
            ApiKind::Gemini => Fold::Gemini(Default::default()),
        }
    }

    /// Takes one event; `Ok(true)` when it was the provider's end marker.
    pub(crate) fn event(
        &mut self,
        ctx: &Ctx,
        ev: &SseEvent,
        on_text: &mut (dyn FnMut(&str) + Send),
    ) -> Result<bool, ModelError> {
        match self {
            Fold::Chat(s) => s.event(ctx, ev, on_text),
            Fold::Responses(s) => s.event(ctx, ev, on_text),
            Fold::Anthropic(s) => s.event(ctx, ev, on_text),
            Fold::Gemini(s) => s.event(ctx, ev, on_text),
        }
    }

    /// The assembled answer once the byte stream has ended; `StreamCut` when the end marker
    /// never came.
    pub(crate) fn finish(self, ctx: &Ctx) -> Result<ChatResponse, ModelError> {
        match self {
            Fold::Chat(s) => s.finish(ctx),
            Fold::Responses(s) => s.finish(ctx),
            Fold::Anthropic(s) => s.finish(ctx),
            Fold::Gemini(s) => s.finish(ctx),
        }
    }
}

/// Parses JSON from the provider, or says clearly that it was not JSON.
pub(crate) fn parse_json(ctx: &Ctx, text: &str, what: &str) -> Result<Value, ModelError> {
    serde_json::from_str(text).map_err(|e| {
        ModelError::Malformed(format!(
            "{} sent malformed JSON in its {what} for model {:?}: {e} (received: {})",
            ctx.provider,
            ctx.model,
            head_and_tail(text)
        ))
    })
}

/// A missing or mistyped field in otherwise valid JSON.
pub(crate) fn malformed(ctx: &Ctx, detail: impl std::fmt::Display) -> ModelError {
    ModelError::Malformed(format!(
        "{} sent a response for model {:?} that does not follow its API: {detail}",
        ctx.provider, ctx.model
    ))
}

/// Tool-call arguments as sent by the model: parsed JSON, `{}` when empty, the raw text as a JSON
/// string when the model wrote invalid JSON.
pub(crate) fn parse_arguments(raw: &str) -> Value {
    if raw.trim().is_empty() {
        return Value::Object(Default::default());
    }
    match serde_json::from_str(raw) {
        Ok(v) => v,
        Err(e) => {
            tracing::warn!(error = %e, "model wrote tool-call arguments that are not valid JSON");
            Value::String(raw.to_string())
        }
    }
}

/// Token counts from a usage object, by the names its API gives them (0 when absent).
pub(crate) fn usage_from(u: &Value, input: &str, cached_pointer: &str, output: &str) -> Usage {
    let count = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0);
    Usage {
        input_tokens: count(u.get(input)),
        cached_tokens: count(u.pointer(cached_pointer)),
        output_tokens: count(u.get(output)),
    }
}

/// `Some` unless the text is empty.
pub(crate) fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// The model the provider says answered, else the one asked.
pub(crate) fn answering_model(ctx: &Ctx, v: &Value) -> String {
    v.get("model").and_then(Value::as_str).unwrap_or(ctx.model).to_string()
}

/// A streamed event's kind: its JSON `type`, else its SSE `event:` name.
pub(crate) fn event_kind<'a>(v: &'a Value, ev: &'a SseEvent) -> &'a str {
    v.get("type").and_then(Value::as_str).or(ev.event.as_deref()).unwrap_or("")
}

/// A tool call's id (under `id_key`) and name, or a malformed-response error saying `missing`.
pub(crate) fn id_and_name<'a>(
    ctx: &Ctx,
    v: &'a Value,
    id_key: &str,
    missing: impl FnOnce() -> String,
) -> Result<(&'a str, &'a str), ModelError> {
    let id = v.get(id_key).and_then(Value::as_str);
    let name = v.get("name").and_then(Value::as_str);
    match (id, name) {
        (Some(id), Some(name)) => Ok((id, name)),
        _ => Err(malformed(ctx, missing())),
    }
}

/// The start and the end of a long text (a broken JSON document is often broken at its end).
fn head_and_tail(text: &str) -> String {
    let t = text.trim();
    let n = t.chars().count();
    if n <= 240 {
        return t.to_string();
    }
    let head: String = t.chars().take(160).collect();
    let tail: String = t.chars().skip(n - 60).collect();
    format!("{head} … {tail}")
}

pub(crate) fn excerpt(text: &str, max_chars: usize) -> String {
    let t = text.trim();
    if t.chars().count() <= max_chars {
        t.to_string()
    } else {
        let cut: String = t.chars().take(max_chars).collect();
        format!("{cut}…")
    }
}

/// The human message inside an error body (`{"error":{"message":..}}`, `{"message":..}`,
/// `{"detail":..}`), or an excerpt of the body.
pub(crate) fn error_message(body: &str) -> String {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        if let Some(m) = message_in(&v) {
            return excerpt(&m, 500);
        }
    }
    if body.trim().is_empty() {
        "(empty body)".to_string()
    } else {
        excerpt(body, 300)
    }
}

fn message_in(v: &Value) -> Option<String> {
    let err = v.get("error").unwrap_or(v);
    if let Some(s) = err.as_str() {
        return Some(s.to_string());
    }
    for key in ["message", "detail"] {
        match err.get(key) {
            Some(Value::String(s)) => return Some(s.clone()),
            Some(other) if !other.is_null() => return Some(other.to_string()),
            _ => {}
        }
    }
    None
}

/// An error reported inside a 200 response or a stream (`{"error":{"type":..,"message":..}}`).
pub(crate) fn error_from_body(ctx: &Ctx, status: Option<u16>, v: &Value) -> ModelError {
    let err = v.get("error").unwrap_or(v);
    let kind = err.get("type").or_else(|| err.get("code")).and_then(Value::as_str).unwrap_or("").to_string();
    let message = message_in(v).unwrap_or_else(|| excerpt(&v.to_string(), 300));
    let status = status.unwrap_or(match kind.as_str() {
        "rate_limit_exceeded" | "rate_limit_error" => 429,
        "overloaded_error" => 529,
        "invalid_request_error" | "invalid_request" => 400,
        "authentication_error" => 401,
        "permission_error" => 403,
        "not_found_error" | "model_not_found" => 404,
        _ => 500,
    });
    match status {
        429 => ModelError::RateLimited { retry_after: None },
        401 | 403 => ModelError::Unauthorized {
            status,
            message: format!("the API key was rejected by {} (HTTP {status}): {message}", ctx.provider),
        },
        404 => ModelError::UnknownModel {
            model: ctx.model.to_string(),
            message: format!("{} does not know the model {:?} (HTTP 404): {message}", ctx.provider, ctx.model),
        },
        _ => ModelError::Server {
            status,
            message: format!(
                "{} reported an error{} during the response for model {:?}: {message}",
                ctx.provider,
                if kind.is_empty() { String::new() } else { format!(" ({kind})") },
                ctx.model
            ),
        },
    }
}
