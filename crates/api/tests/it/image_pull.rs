//! Settings → Images pulls an image as a job. No registry is reachable here, so this shows the
//! failure a user meets without one: the job fails, names the registry and what to do, and a
//! reference that cannot be an image is refused before the engine is asked.

use crate::common::*;
use skillscope_api::jobs::{self, JobEvent, JobRequest, JobState};
use skillscope_api::{ErrorCode, Workspace};

#[test]
fn a_pull_without_a_reachable_registry_fails_saying_why_and_a_bad_reference_is_refused() {
    let rt = rt();
    rt.block_on(engine());
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let pull = |image: &str| jobs::run_here(&ws, &JobRequest::ImagePull { image: image.into() }, &|_: &JobEvent| {});

    let e = pull("127.0.0.1:9/skillscope-absent:1").unwrap_err();
    assert!(
        e.message.contains("127.0.0.1:9/skillscope-absent:1") && e.message.contains("pull failed"),
        "{}",
        e.message
    );
    assert!(e.message.contains("docker pull"), "says what to do: {}", e.message);
    let stored = &jobs::recent(&ws, 1).unwrap()[0];
    assert_eq!((stored.state, stored.message.as_str()), (JobState::Failed, "The pull failed"));

    let e = pull("not an image").unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidInput, "{}", e.message);
}
