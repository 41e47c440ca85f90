//! Building images from Dockerfile contexts, reusing an earlier build of the same context.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use bollard::query_parameters::{
    BuildImageOptionsBuilder, ListImagesOptionsBuilder, RemoveImageOptionsBuilder, TagImageOptionsBuilder,
};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};

use crate::engine::Engine;
use crate::error::SandboxError;
use crate::spec::MANAGED_LABEL;
use crate::transfer::pack_dir;

/// Label holding the sha256 of the context tar an image was built from.
pub const CONTEXT_LABEL: &str = "skillscope.context_sha256";

/// An image made from a Dockerfile context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltImage {
    /// The local image id (`sha256:…`).
    pub id: String,
    /// True when an image built earlier from a byte-identical context was reused.
    pub reused: bool,
    /// SHA-256 of the context tar: the cache key.
    pub context_sha256: String,
}

impl Engine {
    /// Builds the Dockerfile context at `context_dir` (a Harbor `environment/` directory)
    /// and tags it `tag`. An image already built from a byte-identical context is reused
    /// (and tagged `tag`) instead.
    pub async fn build_image(&self, context_dir: &Path, tag: &str) -> Result<BuiltImage, SandboxError> {
        if !context_dir.join("Dockerfile").is_file() {
            return Err(SandboxError::ImageBuild(format!("no Dockerfile in {}", context_dir.display())));
        }
        let context = pack_dir(context_dir, "", None)?;
        let sha = hex::encode(Sha256::digest(&context));
        if let Some(id) = self.image_with_context(&sha).await? {
            self.tag(&id, tag).await?;
            return Ok(BuiltImage { id, reused: true, context_sha256: sha });
        }

        let dangling_before = self.dangling_images().await?;
        let labels = HashMap::from([(MANAGED_LABEL, "true".to_string()), (CONTEXT_LABEL, sha.clone())]);
        let options = BuildImageOptionsBuilder::default()
            .dockerfile("Dockerfile")
            .t(tag)
            .labels(&labels)
            .rm(true)
            .forcerm(true)
            .build();
        let mut stream = self.docker.build_image(options, None, Some(bollard::body_full(context.into())));
        let mut log = String::new();
        let mut failure = None;
        while let Some(info) = stream.next().await {
            match info {
                Ok(info) => {
                    if let Some(text) = info.stream {
                        log.push_str(&text);
                    }
                    if let Some(detail) = info.error_detail.and_then(|d| d.message) {
                        failure = Some(detail);
                    }
                }
                Err(e) => failure = Some(e.to_string()),
            }
        }
        self.remove_intermediates(&dangling_before, &log).await?;
        if let Some(message) = failure {
            let tail: Vec<&str> = log.lines().rev().take(20).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(SandboxError::ImageBuild(format!("{tag}: {message}\n{}", tail.join("\n"))));
        }
        let id = self.image_id(tag).await?;
        let id = id.ok_or_else(|| SandboxError::ImageBuild(format!("{tag}: built image not found")))?;
        Ok(BuiltImage { id, reused: false, context_sha256: sha })
    }

    async fn image_with_context(&self, sha: &str) -> Result<Option<String>, SandboxError> {
        let filters = HashMap::from([("label", vec![format!("{CONTEXT_LABEL}={sha}")])]);
        let options = ListImagesOptionsBuilder::default().filters(&filters).build();
        let images = self.docker.list_images(Some(options)).await?;
        // Newest first, so every caller agrees on one image even if a race built two.
        Ok(images.into_iter().max_by_key(|i| (i.created, i.id.clone())).map(|image| image.id))
    }

    /// Points `reference` (`name[:tag]`) at image `id`.
    pub(crate) async fn tag(&self, id: &str, reference: &str) -> Result<(), SandboxError> {
        let (repo, tag) = match reference.rsplit_once(':') {
            Some((repo, tag)) if !tag.contains('/') => (repo, tag),
            _ => (reference, "latest"),
        };
        let options = TagImageOptionsBuilder::default().repo(repo).tag(tag).build();
        Ok(self.docker.tag_image(id, Some(options)).await?)
    }

    async fn dangling_images(&self) -> Result<HashSet<String>, SandboxError> {
        let filters = HashMap::from([("dangling", vec!["true"])]);
        let options = ListImagesOptionsBuilder::default().filters(&filters).build();
        let images = self.docker.list_images(Some(options)).await?;
        Ok(images.into_iter().map(|image| image.id).collect())
    }

    /// Removes images this build left dangling (multi-stage intermediates): dangling now,
    /// not before, and named in our build log (` ---> <short id>`), so never another's.
    async fn remove_intermediates(&self, before: &HashSet<String>, log: &str) -> Result<(), SandboxError> {
        let ours: HashSet<&str> =
            log.lines().filter_map(|line| line.trim().strip_prefix("---> ")).map(str::trim).collect();
        let options = RemoveImageOptionsBuilder::default().build();
        for id in self.dangling_images().await?.difference(before) {
            let short = id.trim_start_matches("sha256:").get(..12).unwrap_or_default();
            if ours.contains(short) {
                tracing::debug!(image = %id, "removing build intermediate");
                self.docker.remove_image(id, Some(options.clone()), None).await?;
            }
        }
        Ok(())
    }
}
