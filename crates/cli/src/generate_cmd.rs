//! `skillscope generate`: a model drafts tasks of one kind from a skill version, optionally set in
//! a repository at a commit (whose environment is built first); they are stored as a task set of
//! drafts, each with its guards: leakage, and for verifiers that run in the sandbox the sanity
//! checks, which run here before the drafts are printed. Drafts run only once
//! `skillscope tasks approve` says so.

use clap::ValueEnum;
use skillscope_api::experiments::drafts::{self, DraftRequest, GeneratedTasks, Writer};
use skillscope_api::experiments::sanity::{self, SanityState, VerifierSanity};
use skillscope_api::generate::DraftKind;
use skillscope_api::{library, AppError, Workspace};
use std::collections::HashMap;

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Kind {
    /// SWE-Skills-Bench requirement documents, each with a pytest verifier and a reference solution.
    Requirements,
    /// SkillAudit scenarios aimed at the gaps of the agent without the skill, graded by a judge.
    Scenarios,
    /// skill-creator eval prompts with expectations, graded by a judge.
    Evals,
}

impl From<Kind> for DraftKind {
    fn from(k: Kind) -> Self {
        match k {
            Kind::Requirements => DraftKind::Requirements,
            Kind::Scenarios => DraftKind::Scenarios,
            Kind::Evals => DraftKind::Evals,
        }
    }
}

pub(crate) struct Args {
    pub skill: String,
    pub kind: Kind,
    pub count: Option<u32>,
    pub repo: Option<String>,
    pub commit: Option<String>,
    pub config: String,
    pub json: bool,
}

pub(crate) fn run(ws: &Workspace, a: Args) -> Result<(), AppError> {
    let skill = library::resolve(ws, &a.skill)?;
    let kind = DraftKind::from(a.kind);
    let (provider, model) = crate::eval_cmd::provider_and_model(ws, &a.config)?;
    let request = DraftRequest {
        version_id: skill.version_id,
        writer: Writer { provider, model },
        draft_kind: kind,
        count: a.count.unwrap_or(kind.default_count()),
        repository: a.repo,
        commit: a.commit,
    };
    let rt = crate::runtime()?;
    let g = rt.block_on(drafts::generate(ws, &request))?;
    if let Some(run) = g.sanity_run {
        eprintln!("checking the drafts' verifiers in the sandbox (queue run #{run})");
        crate::queue_run::drain(ws, &rt, run)?;
    }
    let checks = sanity::of_set(ws, g.import.task_set.id)?;
    if a.json {
        let mut v = serde_json::to_value(&g)?;
        for d in v["drafts"].as_array_mut().into_iter().flatten() {
            let id = d["task"]["id"].as_str().unwrap_or_default().to_string();
            d["verifier_sanity"] = serde_json::to_value(checks.get(&id))?;
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    print(&g, &checks);
    Ok(())
}

fn print(g: &GeneratedTasks, checks: &HashMap<String, VerifierSanity>) {
    let s = &g.import.task_set;
    println!(
        "{} {} draft(s) by {} · {} (reported {}), prompt {} (sha256 {}), stored as task set #{} ({} v{})",
        g.drafts.len(),
        g.draft_kind.as_str(),
        g.writer.provider,
        g.writer.model,
        g.model_reported.as_deref().unwrap_or("nothing"),
        g.prompt_version,
        &g.prompt_sha256[..12],
        s.id,
        s.name,
        s.version
    );
    if let Some(e) = &g.environment {
        let commit = e.origin.commit.as_deref().map(|c| format!(" at {}", &c[..c.len().min(12)])).unwrap_or_default();
        let how = if e.reused { "reused the image built before" } else { "built" };
        println!(
            "environment: {}{commit} ({} files), {:?} on {}: {how} {} in {:.1} s; {}",
            e.origin.source,
            e.origin.files,
            e.language,
            e.base_image,
            &e.image_id[..e.image_id.len().min(19)],
            e.seconds,
            e.notes.join("; ")
        );
    }
    for d in &g.drafts {
        let l = &d.leakage;
        let verdict = if l.flagged { "FLAGGED" } else { "ok" };
        println!(
            "\n{}  leakage {verdict}: {:.0}% shared, longest run {} words",
            d.task.id,
            l.shared_share * 100.0,
            l.longest_span_words
        );
        println!("  {}", d.task.name);
        println!("  verifier: {}", d.task.verifier.label());
        for span in &l.spans {
            println!("  copied from SKILL.md: \"{}\"", span.text);
        }
        if let Some(c) = checks.get(&d.task.id) {
            let state = match c.state {
                SanityState::Passed => "ok",
                SanityState::Flagged => "FLAGGED",
                SanityState::Pending => "pending",
            };
            let show = |v: &[Option<f64>]| {
                v.iter().map(|s| s.map_or("-".into(), |s| format!("{s:.2}"))).collect::<Vec<_>>().join(", ")
            };
            println!(
                "  verifier sanity {state}: untouched [{}], reference [{}]",
                show(&c.untouched),
                show(&c.reference)
            );
            for p in &c.problems {
                println!("  - {p}");
            }
        }
    }
    println!("\nDrafts run only once approved: skillscope tasks approve <task-id> --reviewer NAME");
}
