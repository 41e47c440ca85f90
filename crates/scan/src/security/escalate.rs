//! Cross-finding rules: patterns that are worse together than apart.

use crate::report::{SecurityFinding, Severity};
use crate::skill::Skill;
use regex::Regex;
use std::sync::OnceLock;

fn claims_safety() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(&super::rules::ascii_boundaries(r"(?i)\b(safe(ly)?|secure(ly)?|harmless|read[-\s]only|offline|local[-\s]only|no\s+network|without\s+(eval|exec|network)|parameteri[sz]ed|sandboxed)\b")).unwrap())
}

fn mentions_network() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(&super::rules::ascii_boundaries(r"(?i)\b(network|internet|https?|urls?|apis?|upload|send|server|web|online|remote|endpoint|download|fetch|sync|webhook)\b")).unwrap())
}

fn is_doc(path: &str) -> bool {
    path.ends_with(".md") || path.ends_with(".txt")
}

fn raise(f: &mut SecurityFinding, to: Severity, why: &str) {
    if f.severity < to {
        f.severity = to;
        f.message = format!("{} — escalated: {why}", f.message);
    }
}

pub(super) fn apply(skill: &Skill, findings: &mut Vec<SecurityFinding>) {
    let at_least =
        |f: &SecurityFinding, ids: &[&str], s: Severity| ids.contains(&f.pattern.as_str()) && f.severity >= s;

    // Credential or environment harvesting plus any egress: an exfiltration chain.
    let harvest = findings.iter().any(|f| at_least(f, &["B1", "B2"], Severity::High));
    let egress = findings.iter().any(|f| at_least(f, &["C1"], Severity::Medium));
    if harvest && egress {
        for f in findings.iter_mut() {
            if at_least(f, &["B1", "B2"], Severity::High) || at_least(f, &["C1"], Severity::Medium) {
                raise(
                    f,
                    Severity::Critical,
                    "credential/environment access combined with network egress (exfiltration chain)",
                );
            }
        }
    }

    // A trigger phrase guarding dangerous behaviour is a backdoor.
    if findings.iter().any(|f| f.category == "unsafe_behavior" && f.severity >= Severity::High) {
        for f in findings.iter_mut().filter(|f| f.pattern == "A4") {
            raise(f, Severity::High, "conditional trigger paired with dangerous behaviour");
        }
    }

    let desc = skill.description();
    let line = skill.line_of("description");
    let mk = |pattern: &str, severity, message: String| SecurityFinding {
        pattern: pattern.into(),
        category: super::taxonomy::pattern(pattern).category.into(),
        severity,
        confidence: 0.6,
        file: "SKILL.md".into(),
        line,
        column: 1,
        evidence: crate::security::evidence(&desc),
        message,
        decoded: None,
    };

    // A description that promises safety while the code does the opposite.
    if let Some(claim) = claims_safety().find(&desc) {
        if let Some(worst) = findings
            .iter()
            .filter(|f| {
                !is_doc(&f.file)
                    && f.severity >= Severity::High
                    && matches!(f.category.as_str(), "credential_access" | "unsafe_behavior" | "supply_chain")
            })
            .max_by_key(|f| f.severity)
        {
            let msg = format!("description claims '{}' but {} does: {}", claim.as_str(), worst.file, worst.message);
            findings.push(mk("A6", Severity::High, msg));
        }
    }

    // Network use in code that the skill never declares.
    let code_net = findings.iter().any(|f| !is_doc(&f.file) && matches!(f.pattern.as_str(), "C1" | "C7"));
    if code_net && !mentions_network().is_match(&skill.skill_md) {
        findings.push(mk(
            "C6",
            Severity::Medium,
            "scripts use the network but SKILL.md never declares network access".into(),
        ));
    }
}
