//! TLS on the sink: the ClientHello is read for its server name (SNI) and recorded. With an
//! [`Interceptor`] (a live sink's), the connection is then terminated with a certificate for that
//! name and the HTTP inside is recorded in the clear; a client that does not trust it ends the
//! handshake. Without one (a replay), the connection is refused with a handshake-failure alert.

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

use crate::conn::Conn;
use crate::http;
use crate::intercept::Interceptor;
use crate::record::{lossy, EgressKind, EgressRecord, Recorder, BODY_CAP};

const HANDSHAKE: u8 = 0x16;
const CLIENT_HELLO: u8 = 1;
const SERVER_NAME: u16 = 0;
/// Largest TLS record payload allowed (2^14 plus room for compression/expansion).
const MAX_RECORD: usize = (1 << 14) + 2048;
/// Largest ClientHello we wait for; real ones are a few hundred bytes to a few KiB.
const MAX_HELLO: usize = 64 << 10;
/// Fatal handshake_failure alert, TLS 1.2 record version.
const ALERT: [u8; 7] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28];

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Hello {
    /// A ClientHello, with its server name if it sent one.
    Parsed(Option<String>),
    NeedMore,
    /// Not a TLS handshake, or a broken one.
    Malformed,
}

/// Looks for a complete ClientHello at the start of `stream` (it may span several records).
pub(crate) fn client_hello(stream: &[u8]) -> Hello {
    let mut handshake = Vec::new();
    let mut pos = 0;
    loop {
        let Some(header) = stream.get(pos..pos + 5) else { return Hello::NeedMore };
        let len = usize::from(u16::from_be_bytes([header[3], header[4]]));
        if header[0] != HANDSHAKE || len == 0 || len > MAX_RECORD {
            return Hello::Malformed;
        }
        let Some(payload) = stream.get(pos + 5..pos + 5 + len) else { return Hello::NeedMore };
        handshake.extend_from_slice(payload);
        pos += 5 + len;
        if handshake.len() >= 4 {
            let msg_len = usize::from(handshake[1]) << 16 | usize::from(handshake[2]) << 8 | usize::from(handshake[3]);
            if handshake[0] != CLIENT_HELLO || msg_len > MAX_HELLO {
                return Hello::Malformed;
            }
            if let Some(body) = handshake.get(4..4 + msg_len) {
                return Hello::Parsed(server_name(body));
            }
        }
    }
}

/// Reads fields off a byte slice, `None` when it runs out.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = (self.0.get(..n)?, self.0.get(n..)?);
        self.0 = rest;
        Some(head)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_be_bytes([b[0], b[1]]))
    }

    /// A vector with a one- or two-byte length prefix.
    fn vec8(&mut self) -> Option<&'a [u8]> {
        let n = self.u8()?;
        self.take(usize::from(n))
    }

    fn vec16(&mut self) -> Option<&'a [u8]> {
        let n = self.u16()?;
        self.take(usize::from(n))
    }
}

/// The host name in a ClientHello body's server_name extension.
pub(crate) fn server_name(body: &[u8]) -> Option<String> {
    let mut r = Reader(body);
    r.take(2 + 32)?; // legacy_version, random
    r.vec8()?; // legacy_session_id
    r.vec16()?; // cipher_suites
    r.vec8()?; // legacy_compression_methods
    let mut extensions = Reader(r.vec16()?);
    while let (Some(kind), Some(data)) = (extensions.u16(), extensions.vec16()) {
        if kind != SERVER_NAME {
            continue;
        }
        let mut names = Reader(Reader(data).vec16()?);
        while let (Some(name_type), Some(name)) = (names.u8(), names.vec16()) {
            if name_type == 0 {
                return Some(String::from_utf8_lossy(name).into_owned());
            }
        }
    }
    None
}

pub(crate) async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    conn: &mut Conn<S>,
    port: Option<u16>,
    rec: &Recorder,
    intercept: Option<&Interceptor>,
) {
    let hello = loop {
        match client_hello(conn.buffered()) {
            Hello::NeedMore if conn.buffered().len() <= 2 * MAX_HELLO => {}
            Hello::NeedMore => break Hello::Malformed,
            done => break done,
        }
        if !matches!(conn.fill().await, Ok(n) if n > 0) {
            break Hello::Malformed;
        }
    };
    let mut record = EgressRecord::new(EgressKind::Tls, port);
    let named = matches!(hello, Hello::Parsed(Some(_)));
    match hello {
        Hello::Parsed(host) => record.host = host,
        _ => {
            // Not a whole ClientHello: keep the raw bytes, whatever they carry.
            record.body = lossy(conn.buffered(), BODY_CAP);
            record.body_bytes = conn.buffered().len() as u64;
        }
    }
    rec.push(record);
    match intercept {
        Some(intercept) if named => {
            let limits = conn.limits();
            let accepted = tokio::time::timeout_at(limits.1, intercept.acceptor.accept(&mut *conn)).await;
            if let Ok(Ok(tls)) = accepted {
                let mut inner = Conn::layered(tls, limits);
                http::serve(&mut inner, EgressKind::Https, port, rec).await;
                let _ = tokio::time::timeout_at(limits.1, inner.shutdown()).await;
            }
        }
        _ => {
            let _ = conn.write(&ALERT).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::xorshift;

    /// A ClientHello from Python's ssl module (OpenSSL 3, TLS 1.3) for `secure.example`.
    const HELLO: &[u8] = include_bytes!("../tests/data/client_hello_secure_example.bin");

    #[test]
    fn the_server_name_of_a_captured_client_hello() {
        assert_eq!(client_hello(HELLO), Hello::Parsed(Some("secure.example".into())));
        // Trailing bytes (the client's next records) do not matter.
        assert_eq!(client_hello(&[HELLO, &[0x17; 40]].concat()), Hello::Parsed(Some("secure.example".into())));
    }

    #[test]
    fn a_hello_split_over_several_records() {
        let handshake = &HELLO[5..];
        let mut stream = Vec::new();
        for piece in handshake.chunks(37) {
            stream.extend_from_slice(&[HANDSHAKE, 3, 1]);
            stream.extend_from_slice(&u16::try_from(piece.len()).unwrap().to_be_bytes());
            stream.extend_from_slice(piece);
        }
        assert_eq!(client_hello(&stream), Hello::Parsed(Some("secure.example".into())));
        for cut in 0..stream.len() {
            assert_eq!(client_hello(&stream[..cut]), Hello::NeedMore, "cut at {cut}");
        }
    }

    #[test]
    fn truncated_and_garbled_hellos_never_panic() {
        for cut in 0..HELLO.len() {
            assert_eq!(client_hello(&HELLO[..cut]), Hello::NeedMore, "cut at {cut}");
        }
        // Every single-byte corruption: some parse (with or without a name), none panic.
        for at in 0..HELLO.len() {
            for value in [0x00, 0x01, 0x7F, 0xFF] {
                let mut bad = HELLO.to_vec();
                bad[at] = value;
                let _ = client_hello(&bad);
                let _ = server_name(&bad[9..]);
            }
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            let bytes: Vec<u8> = (0..(seed % 300)).map(|_| xorshift(&mut seed) as u8).collect();
            let _ = client_hello(&bytes);
            let _ = server_name(&bytes);
        }
    }

    #[test]
    fn what_is_not_a_client_hello() {
        assert_eq!(client_hello(b"GET / HTTP/1.1\r\n\r\n"), Hello::Malformed);
        assert_eq!(client_hello(&[0x16, 3, 1, 0, 0]), Hello::Malformed, "empty record");
        assert_eq!(client_hello(&[0x16, 3, 1, 0xFF, 0xFF]), Hello::Malformed, "record too long");
        assert_eq!(client_hello(&[0x16, 3, 1, 0, 4, 2, 0, 0, 0]), Hello::Malformed, "a ServerHello");
        // A hello with no extensions at all has no name.
        let mut body = vec![3, 3];
        body.extend_from_slice(&[0; 32]);
        body.extend_from_slice(&[0, 0, 2, 0x13, 0x01, 1, 0]);
        assert_eq!(server_name(&body), None);
    }
}
