//! The trial's disk limit as a watch: the engine's measure of a container's writable layer, checked
//! every second, in every phase that runs code in the trial's container (set-up, agent, verifier).
//! Where the storage driver enforces a quota it stops writes first; where it has none (overlay2 on
//! ext4) this is the only bound, and it can overshoot by what is written between two checks.

use std::future::Future;
use std::time::Duration;

const DISK_CHECK: Duration = Duration::from_secs(1);

/// Resolves, with the bytes written, once the container's writable layer holds more than
/// `limit`; a failed measurement is tried again at the next check.
pub(super) async fn over_disk(container: &skillscope_sandbox::Container, limit: u64) -> u64 {
    loop {
        tokio::time::sleep(DISK_CHECK).await;
        if let Ok(used) = container.disk_used().await {
            if used > limit {
                return used;
            }
        }
    }
}

/// `work`'s result, or the bytes written when `container` passed `limit` first (`work` is then
/// dropped; the caller stops what it ran).
pub(super) async fn within<T>(
    container: &skillscope_sandbox::Container,
    limit: u64,
    work: impl Future<Output = T>,
) -> Result<T, u64> {
    tokio::select! {
        r = work => Ok(r),
        used = over_disk(container, limit) => Err(used),
    }
}

/// The trial's disk limit in bytes.
pub(super) fn limit(spec: &super::model::TrialSpec) -> u64 {
    u64::from(spec.limits.disk_mb) << 20
}

/// What bounds the disk of a trial of `spec` run in `container`, as its arm's snapshot says it.
pub(super) fn held(container: &skillscope_sandbox::Container, spec: &super::model::TrialSpec) -> String {
    match container.disk_quota {
        Some(quota) => format!("the storage driver's quota of {} MiB, and a watch every second", quota >> 20),
        None => format!(
            "a watch of the writable layer every second at {} MiB (the storage driver has no quota)",
            spec.limits.disk_mb
        ),
    }
}
