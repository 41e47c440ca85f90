//! What the gate knows about each skill of a target: its static review, and, when the library
//! holds exactly this content (same tree hash), the evidence recorded on that version. Evidence on
//! another version never counts.

use crate::error::{GateError, Result};
use skillscope_library::model::{ImportRequest, Source};
use skillscope_library::{self as library, scans};
use skillscope_probes::run::ProbeRunView;
use skillscope_review::decisions::Decision;
use skillscope_review::report::{self, JudgedLift, UtilityRow};
use skillscope_scan::ScanReport;
use skillscope_store::workspace::Workspace;
use std::path::Path;

pub struct SkillEvidence {
    pub name: String,
    /// The content's tree hash, as the library computes it.
    pub sha256: String,
    pub source: Source,
    pub scan: ScanReport,
    /// Evidence on the library version with this exact content; None when the library has none.
    pub recorded: Option<Recorded>,
}

pub struct Recorded {
    pub version: u32,
    /// One row per skill and configuration of each experiment that ran this version; the demo's
    /// synthetic experiments are left out.
    pub evaluations: Vec<UtilityRow>,
    /// How many rows were left out because they are demo data.
    pub demo_rows: usize,
    /// The judged measures' Skill Lift rows of experiments with a judge on this version.
    pub judged_lifts: Vec<JudgedLift>,
    /// The latest probe run of this version.
    pub probe_run: Option<ProbeRunView>,
    /// The latest decision on this version.
    pub decision: Option<Decision>,
}

fn recorded(ws: &Workspace, skill_id: i64, version_id: i64, version: u32) -> Result<Recorded> {
    let report = report::build(ws, skill_id, Some(version))?;
    let probe_run = skillscope_probes::run::runs_of(ws, version_id)?.into_iter().next();
    // `decisions::list` is newest first.
    let decision = report.decisions.into_iter().find(|d| d.version_id == version_id);
    let (demo, evaluations): (Vec<UtilityRow>, Vec<UtilityRow>) =
        report.utility.into_iter().partition(|row| row.provenance.as_ref().is_some_and(|p| p.is_demo()));
    let judged_lifts = report.judged_lifts;
    Ok(Recorded { version, evaluations, demo_rows: demo.len(), judged_lifts, probe_run, decision })
}

/// The skills of `target`: a folder, archive or git URL (every skill in it, read in place and not
/// imported), or the id or name of a library skill (its latest version).
pub fn gather(ws: &Workspace, target: &str) -> Result<Vec<SkillEvidence>> {
    if !(Path::new(target).exists() || target.contains("://")) {
        let s = library::resolve(ws, target)?;
        return Ok(vec![SkillEvidence {
            name: s.name.clone(),
            sha256: s.sha256.clone(),
            scan: scans::report(ws, s.version_id)?,
            recorded: Some(recorded(ws, s.id, s.version_id, s.version)?),
            source: s.source,
        }]);
    }
    let scanned = scans::stage_and_scan(ws, &ImportRequest { source: target.into(), ..Default::default() })?;
    if scanned.is_empty() {
        return Err(GateError::NoSkill(format!("{target} holds no skill (no SKILL.md found)")));
    }
    scanned
        .into_iter()
        .map(|(s, scan)| {
            let recorded = match library::version_with_sha256(ws, &s.tree_sha256)? {
                Some((skill_id, version_id, version)) => Some(recorded(ws, skill_id, version_id, version)?),
                None => None,
            };
            Ok(SkillEvidence { name: s.name().to_string(), sha256: s.tree_sha256, source: s.source, scan, recorded })
        })
        .collect()
}
