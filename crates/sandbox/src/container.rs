//! A sandbox container's lifecycle: create, start, inspect, stop, remove.

use std::time::Duration;

use bollard::query_parameters::{CreateContainerOptions, StartContainerOptions, StopContainerOptionsBuilder};
use serde::{Deserialize, Serialize};

use crate::engine::Engine;
use crate::error::{is_not_found, SandboxError};
use crate::spec::ContainerSpec;

/// A container created by [`Engine::create`]. Dropping it does not remove it.
#[derive(Clone, Debug)]
pub struct Container {
    pub id: String,
    pub(crate) engine: Engine,
    /// The writable layer's size quota the storage driver enforces; `None` when the spec asked
    /// for none or the driver cannot enforce one.
    pub disk_quota: Option<u64>,
    /// The image it was made from, as the spec named it.
    pub(crate) image: String,
    /// Where its read-only mounts are.
    pub(crate) mount_targets: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContainerState {
    pub running: bool,
    pub oom_killed: bool,
    pub exit_code: Option<i64>,
}

impl Engine {
    /// Creates (does not start) a container from `spec`. A disk quota the storage driver refuses
    /// is dropped (and not asked again of this engine): the container is made without it.
    pub async fn create(&self, spec: &ContainerSpec) -> Result<Container, SandboxError> {
        let try_quota = spec.disk_quota_bytes.is_some() && self.quota_support.get() != Some(&false);
        let created = match self.create_raw(spec, try_quota).await {
            Err(e) if try_quota && refuses_quota(&e) => {
                tracing::info!(error = %e, "the storage driver has no size quota; disk use is watched instead");
                let _ = self.quota_support.set(false);
                self.create_raw(spec, false).await
            }
            other => {
                if try_quota && other.is_ok() {
                    let _ = self.quota_support.set(true);
                }
                other
            }
        };
        let created = created.map_err(|e| {
            if is_not_found(&e) {
                SandboxError::ImageMissing(format!("{}: {e}", spec.image))
            } else {
                SandboxError::Engine(e.to_string())
            }
        })?;
        let disk_quota = spec.disk_quota_bytes.filter(|_| try_quota && self.quota_support.get() == Some(&true));
        Ok(Container {
            id: created.id,
            engine: self.clone(),
            disk_quota,
            image: spec.image.clone(),
            mount_targets: spec.ro_mounts.iter().map(|(_, target)| target.clone()).collect(),
        })
    }

    async fn create_raw(
        &self,
        spec: &ContainerSpec,
        with_quota: bool,
    ) -> Result<bollard::models::ContainerCreateResponse, bollard::errors::Error> {
        self.docker.create_container(None::<CreateContainerOptions>, spec.create_body(with_quota)).await
    }
}

/// The engine's refusal of `--storage-opt size` (Docker: "--storage-opt is supported only for
/// overlay over xfs with 'pquota' mount option"; other drivers: "storage opt ... not supported").
fn refuses_quota(e: &bollard::errors::Error) -> bool {
    let text = e.to_string().to_ascii_lowercase();
    text.contains("storage-opt") || text.contains("storage opt") || text.contains("storageopt")
}

impl Container {
    pub(crate) fn lost(&self, err: bollard::errors::Error) -> SandboxError {
        SandboxError::from_container(&self.id, err)
    }

    pub async fn start(&self) -> Result<(), SandboxError> {
        self.engine.docker.start_container(&self.id, None::<StartContainerOptions>).await.map_err(|e| self.lost(e))
    }

    pub async fn inspect_state(&self) -> Result<ContainerState, SandboxError> {
        let inspect = self.engine.docker.inspect_container(&self.id, None).await.map_err(|e| self.lost(e))?;
        let state = inspect.state.unwrap_or_default();
        Ok(ContainerState {
            running: state.running.unwrap_or(false),
            oom_killed: state.oom_killed.unwrap_or(false),
            exit_code: state.exit_code,
        })
    }

    /// Bytes in the container's writable layer: everything its processes wrote outside mounts
    /// (the engine measures it; on a large layer that takes a moment).
    pub async fn disk_used(&self) -> Result<u64, SandboxError> {
        let options = bollard::query_parameters::InspectContainerOptionsBuilder::default().size(true).build();
        let inspect = self.engine.docker.inspect_container(&self.id, Some(options)).await.map_err(|e| self.lost(e))?;
        Ok(inspect.size_rw.unwrap_or(0).max(0) as u64)
    }

    /// Sends SIGTERM, then SIGKILL after `grace`. Stopping a stopped container is fine.
    pub async fn stop(&self, grace: Duration) -> Result<(), SandboxError> {
        let seconds = i32::try_from(grace.as_secs()).unwrap_or(i32::MAX);
        let options = StopContainerOptionsBuilder::default().t(seconds).build();
        match self.engine.docker.stop_container(&self.id, Some(options)).await {
            Ok(()) => Ok(()),
            Err(bollard::errors::Error::DockerResponseServerError { status_code: 304, .. }) => Ok(()),
            Err(e) => Err(self.lost(e)),
        }
    }

    /// Force-removes the container; an already removed one is fine.
    pub async fn remove(&self) -> Result<(), SandboxError> {
        self.engine.remove_container(&self.id).await
    }
}
