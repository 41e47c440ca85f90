//! `skillscope-model-server`: serves the scripted model API until killed.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;
use skillscope_modelserver::{start_on, Script, ServerOptions};

/// Scripted fake model server (OpenAI Chat Completions, OpenAI Responses,
/// Anthropic Messages, Gemini) on 127.0.0.1.
#[derive(Debug, Parser)]
#[command(name = "skillscope-model-server", version)]
struct Args {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Script JSON file (`{"default": [...], "branches": [...]}` or a list of steps).
    /// Without it, a demo script runs `echo hi > out.txt` then says it did.
    #[arg(long)]
    script: Option<PathBuf>,
    /// Accept only this API key.
    #[arg(long = "require-key")]
    require_key: Option<String>,
    /// Accepted model name (repeatable); without any, every model is accepted.
    #[arg(long = "model")]
    models: Vec<String>,
}

fn load_script(path: &PathBuf) -> Result<Script, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("invalid script {}: {e}", path.display()))
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let args = Args::parse();
    let script = match &args.script {
        Some(p) => match load_script(p) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return std::process::ExitCode::from(2);
            }
        },
        None => Script::demo(),
    };
    let opts = ServerOptions { script, require_key: args.require_key, models: args.models };
    let handle = match start_on(SocketAddr::from(([127, 0, 0, 1], args.port)), opts).await {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: cannot listen on 127.0.0.1:{}: {e}", args.port);
            return std::process::ExitCode::from(1);
        }
    };
    println!("listening on {}", handle.base_url);
    tokio::select! {
        r = handle.wait() => {
            if let Err(e) = r {
                eprintln!("error: server stopped: {e}");
                return std::process::ExitCode::from(1);
            }
        }
        _ = tokio::signal::ctrl_c() => {}
    }
    std::process::ExitCode::SUCCESS
}
