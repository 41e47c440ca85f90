//! Moving files in and out of containers as tar archives, and the tar packing behind it.

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use bollard::query_parameters::{DownloadFromContainerOptionsBuilder, UploadToContainerOptionsBuilder};
use futures_util::StreamExt;
use walkdir::WalkDir;

use crate::container::Container;
use crate::error::SandboxError;

/// Largest archive [`Container::download`] accepts.
pub const DOWNLOAD_LIMIT: usize = 256 << 20;

/// Packs the contents of `dir` under `prefix` (relative, may be empty) into a tar.
/// Entries are sorted and carry no owner or timestamp, so equal trees give equal bytes.
/// Symlinks are stored as links, not followed.
pub(crate) fn pack_dir(dir: &Path, prefix: &str) -> Result<Vec<u8>, SandboxError> {
    let mut builder = tar::Builder::new(Vec::new());
    for entry in WalkDir::new(dir).min_depth(1).sort_by_file_name() {
        let entry = entry.map_err(|e| SandboxError::Io(e.to_string()))?;
        let rel = entry.path().strip_prefix(dir).map_err(|e| SandboxError::Io(e.to_string()))?;
        let name = Path::new(prefix).join(rel);
        let meta = std::fs::symlink_metadata(entry.path())?;
        let mut header = tar::Header::new_gnu();
        header.set_metadata_in_mode(&meta, tar::HeaderMode::Deterministic);
        header.set_mode(meta.permissions().mode() & 0o7777);
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(entry.path())?;
            builder.append_link(&mut header, &name, &target)?;
        } else if meta.is_dir() {
            builder.append_data(&mut header, &name, std::io::empty())?;
        } else if meta.is_file() {
            let file = std::fs::File::open(entry.path())?;
            builder.append_data(&mut header, &name, file)?;
        }
    }
    Ok(builder.into_inner()?)
}

/// Packs in-memory files (paths relative to `prefix`) into a tar.
fn pack_files(files: &[(String, Vec<u8>)], prefix: &str) -> Result<Vec<u8>, SandboxError> {
    let mut builder = tar::Builder::new(Vec::new());
    for (rel, contents) in files {
        let rel = rel.trim_start_matches('/');
        if rel.split('/').any(|part| part == "..") {
            return Err(SandboxError::Io(format!("path escapes the target: {rel}")));
        }
        let mut header = tar::Header::new_gnu();
        header.set_size(contents.len() as u64);
        header.set_mode(0o644);
        header.set_entry_type(tar::EntryType::Regular);
        builder.append_data(&mut header, Path::new(prefix).join(rel), contents.as_slice())?;
    }
    Ok(builder.into_inner()?)
}

/// Regular files of a tar as (path, contents), directories and links skipped.
fn unpack_files(archive: &[u8]) -> Result<Vec<(String, Vec<u8>)>, SandboxError> {
    let mut files = Vec::new();
    let mut reader = tar::Archive::new(archive);
    for entry in reader.entries()? {
        let mut entry = entry?;
        if entry.header().entry_type() != tar::EntryType::Regular {
            continue;
        }
        let path = entry.path()?.to_string_lossy().into_owned();
        let mut contents = Vec::new();
        entry.read_to_end(&mut contents)?;
        files.push((path, contents));
    }
    Ok(files)
}

/// `container_dir` as a tar prefix relative to `/`, so uploads at `/` create it.
fn relative_target(container_dir: &str) -> Result<&str, SandboxError> {
    if !container_dir.starts_with('/') {
        return Err(SandboxError::Io(format!("container path must be absolute: {container_dir}")));
    }
    Ok(container_dir.trim_matches('/'))
}

impl Container {
    /// Copies the contents of `host_dir` into `container_dir`, creating it if needed.
    /// Files arrive owned by root with their host permission bits.
    pub async fn upload_dir(&self, host_dir: &Path, container_dir: &str) -> Result<(), SandboxError> {
        let archive = pack_dir(host_dir, relative_target(container_dir)?)?;
        self.upload_archive(archive, "/", false).await
    }

    /// Writes `files` (paths relative to `container_dir`) into the container, mode 0644.
    pub async fn upload_files(&self, files: &[(String, Vec<u8>)], container_dir: &str) -> Result<(), SandboxError> {
        let archive = pack_files(files, relative_target(container_dir)?)?;
        self.upload_archive(archive, "/", false).await
    }

    /// Copies the directory `path` of this container (running or stopped) to the same path in
    /// `target`, as the engine archives it: contents, owners, modes and links unchanged.
    pub async fn copy_dir_to(&self, path: &str, target: &Container) -> Result<(), SandboxError> {
        relative_target(path)?;
        let path = path.trim_end_matches('/');
        let parent = match path.rsplit_once('/') {
            Some(("", _)) | None => "/",
            Some((parent, _)) => parent,
        };
        let archive = self.download_archive(path).await?;
        target.upload_archive(archive, parent, true).await
    }

    /// Unpacks `archive` at `dir`, an existing directory of the container; the entries keep the
    /// archive's owners with `keep_owners`, else they belong to root.
    async fn upload_archive(&self, archive: Vec<u8>, dir: &str, keep_owners: bool) -> Result<(), SandboxError> {
        let mut options = UploadToContainerOptionsBuilder::default().path(dir);
        if keep_owners {
            options = options.copy_uidgid("1");
        }
        let options = options.build();
        self.engine
            .docker
            .upload_to_container(&self.id, Some(options), bollard::body_full(archive.into()))
            .await
            .map_err(|e| self.lost(e))
    }

    /// The regular files at `container_path` (a file or a directory), named as in
    /// `docker cp`: relative to its parent, so `/work` yields `work/a.txt`.
    pub async fn download(&self, container_path: &str) -> Result<Vec<(String, Vec<u8>)>, SandboxError> {
        unpack_files(&self.download_archive(container_path).await?)
    }

    async fn download_archive(&self, container_path: &str) -> Result<Vec<u8>, SandboxError> {
        let options = DownloadFromContainerOptionsBuilder::default().path(container_path).build();
        let mut stream = self.engine.docker.download_from_container(&self.id, Some(options));
        let mut archive = Vec::new();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| match e {
                bollard::errors::Error::DockerResponseServerError { status_code: 404, message }
                    if !message.contains("No such container") =>
                {
                    SandboxError::Io(format!("{container_path}: {message}"))
                }
                other => self.lost(other),
            })?;
            if archive.len() + chunk.len() > DOWNLOAD_LIMIT {
                return Err(SandboxError::TooLarge(format!(
                    "{container_path}: archive exceeds {} MiB",
                    DOWNLOAD_LIMIT >> 20
                )));
            }
            archive.extend_from_slice(&chunk);
        }
        Ok(archive)
    }
}
