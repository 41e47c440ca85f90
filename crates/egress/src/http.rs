//! Plain HTTP/1.x on the sink: each request is read (head up to [`HEAD_CAP`], body by
//! Content-Length or chunked), recorded, and answered `200 ok`. Lenient on purpose: whatever
//! the client sent is recorded as far as it parses, and malformed framing ends the connection.

use std::io;

use tokio::io::{AsyncRead, AsyncWrite};

use crate::conn::Conn;
use crate::record::{lossy, EgressKind, EgressRecord, Recorder, BODY_CAP};

/// Longest request head (request line and headers) read.
pub(crate) const HEAD_CAP: usize = 16 << 10;
/// Most body bytes read from one request; past it the connection is closed.
const BODY_READ_CAP: u64 = 16 << 20;
const LINE_CAP: usize = 4096;
const MAX_TRAILERS: usize = 64;

#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Head {
    pub(crate) method: String,
    pub(crate) target: String,
    pub(crate) version: String,
    pub(crate) headers: Vec<(String, String)>,
}

impl Head {
    fn header<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers.iter().filter(move |(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Host and path: the `Host` header and the request target, or both from an
    /// absolute-form target (`GET http://host/path`, as sent to a proxy).
    fn host_and_path(&self) -> (Option<String>, String) {
        let host = self.header("host").next().map(str::to_string);
        let lower = self.target.to_ascii_lowercase();
        let rest = ["http://", "https://"].iter().find(|s| lower.starts_with(*s)).map(|s| &self.target[s.len()..]);
        match rest {
            Some(rest) => {
                let end = rest.find(['/', '?']).unwrap_or(rest.len());
                let path =
                    if rest[end..].starts_with('/') { rest[end..].to_string() } else { format!("/{}", &rest[end..]) };
                (host.or_else(|| Some(rest[..end].to_string())), path)
            }
            None if self.method.eq_ignore_ascii_case("CONNECT") => {
                (host.or_else(|| Some(self.target.clone())), self.target.clone())
            }
            None => (host, self.target.clone()),
        }
    }

    fn keep_alive(&self) -> bool {
        let connection: String = self.header("connection").collect::<Vec<_>>().join(",").to_ascii_lowercase();
        if connection.contains("close") {
            return false;
        }
        self.version.eq_ignore_ascii_case("HTTP/1.1") || connection.contains("keep-alive")
    }
}

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    NoBody,
    Length(u64),
    Chunked,
    Invalid,
}

pub(crate) fn framing(head: &Head) -> Framing {
    let codings: Vec<&str> = head.header("transfer-encoding").collect();
    if !codings.is_empty() {
        let last = codings.join(",").rsplit(',').next().unwrap_or("").trim().to_ascii_lowercase();
        return if last == "chunked" { Framing::Chunked } else { Framing::Invalid };
    }
    let mut lengths = head.header("content-length").flat_map(|v| v.split(',')).map(str::trim);
    let Some(first) = lengths.next() else { return Framing::NoBody };
    if !first.bytes().all(|b| b.is_ascii_digit()) || lengths.any(|other| other != first) {
        return Framing::Invalid;
    }
    first.parse().map_or(Framing::Invalid, Framing::Length)
}

/// Where the head ends: the index just past its blank line.
pub(crate) fn head_end(buf: &[u8]) -> Option<usize> {
    let at = buf.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    match (at, crlf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Parses a request head leniently: never fails, keeps what it can read.
pub(crate) fn parse_head(bytes: &[u8]) -> Head {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let mut head = Head::default();
    let mut parts = lines.next().unwrap_or("").split_whitespace();
    head.method = parts.next().unwrap_or("").to_string();
    head.target = parts.next().unwrap_or("").to_string();
    head.version = parts.next().unwrap_or("").to_string();
    for line in lines.take_while(|l| !l.is_empty()) {
        if line.starts_with([' ', '\t']) {
            // An obsolete folded continuation of the previous header.
            if let Some((_, value)) = head.headers.last_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            head.headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    head
}

#[derive(Default)]
struct Body {
    kept: Vec<u8>,
    total: u64,
}

impl Body {
    fn push(&mut self, bytes: &[u8]) {
        let room = BODY_CAP.saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&bytes[..room.min(bytes.len())]);
        self.total += bytes.len() as u64;
    }
}

fn record(head: &Head, body: &Body, kind: EgressKind, port: Option<u16>) -> EgressRecord {
    let (host, path) = head.host_and_path();
    EgressRecord {
        host,
        method: (!head.method.is_empty()).then(|| head.method.clone()),
        path: (!path.is_empty()).then_some(path),
        headers: head.headers.clone(),
        body: lossy(&body.kept, BODY_CAP),
        body_bytes: body.total,
        ..EgressRecord::new(kind, port)
    }
}

const OK_RESPONSE: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n";

/// Serves HTTP requests on one connection until it closes, misbehaves or times out; each is
/// recorded as `kind` (HTTP, or HTTPS once the sink terminated the TLS around it).
pub(crate) async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    conn: &mut Conn<S>,
    kind: EgressKind,
    port: Option<u16>,
    rec: &Recorder,
) {
    while let Ok(true) = serve_one(conn, kind, port, rec).await {}
}

/// One request; `Ok(true)` when the connection may carry another.
async fn serve_one<S: AsyncRead + AsyncWrite + Unpin>(
    conn: &mut Conn<S>,
    kind: EgressKind,
    port: Option<u16>,
    rec: &Recorder,
) -> io::Result<bool> {
    // Blank lines before a request line are allowed (RFC 9112 §2.2).
    loop {
        let blank = conn.buffered().iter().take_while(|b| matches!(b, b'\r' | b'\n')).count();
        conn.consume(blank);
        if !conn.buffered().is_empty() {
            break;
        }
        if conn.fill().await? == 0 {
            return Ok(false);
        }
    }
    let end = loop {
        if let Some(end) = head_end(conn.buffered()) {
            break Some(end);
        }
        if conn.buffered().len() >= HEAD_CAP || !matches!(conn.fill().await, Ok(n) if n > 0) {
            break None;
        }
    };
    let Some(end) = end else {
        // Cut short or too long: record what came, and end the connection.
        let partial = conn.buffered();
        let head = parse_head(&partial[..partial.len().min(HEAD_CAP)]);
        rec.push(record(&head, &Body::default(), kind, port));
        if conn.buffered().len() >= HEAD_CAP {
            let _ = conn
                .write(
                    b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                )
                .await;
        }
        return Ok(false);
    };
    let head = parse_head(&conn.buffered()[..end]);
    conn.consume(end);
    let framing = framing(&head);
    if framing == Framing::Invalid {
        rec.push(record(&head, &Body::default(), kind, port));
        let _ = conn.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").await;
        return Ok(false);
    }
    let expects_continue = head.header("expect").any(|v| v.eq_ignore_ascii_case("100-continue"));
    if expects_continue && framing != Framing::NoBody && head.version.eq_ignore_ascii_case("HTTP/1.1") {
        conn.write(b"HTTP/1.1 100 Continue\r\n\r\n").await?;
    }
    let mut body = Body::default();
    let complete = match framing {
        Framing::Length(n) => read_exact(conn, n, &mut body).await,
        Framing::Chunked => read_chunked(conn, &mut body).await,
        Framing::NoBody | Framing::Invalid => Ok(true),
    };
    rec.push(record(&head, &body, kind, port));
    if !matches!(complete, Ok(true)) {
        return Ok(false);
    }
    let keep_alive = head.keep_alive();
    let mut response = format!("{OK_RESPONSE}Connection: {}\r\n\r\n", if keep_alive { "keep-alive" } else { "close" });
    if !head.method.eq_ignore_ascii_case("HEAD") {
        response.push_str("ok");
    }
    conn.write(response.as_bytes()).await?;
    Ok(keep_alive)
}

/// Reads `n` body bytes; false if the stream ended first or the body is past the read cap.
async fn read_exact<S: AsyncRead + AsyncWrite + Unpin>(
    conn: &mut Conn<S>,
    n: u64,
    body: &mut Body,
) -> io::Result<bool> {
    let mut left = n;
    while left > 0 {
        if conn.buffered().is_empty() && conn.fill().await? == 0 {
            return Ok(false);
        }
        let take = conn.buffered().len().min(usize::try_from(left).unwrap_or(usize::MAX));
        body.push(&conn.buffered()[..take]);
        conn.consume(take);
        left -= take as u64;
        if body.total > BODY_READ_CAP {
            return Ok(false);
        }
    }
    Ok(true)
}

async fn read_chunked<S: AsyncRead + AsyncWrite + Unpin>(conn: &mut Conn<S>, body: &mut Body) -> io::Result<bool> {
    loop {
        let Some(line) = conn.line(LINE_CAP).await? else { return Ok(false) };
        let line = String::from_utf8_lossy(&line);
        let size = line.split(';').next().unwrap_or("").trim();
        let Ok(size) = u64::from_str_radix(size, 16) else { return Ok(false) };
        if size == 0 {
            for _ in 0..MAX_TRAILERS {
                match conn.line(LINE_CAP).await? {
                    None => return Ok(false),
                    Some(trailer) if trailer.is_empty() => return Ok(true),
                    Some(_) => {}
                }
            }
            return Ok(false);
        }
        if !read_exact(conn, size, body).await? || conn.line(LINE_CAP).await?.is_none() {
            return Ok(false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_parsed_leniently() {
        let head =
            parse_head(b"POST /a?b=c HTTP/1.1\r\nHost: exfil.example\r\nX-Folded: one\r\n two\r\nno colon\r\n\r\nbody");
        assert_eq!((head.method.as_str(), head.target.as_str(), head.version.as_str()), ("POST", "/a?b=c", "HTTP/1.1"));
        assert_eq!(
            head.headers,
            [("Host".to_string(), "exfil.example".to_string()), ("X-Folded".to_string(), "one two".to_string())]
        );
        assert_eq!(parse_head(b""), Head::default());
        let garbage = parse_head(&[0xFF, b' ', 0x00, b'\n', b':', b'\n']);
        assert_eq!(garbage.method, "\u{FFFD}");
        assert_eq!(garbage.headers, [(String::new(), String::new())]);
    }

    #[test]
    fn host_and_path_from_the_header_or_an_absolute_url() {
        let hp = |raw: &[u8]| parse_head(raw).host_and_path();
        assert_eq!(hp(b"GET /x HTTP/1.1\r\nhost: a.example\r\n"), (Some("a.example".into()), "/x".into()));
        assert_eq!(hp(b"GET http://b.example:8080/y?z HTTP/1.1\r\n"), (Some("b.example:8080".into()), "/y?z".into()));
        assert_eq!(hp(b"GET HTTP://c.example?q HTTP/1.1\r\n"), (Some("c.example".into()), "/?q".into()));
        assert_eq!(hp(b"CONNECT d.example:443 HTTP/1.1\r\n"), (Some("d.example:443".into()), "d.example:443".into()));
        assert_eq!(hp(b"GET / HTTP/1.1\r\n"), (None, "/".into()));
    }

    #[test]
    fn body_framing() {
        let f = |headers: &str| framing(&parse_head(format!("POST / HTTP/1.1\r\n{headers}\r\n").as_bytes()));
        assert_eq!(f(""), Framing::NoBody);
        assert_eq!(f("Content-Length: 12\r\n"), Framing::Length(12));
        assert_eq!(f("Content-Length: 12\r\ncontent-length: 12\r\n"), Framing::Length(12));
        assert_eq!(f("Content-Length: 12, 13\r\n"), Framing::Invalid);
        assert_eq!(f("Content-Length: -1\r\n"), Framing::Invalid);
        assert_eq!(f("Content-Length: +1\r\n"), Framing::Invalid);
        assert_eq!(f("Content-Length: 99999999999999999999999\r\n"), Framing::Invalid);
        assert_eq!(f("Transfer-Encoding: gzip, Chunked\r\nContent-Length: 3\r\n"), Framing::Chunked);
        assert_eq!(f("Transfer-Encoding: gzip\r\n"), Framing::Invalid);
    }

    #[test]
    fn the_end_of_a_head() {
        assert_eq!(head_end(b"GET / HTTP/1.1\r\n\r\nrest"), Some(18));
        assert_eq!(head_end(b"GET / HTTP/1.0\n\nrest"), Some(16));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nHost: x\r\n"), None);
    }
}
