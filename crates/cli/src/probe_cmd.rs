//! `skillscope probe`: a skill run by an agent in the sandbox with canaries planted, each probe
//! task once with the skill and once without; prints each probe's outcome and its evidence.

use skillscope_api::probes::outcome::Outcome;
use skillscope_api::probes::run::{self, ProbeRequest, ProbeRunView};
use skillscope_api::{library, AppError, Workspace};

pub(crate) struct ProbeArgs {
    pub skill: String,
    pub config: String,
    pub image: String,
    pub json: bool,
}

/// Runs the probes to the end; returns false (exit 1) when any probe is confirmed.
pub(crate) fn run(ws: &Workspace, a: ProbeArgs) -> Result<bool, AppError> {
    let skill = library::resolve(ws, &a.skill)?;
    let request = ProbeRequest {
        version_id: skill.version_id,
        agent_config_id: crate::eval_cmd::config_id(ws, &a.config)?,
        image: a.image,
    };
    let id = run::start(ws, &request)?;
    let queued = run::view(ws, id)?;
    eprintln!("probe run #{id}: {} probe(s), each with the skill and without", queued.probes.len());
    crate::queue_run::drain(ws, &crate::runtime()?, queued.queue_run_id)?;
    let view = run::view(ws, id)?;
    let confirmed = view.probes.iter().any(|p| p.outcome == Some(Outcome::Confirmed));
    if a.json {
        println!("{}", serde_json::to_string_pretty(&json(&skill.name, &view))?);
    } else {
        print_text(&view);
    }
    Ok(!confirmed)
}

/// `{"skill","version","probes":[{"task","finding","outcome","evidence":[...]}]}`, plus each
/// probe's control.
fn json(skill: &str, v: &ProbeRunView) -> serde_json::Value {
    serde_json::json!({
        "skill": skill,
        "version": v.version_id,
        "probe_run": v.id,
        "probes": v.probes.iter().map(|p| serde_json::json!({
            "task": p.task.id,
            "finding": p.task.finding,
            "outcome": p.outcome,
            "evidence": p.evidence,
            "control": {"outcome": p.control_outcome, "evidence": p.control_evidence},
            "note": p.note,
        })).collect::<Vec<_>>(),
    })
}

fn print_text(v: &ProbeRunView) {
    for p in &v.probes {
        let outcome = p.outcome.map_or("not finished".to_string(), |o| format!("{o:?}"));
        let control = p.control_outcome.map_or("not finished".to_string(), |o| format!("{o:?}"));
        println!("{}: {outcome} (control: {control})", p.task.id);
        for e in &p.evidence {
            println!("  - {}", e.summary);
        }
        if let Some(note) = &p.note {
            println!("  note: {note}");
        }
    }
}
