//! The `skillscope` binary end to end, one test binary: each module is one area of the CLI.

mod agent_cli;
mod cli;
mod common;
mod demo_cli;
mod engine_cli;
mod eval_cli;
mod gate_action;
mod gate_cli;
mod generate_cli;
mod generate_repo_cli;
mod probe_cli;
mod queue_crash;
mod scan_review;
mod tasks_cli;
