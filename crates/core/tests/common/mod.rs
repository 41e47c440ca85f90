//! Shared set-up for tests that need the real Docker engine and the local busybox image.
#![allow(dead_code)] // Each test binary uses a different part of this shared module.

use skillscope_core::queue::model::QueueEvent;
use skillscope_core::queue::worker::{self, Sink, WorkerOptions};
use skillscope_core::{AppError, Workspace};
use skillscope_sandbox::{bootstrap, Engine};
use std::sync::{Arc, Mutex};

pub const IMAGE: &str = "skillscope/busybox:1";

pub fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Runtime::new().unwrap()
}

/// Connects to the engine (failing loudly: these tests are about Docker) and builds busybox.
pub async fn engine() -> Engine {
    let e = Engine::connect().await.expect("a running Docker engine (scripts/test.sh starts dockerd)");
    bootstrap::busybox(&e).await.expect("busybox image");
    e
}

/// Collects every event the worker emits.
pub fn recorder() -> (Sink, Arc<Mutex<Vec<QueueEvent>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    (Arc::new(move |ev| s2.lock().unwrap().push(ev)), seen)
}

pub async fn drain(ws: &Workspace, socket: Option<String>, sink: Sink) -> Result<(), AppError> {
    worker::run(ws.clone(), WorkerOptions { drain: true, socket }, sink).await
}

/// Containers still present for this workspace.
pub async fn leftovers(engine: &Engine, ws: &Workspace) -> usize {
    let label = worker::workspace_label(ws);
    engine
        .managed_containers()
        .await
        .unwrap()
        .iter()
        .filter(|c| c.labels.get("skillscope.workspace") == Some(&label))
        .count()
}

/// A private session keyring for this process, so the kernel keyring store works headless.
pub fn join_session_keyring() {
    // SAFETY: keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL) creates and joins an anonymous keyring.
    let r = unsafe { libc::syscall(libc::SYS_keyctl, 1, std::ptr::null::<libc::c_char>()) };
    assert!(r >= 0, "keyctl join session keyring failed");
    std::env::set_var(skillscope_core::credentials::STORE_ENV, "keyutils");
}
