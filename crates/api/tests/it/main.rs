//! Pipeline tests of the stage crates through the facade: a real workspace on disk, the real
//! Docker engine and the scripted model server. One binary, one module per subject.

mod agent_trial;
mod bundle;
mod claude_code;
mod clean_arms;
mod clean_arms_search;
mod cli_harnesses;
mod common;
mod decisions;
mod disk_every_phase;
mod experiment;
mod gate;
mod hostile;
mod image_pull;
mod import;
mod jobs;
mod judged;
mod measures;
mod provider_limit;
mod pytest_task;
mod queue_engine_down;
mod queue_store;
mod queue_worker;
mod rerun;
mod scans;
mod settings;
mod task_settings;
mod trajectory_window;
mod trial_deadline;
mod unfair_arms;
mod verifier_isolation;
mod verifier_tamper;
