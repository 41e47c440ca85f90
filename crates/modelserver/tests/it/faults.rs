//! Every fault kind, observed by a real HTTP client.

use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::{json, Value};
use skillscope_modelserver::Fault;

#[tokio::test]
async fn rate_limit_gives_429_with_retry_after_then_recovers() {
    let s = server().await;
    s.push_faults(vec![Fault::RateLimit { retry_after_secs: 7 }]);
    let r = post(&s, "/v1/chat/completions", &chat_request("x", false)).await;
    assert_eq!(r.status(), 429);
    assert_eq!(r.headers()["retry-after"], "7");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limit_exceeded");
    // One fault per request: the next one is normal.
    let (st, _) = post_json(&s, "/v1/chat/completions", &chat_request("x", false)).await;
    assert_eq!(st, 200);

    s.push_faults(vec![Fault::RateLimit { retry_after_secs: 1 }]);
    let r = post(&s, "/v1/messages", &anthropic_request("x", true)).await;
    assert_eq!(r.status(), 429);
    assert_eq!(r.headers()["retry-after"], "1");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["type"], "error");
    assert_eq!(body["error"]["type"], "rate_limit_error");
}

#[tokio::test]
async fn server_errors_use_the_requested_status_in_order() {
    let s = server().await;
    s.push_faults(vec![
        Fault::ServerError { status: 500 },
        Fault::ServerError { status: 529 },
        Fault::ServerError { status: 503 },
    ]);
    assert_error(&s, "/v1/chat/completions", &chat_request("x", true), "type", (500, "server_error")).await;
    assert_error(&s, "/v1/messages", &anthropic_request("x", false), "type", (529, "overloaded_error")).await;
    let (st, b) = post_json(&s, "/v1/responses", &responses_request("x", false)).await;
    assert_eq!(st, 503);
    assert!(b["error"]["message"].is_string());
    let (st, _) = post_json(&s, "/v1/responses", &responses_request("x", false)).await;
    assert_eq!(st, 200);
}

#[tokio::test]
async fn slow_delays_the_first_byte() {
    let s = server().await;
    let (st, _) = post_json(&s, "/v1/chat/completions", &chat_request("x", false)).await;
    assert_eq!(st, 200);
    s.push_faults(vec![Fault::Slow { delay_ms: 600 }]);
    let t = Instant::now();
    let r = post(&s, "/v1/messages", &anthropic_request("x", true)).await; // resolves at headers
    let first = t.elapsed();
    assert!(first >= Duration::from_millis(600), "first byte after {first:?}");
    assert_eq!(r.status(), 200);
    let evs = parse_sse(&r.text().await.unwrap());
    assert_eq!(evs.last().unwrap().event.as_deref(), Some("message_stop"));
    // Only that request was slow.
    let t = Instant::now();
    post_json(&s, "/v1/messages", &anthropic_request("x", false)).await;
    assert!(t.elapsed() < Duration::from_millis(500));
}

#[tokio::test]
async fn cut_stream_ends_without_terminal_event() {
    let s = server().await;
    let cases: [(&str, Value, &str); 3] = [
        ("/v1/chat/completions", chat_request("x", true), "data: [DONE]"),
        ("/v1/messages", anthropic_request("x", true), "event: message_stop"),
        ("/v1/responses", responses_request("x", true), "event: response.completed"),
    ];
    for (path, req, terminal) in cases {
        s.push_faults(vec![Fault::CutStream]);
        let r = post(&s, path, &req).await;
        assert_eq!(r.status(), 200);
        let (text, failed) = read_stream(r).await;
        assert!(failed, "{path}: the transfer must fail, got {text:?}");
        assert!(!text.is_empty(), "{path}: part of the stream arrives first");
        assert!(!parse_sse(&text).is_empty());
        assert!(!text.contains(terminal), "{path}: no terminal event in {text}");
        // The same request without the fault completes.
        let (text, failed) = read_stream(post(&s, path, &req).await).await;
        assert!(!failed && text.contains(terminal), "{path}: {text}");
    }
    // A non-streaming answer is cut too.
    s.push_faults(vec![Fault::CutStream]);
    let r = post(&s, "/v1/chat/completions", &chat_request("x", false)).await;
    let (text, failed) = read_stream(r).await;
    assert!(failed);
    assert!(serde_json::from_str::<Value>(&text).is_err());
}

#[tokio::test]
async fn malformed_json_in_body_and_in_stream() {
    let s = server().await;
    s.push_faults(vec![Fault::MalformedJson]);
    let r = post(&s, "/v1/chat/completions", &chat_request("x", false)).await;
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");

    for (path, req) in [
        ("/v1/chat/completions", chat_request("x", true)),
        ("/v1/messages", anthropic_request("x", true)),
        ("/v1/responses", responses_request("x", true)),
    ] {
        s.push_faults(vec![Fault::MalformedJson]);
        let evs = post_sse(&s, path, &req).await;
        let bad = evs.iter().filter(|e| e.data != "[DONE]" && serde_json::from_str::<Value>(&e.data).is_err()).count();
        assert_eq!(bad, 1, "{path}: one event with invalid JSON");
        // Without the fault every event parses.
        let evs = post_sse(&s, path, &req).await;
        assert!(evs.iter().all(|e| e.data == "[DONE]" || serde_json::from_str::<Value>(&e.data).is_ok()));
    }
}

#[tokio::test]
async fn unauthorized_fault_gives_401() {
    let s = server().await;
    s.push_faults(vec![Fault::Unauthorized, Fault::Unauthorized]);
    let (st, b) = post_json(&s, "/v1/chat/completions", &chat_request("x", false)).await;
    assert_eq!(st, 401);
    assert_eq!(b["error"]["code"], "invalid_api_key");
    let (st, b) = post_json(&s, "/v1/messages", &anthropic_request("x", false)).await;
    assert_eq!(st, 401);
    assert_eq!(b["error"]["type"], "authentication_error");
    let (st, _) = post_json(&s, "/v1/messages", &anthropic_request("x", false)).await;
    assert_eq!(st, 200);
}

#[tokio::test]
async fn faults_can_be_queued_over_http() {
    let s = server().await;
    let c = client();
    let r = c
        .post(format!("{}/_control/faults", s.base_url))
        .json(&json!([{"kind": "rate_limit", "retry_after_secs": 3}, {"kind": "server_error", "status": 502}]))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let pending = send_json(c.get(format!("{}/_control/faults", s.base_url))).await;
    assert_eq!(pending.as_array().unwrap().len(), 2);
    let r = post(&s, "/v1/responses", &responses_request("x", false)).await;
    assert_eq!(r.status(), 429);
    assert_eq!(r.headers()["retry-after"], "3");
    let r = post(&s, "/v1/responses", &responses_request("x", false)).await;
    assert_eq!(r.status(), 502);
    let r = c
        .post(format!("{}/_control/faults", s.base_url))
        .json(&json!([{"kind": "no_such_fault"}]))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
}
