//! Judged outcomes. A judge (a provider configuration and a model the user picks) grades each
//! expectation of a run from its transcript, quoting what shows it (`grading`), and compares the two
//! arms of a pair in both orders (`preference`), applies ACES's goal and accuracy rubrics as
//! expectations (`rubric`) and measures its own repeatability and agreement with verifiers
//! (`calibration`); the call, with one retry on an unusable answer (`call`); every verdict stored
//! with who judged, which prompt and at which temperature (`store`); the prompts in versions the
//! user chooses between (`prompts`). A judgement that cannot be had is NO SCORE with its reason, never
//! 0 and never a pass.

pub mod calibration;
pub mod call;
pub mod error;
pub mod grading;
pub mod preference;
pub mod prompts;
pub mod rubric;
pub mod store;

pub use call::{Judge, Session};
pub use grading::{Graded, GradedExpectation, Grading};
pub use prompts::PromptSet;
pub use store::Judgement;
