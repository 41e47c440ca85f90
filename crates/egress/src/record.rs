//! What the sink saw: one record per HTTP request, TLS ClientHello and DNS query, kept in a
//! bounded list (a flooding agent costs us a counter, not memory).

use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};

/// Most records kept per sink; later ones are counted in [`crate::Sink::dropped`].
pub const MAX_RECORDS: usize = 10_000;
/// Most bytes (bodies, headers, names) kept over all records of a sink.
pub const MAX_STORED_BYTES: usize = 32 << 20;
/// Most body bytes kept per record; `body_bytes` counts them all.
pub const BODY_CAP: usize = 64 << 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EgressKind {
    /// A plain HTTP request (port 80, or anything on the TCP socket that is not TLS).
    Http,
    /// A TLS ClientHello; the connection is not terminated, so only the server name is known.
    Tls,
    /// A DNS query.
    Dns,
    /// An HTTP request inside a TLS connection the sink terminated (the container trusted the
    /// sink's own authority): recorded in the clear.
    Https,
}

/// One thing a container tried to send out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EgressRecord {
    pub kind: EgressKind,
    /// The loopback port the client connected to (80, 443; 53 for DNS), when the forwarder said.
    pub port: Option<u16>,
    /// HTTP `Host` (or the host of an absolute URL), TLS server name (SNI), DNS query name.
    pub host: Option<String>,
    pub method: Option<String>,
    /// HTTP request target, query string included.
    pub path: Option<String>,
    pub headers: Vec<(String, String)>,
    /// The body as lossy UTF-8, up to [`BODY_CAP`] bytes of it; for what was not HTTP, TLS or
    /// DNS, the raw bytes received.
    pub body: String,
    /// Body bytes received, kept or not.
    pub body_bytes: u64,
    /// DNS query type (`A`, `AAAA`, `TXT`, … or `TYPE<n>`).
    pub query_type: Option<String>,
    /// Milliseconds since the sink started.
    pub at_ms: u64,
}

impl EgressRecord {
    /// The attempt in one line: `DNS A host`, `HTTP GET host/path`, `TLS host`.
    pub fn line(&self) -> String {
        let host = self.host.as_deref().unwrap_or("(no host)");
        match self.kind {
            EgressKind::Dns => format!("DNS {} {host}", self.query_type.as_deref().unwrap_or("?")),
            EgressKind::Http => {
                format!("HTTP {} {host}{}", self.method.as_deref().unwrap_or("?"), self.path.as_deref().unwrap_or(""))
            }
            EgressKind::Tls => format!("TLS {host}"),
            EgressKind::Https => {
                format!("HTTPS {} {host}{}", self.method.as_deref().unwrap_or("?"), self.path.as_deref().unwrap_or(""))
            }
        }
    }

    pub(crate) fn new(kind: EgressKind, port: Option<u16>) -> Self {
        EgressRecord {
            kind,
            port,
            host: None,
            method: None,
            path: None,
            headers: Vec::new(),
            body: String::new(),
            body_bytes: 0,
            query_type: None,
            at_ms: 0,
        }
    }

    fn stored_bytes(&self) -> usize {
        let opt = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        self.body.len()
            + opt(&self.host)
            + opt(&self.method)
            + opt(&self.path)
            + opt(&self.query_type)
            + self.headers.iter().map(|(k, v)| k.len() + v.len()).sum::<usize>()
    }
}

/// Records in arrival order, up to [`MAX_RECORDS`] and [`MAX_STORED_BYTES`].
pub(crate) struct Recorder {
    started: Instant,
    inner: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    records: Vec<EgressRecord>,
    bytes: usize,
    dropped: u64,
}

impl Recorder {
    pub(crate) fn new() -> Self {
        Recorder { started: Instant::now(), inner: Mutex::new(Kept::default()) }
    }

    pub(crate) fn push(&self, mut record: EgressRecord) {
        record.at_ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let size = record.stored_bytes();
        let mut kept = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if kept.records.len() >= MAX_RECORDS || kept.bytes + size > MAX_STORED_BYTES {
            kept.dropped += 1;
            return;
        }
        kept.bytes += size;
        kept.records.push(record);
    }

    pub(crate) fn records(&self) -> Vec<EgressRecord> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).records.clone()
    }

    pub(crate) fn dropped(&self) -> u64 {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).dropped
    }
}

/// Lossy UTF-8 of at most `cap` bytes.
pub(crate) fn lossy(bytes: &[u8], cap: usize) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(cap)]).into_owned()
}

/// A pseudo-random sequence for the tests' garbage inputs.
#[cfg(test)]
pub(crate) fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_capped_by_count_and_by_bytes() {
        let rec = Recorder::new();
        for _ in 0..MAX_RECORDS + 3 {
            rec.push(EgressRecord::new(EgressKind::Dns, None));
        }
        assert_eq!((rec.records().len(), rec.dropped()), (MAX_RECORDS, 3));

        let rec = Recorder::new();
        let big = EgressRecord { body: "x".repeat(BODY_CAP), ..EgressRecord::new(EgressKind::Http, None) };
        for _ in 0..MAX_STORED_BYTES / BODY_CAP + 5 {
            rec.push(big.clone());
        }
        assert_eq!((rec.records().len(), rec.dropped()), (MAX_STORED_BYTES / BODY_CAP, 5));
    }
}
