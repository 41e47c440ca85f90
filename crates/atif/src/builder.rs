//! A recorder the agent loop feeds while it runs; [`TrajectoryBuilder::finish`]
//! yields an ATIF v1.7 [`Trajectory`] with sequential step ids (from 1),
//! RFC 3339 timestamps and final metrics summed from the steps.

use serde_json::{Map, Value};
use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

use crate::model::{
    Agent, Content, Extra, FinalMetrics, Metrics, Observation, ObservationResult, Step, StepSource, ToolCall,
    Trajectory, SCHEMA_VERSION,
};

/// Token usage and cost of one LLM inference.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TurnMetrics {
    /// All input tokens, cached ones included.
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    /// The subset of `prompt_tokens` served from cache.
    pub cached_tokens: i64,
    pub cost_usd: Option<f64>,
}

/// A tool call as the agent loop sees it: (call id, tool name, arguments).
pub type ToolCallSpec = (String, String, Value);

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BuildError {
    #[error("step {0} does not exist")]
    NoSuchStep(u64),
    #[error("step {step}: source_call_id: {call_id} does not match a tool call in step {step}")]
    UnknownCall { step: u64, call_id: String },
}

/// Records one trajectory step by step.
#[derive(Debug, Clone)]
pub struct TrajectoryBuilder {
    session_id: String,
    agent: Agent,
    steps: Vec<Step>,
}

impl TrajectoryBuilder {
    pub fn new(session_id: impl Into<String>, agent: Agent) -> Self {
        TrajectoryBuilder { session_id: session_id.into(), agent, steps: Vec::new() }
    }

    /// Records a user message now; returns its step id.
    pub fn user_step(&mut self, message: impl Into<Content>) -> u64 {
        let step = self.next_step(StepSource::User, message.into(), OffsetDateTime::now_utc());
        self.push(step)
    }

    /// Records a system prompt or system event now; returns its step id.
    pub fn system_step(&mut self, message: impl Into<Content>) -> u64 {
        let step = self.next_step(StepSource::System, message.into(), OffsetDateTime::now_utc());
        self.push(step)
    }

    /// Records one LLM inference of the agent; returns its step id.
    ///
    /// Tool arguments that are not a JSON object (ATIF requires one) are
    /// wrapped as `{"input": <value>}`, as Harbor's converters do.
    pub fn agent_step(
        &mut self,
        message: impl Into<Content>,
        reasoning: Option<String>,
        tool_calls: Vec<ToolCallSpec>,
        metrics: TurnMetrics,
        timestamp: OffsetDateTime,
    ) -> u64 {
        let mut step = self.next_step(StepSource::Agent, message.into(), timestamp);
        step.reasoning_content = reasoning;
        step.llm_call_count = Some(1);
        step.metrics = Some(Metrics {
            prompt_tokens: Some(metrics.prompt_tokens),
            completion_tokens: Some(metrics.completion_tokens),
            cached_tokens: Some(metrics.cached_tokens),
            cost_usd: metrics.cost_usd,
            ..Metrics::default()
        });
        if !tool_calls.is_empty() {
            step.tool_calls = Some(
                tool_calls
                    .into_iter()
                    .map(|(tool_call_id, function_name, arguments)| ToolCall {
                        tool_call_id,
                        function_name,
                        arguments: object_arguments(arguments),
                        extra: None,
                    })
                    .collect(),
            );
        }
        self.push(step)
    }

    /// Records the result of tool call `source_call_id`, which must belong
    /// to step `step_id` (results live in the same step as their call).
    pub fn observation(
        &mut self,
        step_id: u64,
        source_call_id: &str,
        content: impl Into<Content>,
    ) -> Result<(), BuildError> {
        let step = step_id
            .checked_sub(1)
            .and_then(|i| self.steps.get_mut(i as usize))
            .ok_or(BuildError::NoSuchStep(step_id))?;
        let has_call = step.tool_calls.iter().flatten().any(|call| call.tool_call_id == source_call_id);
        if !has_call {
            return Err(BuildError::UnknownCall { step: step_id, call_id: source_call_id.to_owned() });
        }
        let observation = step.observation.get_or_insert_with(|| Observation { results: Vec::new() });
        observation.results.push(ObservationResult {
            source_call_id: Some(source_call_id.to_owned()),
            content: Some(content.into()),
            subagent_trajectory_ref: None,
            extra: None,
        });
        Ok(())
    }

    /// Ends the recording. Token totals are summed over the steps; the cost
    /// total is set only when every agent step reported a cost. `extra` goes
    /// to `final_metrics.extra`.
    pub fn finish(self, extra: Option<Extra>) -> Trajectory {
        let metrics: Vec<&Metrics> = self.steps.iter().filter_map(|s| s.metrics.as_ref()).collect();
        let sum = |field: fn(&Metrics) -> Option<i64>| {
            (!metrics.is_empty()).then(|| metrics.iter().filter_map(|m| field(m)).sum())
        };
        let total_cost_usd = metrics.iter().map(|m| m.cost_usd).sum::<Option<f64>>().filter(|_| !metrics.is_empty());
        let final_metrics = FinalMetrics {
            total_prompt_tokens: sum(|m| m.prompt_tokens),
            total_completion_tokens: sum(|m| m.completion_tokens),
            total_cached_tokens: sum(|m| m.cached_tokens),
            total_cost_usd,
            total_steps: Some(self.steps.len() as u64),
            extra,
        };
        Trajectory {
            schema_version: SCHEMA_VERSION.to_owned(),
            session_id: Some(self.session_id),
            trajectory_id: None,
            agent: self.agent,
            steps: self.steps,
            notes: None,
            final_metrics: Some(final_metrics),
            continued_trajectory_ref: None,
            extra: None,
            subagent_trajectories: None,
        }
    }

    /// A bare step numbered after the recorded ones.
    fn next_step(&self, source: StepSource, message: Content, timestamp: OffsetDateTime) -> Step {
        Step {
            step_id: self.steps.len() as u64 + 1,
            timestamp: Some(rfc3339(timestamp)),
            source,
            model_name: None,
            reasoning_effort: None,
            message,
            reasoning_content: None,
            tool_calls: None,
            observation: None,
            metrics: None,
            is_copied_context: None,
            llm_call_count: None,
            extra: None,
        }
    }

    fn push(&mut self, step: Step) -> u64 {
        let step_id = step.step_id;
        self.steps.push(step);
        step_id
    }
}

fn object_arguments(arguments: Value) -> Extra {
    match arguments {
        Value::Object(map) => map,
        other => Map::from_iter([("input".to_owned(), other)]),
    }
}

/// RFC 3339 in UTC, e.g. `2026-05-01T12:00:00.5Z`.
fn rfc3339(timestamp: OffsetDateTime) -> String {
    let utc = timestamp.to_offset(UtcOffset::UTC);
    // Formatting fails only for years outside 0..=9999; fall back to the
    // Display form, which validation then flags.
    utc.format(&Rfc3339).unwrap_or_else(|_| utc.to_string())
}
