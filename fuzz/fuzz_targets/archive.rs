//! `.zip` and `.skill` archives, staged as an import stages them (bounded, names checked).
#![no_main]
use skillscope_library::model::{Source, SourceKind};
use skillscope_library::package::Budget;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.skill");
    std::fs::write(&path, data).unwrap();
    let base = Source {
        kind: SourceKind::Archive,
        location: path.display().to_string(),
        subpath: None,
        git_ref: None,
        git_commit: None,
    };
    let limits = skillscope_store::config::ImportLimits::default();
    let _ = skillscope_library::sources::archive::stage_all(&path, "", &base, &mut Budget::new(&limits));
});
