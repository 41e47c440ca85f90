//! A provider's server-sent event stream, in chunks split where the input says.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut parser = skillscope_models::sse::SseParser::default();
    let cut = data.first().map_or(1, |b| usize::from(*b).max(1));
    for chunk in data.chunks(cut) {
        let _ = parser.push(chunk);
    }
});
