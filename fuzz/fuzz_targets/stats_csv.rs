//! The pairs CSV of `skillscope stats`, analysed when it reads.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(pairs) = skillscope_stats::read_pairs_csv(data) {
        if pairs.len() <= 64 {
            let _ = skillscope_stats::analyze(&pairs);
        }
    }
});
