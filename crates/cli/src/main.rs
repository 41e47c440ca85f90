//! `skillscope`: the headless face of the core, for CI gates and scripts.
//! Exit 0 on success, 1 when a gate (`gate`, `scan --fail-under`) fails; on an error one line
//! `skillscope: <code>: <message>` on stderr and exit 2.

mod agent_cmds;
mod demo_cmd;
mod engine_cmd;
mod eval_cmd;
mod experiment_cmd;
mod gate_cmd;
mod gate_run;
mod generate_cmd;
mod library_cmds;
mod probe_cmd;
mod queue_cmd;
mod queue_run;
mod report_cmd;
mod sandbox_cmd;
mod scan_cmd;
mod stats_cmd;
mod tasks_cmd;

use clap::{Parser, Subcommand};
use skillscope_api::{workspace, AppError};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "skillscope", version, about = "Does this skill help this agent, at what cost, and is it safe?")]
struct Cli {
    /// Workspace directory (default: $SKILLSCOPE_HOME, else the XDG data directory).
    #[arg(long, global = true)]
    home: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Import skills from a folder, a .zip/.skill archive, or a git repository (URL or path).
    Import {
        source: String,
        /// Branch, tag or commit (git sources; a local folder with --ref is read through git).
        #[arg(long = "ref")]
        git_ref: Option<String>,
        /// Folder inside the source to import from.
        #[arg(long)]
        subpath: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// CI gate: each skill of a folder, archive or git URL (or a library skill) judged against a
    /// policy: quality, static security, probes, evaluations and the reviewer's decision, counting
    /// only evidence on the exact same content. Writes gate.junit.xml, gate.sarif, gate.json and
    /// gate.md into --out. Exit 0 pass, 1 policy failed, 2 could not run.
    Gate {
        target: String,
        /// A TOML policy; it changes only what it names (the default is in docs/gate.md).
        #[arg(long)]
        policy: Option<PathBuf>,
        /// Folder for the result files.
        #[arg(long, default_value = "skillscope-gate")]
        out: PathBuf,
    },
    /// List the library.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Show one skill (by id, or by name when the name is unique).
    Show {
        skill: String,
        /// Version number (default: latest).
        #[arg(long)]
        version: Option<u32>,
        #[arg(long)]
        json: bool,
    },
    /// Show what changed between two versions of a skill.
    Diff {
        skill: String,
        from: u32,
        to: u32,
        #[arg(long)]
        json: bool,
    },
    /// Static review (quality score and security scan) of a path or a library skill.
    /// A path holding many skills scans each; nothing is imported.
    Scan {
        /// A folder, archive or git URL, or the id or name of a library skill.
        target: String,
        #[arg(long, value_enum, default_value = "md")]
        format: scan_cmd::Format,
        /// Exit 1 when any skill's quality or security score is below N.
        #[arg(long, value_name = "N")]
        fail_under: Option<f64>,
        /// Have a model of this provider review each skill against the taxonomy too (the
        /// semantic pass); needs --review-model.
        #[arg(long, value_name = "PROVIDER", requires = "review_model")]
        review_with: Option<String>,
        /// The model that reviews (with --review-with).
        #[arg(long, value_name = "MODEL", requires = "review_with")]
        review_model: Option<String>,
    },
    /// The persistent run queue.
    Queue {
        #[command(subcommand)]
        cmd: queue_cmd::QueueCmd,
    },
    /// Run one command in a fresh, isolated container and print its output and exit code.
    Sandbox {
        #[command(subcommand)]
        cmd: sandbox_cmd::SandboxCmd,
    },
    /// Which container engine answers (as the docker CLI finds it, then the rootless Docker and
    /// Podman sockets), or why none does and the fix; exits 1 when none answers.
    Engine {
        #[arg(long)]
        json: bool,
    },
    /// Local base images (no registry needed).
    Image {
        #[command(subcommand)]
        cmd: sandbox_cmd::ImageCmd,
    },
    /// ATIF trajectories: validate or import files.
    Trajectory {
        #[command(subcommand)]
        cmd: agent_cmds::TrajectoryCmd,
    },
    /// Statistics of paired results: `skill,config,task,without,with` CSV (pass ratios in [0, 1]).
    Stats {
        #[arg(long)]
        pairs: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Evaluate a skill: each task without and with it, through the queue, then the statistics.
    Eval {
        /// Library skill (name or id).
        #[arg(long)]
        skill: String,
        /// Harbor task folder(s), a skill folder / evals.json, or a SWE-Skills-Bench checkout:
        /// stored as a task set first (as `skillscope tasks import` does).
        #[arg(long, required_unless_present = "task_set", conflicts_with = "task_set")]
        tasks: Option<PathBuf>,
        /// A stored task set (`skillscope tasks list`).
        #[arg(long)]
        task_set: Option<i64>,
        /// Agent configuration (name or id).
        #[arg(long)]
        config: String,
        #[arg(long, default_value_t = 1)]
        repeats: u32,
        #[arg(long, value_enum, default_value = "isolated")]
        condition: eval_cmd::Cond,
        /// Decoy skills present in both arms (group condition).
        #[arg(long = "decoy")]
        decoys: Vec<String>,
        /// A skill folder the task's image or workspace carries that is part of the task (the full
        /// path the pairs' exclusion names); recorded with the experiment. Repeatable.
        #[arg(long = "accept-skill-path")]
        accept_skill_paths: Vec<String>,
        /// An agent configuration whose provider and model grade the tasks that need a judge
        /// (evals.json expectations); without it those tasks are left out.
        #[arg(long)]
        judge: Option<String>,
        /// The judge's prompt version: v1 (verdict with a quote) or v2 (evidence first, tool
        /// results over the agent's claims; comparisons reasoned before their verdict).
        #[arg(long, default_value = "v1", value_parser = eval_cmd::prompt_set, requires = "judge")]
        judge_prompts: skillscope_api::judge::PromptSet,
        #[arg(long)]
        json: bool,
    },
    /// Security probes: the skill run by an agent in the sandbox with canaries planted, each probe
    /// once with the skill and once without; exit 1 when any probe is confirmed.
    Probe {
        /// Library skill (name or id).
        skill: String,
        /// Agent configuration (name or id).
        #[arg(long)]
        config: String,
        /// The image the agent works in.
        #[arg(long, default_value = "skillscope/busybox:1")]
        image: String,
        #[arg(long)]
        json: bool,
    },
    /// A skill's deployment report (utility, efficiency, safety, quality, evidence, decision).
    Report {
        skill: String,
        /// The version to report on (its number); default the latest.
        #[arg(long)]
        version: Option<u32>,
        #[arg(long, value_enum, default_value = "html")]
        format: report_cmd::Format,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Write an experiment's charts (SVG, or PNG for documents) into a folder.
    Charts {
        experiment: i64,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, value_enum, default_value = "svg")]
        format: report_cmd::ChartFormat,
    },
    /// Record a reviewer's decision on the latest version of a skill (append-only).
    Decide {
        skill: String,
        #[arg(long, value_enum)]
        verdict: report_cmd::VerdictArg,
        #[arg(long)]
        rationale: String,
        #[arg(long)]
        reviewer: String,
    },
    /// One trial's evidence.
    Trial {
        #[command(subcommand)]
        cmd: agent_cmds::TrialCmd,
    },
    /// Model API keys in the OS keyring.
    Credential {
        #[command(subcommand)]
        cmd: agent_cmds::CredentialCmd,
    },
    /// Model providers (OpenAI-compatible, Responses, Anthropic).
    Provider {
        #[command(subcommand)]
        cmd: agent_cmds::ProviderCmd,
    },
    /// Agent configurations: a harness (built-in, Claude Code, Codex, OpenCode or Gemini CLI), a provider and a model.
    Agent {
        #[command(subcommand)]
        cmd: agent_cmds::AgentCmd,
    },
    /// Coding-agent harnesses run inside trial containers (Claude Code, Codex, OpenCode, Gemini CLI).
    Harness {
        #[command(subcommand)]
        cmd: agent_cmds::HarnessCmd,
    },
    /// Import the sample skills shipped with Skillscope.
    Samples {
        #[arg(long)]
        json: bool,
    },
    /// Task sets stored in the workspace: import them once, run them in many experiments.
    Tasks {
        #[command(subcommand)]
        cmd: tasks_cmd::TasksCmd,
    },
    /// Draft tasks from a skill with a model: requirement documents with pytest verifiers and
    /// reference solutions, scenarios, or eval prompts, optionally set in a repository at a
    /// commit (its environment is built first). Stored as a task set of drafts, each with its
    /// guards (leakage; sanity checks of sandbox verifiers, run before this returns); a draft runs
    /// only once approved (`tasks approve`).
    Generate {
        /// The skill (name or id); its latest version.
        skill: String,
        #[arg(long, value_enum, default_value = "evals")]
        kind: generate_cmd::Kind,
        /// How many (default: 10 requirement documents, 3 scenarios or evals).
        #[arg(long)]
        count: Option<u32>,
        /// A local folder or Git URL the tasks are set in.
        #[arg(long)]
        repo: Option<String>,
        /// The repository's commit (default: HEAD).
        #[arg(long, requires = "repo")]
        commit: Option<String>,
        /// The agent configuration whose provider and model write the drafts.
        #[arg(long)]
        config: String,
        #[arg(long)]
        json: bool,
    },
    /// Experiments: bundles to move them between workspaces, and their pairs.
    Experiment {
        #[command(subcommand)]
        cmd: experiment_cmd::ExperimentCmd,
    },
    /// The demo experiment embedded in the app.
    Demo {
        #[command(subcommand)]
        cmd: demo_cmd::DemoCmd,
    },
}

/// The async runtime for commands that talk to Docker or a model server.
fn runtime() -> Result<tokio::runtime::Runtime, AppError> {
    tokio::runtime::Runtime::new()
        .map_err(|e| AppError::new(skillscope_api::ErrorCode::Internal, format!("tokio runtime: {e}")))
}

/// A job's progress as lines on stderr (its final state is the command's own output).
fn progress_lines(ev: &skillscope_api::jobs::JobEvent) {
    if !ev.state.is_finished() {
        eprintln!("{}", ev.message);
    }
}

/// Ok(false): the command ran but a gate failed (exit 1); errors exit 2.
fn run(cli: Cli) -> Result<bool, AppError> {
    // The demo runs in a workspace of its own: the user's is not even opened.
    if let Command::Demo { cmd } = cli.command {
        return demo_cmd::run(cmd);
    }
    let home = match cli.home {
        Some(h) => h,
        None => workspace::default_home()?,
    };
    let mut ws = skillscope_api::open(home)?;
    let done = |r: Result<(), AppError>| r.map(|()| true);
    match cli.command {
        Command::Scan { target, format, fail_under, review_with, review_model } => {
            let reviewer = review_with.zip(review_model);
            scan_cmd::run(&ws, &target, format, fail_under, reviewer.as_ref())
        }
        Command::Gate { target, policy, out } => gate_cmd::run(&ws, &target, policy, &out),
        Command::Queue { cmd } => queue_cmd::run(&mut ws, cmd),
        Command::Trajectory { cmd } => agent_cmds::trajectory(&ws, cmd),
        Command::Credential { cmd } => agent_cmds::credential(&ws, cmd),
        Command::Trial { cmd } => agent_cmds::trial(&ws, cmd),
        Command::Stats { pairs, json } => stats_cmd::run(&pairs, json),
        Command::Report { skill, version, format, out } => report_cmd::report(&ws, &skill, version, format, out),
        Command::Charts { experiment, out, format } => report_cmd::charts(&ws, experiment, &out, format),
        Command::Decide { skill, verdict, rationale, reviewer } => {
            report_cmd::decide(&ws, &skill, verdict, rationale, reviewer)
        }
        Command::Eval {
            skill,
            tasks,
            task_set,
            config,
            repeats,
            condition,
            decoys,
            accept_skill_paths,
            judge,
            judge_prompts,
            json,
        } => {
            let tasks = match (tasks, task_set) {
                (_, Some(id)) => eval_cmd::Tasks::Stored(id),
                (Some(path), None) => eval_cmd::Tasks::Import(path),
                (None, None) => unreachable!("clap requires one"),
            };
            let args = eval_cmd::EvalArgs {
                skill,
                tasks,
                config,
                repeats,
                condition,
                decoys,
                accept_skill_paths,
                judge,
                judge_prompts,
                json,
            };
            eval_cmd::run(&ws, args)
        }
        Command::Probe { skill, config, image, json } => {
            probe_cmd::run(&ws, probe_cmd::ProbeArgs { skill, config, image, json })
        }
        Command::Provider { cmd } => agent_cmds::provider(&ws, cmd),
        Command::Agent { cmd } => agent_cmds::agent(&ws, cmd),
        Command::Harness { cmd } => agent_cmds::harness(&ws, cmd),
        Command::Sandbox { cmd } => sandbox_cmd::sandbox(cmd),
        Command::Image { cmd } => sandbox_cmd::image(&ws, cmd),
        Command::Engine { json } => engine_cmd::run(json),
        Command::Import { source, git_ref, subpath, json } => {
            done(library_cmds::import(&ws, skillscope_api::model::ImportRequest { source, git_ref, subpath }, json))
        }
        Command::List { json } => done(library_cmds::list(&ws, json)),
        Command::Show { skill, version, json } => done(library_cmds::show(&ws, &skill, version, json)),
        Command::Diff { skill, from, to, json } => done(library_cmds::diff(&ws, &skill, from, to, json)),
        Command::Samples { json } => done(library_cmds::samples(&ws, json)),
        Command::Tasks { cmd } => done(tasks_cmd::run(&ws, cmd)),
        Command::Generate { skill, kind, count, repo, commit, config, json } => {
            done(generate_cmd::run(&ws, generate_cmd::Args { skill, kind, count, repo, commit, config, json }))
        }
        Command::Experiment { cmd } => done(experiment_cmd::run(&ws, cmd)),
        Command::Demo { .. } => unreachable!("handled before the workspace opens"),
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            let code = serde_json::to_value(e.code).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
            eprintln!("skillscope: {code}: {}", e.message.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}
