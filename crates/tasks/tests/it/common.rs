use std::path::{Path, PathBuf};

pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/tasks")
}

/// The shared corpus (read-only): `$SKILLSCOPE_CORPUS_DIR`, else `shared/corpus`
/// beside the repository. `None` (the test then skips) when absent.
pub(crate) fn corpus(sub: &str) -> Option<PathBuf> {
    let base = std::env::var_os("SKILLSCOPE_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let p = base.join(sub);
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipped: corpus folder {} is absent", p.display());
        None
    }
}

/// Copies a fixture folder into a temp dir so a test can break it.
pub(crate) fn copy_fixture(rel: &str) -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let src = fixtures().join(rel);
    let dst = d.path().join(src.file_name().unwrap());
    copy_dir(&src, &dst);
    (d, dst)
}

fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), to).unwrap();
        }
    }
}
