//! Shared test helpers: the busybox image (built once per test run) and a per-test
//! label scope whose containers are removed even when the test panics.

use std::collections::HashMap;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use skillscope_sandbox::{bootstrap, Container, ContainerSpec, Engine, ExecOptions, ExecResult};
use tokio::sync::OnceCell;

pub(crate) const TEST_LABEL: &str = "skillscope.test";

static BUSYBOX: OnceCell<String> = OnceCell::const_new();

/// Held by every test that builds an image: a build in progress shows its intermediate images as
/// dangling, and one test checks that its own builds leave no dangling image behind.
pub(crate) static IMAGE_BUILDS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub(crate) async fn engine() -> Engine {
    Engine::connect().await.expect("Docker engine")
}

/// Image id of skillscope/busybox:1, bootstrapped on first use.
pub(crate) async fn busybox(engine: &Engine) -> String {
    BUSYBOX
        .get_or_init(|| async {
            let start = std::time::Instant::now();
            let id = bootstrap::busybox(engine).await.expect("busybox bootstrap");
            eprintln!("busybox bootstrap: {:?}", start.elapsed());
            id
        })
        .await
        .clone()
}

/// Containers created through a scope carry its unique label; dropping the scope
/// force-removes any that are left (so a failing test leaks nothing).
pub(crate) struct Scope {
    pub(crate) label: String,
}

impl Scope {
    pub(crate) fn new(test: &str) -> Scope {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
        Scope { label: format!("{test}-{}-{nanos}", std::process::id()) }
    }

    pub(crate) fn spec(&self, image: &str) -> ContainerSpec {
        ContainerSpec {
            labels: HashMap::from([(TEST_LABEL.to_string(), self.label.clone())]),
            ..ContainerSpec::new(image)
        }
    }

    pub(crate) async fn started(&self, engine: &Engine, spec: &ContainerSpec) -> Container {
        let container = engine.create(spec).await.expect("create");
        container.start().await.expect("start");
        container
    }

    /// Asserts that no container with this scope's label remains.
    pub(crate) async fn assert_clean(&self, engine: &Engine) {
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
        let Ok(out) = Command::new("docker").args(["ps", "-aq", "--filter", &filter]).output() else {
            return;
        };
        for id in String::from_utf8_lossy(&out.stdout).split_whitespace() {
            let _ = Command::new("docker").args(["rm", "-f", id]).output();
        }
    }
}

pub(crate) fn sh(script: &str) -> Vec<String> {
    vec!["sh".into(), "-c".into(), script.into()]
}

pub(crate) fn secs(n: u64) -> ExecOptions {
    ExecOptions::seconds(n)
}

/// Runs a command, ignoring streamed output.
pub(crate) async fn run(container: &Container, cmd: Vec<String>, opts: ExecOptions) -> ExecResult {
    container.exec(&cmd, opts, &mut |_, _| {}).await.expect("exec")
}
