//! What a sandboxed trial sends the egress sink: the first byte picks the socket (odd: DNS, even:
//! the TCP socket, whose forwarder header, HTTP or TLS follows); the rest is the connection's bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else { return };
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime");
    rt.block_on(skillscope_egress::replay(first % 2 == 1, input));
});
