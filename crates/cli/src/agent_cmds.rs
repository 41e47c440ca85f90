//! `skillscope trajectory|credential|provider|agent ...`.

use clap::Subcommand;
use skillscope_api::agents::{self, AgentConfig};
use skillscope_api::harnesses::Harness;
use skillscope_api::jobs::{self, JobOutcome, JobRequest};
use skillscope_api::models::{ApiKind, ProviderConfig};
use skillscope_api::{credentials, trajectories, AppError, ErrorCode, Workspace};
use std::io::Read;
use std::path::PathBuf;

#[derive(Subcommand)]
pub(crate) enum TrajectoryCmd {
    /// Check an ATIF file against the schema and the cross-field rules (exit 1 on violations).
    Validate { file: PathBuf },
    /// Import an ATIF file produced elsewhere (Harbor, SkillEvaluator) into the workspace.
    Import { file: PathBuf },
}

#[derive(Subcommand)]
pub(crate) enum TrialCmd {
    /// Write a trial's evidence bundle (trajectories, output, file changes, phases, tokens, cost;
    /// secrets redacted) into a folder.
    Evidence {
        trial: i64,
        #[arg(long)]
        out: PathBuf,
    },
}

pub(crate) fn trial(ws: &Workspace, cmd: TrialCmd) -> Result<bool, AppError> {
    let TrialCmd::Evidence { trial, out } = cmd;
    for f in skillscope_api::evidence::export(ws, trial, &out)? {
        println!("{}", out.join(f).display());
    }
    Ok(true)
}

#[derive(Subcommand)]
pub(crate) enum CredentialCmd {
    /// Store a provider's key in the OS keyring; the key is read from stdin.
    Set { provider: String },
    /// Make a cheap real call with the stored key.
    Test {
        provider: String,
        #[arg(long)]
        model: String,
    },
    /// Remove the key from the keyring.
    Delete { provider: String },
}

#[derive(Subcommand)]
pub(crate) enum ProviderCmd {
    /// Add or update a provider (its key goes in with `credential set`).
    Add {
        id: String,
        #[arg(long, value_parser = ["openai_chat", "openai_responses", "anthropic", "gemini"])]
        api: String,
        #[arg(long)]
        base_url: String,
        #[arg(long, default_value_t = 4)]
        max_concurrency: u32,
        /// Seconds one model request may take before it fails.
        #[arg(long, default_value_t = 120)]
        timeout_secs: u64,
        /// Retries of a request that failed in a way worth retrying (rate limit, server error).
        #[arg(long, default_value_t = 3)]
        max_retries: u32,
    },
    List {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
pub(crate) enum AgentCmd {
    /// Add a named configuration of the built-in agent.
    Add {
        name: String,
        #[arg(long)]
        provider: String,
        #[arg(long)]
        model: String,
        #[arg(long, default_value_t = 30)]
        max_turns: u32,
        #[arg(long, default_value_t = 400_000)]
        token_budget: u64,
        /// `builtin` (Skillscope's agent), or a real CLI: `claude-code` (Anthropic providers),
        /// `codex` (OpenAI Responses), `opencode` (OpenAI Chat Completions) or `gemini` (Gemini);
        /// `skillscope harness install <name>` first.
        #[arg(long, default_value = "builtin", value_parser = ["builtin", "claude-code", "codex", "opencode", "gemini"])]
        harness: String,
    },
    List {
        #[arg(long)]
        json: bool,
    },
}

fn print_json(v: &impl serde::Serialize) -> Result<(), AppError> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

pub(crate) fn trajectory(ws: &Workspace, cmd: TrajectoryCmd) -> Result<bool, AppError> {
    match cmd {
        TrajectoryCmd::Validate { file } => {
            let text = std::fs::read_to_string(&file).map_err(|e| AppError::io(file.display(), e))?;
            let value: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| AppError::invalid_input(format!("{}: not JSON: {e}", file.display())))?;
            let violations = skillscope_api::atif::validate(&value);
            for v in &violations {
                println!("{v}");
            }
            if violations.is_empty() {
                println!("{}: valid ATIF", file.display());
            }
            Ok(violations.is_empty())
        }
        TrajectoryCmd::Import { file } => {
            let (id, violations) = trajectories::import_file(ws, &file)?;
            println!("imported {} as trajectory #{id}", file.display());
            for v in &violations {
                println!("warning: {v}");
            }
            Ok(true)
        }
    }
}

pub(crate) fn credential(ws: &Workspace, cmd: CredentialCmd) -> Result<bool, AppError> {
    match cmd {
        CredentialCmd::Set { provider } => {
            let mut secret = String::new();
            std::io::stdin().read_to_string(&mut secret).map_err(|e| AppError::io("stdin", e))?;
            credentials::set(&provider, &secret)?;
            println!("stored the key for {provider} in the OS keyring");
        }
        CredentialCmd::Test { provider, model } => {
            let rt = tokio::runtime::Runtime::new().map_err(|e| AppError::new(ErrorCode::Internal, e.to_string()))?;
            rt.block_on(agents::test_credential(ws, &provider, &model))?;
            println!("the key for {provider} works with {model}");
        }
        CredentialCmd::Delete { provider } => {
            let existed = credentials::delete(&provider)?;
            println!(
                "{}",
                if existed {
                    format!("deleted the key for {provider}")
                } else {
                    format!("no key was stored for {provider}")
                }
            );
        }
    }
    Ok(true)
}

pub(crate) fn provider(ws: &Workspace, cmd: ProviderCmd) -> Result<bool, AppError> {
    match cmd {
        ProviderCmd::Add { id, api, base_url, max_concurrency, timeout_secs, max_retries } => {
            let api: ApiKind = serde_json::from_value(serde_json::Value::String(api))?;
            let base = ProviderConfig::new(id.clone(), api, base_url);
            agents::save_provider(ws, &ProviderConfig { max_concurrency, timeout_secs, max_retries, ..base })?;
            println!("saved provider {id}");
        }
        ProviderCmd::List { json } => {
            let all = agents::providers(ws)?;
            if json {
                print_json(&all)?;
            }
            for p in all.iter().filter(|_| !json) {
                println!(
                    "{:<16} {:<18} {}  {}",
                    p.config.id,
                    format!("{:?}", p.config.api),
                    p.config.base_url,
                    if p.has_key { "key stored" } else { "no key" }
                );
            }
        }
    }
    Ok(true)
}

pub(crate) fn agent(ws: &Workspace, cmd: AgentCmd) -> Result<bool, AppError> {
    match cmd {
        AgentCmd::Add { name, provider, model, max_turns, token_budget, harness } => {
            let limits = skillscope_api::agent::AgentLimits { max_turns, token_budget, ..Default::default() };
            let harness = Harness::parse(&harness)?;
            let id = agents::save_agent(
                ws,
                &AgentConfig { id: 0, name: name.clone(), harness, provider_id: provider, model, limits },
            )?;
            println!("saved agent configuration {name} (#{id})");
        }
        AgentCmd::List { json } => {
            let all = agents::agents(ws)?;
            if json {
                print_json(&all)?;
            }
            for a in all.iter().filter(|_| !json) {
                println!(
                    "#{:<4} {:<28} {:<12} {} {}  max {} turns",
                    a.id,
                    a.name,
                    a.harness.as_str(),
                    a.provider_id,
                    a.model,
                    a.limits.max_turns
                );
            }
        }
    }
    Ok(true)
}

#[derive(Subcommand)]
pub(crate) enum HarnessCmd {
    /// Installs a harness with npm into the workspace (`$SKILLSCOPE_HARNESS_DIR` when set).
    Install {
        #[arg(value_parser = ["claude-code", "codex", "opencode", "gemini"])]
        harness: String,
    },
}

pub(crate) fn harness(ws: &Workspace, cmd: HarnessCmd) -> Result<bool, AppError> {
    match cmd {
        HarnessCmd::Install { harness } => {
            let request = JobRequest::HarnessInstall { harness: Harness::parse(&harness)? };
            if let JobOutcome::HarnessInstall(status) = jobs::run_here(ws, &request, &crate::progress_lines)? {
                println!("{} {} is at {}", status.harness.as_str(), status.version, status.detail);
            }
        }
    }
    Ok(true)
}
