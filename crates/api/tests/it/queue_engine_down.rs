//! Reliability: the Docker engine stops mid-run and comes back. The queue says so (naming the
//! socket), waits, resumes by itself, and re-runs the interrupted trials as infrastructure
//! failures. Uses a private dockerd (own socket and data root) so the machine's engine is untouched.

use crate::common::*;
use skillscope_api::queue::model::*;
use skillscope_api::queue::store;
use skillscope_api::Workspace;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct PrivateDockerd {
    root: PathBuf,
    child: Option<Child>,
}

impl PrivateDockerd {
    fn socket(&self) -> String {
        self.root.join("docker.sock").display().to_string()
    }

    fn start(&mut self) {
        let r = &self.root;
        // Its own network namespace: a second daemon must not touch the host's docker0 bridge.
        let mut cmd = Command::new("unshare");
        cmd.args(["--net", "dockerd"])
            .arg(format!("--host=unix://{}", r.join("docker.sock").display()))
            .arg(format!("--data-root={}", r.join("data").display()))
            .arg(format!("--exec-root={}", r.join("exec").display()))
            .arg(format!("--pidfile={}", r.join("docker.pid").display()))
            .args(["--iptables=false", "--ip-masq=false"])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(r.join("dockerd.log")).unwrap());
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        self.child = Some(cmd.spawn().expect("dockerd binary (apt docker.io)"));
        let deadline = Instant::now() + Duration::from_secs(60);
        while !Path::new(&self.socket()).exists()
            || !Command::new("docker")
                .args(["-H", &format!("unix://{}", self.socket()), "info"])
                .output()
                .unwrap()
                .status
                .success()
        {
            assert!(
                Instant::now() < deadline,
                "private dockerd did not start; see {}",
                r.join("dockerd.log").display()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// A clean stop (SIGTERM), as an administrator stopping the service would do.
    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            unsafe { libc::kill(c.id() as i32, libc::SIGTERM) };
            let _ = c.wait();
        }
    }
}

impl Drop for PrivateDockerd {
    fn drop(&mut self) {
        self.stop();
    }
}

#[test]
fn engine_stops_mid_run_and_the_queue_waits_then_resumes() {
    let tmp = tempfile::Builder::new().prefix("ssd").tempdir_in("/tmp").unwrap();
    let mut dockerd = PrivateDockerd { root: tmp.path().to_path_buf(), child: None };
    dockerd.start();
    let socket = dockerd.socket();
    let rt = rt();
    rt.block_on(async {
        let e = skillscope_sandbox::Engine::connect_to(&socket).await.unwrap();
        skillscope_sandbox::bootstrap::busybox(&e).await.unwrap();
    });

    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    ws.edit_config(|c| c.queue.concurrency = Some(2));
    ws.edit_config(|c| c.queue.backoff_ms = Some(200));
    let spec = TrialSpec::command(IMAGE, vec!["sh".into(), "-c".into(), "sleep 3; echo ok".into()]);
    let trials: Vec<_> = (0..4).map(|i| (format!("t{i}"), spec.clone())).collect();
    let run = store::create_run(&ws, "engine-down", &trials).unwrap();

    let (sink, events) = recorder();
    let worker = {
        let (ws, socket) = (ws.clone(), socket.clone());
        std::thread::spawn(move || rt.block_on(drain(&ws, Some(socket), sink)))
    };
    let wait_until = |what: &str, f: &dyn Fn() -> bool| {
        let deadline = Instant::now() + Duration::from_secs(120);
        while !f() {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    wait_until("a trial to start its command", &|| {
        store::trials(&ws, run)
            .unwrap()
            .iter()
            .any(|t| t.state == TrialState::Running && t.phases.agent_started_at.is_some())
    });
    dockerd.stop();
    wait_until("the queue to report the engine problem", &|| {
        store::status(&ws).unwrap().engine_problem.is_some_and(|p| p.contains(&socket))
    });
    std::thread::sleep(Duration::from_secs(3)); // the queue keeps waiting, nothing is lost
    assert_eq!(store::status(&ws).unwrap().counts.finished(), 0);
    dockerd.start();

    worker.join().unwrap().expect("the worker drains once the engine is back");
    assert!(store::status(&ws).unwrap().engine_problem.is_none(), "the problem is cleared on resume");
    let done = store::trials(&ws, run).unwrap();
    assert!(done.iter().all(|t| t.state == TrialState::Passed), "{done:?}");
    let retried: Vec<_> = done
        .iter()
        .filter(|t| store::results(&ws, t.id).unwrap().iter().any(|r| r.outcome == TrialState::InfraError))
        .collect();
    assert!(!retried.is_empty(), "the interrupted trials were recorded as infrastructure failures and re-run");
    assert!(retried.iter().all(|t| t.attempt >= 2));
    let evs = events.lock().unwrap();
    assert!(evs.iter().any(|e| matches!(e, QueueEvent::Status { status } if status.engine_problem.is_some())));
    let rt = crate::common::rt();
    let engine = rt.block_on(skillscope_sandbox::Engine::connect_to(&socket)).unwrap();
    assert_eq!(rt.block_on(leftovers(&engine, &ws)), 0, "containers of the stopped engine were cleaned up");
}
