//! `skillscope engine` on this machine's real engine, against a stopped engine's socket, and as a
//! user who may not open the socket: each state is named, with its fix.

use std::os::unix::fs::PermissionsExt;
use std::process::Command;

use crate::common::{ok, run, text};

fn json(o: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("not JSON: {}", text(o)))
}

#[test]
fn the_running_engine_is_found_with_its_base_images() {
    let home = tempfile::tempdir().unwrap();
    let v = ok(run(home.path(), &["engine", "--json"], ""));
    assert_eq!(v["engine"]["state"], "running", "{v}");
    assert!(v["engine"]["endpoint"]["host"].as_str().unwrap().contains("://"), "{v}");
    let tags: Vec<&str> = v["images"].as_array().unwrap().iter().map(|i| i["tag"].as_str().unwrap()).collect();
    assert_eq!(tags, ["skillscope/busybox:1", "skillscope/debian-python:12"]);
}

#[test]
fn a_stopped_engine_leaves_a_socket_nobody_listens_on() {
    let home = tempfile::tempdir().unwrap();
    let socket = home.path().join("docker.sock");
    drop(std::os::unix::net::UnixListener::bind(&socket).unwrap());
    let host = format!("unix://{}", socket.display());
    let o = Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .args(["--home", home.path().to_str().unwrap(), "engine", "--json"])
        .env("DOCKER_HOST", &host)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v = json(&o);
    assert_eq!(v["engine"]["state"], "not_running", "{v}");
    assert!(v["engine"]["checked"][0]["problem"].as_str().unwrap().contains("nothing listening"), "{v}");
    assert!(v["engine"]["fix"].as_str().unwrap().contains(&host), "{v}");
    assert!(v["images"].is_null(), "{v}");
}

/// The socket of a rootful engine is `root:docker 0660`; a user outside that group is told to join
/// it. Needs root (to run the command as `nobody`) and the default socket.
#[test]
fn a_user_outside_the_docker_group_is_told_to_join_it() {
    let socket = std::path::Path::new("/var/run/docker.sock");
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 || std::env::var_os("DOCKER_HOST").is_some() || !socket.exists() {
        eprintln!("skipped: needs root and the engine at /var/run/docker.sock");
        return;
    }
    let mode = std::fs::metadata(socket).unwrap().permissions().mode();
    assert_eq!(mode & 0o006, 0, "the engine's socket is open to every user ({mode:o}): the test cannot deny it");
    // `nobody` must be able to run the binary: a copy in a folder everyone may enter.
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let bin = dir.path().join("skillscope");
    std::fs::copy(env!("CARGO_BIN_EXE_skillscope"), &bin).unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    Command::new("chown").args(["65534:65534"]).arg(&home).status().unwrap();
    let o = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&bin)
        .args(["--home", home.to_str().unwrap(), "engine", "--json"])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", &home)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v = json(&o);
    assert_eq!(v["engine"]["state"], "no_permission", "{v}");
    assert!(v["engine"]["fix"].as_str().unwrap().contains("usermod -aG docker"), "{v}");
}
