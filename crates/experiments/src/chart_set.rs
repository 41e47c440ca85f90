//! An experiment's charts, rendered by `skillscope_charts` from its results, pairs and measures.

use crate::design::{design, pairs, results};
use crate::error::Result;
use crate::measures::JUDGED_MEASURES;
use serde::{Deserialize, Serialize};
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

/// A chart of an experiment: its title and the SVG document the back end rendered (and escaped).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Chart {
    pub title: String,
    pub svg: String,
}

impl Chart {
    fn new(title: impl Into<String>, svg: String) -> Self {
        Self { title: title.into(), svg }
    }
}

/// The experiment's charts as titled SVG documents: skill deltas with CI, pass rates, PRG by
/// baseline stratum, requirement-level deltas per skill and configuration, and, with a judge, the
/// Skill Lift of each judged measure with the judge named.
pub fn charts(ws: &Workspace, experiment_id: i64) -> Result<Vec<Chart>> {
    let r = results(ws, experiment_id)?;
    let mut out = vec![
        Chart::new("Skill-level delta with 95% CI", skillscope_charts::skill_deltas(&r.report.skills)),
        Chart::new("Pass rate without vs with", skillscope_charts::pass_rates(&r.report.skills)),
        Chart::new("PRG by baseline stratum", skillscope_charts::prg_by_stratum(&r.report.skills)),
    ];
    let all = pairs(ws, experiment_id)?;
    for g in &r.report.groups {
        let deltas: Vec<skillscope_charts::TaskDelta> = all
            .iter()
            .filter(|p| p.skill == g.skill && p.config_label() == g.config)
            .map(|p| skillscope_charts::TaskDelta {
                task: p.task.clone(),
                delta: 100.0 * (p.with.score.unwrap_or(0.0) - p.without.score.unwrap_or(0.0)),
                excluded: !p.excluded.is_empty(),
            })
            .collect();
        out.push(Chart::new(
            format!("Requirement-level deltas: {} · {}", g.skill, g.config),
            skillscope_charts::task_deltas(&g.skill, &deltas),
        ));
        let costs: Vec<skillscope_charts::ArmCost> = all
            .iter()
            .filter(|p| p.skill == g.skill && p.config_label() == g.config && p.excluded.is_empty())
            .map(|p| skillscope_charts::ArmCost {
                task: p.task.clone(),
                time_without: p.without.agent_secs,
                time_with: p.with.agent_secs,
                tokens_without: p.without.effective_input_tokens,
                tokens_with: p.with.effective_input_tokens,
            })
            .collect();
        out.push(Chart::new(
            format!("Time and token deltas: {} · {}", g.skill, g.config),
            skillscope_charts::efficiency(&g.skill, &costs),
        ));
    }
    if let Some(judge) = design(ws, experiment_id)?.judge {
        let m = crate::measures::experiment_measures(ws, experiment_id)?;
        for r in m.metrics.iter().filter(|r| JUDGED_MEASURES.contains(&r.measure.as_str())) {
            out.push(Chart::new(
                format!("{} of {} with 95% CI, judged by {judge}", crate::measures::lift_name(&r.measure), r.measure,),
                skillscope_charts::skill_deltas(&r.report.skills),
            ));
        }
    }
    Ok(out)
}
