//! Control endpoints (`/_control/...`), the request log, and the state all handlers share.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::faults::{Fault, FaultQueue};
use crate::script::Script;

/// One request as the server saw it, with secrets redacted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggedRequest {
    pub method: String,
    /// Path and query, e.g. `/v1/messages?beta=true`.
    pub path: String,
    /// Header names in lower case; credentials replaced by `***`.
    pub headers: BTreeMap<String, String>,
    /// The JSON body; a string if the body was not JSON; null if empty.
    pub body: Value,
}

/// Whether a header carries a credential and must be redacted.
pub fn is_secret_header(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "authorization"
        || n == "proxy-authorization"
        || n == "cookie"
        || n.contains("key")
        || n.contains("token")
        || n.contains("secret")
}

impl LoggedRequest {
    pub fn new(method: &str, path: &str, headers: &HeaderMap, body: &[u8]) -> LoggedRequest {
        let headers = headers
            .iter()
            .map(|(k, v)| {
                let value = if is_secret_header(k.as_str()) {
                    "***".to_string()
                } else {
                    String::from_utf8_lossy(v.as_bytes()).into_owned()
                };
                (k.as_str().to_string(), value)
            })
            .collect();
        let body = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(body).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()))
        };
        LoggedRequest { method: method.to_string(), path: path.to_string(), headers, body }
    }
}

/// State shared by all handlers: what the control endpoints change and the model routes read.
#[derive(Debug)]
pub struct Shared {
    pub(crate) script: RwLock<Script>,
    pub faults: FaultQueue,
    log: Mutex<Vec<LoggedRequest>>,
    pub(crate) require_key: Option<String>,
    pub(crate) models: Vec<String>,
    pub(crate) seq: AtomicU64,
    in_flight: AtomicUsize,
    peak_in_flight: AtomicUsize,
}

/// Counts one model request as in flight until dropped.
pub(crate) struct InFlight<'a>(&'a Shared);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Shared {
    pub(crate) fn new(script: Script, require_key: Option<String>, models: Vec<String>) -> Shared {
        Shared {
            script: RwLock::new(script),
            faults: FaultQueue::default(),
            log: Mutex::new(Vec::new()),
            require_key,
            models,
            seq: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
            peak_in_flight: AtomicUsize::new(0),
        }
    }

    pub(crate) fn enter(&self) -> InFlight<'_> {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak_in_flight.fetch_max(now, Ordering::SeqCst);
        InFlight(self)
    }

    /// The most model requests that were being answered at once.
    pub fn peak_in_flight(&self) -> usize {
        self.peak_in_flight.load(Ordering::SeqCst)
    }

    pub fn script(&self) -> Script {
        self.script.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn set_script(&self, s: Script) {
        *self.script.write().unwrap_or_else(|e| e.into_inner()) = s;
    }

    pub fn requests(&self) -> Vec<LoggedRequest> {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn clear_requests(&self) {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    pub(crate) fn record(&self, r: LoggedRequest) {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).push(r);
    }
}

pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/_control/script", get(get_script).post(set_script))
        .route("/_control/faults", get(get_faults).post(push_faults).delete(clear_faults))
        .route("/_control/requests", get(get_requests).delete(clear_requests))
}

fn bad_request(msg: String) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({"error": msg}))).into_response()
}

async fn get_script(State(s): State<Arc<Shared>>) -> Json<Script> {
    Json(s.script())
}

async fn set_script(State(s): State<Arc<Shared>>, body: Bytes) -> Response {
    match serde_json::from_slice::<Script>(&body) {
        Ok(script) => {
            s.set_script(script);
            Json(json!({"ok": true})).into_response()
        }
        Err(e) => bad_request(format!("invalid script: {e}")),
    }
}

async fn get_faults(State(s): State<Arc<Shared>>) -> Json<Vec<Fault>> {
    Json(s.faults.pending())
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    Many(Vec<Fault>),
    One(Fault),
}

async fn push_faults(State(s): State<Arc<Shared>>, body: Bytes) -> Response {
    match serde_json::from_slice::<OneOrMany>(&body) {
        Ok(f) => {
            let list = match f {
                OneOrMany::Many(v) => v,
                OneOrMany::One(f) => vec![f],
            };
            let queued = list.len();
            s.faults.push(list);
            Json(json!({"ok": true, "queued": queued, "pending": s.faults.pending().len()})).into_response()
        }
        Err(e) => bad_request(format!("invalid faults: {e}")),
    }
}

async fn clear_faults(State(s): State<Arc<Shared>>) -> Json<Value> {
    s.faults.clear();
    Json(json!({"ok": true}))
}

async fn get_requests(State(s): State<Arc<Shared>>) -> Json<Vec<LoggedRequest>> {
    Json(s.requests())
}

async fn clear_requests(State(s): State<Arc<Shared>>) -> Json<Value> {
    s.clear_requests();
    Json(json!({"ok": true}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn redacts_credentials_and_keeps_the_rest() {
        let mut h = HeaderMap::new();
        h.insert("authorization", HeaderValue::from_static("Bearer sk-secret"));
        h.insert("x-api-key", HeaderValue::from_static("sk-secret"));
        h.insert("anthropic-version", HeaderValue::from_static("2023-06-01"));
        let r = LoggedRequest::new("POST", "/v1/messages", &h, br#"{"model":"m"}"#);
        assert_eq!(r.headers["authorization"], "***");
        assert_eq!(r.headers["x-api-key"], "***");
        assert_eq!(r.headers["anthropic-version"], "2023-06-01");
        assert_eq!(r.body, json!({"model": "m"}));
        assert!(!serde_json::to_string(&r).unwrap().contains("sk-secret"));
    }
}
