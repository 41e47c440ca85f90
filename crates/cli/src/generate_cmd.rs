//! `skillscope generate`: a model drafts tasks from a skill version; they are stored as a task set
//! of drafts (each with its leakage check) that run only once `skillscope tasks approve` says so.

use clap::ValueEnum;
use skillscope_api::experiments::drafts;
use skillscope_api::{library, AppError, Workspace};

/// What is drafted. Only skill-creator-style evals (prompts with expectations a judge grades)
/// are built; requirement documents and scenarios are not yet.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum DraftKind {
    Evals,
}

pub(crate) fn run(
    ws: &Workspace,
    skill: &str,
    _kind: DraftKind,
    count: u32,
    config: &str,
    json: bool,
) -> Result<(), AppError> {
    let skill = library::resolve(ws, skill)?;
    let writer = crate::eval_cmd::judge(ws, config)?;
    let rt = crate::runtime()?;
    let g = rt.block_on(drafts::generate(ws, skill.version_id, &writer, count))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&g)?);
        return Ok(());
    }
    let s = &g.import.task_set;
    println!(
        "{} draft(s) by {} · {} (reported {}), prompt {} (sha256 {}), stored as task set #{} ({} v{})",
        g.drafts.len(),
        g.writer.provider,
        g.writer.model,
        g.model_reported.as_deref().unwrap_or("nothing"),
        g.prompt_version,
        &g.prompt_sha256[..12],
        s.id,
        s.name,
        s.version
    );
    for d in &g.drafts {
        let l = &d.leakage;
        let verdict = if l.flagged { "FLAGGED" } else { "ok" };
        println!(
            "\n{}  leakage {verdict}: {:.0}% shared, longest run {} words",
            d.task.id,
            l.shared_share * 100.0,
            l.longest_span_words
        );
        println!("  {}", d.task.instruction);
        for span in &l.spans {
            println!("  copied from SKILL.md: \"{}\"", span.text);
        }
    }
    println!("\nDrafts run only once approved: skillscope tasks approve <task-id> --reviewer NAME");
    Ok(())
}
