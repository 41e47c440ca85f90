//! One-shot command runs, as behind `skillscope sandbox run`.

use std::io::Write;
use std::time::Duration;

use crate::engine::Engine;
use crate::error::SandboxError;
use crate::exec::{ExecOptions, ExecResult, OutputStream};
use crate::spec::{ContainerSpec, NetworkMode};

/// Runs `cmd` in a fresh container of `image` with the default isolation and the given
/// limits, streaming its output to our stdout/stderr. The container is removed
/// afterwards, also on error.
pub async fn run_once(
    engine: &Engine,
    image: &str,
    network: NetworkMode,
    memory_bytes: i64,
    cpus: f64,
    timeout: Duration,
    cmd: &[String],
) -> Result<ExecResult, SandboxError> {
    let spec = ContainerSpec {
        network,
        memory_bytes: Some(memory_bytes),
        nano_cpus: Some((cpus * 1e9) as i64),
        ..ContainerSpec::new(image)
    };
    let container = engine.create(&spec).await?;
    let outcome = async {
        container.start().await?;
        let opts = ExecOptions { timeout, ..ExecOptions::default() };
        container.exec(cmd, opts, &mut print_output).await
    }
    .await;
    let removed = container.remove().await;
    let result = outcome?;
    removed?;
    Ok(result)
}

fn print_output(stream: OutputStream, bytes: &[u8]) {
    // Output is best effort: a closed pipe must not abort the run.
    let _ = match stream {
        OutputStream::Stdout => std::io::stdout().write_all(bytes),
        OutputStream::Stderr => std::io::stderr().write_all(bytes),
    };
}
