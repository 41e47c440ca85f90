//! An ATIF trajectory file: import, and validation of any JSON.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = skillscope_atif::import_bytes(data);
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
        let _ = skillscope_atif::validate(&value);
    }
});
