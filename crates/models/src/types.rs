//! Provider-neutral request and response types.

use serde::{Deserialize, Serialize};

/// One model call: the whole conversation so far, the tools on offer and the sampling limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    pub model: String,
    /// System prompt; empty means none.
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolDef>,
    pub temperature: Option<f32>,
    /// Output token limit. Anthropic requires one: 8192 is sent when this is `None`.
    pub max_tokens: Option<u32>,
}

impl ChatRequest {
    /// A request with no system prompt, no tools and the provider's sampling defaults.
    pub fn new(model: impl Into<String>, messages: Vec<Message>) -> Self {
        ChatRequest {
            model: model.into(),
            system: String::new(),
            messages,
            tools: Vec::new(),
            temperature: None,
            max_tokens: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    User { text: String },
    Assistant { text: Option<String>, tool_calls: Vec<ToolCall> },
    ToolResult { call_id: String, content: String, is_error: bool },
}

impl Message {
    pub fn user(text: impl Into<String>) -> Self {
        Message::User { text: text.into() }
    }
}

/// A tool call made by the model. `arguments` is the parsed JSON object; when the model wrote
/// arguments that are not valid JSON they are kept verbatim as a JSON string, so that the agent
/// can tell the model (it is the model's mistake, not the provider's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: serde_json::Value,
}

impl ToolCall {
    /// The arguments as the JSON text sent back to OpenAI-style APIs.
    pub(crate) fn arguments_text(&self) -> String {
        match &self.arguments {
            serde_json::Value::String(raw) => raw.clone(),
            other => other.to_string(),
        }
    }
}

/// A tool offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments object.
    pub parameters: serde_json::Value,
}

/// Token counts of one call. `input_tokens` counts every prompt token, including those read from
/// the provider's prompt cache; `cached_tokens` is the part of them that was read from the cache.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub cached_tokens: u64,
    pub output_tokens: u64,
}

impl Usage {
    pub fn add(&mut self, other: &Usage) {
        self.input_tokens += other.input_tokens;
        self.cached_tokens += other.cached_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// The assembled answer of one call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    pub text: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    /// The provider's own stop reason (`stop`, `tool_calls`, `length`, `end_turn`, `tool_use`,
    /// `max_tokens`, `completed`, ...).
    pub stop_reason: String,
    /// The model that answered, as the provider names it (falls back to the requested model).
    pub model: String,
    /// Attempts made, 1 when the first one succeeded.
    pub attempts: u32,
}
