//! The judge's pairwise preferences summed up per skill and configuration: how often the with arm
//! was preferred where the judge preferred one (95% Wilson score interval), ties, and the
//! position-flip rate (the judge naming the same position in both orders) as its bias.

use crate::design::PairView;
use serde::{Deserialize, Serialize};
use skillscope_judge::preference::Preferred;
use std::collections::BTreeMap;
use ts_rs::TS;

/// How the rate and its interval are computed, said wherever they are shown.
pub const METHOD: &str = "preference rate = pairs where the judge preferred the with arm in both orders / pairs where it preferred either arm in both orders (ties left out); 95% Wilson score interval; position-flip rate = pairs where it named the same position (A or B) in both orders / pairs compared";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PreferenceSummary {
    pub skill: String,
    pub config: String,
    /// Scored pairs the judge compared (NO SCOREs left out and counted apart).
    pub compared: u32,
    pub with: u32,
    pub without: u32,
    pub ties: u32,
    pub position_flips: u32,
    pub no_score: u32,
    /// with / (with + without); None when the judge preferred neither arm anywhere.
    pub rate: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// position_flips / compared; None when nothing was compared.
    pub flip_rate: Option<f64>,
}

/// One summary per skill and configuration with a compared (or NO SCORE) scored pair.
pub fn summarise(pairs: &[PairView]) -> Vec<PreferenceSummary> {
    let mut groups: BTreeMap<(String, String), PreferenceSummary> = BTreeMap::new();
    for p in pairs.iter().filter(|p| p.excluded.is_empty()) {
        let Some(pref) = &p.preference else { continue };
        let s = groups.entry((p.skill.clone(), p.config_label())).or_insert_with(|| PreferenceSummary {
            skill: p.skill.clone(),
            config: p.config_label(),
            compared: 0,
            with: 0,
            without: 0,
            ties: 0,
            position_flips: 0,
            no_score: 0,
            rate: None,
            ci_low: None,
            ci_high: None,
            flip_rate: None,
        });
        let Some(c) = &pref.compared else {
            s.no_score += 1;
            continue;
        };
        s.compared += 1;
        s.position_flips += u32::from(c.position_flip);
        match c.preferred {
            Preferred::With => s.with += 1,
            Preferred::Without => s.without += 1,
            Preferred::Tie => s.ties += 1,
        }
    }
    groups
        .into_values()
        .map(|mut s| {
            let decided = s.with + s.without;
            s.rate = (decided > 0).then(|| f64::from(s.with) / f64::from(decided));
            (s.ci_low, s.ci_high) = skillscope_stats::proportion::wilson_95(s.with, decided).unzip();
            s.flip_rate = (s.compared > 0).then(|| f64::from(s.position_flips) / f64::from(s.compared));
            s
        })
        .collect()
}
