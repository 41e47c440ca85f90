//! A key-adding reverse proxy on a Unix socket. A coding-agent harness running inside a trial's
//! container (which has no network) reaches its model provider through this socket, holding only a
//! placeholder key: the real key is added here, on the host, and never enters the container.
//! Requests take their place under the provider's concurrency limit like any other call, and the
//! time the harness spends on the provider's failures (answers it will retry, and its backoff
//! until the next request) is counted in the proxy's [`ProviderWait`], so that it can be left out
//! of the agent's wall time; so is whether a request is in flight, whose time is not known to be
//! the model's until it ends. A proxy may also hold a harness to a number of model calls (its
//! configuration's turn limit, for a harness that has no such setting of its own): the call past
//! it is answered with an error the harness reports, and the proxy says the limit was reached.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;
use futures_util::StreamExt;

use crate::{Client, ProviderWait};

/// Largest request body forwarded (a long conversation with tool outputs stays far below).
const MAX_BODY_BYTES: usize = 64 << 20;

/// The running proxy; dropping it stops it and removes its socket.
pub struct ProxyHandle {
    path: PathBuf,
    wait: Arc<ProviderWait>,
    calls: Arc<Calls>,
    model_time: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

/// Adds the time from a call's sending to the end of its answer's stream (this guard's drop, when
/// the body is done or abandoned) to a running total in milliseconds.
struct Timed {
    total: Arc<AtomicU64>,
    sent: Instant,
}

impl Drop for Timed {
    fn drop(&mut self) {
        self.total.fetch_add(self.sent.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

/// The model calls (POST requests) forwarded, against an optional most.
#[derive(Default)]
struct Calls {
    most: Option<u32>,
    made: AtomicU32,
    refused: AtomicBool,
}

impl Calls {
    /// Counts a call; false when it is one past the most (it is then not forwarded).
    fn admit(&self) -> bool {
        let made = self.made.fetch_add(1, Ordering::SeqCst) + 1;
        let over = self.most.is_some_and(|most| made > most);
        if over {
            self.refused.store(true, Ordering::SeqCst);
        }
        !over
    }
}

impl ProxyHandle {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The time the harness has waited on the provider through this proxy.
    pub fn wait(&self) -> Arc<ProviderWait> {
        self.wait.clone()
    }

    /// The model calls' time: the sum, over the calls the provider answered (not those it refused
    /// with a retryable status), of the time from sending to the answer's last byte, less the
    /// provider wait recorded meanwhile (a place under the concurrency limit). Calls made in
    /// parallel each count whole, and one call's wait can be taken off another's.
    pub fn model_ms(&self) -> u64 {
        self.model_time.load(Ordering::Relaxed)
    }

    /// Whether a call past the most was refused: the harness hit its turn limit.
    pub fn limit_reached(&self) -> bool {
        self.calls.refused.load(Ordering::SeqCst)
    }
}

#[derive(Clone)]
struct Proxy {
    client: Arc<Client>,
    wait: Arc<ProviderWait>,
    calls: Arc<Calls>,
    model_time: Arc<AtomicU64>,
}

impl Drop for ProxyHandle {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Serves `client`'s provider on a new Unix socket at `path` (any user in the container may
/// connect: the socket's folder is what is shared, with that one container only), forwarding at
/// most `most_calls` model calls when given.
pub async fn serve_unix(client: Arc<Client>, path: &Path, most_calls: Option<u32>) -> std::io::Result<ProxyHandle> {
    let _ = std::fs::remove_file(path);
    let listener = tokio::net::UnixListener::bind(path)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777))?;
    let wait = Arc::new(ProviderWait::default());
    let calls = Arc::new(Calls { most: most_calls, ..Calls::default() });
    let model_time = Arc::new(AtomicU64::new(0));
    let state = Proxy { client, wait: wait.clone(), calls: calls.clone(), model_time: model_time.clone() };
    let app = Router::new().fallback(forward).with_state(state);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::warn!("model proxy stopped: {e}");
        }
    });
    Ok(ProxyHandle { path: path.to_owned(), wait, calls, model_time, task })
}

/// Statuses a harness retries: the time they took, and the backoff after them, is the provider's.
fn retryable(status: StatusCode) -> bool {
    matches!(status.as_u16(), 408 | 429) || status.is_server_error()
}

async fn forward(State(proxy): State<Proxy>, request: Request) -> Response {
    proxy.wait.backoff_ended();
    let flight = proxy.wait.flight();
    let (parts, body) = request.into_parts();
    if parts.method == axum::http::Method::POST && !proxy.calls.admit() {
        // Shaped like the providers' own errors, so the harness shows the message and stops.
        let message = format!(
            "skillscope: the configuration's turn limit ({} model calls) was reached",
            proxy.calls.most.unwrap_or_default()
        );
        let body = serde_json::json!({"type": "error", "error": {"type": "invalid_request_error", "message": message}});
        return (StatusCode::BAD_REQUEST, [(axum::http::header::CONTENT_TYPE, "application/json")], body.to_string())
            .into_response();
    }
    let Some(path) = parts.uri.path_and_query().map(|p| p.as_str().to_owned()) else {
        return (StatusCode::BAD_REQUEST, "no path").into_response();
    };
    let body = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(b) => b,
        Err(e) => return (StatusCode::PAYLOAD_TOO_LARGE, format!("request body: {e}")).into_response(),
    };
    let sent = Instant::now();
    let failed = |wait: &ProviderWait| {
        wait.add(sent.elapsed());
        wait.backoff_started();
    };
    let waited_before = proxy.wait.waited();
    match proxy.client.forward(parts.method, &path, &parts.headers, body, &proxy.wait).await {
        Ok((upstream, permit)) => {
            let timed = if retryable(upstream.status()) {
                failed(&proxy.wait);
                None
            } else {
                // A wait for a place under the provider's limit is the provider's, not the model's.
                let queued = proxy.wait.waited().saturating_sub(waited_before);
                Some(Timed { total: proxy.model_time.clone(), sent: sent + queued })
            };
            let mut response = Response::builder().status(upstream.status());
            for (name, value) in upstream.headers() {
                if !matches!(name.as_str(), "content-length" | "connection" | "transfer-encoding") {
                    response = response.header(name, value);
                }
            }
            // The place under the limit, and the request's flight, are held until the answer has
            // streamed through.
            let body = upstream.bytes_stream().map(move |chunk| {
                let _held = (&permit, &timed, &flight);
                chunk
            });
            response
                .body(Body::from_stream(body))
                .unwrap_or_else(|e| (StatusCode::BAD_GATEWAY, e.to_string()).into_response())
        }
        Err(e) => {
            failed(&proxy.wait);
            (StatusCode::BAD_GATEWAY, format!("model provider unreachable: {e}")).into_response()
        }
    }
}
