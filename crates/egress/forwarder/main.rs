//! The egress forwarder: runs inside a `--network none` trial container and passes what a
//! process there sends to loopback ports 80, 443 (TCP) and 53 (UDP) to the host's sink over
//! the Unix sockets mounted at the socket directory. std only, built fully static by
//! `build.rs`, so it runs on any x86_64 Linux image (busybox or glibc).
//!
//! Usage: `egress-forwarder [SOCKET_DIR]` (default `/run/skillscope-egress`). Prints `ready`
//! on stdout once every listener is bound; exits 1 with a message on stderr when one cannot
//! be (ports below 1024 need `net.ipv4.ip_unprivileged_port_start=0` for a non-root user, and
//! root without capabilities too).
//!
//! `egress-forwarder --relay PORT SOCKET` instead passes loopback TCP `PORT` to the Unix socket
//! `SOCKET` as it is: how a harness with no Unix-socket setting reaches the model proxy.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

const DEFAULT_DIR: &str = "/run/skillscope-egress";
const TCP_PORTS: [u16; 2] = [80, 443];
const DNS_PORT: u16 = 53;
/// Most connections and DNS queries in flight; more are dropped. Bounds the threads a
/// flooding process can make us start (each counts against the container's pids limit).
const MAX_IN_FLIGHT: usize = 64;
/// How long a DNS query may wait on the sink.
const DNS_TIMEOUT: Duration = Duration::from_secs(5);
const STACK: usize = 128 * 1024;

fn main() {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let in_flight = Arc::new(AtomicUsize::new(0));
    if args.first().is_some_and(|a| a == "--relay") {
        let (Some(port), Some(sock)) = (args.get(1).and_then(|p| p.to_str()?.parse::<u16>().ok()), args.get(2)) else {
            fail("usage: egress-forwarder --relay PORT SOCKET");
        };
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let listener = TcpListener::bind(addr).unwrap_or_else(|e| fail(&format!("cannot listen on TCP {addr}: {e}")));
        let sock = PathBuf::from(sock);
        ready();
        accept_loop(listener, &sock, None, &in_flight);
        return;
    }
    let dir = PathBuf::from(args.first().cloned().unwrap_or_else(|| DEFAULT_DIR.into()));
    let mut tcp = Vec::new();
    let mut udp = Vec::new();
    for (ip, required) in [("127.0.0.1", true), ("::1", false)] {
        for port in TCP_PORTS {
            let addr = SocketAddr::new(ip.parse().expect("literal address"), port);
            match TcpListener::bind(addr) {
                Ok(l) => tcp.push((l, port)),
                Err(e) if required => fail(&format!("cannot listen on TCP {addr}: {e}")),
                Err(_) => {}
            }
        }
        let addr = SocketAddr::new(ip.parse().expect("literal address"), DNS_PORT);
        match UdpSocket::bind(addr) {
            Ok(s) => udp.push(s),
            Err(e) if required => fail(&format!("cannot listen on UDP {addr}: {e}")),
            Err(_) => {}
        }
    }
    let mut loops = Vec::new();
    for (listener, port) in tcp {
        let (dir, in_flight) = (dir.clone(), in_flight.clone());
        loops.push(spawn(move || accept_loop(listener, &dir.join("tcp.sock"), Some(port), &in_flight)));
    }
    for socket in udp {
        let (dir, in_flight) = (dir.clone(), in_flight.clone());
        loops.push(spawn(move || dns_loop(socket, &dir, &in_flight)));
    }
    if loops.iter().any(Option::is_none) {
        fail("cannot start a thread");
    }
    ready();
    for handle in loops.into_iter().flatten() {
        let _ = handle.join();
    }
}

fn ready() {
    let mut out = io::stdout();
    let _ = out.write_all(b"ready\n").and_then(|()| out.flush());
}

fn fail(message: &str) -> ! {
    eprintln!("egress-forwarder: {message}");
    std::process::exit(1);
}

fn spawn(f: impl FnOnce() + Send + 'static) -> Option<thread::JoinHandle<()>> {
    thread::Builder::new().stack_size(STACK).spawn(f).ok()
}

/// Counts one connection or query in flight; `None` when the limit is reached.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(count: &Arc<AtomicUsize>) -> Option<Slot> {
        if count.fetch_add(1, Ordering::SeqCst) >= MAX_IN_FLIGHT {
            count.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Slot(count.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Relays each connection to `sock`; `port`, when given, is announced first (the sink's header).
fn accept_loop(listener: TcpListener, sock: &Path, port: Option<u16>, in_flight: &Arc<AtomicUsize>) {
    loop {
        let client = match listener.accept() {
            Ok((client, _)) => client,
            Err(_) => {
                // EMFILE and the like: back off rather than spin.
                thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        let Some(slot) = Slot::take(in_flight) else { continue };
        let sock = sock.to_path_buf();
        spawn(move || {
            let _slot = slot;
            let _ = relay(client, &sock, port);
        });
    }
}

/// Copies one TCP connection to the sink and back. The sink decides when it is over: when
/// its side ends, the client's connection is shut down both ways.
fn relay(client: TcpStream, sock: &Path, port: Option<u16>) -> io::Result<()> {
    let mut upstream = UnixStream::connect(sock)?;
    if let Some(port) = port {
        upstream.write_all(format!("PORT {port}\n").as_bytes())?;
    }
    let (mut client_in, mut upstream_out) = (client.try_clone()?, upstream.try_clone()?);
    let up = spawn(move || {
        let _ = io::copy(&mut client_in, &mut upstream_out);
        let _ = upstream_out.shutdown(Shutdown::Write);
    });
    let mut client_out = client;
    let _ = io::copy(&mut upstream, &mut client_out);
    let _ = client_out.shutdown(Shutdown::Both);
    let _ = upstream.shutdown(Shutdown::Both);
    if let Some(up) = up {
        let _ = up.join();
    }
    Ok(())
}

fn dns_loop(socket: UdpSocket, dir: &Path, in_flight: &Arc<AtomicUsize>) {
    let sock = dir.join("dns.sock");
    let mut buf = [0u8; 4096];
    loop {
        let (n, peer) = match socket.recv_from(&mut buf) {
            Ok(got) => got,
            Err(_) => {
                thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        let Some(slot) = Slot::take(in_flight) else { continue };
        let (Ok(reply_to), query) = (socket.try_clone(), buf[..n].to_vec()) else { continue };
        let sock = sock.clone();
        spawn(move || {
            let _slot = slot;
            if let Ok(answer) = ask(&sock, &query) {
                let _ = reply_to.send_to(&answer, peer);
            }
        });
    }
}

/// One DNS query over the sink's stream socket, framed like DNS over TCP (2-byte length).
fn ask(sock: &Path, query: &[u8]) -> io::Result<Vec<u8>> {
    let len = u16::try_from(query.len()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    let mut upstream = UnixStream::connect(sock)?;
    upstream.set_read_timeout(Some(DNS_TIMEOUT))?;
    upstream.set_write_timeout(Some(DNS_TIMEOUT))?;
    let mut framed = len.to_be_bytes().to_vec();
    framed.extend_from_slice(query);
    upstream.write_all(&framed)?;
    let mut len = [0u8; 2];
    upstream.read_exact(&mut len)?;
    let mut answer = vec![0u8; usize::from(u16::from_be_bytes(len))];
    upstream.read_exact(&mut answer)?;
    Ok(answer)
}
