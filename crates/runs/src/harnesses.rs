//! Coding-agent harnesses a configuration can run: Skillscope's built-in agent, or a real CLI
//! (Claude Code, Codex, OpenCode, Gemini CLI), installed from npm (pinned) into the workspace and
//! mounted into trial containers.

use crate::error::{Result, RunsError};
use serde::{Deserialize, Serialize};
use skillscope_agent::{claude_code, codex, gemini, opencode};
use skillscope_models::ApiKind;
use skillscope_store::workspace::Workspace;
use skillscope_store::IoError;
use std::path::{Path, PathBuf};
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
    /// OpenAI's Codex CLI inside the container; OpenAI Responses providers only.
    Codex,
    /// The OpenCode CLI inside the container; OpenAI Chat Completions providers only.
    #[serde(rename = "opencode")]
    #[ts(rename = "opencode")]
    OpenCode,
    /// Google's Gemini CLI inside the container; Gemini providers only.
    Gemini,
}

/// An npm-installed CLI: its package, pinned version, the other pinned packages it needs, the
/// binary inside the install, what of the install is mounted into the container, the API it
/// speaks and what Settings says before it is installed.
struct NpmCli {
    package: &'static str,
    version: &'static str,
    /// Installed with it (`name@version`): a Node runtime for a CLI written for Node.
    with: &'static [&'static str],
    binary: &'static str,
    /// Mounted in place of the binary alone: the folder holding a script and its runtime.
    mount: Option<&'static str>,
    api: ApiKind,
    about: &'static str,
}

impl Harness {
    pub const ALL: [Harness; 5] =
        [Harness::Builtin, Harness::ClaudeCode, Harness::Codex, Harness::OpenCode, Harness::Gemini];

    /// Its name, as configurations store it.
    pub fn as_str(self) -> &'static str {
        match self {
            Harness::Builtin => "builtin",
            Harness::ClaudeCode => "claude-code",
            Harness::Codex => "codex",
            Harness::OpenCode => "opencode",
            Harness::Gemini => "gemini",
        }
    }

    pub fn parse(s: &str) -> Result<Self> {
        Self::ALL.into_iter().find(|h| h.as_str() == s).ok_or_else(|| {
            let known: Vec<&str> = Self::ALL.iter().map(|h| h.as_str()).collect();
            RunsError::InvalidInput(format!("unknown harness {s:?}: one of {}", known.join(", ")))
        })
    }

    /// The version that runs: Skillscope's own for the built-in agent, the pinned one otherwise.
    pub fn version(self) -> &'static str {
        self.npm().map_or(env!("CARGO_PKG_VERSION"), |cli| cli.version)
    }

    /// The API a provider must speak for this harness (None: any).
    pub fn api(self) -> Option<ApiKind> {
        self.npm().map(|cli| cli.api)
    }

    /// The image this harness runs a task in: the task's own, except that the busybox default
    /// becomes the Debian image for a real CLI (Claude Code and OpenCode are glibc binaries, Codex
    /// runs its commands with /bin/bash). A task that names another image keeps it.
    pub fn task_image(self, image: &str) -> &str {
        use skillscope_sandbox::bootstrap::{BUSYBOX_TAG, DEBIAN_PYTHON_TAG};
        if self != Harness::Builtin && image == BUSYBOX_TAG {
            DEBIAN_PYTHON_TAG
        } else {
            image
        }
    }

    fn npm(self) -> Option<NpmCli> {
        match self {
            Harness::Builtin => None,
            Harness::ClaudeCode => Some(NpmCli {
                package: "@anthropic-ai/claude-code",
                version: claude_code::VERSION,
                with: &[],
                binary: "node_modules/@anthropic-ai/claude-code-linux-x64/claude",
                mount: None,
                api: ApiKind::Anthropic,
                about: "Installs from npm (about 240 MB); runs in glibc task images with an Anthropic provider.",
            }),
            Harness::Codex => Some(NpmCli {
                package: "@openai/codex",
                version: codex::VERSION,
                with: &[],
                binary: "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
                mount: None,
                api: ApiKind::OpenAiResponses,
                about: "Installs from npm (about 420 MB); runs in task images with /bin/bash, with an OpenAI Responses provider.",
            }),
            Harness::OpenCode => Some(NpmCli {
                package: "opencode-ai",
                version: opencode::VERSION,
                with: &[],
                binary: "node_modules/opencode-linux-x64/bin/opencode",
                mount: None,
                api: ApiKind::OpenAiChat,
                about: "Installs from npm (about 190 MB); runs in glibc task images with ripgrep (its skill tool needs rg), with an OpenAI Chat Completions provider.",
            }),
            Harness::Gemini => Some(NpmCli {
                package: "@google/gemini-cli",
                version: gemini::VERSION,
                with: &[gemini::NODE],
                binary: "node_modules/@google/gemini-cli/bundle/gemini.js",
                mount: Some("node_modules"),
                api: ApiKind::Gemini,
                about: "Installs from npm with its own Node runtime (about 290 MB); runs in glibc task images with libstdc++, with a Gemini provider.",
            }),
        }
    }
}

/// Where harnesses are installed: `$SKILLSCOPE_HARNESS_DIR` (shared by test workspaces), else the
/// workspace's `harnesses/`.
fn root(ws: &Workspace) -> PathBuf {
    std::env::var_os("SKILLSCOPE_HARNESS_DIR").map(PathBuf::from).unwrap_or_else(|| ws.home().join("harnesses"))
}

fn prefix(ws: &Workspace, harness: Harness, cli: &NpmCli) -> PathBuf {
    root(ws).join(format!("{}-{}", harness.as_str(), cli.version))
}

/// A CLI harness's binary, mounted into trial containers, or why there is none.
pub fn binary(ws: &Workspace, harness: Harness) -> Result<PathBuf> {
    let cli = harness.npm().ok_or_else(|| RunsError::InvalidInput("the built-in agent has no binary".into()))?;
    let binary = prefix(ws, harness, &cli).join(cli.binary);
    if binary.is_file() {
        return Ok(binary);
    }
    Err(RunsError::NotFound(format!(
        "{} {} is not installed: install it in Settings → Harnesses or run `skillscope harness install {}` (needs npm)",
        harness.as_str(),
        cli.version,
        harness.as_str()
    )))
}

/// What of a CLI harness's install is mounted into trial containers (at the harness's own
/// place): its binary, or the folder holding its script and runtime.
pub fn mounted(ws: &Workspace, harness: Harness) -> Result<PathBuf> {
    let binary = binary(ws, harness)?;
    match harness.npm().and_then(|cli| Some(prefix(ws, harness, &cli).join(cli.mount?))) {
        Some(folder) => Ok(folder),
        None => Ok(binary),
    }
}

/// Bytes of the files under `dir` (what npm has written so far); unreadable entries count 0.
fn bytes_under(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => bytes_under(&e.path()),
            Ok(t) if t.is_file() => e.metadata().map(|m| m.len()).unwrap_or(0),
            _ => 0,
        })
        .sum()
}

/// How often an install reports the bytes written so far.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Installs a CLI harness with npm (once; later calls find it); returns its binary. `watch` is
/// called while npm runs, about every second, with the bytes installed so far; when it answers
/// false, npm is killed and the install fails with `Conflict`.
fn install_npm(ws: &Workspace, harness: Harness, cli: &NpmCli, watch: &mut dyn FnMut(u64) -> bool) -> Result<PathBuf> {
    if let Ok(binary) = binary(ws, harness) {
        return Ok(binary);
    }
    let prefix = prefix(ws, harness, cli);
    std::fs::create_dir_all(&prefix).map_err(|e| IoError::new(prefix.display(), e))?;
    let package = format!("{}@{}", cli.package, cli.version);
    let mut child = std::process::Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&prefix)
        .arg(&package)
        .args(cli.with)
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
    let mut reported = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| IoError::new("waiting for npm", e))? {
            break status;
        }
        if reported.elapsed() >= PROGRESS_EVERY {
            reported = std::time::Instant::now();
            if !watch(bytes_under(&prefix)) {
                let _ = child.kill();
                let _ = child.wait();
                return Err(RunsError::Conflict(format!("the install of {package} was cancelled")));
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    if !status.success() {
        let text = stderr.and_then(|t| t.join().ok()).unwrap_or_default();
        return Err(RunsError::Install { package, stderr: text.trim().to_string() });
    }
    binary(ws, harness)
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

fn status_of(ws: &Workspace, harness: Harness) -> HarnessStatus {
    let (installed, detail) = match harness.npm() {
        None => (true, "Part of Skillscope; runs with any provider.".to_string()),
        Some(cli) => match binary(ws, harness) {
            Ok(binary) => (true, binary.display().to_string()),
            Err(_) => (false, cli.about.to_string()),
        },
    };
    HarnessStatus { harness, version: harness.version().into(), installed, detail }
}

/// Installs a harness (nothing to do for the built-in agent); returns its new status. `watch`
/// hears the bytes installed so far and can stop the install (see [`install_npm`]).
pub fn install(ws: &Workspace, harness: Harness, watch: &mut dyn FnMut(u64) -> bool) -> Result<HarnessStatus> {
    if let Some(cli) = harness.npm() {
        install_npm(ws, harness, &cli, watch)?;
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
        let none = [
            (Harness::Builtin, true),
            (Harness::ClaudeCode, false),
            (Harness::Codex, false),
            (Harness::OpenCode, false),
            (Harness::Gemini, false),
        ];
        assert_eq!(ready(&ws), none);
        let err = binary(&ws, Harness::ClaudeCode).unwrap_err();
        assert!(matches!(err, RunsError::NotFound(_)));
        assert!(err.to_string().contains("skillscope harness install claude-code"), "{err}");

        let binary = harnesses.path().join(format!(
            "claude-code-{}/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
            claude_code::VERSION
        ));
        std::fs::create_dir_all(binary.parent().unwrap()).unwrap();
        std::fs::write(&binary, b"").unwrap();
        let claude = [
            (Harness::Builtin, true),
            (Harness::ClaudeCode, true),
            (Harness::Codex, false),
            (Harness::OpenCode, false),
            (Harness::Gemini, false),
        ];
        assert_eq!(ready(&ws), claude);
        assert_eq!(
            install(&ws, Harness::ClaudeCode, &mut |_| true).unwrap().detail,
            binary.display().to_string(),
            "installed once, found after"
        );
        assert_eq!(Harness::parse("claude-code").unwrap(), Harness::ClaudeCode);
        assert_eq!(Harness::parse("codex").unwrap(), Harness::Codex);
        assert_eq!(Harness::parse("opencode").unwrap(), Harness::OpenCode);
        assert_eq!(serde_json::to_value(Harness::OpenCode).unwrap(), "opencode");
        assert_eq!(Harness::parse("gemini").unwrap(), Harness::Gemini);
        assert!(matches!(Harness::parse("goose").unwrap_err(), RunsError::InvalidInput(_)));

        // Gemini CLI is a Node script: its install's node_modules (the script and the runtime) is mounted.
        let prefix = harnesses.path().join(format!("gemini-{}", gemini::VERSION));
        let script = prefix.join("node_modules/@google/gemini-cli/bundle/gemini.js");
        std::fs::create_dir_all(script.parent().unwrap()).unwrap();
        std::fs::write(&script, b"").unwrap();
        assert_eq!(mounted(&ws, Harness::Gemini).unwrap(), prefix.join("node_modules"));
        assert_eq!(mounted(&ws, Harness::ClaudeCode).unwrap(), binary);
    }
}
