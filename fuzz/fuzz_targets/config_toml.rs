//! The workspace's `config.toml` and a price table.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = skillscope_models::PriceTable::from_toml_str(text);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, data).unwrap();
    let _ = skillscope_store::config::Config::load(&path);
});
