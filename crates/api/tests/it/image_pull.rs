//! Settings → Images pulls an image as a job. Without a reachable registry the job fails, names
//! the registry and what to do, and a reference that cannot be an image is refused before the
//! engine is asked. With one (Debian's registry server on loopback, holding the local busybox
//! image pushed to it), the pull brings the image, with the engine's status lines as progress.

use crate::common::*;
use skillscope_api::jobs::{self, JobEvent, JobRequest, JobState};
use skillscope_api::{ErrorCode, Workspace};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[test]
fn a_pull_without_a_reachable_registry_fails_saying_why_and_a_bad_reference_is_refused() {
    let rt = rt();
    rt.block_on(engine());
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let pull = |image: &str| jobs::run_here(&ws, &JobRequest::ImagePull { image: image.into() }, &|_: &JobEvent| {});

    let e = pull("127.0.0.1:9/skillscope-absent:1").unwrap_err();
    assert!(
        e.message.contains("127.0.0.1:9/skillscope-absent:1") && e.message.contains("pull failed"),
        "{}",
        e.message
    );
    assert!(e.message.contains("docker pull"), "says what to do: {}", e.message);
    let stored = &jobs::recent(&ws, 1).unwrap()[0];
    assert_eq!((stored.state, stored.message.as_str()), (JobState::Failed, "The pull failed"));

    let e = pull("not an image").unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidInput, "{}", e.message);
}

/// The docker CLI, bounded in time; true when it succeeded.
fn docker(args: &[&str]) -> bool {
    Command::new("timeout")
        .args(["-k", "5", "120", "docker"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A registry server (Debian's `docker-registry`) on a free loopback port, killed on drop.
struct Registry {
    process: std::process::Child,
    addr: String,
    _storage: tempfile::TempDir,
}

impl Registry {
    fn start() -> Registry {
        let storage = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let addr = format!("127.0.0.1:{port}");
        let config = storage.path().join("config.yml");
        let yml = format!(
            "version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: {}\nhttp:\n  addr: {addr}\n",
            storage.path().join("data").display()
        );
        std::fs::write(&config, yml).unwrap();
        let process = Command::new("docker-registry")
            .arg("serve")
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("docker-registry (Debian's package of the same name)");
        let registry = Registry { process, addr, _storage: storage };
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(&registry.addr).is_err() {
            assert!(Instant::now() < deadline, "the registry did not listen on {}", registry.addr);
            std::thread::sleep(Duration::from_millis(100));
        }
        registry
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

#[test]
fn a_pull_from_a_reachable_registry_brings_the_image_with_progress() {
    let rt = rt();
    rt.block_on(engine());
    let registry = Registry::start();
    let image = format!("{}/skillscope-pull-test:1", registry.addr);
    assert!(docker(&["tag", IMAGE, &image]), "tag {IMAGE} as {image}");
    assert!(docker(&["push", &image]), "push {image} to the loopback registry");
    assert!(docker(&["rmi", &image]), "remove the local copy so the pull has to fetch it");
    assert!(!docker(&["image", "inspect", &image]), "{image} is gone before the pull");

    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let progress = Mutex::new(Vec::new());
    let pulled = jobs::run_here(&ws, &JobRequest::ImagePull { image: image.clone() }, &|e: &JobEvent| {
        progress.lock().unwrap().push(e.message.clone());
    });
    let cleaned = docker(&["rmi", &image]);
    let outcome = pulled.unwrap_or_else(|e| panic!("the pull failed: {}", e.message));
    assert!(format!("{outcome:?}").contains(&image), "{outcome:?}");
    assert!(cleaned, "the pulled image was on the engine");
    let progress = progress.into_inner().unwrap();
    assert!(progress.iter().any(|m| m == &format!("Pulling {image}")), "{progress:?}");
    let stored = &jobs::recent(&ws, 1).unwrap()[0];
    assert_eq!(stored.state, JobState::Succeeded, "{}", stored.message);
}
