//! Running things: the persistent trial queue, its worker and phases, provider and agent
//! configurations, credentials in the OS keyring, harness installs, trajectories and evidence.

pub mod agents;
pub use skillscope_credentials as credentials;
pub mod error;
pub mod evidence;
pub mod harnesses;
pub mod prices;
pub mod provider_limits;
pub mod queue;
pub mod redaction;
pub mod security_review;
pub mod trajectories;
