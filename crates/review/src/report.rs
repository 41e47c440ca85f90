//! The deployment report of one skill version (the latest unless asked): utility (paired deltas,
//! p, class, CI) from that version's pairs only, efficiency and cost, safety and quality (static
//! review of that version), the evidence it rests on, and the reviewer's decisions.
//! Exported as self-contained HTML (no scripts, no network), Markdown or JSON, with secrets and
//! local paths redacted.

use crate::decisions::{self, Decision, EvidenceLink};
use crate::error::{Result, ReviewError};
use serde::{Deserialize, Serialize};
use skillscope_experiments as experiments;
use skillscope_experiments::reviews::DraftVerdict;
use skillscope_experiments::Provenance;
use skillscope_library as library;
use skillscope_library::scans;
use skillscope_runs::queue::arm_snapshot::ArmSnapshot;
use skillscope_stats::proportion::Share;
use skillscope_stats::Summary;
use skillscope_store::now;
use skillscope_store::workspace::Workspace;
use skillscope_store::IoError;
use std::collections::BTreeMap;
use std::fmt::Write;
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ReportFormat {
    Html,
    Md,
    Json,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UtilityRow {
    pub experiment_id: i64,
    pub experiment: String,
    /// Where the experiment came from when it was imported; demo evidence is flagged as such.
    pub provenance: Option<Provenance>,
    pub summary: Summary,
    /// What the row's arms ran with, as their snapshots recorded it (harness, model asked for and
    /// reported, sampling, image), each distinct setting once; empty for attempts recorded before
    /// snapshots were kept.
    pub ran_with: Vec<String>,
}

/// One judged measure's Skill Lift for one configuration of an experiment on this version.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JudgedLift {
    pub experiment_id: i64,
    /// `behavior_check`, `goal_accuracy`, `accuracy` or `overall` (ACES's six-metric mean).
    pub measure: String,
    /// "judge provider · model, prompts v1".
    pub judge: String,
    pub summary: Summary,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SafetySection {
    pub score: u32,
    pub risky: bool,
    pub findings_by_severity: BTreeMap<String, u32>,
    pub findings: Vec<String>,
    /// Who reviewed the scan with a model, or why it was not reviewed; `None` when nobody asked.
    pub model_review: Option<String>,
    /// The latest probe run of this version, one line per probe; empty when none ran.
    pub probes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct QualitySection {
    pub overall: f64,
    pub grade: String,
    pub passed_gate: bool,
    pub dimensions: serde_json::Value,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SkillReport {
    pub generated_at: String,
    pub skill: String,
    pub version: u32,
    pub sha256: String,
    pub source: String,
    pub description: String,
    pub utility: Vec<UtilityRow>,
    /// Experiments that ran other versions of the skill: named, never pooled into this version.
    pub other_versions: Vec<String>,
    /// The judge's measures (each with its judge named), its preference, and activation accuracy
    /// of this version, one line each, then the methods; empty when no experiment had a judge or
    /// routing cases.
    pub judged: Vec<String>,
    /// The judged measures' Skill Lift rows behind those lines, for the gate.
    pub judged_lifts: Vec<JudgedLift>,
    pub safety: SafetySection,
    pub quality: QualitySection,
    pub decisions: Vec<Decision>,
    pub evidence: Vec<EvidenceLink>,
}

/// The report on `version` of the skill (its latest when None).
/// The latest probe run of a version, one line per probe: its outcome, the control's, and the evidence.
fn probe_lines(ws: &Workspace, version_id: i64) -> Result<Vec<String>> {
    let runs = skillscope_probes::run::runs_of(ws, version_id)?;
    let Some(run) = runs.first() else { return Ok(Vec::new()) };
    let label =
        |o: Option<skillscope_probes::outcome::Outcome>| o.map_or("not finished".to_string(), |o| format!("{o:?}"));
    Ok(run
        .probes
        .iter()
        .map(|p| {
            let evidence: Vec<&str> = p.evidence.iter().map(|e| e.summary.as_str()).collect();
            let mut line = format!(
                "probe run #{} · {}: {} (control: {})",
                run.id,
                p.task.id,
                label(p.outcome),
                label(p.control_outcome)
            );
            if !evidence.is_empty() {
                line.push_str(&format!(" — {}", evidence.join("; ")));
            }
            if let Some(note) = &p.note {
                line.push_str(&format!(" ({note})"));
            }
            line
        })
        .collect())
}

/// This version's judged measures, preference and activation in experiment `e` (its rows named
/// one of `labels`), one line each, and the methods they follow; empty when the experiment has
/// neither a judge nor routing cases (measuring reads every trajectory, so it is not done then).
fn judged_lines(
    ws: &Workspace,
    e: &experiments::ExperimentView,
    labels: &[String],
    lifts: &mut Vec<JudgedLift>,
) -> Result<Vec<String>> {
    let routing = e.design.tasks.iter().any(|t| t.routing().is_some());
    if e.design.judge.is_none() && !routing {
        return Ok(Vec::new());
    }
    let m = experiments::measures::experiment_measures(ws, e.id)?;
    let head = format!("experiment #{} {}", e.id, e.name);
    let judge = e.design.judge.as_ref().map(|j| format!("judge {j}")).unwrap_or_default();
    let mut out = Vec::new();
    for r in m.metrics.iter().filter(|r| experiments::measures::JUDGED_MEASURES.contains(&r.measure.as_str())) {
        for s in r.report.groups.iter().filter(|s| labels.contains(&s.skill)) {
            out.push(format!(
                "{head} · {} · {}: {:.1} → {:.1} points, {} {:+.1} [{:+.1}, {:+.1}], q {:.3}, n {} ({judge})",
                s.config,
                r.measure,
                s.mean_without,
                s.mean_with,
                experiments::measures::lift_name(&r.measure),
                s.delta,
                s.ci_low,
                s.ci_high,
                s.q_bh,
                s.n
            ));
            lifts.push(JudgedLift {
                experiment_id: e.id,
                measure: r.measure.clone(),
                judge: judge.clone(),
                summary: s.clone(),
            });
        }
    }
    for p in m.preference.iter().filter(|p| labels.contains(&p.skill)) {
        let with = Share::of(p.with, p.with + p.without);
        out.push(format!(
            "{head} · {} · preference for the with arm: {with} ({} ties, {} position flips in {} compared, {} NO SCORE; {judge})",
            p.config,
            p.ties,
            p.position_flips,
            p.compared,
            p.no_score
        ));
    }
    for a in m.activation.iter().filter(|a| labels.contains(&a.skill)) {
        out.push(format!(
            "{head} · {} · activation: accuracy {}, precision {}, recall {}, false activations {}",
            a.config, a.accuracy, a.precision, a.recall, a.false_activation_rate
        ));
    }
    if !out.is_empty() {
        out.push(format!("Method ({head}): {}. {}. {}.", m.judged_method, m.preference_method, m.activation_method));
    }
    Ok(out)
}

/// Who approved the generated drafts experiment `e` ran, and when; None when its tasks were not
/// generated.
fn approvals(ws: &Workspace, e: &experiments::ExperimentView) -> Result<Option<EvidenceLink>> {
    let Some(set) = e.design.task_set_id else { return Ok(None) };
    let detail = experiments::task_sets::get(ws, set)?;
    if detail.summary.source_kind != skillscope_tasks::TaskSourceKind::Generated {
        return Ok(None);
    }
    let ran: Vec<String> = detail
        .tasks
        .iter()
        .filter(|t| e.design.tasks.iter().any(|d| d.id == t.id))
        .filter_map(|t| t.review.as_ref())
        .map(|r| {
            let verdict = match r.verdict {
                DraftVerdict::Approved => "approved",
                DraftVerdict::Rejected => "rejected",
            };
            format!("{} {verdict} by {} at {}", r.task_id, r.reviewer, r.decided_at)
        })
        .collect();
    Ok(Some(EvidenceLink {
        kind: "task set".into(),
        id: set,
        label: format!(
            "generated drafts of task set #{set} ({}) that experiment #{} ran: {}",
            detail.summary.source_path,
            e.id,
            ran.join("; ")
        ),
    }))
}

pub fn build(ws: &Workspace, skill_id: i64, version: Option<u32>) -> Result<SkillReport> {
    let detail = library::get_skill(ws, skill_id)?;
    let s = &detail.summary;
    let chosen = match version {
        None => s.version_id,
        Some(n) => detail.versions.iter().find(|v| v.version == n).map(|v| v.id).ok_or_else(|| {
            ReviewError::NotFound(format!("{} has no version {n}; `skillscope show {}` lists them", s.name, s.name))
        })?,
    };
    let v = library::get_version(ws, chosen)?;
    let mut utility = Vec::new();
    let mut evidence = Vec::new();
    let mut other_versions = Vec::new();
    let mut judged = Vec::new();
    let mut judged_lifts = Vec::new();
    for e in experiments::list(ws)? {
        if !e.design.skill_version_ids.contains(&chosen) {
            let ran: Vec<String> = detail
                .versions
                .iter()
                .filter(|o| e.design.skill_version_ids.contains(&o.id))
                .map(|o| format!("v{}", o.version))
                .collect();
            if !ran.is_empty() {
                other_versions.push(format!("experiment #{} {} ran {}", e.id, e.name, ran.join(", ")));
            }
            continue;
        }
        let results = experiments::results_for_version(ws, e.id, chosen)?;
        let demo = if e.provenance.as_ref().is_some_and(Provenance::is_demo) { ", demo data" } else { "" };
        evidence.push(EvidenceLink {
            kind: "experiment".into(),
            id: e.id,
            label: format!("{} ({} scored pairs{demo})", e.name, results.pairs_scored),
        });
        if let Some(link) = approvals(ws, &e)? {
            evidence.push(link);
        }
        let pairs: Vec<_> =
            experiments::pairs(ws, e.id)?.into_iter().filter(|p| p.skill_version_id == chosen).collect();
        // This version's rows: named after the skill, or `name vN` when the experiment ran several.
        let labels = [s.name.clone(), format!("{} v{}", s.name, v.version)];
        judged.extend(judged_lines(ws, &e, &labels, &mut judged_lifts)?);
        for summary in
            results.report.skills.into_iter().chain(results.report.groups).filter(|x| labels.contains(&x.skill))
        {
            let mut ran_with: Vec<String> = pairs
                .iter()
                .filter(|p| p.config_label() == summary.config)
                .flat_map(|p| [&p.without, &p.with])
                .filter_map(|a| a.snapshot.as_ref().map(ran_with))
                .collect();
            ran_with.sort();
            ran_with.dedup();
            utility.push(UtilityRow {
                experiment_id: e.id,
                experiment: e.name.clone(),
                provenance: e.provenance.clone(),
                summary,
                ran_with,
            });
        }
    }
    let scan = scans::report(ws, chosen)?;
    evidence.push(EvidenceLink {
        kind: "scan".into(),
        id: chosen,
        label: format!("static review of version {}", v.version),
    });
    let mut by_sev = BTreeMap::new();
    for f in &scan.security.findings {
        *by_sev.entry(f.severity.as_str().to_string()).or_insert(0) += 1;
    }
    Ok(SkillReport {
        generated_at: now(),
        skill: s.name.clone(),
        version: v.version,
        sha256: v.sha256.clone(),
        source: scans::public_source(&v.source),
        description: v.frontmatter.description.clone().unwrap_or_default(),
        utility,
        other_versions,
        judged,
        judged_lifts,
        safety: SafetySection {
            model_review: scan.security.semantic_pass.as_ref().map(|p| p.summary()),
            probes: probe_lines(ws, chosen)?,
            score: scan.security.score,
            risky: scan.security.risky,
            findings_by_severity: by_sev,
            findings: scan
                .security
                .findings
                .iter()
                .map(|f| {
                    format!(
                        "{} {} ({}) {}:{} — {}",
                        f.severity.as_str().to_uppercase(),
                        f.pattern,
                        f.category,
                        f.file,
                        f.line,
                        f.message
                    )
                })
                .collect(),
        },
        quality: QualitySection {
            overall: scan.quality.overall,
            grade: scan.quality.grade.clone(),
            passed_gate: scan.quality.passed_gate,
            dimensions: serde_json::to_value(&scan.quality.dimensions)?,
        },
        decisions: decisions::list(ws, skill_id)?,
        evidence,
    })
}

/// The provenance sentences of the demo experiments the utility rests on, once each.
fn demo_notes(r: &SkillReport) -> Vec<&str> {
    let mut notes: Vec<&str> = r
        .utility
        .iter()
        .filter_map(|u| u.provenance.as_ref().filter(|p| p.is_demo()))
        .map(|p| p.sentence.as_str())
        .collect();
    notes.dedup();
    notes
}

/// The experiment as a utility row names it, marked when it is demo data.
/// One arm's effective configuration in a line.
fn ran_with(s: &ArmSnapshot) -> String {
    let temperature = s.limits.temperature.map_or("default".to_string(), |t| t.to_string());
    format!(
        "{:?} {} · model {} (reported: {}) · temperature {temperature} · image {}",
        s.harness,
        s.harness_version,
        s.model,
        if s.reported_models.is_empty() { "none".to_string() } else { s.reported_models.join(", ") },
        s.image_digest.chars().take(19).collect::<String>()
    )
}

fn experiment_label(u: &UtilityRow) -> String {
    let demo = if u.provenance.as_ref().is_some_and(Provenance::is_demo) { " (demo)" } else { "" };
    format!("#{} {}{demo}", u.experiment_id, u.experiment)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn class_of(s: &Summary) -> String {
    serde_json::to_value(s.class).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
}

/// The sign-flip p with how it was had: exact, or a certified grid bound (the true p lies between
/// `p − error` and `p`).
fn p_text(s: &Summary) -> String {
    if s.p_signflip_error > 0.0 {
        format!("{:.3} (grid: ≥ {:.3})", s.p_signflip, (s.p_signflip - s.p_signflip_error).max(0.0))
    } else {
        format!("{:.3} (exact)", s.p_signflip)
    }
}

/// The tasks of a row (its unit) and how many moved: "20 (3 non-tied)".
fn n_text(s: &Summary) -> String {
    format!("{} ({} non-tied)", s.n, s.n_nonzero)
}

/// The class, with the smallest reachable p (from the non-tied tasks) when it is not below 0.05:
/// always so for too_few_tasks.
fn class_text(s: &Summary) -> String {
    if s.min_p >= skillscope_stats::report::ALPHA {
        format!("{} (smallest reachable p {:.3})", class_of(s), s.min_p)
    } else {
        class_of(s)
    }
}

fn ci(s: &Summary) -> String {
    format!("[{:.1}, {:.1}]", s.ci_low, s.ci_high)
}

fn opt(v: Option<f64>) -> String {
    v.map_or("—".into(), |x| format!("{x:.2}"))
}

fn markdown(r: &SkillReport) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# Deployment report: {} v{}\n", r.skill, r.version);
    let _ = writeln!(
        o,
        "- SHA-256: `{}`\n- Source: {}\n- Generated: {}\n\n{}\n",
        r.sha256, r.source, r.generated_at, r.description
    );
    let _ = writeln!(o, "## Decision\n");
    match r.decisions.first() {
        Some(d) => {
            let _ = writeln!(
                o,
                "**{:?}** by {} at {} (version {}{}): {}\n",
                d.verdict,
                d.reviewer,
                d.decided_at,
                d.version,
                if d.version == r.version { "" } else { ", does NOT cover this version" },
                d.rationale
            );
        }
        None => o.push_str("No decision recorded yet.\n\n"),
    }
    let _ = writeln!(o, "## Utility (paired with/without deltas)\n");
    if r.utility.is_empty() {
        let _ = writeln!(o, "{}\n", not_evaluated(r));
    } else {
        for note in demo_notes(r) {
            let _ = writeln!(o, "> **Demo evidence.** {note}\n");
        }
        o.push_str("| experiment | config | n tasks | without → with | delta (pts) | 95% CI | p (sign-flip) | q (BH) | class | EG | CG | ECG |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for u in &r.utility {
            let s = &u.summary;
            let _ = writeln!(
                o,
                "| {} | {} | {} | {:.1} → {:.1} | {:+.1} | {} | {} | {:.3} | {} | {} | {} | {} |",
                experiment_label(u),
                s.config,
                n_text(s),
                s.mean_without,
                s.mean_with,
                s.delta,
                ci(s),
                p_text(s),
                s.q_bh,
                class_text(s),
                opt(s.eg),
                opt(s.cg),
                opt(s.ecg)
            );
        }
        o.push('\n');
        let ran: Vec<&UtilityRow> = r.utility.iter().filter(|u| !u.ran_with.is_empty()).collect();
        if !ran.is_empty() {
            o.push_str("What ran (each arm's recorded configuration):\n\n");
            for u in ran {
                for line in &u.ran_with {
                    let _ = writeln!(o, "- {} · {}: {line}", experiment_label(u), u.summary.config);
                }
            }
            o.push('\n');
        }
    }
    if !r.judged.is_empty() {
        let _ = writeln!(o, "## Judged measures and activation\n");
        for line in &r.judged {
            let _ = writeln!(o, "- {line}");
        }
        o.push('\n');
    }
    let _ = writeln!(
        o,
        "## Safety\n\nSecurity score **{}**/100{}.\n",
        r.safety.score,
        if r.safety.risky { " — **risky**" } else { "" }
    );
    for f in &r.safety.findings {
        let _ = writeln!(o, "- {f}");
    }
    if let Some(review) = &r.safety.model_review {
        let _ = writeln!(o, "\n{review}");
    }
    if r.safety.probes.is_empty() {
        let _ = writeln!(o, "\nNo security probes have run on this version.");
    } else {
        let _ = writeln!(o, "\nSecurity probes:\n");
        for p in &r.safety.probes {
            let _ = writeln!(o, "- {p}");
        }
    }
    let _ = writeln!(
        o,
        "\n## Quality\n\nOverall **{:.1}** (grade {}), gate {}.\n",
        r.quality.overall,
        r.quality.grade,
        if r.quality.passed_gate { "passed" } else { "failed" }
    );
    let _ = writeln!(o, "## Evidence\n");
    for e in &r.evidence {
        let _ = writeln!(o, "- {} #{}: {}", e.kind, e.id, e.label);
    }
    o
}

const CSS: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:32px auto;max-width:1000px;color:#1d2330}\
table{border-collapse:collapse;width:100%;margin:8px 0 16px}th,td{border-bottom:1px solid #dde1e8;padding:4px 8px;text-align:left}\
th{background:#f3f5f8}.golden{color:#1a7f37;font-weight:600}.harmful{color:#c62828;font-weight:600}.ineffective{color:#5b6270}\
.badge{display:inline-block;padding:2px 8px;border-radius:10px;background:#eef1f6}.risky{background:#fde7e7;color:#c62828}\
.demo{border-left:4px solid #b7791f;background:#fdf6e3;padding:6px 10px}.decision{border:1px solid #c9d2e3;border-radius:6px;padding:10px 14px;background:#f7f9fc}code{font-size:12px}";

fn html(r: &SkillReport, charts: &[(String, String)]) -> String {
    let mut o = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\"><title>{} — Skillscope report</title><style>{CSS}</style></head><body>",
        esc(&r.skill)
    );
    let _ = write!(
        o,
        "<h1>Deployment report: {} v{}</h1><p>{}</p><p><code>sha256 {}</code> · {} · generated {}</p>",
        esc(&r.skill),
        r.version,
        esc(&r.description),
        esc(&r.sha256),
        esc(&r.source),
        esc(&r.generated_at)
    );
    o.push_str("<h2>Decision</h2><div class=\"decision\" id=\"decision\">");
    match r.decisions.first() {
        Some(d) => {
            let _ = write!(
                o,
                "<strong>{}</strong> by {} at {} (version {}{})<p>{}</p>",
                esc(&format!("{:?}", d.verdict)),
                esc(&d.reviewer),
                esc(&d.decided_at),
                d.version,
                if d.version == r.version { "" } else { " — does not cover this version" },
                esc(&d.rationale)
            );
        }
        None => o.push_str("No decision recorded yet."),
    }
    o.push_str("</div><h2>Utility</h2>");
    for note in demo_notes(r) {
        let _ = write!(o, "<p class=\"demo\" id=\"demo-evidence\"><strong>Demo evidence.</strong> {}</p>", esc(note));
    }
    o.push_str(&heatmap(r));
    for (title, svg) in charts {
        let _ = write!(o, "<figure><figcaption>{}</figcaption>{svg}</figure>", esc(title));
    }
    if r.utility.is_empty() {
        let _ = write!(o, "<p id=\"not-evaluated\">{}</p>", esc(&not_evaluated(r)));
    } else {
        o.push_str("<table id=\"utility\"><tr><th>Experiment</th><th>Config</th><th>n tasks</th><th>Without → with</th><th>Delta (pts)</th><th>95% CI</th><th>p</th><th>q</th><th>Class</th><th>EG</th><th>CG</th><th>ECG</th></tr>");
        for u in &r.utility {
            let s = &u.summary;
            let c = class_of(s);
            let _ = write!(
                o,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.1} → {:.1}</td><td>{:+.1}</td><td>{}</td><td>{}</td><td>{:.3}</td><td class=\"{c}\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&experiment_label(u)), esc(&s.config), n_text(s), s.mean_without, s.mean_with, s.delta, ci(s), p_text(s), s.q_bh, esc(&class_text(s)), opt(s.eg), opt(s.cg), opt(s.ecg)
            );
        }
        o.push_str("</table>");
        let ran: Vec<&UtilityRow> = r.utility.iter().filter(|u| !u.ran_with.is_empty()).collect();
        if !ran.is_empty() {
            o.push_str("<p>What ran (each arm's recorded configuration):</p><ul id=\"ran-with\">");
            for u in ran {
                for line in &u.ran_with {
                    let _ =
                        write!(o, "<li>{} · {}: {}</li>", esc(&experiment_label(u)), esc(&u.summary.config), esc(line));
                }
            }
            o.push_str("</ul>");
        }
    }
    if !r.judged.is_empty() {
        o.push_str("<h2>Judged measures and activation</h2><ul id=\"judged\">");
        for line in &r.judged {
            let _ = write!(o, "<li>{}</li>", esc(line));
        }
        o.push_str("</ul>");
    }
    let _ = write!(
        o,
        "<h2>Safety</h2><p>Security score <strong>{}</strong>/100 <span class=\"badge{}\">{}</span></p><ul>",
        r.safety.score,
        if r.safety.risky { " risky" } else { "" },
        if r.safety.risky { "risky" } else { "not risky" }
    );
    for f in &r.safety.findings {
        let _ = write!(o, "<li>{}</li>", esc(f));
    }
    o.push_str("</ul>");
    if let Some(review) = &r.safety.model_review {
        let _ = write!(o, "<p>{}</p>", esc(review));
    }
    if r.safety.probes.is_empty() {
        o.push_str("<p>No security probes have run on this version.</p>");
    } else {
        o.push_str("<p>Security probes:</p><ul>");
        for p in &r.safety.probes {
            let _ = write!(o, "<li>{}</li>", esc(p));
        }
        o.push_str("</ul>");
    }
    let _ = write!(
        o,
        "<h2>Quality</h2><p>Overall <strong>{:.1}</strong> (grade {}), gate {}.</p><h2>Evidence</h2><ul>",
        r.quality.overall,
        esc(&r.quality.grade),
        if r.quality.passed_gate { "passed" } else { "failed" }
    );
    for e in &r.evidence {
        let _ = write!(o, "<li>{} #{}: {}</li>", esc(&e.kind), e.id, esc(&e.label));
    }
    o.push_str("</ul></body></html>\n");
    o
}

/// Experiments × configurations, each cell coloured by the mean delta on a zero-centred scale.
fn heatmap(r: &SkillReport) -> String {
    let groups: Vec<&UtilityRow> = r.utility.iter().filter(|u| u.summary.config != "all").collect();
    if groups.is_empty() {
        return String::new();
    }
    let mut configs: Vec<&str> = groups.iter().map(|u| u.summary.config.as_str()).collect();
    configs.sort();
    configs.dedup();
    let mut exps: Vec<(i64, String)> = groups.iter().map(|u| (u.experiment_id, experiment_label(u))).collect();
    exps.dedup();
    let mut o = String::from("<table id=\"heatmap\"><caption>Mean delta (points) by experiment and agent configuration: ▲ blue higher with the skill, ▼ orange lower; * p &lt; 0.05</caption><tr><th>Experiment</th>");
    for c in &configs {
        let _ = write!(o, "<th>{}</th>", esc(c));
    }
    o.push_str("</tr>");
    for (id, label) in exps {
        let _ = write!(o, "<tr><td>{}</td>", esc(&label));
        for c in &configs {
            match groups.iter().find(|u| u.experiment_id == id && u.summary.config == *c) {
                Some(u) => {
                    let (bg, text) = crate::heat_colour::heat_colour(u.summary.delta);
                    let sign = crate::heat_colour::heat_symbol(u.summary.delta);
                    let star = if u.summary.p_signflip < 0.05 { "*" } else { "" };
                    let _ = write!(
                        o,
                        "<td style=\"background:{bg};color:{text}\">{sign}{:+.1}{star} <small>n={}</small></td>",
                        u.summary.delta, u.summary.n
                    );
                }
                None => o.push_str("<td style=\"background:repeating-linear-gradient(45deg,#eee,#eee 4px,#fff 4px,#fff 8px)\">not run</td>"),
            }
        }
        o.push_str("</tr>");
    }
    o.push_str("</table>");
    o
}

/// What the utility section says when no experiment ran this version.
fn not_evaluated(r: &SkillReport) -> String {
    let mut text = format!("Version {} has not been evaluated yet.", r.version);
    if !r.other_versions.is_empty() {
        let _ = write!(
            text,
            " Experiments on other versions ({}) are not evidence on this one.",
            r.other_versions.join("; ")
        );
    }
    text
}

pub fn render(ws: &Workspace, skill_id: i64, version: Option<u32>, format: ReportFormat) -> Result<String> {
    format_report(ws, &build(ws, skill_id, version)?, format)
}

/// The report as text in `format`, with secrets and local paths redacted.
fn format_report(ws: &Workspace, r: &SkillReport, format: ReportFormat) -> Result<String> {
    let text = match format {
        ReportFormat::Json => serde_json::to_string_pretty(r)?,
        ReportFormat::Md => markdown(r),
        ReportFormat::Html => html(r, &charts(r)),
    };
    Ok(skillscope_runs::redaction::Scrubber::new(ws)?.text(&text))
}

/// Charts of the report (inline SVG).
fn charts(r: &SkillReport) -> Vec<(String, String)> {
    let pooled: Vec<Summary> = r.utility.iter().map(|u| u.summary.clone()).collect();
    if pooled.is_empty() {
        return Vec::new();
    }
    vec![
        ("Skill-level delta with 95% CI".into(), skillscope_charts::skill_deltas(&pooled)),
        ("Pass rate without vs with".into(), skillscope_charts::pass_rates(&pooled)),
    ]
}

/// Writes the report on `version` (the latest when None) into `<home>/exports/`, named after
/// the skill and the version, and returns its path.
pub fn export(ws: &Workspace, skill_id: i64, version: Option<u32>, format: ReportFormat) -> Result<String> {
    let r = build(ws, skill_id, version)?;
    let text = format_report(ws, &r, format)?;
    let ext = match format {
        ReportFormat::Html => "html",
        ReportFormat::Md => "md",
        ReportFormat::Json => "json",
    };
    let path = ws.export_path(&format!("report-{}-v{}", r.skill, r.version), ext)?;
    std::fs::write(&path, text).map_err(|e| IoError::new(path.display(), e))?;
    Ok(path.display().to_string())
}
