//! `run_once` applies its limits and removes its container, also when the command fails.
//! Other tests create managed containers at the same time, so the container is identified by
//! its hostname (Docker's short container id), not by comparing container lists.

use std::time::{Duration, Instant};

use skillscope_sandbox::bootstrap::BUSYBOX_TAG;
use skillscope_sandbox::{run_once, NetworkMode, SandboxError};

use crate::common::{busybox, engine, sh};
use crate::limits::{parse_limits, Limits, LIMITS_SCRIPT};

#[tokio::test]
async fn run_once_runs_and_cleans_up() {
    let engine = engine().await;
    busybox(&engine).await;

    let cmd = sh(&format!("echo out; hostname\n{LIMITS_SCRIPT}exit 4"));
    let start = Instant::now();
    let r =
        run_once(&engine, BUSYBOX_TAG, NetworkMode::None, 48 << 20, 0.5, Duration::from_secs(10), &cmd).await.unwrap();
    eprintln!("run_once (create+start+exec+remove): {:?}", start.elapsed());
    assert_eq!(r.exit_code, Some(4), "{r:?}");
    let mut lines = r.stdout.splitn(3, '\n');
    assert_eq!(lines.next(), Some("out"), "{r:?}");
    let hostname = lines.next().unwrap_or_default();
    assert_eq!(hostname.len(), 12, "short container id expected: {r:?}");
    let limits = parse_limits(lines.next().unwrap_or_default()).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    // The default pids limit applies; swap is off.
    let expected =
        Limits { memory_bytes: Some(48 << 20), swap_bytes: Some(0), nano_cpus: Some(500_000_000), pids: Some(256) };
    assert_eq!(limits, expected);
    let left = engine.managed_containers().await.unwrap();
    assert!(!left.iter().any(|c| c.id.starts_with(hostname)), "{hostname} left behind: {left:?}");
    assert!(!docker_knows(hostname), "{hostname} left behind");

    let err =
        run_once(&engine, "skillscope/does-not-exist:0", NetworkMode::None, 1 << 30, 1.0, Duration::from_secs(5), &cmd)
            .await
            .unwrap_err();
    assert!(matches!(err, SandboxError::ImageMissing(_)), "{err:?}");
    // Nothing was created: no container, running or not, of the missing image.
    let listed = std::process::Command::new("docker").args(["ps", "-a", "--format", "{{.Image}}"]).output().unwrap();
    assert!(listed.status.success(), "{listed:?}");
    assert!(!String::from_utf8_lossy(&listed.stdout).lines().any(|image| image == "skillscope/does-not-exist:0"));
}

/// Whether the engine still knows a container by this (short) id.
fn docker_knows(id: &str) -> bool {
    let out = std::process::Command::new("docker").args(["inspect", "--type", "container", id]).output().unwrap();
    out.status.success()
}
