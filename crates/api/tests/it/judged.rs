//! Judged tasks in the app's path: an experiment with a judge runs a task that only has
//! expectations; until the judge grades it the pair is unscored ("not judged yet"), and the
//! statistics shown before grading are not kept once it is (the results cache sees judgements);
//! a comparison the judge cannot answer is a NO SCORE preference.

use crate::common::*;
use skillscope_api::experiments::{self, judging, Condition, ExperimentDesign};
use skillscope_api::jobs::{self, JobEvent, JobOutcome, JobRequest, JobState};
use skillscope_api::judge::grading::Grading;
use skillscope_api::judge::{Judge, Session};
use skillscope_api::tasks::TaskVerifier;
use skillscope_api::Workspace;
use std::sync::atomic::{AtomicBool, Ordering};

#[test]
fn a_judged_task_is_unscored_until_graded_and_the_results_follow_the_judge() {
    join_session_keyring();
    let rt = rt();
    rt.block_on(engine());
    let agent = copying_model_server(&rt);
    let judge_script = serde_json::json!({"branches": [{"if_prompt_contains": "Transcript of the run", "steps": [{"text":
        r#"{"expectations": [{"text": "answer.txt holds the task", "passed": true, "evidence": "cp task.txt answer.txt"}]}"#}]}]});
    let options = skillscope_modelserver::ServerOptions {
        script: serde_json::from_value(judge_script).unwrap(),
        ..Default::default()
    };
    let judge_server = rt.block_on(skillscope_modelserver::start(options)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let config = scripted_builtin_agent(&ws, &agent.base_url, "sk-judged-agent-000000");
    skillscope_api::agents::save_provider(
        &ws,
        &skillscope_models::ProviderConfig::new(
            "judge",
            skillscope_models::ApiKind::OpenAiChat,
            judge_server.base_url.clone(),
        ),
    )
    .unwrap();
    skillscope_api::credentials::set("judge", "sk-judged-judge-000000").unwrap();
    let version = import_skill(&ws, tmp.path(), "answer-keeper", ANSWER_KEEPER);
    let task = experiments::ExperimentTask {
        verifier: Vec::new(),
        scoring: Some(TaskVerifier::NeedsJudge {
            expectations: vec!["answer.txt holds the task".into()],
            expected_output: None,
        }),
        ..copy_task("judged", &tmp.path().join("task"))
    };
    let mut design = ExperimentDesign {
        name: "judged".into(),
        skill_version_ids: vec![version],
        decoy_version_ids: vec![],
        tasks: vec![task],
        task_set_id: None,
        agent_config_ids: vec![config],
        conditions: vec![Condition::Isolated],
        repeats: 1,
        only: Vec::new(),
        judge: None,
    };
    let refused = experiments::create(&ws, &design).unwrap_err();
    assert!(refused.to_string().contains("task judged has expectations for a judge to grade"), "{refused}");
    design.judge = Some(Judge { provider: "judge".into(), model: "m".into(), prompts: Default::default() });
    let id = experiments::create(&ws, &design).unwrap();
    let (sink, _) = recorder();
    rt.block_on(drain(&ws, None, sink)).unwrap();

    let before = experiments::results(&ws, id).unwrap();
    assert_eq!((before.pairs_scored, before.pairs_excluded), (0, 1));
    let pair = &experiments::pairs(&ws, id).unwrap()[0];
    assert_eq!(pair.excluded, ["without arm not judged yet", "with arm not judged yet"]);
    assert_eq!(pair.with.score, None, "the run's own pass (a final answer) is not its score");

    // As the app judges: a stored job with progress. Stopped after its first verdict, it keeps it;
    // run again, it does the rest (the other arm's expectations, both arms' rubric, the comparison).
    let request = JobRequest::Judge { experiment_id: id };
    let cancel = AtomicBool::new(false);
    let stop_after_one = |e: &JobEvent| {
        if e.done >= 1 {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let last = jobs::run(&ws, jobs::create(&ws, &request).unwrap(), &request, &cancel, &stop_after_one);
    // 4 so far: two gradings and two rubrics; the comparison counts once grading has scored the pair.
    assert_eq!((last.state, last.done, last.total), (JobState::Cancelled, 1, 4), "{last:?}");
    assert_eq!(last.message, "Cancelled; the verdicts given before the cancel are kept");
    let Ok(JobOutcome::Judge(judged)) = jobs::run_here(&ws, &request, &|_: &JobEvent| {}) else { panic!("no outcome") };
    assert_eq!((judged.graded, judged.rubric, judged.compared), (1, 2, 1));
    let again = rt.block_on(judging::judge_pending(&ws, id, &mut |_, _| true)).unwrap();
    assert_eq!((again.graded, again.compared), (0, 0), "judged once per attempt");
    let after = experiments::results(&ws, id).unwrap();
    assert_eq!((after.pairs_scored, after.pairs_excluded), (1, 0), "the cached statistics were not kept");
    let pair = &experiments::pairs(&ws, id).unwrap()[0];
    assert_eq!((pair.without.score, pair.with.score), (Some(1.0), Some(1.0)));
    // This judge answers no comparison: the pair has no preference, and says why.
    let why = pair.preference.as_ref().and_then(|p| p.no_score.as_deref()).unwrap();
    assert!(
        why.starts_with("with the without arm shown first: the judge's answer is not the JSON")
            && why.ends_with("asked twice"),
        "{why}"
    );
    let measures = experiments::measures::experiment_measures(&ws, id).unwrap();
    assert_eq!((measures.preference[0].compared, measures.preference[0].no_score), (0, 1));
    let j = pair.with.judgement.as_ref().unwrap();
    assert_eq!((j.by.judge.provider.as_str(), j.by.model_reported.as_deref()), ("judge", Some("m")));

    // The calibration, as a stored job: stopped after its first grading it keeps nothing (a
    // calibration is whole or not at all); run through, it is the experiment's latest.
    let request = JobRequest::CalibrateJudge { experiment_id: id, gradings: 3, sample: 20 };
    cancel.store(false, Ordering::Relaxed);
    let last = jobs::run(&ws, jobs::create(&ws, &request).unwrap(), &request, &cancel, &stop_after_one);
    // Two graded arms, each graded twice more.
    assert_eq!((last.state, last.done, last.total), (JobState::Cancelled, 1, 4), "{last:?}");
    assert_eq!(last.message, "Cancelled; the latest calibration before it is kept");
    assert!(experiments::calibration::latest(&ws, id).unwrap().is_none());
    let Ok(JobOutcome::CalibrateJudge(c)) = jobs::run_here(&ws, &request, &|_: &JobEvent| {}) else {
        panic!("no calibration")
    };
    assert_eq!((c.repeatability.arms, c.gradings), (2, 3));
    assert_eq!(experiments::calibration::latest(&ws, id).unwrap().map(|l| l.created_at), Some(c.created_at));
}

/// A judge that does not answer within its provider's timeout is a NO SCORE that says so, not a
/// hang and not a verdict; the next answer, in time, is used.
#[test]
fn a_judge_past_its_timeout_is_no_score() {
    join_session_keyring();
    let rt = rt();
    let answer = r#"{"expectations": [{"text": "says hello", "passed": true, "evidence": "hello"}]}"#;
    let script =
        serde_json::json!({"branches": [{"if_prompt_contains": "Transcript of the run", "steps": [{"text": answer}]}]});
    let options =
        skillscope_modelserver::ServerOptions { script: serde_json::from_value(script).unwrap(), ..Default::default() };
    let server = rt.block_on(skillscope_modelserver::start(options)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let ws = Workspace::open(tmp.path().join("home")).unwrap();
    let provider = skillscope_models::ProviderConfig {
        timeout_secs: 1,
        max_retries: 0,
        ..skillscope_models::ProviderConfig::new(
            "slow-judge",
            skillscope_models::ApiKind::OpenAiChat,
            server.base_url.clone(),
        )
    };
    skillscope_api::agents::save_provider(&ws, &provider).unwrap();
    skillscope_api::credentials::set("slow-judge", "sk-judged-slow-000000").unwrap();
    let session = Session::open(&ws, "slow-judge", "m").unwrap();
    let grading = || Grading::prepare("greet", vec!["says hello".into()], "[agent] hello\n".into());

    server.push_faults(vec![skillscope_modelserver::Fault::Slow { delay_ms: 3000 }]);
    let started = std::time::Instant::now();
    let asked = rt.block_on(session.grade(&grading()));
    let why = asked.outcome.unwrap_err();
    assert!(why.starts_with("the judge could not be asked") && why.contains("time"), "{why}");
    assert!(started.elapsed() < std::time::Duration::from_secs(3), "waited out the slow answer");
    let graded = rt.block_on(session.grade(&grading())).outcome.unwrap();
    assert_eq!(graded.score, 1.0);
}
