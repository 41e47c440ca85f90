//! The gate's files: JUnit XML (one testcase per check per skill), SARIF (the static findings),
//! JSON, and a Markdown summary fit for `$GITHUB_STEP_SUMMARY`.

use crate::checks::{Outcome, SkillVerdict};
use crate::error::Result;
use crate::evidence::SkillEvidence;
use crate::policy::Policy;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use skillscope_library::scans::{self, ExportFormat};
use skillscope_store::IoError;
use std::fmt::Write;
use std::path::{Path, PathBuf};

pub fn to_json(policy: &Policy, verdicts: &[SkillVerdict]) -> serde_json::Value {
    serde_json::json!({
        "passed": verdicts.iter().all(|v| v.passed),
        "policy": policy,
        "skills": verdicts,
    })
}

pub fn to_junit(verdicts: &[SkillVerdict]) -> Result<String> {
    let mut report = Report::new("skillscope gate");
    for v in verdicts {
        let mut suite = TestSuite::new(v.skill.as_str());
        suite.add_test_cases(v.checks.iter().map(|c| {
            let status = match c.outcome {
                Outcome::Pass => TestCaseStatus::success(),
                Outcome::Fail => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_message(c.detail.as_str());
                    s
                }
                Outcome::Skipped => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(c.detail.as_str());
                    s
                }
            };
            let mut case = TestCase::new(c.check, status);
            case.set_classname(v.skill.as_str());
            if c.outcome == Outcome::Pass {
                case.set_system_out(c.detail.as_str());
            }
            case
        }));
        report.add_test_suite(suite);
    }
    Ok(report.to_string()?)
}

pub fn to_markdown(verdicts: &[SkillVerdict]) -> String {
    let passed = verdicts.iter().filter(|v| v.passed).count();
    let mut md = format!(
        "## Skillscope gate: {}\n\n{passed} of {} skill(s) passed.\n\n| Skill | Check | Result | Detail |\n|---|---|---|---|\n",
        if passed == verdicts.len() { "passed" } else { "failed" },
        verdicts.len()
    );
    for v in verdicts {
        let name = match v.version {
            Some(n) => format!("{} v{n}", v.skill),
            None => format!("{} (not in the library)", v.skill),
        };
        for c in &v.checks {
            let result = match c.outcome {
                Outcome::Pass => "✅ pass",
                Outcome::Fail => "❌ fail",
                Outcome::Skipped => "➖ skipped",
            };
            let _ = writeln!(
                md,
                "| {name} | {} | {result} | {} |",
                c.check,
                c.detail.replace('|', "\\|").replace('\n', " ")
            );
        }
    }
    md
}

/// Writes `gate.json`, `gate.junit.xml`, `gate.sarif` and `gate.md` into `dir`; returns their paths.
pub fn write_all(
    dir: &Path,
    policy: &Policy,
    evidence: &[SkillEvidence],
    verdicts: &[SkillVerdict],
) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| IoError::new(dir.display(), e))?;
    let scanned: Vec<_> = evidence.iter().map(|e| (e.source.clone(), e.scan.clone())).collect();
    let files = [
        ("gate.json", serde_json::to_string_pretty(&to_json(policy, verdicts))?),
        ("gate.junit.xml", to_junit(verdicts)?),
        ("gate.sarif", scans::render(&scanned, ExportFormat::Sarif)?),
        ("gate.md", to_markdown(verdicts)),
    ];
    files
        .into_iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text).map_err(|e| IoError::new(path.display(), e))?;
            Ok(path)
        })
        .collect()
}
