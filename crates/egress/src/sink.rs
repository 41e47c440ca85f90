//! The host side: two Unix sockets in a directory that is bind-mounted into the container,
//! `tcp.sock` (a `PORT <n>` line, then the client's bytes) and `dns.sock` (length-framed
//! queries). Everything is bounded: connections in flight, idle time and lifetime per
//! connection, head and body sizes, and the records kept.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::UnixListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinHandle;

use crate::conn::Conn;
use crate::intercept::Interceptor;
use crate::record::{EgressKind, EgressRecord, Recorder};
use crate::{dns, http, tls};

/// Connections (TCP and DNS together) served at once; more are closed unanswered.
pub const MAX_CONNECTIONS: usize = 64;
/// A connection that sends nothing for this long is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10);
/// No connection lives longer than this, however busy.
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(60);
/// How long [`Sink::stop`] waits for connections in flight to finish.
const STOP_GRACE: Duration = Duration::from_secs(2);
pub(crate) const TCP_SOCKET: &str = "tcp.sock";
pub(crate) const DNS_SOCKET: &str = "dns.sock";

/// Records what a container sends through its forwarder. Dropping it stops it too (without
/// waiting for connections in flight).
pub struct Sink {
    dir: PathBuf,
    recorder: Arc<Recorder>,
    /// This sink's own certificate authority, which terminates the container's HTTPS.
    intercept: Arc<Interceptor>,
    permits: Arc<Semaphore>,
    shutdown: watch::Sender<bool>,
    accept_loops: Mutex<Vec<JoinHandle<()>>>,
}

#[derive(Clone, Copy)]
enum Service {
    Tcp,
    Dns,
}

impl Sink {
    /// Listens on `dir/tcp.sock` and `dir/dns.sock` (replacing stale ones). The sockets are
    /// made 0777 and `dir` 0711 so any container user (uid 1000, a remapped root) can
    /// connect; nothing else in `dir` is touched. Must be called within a tokio runtime.
    pub fn start(dir: &Path) -> io::Result<Sink> {
        tokio::runtime::Handle::try_current().map_err(io::Error::other)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o711))?;
        let (shutdown, _) = watch::channel(false);
        let sink = Sink {
            dir: dir.to_path_buf(),
            recorder: Arc::new(Recorder::new()),
            intercept: Arc::new(Interceptor::new().map_err(io::Error::other)?),
            permits: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            shutdown,
            accept_loops: Mutex::new(Vec::new()),
        };
        for (name, service) in [(TCP_SOCKET, Service::Tcp), (DNS_SOCKET, Service::Dns)] {
            let path = dir.join(name);
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
            let listener = UnixListener::bind(&path)?;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777))?;
            let task = tokio::spawn(accept_loop(
                listener,
                service,
                sink.recorder.clone(),
                sink.intercept.clone(),
                sink.permits.clone(),
                sink.shutdown.subscribe(),
            ));
            sink.accept_loops.lock().unwrap_or_else(|e| e.into_inner()).push(task);
        }
        Ok(sink)
    }

    /// The certificate of this sink's authority (PEM): a container that trusts it (see
    /// [`crate::write_ca`]) has its HTTPS recorded in the clear.
    pub fn ca_pem(&self) -> &str {
        self.intercept.ca_pem()
    }

    /// The directory holding the sockets (mount it at [`crate::CONTAINER_SOCKET_DIR`]).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Everything recorded so far, in arrival order.
    pub fn records(&self) -> Vec<EgressRecord> {
        self.recorder.records()
    }

    /// Records not kept because a cap ([`crate::MAX_RECORDS`], [`crate::MAX_STORED_BYTES`])
    /// was reached.
    pub fn dropped(&self) -> u64 {
        self.recorder.dropped()
    }

    /// Stops listening, ends the connections in flight (waiting up to 2 s for them to be
    /// gone), and removes the sockets. Records stay readable. Remove the container first, so
    /// that nothing is cut off mid-request.
    pub async fn stop(&self) {
        let _ = self.shutdown.send(true);
        let loops: Vec<_> = std::mem::take(&mut *self.accept_loops.lock().unwrap_or_else(|e| e.into_inner()));
        for task in loops {
            let _ = task.await;
        }
        // Every connection holds a permit: having them all back means all are done.
        let all = u32::try_from(MAX_CONNECTIONS).unwrap_or(u32::MAX);
        if let Ok(Ok(permits)) = tokio::time::timeout(STOP_GRACE, self.permits.acquire_many(all)).await {
            drop(permits);
        }
        self.remove_sockets();
    }

    fn remove_sockets(&self) {
        for name in [TCP_SOCKET, DNS_SOCKET] {
            let _ = std::fs::remove_file(self.dir.join(name));
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.shutdown.send(true);
        for task in self.accept_loops.get_mut().unwrap_or_else(|e| e.into_inner()).drain(..) {
            task.abort();
        }
        self.remove_sockets();
    }
}

async fn accept_loop(
    listener: UnixListener,
    service: Service,
    recorder: Arc<Recorder>,
    intercept: Arc<Interceptor>,
    permits: Arc<Semaphore>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let accepted = tokio::select! {
            _ = shutdown.wait_for(|stop| *stop) => return,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors and the like: back off rather than spin.
                tracing::debug!("egress sink accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Over the limit the connection is dropped: the client sees it closed.
        let Ok(permit) = permits.clone().try_acquire_owned() else { continue };
        let (recorder, intercept, mut shutdown) = (recorder.clone(), intercept.clone(), shutdown.clone());
        tokio::spawn(async move {
            let _permit = permit;
            tokio::select! {
                _ = shutdown.wait_for(|stop| *stop) => {}
                _ = serve(stream, service, &recorder, &intercept) => {}
            }
        });
    }
}

async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    service: Service,
    rec: &Recorder,
    intercept: &Interceptor,
) {
    let mut conn = Conn::new(stream, IDLE_TIMEOUT, CONNECTION_LIFETIME);
    match service {
        Service::Dns => dns::serve(&mut conn, rec).await,
        Service::Tcp => serve_tcp(&mut conn, rec, Some(intercept)).await,
    }
}

/// A forwarded TCP connection: the forwarder's `PORT <n>` line, then TLS if the client's
/// first byte starts a handshake record, else HTTP (whatever the port: the bytes decide).
async fn serve_tcp<S: AsyncRead + AsyncWrite + Unpin>(
    conn: &mut Conn<S>,
    rec: &Recorder,
    intercept: Option<&Interceptor>,
) {
    // Something in the container may connect to the socket itself, without the header.
    let _ = conn.fill_to(5).await;
    let mut port = None;
    if conn.buffered().starts_with(b"PORT ") {
        let Ok(Some(line)) = conn.line(32).await else { return };
        port = std::str::from_utf8(&line[5..]).ok().and_then(|p| p.parse().ok());
    }
    if conn.buffered().is_empty() && !matches!(conn.fill_to(1).await, Ok(true)) {
        return;
    }
    if conn.buffered()[0] == 0x16 {
        tls::serve(conn, port, rec, intercept).await;
    } else {
        http::serve(conn, EgressKind::Http, port, rec).await;
    }
}

/// What the sink records and answers for one connection that sends `input` and closes, to its DNS
/// socket (`dns`) or its TCP one, without sockets and without terminating TLS: the tests' and the
/// fuzz target's entry point.
pub async fn replay(dns: bool, input: &[u8]) -> (Vec<EgressRecord>, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (mut client, server) = tokio::io::duplex(64 << 10);
    let rec = Recorder::new();
    let mut answer = Vec::new();
    let client_side = async {
        let _ = client.write_all(input).await;
        let _ = client.shutdown().await;
        let _ = client.read_to_end(&mut answer).await;
    };
    let server_side = async {
        let mut conn = Conn::new(server, Duration::from_secs(5), Duration::from_secs(10));
        if dns {
            dns::serve(&mut conn, &rec).await;
        } else {
            serve_tcp(&mut conn, &rec, None).await;
        }
    };
    tokio::join!(client_side, server_side);
    (rec.records(), answer)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::FileTypeExt;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::UnixStream;

    use super::*;
    use crate::record::{xorshift, EgressKind, BODY_CAP};

    async fn drive(input: &[u8]) -> (Vec<EgressRecord>, String) {
        let (records, answer) = replay(false, input).await;
        (records, String::from_utf8_lossy(&answer).into_owned())
    }

    #[tokio::test]
    async fn http_requests_are_recorded_and_answered_ok() {
        let input = b"PORT 80\nGET /a?k=CANARY HTTP/1.1\r\nHost: exfil.example\r\n\r\n\
            POST /up HTTP/1.1\r\nHost: exfil.example\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello";
        let (records, answer) = drive(input).await;
        assert_eq!(records.len(), 2, "{records:#?}");
        assert_eq!(
            (records[0].kind, records[0].port, records[0].host.as_deref(), records[0].path.as_deref()),
            (EgressKind::Http, Some(80), Some("exfil.example"), Some("/a?k=CANARY"))
        );
        assert_eq!(
            (records[1].method.as_deref(), records[1].body.as_str(), records[1].body_bytes),
            (Some("POST"), "hello", 5)
        );
        assert_eq!(answer.matches("HTTP/1.1 200 OK").count(), 2, "{answer}");
        assert!(answer.ends_with("Connection: close\r\n\r\nok"), "{answer}");
    }

    #[tokio::test]
    async fn chunked_and_large_bodies() {
        let input = b"PORT 80\nPOST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n\
            5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n";
        let (records, answer) = drive(input).await;
        assert_eq!((records[0].body.as_str(), records[0].body_bytes), ("hello world", 11));
        assert!(answer.starts_with("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK"), "{answer}");

        let size = BODY_CAP + 1000;
        let mut input = format!("PORT 80\nPUT /big HTTP/1.0\r\nContent-Length: {size}\r\n\r\n").into_bytes();
        input.extend(std::iter::repeat_n(b'x', size));
        let (records, answer) = drive(&input).await;
        assert_eq!((records[0].body.len(), records[0].body_bytes), (BODY_CAP, size as u64));
        assert!(answer.contains("Connection: close"), "HTTP/1.0 closes: {answer}");
    }

    #[tokio::test]
    async fn malformed_requests_are_recorded_and_the_connection_ended() {
        let (records, answer) = drive(b"PORT 80\nPOST / HTTP/1.1\r\nContent-Length: nope\r\n\r\nbody").await;
        assert_eq!(records.len(), 1);
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");

        let (records, answer) = drive(b"PORT 80\nPOST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").await;
        assert_eq!((records.len(), answer.as_str()), (1, ""), "a bad chunk size ends it unanswered");

        let mut huge = b"PORT 80\nGET / HTTP/1.1\r\nX: ".to_vec();
        huge.extend(std::iter::repeat_n(b'a', http::HEAD_CAP * 2));
        let (records, answer) = drive(&huge).await;
        assert_eq!(records.len(), 1);
        assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");

        // Plain bytes on the TLS port are still kept, as HTTP of sorts.
        let (records, _) = drive(b"PORT 443\nsecret=CANARY").await;
        assert_eq!((records[0].kind, records[0].method.as_deref()), (EgressKind::Http, Some("secret=CANARY")));
        // No header at all (a process that connects to the socket itself).
        let (records, _) = drive(b"GET /direct HTTP/1.1\r\n\r\n").await;
        assert_eq!((records[0].port, records[0].path.as_deref()), (None, Some("/direct")));
        let (records, answer) = drive(b"PORT 80\n").await;
        assert!(records.is_empty() && answer.is_empty());
    }

    #[tokio::test]
    async fn truncated_and_random_input_never_panics() {
        let full =
            b"PORT 80\nPOST http://x.example/p HTTP/1.1\r\nHost: x.example\r\nTransfer-Encoding: chunked\r\n\r\n\
            4\r\nabcd\r\n0\r\n\r\nGET / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc";
        for cut in 0..full.len() {
            drive(&full[..cut]).await;
        }
        let hello = include_bytes!("../tests/data/client_hello_secure_example.bin");
        let tls = [b"PORT 443\n".as_slice(), hello].concat();
        for cut in (0..tls.len()).step_by(7) {
            let (records, _) = drive(&tls[..cut]).await;
            assert!(records.len() <= 1);
        }
        let (records, answer) = drive(&tls).await;
        assert_eq!((records[0].kind, records[0].host.as_deref()), (EgressKind::Tls, Some("secure.example")));
        assert_eq!(answer.as_bytes()[0], 0x15, "an alert");
        let mut seed = 0xD1B5_4A32_D192_ED03u64;
        for i in 0..300 {
            let mut bytes: Vec<u8> = (0..(seed % 400)).map(|_| xorshift(&mut seed) as u8).collect();
            if i % 2 == 0 {
                bytes.splice(0..0, b"PORT 80\nPOST / HTTP/1.1\r\n".iter().copied());
            }
            drive(&bytes).await;
        }
    }

    /// A client that trusts the sink's authority has its HTTPS request recorded in the clear, after
    /// the ClientHello's record; one that does not ends the handshake, its server name recorded.
    #[tokio::test]
    async fn https_is_seen_in_the_clear_by_a_client_that_trusts_the_sink() {
        use rustls::pki_types::{pem::PemObject, CertificateDer, ServerName};
        let dir = tempfile::tempdir().unwrap();
        let sink = Sink::start(dir.path()).unwrap();
        let client = |trusted: bool| {
            let mut roots = rustls::RootCertStore::empty();
            let other = Interceptor::new().unwrap();
            let pem = if trusted { sink.ca_pem() } else { other.ca_pem() };
            roots.add(CertificateDer::from_pem_slice(pem.as_bytes()).unwrap()).unwrap();
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            let config = rustls::ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .unwrap()
                .with_root_certificates(roots)
                .with_no_client_auth();
            tokio_rustls::TlsConnector::from(Arc::new(config))
        };
        let connect = |host: &'static str, trusted: bool| {
            let (connector, path) = (client(trusted), dir.path().join(TCP_SOCKET));
            async move {
                let mut stream = UnixStream::connect(path).await.unwrap();
                stream.write_all(b"PORT 443\n").await.unwrap();
                connector.connect(ServerName::try_from(host).unwrap(), stream).await
            }
        };
        let mut tls = connect("secure.example", true).await.expect("the sink's certificate is trusted");
        let request =
            "POST /in?k=1 HTTP/1.1\r\nHost: secure.example\r\nContent-Length: 9\r\nConnection: close\r\n\r\nCANARYTLS";
        tls.write_all(request.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        let _ = tls.read_to_end(&mut answer).await;
        assert!(String::from_utf8_lossy(&answer).ends_with("\r\n\r\nok"), "{}", String::from_utf8_lossy(&answer));
        assert!(connect("pinned.example", false).await.is_err(), "a client with other roots refuses the sink");
        sink.stop().await;
        let records = sink.records();
        let lines: Vec<String> = records.iter().map(EgressRecord::line).collect();
        assert_eq!(
            lines,
            ["TLS secure.example", "HTTPS POST secure.example/in?k=1", "TLS pinned.example"],
            "{records:#?}"
        );
        assert_eq!((records[1].body.as_str(), records[1].port), ("CANARYTLS", Some(443)));
    }

    #[tokio::test]
    async fn a_silent_connection_times_out() {
        let (_client, server) = tokio::io::duplex(1024);
        let rec = Recorder::new();
        let mut conn = Conn::new(server, Duration::from_millis(100), Duration::from_secs(10));
        let started = std::time::Instant::now();
        serve_tcp(&mut conn, &rec, None).await;
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(rec.records().is_empty());
    }

    #[tokio::test]
    async fn the_sink_serves_both_sockets_and_bounds_connections() {
        let dir = tempfile::tempdir().unwrap();
        // A stale socket from an earlier run is replaced.
        std::fs::write(dir.path().join(TCP_SOCKET), b"").unwrap();
        let sink = Sink::start(dir.path()).unwrap();
        for name in [TCP_SOCKET, DNS_SOCKET] {
            let meta = std::fs::metadata(dir.path().join(name)).unwrap();
            assert!(meta.file_type().is_socket());
            assert_eq!(meta.permissions().mode() & 0o777, 0o777);
        }

        let mut tcp = UnixStream::connect(dir.path().join(TCP_SOCKET)).await.unwrap();
        tcp.write_all(b"PORT 80\nGET /x HTTP/1.1\r\nHost: h.example\r\nConnection: close\r\n\r\n").await.unwrap();
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).await.unwrap();
        assert!(answer.ends_with("\r\n\r\nok"), "{answer}");

        let mut dns = UnixStream::connect(dir.path().join(DNS_SOCKET)).await.unwrap();
        let query = [&[0u8, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0][..], b"\x01q\x07example\x00", &[0, 16, 0, 1]].concat();
        dns.write_all(&u16::try_from(query.len()).unwrap().to_be_bytes()).await.unwrap();
        dns.write_all(&query).await.unwrap();
        let len = dns.read_u16().await.unwrap();
        let mut reply = vec![0; usize::from(len)];
        dns.read_exact(&mut reply).await.unwrap();
        assert_eq!(&reply[..2], &[0, 1]);

        // MAX_CONNECTIONS busy connections (the DNS one is still open): the next is closed at once.
        let mut held = Vec::new();
        for _ in 0..MAX_CONNECTIONS - 1 {
            held.push(UnixStream::connect(dir.path().join(TCP_SOCKET)).await.unwrap());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let mut extra = UnixStream::connect(dir.path().join(TCP_SOCKET)).await.unwrap();
        let mut buf = [0u8; 16];
        let n = tokio::time::timeout(Duration::from_secs(2), extra.read(&mut buf)).await;
        assert!(matches!(n, Ok(Ok(0)) | Ok(Err(_))), "not closed: {n:?}");
        drop(held);

        let records = sink.records();
        assert_eq!(records.len(), 2, "{records:#?}");
        assert_eq!(
            (records[1].kind, records[1].host.as_deref(), records[1].query_type.as_deref()),
            (EgressKind::Dns, Some("q.example"), Some("TXT"))
        );
        let started = std::time::Instant::now();
        sink.stop().await;
        assert!(started.elapsed() < Duration::from_secs(3));
        assert!(!dir.path().join(TCP_SOCKET).exists() && !dir.path().join(DNS_SOCKET).exists());
        assert_eq!(sink.records().len(), 2, "records outlive the sink");
        assert!(UnixStream::connect(dir.path().join(TCP_SOCKET)).await.is_err());
    }

    #[test]
    fn start_needs_a_runtime() {
        let dir = tempfile::tempdir().unwrap();
        assert!(Sink::start(dir.path()).is_err());
    }
}
