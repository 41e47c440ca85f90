//! Content-addressed file store: `objects/<first two hex>/<rest of sha256>`.

use crate::error::{IoError, Result, StoreError};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct BlobStore {
    root: PathBuf,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

impl BlobStore {
    pub fn open(root: PathBuf) -> Result<Self> {
        std::fs::create_dir_all(&root).map_err(|e| IoError::new(root.display(), e))?;
        Ok(Self { root })
    }

    fn path_of(&self, sha: &str) -> Result<PathBuf> {
        if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(StoreError::BadDigest(sha.to_string()));
        }
        Ok(self.root.join(&sha[..2]).join(&sha[2..]))
    }

    /// Stores bytes under their hash; already-present content is not rewritten.
    /// Writes go through a temporary file and a rename so a crash never leaves a torn blob.
    pub fn put(&self, sha: &str, bytes: &[u8]) -> Result<()> {
        let path = self.path_of(sha)?;
        if path.exists() {
            return Ok(());
        }
        let dir = path.parent().expect("blob path has a parent");
        std::fs::create_dir_all(dir).map_err(|e| IoError::new(dir.display(), e))?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| IoError::new(dir.display(), e))?;
        tmp.write_all(bytes).map_err(|e| IoError::new(path.display(), e))?;
        tmp.persist(&path).map_err(|e| IoError::new(path.display(), e.error))?;
        Ok(())
    }

    pub fn get(&self, sha: &str) -> Result<Vec<u8>> {
        let path = self.path_of(sha)?;
        Ok(std::fs::read(&path).map_err(|e| IoError::new(format!("stored file {sha}"), e))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejects_bad_hash() {
        let dir = tempfile::tempdir().unwrap();
        let store = BlobStore::open(dir.path().join("o")).unwrap();
        let sha = sha256_hex(b"hello");
        store.put(&sha, b"hello").unwrap();
        store.put(&sha, b"hello").unwrap();
        assert_eq!(store.get(&sha).unwrap(), b"hello");
        assert!(store.get("../../etc/passwd").is_err());
    }
}
