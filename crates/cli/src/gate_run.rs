//! Evals as code for `skillscope gate`: when the policy names an agent configuration
//! (`evaluation.run_with`), each skill of the target is imported into the library and its own
//! `evals/` run with and without it before the gate judges, so the evaluation check has evidence
//! on this exact content.

use crate::eval_cmd::{config_id, evaluate, Evaluation};
use skillscope_api::experiments::task_sets::{self, SKILL_EVALS_DIR};
use skillscope_api::experiments::Condition;
use skillscope_api::gate::Policy;
use skillscope_api::model::ImportRequest;
use skillscope_api::{import, library, AppError, Workspace};
use std::path::Path;

/// Runs the evals of each skill in `target` that ships them; says on stderr what ran and what not.
pub(crate) fn run_evals(ws: &Workspace, target: &str, policy: &Policy) -> Result<(), AppError> {
    let Some(config) = &policy.evaluation.run_with else { return Ok(()) };
    let config = config_id(ws, config)?;
    let versions: Vec<(String, i64)> = if Path::new(target).exists() || target.contains("://") {
        let request = ImportRequest { source: target.into(), ..Default::default() };
        import::import(ws, &request, &mut |_| Ok(()))?.skills.into_iter().map(|s| (s.name, s.version_id)).collect()
    } else {
        let s = library::resolve(ws, target)?;
        vec![(s.name, s.version_id)]
    };
    for (name, version_id) in versions {
        let ships_evals =
            library::get_version(ws, version_id)?.files.iter().any(|f| f.path.starts_with(SKILL_EVALS_DIR));
        if !ships_evals {
            eprintln!("{name}: ships no {SKILL_EVALS_DIR} folder; nothing to run");
            continue;
        }
        let set = task_sets::import_skill_evals(ws, version_id)?;
        let evaluation = Evaluation {
            skill: &name,
            version_id,
            task_set: set.task_set.id,
            config,
            repeats: policy.evaluation.repeats,
            condition: Condition::Isolated,
            decoys: Vec::new(),
            accept_skill_paths: &[],
            judge: None,
        };
        match evaluate(ws, evaluation) {
            Ok(id) => eprintln!("{name}: its evals ran as experiment #{id}"),
            // Every case needs a judge: the evaluation check says "not evaluated".
            Err(e) if e.code == skillscope_api::ErrorCode::InvalidInput => eprintln!("{name}: {}", e.message),
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
