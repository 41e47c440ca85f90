//! `run_once` removes its container, also when the command fails. Its own test binary so
//! that no other test creates managed containers meanwhile.

mod common;

use std::time::Duration;

use skillscope_sandbox::bootstrap::BUSYBOX_TAG;
use skillscope_sandbox::{run_once, NetworkMode};

#[tokio::test]
async fn run_once_runs_and_cleans_up() {
    let engine = common::engine().await;
    common::busybox(&engine).await;
    let ids = |list: Vec<skillscope_sandbox::ManagedContainer>| list.into_iter().map(|c| c.id).collect::<Vec<_>>();
    let before = ids(engine.managed_containers().await.unwrap());

    let cmd = common::sh(
        "echo out; cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/cpu/cpu.cfs_quota_us; exit 4",
    );
    let start = std::time::Instant::now();
    let r =
        run_once(&engine, BUSYBOX_TAG, NetworkMode::None, 48 << 20, 0.5, Duration::from_secs(10), &cmd).await.unwrap();
    eprintln!("run_once (create+start+exec+remove): {:?}", start.elapsed());
    assert_eq!(r.exit_code, Some(4));
    assert_eq!(r.stdout, format!("out\n{}\n50000\n", 48 << 20));

    let err =
        run_once(&engine, "skillscope/does-not-exist:0", NetworkMode::None, 1 << 30, 1.0, Duration::from_secs(5), &cmd)
            .await
            .unwrap_err();
    assert!(matches!(err, skillscope_sandbox::SandboxError::ImageMissing(_)));

    assert_eq!(ids(engine.managed_containers().await.unwrap()), before);
}
