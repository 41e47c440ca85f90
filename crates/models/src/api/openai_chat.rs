//! OpenAI Chat Completions (`/v1/chat/completions`).

use super::{answering_model, error_from_body, malformed, non_empty, parse_arguments, parse_json, usage_from, Ctx};
use crate::error::ModelError;
use crate::sse::SseEvent;
use crate::types::{ChatRequest, ChatResponse, Message, ToolCall, Usage};
use serde_json::{json, Map, Value};

pub(crate) fn build_request(ctx: &Ctx, req: &ChatRequest, stream: bool) -> Value {
    let mut messages = Vec::new();
    if !req.system.is_empty() {
        messages.push(json!({"role": "system", "content": req.system}));
    }
    for m in &req.messages {
        messages.push(match m {
            Message::User { text } => json!({"role": "user", "content": text}),
            Message::Assistant { text, tool_calls } => {
                let mut o = Map::new();
                o.insert("role".into(), json!("assistant"));
                o.insert("content".into(), text.as_ref().map_or(Value::Null, |t| json!(t)));
                if !tool_calls.is_empty() {
                    let calls: Vec<Value> = tool_calls
                        .iter()
                        .map(|c| {
                            json!({
                                "id": c.id,
                                "type": "function",
                                "function": {"name": c.name, "arguments": c.arguments_text()},
                            })
                        })
                        .collect();
                    o.insert("tool_calls".into(), Value::Array(calls));
                }
                Value::Object(o)
            }
            Message::ToolResult { call_id, content, is_error } => json!({
                "role": "tool",
                "tool_call_id": call_id,
                // Chat Completions has no error flag on tool results: say it in the content.
                "content": if *is_error { format!("ERROR: {content}") } else { content.clone() },
            }),
        });
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(req.model));
    body.insert("messages".into(), Value::Array(messages));
    if !req.tools.is_empty() {
        let tools: Vec<Value> = req
            .tools
            .iter()
            .map(|t| {
                json!({
                    "type": "function",
                    "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
                })
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    if let Some(t) = req.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(n) = req.max_tokens {
        // OpenAI's newer models refuse `max_tokens`; many compatible servers know only it.
        let key = if ctx.openai_hosted { "max_completion_tokens" } else { "max_tokens" };
        body.insert(key.into(), json!(n));
    }
    if stream {
        body.insert("stream".into(), json!(true));
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    Value::Object(body)
}

fn parse_usage(v: &Value) -> Usage {
    usage_from(v, "prompt_tokens", "/prompt_tokens_details/cached_tokens", "completion_tokens")
}

pub(crate) fn parse_response(ctx: &Ctx, v: &Value) -> Result<ChatResponse, ModelError> {
    let choice = v.pointer("/choices/0").ok_or_else(|| malformed(ctx, "no choices[0] in the response"))?;
    let message = choice.get("message").ok_or_else(|| malformed(ctx, "no message in choices[0]"))?;
    let text = message.get("content").and_then(Value::as_str).map(str::to_string).and_then(non_empty);
    let mut tool_calls = Vec::new();
    if let Some(calls) = message.get("tool_calls").and_then(Value::as_array) {
        for (i, c) in calls.iter().enumerate() {
            let name = c
                .pointer("/function/name")
                .and_then(Value::as_str)
                .ok_or_else(|| malformed(ctx, format!("tool_calls[{i}] has no function name")))?;
            let raw = match c.pointer("/function/arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            tool_calls.push(ToolCall {
                id: c.get("id").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| format!("call_{i}")),
                name: name.to_string(),
                arguments: parse_arguments(&raw),
            });
        }
    }
    Ok(ChatResponse {
        text,
        tool_calls,
        usage: v.get("usage").map(parse_usage).unwrap_or_default(),
        stop_reason: choice.get("finish_reason").and_then(Value::as_str).unwrap_or("").to_string(),
        model: answering_model(ctx, v),
        attempts: 1,
    })
}

#[derive(Debug, Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

#[derive(Debug, Default)]
pub(crate) struct StreamState {
    text: String,
    /// By the `index` the stream gives them.
    calls: std::collections::BTreeMap<u64, PartialCall>,
    usage: Option<Usage>,
    finish_reason: Option<String>,
    model: Option<String>,
    done: bool,
}

impl StreamState {
    pub(crate) fn event(
        &mut self,
        ctx: &Ctx,
        ev: &SseEvent,
        on_text: &mut (dyn FnMut(&str) + Send),
    ) -> Result<bool, ModelError> {
        let data = ev.data.trim();
        if data == "[DONE]" {
            self.done = true;
            return Ok(true);
        }
        if data.is_empty() {
            return Ok(false);
        }
        let v = parse_json(ctx, data, "stream")?;
        if v.get("error").is_some_and(|e| !e.is_null()) {
            return Err(error_from_body(ctx, None, &v));
        }
        if let Some(m) = v.get("model").and_then(Value::as_str) {
            if !m.is_empty() {
                self.model = Some(m.to_string());
            }
        }
        if let Some(u) = v.get("usage").filter(|u| !u.is_null()) {
            self.usage = Some(parse_usage(u));
        }
        let Some(choices) = v.get("choices").and_then(Value::as_array) else {
            return Ok(false);
        };
        for choice in choices {
            if choice.get("index").and_then(Value::as_u64).unwrap_or(0) != 0 {
                continue;
            }
            if let Some(delta) = choice.get("delta") {
                if let Some(t) = delta.get("content").and_then(Value::as_str) {
                    if !t.is_empty() {
                        self.text.push_str(t);
                        on_text(t);
                    }
                }
                if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
                    for (pos, c) in calls.iter().enumerate() {
                        let index = c.get("index").and_then(Value::as_u64).unwrap_or(pos as u64);
                        let entry = self.calls.entry(index).or_default();
                        if let Some(id) = c.get("id").and_then(Value::as_str) {
                            if !id.is_empty() {
                                entry.id = id.to_string();
                            }
                        }
                        if let Some(name) = c.pointer("/function/name").and_then(Value::as_str) {
                            entry.name.push_str(name);
                        }
                        match c.pointer("/function/arguments") {
                            Some(Value::String(s)) => entry.arguments.push_str(s),
                            Some(Value::Null) | None => {}
                            Some(other) => entry.arguments.push_str(&other.to_string()),
                        }
                    }
                }
            }
            if let Some(r) = choice.get("finish_reason").and_then(Value::as_str) {
                self.finish_reason = Some(r.to_string());
            }
        }
        Ok(false)
    }

    pub(crate) fn finish(self, ctx: &Ctx) -> Result<ChatResponse, ModelError> {
        // Some compatible servers omit `[DONE]`; a finish reason is as good an end marker.
        if !self.done && self.finish_reason.is_none() {
            return Err(ModelError::StreamCut);
        }
        let mut tool_calls = Vec::new();
        for (index, c) in self.calls {
            if c.name.is_empty() {
                return Err(malformed(ctx, format!("streamed tool call {index} has no function name")));
            }
            tool_calls.push(ToolCall {
                id: if c.id.is_empty() { format!("call_{index}") } else { c.id },
                name: c.name,
                arguments: parse_arguments(&c.arguments),
            });
        }
        Ok(ChatResponse {
            text: non_empty(self.text),
            tool_calls,
            usage: self.usage.unwrap_or_default(),
            stop_reason: self.finish_reason.unwrap_or_default(),
            model: self.model.unwrap_or_else(|| ctx.model.to_string()),
            attempts: 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ToolDef;

    const CTX: Ctx = Ctx { provider: "p", model: "m", openai_hosted: false };

    #[test]
    fn request_shape() {
        let req = ChatRequest {
            model: "m".into(),
            system: "sys".into(),
            messages: vec![
                Message::user("hi"),
                Message::Assistant {
                    text: None,
                    tool_calls: vec![ToolCall {
                        id: "c1".into(),
                        name: "bash".into(),
                        arguments: json!({"command": "ls"}),
                    }],
                },
                Message::ToolResult { call_id: "c1".into(), content: "boom".into(), is_error: true },
            ],
            tools: vec![ToolDef {
                name: "bash".into(),
                description: "run".into(),
                parameters: json!({"type": "object"}),
            }],
            temperature: Some(0.5),
            max_tokens: Some(100),
        };
        let v = build_request(&CTX, &req, true);
        assert_eq!(v["messages"][0], json!({"role": "system", "content": "sys"}));
        assert_eq!(v["messages"][2]["content"], Value::Null);
        assert_eq!(v["messages"][2]["tool_calls"][0]["function"]["arguments"], json!("{\"command\":\"ls\"}"));
        assert_eq!(v["messages"][3], json!({"role": "tool", "tool_call_id": "c1", "content": "ERROR: boom"}));
        assert_eq!(v["tools"][0]["function"]["name"], json!("bash"));
        assert_eq!(v["max_tokens"], json!(100));
        assert_eq!(v["stream_options"]["include_usage"], json!(true));
        let hosted = Ctx { openai_hosted: true, ..CTX };
        let v = build_request(&hosted, &req, false);
        assert_eq!(v["max_completion_tokens"], json!(100));
        assert!(v.get("stream").is_none());
    }

    #[test]
    fn stream_without_end_marker_is_cut() {
        let mut s = StreamState::default();
        let ev = SseEvent { event: None, data: r#"{"choices":[{"index":0,"delta":{"content":"Hel"}}]}"#.into() };
        let mut seen = String::new();
        s.event(&CTX, &ev, &mut |t: &str| seen.push_str(t)).unwrap();
        assert_eq!(seen, "Hel");
        assert_eq!(s.finish(&CTX), Err(ModelError::StreamCut));
    }
}
