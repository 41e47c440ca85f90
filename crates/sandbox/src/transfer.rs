//! Moving files in and out of containers as tar archives, and the tar packing behind it.

use std::io::Read;
use std::path::Path;

use bollard::query_parameters::{DownloadFromContainerOptionsBuilder, UploadToContainerOptionsBuilder};
use futures_util::StreamExt;
use walkdir::WalkDir;

use crate::container::Container;
use crate::error::SandboxError;
use crate::owner::Owner;

/// Largest archive [`Container::download`] accepts.
pub const DOWNLOAD_LIMIT: usize = 256 << 20;

/// A tar being packed; with an owner its entries belong to that owner, and the target folder
/// itself is an entry (so it belongs to them too), else they carry no owner.
struct Packer {
    builder: tar::Builder<Vec<u8>>,
    owner: Option<Owner>,
}

impl Packer {
    fn new(prefix: &str, owner: Option<Owner>) -> Result<Self, SandboxError> {
        let mut packer = Packer { builder: tar::Builder::new(Vec::new()), owner };
        if owner.is_some() && !prefix.is_empty() {
            packer.dir(Path::new(prefix), 0o755)?;
        }
        Ok(packer)
    }

    fn header(&self, mode: u32) -> tar::Header {
        let mut header = tar::Header::new_gnu();
        header.set_mode(mode);
        self.own(&mut header);
        header
    }

    fn own(&self, header: &mut tar::Header) {
        if let Some(o) = self.owner {
            header.set_uid(o.uid);
            header.set_gid(o.gid);
        }
    }

    fn dir(&mut self, name: &Path, mode: u32) -> Result<(), SandboxError> {
        let mut header = self.header(mode);
        header.set_entry_type(tar::EntryType::Directory);
        header.set_size(0);
        Ok(self.builder.append_data(&mut header, name, std::io::empty())?)
    }

    fn finish(self) -> Result<Vec<u8>, SandboxError> {
        Ok(self.builder.into_inner()?)
    }
}

/// The file's Unix permission bits; hosts without them (Windows) give directories and files the
/// usual defaults.
#[cfg(unix)]
fn unix_mode(meta: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
fn unix_mode(meta: &std::fs::Metadata) -> u32 {
    if meta.is_dir() {
        0o755
    } else {
        0o644
    }
}

/// Packs the contents of `dir` under `prefix` (relative, may be empty) into a tar.
/// Entries are sorted and carry no timestamp, so equal trees give equal bytes.
/// Symlinks are stored as links, not followed.
pub(crate) fn pack_dir(dir: &Path, prefix: &str, owner: Option<Owner>) -> Result<Vec<u8>, SandboxError> {
    let mut packer = Packer::new(prefix, owner)?;
    for entry in WalkDir::new(dir).min_depth(1).sort_by_file_name() {
        let entry = entry.map_err(|e| SandboxError::Io(e.to_string()))?;
        let rel = entry.path().strip_prefix(dir).map_err(|e| SandboxError::Io(e.to_string()))?;
        let name = Path::new(prefix).join(rel);
        let meta = std::fs::symlink_metadata(entry.path())?;
        let mode = unix_mode(&meta);
        if meta.is_dir() {
            packer.dir(&name, mode)?;
            continue;
        }
        let mut header = tar::Header::new_gnu();
        header.set_metadata_in_mode(&meta, tar::HeaderMode::Deterministic);
        header.set_mode(mode);
        packer.own(&mut header);
        if meta.file_type().is_symlink() {
            packer.builder.append_link(&mut header, &name, std::fs::read_link(entry.path())?)?;
        } else if meta.is_file() {
            packer.builder.append_data(&mut header, &name, std::fs::File::open(entry.path())?)?;
        }
    }
    packer.finish()
}

/// Packs in-memory files (paths relative to `prefix`) into a tar; with an owner, the folders
/// between `prefix` and each file are entries too, so that they belong to the owner.
fn pack_files(files: &[(String, Vec<u8>)], prefix: &str, owner: Option<Owner>) -> Result<Vec<u8>, SandboxError> {
    let mut packer = Packer::new(prefix, owner)?;
    let mut dirs = std::collections::BTreeSet::new();
    for (rel, contents) in files {
        let rel = rel.trim_start_matches('/');
        if rel.split('/').any(|part| part == "..") {
            return Err(SandboxError::Io(format!("path escapes the target: {rel}")));
        }
        if owner.is_some() {
            for dir in Path::new(rel).ancestors().skip(1).filter(|d| !d.as_os_str().is_empty()) {
                if dirs.insert(dir.to_path_buf()) {
                    packer.dir(&Path::new(prefix).join(dir), 0o755)?;
                }
            }
        }
        let mut header = packer.header(0o644);
        header.set_size(contents.len() as u64);
        header.set_entry_type(tar::EntryType::Regular);
        packer.builder.append_data(&mut header, Path::new(prefix).join(rel), contents.as_slice())?;
    }
    packer.finish()
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

/// The archive with every entry owned by `owner`, all else (names, modes, links, contents) kept.
fn reown(archive: &[u8], owner: Owner) -> Result<Vec<u8>, SandboxError> {
    let mut builder = tar::Builder::new(Vec::new());
    let mut reader = tar::Archive::new(archive);
    for entry in reader.entries()? {
        let mut entry = entry?;
        let mut header = entry.header().clone();
        header.set_uid(owner.uid);
        header.set_gid(owner.gid);
        let path = entry.path()?.into_owned();
        match entry.link_name()? {
            Some(target) => {
                let target = target.into_owned();
                builder.append_link(&mut header, &path, &target)?
            }
            None => builder.append_data(&mut header, &path, &mut entry)?,
        }
    }
    Ok(builder.into_inner()?)
}

/// A directory taken out of a container ([`Container::dir_archive`]).
pub struct DirArchive {
    parent: String,
    archive: Vec<u8>,
}

impl DirArchive {
    /// Its regular files, as [`Container::snapshot`] records them.
    pub fn snapshot(&self) -> Result<crate::Snapshot, SandboxError> {
        Ok(crate::snapshot::of_archive(unpack_files(&self.archive)?))
    }

    /// Its symbolic and hard links, by path relative to the directory: the snapshot leaves them
    /// out, and a link can stand where a regular file would be loaded.
    pub fn links(&self) -> Result<Vec<String>, SandboxError> {
        let mut links = Vec::new();
        for entry in tar::Archive::new(self.archive.as_slice()).entries()? {
            let entry = entry?;
            if matches!(entry.header().entry_type(), tar::EntryType::Symlink | tar::EntryType::Link) {
                let path = entry.path()?.to_string_lossy().into_owned();
                if let Some((_, rel)) = path.split_once('/') {
                    links.push(rel.trim_end_matches('/').to_string());
                }
            }
        }
        Ok(links)
    }
}

/// An absolute directory path without its trailing slash, and its parent.
fn dir_and_parent(path: &str) -> Result<(&str, &str), SandboxError> {
    relative_target(path)?;
    let path = path.trim_end_matches('/');
    let parent = match path.rsplit_once('/') {
        Some(("", _)) | None => "/",
        Some((parent, _)) => parent,
    };
    Ok((path, parent))
}

/// `container_dir` as a tar prefix relative to `/`, so uploads at `/` create it.
fn relative_target(container_dir: &str) -> Result<&str, SandboxError> {
    if !container_dir.starts_with('/') {
        return Err(SandboxError::Io(format!("container path must be absolute: {container_dir}")));
    }
    Ok(container_dir.trim_matches('/'))
}

impl Container {
    /// Copies the contents of `host_dir` into `container_dir`, creating it if needed, with their
    /// host permission bits; owned by `owner` (and `container_dir` with them), else by root.
    pub async fn upload_dir(
        &self,
        host_dir: &Path,
        container_dir: &str,
        owner: Option<Owner>,
    ) -> Result<(), SandboxError> {
        let archive = pack_dir(host_dir, relative_target(container_dir)?, owner)?;
        self.upload_archive(archive, "/", owner.is_some()).await
    }

    /// Writes `files` (paths relative to `container_dir`) into the container, mode 0644; with an
    /// owner, `container_dir` and the folders on the way to each file belong to them too.
    pub async fn upload_files(
        &self,
        files: &[(String, Vec<u8>)],
        container_dir: &str,
        owner: Option<Owner>,
    ) -> Result<(), SandboxError> {
        let archive = pack_files(files, relative_target(container_dir)?, owner)?;
        self.upload_archive(archive, "/", owner.is_some()).await
    }

    /// Copies the directory `path` of this container (running or stopped) to the same path in
    /// `target`, as the engine archives it: contents, owners, modes and links unchanged.
    pub async fn copy_dir_to(&self, path: &str, target: &Container) -> Result<(), SandboxError> {
        target.put_dir(&self.dir_archive(path).await?).await
    }

    /// The directory `path` as an archive, to look into ([`DirArchive::snapshot`]) and to put in
    /// another container ([`Container::put_dir`]) without reading it twice.
    pub async fn dir_archive(&self, path: &str) -> Result<DirArchive, SandboxError> {
        let (path, parent) = dir_and_parent(path)?;
        Ok(DirArchive { parent: parent.to_string(), archive: self.download_archive(path).await? })
    }

    /// Unpacks a directory taken from another container at the same place, owners kept.
    pub async fn put_dir(&self, dir: &DirArchive) -> Result<(), SandboxError> {
        self.upload_archive(dir.archive.clone(), &dir.parent, true).await
    }

    /// Makes the directory `path` and everything in it belong to `owner` (root without
    /// capabilities cannot chown): its archive comes out and goes back in with the owner's ids.
    /// Bounded by [`DOWNLOAD_LIMIT`].
    pub async fn give_dir(&self, path: &str, owner: Owner) -> Result<(), SandboxError> {
        self.give(path, owner, false).await
    }

    /// [`Container::give_dir`] for a container nothing has run in yet, whose `path` holds what its
    /// image put there: an image's folder that held nothing (with no mount under it) is known by
    /// the image's id after the first time, and its entry alone goes in without reading it again.
    pub async fn give_image_dir(&self, path: &str, owner: Owner) -> Result<(), SandboxError> {
        self.give(path, owner, true).await
    }

    async fn give(&self, path: &str, owner: Owner, as_imaged: bool) -> Result<(), SandboxError> {
        let (path, parent) = dir_and_parent(path)?;
        let under = |target: &String| target == path || target.starts_with(&format!("{path}/"));
        let key = (as_imaged && self.image.starts_with("sha256:") && !self.mount_targets.iter().any(under))
            .then(|| (self.image.clone(), path.to_string(), owner));
        let known = key.as_ref().and_then(|k| self.engine.bare_dirs().get(k).cloned());
        let archive = match known {
            Some(archive) => archive,
            None => {
                let archive = reown(&self.download_archive(path).await?, owner)?;
                if let (Some(k), 1) = (key, tar::Archive::new(&archive[..]).entries()?.count()) {
                    self.engine.bare_dirs().insert(k, archive.clone());
                }
                archive
            }
        };
        self.upload_archive(archive, parent, true).await
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
