//! A key-adding reverse proxy on a Unix socket. A coding-agent harness running inside a trial's
//! container (which has no network) reaches its model provider through this socket, holding only a
//! placeholder key: the real key is added here, on the host, and never enters the container.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;

use crate::Client;

/// Largest request body forwarded (a long conversation with tool outputs stays far below).
const MAX_BODY_BYTES: usize = 64 << 20;

/// The running proxy; dropping it stops it and removes its socket.
pub struct ProxyHandle {
    path: PathBuf,
    task: tokio::task::JoinHandle<()>,
}

impl ProxyHandle {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ProxyHandle {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Serves `client`'s provider on a new Unix socket at `path` (any user in the container may
/// connect: the socket's folder is what is shared, with that one container only).
pub async fn serve_unix(client: Arc<Client>, path: &Path) -> std::io::Result<ProxyHandle> {
    let _ = std::fs::remove_file(path);
    let listener = tokio::net::UnixListener::bind(path)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777))?;
    let app = Router::new().fallback(forward).with_state(client);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::warn!("model proxy stopped: {e}");
        }
    });
    Ok(ProxyHandle { path: path.to_owned(), task })
}

async fn forward(State(client): State<Arc<Client>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let Some(path) = parts.uri.path_and_query().map(|p| p.as_str().to_owned()) else {
        return (StatusCode::BAD_REQUEST, "no path").into_response();
    };
    let body = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(b) => b,
        Err(e) => return (StatusCode::PAYLOAD_TOO_LARGE, format!("request body: {e}")).into_response(),
    };
    match client.forward(parts.method, &path, &parts.headers, body).await {
        Ok(upstream) => {
            let mut response = Response::builder().status(upstream.status());
            for (name, value) in upstream.headers() {
                if !matches!(name.as_str(), "content-length" | "connection" | "transfer-encoding") {
                    response = response.header(name, value);
                }
            }
            response
                .body(Body::from_stream(upstream.bytes_stream()))
                .unwrap_or_else(|e| (StatusCode::BAD_GATEWAY, e.to_string()).into_response())
        }
        Err(e) => (StatusCode::BAD_GATEWAY, format!("model provider unreachable: {e}")).into_response(),
    }
}
