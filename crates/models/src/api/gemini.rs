//! Google's Generative Language API (`/v1beta/models/{model}:generateContent`, and
//! `:streamGenerateContent?alt=sse`, whose events are each a partial response).

use super::{error_from_body, non_empty, parse_json, Ctx};
use crate::error::ModelError;
use crate::sse::SseEvent;
use crate::types::{ChatRequest, ChatResponse, Message, ToolCall, Usage};
use serde_json::{json, Map, Value};

/// The model's URL below `models_url` (the provider's `…/models`): the model is part of the path.
pub(crate) fn url(models_url: &str, model: &str, stream: bool) -> String {
    if stream {
        format!("{models_url}/{model}:streamGenerateContent?alt=sse")
    } else {
        format!("{models_url}/{model}:generateContent")
    }
}

pub(crate) fn build_request(req: &ChatRequest) -> Value {
    // A function response names its function, not the call: the name comes from the call.
    let name_of = |id: &str| {
        req.messages.iter().find_map(|m| match m {
            Message::Assistant { tool_calls, .. } => tool_calls.iter().find(|c| c.id == id).map(|c| c.name.clone()),
            _ => None,
        })
    };
    // Gemini wants user and model turns to alternate, like Anthropic.
    let mut contents: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for m in &req.messages {
        let (role, parts): (&'static str, Vec<Value>) = match m {
            Message::User { text } => ("user", if text.is_empty() { vec![] } else { vec![json!({"text": text})] }),
            Message::Assistant { text, tool_calls } => {
                let mut parts: Vec<Value> = text.iter().filter(|t| !t.is_empty()).map(|t| json!({"text": t})).collect();
                parts.extend(tool_calls.iter().map(|c| {
                    let args = match &c.arguments {
                        Value::Object(_) => c.arguments.clone(),
                        other => json!({"_invalid_arguments": other}),
                    };
                    json!({"functionCall": {"id": c.id, "name": c.name, "args": args}})
                }));
                ("model", parts)
            }
            Message::ToolResult { call_id, content, is_error } => {
                let key = if *is_error { "error" } else { "output" };
                let name = name_of(call_id).unwrap_or_default();
                ("user", vec![json!({"functionResponse": {"id": call_id, "name": name, "response": {key: content}}})])
            }
        };
        if parts.is_empty() {
            continue;
        }
        match contents.last_mut() {
            Some((last, last_parts)) if *last == role => last_parts.extend(parts),
            _ => contents.push((role, parts)),
        }
    }
    let mut body = Map::new();
    body.insert(
        "contents".into(),
        contents.into_iter().map(|(role, parts)| json!({"role": role, "parts": parts})).collect(),
    );
    if !req.system.is_empty() {
        body.insert("systemInstruction".into(), json!({"parts": [{"text": req.system}]}));
    }
    if !req.tools.is_empty() {
        let declarations: Vec<Value> = req
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "parametersJsonSchema": t.parameters}))
            .collect();
        body.insert("tools".into(), json!([{ "functionDeclarations": declarations }]));
    }
    let mut config = Map::new();
    if let Some(t) = req.temperature {
        config.insert("temperature".into(), json!(t));
    }
    if let Some(n) = req.max_tokens {
        config.insert("maxOutputTokens".into(), json!(n));
    }
    if !config.is_empty() {
        body.insert("generationConfig".into(), Value::Object(config));
    }
    Value::Object(body)
}

/// One response, whole or assembled from the stream's partial ones.
#[derive(Debug, Default)]
pub(crate) struct StreamState {
    text: String,
    tool_calls: Vec<ToolCall>,
    usage: Usage,
    stop_reason: Option<String>,
    model: Option<String>,
    seen: bool,
}

impl StreamState {
    /// Takes in one (partial) response: its parts add up; its usage and finish reason, the last
    /// given, stand.
    fn add(&mut self, ctx: &Ctx, v: &Value, on_text: &mut (dyn FnMut(&str) + Send)) -> Result<(), ModelError> {
        if v.get("error").is_some_and(|e| !e.is_null()) {
            return Err(error_from_body(ctx, None, v));
        }
        self.seen = true;
        let candidate = v.pointer("/candidates/0").unwrap_or(&Value::Null);
        for part in candidate.pointer("/content/parts").and_then(Value::as_array).into_iter().flatten() {
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            if let Some(t) = part.get("text").and_then(Value::as_str) {
                self.text.push_str(t);
                on_text(t);
            }
            if let Some(call) = part.get("functionCall") {
                let id = call.get("id").and_then(Value::as_str).map(String::from);
                self.tool_calls.push(ToolCall {
                    // Gemini may leave the id out: the call's place in the answer then names it.
                    id: id.unwrap_or_else(|| format!("call_{}", self.tool_calls.len())),
                    name: call.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
                    arguments: call.get("args").cloned().unwrap_or_else(|| json!({})),
                });
            }
        }
        if let Some(r) = candidate.get("finishReason").and_then(Value::as_str) {
            self.stop_reason = Some(r.to_string());
        }
        if let Some(u) = v.get("usageMetadata") {
            let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
            // Gemini counts cached tokens inside the prompt's, as we do, and thinking apart from output.
            self.usage = Usage {
                input_tokens: n("promptTokenCount"),
                cached_tokens: n("cachedContentTokenCount"),
                output_tokens: n("candidatesTokenCount") + n("thoughtsTokenCount"),
            };
        }
        if let Some(m) = v.get("modelVersion").and_then(Value::as_str) {
            self.model = Some(m.to_string());
        }
        Ok(())
    }

    /// Takes one streamed event; the stream has no end marker of its own (its body ends).
    pub(crate) fn event(
        &mut self,
        ctx: &Ctx,
        ev: &SseEvent,
        on_text: &mut (dyn FnMut(&str) + Send),
    ) -> Result<bool, ModelError> {
        if !ev.data.trim().is_empty() {
            self.add(ctx, &parse_json(ctx, &ev.data, "stream")?, on_text)?;
        }
        Ok(false)
    }

    /// The answer; `StreamCut` when no response came, or the last one had no finish reason.
    pub(crate) fn finish(self, ctx: &Ctx) -> Result<ChatResponse, ModelError> {
        if !self.seen || self.stop_reason.is_none() {
            return Err(ModelError::StreamCut);
        }
        Ok(ChatResponse {
            text: non_empty(self.text),
            tool_calls: self.tool_calls,
            usage: self.usage,
            stop_reason: self.stop_reason.unwrap_or_default(),
            model: self.model.unwrap_or_else(|| ctx.model.to_string()),
            attempts: 1,
        })
    }
}

pub(crate) fn parse_response(ctx: &Ctx, v: &Value) -> Result<ChatResponse, ModelError> {
    let mut state = StreamState::default();
    state.add(ctx, v, &mut |_| {})?;
    state.finish(ctx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_and_results_become_function_parts_named_by_their_call() {
        let req = ChatRequest {
            model: "gemini".into(),
            system: "be brief".into(),
            messages: vec![
                Message::user("go"),
                Message::Assistant {
                    text: Some("running".into()),
                    tool_calls: vec![ToolCall {
                        id: "a".into(),
                        name: "bash".into(),
                        arguments: json!({"command": "ls"}),
                    }],
                },
                Message::ToolResult { call_id: "a".into(), content: "ok".into(), is_error: false },
                Message::user("and now?"),
            ],
            tools: vec![crate::types::ToolDef { name: "bash".into(), description: "d".into(), parameters: json!({}) }],
            temperature: None,
            max_tokens: Some(1),
        };
        let v = build_request(&req);
        assert_eq!(v["systemInstruction"]["parts"][0]["text"], "be brief");
        assert_eq!(v["generationConfig"], json!({"maxOutputTokens": 1}));
        assert_eq!(v["tools"][0]["functionDeclarations"][0]["name"], "bash");
        let contents = v["contents"].as_array().unwrap();
        assert_eq!(contents.len(), 3, "{v}");
        assert_eq!(contents[1]["parts"][1]["functionCall"]["args"], json!({"command": "ls"}));
        assert_eq!(
            contents[2]["parts"][0],
            json!({"functionResponse": {"id": "a", "name": "bash", "response": {"output": "ok"}}})
        );
        assert_eq!(contents[2]["parts"][1], json!({"text": "and now?"}));
        assert_eq!(url("http://h/v1beta/models", "g", true), "http://h/v1beta/models/g:streamGenerateContent?alt=sse");
    }

    #[test]
    fn streamed_parts_add_up_and_the_last_usage_stands() {
        let ctx = Ctx { provider: "gemini", model: "m", openai_hosted: false };
        let mut s = StreamState::default();
        let mut said = String::new();
        let events = [
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}]}),
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "lo"}, {"functionCall": {"name": "bash", "args": {"command": "ls"}}}]},
                "finishReason": "STOP"}],
                "usageMetadata": {"promptTokenCount": 10, "cachedContentTokenCount": 4, "candidatesTokenCount": 3, "thoughtsTokenCount": 2},
                "modelVersion": "gemini-x"}),
        ];
        for e in events {
            let ev = SseEvent { event: None, data: e.to_string() };
            assert!(!s.event(&ctx, &ev, &mut |t: &str| said.push_str(t)).unwrap());
        }
        let r = s.finish(&ctx).unwrap();
        assert_eq!((r.text.as_deref(), said.as_str(), r.model.as_str()), (Some("Hello"), "Hello", "gemini-x"));
        assert_eq!(r.tool_calls[0].id, "call_0");
        assert_eq!(r.usage, Usage { input_tokens: 10, cached_tokens: 4, output_tokens: 5 });
        assert!(matches!(StreamState::default().finish(&ctx), Err(ModelError::StreamCut)));
    }
}
