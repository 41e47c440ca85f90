//! A SWE-Skills-Bench requirement document.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = skillscope_tasks::swe_skills_bench::doc::parse(text);
    }
});
