//! Helpers shared by the integration tests: a real HTTP client over loopback
//! and a small SSE parser.

use serde_json::{json, Value};
use skillscope_modelserver::{start, Script, ServerHandle, ServerOptions};

pub(crate) const KEY: &str = "sk-test-secret";

/// A parsed SSE event.
#[derive(Debug, Clone)]
pub(crate) struct Ev {
    pub(crate) event: Option<String>,
    pub(crate) data: String,
}

impl Ev {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.data).unwrap_or_else(|e| panic!("event data is not JSON ({e}): {}", self.data))
    }
}

/// Parses a complete `text/event-stream` body.
pub(crate) fn parse_sse(text: &str) -> Vec<Ev> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut event = None;
        let mut data: Vec<&str> = Vec::new();
        for line in block.lines() {
            if let Some(e) = line.strip_prefix("event: ") {
                event = Some(e.to_string());
            } else if let Some(d) = line.strip_prefix("data: ") {
                data.push(d);
            }
        }
        if event.is_some() || !data.is_empty() {
            out.push(Ev { event, data: data.join("\n") });
        }
    }
    out
}

pub(crate) fn script() -> Script {
    serde_json::from_value(json!({
        "default": [{"tool": "bash", "args": {"command": "ls"}}, {"text": "Done."}],
        "branches": [{"if_prompt_contains": "csv-insights", "steps": [
            {"tool": "read_file", "args": {"path": "/skills/csv-insights/SKILL.md"}},
            {"text": "Done with the skill."}
        ]}]
    }))
    .unwrap()
}

pub(crate) async fn server() -> ServerHandle {
    start(ServerOptions { script: script(), ..ServerOptions::default() }).await.unwrap()
}

pub(crate) fn client() -> reqwest::Client {
    reqwest::Client::builder().timeout(std::time::Duration::from_secs(20)).build().unwrap()
}

/// POSTs `body` with a bearer key.
pub(crate) async fn post(s: &ServerHandle, path: &str, body: &Value) -> reqwest::Response {
    client().post(format!("{}{path}", s.base_url)).bearer_auth(KEY).json(body).send().await.unwrap()
}

/// POSTs and returns the status and the JSON body.
pub(crate) async fn post_json(s: &ServerHandle, path: &str, body: &Value) -> (u16, Value) {
    let r = post(s, path, body).await;
    let status = r.status().as_u16();
    let text = r.text().await.unwrap();
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, v)
}

/// POSTs and asserts the status and the error body's `error.<field>`.
pub(crate) async fn assert_error(s: &ServerHandle, path: &str, body: &Value, field: &str, want: (u16, &str)) {
    let (st, b) = post_json(s, path, body).await;
    assert_eq!((st, b["error"][field].as_str()), (want.0, Some(want.1)));
}

/// Sends a request and returns its JSON body.
pub(crate) async fn send_json(req: reqwest::RequestBuilder) -> Value {
    req.send().await.unwrap().json().await.unwrap()
}

/// POSTs a streaming request and returns the parsed events.
pub(crate) async fn post_sse(s: &ServerHandle, path: &str, body: &Value) -> Vec<Ev> {
    let r = post(s, path, body).await;
    assert_eq!(r.status(), 200);
    let ct = r.headers()["content-type"].to_str().unwrap().to_string();
    assert!(ct.starts_with("text/event-stream"), "content-type {ct}");
    parse_sse(&r.text().await.unwrap())
}

/// Reads a streaming answer chunk by chunk until it ends or fails.
/// Returns the text received and whether the transfer failed.
pub(crate) async fn read_stream(r: reqwest::Response) -> (String, bool) {
    let mut r = r;
    let mut buf = Vec::new();
    loop {
        match r.chunk().await {
            Ok(Some(c)) => buf.extend_from_slice(&c),
            Ok(None) => return (String::from_utf8_lossy(&buf).into_owned(), false),
            Err(_) => return (String::from_utf8_lossy(&buf).into_owned(), true),
        }
    }
}

pub(crate) fn bash_schema() -> Value {
    json!({"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]})
}

/// A Chat Completions request offering `bash` and `read_file`.
pub(crate) fn chat_request(system: &str, stream: bool) -> Value {
    json!({
        "model": "test-model",
        "stream": stream,
        "stream_options": {"include_usage": true},
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": "Please list the files."}
        ],
        "tools": [
            {"type": "function", "function": {"name": "bash", "description": "Run a command", "parameters": bash_schema()}},
            {"type": "function", "function": {"name": "read_file", "description": "Read a file",
                "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}
        ]
    })
}

/// An Anthropic Messages request offering `Bash` and `read_file`.
pub(crate) fn anthropic_request(system: &str, stream: bool) -> Value {
    json!({
        "model": "test-model",
        "max_tokens": 1024,
        "stream": stream,
        "system": [{"type": "text", "text": system}],
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Please list the files."}]}],
        "tools": [
            {"name": "Bash", "description": "Run a command", "input_schema": {"type": "object",
                "properties": {"command": {"type": "string"}, "description": {"type": "string"}}}},
            {"name": "read_file", "description": "Read a file", "input_schema": {"type": "object",
                "properties": {"path": {"type": "string"}}}}
        ]
    })
}

/// A Responses request offering `exec_command`.
pub(crate) fn responses_request(developer: &str, stream: bool) -> Value {
    json!({
        "model": "test-model",
        "stream": stream,
        "input": [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": developer}]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Please list the files."}]}
        ],
        "tools": [
            {"type": "function", "name": "exec_command", "description": "Run a command",
             "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]}}
        ],
        "tool_choice": "auto"
    })
}
