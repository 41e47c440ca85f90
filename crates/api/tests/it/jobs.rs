//! Jobs: every state change is stored, a cancel request stops the work at its next step (an
//! import then commits nothing), and a job a crash left running is marked failed on the next start.

use skillscope_api::jobs::{self, JobEvent, JobOutcome, JobRequest, JobState};
use skillscope_api::library::{self, model::ImportRequest};
use skillscope_api::{ErrorCode, Workspace};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// A folder holding `n` valid skills.
fn skills_folder(root: &Path, n: usize) {
    for i in 0..n {
        let dir = root.join(format!("skill-{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let md = format!("---\nname: skill-{i}\ndescription: Does thing {i} when asked to.\n---\n# Skill {i}\n");
        std::fs::write(dir.join("SKILL.md"), md).unwrap();
    }
}

fn import_request(source: &Path) -> JobRequest {
    JobRequest::Import(ImportRequest { source: source.display().to_string(), ..Default::default() })
}

#[test]
fn an_import_runs_as_a_stored_job_and_reports_its_outcome() {
    let home = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    skills_folder(src.path(), 3);
    let ws = Workspace::open(home.path()).unwrap();
    let seen = Mutex::new(Vec::new());
    let outcome = jobs::run_here(&ws, &import_request(src.path()), &|e: &JobEvent| {
        // Each step is in the database when it is emitted (no write waits on the import's lock).
        let stored = &jobs::recent(&ws, 1).unwrap()[0];
        assert_eq!((stored.done, stored.total, &stored.message), (e.done, e.total, &e.message));
        seen.lock().unwrap().push(e.state);
    })
    .unwrap();
    let JobOutcome::Import(outcome) = outcome else { panic!("an import job yields an import outcome") };
    assert_eq!(outcome.skills.len(), 3);
    let seen = seen.into_inner().unwrap();
    assert_eq!((seen.first(), seen.last()), (Some(&JobState::Running), Some(&JobState::Succeeded)));
    let stored = jobs::recent(&ws, 10).unwrap();
    assert_eq!((stored.len(), stored[0].state), (1, JobState::Succeeded));
    assert!(matches!(stored[0].outcome, Some(JobOutcome::Import(ref o)) if o.skills.len() == 3), "outcome is stored");
}

#[test]
fn a_cancelled_import_commits_nothing_and_is_stored_as_cancelled() {
    let home = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    skills_folder(src.path(), 5);
    let ws = Workspace::open(home.path()).unwrap();
    let request = import_request(src.path());
    let cancel = AtomicBool::new(false);
    // Ask to stop once the skills are staged, as the UI's Cancel button would.
    let stop_when_staged = |e: &JobEvent| {
        if e.state == JobState::Running && e.total >= 1 {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let last = jobs::run(&ws, jobs::create(&ws, &request).unwrap(), &request, &cancel, &stop_when_staged);
    assert_eq!(last.state, JobState::Cancelled, "{last:?}");
    assert!(last.outcome.is_none() && last.error.is_none());
    assert!(library::list_skills(&ws).unwrap().is_empty(), "a cancelled import commits no skill");
    assert_eq!(jobs::recent(&ws, 10).unwrap()[0].state, JobState::Cancelled);
}

#[test]
fn a_job_left_running_by_a_crash_is_failed_on_the_next_start() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let orphan = jobs::create(&ws, &JobRequest::ScanLibrary).unwrap();
    let done = jobs::run_here(&ws, &JobRequest::ScanLibrary, &|_: &JobEvent| {}).unwrap();
    assert!(matches!(done, JobOutcome::ScanLibrary { scanned: 0 }));

    assert_eq!(jobs::fail_interrupted(&ws).unwrap(), 1, "only the unfinished job");
    let stored = jobs::recent(&ws, 10).unwrap();
    let orphan = stored.iter().find(|j| j.job_id == orphan.job_id).unwrap();
    assert_eq!(orphan.state, JobState::Failed);
    let error = orphan.error.as_ref().expect("the failure says why");
    assert_eq!(error.code, ErrorCode::Internal);
    assert!(error.message.contains("interrupted"), "{}", error.message);
    assert!(stored.iter().any(|j| j.state == JobState::Succeeded), "finished jobs are left alone");
}
