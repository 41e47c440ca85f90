//! Long, realistic-looking trajectories for benchmarks and tests of the viewers: an agent that
//! runs one shell command per step and reads a sizeable, varied output each time.

use serde_json::json;
use time::macros::datetime;
use time::Duration;

use crate::builder::{TrajectoryBuilder, TurnMetrics};
use crate::model::{Agent, Trajectory};

const WORDS: &[&str] = &[
    "collected",
    "tests",
    "passed",
    "failed",
    "module",
    "import",
    "warning",
    "src/lib.rs",
    "line",
    "error[E0425]",
    "cannot",
    "find",
    "value",
    "compiling",
    "finished",
    "running",
    "assert",
    "ok",
];

/// A trajectory of `steps` steps (one user step, then agent steps with a `bash` call each) whose
/// outputs are about `output_bytes` long; step `n`'s command is `step n` so tests can find it.
pub fn synthetic(steps: usize, output_bytes: usize) -> Trajectory {
    let mut builder = TrajectoryBuilder::new("synthetic", Agent::new("skillscope", "bench", Some("scripted".into())));
    builder.user_step("Fix the failing tests.");
    // Agent steps are 1.5 s apart.
    let start = datetime!(2026-01-01 00:00 UTC);
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for n in 2..=steps as u64 {
        let call = format!("call_{n}");
        let id = builder.agent_step(
            format!("Step {n}: looking at the next failure."),
            None,
            vec![(call.clone(), "bash".into(), json!({"command": format!("echo step {n} && cargo test")}))],
            TurnMetrics { prompt_tokens: 1000 + n as i64, completion_tokens: 40, cached_tokens: 900, cost_usd: None },
            start + Duration::milliseconds(1500 * n as i64),
        );
        let mut output = String::with_capacity(output_bytes + 16);
        while output.len() < output_bytes {
            // xorshift: varied text that compresses like real logs, not like one repeated line.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            output.push_str(WORDS[(seed % WORDS.len() as u64) as usize]);
            output.push(if seed.is_multiple_of(11) { '\n' } else { ' ' });
        }
        builder.observation(id, &call, output.as_str()).expect("the call was just recorded");
    }
    builder.finish(None)
}
