//! The key-adding proxy: a request over its Unix socket with a placeholder key reaches the
//! scripted server (which accepts only the real key) with the real key, and the streamed answer
//! comes back whole; a wrong key stays a 401 the harness sees.

use serde_json::json;
use skillscope_models::proxy::serve_unix;
use skillscope_models::{ApiKind, Client, ProviderConfig, Secret};
use skillscope_modelserver::{start, Fault, ServerOptions};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const KEY: &str = "sk-ant-real-0123456789abcdef";

/// One raw Anthropic request over the socket, as Claude Code sends it.
async fn post(socket: &std::path::Path, body: &str) -> String {
    let headers = "x-api-key: sk-ant-placeholder\r\nanthropic-version: 2023-06-01\r\n";
    send(socket, "/v1/messages?beta=true", headers, body).await
}

/// One raw HTTP/1.1 POST of `body` to `path` with `headers` (each ending in CRLF) over the socket.
async fn send(socket: &std::path::Path, path: &str, headers: &str, body: &str) -> String {
    let mut stream = tokio::net::UnixStream::connect(socket).await.unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\nhost: localhost\r\n{headers}content-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    response
}

/// The text of the answer: its `text_delta` pieces joined.
fn text_deltas(response: &str) -> String {
    response
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<serde_json::Value>(d).ok())
        .filter_map(|v| v["delta"]["text"].as_str().map(String::from))
        .collect()
}

#[tokio::test]
async fn the_proxy_adds_the_real_key_and_streams_the_answer_back() {
    let script = serde_json::from_value(json!({"default": [{"text": "hello from the provider"}]})).unwrap();
    let server = start(ServerOptions { script, require_key: Some(KEY.into()), ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    // With a tool offered, as a harness's turns are (the server answers tool-less requests "OK").
    let tools = json!([{"name": "Bash", "description": "Runs a command.", "input_schema": {"type": "object"}}]);
    let body = json!({"model": "m", "max_tokens": 64, "stream": true, "tools": tools, "messages": [{"role": "user", "content": "hi"}]}).to_string();

    let provider = ProviderConfig::new("p", ApiKind::Anthropic, server.base_url.clone());
    let client = Client::new(provider.clone(), Some(Secret::new(KEY))).unwrap();
    let proxy = serve_unix(client.into(), &dir.path().join("model.sock"), None).await.unwrap();
    let response = post(proxy.path(), &body).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("text/event-stream") && response.contains("message_stop"), "{response}");
    assert_eq!(text_deltas(&response), "hello from the provider", "every streamed piece arrives");
    assert!(!response.contains(KEY), "the key never goes back to the harness");

    let wrong = Client::new(provider, Some(Secret::new("sk-ant-wrong-key-000000"))).unwrap();
    let proxy = serve_unix(wrong.into(), &dir.path().join("wrong.sock"), None).await.unwrap();
    assert!(post(proxy.path(), &body).await.starts_with("HTTP/1.1 401"));
    let path = proxy.path().to_owned();
    drop(proxy);
    assert!(!path.exists(), "a stopped proxy leaves no socket behind");
}

/// Gemini CLI sends its placeholder key in `x-goog-api-key`: the proxy puts the real one there,
/// under a provider whose base URL names the API version (`…/v1beta`).
#[tokio::test]
async fn the_proxy_puts_the_real_key_in_geminis_header() {
    let script = serde_json::from_value(json!({"default": [{"text": "hi from gemini"}]})).unwrap();
    let server = start(ServerOptions { script, require_key: Some(KEY.into()), ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tools = json!([{"functionDeclarations": [{"name": "run_shell_command", "description": "Runs a command."}]}]);
    let body = json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": tools}).to_string();
    let provider = ProviderConfig::new("g", ApiKind::Gemini, format!("{}/v1beta", server.base_url));
    let client = Client::new(provider, Some(Secret::new(KEY))).unwrap();
    let proxy = serve_unix(client.into(), &dir.path().join("gemini.sock"), None).await.unwrap();
    let path = "/v1beta/models/m:streamGenerateContent?alt=sse";
    let response = send(proxy.path(), path, "x-goog-api-key: placeholder\r\n", &body).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("hi from gemini") && !response.contains(KEY), "{response}");
}

/// Requests through the proxy take their place under the provider's concurrency limit (held
/// until the answer has streamed through), and what the provider made the harness wait — queued
/// behind the limit, a 429 and the backoff until the next request — is counted as provider wait.
#[tokio::test]
async fn the_proxy_holds_the_providers_limit_and_counts_the_harness_waiting() {
    let script = serde_json::from_value(json!({"default": [{"text": "answer"}]})).unwrap();
    let server = start(ServerOptions { script, require_key: Some(KEY.into()), ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let body = json!({"model": "m", "max_tokens": 16, "stream": true, "messages": [{"role": "user", "content": "hi"}]})
        .to_string();
    let mut provider = ProviderConfig::new("p", ApiKind::Anthropic, server.base_url.clone());
    provider.max_concurrency = 1;
    let client = Client::new(provider, Some(Secret::new(KEY))).unwrap();
    let proxy = serve_unix(client.into(), &dir.path().join("m.sock"), None).await.unwrap();

    server.push_faults(vec![Fault::Slow { delay_ms: 400 }, Fault::Slow { delay_ms: 400 }]);
    let (a, b) = tokio::join!(post(proxy.path(), &body), post(proxy.path(), &body));
    assert!(a.starts_with("HTTP/1.1 200") && b.starts_with("HTTP/1.1 200"), "{a}\n{b}");
    assert_eq!(server.peak_in_flight(), 1, "one request at a time under a limit of one");
    let queued = proxy.wait().waited();
    assert!(queued >= Duration::from_millis(350), "the second request waited for the first: {queued:?}");
    assert!(!proxy.wait().waiting());
    // The model's time: each call's 400 ms and its answer, not the second's wait for the first.
    let model = proxy.model_ms();
    assert!((800..1150).contains(&model), "{model} ms");

    server.push_faults(vec![Fault::RateLimit { retry_after_secs: 1 }]);
    assert!(post(proxy.path(), &body).await.starts_with("HTTP/1.1 429"));
    assert_eq!(proxy.model_ms(), model, "a refused call is the provider's time, not the model's");
    assert!(proxy.wait().waiting(), "after a 429 the harness is backing off: the provider's time");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(post(proxy.path(), &body).await.starts_with("HTTP/1.1 200"));
    assert!(!proxy.wait().waiting(), "its next request ends the backoff");
    let backoff = proxy.wait().waited() - queued;
    assert!(backoff >= Duration::from_millis(500), "the backoff was counted: {backoff:?}");
}

/// A proxy holding a harness to two model calls forwards two and answers the third with an error
/// naming the limit, without reaching the provider; it then says the limit was reached.
#[tokio::test]
async fn the_proxy_refuses_the_call_past_the_turn_limit() {
    let script = serde_json::from_value(json!({"default": [{"text": "answer"}]})).unwrap();
    let server = start(ServerOptions { script, require_key: Some(KEY.into()), ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let body = json!({"model": "m", "max_tokens": 16, "stream": true, "messages": [{"role": "user", "content": "hi"}]})
        .to_string();
    let provider = ProviderConfig::new("p", ApiKind::Anthropic, server.base_url.clone());
    let client = Client::new(provider, Some(Secret::new(KEY))).unwrap();
    let proxy = serve_unix(client.into(), &dir.path().join("m.sock"), Some(2)).await.unwrap();
    for _ in 0..2 {
        assert!(post(proxy.path(), &body).await.starts_with("HTTP/1.1 200"));
        assert!(!proxy.limit_reached());
    }
    let third = post(proxy.path(), &body).await;
    assert!(third.starts_with("HTTP/1.1 400"), "{third}");
    assert!(third.contains("turn limit (2 model calls) was reached"), "{third}");
    assert!(proxy.limit_reached());
    assert_eq!(server.requests().len(), 2, "the third call never reached the provider");
}
