//! Security probes: a skill version run by an agent in the sandbox, with canaries planted and the
//! network, the filesystem and the trajectory observed; each probe ends in an outcome with its
//! evidence (confirmed, agent refused, not triggered, not invoked, inconclusive).

pub mod canaries;
pub mod error;
pub mod outcome;
pub mod plan;
pub mod run;
