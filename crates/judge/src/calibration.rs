//! How far a judge's verdicts can be trusted, from two checks: the same arms graded again
//! (repeatability: do the verdicts stay the same?) and arms a deterministic verifier scored also
//! graded by the judge (agreement: does its pass match the verifier's?).

use crate::grading::Graded;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// An arm passes at or above this score, for the judge and the verifier alike.
pub const PASS_AT: f64 = 0.5;

/// Repeatability over arms each graded several times with the same judge and prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Repeatability {
    pub arms: u32,
    /// Gradings per arm, the stored one included.
    pub gradings: u32,
    /// Expectations over all arms, and those given the same verdict in every grading.
    pub expectations: u32,
    pub unanimous: u32,
    /// unanimous / expectations; None without expectations.
    pub unanimous_rate: Option<f64>,
    /// Mean over arms of the standard deviation of the arm's score across its gradings.
    pub mean_score_sd: Option<f64>,
    /// The largest difference between two gradings of one arm's score.
    pub max_score_range: Option<f64>,
    /// Gradings that were NO SCORE (left out of the above).
    pub no_score: u32,
}

/// Each arm's usable gradings (stored one first); an arm is left out when fewer than two are usable.
pub fn repeatability(arms: &[Vec<Option<Graded>>]) -> Repeatability {
    let no_score = arms.iter().flatten().filter(|g| g.is_none()).count() as u32;
    let usable: Vec<Vec<&Graded>> =
        arms.iter().map(|a| a.iter().flatten().collect::<Vec<_>>()).filter(|a| a.len() >= 2).collect();
    let (mut expectations, mut unanimous, mut sds, mut range) = (0u32, 0u32, Vec::new(), None::<f64>);
    for gradings in &usable {
        let n = gradings[0].expectations.len();
        for i in 0..n {
            expectations += 1;
            let first = gradings[0].expectations[i].passed;
            unanimous += u32::from(gradings.iter().all(|g| g.expectations.get(i).map(|e| e.passed) == Some(first)));
        }
        let scores: Vec<f64> = gradings.iter().map(|g| g.score).collect();
        let mean = scores.iter().sum::<f64>() / scores.len() as f64;
        sds.push((scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (scores.len() - 1) as f64).sqrt());
        let spread = scores.iter().cloned().fold(f64::MIN, f64::max) - scores.iter().cloned().fold(f64::MAX, f64::min);
        range = Some(range.map_or(spread, |r| r.max(spread)));
    }
    Repeatability {
        arms: usable.len() as u32,
        gradings: arms.iter().map(|a| a.len() as u32).max().unwrap_or(0),
        expectations,
        unanimous,
        unanimous_rate: (expectations > 0).then(|| f64::from(unanimous) / f64::from(expectations)),
        mean_score_sd: (!sds.is_empty()).then(|| sds.iter().sum::<f64>() / sds.len() as f64),
        max_score_range: range,
        no_score,
    }
}

/// The judge against deterministic verifiers on the same arms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VerifierAgreement {
    /// Arms both scored: by the verifier, and by the judge (not NO SCORE).
    pub arms: u32,
    pub agree: u32,
    /// The judge passed what the verifier failed, and the other way round.
    pub judge_only_pass: u32,
    pub verifier_only_pass: u32,
    /// agree / arms with its 95% Wilson score interval; None without arms.
    pub rate: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Cohen's kappa (agreement beyond chance); None when chance agreement is 1 (one class only).
    pub kappa: Option<f64>,
    pub no_score: u32,
}

/// `pairs` are (verifier score, the judge's score or None for NO SCORE) of the same arms.
pub fn verifier_agreement(pairs: &[(f64, Option<f64>)]) -> VerifierAgreement {
    let scored: Vec<(bool, bool)> = pairs.iter().filter_map(|(v, j)| Some((*v >= PASS_AT, (*j)? >= PASS_AT))).collect();
    let n = scored.len() as u32;
    let agree = scored.iter().filter(|(v, j)| v == j).count() as u32;
    let judge_only_pass = scored.iter().filter(|(v, j)| !v && *j).count() as u32;
    let verifier_only_pass = scored.iter().filter(|(v, j)| *v && !j).count() as u32;
    let kappa = (n > 0).then(|| {
        let nf = f64::from(n);
        let pv = scored.iter().filter(|(v, _)| *v).count() as f64 / nf;
        let pj = scored.iter().filter(|(_, j)| *j).count() as f64 / nf;
        let (po, pe) = (f64::from(agree) / nf, pv * pj + (1.0 - pv) * (1.0 - pj));
        (pe < 1.0).then(|| (po - pe) / (1.0 - pe))
    });
    let ci = skillscope_stats::proportion::wilson_95(agree, n);
    VerifierAgreement {
        arms: n,
        agree,
        judge_only_pass,
        verifier_only_pass,
        rate: (n > 0).then(|| f64::from(agree) / f64::from(n)),
        ci_low: ci.map(|c| c.0),
        ci_high: ci.map(|c| c.1),
        kappa: kappa.flatten(),
        no_score: (pairs.len() - scored.len()) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grading::GradedExpectation;

    fn graded(verdicts: &[bool]) -> Option<Graded> {
        let expectations: Vec<_> = verdicts
            .iter()
            .map(|&passed| GradedExpectation { text: "e".into(), passed, evidence: String::new(), refused: None })
            .collect();
        let score = verdicts.iter().filter(|p| **p).count() as f64 / verdicts.len() as f64;
        Some(Graded { expectations, score })
    }

    #[test]
    fn a_judge_that_changes_its_verdicts_is_seen() {
        let steady = vec![graded(&[true, false]), graded(&[true, false]), graded(&[true, false])];
        let r = repeatability(std::slice::from_ref(&steady));
        assert_eq!((r.unanimous, r.expectations, r.mean_score_sd, r.max_score_range), (2, 2, Some(0.0), Some(0.0)));
        // The second expectation flips in one grading of three: 0.5, 0.5, 1.0.
        let wavering = vec![graded(&[true, false]), graded(&[true, true]), graded(&[true, false])];
        let r = repeatability(&[steady, wavering, vec![graded(&[true]), None]]);
        assert_eq!((r.arms, r.expectations, r.unanimous, r.no_score), (2, 4, 3, 1));
        assert_eq!(r.max_score_range, Some(0.5));
        let sd = (2.0 * (0.5f64 - 2.0 / 3.0).powi(2) + (1.0f64 - 2.0 / 3.0).powi(2)).sqrt() / 2f64.sqrt();
        assert!((r.mean_score_sd.unwrap() - sd / 2.0).abs() < 1e-12);
    }

    #[test]
    fn agreement_with_verifiers_counts_each_disagreement_and_kappa() {
        // 3 agree, the judge passes one failure, one NO SCORE left out.
        let a =
            verifier_agreement(&[(1.0, Some(1.0)), (0.0, Some(0.0)), (0.0, Some(0.0)), (0.0, Some(1.0)), (1.0, None)]);
        assert_eq!((a.arms, a.agree, a.judge_only_pass, a.verifier_only_pass, a.no_score), (4, 3, 1, 0, 1));
        // po 0.75; pv 0.25, pj 0.5 → pe 0.5; kappa 0.5.
        assert!((a.kappa.unwrap() - 0.5).abs() < 1e-12);
        // 3/4 agree: Wilson's 95% interval.
        assert!((a.ci_low.unwrap() - 0.3006).abs() < 1e-3 && (a.ci_high.unwrap() - 0.9544).abs() < 1e-3, "{a:?}");
        // One class only: chance agreement is 1 and kappa is undefined.
        assert_eq!(verifier_agreement(&[(0.0, Some(0.0))]).kappa, None);
    }
}
