//! What a verifier leaves to be read: pytest's JUnit XML, Harbor's reward files, a JSON score.
#![no_main]
use skillscope_tasks::{score, TaskVerifier};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let stdout = String::from_utf8_lossy(data);
    for verifier in [
        TaskVerifier::Pytest { test_files: Vec::new(), args: Vec::new(), tests_dir: "/tests".into() },
        TaskVerifier::HarborTests { tests_dir_files: Vec::new() },
        TaskVerifier::JsonScoreCommand { command: "true".into() },
    ] {
        let _ = score(&verifier, Some(0), false, &stdout, Some(data));
    }
});
