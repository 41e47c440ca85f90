//! A Harbor task folder's `task.toml` (with a valid instruction and test script beside it).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("task.toml"), data).unwrap();
    std::fs::write(dir.path().join("instruction.md"), "Do the task.\n").unwrap();
    std::fs::create_dir(dir.path().join("tests")).unwrap();
    std::fs::write(dir.path().join("tests/test.sh"), "exit 0\n").unwrap();
    let _ = skillscope_tasks::harbor::import_task(dir.path());
});
