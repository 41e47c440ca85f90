//! The HTTP server: routes, shared state, the model-request pipeline
//! (log → fault → auth → model check → script → render) and the handle.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::{DefaultBodyLimit, OriginalUri, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{Json, Router};
use bytes::Bytes;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::api::{gemini, Answer, Api, ApiError, Usage};
// `Shared` lives in `control` (the lower module); re-exported at its old path.
pub use crate::control::Shared;
use crate::control::{self, LoggedRequest};
use crate::faults::Fault;
use crate::script::Script;
use crate::sse::Delivery;

/// Model name used in answers and `/v1/models` when none is configured.
pub const DEFAULT_MODEL: &str = "skillscope-scripted";

/// How to run a server.
#[derive(Debug, Clone, Default)]
pub struct ServerOptions {
    pub script: Script,
    /// When set, only this key is accepted (any key is accepted otherwise,
    /// but one must be present).
    pub require_key: Option<String>,
    /// Accepted model names; empty accepts any model.
    pub models: Vec<String>,
}

/// The key from `x-api-key`, `x-goog-api-key` or `Authorization: Bearer`, if any.
pub fn presented_key(headers: &HeaderMap) -> Option<String> {
    let nonempty = |s: &str| (!s.trim().is_empty()).then(|| s.trim().to_string());
    for name in ["x-api-key", "x-goog-api-key"] {
        if let Some(k) = headers.get(name).and_then(|v| v.to_str().ok()).and_then(nonempty) {
            return Some(k);
        }
    }
    let auth = headers.get("authorization")?.to_str().ok()?;
    let (scheme, rest) = auth.split_once(' ')?;
    if scheme.eq_ignore_ascii_case("bearer") {
        nonempty(rest)
    } else {
        None
    }
}

/// Rejects a request without a key, or with another key than the required one.
fn check_key(s: &Shared, headers: &HeaderMap) -> Result<(), ApiError> {
    let key = presented_key(headers).ok_or(ApiError::Unauthorized)?;
    match &s.require_key {
        Some(k) if *k != key => Err(ApiError::Unauthorized),
        _ => Ok(()),
    }
}

/// The configured model names, or [`DEFAULT_MODEL`] when none are.
fn model_names(s: &Shared) -> Vec<String> {
    if s.models.is_empty() {
        vec![DEFAULT_MODEL.to_string()]
    } else {
        s.models.clone()
    }
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// Runs one model request through faults, checks and the script.
async fn model_request(
    api: Api,
    s: Arc<Shared>,
    method: Method,
    uri: OriginalUri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    s.record(LoggedRequest::new(method.as_str(), &uri.0.to_string(), &headers, &body));
    let _answering = s.enter();
    let seq = s.seq.fetch_add(1, Ordering::SeqCst) + 1;
    let mut delivery = Delivery::Normal;
    let fault = s.faults.pop();
    if let Some(f) = &fault {
        tracing::info!(?f, path = %uri.0, "injecting fault");
    }
    match fault {
        None => {}
        Some(Fault::RateLimit { retry_after_secs }) => return api.error(&ApiError::RateLimited { retry_after_secs }),
        Some(Fault::ServerError { status }) => return api.error(&ApiError::Server(status)),
        Some(Fault::Unauthorized) => return api.error(&ApiError::Unauthorized),
        Some(Fault::Slow { delay_ms }) => tokio::time::sleep(Duration::from_millis(delay_ms)).await,
        Some(Fault::SlowServerError { delay_ms, status }) => {
            tokio::time::sleep(Duration::from_millis(delay_ms)).await;
            return api.error(&ApiError::Server(status));
        }
        Some(Fault::CutStream) => delivery = Delivery::Cut,
        Some(Fault::MalformedJson) => delivery = Delivery::Malformed,
    }
    if let Err(e) = check_key(&s, &headers) {
        return api.error(&e);
    }
    let body: Value = match serde_json::from_slice(&body) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => return api.error(&ApiError::BadRequest("body must be a JSON object".into())),
        Err(e) => return api.error(&ApiError::BadRequest(format!("invalid JSON body: {e}"))),
    };
    let conv = api.conversation(uri.0.path(), &body);
    if !s.models.is_empty() && !s.models.contains(&conv.model) {
        return api.error(&ApiError::ModelNotFound(conv.model));
    }
    let reply = s.script.read().unwrap_or_else(|e| e.into_inner()).plan(&conv);
    let answer = Answer {
        usage: Usage::estimate(&conv, &reply),
        reply,
        model: if conv.model.is_empty() { DEFAULT_MODEL.to_string() } else { conv.model.clone() },
        seq,
        created: now_secs(),
        stream: conv.stream,
        include_usage: body.pointer("/stream_options/include_usage").and_then(Value::as_bool).unwrap_or(false),
    };
    api.render(&answer, delivery)
}

/// `POST` on a model route speaking `api`.
fn model_route(api: Api) -> MethodRouter<Arc<Shared>> {
    post(move |State(s): State<Arc<Shared>>, m: Method, u: OriginalUri, h: HeaderMap, b: Bytes| {
        model_request(api, s, m, u, h, b)
    })
}

/// `POST /v1/messages/count_tokens`: the same estimate as usage.
async fn count_tokens(State(s): State<Arc<Shared>>, h: HeaderMap, b: Bytes) -> Response {
    if let Err(e) = check_key(&s, &h) {
        return Api::Anthropic.error(&e);
    }
    let body: Value = serde_json::from_slice(&b).unwrap_or(Value::Null);
    let conv = Api::Anthropic.conversation("", &body);
    Json(json!({"input_tokens": (conv.prompt_chars as u64).div_ceil(4).max(1)})).into_response()
}

/// `GET /v1/models`, with both OpenAI and Anthropic fields on each entry.
async fn models(State(s): State<Arc<Shared>>) -> Json<Value> {
    let names = model_names(&s);
    let data: Vec<Value> = names
        .iter()
        .map(|m| {
            json!({
                "id": m, "object": "model", "created": 0, "owned_by": "skillscope",
                "type": "model", "display_name": m, "created_at": "2025-01-01T00:00:00Z"
            })
        })
        .collect();
    Json(json!({
        "object": "list", "data": data, "has_more": false,
        "first_id": names.first(), "last_id": names.last()
    }))
}

/// `POST /v1beta/models/{model}:{action}`: Gemini's generation (streamed or not) and token count.
async fn gemini(s: State<Arc<Shared>>, m: Method, u: OriginalUri, h: HeaderMap, b: Bytes) -> Response {
    match gemini::model_and_action(u.0.path()).map(|(_, action)| action) {
        Some("generateContent" | "streamGenerateContent") => model_request(Api::Gemini, s.0, m, u, h, b).await,
        Some("countTokens") => {
            if let Err(e) = check_key(&s, &h) {
                return Api::Gemini.error(&e);
            }
            let body: Value = serde_json::from_slice(&b).unwrap_or(Value::Null);
            // The request wraps the contents in a `generateContentRequest`, or gives them bare.
            let request = body.get("generateContentRequest").unwrap_or(&body);
            Json(gemini::count_tokens(&Api::Gemini.conversation(u.0.path(), request))).into_response()
        }
        _ => not_found(s, m, u, h, b).await,
    }
}

async fn root() -> &'static str {
    "skillscope model server\n"
}

async fn not_found(State(s): State<Arc<Shared>>, m: Method, u: OriginalUri, h: HeaderMap, b: Bytes) -> Response {
    s.record(LoggedRequest::new(m.as_str(), &u.0.to_string(), &h, &b));
    let body = json!({"error": {"message": format!("Unknown route {} {}", m, u.0.path()),
        "type": "invalid_request_error", "param": null, "code": "unknown_url"}});
    (StatusCode::NOT_FOUND, Json(body)).into_response()
}

/// All routes of the server.
pub fn router(s: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(root))
        .route("/v1/chat/completions", model_route(Api::ChatCompletions))
        .route("/chat/completions", model_route(Api::ChatCompletions))
        .route("/v1/responses", model_route(Api::Responses))
        .route("/responses", model_route(Api::Responses))
        .route("/v1/messages", model_route(Api::Anthropic))
        .route("/messages", model_route(Api::Anthropic))
        .route("/v1/messages/count_tokens", post(count_tokens))
        .route("/v1beta/models/{model_action}", post(gemini))
        .route("/v1/models", get(models))
        .route("/models", get(models))
        .merge(control::routes())
        .fallback(not_found)
        .layer(DefaultBodyLimit::disable())
        .with_state(s)
}

/// A running server. Dropping it shuts the server down.
#[derive(Debug)]
pub struct ServerHandle {
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub base_url: String,
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl ServerHandle {
    /// Queues faults for the next model requests, one per request.
    pub fn push_faults(&self, f: Vec<Fault>) {
        self.shared.faults.push(f);
    }

    /// The request log so far.
    pub fn requests(&self) -> Vec<LoggedRequest> {
        self.shared.requests()
    }

    /// The most model requests that were being answered at once so far.
    pub fn peak_in_flight(&self) -> usize {
        self.shared.peak_in_flight()
    }

    pub fn clear_requests(&self) {
        self.shared.clear_requests();
    }

    pub fn set_script(&self, s: Script) {
        self.shared.set_script(s);
    }

    pub fn script(&self) -> Script {
        self.shared.script()
    }

    /// Stops accepting connections and waits for the server task to end.
    pub async fn shutdown(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.task.take() {
            let _ = t.await;
        }
    }

    /// Waits until the server stops (it never does unless shut down).
    pub async fn wait(mut self) -> std::io::Result<()> {
        match self.task.take() {
            Some(t) => t.await.map_err(std::io::Error::other)?,
            None => Ok(()),
        }
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Starts a server on 127.0.0.1 with an OS-chosen port.
pub async fn start(opts: ServerOptions) -> std::io::Result<ServerHandle> {
    start_on(SocketAddr::from(([127, 0, 0, 1], 0)), opts).await
}

/// Starts a server on `addr`.
pub async fn start_on(addr: SocketAddr, opts: ServerOptions) -> std::io::Result<ServerHandle> {
    let listener = TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let shared = Arc::new(Shared::new(opts.script, opts.require_key, opts.models));
    let app = router(shared.clone());
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = rx.await;
            })
            .await
    });
    Ok(ServerHandle { base_url: format!("http://{addr}"), addr, shared, shutdown: Some(tx), task: Some(task) })
}
