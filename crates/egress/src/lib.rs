//! Egress of a sandboxed trial: the container keeps `--network none`; a static forwarder inside
//! it passes DNS and HTTP(S) on loopback over mounted Unix sockets to a sink on the host, which
//! answers harmlessly and records every request.
//!
//! Setting up a container (the caller owns the container spec):
//! 1. [`Sink::start`] on an empty host directory, mounted read-only at [`CONTAINER_SOCKET_DIR`];
//! 2. [`write_forwarder`] and [`write_resolv_conf`] into another host directory, mounted
//!    read-only at [`FORWARDER_PATH`] and [`RESOLV_CONF_PATH`] ([`ro_mounts`] lists all three);
//! 3. the sysctl [`UNPRIVILEGED_PORTS_SYSCTL`], so the forwarder may listen on 53, 80 and 443
//!    without capabilities;
//! 4. once started, run [`forwarder_start_command`] with `sh -c`, preferably as root: the
//!    agent's user (uid 1000) then can neither kill the forwarder nor take its ports.
//!
//! 5. optionally, [`write_ca`] mounted at [`CA_PATH`] and [`ca_env`] in the container's
//!    environment: its HTTPS is then terminated by the sink and recorded in the clear.
//!
//! Nothing leaves the host: the sink answers every name with 127.0.0.1 and every HTTP(S) request
//! with `200 ok`, and never connects anywhere.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

mod conn;
mod dns;
mod http;
mod intercept;
mod record;
mod sink;
mod tls;

pub use record::{EgressKind, EgressRecord, BODY_CAP, MAX_RECORDS, MAX_STORED_BYTES};
pub use sink::{replay, Sink, CONNECTION_LIFETIME, IDLE_TIMEOUT, MAX_CONNECTIONS};

/// The forwarder, a static x86_64 Linux executable built from `forwarder/main.rs`; empty when
/// the crate was built for a non-Linux target.
pub const FORWARDER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/egress-forwarder"));

/// Where the sink's directory is mounted in the container (the forwarder's default).
pub const CONTAINER_SOCKET_DIR: &str = "/run/skillscope-egress";
/// Where the forwarder is mounted in the container.
pub const FORWARDER_PATH: &str = "/opt/skillscope/egress-forwarder";
/// Where the same binary is mounted for its relay mode ([`relay_start_command`]): apart from
/// [`FORWARDER_PATH`], so that a trial may have both (a probe run by a CLI harness).
pub const RELAY_PATH: &str = "/opt/skillscope/relay";
/// The container's resolver configuration, replaced by a mount so that names resolve through
/// the forwarder.
pub const RESOLV_CONF_PATH: &str = "/etc/resolv.conf";
/// Lets a process without `CAP_NET_BIND_SERVICE` listen on ports below 1024; namespaced, so
/// it changes the container's network namespace only.
pub const UNPRIVILEGED_PORTS_SYSCTL: (&str, &str) = ("net.ipv4.ip_unprivileged_port_start", "0");
/// The forwarder's readiness and error files in the container, written by
/// [`forwarder_start_command`].
pub const FORWARDER_READY_FILE: &str = "/tmp/.skillscope-egress.ready";
pub const FORWARDER_LOG_FILE: &str = "/tmp/.skillscope-egress.log";

const RESOLV_CONF: &str = "nameserver 127.0.0.1\noptions timeout:2 attempts:2\n";

/// Writes [`FORWARDER`] to `dir/egress-forwarder` (mode 0755) and returns its path.
pub fn write_forwarder(dir: &Path) -> io::Result<PathBuf> {
    if FORWARDER.is_empty() {
        return Err(io::Error::new(io::ErrorKind::Unsupported, "the egress forwarder is built on Linux only"));
    }
    write_file(&dir.join("egress-forwarder"), FORWARDER, 0o755)
}

/// Writes a resolv.conf naming the forwarder (127.0.0.1) to `dir/resolv.conf` (mode 0644).
pub fn write_resolv_conf(dir: &Path) -> io::Result<PathBuf> {
    write_file(&dir.join("resolv.conf"), RESOLV_CONF.as_bytes(), 0o644)
}

/// Written aside and renamed, so a container never sees a half-written file.
fn write_file(path: &Path, bytes: &[u8], mode: u32) -> io::Result<PathBuf> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes)?;
    std::fs::set_permissions(&partial, std::fs::Permissions::from_mode(mode))?;
    std::fs::rename(&partial, path)?;
    Ok(path.to_path_buf())
}

/// Where the sink's authority certificate is mounted in the container ([`write_ca`]).
pub const CA_PATH: &str = "/etc/skillscope/egress-ca.pem";

/// Writes a sink's authority certificate ([`Sink::ca_pem`]) to `dir/egress-ca.pem` (mode 0644)
/// and returns its mount (host path, [`CA_PATH`]).
pub fn write_ca(dir: &Path, pem: &str) -> io::Result<(PathBuf, String)> {
    Ok((write_file(&dir.join("egress-ca.pem"), pem.as_bytes(), 0o644)?, CA_PATH.to_string()))
}

/// The variables (`KEY=VALUE`) that make the usual TLS clients trust [`CA_PATH`] alone: OpenSSL
/// (Python, curl, wget), Python's requests and pip, Node and Bun, Git. Nothing else is reachable,
/// so replacing the system's authorities loses nothing.
pub fn ca_env() -> Vec<String> {
    ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO", "PIP_CERT"]
        .iter()
        .map(|k| format!("{k}={CA_PATH}"))
        .collect()
}

/// The read-only mounts (host path, container path) of the forwarder, the resolv.conf and the
/// sink's directory, for `ContainerSpec::ro_mounts`.
pub fn ro_mounts(forwarder: &Path, resolv_conf: &Path, sink_dir: &Path) -> Vec<(PathBuf, String)> {
    vec![
        (forwarder.to_path_buf(), FORWARDER_PATH.to_string()),
        (resolv_conf.to_path_buf(), RESOLV_CONF_PATH.to_string()),
        (sink_dir.to_path_buf(), CONTAINER_SOCKET_DIR.to_string()),
    ]
}

/// A shell script (for `sh -c`) that starts the forwarder in the background, detached from
/// the caller's output, and waits up to 5 s for it to be ready. Exits 0 once it is, else 1
/// with the forwarder's error on stderr.
pub fn forwarder_start_command() -> String {
    start_command(FORWARDER_PATH, CONTAINER_SOCKET_DIR, FORWARDER_READY_FILE, FORWARDER_LOG_FILE)
}

/// Like [`forwarder_start_command`], for the forwarder's relay mode (mounted at [`RELAY_PATH`]):
/// loopback TCP `port` passed as it is to the Unix socket `socket` (a harness with no Unix-socket
/// setting reaching the model proxy). Its readiness and error files are its own, so it may run
/// beside the egress forwarder.
pub fn relay_start_command(port: u16, socket: &str) -> String {
    start_command(
        RELAY_PATH,
        &format!("--relay {port} {socket}"),
        &format!("/tmp/.skillscope-relay-{port}.ready"),
        &format!("/tmp/.skillscope-relay-{port}.log"),
    )
}

fn start_command(bin: &str, args: &str, ready: &str, log: &str) -> String {
    format!(
        r#"rm -f {ready} {log}
{bin} {args} >{ready} 2>{log} </dev/null &
p=$!
i=0
while [ "$i" -lt 50 ]; do
  [ -s {ready} ] && exit 0
  kill -0 "$p" 2>/dev/null || break
  sleep 0.1 2>/dev/null || sleep 1
  i=$((i + 1))
done
echo "egress forwarder not ready:" >&2
cat {log} >&2
exit 1"#
    )
}
