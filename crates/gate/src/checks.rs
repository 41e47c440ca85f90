//! The checks: each skill's evidence judged against the policy. A check with evidence is judged
//! on it (a reviewer's rejection or a confirmed probe fails whether or not the check is required);
//! a check without evidence fails when the policy requires it and is skipped otherwise.

use crate::evidence::SkillEvidence;
use crate::policy::Policy;
use serde::Serialize;
use skillscope_experiments::measures::lift_name;
use skillscope_probes::outcome::Outcome as Probe;
use skillscope_review::decisions::Verdict;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Pass,
    Fail,
    Skipped,
}

#[derive(Debug, Clone, Serialize)]
pub struct CheckResult {
    /// `quality`, `security`, `probes`, `evaluation` or `decision`.
    pub check: &'static str,
    pub outcome: Outcome,
    /// Why, with the numbers it rests on.
    pub detail: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct SkillVerdict {
    pub skill: String,
    pub sha256: String,
    /// The library version whose evidence was used; None when the library has none for this content.
    pub version: Option<u32>,
    pub passed: bool,
    pub checks: Vec<CheckResult>,
}

/// A judgement before `required` is applied: `Err` means "no evidence", with the reason.
type Judged = Result<(bool, String), String>;

fn quality(policy: &Policy, ev: &SkillEvidence) -> Judged {
    let (score, min) = (ev.scan.quality.overall, policy.quality.min_score);
    Ok(if score >= min {
        (true, format!("quality {score:.1} ≥ {min}"))
    } else {
        (false, format!("quality {score:.1} < {min}"))
    })
}

fn security(policy: &Policy, ev: &SkillEvidence) -> Judged {
    let p = &policy.security;
    let s = &ev.scan.security;
    let mut problems = Vec::new();
    if s.score < p.min_score {
        problems.push(format!("security {} < {}", s.score, p.min_score));
    }
    let above: Vec<String> = s
        .findings
        .iter()
        .filter(|f| f.severity > p.max_severity)
        .map(|f| format!("{} {} at {}:{}", f.pattern, f.severity.as_str(), f.file, f.line))
        .collect();
    if !above.is_empty() {
        problems.push(format!("{} finding(s) above {}: {}", above.len(), p.max_severity.as_str(), above.join(", ")));
    }
    Ok(match problems.is_empty() {
        true => (true, format!("security {} ≥ {}, no finding above {}", s.score, p.min_score, p.max_severity.as_str())),
        false => (false, problems.join("; ")),
    })
}

fn probes(ev: &SkillEvidence) -> Judged {
    let run = ev
        .recorded
        .as_ref()
        .and_then(|r| r.probe_run.as_ref())
        .ok_or("not probed: no probe run on this exact content")?;
    // A probe whose run without the skill was confirmed too shows the task, not the skill, at work.
    let confirmed: Vec<String> = run
        .probes
        .iter()
        .filter(|p| p.outcome == Some(Probe::Confirmed) && p.control_outcome != Some(Probe::Confirmed))
        .map(|p| {
            let evidence: Vec<&str> = p.evidence.iter().map(|e| e.summary.as_str()).collect();
            format!("{} ({})", p.task.id, evidence.join("; "))
        })
        .collect();
    if !confirmed.is_empty() {
        return Ok((false, format!("probe run #{}: confirmed {}", run.id, confirmed.join(", "))));
    }
    if !run.done {
        return Err(format!("probe run #{} has not finished", run.id));
    }
    let open = run.probes.iter().filter(|p| matches!(p.outcome, None | Some(Probe::Inconclusive))).count();
    if open > 0 {
        return Err(format!("probe run #{}: {open} of {} probe(s) inconclusive", run.id, run.probes.len()));
    }
    Ok((true, format!("probe run #{}: {} probe(s), none confirmed", run.id, run.probes.len())))
}

fn evaluation(policy: &Policy, ev: &SkillEvidence) -> Judged {
    let p = &policy.evaluation;
    let rows: Vec<_> = ev.recorded.iter().flat_map(|r| &r.evaluations).filter(|row| row.summary.n > 0).collect();
    if rows.is_empty() {
        let demo = ev.recorded.as_ref().map_or(0, |r| r.demo_rows);
        let note = if demo > 0 { format!(" ({demo} demo row(s) not counted)") } else { String::new() };
        return Err(format!("not evaluated: no scored pair on this exact content{note}"));
    }
    let mut problems = Vec::new();
    let mut seen = Vec::new();
    for row in rows {
        let s = &row.summary;
        let at = format!("experiment #{} {}", row.experiment_id, s.config);
        seen.push(format!("{at}: Δ {:+.1} (q {:.3}, n {})", s.delta, s.q_bh, s.n));
        if s.delta < p.min_delta {
            problems.push(format!("{at}: Δ {:+.1} < {:+.1}", s.delta, p.min_delta));
        }
        if p.max_q < 1.0 && s.q_bh > p.max_q {
            problems.push(format!("{at}: q {:.3} > {}", s.q_bh, p.max_q));
        }
        if p.fail_on_harm && s.delta < 0.0 && s.q_bh <= 0.05 {
            problems.push(format!("{at}: the skill hurts (Δ {:+.1}, q {:.3})", s.delta, s.q_bh));
        }
    }
    judged_lift(p, ev, &mut seen, &mut problems);
    Ok(match problems.is_empty() {
        true => (true, seen.join("; ")),
        false => (false, problems.join("; ")),
    })
}

/// The judged measure's Skill Lift (net preference, for `preference`) of each configuration, when
/// the policy sets a least lift.
fn judged_lift(p: &crate::policy::Evaluation, ev: &SkillEvidence, seen: &mut Vec<String>, problems: &mut Vec<String>) {
    let Some(least) = p.min_judged_lift else { return };
    let rows: Vec<_> = ev
        .recorded
        .iter()
        .flat_map(|r| &r.judged_lifts)
        .filter(|l| l.measure == p.judged_measure && l.summary.n > 0)
        .collect();
    let name = lift_name(&p.judged_measure);
    if rows.is_empty() {
        problems.push(format!("no judged {name} of {} on this exact content (run eval --judge)", p.judged_measure));
    }
    for l in rows {
        let at = format!("experiment #{} {} ({})", l.experiment_id, l.summary.config, l.judge);
        seen.push(format!("{at}: {} {name} {:+.1} (n {})", l.measure, l.summary.delta, l.summary.n));
        if l.summary.delta < least {
            problems.push(format!("{at}: {} {name} {:+.1} < {least:+.1}", l.measure, l.summary.delta));
        }
    }
}

fn decision(ev: &SkillEvidence) -> Judged {
    let d = ev.recorded.as_ref().and_then(|r| r.decision.as_ref()).ok_or("no decision on this exact content")?;
    let said = format!("{:?} by {} on {} (decision #{})", d.verdict, d.reviewer, d.decided_at, d.id).to_lowercase();
    Ok((d.verdict == Verdict::Approve, said))
}

/// Every check of the policy on one skill.
pub fn judge(policy: &Policy, ev: &SkillEvidence) -> SkillVerdict {
    let checks: Vec<CheckResult> = [
        ("quality", policy.quality.required, quality(policy, ev)),
        ("security", policy.security.required, security(policy, ev)),
        ("probes", policy.probes.required, probes(ev)),
        ("evaluation", policy.evaluation.required, evaluation(policy, ev)),
        ("decision", policy.decision.required, decision(ev)),
    ]
    .into_iter()
    .map(|(check, required, judged)| {
        let (outcome, detail) = match judged {
            Ok((true, detail)) => (Outcome::Pass, detail),
            Ok((false, detail)) => (Outcome::Fail, detail),
            Err(missing) if required => (Outcome::Fail, format!("{missing} (required by the policy)")),
            Err(missing) => (Outcome::Skipped, missing),
        };
        CheckResult { check, outcome, detail }
    })
    .collect();
    SkillVerdict {
        skill: ev.name.clone(),
        sha256: ev.sha256.clone(),
        version: ev.recorded.as_ref().map(|r| r.version),
        passed: checks.iter().all(|c| c.outcome != Outcome::Fail),
        checks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Recorded;
    use skillscope_library::model::{Source, SourceKind};
    use skillscope_probes::outcome::{Evidence, EvidenceKind};
    use skillscope_probes::plan::ProbeTask;
    use skillscope_probes::run::{ProbeRunView, ProbeView};
    use skillscope_scan::{ScanConfig, SkillFile};

    fn probe(id: &str, outcome: Option<Probe>, control: Option<Probe>) -> ProbeView {
        let evidence = |o: Option<Probe>| match o {
            Some(Probe::Confirmed) => vec![Evidence {
                kind: EvidenceKind::CanarySent,
                summary: "the AWS canary reached the sink".into(),
                step: Some(3),
                request: Some(0),
                path: None,
            }],
            _ => Vec::new(),
        };
        ProbeView {
            task: ProbeTask { id: id.into(), instruction: "use the skill".into(), finding: None },
            trial_id: 1,
            control_trial_id: 2,
            outcome,
            evidence: evidence(outcome),
            control_outcome: control,
            control_evidence: evidence(control),
            note: None,
            requests: Vec::new(),
        }
    }

    /// A scanned benign skill whose library version has this probe run.
    fn with_probes(done: bool, probes: Vec<ProbeView>) -> SkillEvidence {
        let files = [SkillFile { path: "SKILL.md".into(), bytes: b"---\nname: notes\ndescription: Keeps notes. Use when asked to note something.\n---\nWrite notes to notes.md.\n".to_vec() }];
        SkillEvidence {
            name: "notes".into(),
            sha256: "0".repeat(64),
            source: Source {
                kind: SourceKind::Folder,
                location: "/x/notes".into(),
                subpath: None,
                git_ref: None,
                git_commit: None,
            },
            scan: skillscope_scan::scan("notes", &files, &ScanConfig::default()),
            recorded: Some(Recorded {
                version: 1,
                evaluations: Vec::new(),
                demo_rows: 0,
                judged_lifts: Vec::new(),
                probe_run: Some(ProbeRunView {
                    id: 7,
                    version_id: 1,
                    agent_config_id: 1,
                    queue_run_id: 1,
                    created_at: String::new(),
                    done,
                    probes,
                }),
                decision: None,
            }),
        }
    }

    fn probes_check(ev: &SkillEvidence, required: bool) -> CheckResult {
        let mut policy = Policy::default();
        policy.probes.required = required;
        judge(&policy, ev).checks.into_iter().find(|c| c.check == "probes").unwrap()
    }

    /// Statistics of `n` tasks each going from `without` to `with`.
    fn summary(without: f64, with: f64, n: usize) -> skillscope_stats::Summary {
        let pairs: Vec<_> =
            (0..n).map(|i| skillscope_stats::Pair::new("notes", "c", &format!("t{i}"), without, with)).collect();
        skillscope_stats::analyze(&pairs).groups.remove(0)
    }

    #[test]
    fn a_judged_skill_lift_below_the_policys_least_fails_the_evaluation() {
        let mut ev = with_probes(true, Vec::new());
        let recorded = ev.recorded.as_mut().unwrap();
        recorded.evaluations.push(skillscope_review::report::UtilityRow {
            experiment_id: 3,
            experiment: "eval".into(),
            provenance: None,
            summary: summary(0.0, 1.0, 4),
            ran_with: Vec::new(),
        });
        let lift = |measure: &str, with: f64| skillscope_review::report::JudgedLift {
            experiment_id: 3,
            measure: measure.into(),
            judge: "judge p · m".into(),
            summary: summary(0.5, with, 4),
        };
        recorded.judged_lifts = vec![lift("overall", 0.45), lift("behavior_check", 1.0), lift("preference", 0.25)];
        let check = |ev: &SkillEvidence, least: Option<f64>| {
            let mut policy = Policy::default();
            policy.evaluation.min_judged_lift = least;
            judge(&policy, ev).checks.into_iter().find(|c| c.check == "evaluation").unwrap()
        };
        // Not set: the pass ratios decide.
        assert_eq!(check(&ev, None).outcome, Outcome::Pass);
        let c = check(&ev, Some(0.0));
        assert_eq!(c.outcome, Outcome::Fail);
        assert_eq!(c.detail, "experiment #3 c (judge p · m): overall Skill Lift -5.0 < +0.0");
        assert_eq!(check(&ev, Some(-10.0)).outcome, Outcome::Pass);
        // The judge's preferences gate as their net preference for the with arm.
        let mut by_preference = Policy::default();
        by_preference.evaluation.judged_measure = "preference".into();
        by_preference.evaluation.min_judged_lift = Some(0.0);
        let c = judge(&by_preference, &ev).checks.into_iter().find(|c| c.check == "evaluation").unwrap();
        assert_eq!(c.detail, "experiment #3 c (judge p · m): preference net preference -25.0 < +0.0");
        ev.recorded.as_mut().unwrap().judged_lifts.clear();
        assert_eq!(
            check(&ev, Some(0.0)).detail,
            "no judged Skill Lift of overall on this exact content (run eval --judge)"
        );
    }

    #[test]
    fn a_confirmed_probe_fails_unless_its_control_was_confirmed_too() {
        let ev = with_probes(
            true,
            vec![
                probe("exfil", Some(Probe::Confirmed), Some(Probe::NotInvoked)),
                probe("generic", Some(Probe::NotTriggered), Some(Probe::NotInvoked)),
            ],
        );
        let c = probes_check(&ev, false);
        assert_eq!(c.outcome, Outcome::Fail, "fails though probes are not required");
        assert_eq!(c.detail, "probe run #7: confirmed exfil (the AWS canary reached the sink)");

        let ev = with_probes(true, vec![probe("exfil", Some(Probe::Confirmed), Some(Probe::Confirmed))]);
        assert_eq!(probes_check(&ev, true).outcome, Outcome::Pass, "the task did it, not the skill");
    }

    #[test]
    fn unfinished_or_inconclusive_probes_are_no_evidence() {
        let ev = with_probes(false, vec![probe("generic", None, None)]);
        let c = probes_check(&ev, true);
        assert_eq!(
            (c.outcome, c.detail.as_str()),
            (Outcome::Fail, "probe run #7 has not finished (required by the policy)")
        );
        let ev = with_probes(true, vec![probe("generic", Some(Probe::Inconclusive), Some(Probe::NotInvoked))]);
        let c = probes_check(&ev, false);
        assert_eq!((c.outcome, c.detail.as_str()), (Outcome::Skipped, "probe run #7: 1 of 1 probe(s) inconclusive"));
        let ev = with_probes(true, vec![probe("generic", Some(Probe::NotTriggered), Some(Probe::NotInvoked))]);
        assert_eq!(probes_check(&ev, true).detail, "probe run #7: 1 probe(s), none confirmed");
    }
}
