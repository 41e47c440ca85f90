//! `skillscope gate`: each skill's evidence judged against a policy, for CI. Exit 0 when every
//! skill passes, 1 when the policy fails (one line on stderr says why), 2 when it cannot run.

use skillscope_api::gate::{self, outputs, Outcome, Policy};
use skillscope_api::{AppError, Workspace};
use std::path::{Path, PathBuf};

pub(crate) fn run(ws: &Workspace, target: &str, policy: Option<PathBuf>, out: &Path) -> Result<bool, AppError> {
    let policy = match policy {
        Some(path) => Policy::load(&path)?,
        None => Policy::default(),
    };
    crate::gate_run::run_evals(ws, target, &policy)?;
    let evidence = gate::gather(ws, target)?;
    let verdicts: Vec<_> = evidence.iter().map(|e| gate::judge(&policy, e)).collect();
    for v in &verdicts {
        let checks: Vec<String> =
            v.checks.iter().map(|c| format!("{} {:?}", c.check, c.outcome).to_lowercase()).collect();
        let version = v.version.map_or(" (not in the library)".to_string(), |n| format!(" v{n}"));
        println!("{} {}{version}: {}", if v.passed { "PASS" } else { "FAIL" }, v.skill, checks.join(", "));
    }
    for path in outputs::write_all(out, &policy, &evidence, &verdicts)? {
        println!("wrote {}", path.display());
    }
    let failures: Vec<String> = verdicts
        .iter()
        .flat_map(|v| {
            v.checks
                .iter()
                .filter(|c| c.outcome == Outcome::Fail)
                .map(move |c| format!("{} {}: {}", v.skill, c.check, c.detail))
        })
        .collect();
    if !failures.is_empty() {
        eprintln!("skillscope gate: policy failed: {}", failures.join(" · ").replace('\n', " "));
    }
    Ok(failures.is_empty())
}
