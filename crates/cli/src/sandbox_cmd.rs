//! `skillscope sandbox run` and `skillscope image bootstrap`.

use clap::Subcommand;
use skillscope_api::jobs::{self, JobOutcome, JobRequest};
use skillscope_api::sandbox::{Engine, NetworkMode};
use skillscope_api::{AppError, Workspace};
use std::time::Duration;

#[derive(Subcommand)]
pub(crate) enum SandboxCmd {
    /// Run CMD in a fresh container (no network, limits, all capabilities dropped) and remove it.
    Run {
        #[arg(long)]
        image: String,
        /// `none` (default) or `bridge`.
        #[arg(long, default_value = "none")]
        network: String,
        /// Memory limit, e.g. 512m or 1g.
        #[arg(long, default_value = "1g")]
        memory: String,
        #[arg(long, default_value_t = 1.0)]
        cpus: f64,
        /// Seconds before the command is killed.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
        #[arg(last = true, required = true)]
        cmd: Vec<String>,
    },
}

#[derive(Subcommand)]
pub(crate) enum ImageCmd {
    /// Build the local base images: skillscope/busybox:1 (from busybox-static) and
    /// skillscope/debian-python:12 (debootstrap; takes minutes the first time).
    Bootstrap {
        /// Only the small busybox image.
        #[arg(long)]
        busybox_only: bool,
    },
}

/// `512m`, `1g`, `1048576` → bytes.
fn parse_memory(s: &str) -> Result<i64, AppError> {
    let s = s.trim().to_ascii_lowercase();
    let (num, mult) = match s.chars().last() {
        Some('k') => (&s[..s.len() - 1], 1 << 10),
        Some('m') => (&s[..s.len() - 1], 1 << 20),
        Some('g') => (&s[..s.len() - 1], 1 << 30),
        _ => (s.as_str(), 1),
    };
    num.parse::<i64>()
        .map(|n| n * mult)
        .map_err(|_| AppError::invalid_input(format!("bad memory size {s:?}; use e.g. 512m or 1g")))
}

pub(crate) fn sandbox(cmd: SandboxCmd) -> Result<bool, AppError> {
    let SandboxCmd::Run { image, network, memory, cpus, timeout, cmd } = cmd;
    let network = match network.as_str() {
        "none" => NetworkMode::None,
        "bridge" => NetworkMode::Bridge,
        other => return Err(AppError::invalid_input(format!("--network {other:?}: use none or bridge"))),
    };
    let memory = parse_memory(&memory)?;
    let r = crate::runtime()?.block_on(async {
        let engine = Engine::connect().await?;
        skillscope_api::sandbox::run_once(&engine, &image, network, memory, cpus, Duration::from_secs(timeout), &cmd)
            .await
    });
    let r = r?;
    let why = if r.timed_out {
        " (timed out)"
    } else if r.oom_killed {
        " (out of memory)"
    } else {
        ""
    };
    eprintln!("exit code: {}{why}", r.exit_code.map_or("none".into(), |c| c.to_string()));
    Ok(r.exit_code == Some(0))
}

pub(crate) fn image(ws: &Workspace, cmd: ImageCmd) -> Result<bool, AppError> {
    let ImageCmd::Bootstrap { busybox_only } = cmd;
    let request = JobRequest::ImagePreparation { debian: !busybox_only };
    let outcome = jobs::run_here(ws, &request, &crate::progress_lines)?;
    if let JobOutcome::ImagePreparation { images } = outcome {
        images.iter().for_each(|image| println!("{image}"));
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    #[test]
    fn memory_sizes() {
        assert_eq!(super::parse_memory("512m").unwrap(), 512 << 20);
        assert_eq!(super::parse_memory("1G").unwrap(), 1 << 30);
        assert!(super::parse_memory("lots").is_err());
    }
}
