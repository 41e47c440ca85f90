//! A provider's whole answer, read as each of the three APIs.
#![no_main]
use skillscope_models::{parse_answer, ApiKind};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    for api in [ApiKind::OpenAiChat, ApiKind::OpenAiResponses, ApiKind::Anthropic] {
        let _ = parse_answer(api, &body);
    }
});
