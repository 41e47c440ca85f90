//! The workspace's `config.toml` and price tables (`prices.toml`, a LiteLLM price JSON).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = skillscope_models::PriceTable::from_toml_str(text);
        let _ = skillscope_models::PriceTable::from_litellm_json(text);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, data).unwrap();
    let _ = skillscope_store::config::Config::load(&path);
});
