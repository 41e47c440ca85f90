//! An experiment bundle, as the import reads it before it writes anything.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = skillscope_experiments::bundle::parse(data);
});
