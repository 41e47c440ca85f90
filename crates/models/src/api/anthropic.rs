//! Anthropic Messages (`/v1/messages`).

use super::{
    answering_model, error_from_body, event_kind, id_and_name, malformed, non_empty, parse_arguments, parse_json, Ctx,
};
use crate::error::ModelError;
use crate::sse::SseEvent;
use crate::types::{ChatRequest, ChatResponse, Message, ToolCall, Usage};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Sent when the request sets no limit: Anthropic requires one.
pub(crate) const DEFAULT_MAX_TOKENS: u32 = 8192;

pub(crate) fn build_request(req: &ChatRequest, stream: bool) -> Value {
    // Anthropic wants user and assistant turns to alternate: consecutive messages of one role
    // (several tool results, or tool results then a user text) become one message.
    let mut messages: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for m in &req.messages {
        let (role, blocks): (&'static str, Vec<Value>) = match m {
            Message::User { text } => {
                ("user", if text.is_empty() { vec![] } else { vec![json!({"type": "text", "text": text})] })
            }
            Message::Assistant { text, tool_calls } => {
                let mut blocks = Vec::new();
                if let Some(t) = text.as_ref().filter(|t| !t.is_empty()) {
                    blocks.push(json!({"type": "text", "text": t}));
                }
                for c in tool_calls {
                    let input = match &c.arguments {
                        Value::Object(_) => c.arguments.clone(),
                        Value::String(raw) => json!({"_invalid_arguments": raw}),
                        other => json!({"_arguments": other}),
                    };
                    blocks.push(json!({"type": "tool_use", "id": c.id, "name": c.name, "input": input}));
                }
                ("assistant", blocks)
            }
            Message::ToolResult { call_id, content, is_error } => {
                let mut b = json!({"type": "tool_result", "tool_use_id": call_id, "content": content});
                if *is_error {
                    b["is_error"] = json!(true);
                }
                ("user", vec![b])
            }
        };
        if blocks.is_empty() {
            continue;
        }
        match messages.last_mut() {
            Some((last_role, last_blocks)) if *last_role == role => last_blocks.extend(blocks),
            _ => messages.push((role, blocks)),
        }
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(req.model));
    body.insert("max_tokens".into(), json!(req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS)));
    if !req.system.is_empty() {
        body.insert("system".into(), json!(req.system));
    }
    body.insert(
        "messages".into(),
        Value::Array(messages.into_iter().map(|(role, content)| json!({"role": role, "content": content})).collect()),
    );
    if !req.tools.is_empty() {
        body.insert(
            "tools".into(),
            Value::Array(
                req.tools
                    .iter()
                    .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
                    .collect(),
            ),
        );
    }
    if let Some(t) = req.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if stream {
        body.insert("stream".into(), json!(true));
    }
    Value::Object(body)
}

/// Anthropic counts cache reads and writes apart from `input_tokens`; ours includes them.
fn read_usage(u: &Value, usage: &mut Usage, output: &mut u64) {
    let get = |k: &str| u.get(k).and_then(Value::as_u64);
    if get("input_tokens").is_some() || get("cache_read_input_tokens").is_some() {
        let read = get("cache_read_input_tokens").unwrap_or(0);
        usage.input_tokens = get("input_tokens").unwrap_or(0) + read + get("cache_creation_input_tokens").unwrap_or(0);
        usage.cached_tokens = read;
    }
    if let Some(o) = get("output_tokens") {
        *output = o;
    }
}

pub(crate) fn parse_response(ctx: &Ctx, v: &Value) -> Result<ChatResponse, ModelError> {
    let content =
        v.get("content").and_then(Value::as_array).ok_or_else(|| malformed(ctx, "no content array in the message"))?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for (i, block) in content.iter().enumerate() {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(block.get("text").and_then(Value::as_str).unwrap_or("")),
            Some("tool_use") => {
                let (id, name) = id_and_name(ctx, block, "id", || format!("tool_use block {i} lacks an id or a name"))?;
                tool_calls.push(ToolCall {
                    id: id.to_string(),
                    name: name.to_string(),
                    arguments: block.get("input").cloned().unwrap_or_else(|| json!({})),
                });
            }
            _ => {} // thinking and other blocks are not part of the answer
        }
    }
    let mut usage = Usage::default();
    if let Some(u) = v.get("usage") {
        let mut output = 0;
        read_usage(u, &mut usage, &mut output);
        usage.output_tokens = output;
    }
    Ok(ChatResponse {
        text: non_empty(text),
        tool_calls,
        usage,
        stop_reason: v.get("stop_reason").and_then(Value::as_str).unwrap_or("").to_string(),
        model: answering_model(ctx, v),
        attempts: 1,
    })
}

#[derive(Debug)]
enum Block {
    Text,
    Tool { id: String, name: String, start_input: Value, json: String },
    Other,
}

#[derive(Debug, Default)]
pub(crate) struct StreamState {
    text: String,
    blocks: BTreeMap<u64, Block>,
    usage: Usage,
    output_tokens: u64,
    stop_reason: Option<String>,
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
        if ev.data.trim().is_empty() {
            return Ok(false);
        }
        let v = parse_json(ctx, &ev.data, "stream")?;
        let kind = event_kind(&v, ev);
        match kind {
            "message_start" => {
                let m = v.get("message").unwrap_or(&Value::Null);
                if let Some(model) = m.get("model").and_then(Value::as_str) {
                    self.model = Some(model.to_string());
                }
                if let Some(u) = m.get("usage") {
                    read_usage(u, &mut self.usage, &mut self.output_tokens);
                }
            }
            "content_block_start" => {
                let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
                let cb = v.get("content_block").unwrap_or(&Value::Null);
                let block = match cb.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        if let Some(t) = cb.get("text").and_then(Value::as_str).filter(|t| !t.is_empty()) {
                            self.text.push_str(t);
                            on_text(t);
                        }
                        Block::Text
                    }
                    Some("tool_use") => Block::Tool {
                        id: cb.get("id").and_then(Value::as_str).unwrap_or("").to_string(),
                        name: cb.get("name").and_then(Value::as_str).unwrap_or("").to_string(),
                        start_input: cb.get("input").cloned().unwrap_or(Value::Null),
                        json: String::new(),
                    },
                    _ => Block::Other,
                };
                self.blocks.insert(index, block);
            }
            "content_block_delta" => {
                let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
                let delta = v.get("delta").unwrap_or(&Value::Null);
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        if let Some(t) = delta.get("text").and_then(Value::as_str) {
                            self.text.push_str(t);
                            on_text(t);
                        }
                    }
                    Some("input_json_delta") => match self.blocks.get_mut(&index) {
                        Some(Block::Tool { json, .. }) => {
                            json.push_str(delta.get("partial_json").and_then(Value::as_str).unwrap_or(""))
                        }
                        _ => {
                            return Err(malformed(
                                ctx,
                                format!("input_json_delta for block {index}, which is not a tool_use block"),
                            ))
                        }
                    },
                    _ => {} // thinking, signatures, citations
                }
            }
            "message_delta" => {
                if let Some(r) = v.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(r.to_string());
                }
                if let Some(u) = v.get("usage") {
                    read_usage(u, &mut self.usage, &mut self.output_tokens);
                }
            }
            "message_stop" => {
                self.done = true;
                return Ok(true);
            }
            "error" => return Err(error_from_body(ctx, None, &v)),
            _ => {} // ping, content_block_stop
        }
        Ok(false)
    }

    pub(crate) fn finish(self, ctx: &Ctx) -> Result<ChatResponse, ModelError> {
        if !self.done {
            return Err(ModelError::StreamCut);
        }
        let mut tool_calls = Vec::new();
        for (index, b) in self.blocks {
            if let Block::Tool { id, name, start_input, json } = b {
                if id.is_empty() || name.is_empty() {
                    return Err(malformed(ctx, format!("tool_use block {index} lacks an id or a name")));
                }
                let arguments = if json.trim().is_empty() && start_input.is_object() {
                    start_input
                } else {
                    parse_arguments(&json)
                };
                tool_calls.push(ToolCall { id, name, arguments });
            }
        }
        let mut usage = self.usage;
        usage.output_tokens = self.output_tokens;
        Ok(ChatResponse {
            text: non_empty(self.text),
            tool_calls,
            usage,
            stop_reason: self.stop_reason.unwrap_or_default(),
            model: self.model.unwrap_or_else(|| ctx.model.to_string()),
            attempts: 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_roles_are_merged_and_results_come_first() {
        let req = ChatRequest {
            model: "claude".into(),
            system: String::new(),
            messages: vec![
                Message::user("go"),
                Message::Assistant {
                    text: Some("running".into()),
                    tool_calls: vec![
                        ToolCall { id: "a".into(), name: "bash".into(), arguments: json!({"command": "ls"}) },
                        ToolCall { id: "b".into(), name: "bash".into(), arguments: json!("{bad") },
                    ],
                },
                Message::ToolResult { call_id: "a".into(), content: "ok".into(), is_error: false },
                Message::ToolResult { call_id: "b".into(), content: "bad".into(), is_error: true },
                Message::user("and now?"),
            ],
            tools: vec![],
            temperature: None,
            max_tokens: None,
        };
        let v = build_request(&req, false);
        assert_eq!(v["max_tokens"], json!(DEFAULT_MAX_TOKENS));
        assert!(v.get("system").is_none() && v.get("tools").is_none() && v.get("stream").is_none());
        let msgs = v["messages"].as_array().unwrap();
        assert_eq!(msgs.len(), 3);
        assert_eq!(msgs[1]["content"][2]["input"], json!({"_invalid_arguments": "{bad"}));
        let last = msgs[2]["content"].as_array().unwrap();
        assert_eq!(last.len(), 3);
        assert_eq!(last[0], json!({"type": "tool_result", "tool_use_id": "a", "content": "ok"}));
        assert_eq!(last[1]["is_error"], json!(true));
        assert_eq!(last[2], json!({"type": "text", "text": "and now?"}));
    }

    #[test]
    fn usage_counts_cache_reads_and_writes_as_input() {
        let ctx = Ctx { provider: "anthropic", model: "m", openai_hosted: false };
        let v = json!({
            "content": [{"type": "text", "text": "hi"}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": 10, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 5, "output_tokens": 7}
        });
        let r = parse_response(&ctx, &v).unwrap();
        assert_eq!(r.usage, Usage { input_tokens: 115, cached_tokens: 100, output_tokens: 7 });
        assert_eq!(r.text.as_deref(), Some("hi"));
        assert_eq!(r.model, "m");
    }
}
