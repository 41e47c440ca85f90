//! Connection to the Docker engine and engine-wide operations (images, managed containers).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use bollard::models::ContainerSummaryStateEnum;
use bollard::query_parameters::{
    CreateImageOptionsBuilder, ListContainersOptionsBuilder, RemoveContainerOptionsBuilder,
};
use bollard::Docker;
use futures_util::TryStreamExt;
use serde::{Deserialize, Serialize};

use crate::error::{is_not_found, SandboxError};
use crate::owner::Owner;
use crate::spec::MANAGED_LABEL;

/// Time the engine may take to start answering a request (image imports are slow).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(600);
const PING_TIMEOUT: Duration = Duration::from_secs(10);

/// A handle on one Docker engine. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Engine {
    pub(crate) docker: Docker,
    socket: String,
    /// Whether the storage driver takes a per-container size quota, once a create has told.
    pub(crate) quota_support: Arc<OnceLock<bool>>,
    /// Directories found empty in a fresh container, given to an owner (see
    /// [`crate::Container::give_image_dir`]).
    pub(crate) bare_dirs: Arc<Mutex<BareDirs>>,
}

/// Archives of empty image folders given to an owner, by image id, path and owner.
pub(crate) type BareDirs = HashMap<(String, String, Owner), Vec<u8>>;

/// A container carrying the `skillscope.managed=true` label.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManagedContainer {
    pub id: String,
    pub labels: HashMap<String, String>,
    pub running: bool,
}

/// How a user gets a missing image onto the engine.
const PREPARE_IMAGE: &str = "pull it where a registry is reachable (docker pull), build it (docker build), or, for \
Skillscope's own images (skillscope/...), run `skillscope image bootstrap`";

impl Engine {
    /// Connects to the engine the docker CLI would use (`DOCKER_HOST`, the docker context, the
    /// default socket) or, when that does not answer, the rootless Docker or Podman socket; the
    /// error is the first candidate's (see [`crate::discovery`]).
    pub async fn connect() -> Result<Engine, SandboxError> {
        let mut first_error = None;
        for endpoint in crate::discovery::candidates(&crate::discovery::Environment::from_process()) {
            match Engine::connect_host(&endpoint.host).await {
                Ok(engine) => return Ok(engine),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or_else(|| SandboxError::EngineUnavailable {
            socket: "(none)".into(),
            detail: "no engine address to try".into(),
        }))
    }

    /// Connects to the engine at `host`: `unix://…`, `tcp://…`, `npipe://…`, or a socket path.
    pub async fn connect_host(host: &str) -> Result<Engine, SandboxError> {
        if host.starts_with("unix://") || host.starts_with('/') {
            return Engine::connect_to(host).await;
        }
        Engine::establish(host.to_string(), Docker::connect_with_host(host)).await
    }

    /// Connects to the engine listening on the unix socket at `socket_path`.
    pub async fn connect_to(socket_path: &str) -> Result<Engine, SandboxError> {
        let path = socket_path.trim_start_matches("unix://");
        #[cfg(unix)]
        let docker = Docker::connect_with_unix(path, 120, bollard::API_DEFAULT_VERSION);
        // Windows reaches its engine through a named pipe or TCP (see `discovery`).
        #[cfg(not(unix))]
        let docker = Err(bollard::errors::Error::UnsupportedURISchemeError { uri: format!("unix://{path}") });
        Engine::establish(format!("unix://{path}"), docker).await
    }

    /// The engine's product name and version, e.g. "Docker Engine - Community 20.10.24".
    pub async fn describe(&self) -> Result<String, SandboxError> {
        let v = self.docker.version().await?;
        let name =
            v.platform.map(|p| p.name).filter(|n| !n.is_empty()).unwrap_or_else(|| "Docker-compatible engine".into());
        Ok(format!("{name} {}", v.version.unwrap_or_default()).trim().to_string())
    }

    async fn establish(socket: String, docker: Result<Docker, bollard::errors::Error>) -> Result<Engine, SandboxError> {
        let unavailable = |detail: String| SandboxError::EngineUnavailable { socket: socket.clone(), detail };
        let docker = docker.map_err(|e| unavailable(e.to_string()))?;
        let negotiated = tokio::time::timeout(PING_TIMEOUT, docker.negotiate_version())
            .await
            .map_err(|_| unavailable("no answer within 10 s".into()))?
            .map_err(|e| unavailable(e.to_string()))?;
        let engine = Engine {
            docker: negotiated.with_timeout(REQUEST_TIMEOUT),
            socket,
            quota_support: Arc::default(),
            bare_dirs: Arc::default(),
        };
        engine.ping().await?;
        Ok(engine)
    }

    /// Whether this engine's storage driver enforces a container's disk quota: `None` until a
    /// container with a quota has been created.
    pub fn disk_quota_supported(&self) -> Option<bool> {
        self.quota_support.get().copied()
    }

    /// The address this engine was reached at, e.g. `unix:///var/run/docker.sock`.
    pub fn socket(&self) -> &str {
        &self.socket
    }

    pub async fn ping(&self) -> Result<(), SandboxError> {
        let unavailable = |detail: String| SandboxError::EngineUnavailable { socket: self.socket.clone(), detail };
        tokio::time::timeout(PING_TIMEOUT, self.docker.ping())
            .await
            .map_err(|_| unavailable("no answer within 10 s".into()))?
            .map_err(|e| unavailable(e.to_string()))?;
        Ok(())
    }

    /// The local image id (`sha256:…`) of `image`, the digest recorded with a run.
    pub async fn image_id(&self, image: &str) -> Result<Option<String>, SandboxError> {
        match self.docker.inspect_image(image).await {
            Ok(inspect) => Ok(inspect.id),
            Err(e) if is_not_found(&e) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The value of label `key` on local image `image` (None: no such image, or no such label).
    pub async fn image_label(&self, image: &str, key: &str) -> Result<Option<String>, SandboxError> {
        match self.docker.inspect_image(image).await {
            Ok(inspect) => Ok(inspect.config.and_then(|c| c.labels).and_then(|mut l| l.remove(key))),
            Err(e) if is_not_found(&e) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Returns the id of `image`, pulling it first when it is not present locally.
    pub(crate) fn bare_dirs(&self) -> std::sync::MutexGuard<'_, BareDirs> {
        self.bare_dirs.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub async fn ensure_image(&self, image: &str) -> Result<String, SandboxError> {
        match self.image_id(image).await? {
            Some(id) => Ok(id),
            None => self.pull(image, |_| {}).await,
        }
    }

    /// Pulls `image` from its registry; `progress` receives the engine's status lines (a layer's
    /// "Downloading 12MB/30MB", "Pull complete", the digest). Returns the image id.
    pub async fn pull(&self, image: &str, mut progress: impl FnMut(&str)) -> Result<String, SandboxError> {
        let failed = |detail: String| {
            SandboxError::ImageMissing(format!(
                "{image}: not on this engine and the pull failed ({detail}); {PREPARE_IMAGE}"
            ))
        };
        let options = CreateImageOptionsBuilder::default().from_image(image).build();
        let mut stream = self.docker.create_image(Some(options), None, None);
        while let Some(info) = stream.try_next().await.map_err(|e| failed(e.to_string()))? {
            if let Some(e) = info.error_detail.and_then(|d| d.message) {
                return Err(failed(e));
            }
            let bytes = info.progress_detail.and_then(|p| Some(format!("{}/{} MB", p.current? >> 20, p.total? >> 20)));
            let line: Vec<String> = [info.id, info.status, bytes].into_iter().flatten().collect();
            if !line.is_empty() {
                progress(&line.join(" "));
            }
        }
        self.image_id(image)
            .await?
            .ok_or_else(|| SandboxError::ImageMissing(format!("{image}: absent after the pull; {PREPARE_IMAGE}")))
    }

    /// All containers, running or not, labelled `skillscope.managed=true`.
    pub async fn managed_containers(&self) -> Result<Vec<ManagedContainer>, SandboxError> {
        let filters = HashMap::from([("label", vec![format!("{MANAGED_LABEL}=true")])]);
        let options = ListContainersOptionsBuilder::default().all(true).filters(&filters).build();
        let listed = self.docker.list_containers(Some(options)).await?;
        Ok(listed
            .into_iter()
            .map(|c| ManagedContainer {
                id: c.id.unwrap_or_default(),
                labels: c.labels.unwrap_or_default(),
                running: c.state == Some(ContainerSummaryStateEnum::RUNNING),
            })
            .collect())
    }

    /// Force-removes a container with its anonymous volumes; a missing one is fine.
    pub async fn remove_container(&self, id: &str) -> Result<(), SandboxError> {
        let options = RemoveContainerOptionsBuilder::default().force(true).v(true).build();
        match self.docker.remove_container(id, Some(options)).await {
            Ok(()) => Ok(()),
            Err(e) if is_not_found(&e) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }
}
