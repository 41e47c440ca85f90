//! Building answers: server-sent event streams and JSON bodies, optionally
//! damaged (cut off, or with invalid JSON) to simulate faults.

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use bytes::Bytes;
use futures_util::stream::{self, StreamExt};
use serde_json::Value;

/// One SSE event: optional `event:` name and a `data:` payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    pub event: Option<String>,
    pub data: String,
}

impl SseEvent {
    /// `event: <name>` plus JSON data (Anthropic and Responses style).
    pub fn named(name: &str, data: &Value) -> SseEvent {
        SseEvent { event: Some(name.to_string()), data: data.to_string() }
    }

    /// Data-only JSON event (Chat Completions style).
    pub fn data(data: &Value) -> SseEvent {
        SseEvent { event: None, data: data.to_string() }
    }

    /// Data-only raw event, e.g. `[DONE]`.
    pub fn raw(data: &str) -> SseEvent {
        SseEvent { event: None, data: data.to_string() }
    }

    pub fn encode(&self) -> String {
        let mut s = String::new();
        if let Some(e) = &self.event {
            s.push_str("event: ");
            s.push_str(e);
            s.push('\n');
        }
        for line in self.data.split('\n') {
            s.push_str("data: ");
            s.push_str(line);
            s.push('\n');
        }
        s.push('\n');
        s
    }
}

/// How an answer is delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    Normal,
    /// Send about half, then drop the connection.
    Cut,
    /// Invalid JSON in the body, or in one stream event.
    Malformed,
}

/// The first half of `s`, cut on a char boundary.
fn first_half(s: &str) -> &str {
    let mut cut = s.len() / 2;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    &s[..cut]
}

/// Half of `s` plus junk: never valid JSON for an object.
fn broken_json(s: &str) -> String {
    format!("{}<<truncated", first_half(s))
}

fn body_of(chunks: Vec<String>, cut: bool) -> Body {
    let items = stream::iter(chunks.into_iter().map(|c| Ok::<_, std::io::Error>(Bytes::from(c))));
    if cut {
        let fail = stream::once(async {
            // Let the partial answer reach the client before the connection drops.
            tokio::time::sleep(Duration::from_millis(50)).await;
            Err(std::io::Error::other("stream cut by fault injection"))
        });
        Body::from_stream(items.chain(fail))
    } else {
        Body::from_stream(items)
    }
}

/// A `text/event-stream` answer made of `events`.
pub fn sse_response(mut events: Vec<SseEvent>, delivery: Delivery) -> Response {
    match delivery {
        Delivery::Normal => {}
        Delivery::Cut => {
            let keep = (events.len() / 2).max(1);
            events.truncate(keep);
        }
        Delivery::Malformed => {
            let i = usize::from(events.len() > 1);
            if let Some(e) = events.get_mut(i) {
                e.data = broken_json(&e.data);
            }
        }
    }
    let chunks = events.iter().map(SseEvent::encode).collect();
    let mut resp = Response::new(body_of(chunks, delivery == Delivery::Cut));
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream; charset=utf-8"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    resp
}

/// A JSON answer with `status`.
pub fn json_response(status: StatusCode, value: &Value, delivery: Delivery) -> Response {
    let text = value.to_string();
    let body = match delivery {
        Delivery::Normal => Body::from(text),
        Delivery::Malformed => Body::from(broken_json(&text)),
        Delivery::Cut => body_of(vec![first_half(&text).to_string()], true),
    };
    let mut resp = Response::new(body);
    *resp.status_mut() = status;
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

/// Splits `s` into fragments of at most `size` chars (at least one fragment).
pub fn fragments(s: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    if chars.is_empty() {
        return vec![String::new()];
    }
    chars.chunks(size.max(1)).map(|c| c.iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_named_and_data_events() {
        let e = SseEvent::named("message_stop", &serde_json::json!({"type": "message_stop"}));
        assert_eq!(e.encode(), "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
        assert_eq!(SseEvent::raw("[DONE]").encode(), "data: [DONE]\n\n");
    }

    #[test]
    fn broken_json_does_not_parse() {
        let s = serde_json::json!({"a": "é", "b": [1, 2, 3]}).to_string();
        assert!(serde_json::from_str::<Value>(&broken_json(&s)).is_err());
    }

    #[test]
    fn fragments_rejoin() {
        let f = fragments("héllo world", 3);
        assert_eq!(f.concat(), "héllo world");
        assert!(f.iter().all(|x| x.chars().count() <= 3));
    }
}
