//! Turns the loop's events into an ATIF v1.7 trajectory (the one place that knows the format).

use serde::{Deserialize, Serialize};
use serde_json::json;
use skillscope_atif::{Agent, TrajectoryBuilder, TurnMetrics};
use skillscope_models::{ToolCall, ToolDef, Usage};
use ts_rs::TS;

// Why the loop stopped; lives here because the trajectory records it (`extra.stop_reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum StopReason {
    FinalAnswer,
    MaxTurns,
    TokenBudget,
    WallTimeout,
}

pub(crate) struct Recorder {
    builder: TrajectoryBuilder,
}

impl Recorder {
    pub(crate) fn new(session_id: &str, model: &str, tools: Vec<ToolDef>) -> Self {
        let mut agent = Agent::new("skillscope-agent", env!("CARGO_PKG_VERSION"), Some(model.to_string()));
        agent.tool_definitions = Some(
            tools
                .into_iter()
                .filter_map(|t| {
                    json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}})
                        .as_object()
                        .cloned()
                })
                .collect(),
        );
        Self { builder: TrajectoryBuilder::new(session_id, agent) }
    }

    pub(crate) fn system(&mut self, text: &str) {
        self.builder.system_step(text.to_string());
    }

    pub(crate) fn user(&mut self, text: &str) {
        self.builder.user_step(text.to_string());
    }

    /// One model turn; returns its step id for the observations that follow.
    pub(crate) fn agent(&mut self, text: &str, calls: &[ToolCall], usage: &Usage, cost_usd: Option<f64>) -> u64 {
        let metrics = TurnMetrics {
            prompt_tokens: usage.input_tokens as i64,
            completion_tokens: usage.output_tokens as i64,
            cached_tokens: usage.cached_tokens as i64,
            cost_usd,
        };
        let calls = calls.iter().map(|c| (c.id.clone(), c.name.clone(), c.arguments.clone())).collect();
        self.builder.agent_step(text.to_string(), None, calls, metrics, time::OffsetDateTime::now_utc())
    }

    pub(crate) fn observation(&mut self, step: u64, call_id: &str, content: &str) {
        // The step and call come from the turn just recorded, so this cannot fail.
        self.builder
            .observation(step, call_id, content.to_string())
            .expect("observation belongs to the step that made the call");
    }

    pub(crate) fn finish(
        self,
        usage: &Usage,
        cost_usd: Option<f64>,
        stop: StopReason,
        requests: Vec<serde_json::Value>,
    ) -> serde_json::Value {
        let extra = json!({
            "model_requests": requests,
            "stop_reason": stop,
            "total_input_tokens": usage.input_tokens,
            "total_output_tokens": usage.output_tokens,
            "total_cost_usd": cost_usd,
        });
        let t = self.builder.finish(extra.as_object().cloned());
        serde_json::to_value(t).expect("a trajectory serialises")
    }
}
