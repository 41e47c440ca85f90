//! OpenAI Responses (`/v1/responses`).

use super::{
    answering_model, error_from_body, event_kind, id_and_name, malformed, non_empty, parse_arguments, parse_json,
    usage_from, Ctx,
};
use crate::error::ModelError;
use crate::sse::SseEvent;
use crate::types::{ChatRequest, ChatResponse, Message, ToolCall, Usage};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

pub(crate) fn build_request(req: &ChatRequest, stream: bool) -> Value {
    let mut input = Vec::new();
    for m in &req.messages {
        match m {
            Message::User { text } => input.push(json!({"role": "user", "content": text})),
            Message::Assistant { text, tool_calls } => {
                if let Some(t) = text.as_ref().filter(|t| !t.is_empty()) {
                    input.push(json!({"role": "assistant", "content": t}));
                }
                for c in tool_calls {
                    input.push(json!({
                        "type": "function_call",
                        "call_id": c.id,
                        "name": c.name,
                        "arguments": c.arguments_text(),
                    }));
                }
            }
            Message::ToolResult { call_id, content, is_error } => input.push(json!({
                "type": "function_call_output",
                "call_id": call_id,
                "output": if *is_error { format!("ERROR: {content}") } else { content.clone() },
            })),
        }
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(req.model));
    if !req.system.is_empty() {
        body.insert("instructions".into(), json!(req.system));
    }
    body.insert("input".into(), Value::Array(input));
    if !req.tools.is_empty() {
        body.insert(
            "tools".into(),
            Value::Array(
                req.tools
                    .iter()
                    .map(|t| {
                        json!({
                            "type": "function",
                            "name": t.name,
                            "description": t.description,
                            "parameters": t.parameters,
                            // strict mode would demand closed schemas with every property required
                            "strict": false,
                        })
                    })
                    .collect(),
            ),
        );
    }
    if let Some(t) = req.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(n) = req.max_tokens {
        body.insert("max_output_tokens".into(), json!(n));
    }
    // The conversation is sent whole each time; nothing needs keeping on the provider's side.
    body.insert("store".into(), json!(false));
    if stream {
        body.insert("stream".into(), json!(true));
    }
    Value::Object(body)
}

fn parse_usage(u: &Value) -> Usage {
    usage_from(u, "input_tokens", "/input_tokens_details/cached_tokens", "output_tokens")
}

/// `completed`, `tool_calls` when the model called tools, or why the response is incomplete.
fn stop_reason(response: &Value, has_calls: bool) -> String {
    match response.get("status").and_then(Value::as_str) {
        Some("incomplete") => {
            response.pointer("/incomplete_details/reason").and_then(Value::as_str).unwrap_or("incomplete").to_string()
        }
        _ if has_calls => "tool_calls".to_string(),
        Some(s) => s.to_string(),
        None => "completed".to_string(),
    }
}

fn failed(ctx: &Ctx, response: &Value) -> ModelError {
    match response.get("error").filter(|e| !e.is_null()) {
        Some(e) => error_from_body(ctx, None, &json!({"error": normalise_error(e)})),
        None => malformed(ctx, "the response failed without saying why"),
    }
}

/// Responses errors carry `code` rather than `type`.
fn normalise_error(e: &Value) -> Value {
    json!({
        "type": e.get("code").or_else(|| e.get("type")).cloned().unwrap_or(Value::Null),
        "message": e.get("message").cloned().unwrap_or(Value::Null),
    })
}

pub(crate) fn parse_response(ctx: &Ctx, v: &Value) -> Result<ChatResponse, ModelError> {
    if v.get("status").and_then(Value::as_str) == Some("failed") {
        return Err(failed(ctx, v));
    }
    let output =
        v.get("output").and_then(Value::as_array).ok_or_else(|| malformed(ctx, "no output array in the response"))?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for (i, item) in output.iter().enumerate() {
        match item.get("type").and_then(Value::as_str) {
            Some("message") => {
                for part in item.get("content").and_then(Value::as_array).into_iter().flatten() {
                    match part.get("type").and_then(Value::as_str) {
                        Some("output_text") => text.push_str(part.get("text").and_then(Value::as_str).unwrap_or("")),
                        Some("refusal") => text.push_str(part.get("refusal").and_then(Value::as_str).unwrap_or("")),
                        _ => {}
                    }
                }
            }
            Some("function_call") => {
                let (call_id, name) = id_and_name(ctx, item, "call_id", || {
                    format!("function_call output {i} lacks a call_id or a name")
                })?;
                tool_calls.push(ToolCall {
                    id: call_id.to_string(),
                    name: name.to_string(),
                    arguments: parse_arguments(item.get("arguments").and_then(Value::as_str).unwrap_or("")),
                });
            }
            _ => {} // reasoning and other items
        }
    }
    Ok(ChatResponse {
        text: non_empty(text),
        stop_reason: stop_reason(v, !tool_calls.is_empty()),
        tool_calls,
        usage: v.get("usage").map(parse_usage).unwrap_or_default(),
        model: answering_model(ctx, v),
        attempts: 1,
    })
}

#[derive(Debug, Default)]
struct PartialCall {
    item_id: String,
    call_id: String,
    name: String,
    arguments: String,
}

#[derive(Debug, Default)]
pub(crate) struct StreamState {
    text: String,
    /// Function calls by `output_index`.
    calls: BTreeMap<u64, PartialCall>,
    usage: Usage,
    model: Option<String>,
    final_response: Option<Value>,
}

impl StreamState {
    fn call_for(&mut self, v: &Value) -> Option<&mut PartialCall> {
        if let Some(i) = v.get("output_index").and_then(Value::as_u64) {
            if self.calls.contains_key(&i) {
                return self.calls.get_mut(&i);
            }
        }
        let item_id = v.get("item_id").and_then(Value::as_str)?;
        self.calls.values_mut().find(|c| c.item_id == item_id)
    }

    pub(crate) fn event(
        &mut self,
        ctx: &Ctx,
        ev: &SseEvent,
        on_text: &mut (dyn FnMut(&str) + Send),
    ) -> Result<bool, ModelError> {
        let data = ev.data.trim();
        if data.is_empty() || data == "[DONE]" {
            return Ok(false);
        }
        let v = parse_json(ctx, data, "stream")?;
        let kind = event_kind(&v, ev);
        match kind {
            "response.created" | "response.in_progress" => {
                if let Some(m) = v.pointer("/response/model").and_then(Value::as_str) {
                    self.model = Some(m.to_string());
                }
            }
            "response.output_item.added" | "response.output_item.done" => {
                let item = v.get("item").unwrap_or(&Value::Null);
                if item.get("type").and_then(Value::as_str) == Some("function_call") {
                    let index = v.get("output_index").and_then(Value::as_u64).unwrap_or(self.calls.len() as u64);
                    let call = self.calls.entry(index).or_default();
                    let s = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                    for (field, key) in
                        [(&mut call.item_id, "id"), (&mut call.call_id, "call_id"), (&mut call.name, "name")]
                    {
                        let value = s(key);
                        if !value.is_empty() {
                            *field = value;
                        }
                    }
                    // The finished item carries the whole arguments text: used when no
                    // fragments came.
                    let args = s("arguments");
                    if call.arguments.is_empty() && !args.is_empty() {
                        call.arguments = args;
                    }
                }
            }
            "response.output_text.delta" | "response.refusal.delta" => {
                if let Some(t) = v.get("delta").and_then(Value::as_str) {
                    self.text.push_str(t);
                    on_text(t);
                }
            }
            "response.function_call_arguments.delta" => {
                let delta = v.get("delta").and_then(Value::as_str).unwrap_or("").to_string();
                match self.call_for(&v) {
                    Some(call) => call.arguments.push_str(&delta),
                    None => return Err(malformed(ctx, "function call arguments for an unknown output item")),
                }
            }
            "response.function_call_arguments.done" => {
                let args = v.get("arguments").and_then(Value::as_str).unwrap_or("").to_string();
                if let Some(call) = self.call_for(&v) {
                    if call.arguments.is_empty() {
                        call.arguments = args;
                    }
                }
            }
            "response.completed" | "response.incomplete" => {
                let r = v.get("response").cloned().unwrap_or(Value::Null);
                if let Some(u) = r.get("usage").filter(|u| !u.is_null()) {
                    self.usage = parse_usage(u);
                }
                if let Some(m) = r.get("model").and_then(Value::as_str) {
                    self.model = Some(m.to_string());
                }
                self.final_response = Some(r);
                return Ok(true);
            }
            "response.failed" => return Err(failed(ctx, v.get("response").unwrap_or(&Value::Null))),
            "error" => return Err(error_from_body(ctx, None, &json!({"error": normalise_error(&v)}))),
            _ => {}
        }
        Ok(false)
    }

    pub(crate) fn finish(self, ctx: &Ctx) -> Result<ChatResponse, ModelError> {
        let Some(response) = self.final_response else {
            return Err(ModelError::StreamCut);
        };
        let mut tool_calls = Vec::new();
        for (index, c) in self.calls {
            if c.call_id.is_empty() || c.name.is_empty() {
                return Err(malformed(ctx, format!("streamed function call {index} lacks a call_id or a name")));
            }
            tool_calls.push(ToolCall { id: c.call_id, name: c.name, arguments: parse_arguments(&c.arguments) });
        }
        Ok(ChatResponse {
            text: non_empty(self.text),
            stop_reason: stop_reason(&response, !tool_calls.is_empty()),
            tool_calls,
            usage: self.usage,
            model: self.model.unwrap_or_else(|| ctx.model.to_string()),
            attempts: 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_shape() {
        let req = ChatRequest {
            model: "gpt".into(),
            system: "be brief".into(),
            messages: vec![
                Message::user("go"),
                Message::Assistant {
                    text: None,
                    tool_calls: vec![ToolCall {
                        id: "call_1".into(),
                        name: "bash".into(),
                        arguments: json!({"command": "ls"}),
                    }],
                },
                Message::ToolResult { call_id: "call_1".into(), content: "a.txt".into(), is_error: false },
            ],
            tools: vec![crate::types::ToolDef {
                name: "bash".into(),
                description: "d".into(),
                parameters: json!({"type": "object"}),
            }],
            temperature: None,
            max_tokens: Some(64),
        };
        let v = build_request(&req, true);
        assert_eq!(v["instructions"], json!("be brief"));
        assert_eq!(v["input"][0], json!({"role": "user", "content": "go"}));
        assert_eq!(
            v["input"][1],
            json!({"type": "function_call", "call_id": "call_1", "name": "bash", "arguments": "{\"command\":\"ls\"}"})
        );
        assert_eq!(v["input"][2], json!({"type": "function_call_output", "call_id": "call_1", "output": "a.txt"}));
        assert_eq!(v["tools"][0]["name"], json!("bash"));
        assert_eq!(v["tools"][0]["strict"], json!(false));
        assert_eq!(v["max_output_tokens"], json!(64));
        assert_eq!(v["stream"], json!(true));
    }

    #[test]
    fn arguments_from_fragments_alone_or_from_the_done_item() {
        let ctx = Ctx { provider: "p", model: "m", openai_hosted: false };
        let ev = |v: Value| SseEvent { event: None, data: v.to_string() };
        let mut s = StreamState::default();
        let mut sink = |_: &str| {};
        let events = [
            json!({"type": "response.output_item.added", "output_index": 1, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_9", "name": "bash", "arguments": ""}}),
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1, "delta": "{\"comm"}),
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "delta": "and\":\"ls\"}"}),
            json!({"type": "response.output_item.added", "output_index": 2, "item": {"type": "function_call", "id": "fc_2", "call_id": "call_10", "name": "read"}}),
            json!({"type": "response.output_item.done", "output_index": 2, "item": {"type": "function_call", "id": "fc_2", "call_id": "call_10", "name": "read", "arguments": "{\"path\":\"a\"}"}}),
        ];
        for e in events {
            assert!(!s.event(&ctx, &ev(e), &mut sink).unwrap());
        }
        let done = json!({"type": "response.completed", "response": {"status": "completed", "usage": {"input_tokens": 5, "output_tokens": 2}}});
        assert!(s.event(&ctx, &ev(done), &mut sink).unwrap());
        let r = s.finish(&ctx).unwrap();
        assert_eq!(r.tool_calls.len(), 2);
        assert_eq!((r.tool_calls[0].id.as_str(), &r.tool_calls[0].arguments), ("call_9", &json!({"command": "ls"})));
        assert_eq!(r.tool_calls[1].arguments, json!({"path": "a"}));
        assert_eq!(r.stop_reason, "tool_calls");
        assert_eq!(r.usage, Usage { input_tokens: 5, cached_tokens: 0, output_tokens: 2 });
    }

    #[test]
    fn failed_and_incomplete_responses() {
        let ctx = Ctx { provider: "openai", model: "gpt", openai_hosted: true };
        let v = json!({"status": "failed", "error": {"code": "server_error", "message": "oops"}});
        let e = parse_response(&ctx, &v).unwrap_err();
        assert!(matches!(e, ModelError::Server { status: 500, .. }), "{e:?}");
        assert!(e.to_string().contains("openai") && e.to_string().contains("oops"));
        let v = json!({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, "output": []});
        assert_eq!(parse_response(&ctx, &v).unwrap().stop_reason, "max_output_tokens");
    }
}
