//! Skillscope's built-in agent: asks a model what to do, runs its tool calls in the trial's
//! container, records every step as ATIF, and stops on a final answer or a limit. And the real
//! coding-agent CLIs run inside the container (`cli_harness`): Claude Code (`claude_code`), Codex
//! (`codex`), OpenCode (`opencode`) and Gemini CLI (`gemini`).

pub mod claude_code;
pub mod cli_harness;
pub mod codex;
pub mod gemini;
pub mod opencode;
pub mod prompt;
mod record;
pub mod run;
pub mod tools;

pub use prompt::SkillListing;
pub use run::{run, AgentError, AgentLimits, AgentOutcome, StopReason};

/// The agent's home in the container (`HOME` of every command it runs), in /tmp so that any
/// user may have one; the trial makes it, owned by the agent's user, before the agent starts.
pub const HOME: &str = "/tmp/skillscope-home";

/// The folders the CLI harnesses are pointed at by the variables they run with, as (variable,
/// folder): `HOME` for all, then each one's configuration folder. Where they look for skills
/// besides the working directory, so the clean-arms step empties them too.
pub const HARNESS_DIRS: &[(&str, &str)] = &[
    ("HOME", HOME),
    ("CLAUDE_CONFIG_DIR", claude_code::CONFIG_DIR),
    ("CODEX_HOME", codex::CODEX_HOME),
    ("XDG_CONFIG_HOME", opencode::CONFIG_HOME),
    ("GEMINI_CLI_HOME", gemini::ROOT),
];
