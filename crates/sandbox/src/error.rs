//! Errors of the sandbox runner, split into infrastructure faults (the engine, an image
//! build, a vanished container) and problems with the inputs we were given.

use bollard::errors::Error as DockerError;

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("Docker engine unreachable at {socket}: {detail}")]
    EngineUnavailable { socket: String, detail: String },
    #[error("image not available: {0}")]
    ImageMissing(String),
    #[error("image build failed: {0}")]
    ImageBuild(String),
    #[error("container lost: {0}")]
    ContainerLost(String),
    #[error("Docker engine error: {0}")]
    Engine(String),
    #[error("I/O error: {0}")]
    Io(String),
    #[error("too large: {0}")]
    TooLarge(String),
}

impl SandboxError {
    /// True when the fault lies with the sandbox machinery rather than with what ran in
    /// it: the run should be retried or reported as an infrastructure failure, not scored.
    pub fn is_infrastructure(&self) -> bool {
        matches!(
            self,
            SandboxError::EngineUnavailable { .. }
                | SandboxError::ImageMissing(_)
                | SandboxError::ImageBuild(_)
                | SandboxError::ContainerLost(_)
                | SandboxError::Engine(_)
        )
    }

    /// Maps an engine error about container `id`: a 404 means the container is gone.
    pub(crate) fn from_container(id: &str, err: DockerError) -> SandboxError {
        if is_not_found(&err) {
            SandboxError::ContainerLost(format!("{id}: {err}"))
        } else {
            SandboxError::Engine(err.to_string())
        }
    }
}

impl From<DockerError> for SandboxError {
    fn from(err: DockerError) -> Self {
        SandboxError::Engine(err.to_string())
    }
}

impl From<std::io::Error> for SandboxError {
    fn from(err: std::io::Error) -> Self {
        SandboxError::Io(err.to_string())
    }
}

pub(crate) fn is_not_found(err: &DockerError) -> bool {
    matches!(err, DockerError::DockerResponseServerError { status_code: 404, .. })
}
