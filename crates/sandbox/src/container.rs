//! A sandbox container's lifecycle: start, inspect, stop, remove.

use std::time::Duration;

use bollard::query_parameters::{StartContainerOptions, StopContainerOptionsBuilder};
use serde::{Deserialize, Serialize};

use crate::engine::Engine;
use crate::error::SandboxError;

/// A container created by [`Engine::create`]. Dropping it does not remove it.
#[derive(Clone, Debug)]
pub struct Container {
    pub id: String,
    pub(crate) engine: Engine,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContainerState {
    pub running: bool,
    pub oom_killed: bool,
    pub exit_code: Option<i64>,
}

impl Container {
    pub(crate) fn new(engine: Engine, id: String) -> Self {
        Container { id, engine }
    }

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
