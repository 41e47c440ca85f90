//! The engine's own record of what a container changed in its filesystem, against its image.

use bollard::models::ChangeType;
use serde::{Deserialize, Serialize};

use crate::container::Container;
use crate::error::SandboxError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineChangeKind {
    Modified,
    Added,
    Deleted,
}

/// One path the container changed; a changed file also marks its parent directories modified.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineChange {
    pub path: String,
    pub kind: EngineChangeKind,
}

impl Container {
    /// Every path added, modified or deleted outside mounts since the container was created
    /// (`docker diff`), sorted by path.
    pub async fn engine_changes(&self) -> Result<Vec<EngineChange>, SandboxError> {
        let changes = self.engine.docker.container_changes(&self.id).await.map_err(|e| self.lost(e))?;
        let mut out: Vec<EngineChange> = changes
            .unwrap_or_default()
            .into_iter()
            .map(|c| EngineChange {
                kind: match c.kind {
                    ChangeType::_0 => EngineChangeKind::Modified,
                    ChangeType::_1 => EngineChangeKind::Added,
                    ChangeType::_2 => EngineChangeKind::Deleted,
                },
                path: c.path,
            })
            .collect();
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }
}
