//! Recording what a run changed: snapshots of a directory and the differences between two.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use similar::TextDiff;

use crate::container::Container;
use crate::error::SandboxError;

/// Files larger than this are recorded by hash only.
pub const SNAPSHOT_FILE_CAP: usize = 1 << 20;

/// The regular files under a directory, keyed by path relative to it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    pub files: BTreeMap<String, SnapshotFile>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotFile {
    pub size: u64,
    pub sha256: String,
    /// None when the file exceeds [`SNAPSHOT_FILE_CAP`].
    pub contents: Option<Vec<u8>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Created,
    Modified,
    Deleted,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileChange {
    pub path: String,
    pub kind: ChangeKind,
    /// Unified diff, when both sides are known and are text.
    pub diff: Option<String>,
}

impl Snapshot {
    pub fn from_files(files: Vec<(String, Vec<u8>)>) -> Snapshot {
        let files = files
            .into_iter()
            .map(|(path, contents)| {
                let file = SnapshotFile {
                    size: contents.len() as u64,
                    sha256: hex::encode(Sha256::digest(&contents)),
                    contents: (contents.len() <= SNAPSHOT_FILE_CAP).then_some(contents),
                };
                (path, file)
            })
            .collect();
        Snapshot { files }
    }
}

impl Container {
    /// The files under `dir` (bounded by the download limit); a missing `dir` is empty.
    pub async fn snapshot(&self, dir: &str) -> Result<Snapshot, SandboxError> {
        match self.download(dir).await {
            Ok(files) => Ok(of_archive(files)),
            Err(SandboxError::Io(_)) => Ok(Snapshot::default()),
            Err(e) => Err(e),
        }
    }
}

/// The snapshot of a directory's archive listing (entries named after the directory: stripped).
pub(crate) fn of_archive(listing: Vec<(String, Vec<u8>)>) -> Snapshot {
    let files = listing
        .into_iter()
        .filter_map(|(path, contents)| {
            let (_, rel) = path.split_once('/')?;
            Some((rel.to_string(), contents))
        })
        .collect();
    Snapshot::from_files(files)
}

/// What changed between two snapshots of the same directory, sorted by path.
pub fn file_changes(before: &Snapshot, after: &Snapshot) -> Vec<FileChange> {
    let mut paths: Vec<&String> = before.files.keys().chain(after.files.keys()).collect();
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .filter_map(|path| {
            let old = before.files.get(path);
            let new = after.files.get(path);
            let kind = match (old, new) {
                (None, Some(_)) => ChangeKind::Created,
                (Some(_), None) => ChangeKind::Deleted,
                (Some(a), Some(b)) if a.sha256 != b.sha256 => ChangeKind::Modified,
                _ => return None,
            };
            Some(FileChange { path: path.clone(), kind, diff: text_diff(path, old, new) })
        })
        .collect()
}

fn text_diff(path: &str, old: Option<&SnapshotFile>, new: Option<&SnapshotFile>) -> Option<String> {
    let text = |file: Option<&SnapshotFile>| -> Option<String> {
        match file {
            None => Some(String::new()),
            Some(f) => {
                let bytes = f.contents.as_deref()?;
                if bytes.contains(&0) {
                    return None;
                }
                String::from_utf8(bytes.to_vec()).ok()
            }
        }
    };
    let (old, new) = (text(old)?, text(new)?);
    let diff =
        TextDiff::from_lines(&old, &new).unified_diff().header(&format!("a/{path}"), &format!("b/{path}")).to_string();
    Some(diff)
}
