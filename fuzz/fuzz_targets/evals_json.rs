//! A skill's `evals/evals.json`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("evals.json");
    std::fs::write(&path, data).unwrap();
    let _ = skillscope_tasks::evals::import_file(&path);
});
