//! The gate on evidence recorded by real runs (engine, scripted model): an experiment on the exact
//! content is judged by the policy's thresholds; the demo's synthetic experiments never count.

use crate::common::{
    copy_task, copying_model_server, import_skill, rt, run_experiment, scripted_builtin_agent, ANSWER_KEEPER,
};
use skillscope_api::gate::{self, Outcome, Policy};
use skillscope_api::Workspace;

fn evaluation(ws: &Workspace, target: &str, policy: &str) -> (Outcome, String) {
    let policy = Policy::parse(policy, "test policy").unwrap();
    let evidence = gate::gather(ws, target).unwrap();
    let verdict = gate::judge(&policy, &evidence[0]);
    let c = verdict.checks.into_iter().find(|c| c.check == "evaluation").unwrap();
    (c.outcome, c.detail)
}

#[test]
fn an_experiment_on_the_exact_content_is_judged_by_the_policy() {
    crate::common::join_session_keyring();
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let rt = rt();
    let server = copying_model_server(&rt);
    let config = scripted_builtin_agent(&ws, &server.base_url, "sk-gate-0000000");
    let version = import_skill(&ws, &tmp.path().join("skills"), "answer-keeper", ANSWER_KEEPER);
    let (experiment, _) =
        run_experiment(&ws, &rt, version, vec![copy_task("copy", &tmp.path().join("task"))], vec![config]);

    // Both arms copy the file: Δ 0 over one task, q 1.
    let (outcome, detail) = evaluation(&ws, "answer-keeper", "");
    assert_eq!(outcome, Outcome::Pass, "{detail}");
    assert!(
        detail.starts_with(&format!("experiment #{experiment} ")) && detail.contains("Δ +0.0 (q 1.000, n 1)"),
        "{detail}"
    );
    let (outcome, detail) = evaluation(&ws, "answer-keeper", "[evaluation]\nmin_delta = 10\n");
    assert_eq!(outcome, Outcome::Fail);
    assert!(detail.ends_with("Δ +0.0 < +10.0"), "{detail}");
    let (outcome, detail) = evaluation(&ws, "answer-keeper", "[evaluation]\nmax_q = 0.05\n");
    assert_eq!(outcome, Outcome::Fail);
    assert!(detail.ends_with("q 1.000 > 0.05"), "{detail}");
    // The same content read from its folder finds the same evidence.
    let folder = tmp.path().join("skills/answer-keeper");
    assert_eq!(evaluation(&ws, folder.to_str().unwrap(), "").0, Outcome::Pass);
}

#[test]
fn the_demo_experiment_is_not_evidence() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    skillscope_api::import::seed_samples_once(&ws).unwrap();
    skillscope_api::demo::seed_once(&ws).unwrap().expect("the demo is seeded");
    let skill = skillscope_api::library::resolve(&ws, "commit-messages").unwrap();
    let report = skillscope_api::report::build(&ws, skill.id, None).unwrap();
    assert!(!report.utility.is_empty(), "the report shows the demo's rows");
    let (outcome, detail) = evaluation(&ws, &skill.id.to_string(), "[evaluation]\nrequired = true\n");
    assert_eq!(outcome, Outcome::Fail);
    assert!(detail.contains("demo row(s) not counted") && detail.ends_with("(required by the policy)"), "{detail}");
}

/// Evals as code, as the app and the gate import them: the version's evals/ become a task set
/// that names no temporary folder, so importing again finds the same set; a version without
/// evals/ is told so.
#[test]
fn a_skills_own_evals_import_as_one_set() {
    use skillscope_api::experiments::task_sets;
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/tasks/evals/csv-summary");
    let request = skillscope_api::model::ImportRequest { source: root.display().to_string(), ..Default::default() };
    let version = skillscope_api::import::import(&ws, &request, &mut |_| Ok(())).unwrap().skills[0].version_id;
    let first = task_sets::import_skill_evals(&ws, version).unwrap();
    assert_eq!((first.task_set.name.as_str(), first.tasks.len(), first.reused), ("csv-summary v1 evals", 2, false));
    let again = task_sets::import_skill_evals(&ws, version).unwrap();
    assert_eq!((again.task_set.id, again.reused), (first.task_set.id, true));
    let (runnable, left_out) = task_sets::experiment_tasks(&ws, first.task_set.id, false).unwrap();
    assert_eq!((runnable.len(), left_out.len()), (1, 1), "{left_out:?}");

    let plain = import_skill(&ws, &tmp.path().join("skills"), "answer-keeper", ANSWER_KEEPER);
    let e = skillscope_api::AppError::from(task_sets::import_skill_evals(&ws, plain).unwrap_err());
    assert_eq!(e.code, skillscope_api::ErrorCode::NotFound);
    assert!(e.message.contains("ships no evals/ folder"), "{}", e.message);
}
