//! Coding-agent harnesses a configuration can run: Skillscope's built-in agent, or the real
//! Claude Code CLI, installed from npm (pinned) into the workspace and mounted into trial containers.

use crate::error::{Result, RunsError};
use serde::{Deserialize, Serialize};
use skillscope_agent::claude_code;
use skillscope_store::workspace::Workspace;
use skillscope_store::IoError;
use std::path::PathBuf;
use ts_rs::TS;

/// Who does a configuration's work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
#[ts(export)]
pub enum Harness {
    /// Skillscope's own agent loop, any provider.
    #[default]
    Builtin,
    /// The Claude Code CLI inside the container; Anthropic Messages providers only.
    ClaudeCode,
}

impl Harness {
    pub const ALL: [Harness; 2] = [Harness::Builtin, Harness::ClaudeCode];

    pub fn as_str(self) -> &'static str {
        match self {
            Harness::Builtin => "builtin",
            Harness::ClaudeCode => "claude-code",
        }
    }

    pub fn parse(s: &str) -> Result<Self> {
        Self::ALL.into_iter().find(|h| h.as_str() == s).ok_or_else(|| {
            let known: Vec<&str> = Self::ALL.iter().map(|h| h.as_str()).collect();
            RunsError::InvalidInput(format!("unknown harness {s:?}: one of {}", known.join(", ")))
        })
    }
}

/// Where harnesses are installed: `$SKILLSCOPE_HARNESS_DIR` (shared by test workspaces), else the
/// workspace's `harnesses/`.
fn root(ws: &Workspace) -> PathBuf {
    std::env::var_os("SKILLSCOPE_HARNESS_DIR").map(PathBuf::from).unwrap_or_else(|| ws.home().join("harnesses"))
}

fn claude_code_prefix(ws: &Workspace) -> PathBuf {
    root(ws).join(format!("claude-code-{}", claude_code::VERSION))
}

/// The Claude Code binary (a glibc Linux executable, so tasks need a glibc image), or why not.
pub fn claude_code_binary(ws: &Workspace) -> Result<PathBuf> {
    let binary = claude_code_prefix(ws).join("node_modules/@anthropic-ai/claude-code-linux-x64/claude");
    if binary.is_file() {
        return Ok(binary);
    }
    Err(RunsError::NotFound(format!(
        "Claude Code {} is not installed: run `skillscope harness install claude-code` (needs npm)",
        claude_code::VERSION
    )))
}

/// Installs Claude Code with npm (once; later calls find it); returns the binary. `stop` is
/// polled while npm runs: when it says so, npm is killed and the install fails with `Conflict`.
pub fn install_claude_code(ws: &Workspace, stop: &dyn Fn() -> bool) -> Result<PathBuf> {
    if let Ok(binary) = claude_code_binary(ws) {
        return Ok(binary);
    }
    let prefix = claude_code_prefix(ws);
    std::fs::create_dir_all(&prefix).map_err(|e| IoError::new(prefix.display(), e))?;
    let package = format!("@anthropic-ai/claude-code@{}", claude_code::VERSION);
    let mut child = std::process::Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&prefix)
        .arg(&package)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|source| RunsError::NoNpm { package: package.clone(), source })?;
    // Drained on its own thread so a chatty npm never blocks on a full pipe.
    let stderr = child.stderr.take().map(|mut pipe| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut pipe, &mut text);
            text
        })
    });
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| IoError::new("waiting for npm", e))? {
            break status;
        }
        if stop() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(RunsError::Conflict(format!("the install of {package} was cancelled")));
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    if !status.success() {
        let text = stderr.and_then(|t| t.join().ok()).unwrap_or_default();
        return Err(RunsError::Install { package, stderr: text.trim().to_string() });
    }
    claude_code_binary(ws)
}

/// A harness as Settings shows it: whether it can run here, and what it is.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct HarnessStatus {
    pub harness: Harness,
    /// The version that runs (Skillscope's own for the built-in agent).
    pub version: String,
    pub installed: bool,
    /// Where it is installed, or what installing it takes.
    pub detail: String,
}

/// Every harness and whether it is ready.
pub fn status(ws: &Workspace) -> Vec<HarnessStatus> {
    Harness::ALL.into_iter().map(|h| status_of(ws, h)).collect()
}

impl Harness {
    /// Its name, as configurations store it.
    pub fn name(self) -> &'static str {
        match self {
            Harness::Builtin => "builtin",
            Harness::ClaudeCode => "claude-code",
        }
    }

    /// The version that runs: Skillscope's own for the built-in agent, the pinned one otherwise.
    pub fn version(self) -> &'static str {
        match self {
            Harness::Builtin => env!("CARGO_PKG_VERSION"),
            Harness::ClaudeCode => claude_code::VERSION,
        }
    }
}

fn status_of(ws: &Workspace, harness: Harness) -> HarnessStatus {
    match harness {
        Harness::Builtin => HarnessStatus {
            harness,
            version: harness.version().into(),
            installed: true,
            detail: "Part of Skillscope; runs with any provider.".into(),
        },
        Harness::ClaudeCode => {
            let found = claude_code_binary(ws);
            HarnessStatus {
                harness,
                version: harness.version().into(),
                installed: found.is_ok(),
                detail: match found {
                    Ok(binary) => binary.display().to_string(),
                    Err(_) => {
                        "Installs from npm (about 240 MB); runs in glibc task images with an Anthropic provider.".into()
                    }
                },
            }
        }
    }
}

/// Installs a harness (nothing to do for the built-in agent); returns its new status.
pub fn install(ws: &Workspace, harness: Harness, stop: &dyn Fn() -> bool) -> Result<HarnessStatus> {
    if harness == Harness::ClaudeCode {
        install_claude_code(ws, stop)?;
    }
    Ok(status_of(ws, harness))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_says_what_is_ready_and_finds_an_installed_claude_code() {
        let home = tempfile::tempdir().unwrap();
        let harnesses = tempfile::tempdir().unwrap();
        // The only test in this crate that reads the variable.
        std::env::set_var("SKILLSCOPE_HARNESS_DIR", harnesses.path());
        let ws = Workspace::open(home.path()).unwrap();
        let ready = |ws: &Workspace| status(ws).into_iter().map(|s| (s.harness, s.installed)).collect::<Vec<_>>();
        assert_eq!(ready(&ws), [(Harness::Builtin, true), (Harness::ClaudeCode, false)]);
        let err = claude_code_binary(&ws).unwrap_err();
        assert!(matches!(err, RunsError::NotFound(_)));
        assert!(err.to_string().contains("skillscope harness install claude-code"), "{err}");

        let binary = harnesses.path().join(format!(
            "claude-code-{}/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
            claude_code::VERSION
        ));
        std::fs::create_dir_all(binary.parent().unwrap()).unwrap();
        std::fs::write(&binary, b"").unwrap();
        assert_eq!(ready(&ws), [(Harness::Builtin, true), (Harness::ClaudeCode, true)]);
        assert_eq!(
            install(&ws, Harness::ClaudeCode, &|| false).unwrap().detail,
            binary.display().to_string(),
            "installed once, found after"
        );
        assert_eq!(Harness::parse("claude-code").unwrap(), Harness::ClaudeCode);
        assert!(matches!(Harness::parse("codex").unwrap_err(), RunsError::InvalidInput(_)));
    }
}
