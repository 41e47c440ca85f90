//! The four wire APIs: reading a request into a [`Conversation`], rendering
//! a [`Reply`] as JSON or SSE, and rendering errors the way each API does.

pub mod anthropic;
pub mod gemini;
pub mod openai_chat;
pub mod responses;

use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::Value;

use crate::script::{Conversation, OfferedTool, Reply};
use crate::sse::{json_response, Delivery};

/// Which API a request speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    ChatCompletions,
    Responses,
    Anthropic,
    Gemini,
}

/// Deterministic token usage estimate (about 4 chars a token).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// All prompt tokens, cached ones included.
    pub input: u64,
    /// Of `input`, the tokens counted as read from the prompt cache.
    pub cached: u64,
    pub output: u64,
}

fn tokens(chars: usize) -> u64 {
    (chars as u64).div_ceil(4).max(1)
}

impl Usage {
    pub fn estimate(conv: &Conversation, reply: &Reply) -> Usage {
        let input = tokens(conv.prompt_chars);
        let cached = if conv.prefix_chars == 0 { 0 } else { (conv.prefix_chars as u64 / 4).min(input) };
        Usage { input, cached, output: tokens(reply.output_chars()) }
    }
}

/// Everything needed to render one successful answer.
#[derive(Debug, Clone)]
pub struct Answer {
    pub reply: Reply,
    pub usage: Usage,
    pub model: String,
    /// Per-server request sequence number, for response ids.
    pub seq: u64,
    /// Unix seconds.
    pub created: u64,
    pub stream: bool,
    /// Chat Completions `stream_options.include_usage`.
    pub include_usage: bool,
}

/// An error the server answers with, in the style of the API asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    #[error("invalid API key")]
    Unauthorized,
    #[error("model {0} not found")]
    ModelNotFound(String),
    #[error("rate limited")]
    RateLimited { retry_after_secs: u64 },
    #[error("server error {0}")]
    Server(u16),
    #[error("bad request: {0}")]
    BadRequest(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::ModelNotFound(_) => StatusCode::NOT_FOUND,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Server(s) => StatusCode::from_u16(*s).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
        }
    }
}

impl Api {
    /// Reads what the script needs from a request's path and body.
    pub fn conversation(self, path: &str, body: &Value) -> Conversation {
        match self {
            Api::ChatCompletions => openai_chat::conversation(body),
            Api::Responses => responses::conversation(body),
            Api::Anthropic => anthropic::conversation(body),
            Api::Gemini => gemini::conversation(path, body),
        }
    }

    pub fn render(self, a: &Answer, delivery: Delivery) -> Response {
        match self {
            Api::ChatCompletions => openai_chat::render(a, delivery),
            Api::Responses => responses::render(a, delivery),
            Api::Anthropic => anthropic::render(a, delivery),
            Api::Gemini => gemini::render(a, delivery),
        }
    }

    pub fn error(self, err: &ApiError) -> Response {
        let body = match self {
            Api::ChatCompletions | Api::Responses => openai_error(err),
            Api::Anthropic => anthropic::error_body(err),
            Api::Gemini => gemini::error_body(err),
        };
        let mut resp = json_response(err.status(), &body, Delivery::Normal);
        if let ApiError::RateLimited { retry_after_secs } = err {
            let v = HeaderValue::from(*retry_after_secs);
            resp.headers_mut().insert("retry-after", v.clone());
            if matches!(self, Api::ChatCompletions | Api::Responses) {
                resp.headers_mut().insert("x-ratelimit-reset-requests", v.clone());
            }
        }
        resp
    }
}

/// OpenAI's error body (shared by Chat Completions and Responses).
pub fn openai_error(err: &ApiError) -> Value {
    let (message, typ, code) = match err {
        ApiError::Unauthorized => (
            "Incorrect API key provided: ***. You can find your API key at https://platform.openai.com/account/api-keys.".to_string(),
            "invalid_request_error",
            Value::from("invalid_api_key"),
        ),
        ApiError::ModelNotFound(m) => (
            format!("The model `{m}` does not exist or you do not have access to it."),
            "invalid_request_error",
            Value::from("model_not_found"),
        ),
        ApiError::RateLimited { retry_after_secs } => (
            format!("Rate limit reached for requests. Please try again in {retry_after_secs}s."),
            "requests",
            Value::from("rate_limit_exceeded"),
        ),
        ApiError::Server(_) => (
            "The server had an error while processing your request. Sorry about that!".to_string(),
            "server_error",
            Value::Null,
        ),
        ApiError::BadRequest(m) => (m.clone(), "invalid_request_error", Value::Null),
    };
    serde_json::json!({
        "error": {"message": message, "type": typ, "param": null, "code": code}
    })
}

/// The call id used on the wire for the tool call of step `index`.
pub fn call_id(prefix: &str, index: usize) -> String {
    format!("{prefix}_{index}")
}

/// The elements of an optional JSON array: none when it is absent or not an array.
pub(crate) fn items(v: Option<&Value>) -> impl Iterator<Item = &Value> {
    v.and_then(Value::as_array).into_iter().flatten()
}

/// The tools a request offers, each named by `name` with its schema under `schema_key`;
/// with `wrapper`, a tool's definition may sit inside that key (OpenAI's `function`).
pub(crate) fn offered_tools(body: &Value, wrapper: Option<&str>, schema_key: &str) -> Vec<OfferedTool> {
    items(body.get("tools"))
        .filter_map(|t| {
            let f = wrapper.and_then(|w| t.get(w)).unwrap_or(t);
            Some(OfferedTool {
                name: f.get("name")?.as_str()?.to_string(),
                schema: f.get(schema_key).cloned().unwrap_or(Value::Null),
            })
        })
        .collect()
}
