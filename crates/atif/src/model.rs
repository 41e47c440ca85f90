//! Serde types for an ATIF v1.7 trajectory document (RFC 0001, Harbor).
//!
//! Field names match the ATIF JSON Schema exactly. Optional fields are
//! omitted when `None`; custom data lives in the `extra` objects the RFC
//! provides. Deserialisation is lenient about unknown fields (they are
//! reported by [`crate::validate`] instead) so that imported files with
//! violations can still be read.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

/// The schema version this crate writes.
pub const SCHEMA_VERSION: &str = "ATIF-v1.7";

/// Every `schema_version` the RFC lists (v1.0 through v1.7).
pub const KNOWN_SCHEMA_VERSIONS: [&str; 8] =
    ["ATIF-v1.0", "ATIF-v1.1", "ATIF-v1.2", "ATIF-v1.3", "ATIF-v1.4", "ATIF-v1.5", "ATIF-v1.6", "ATIF-v1.7"];

/// A free-form JSON object (`extra`, tool arguments, tool definitions).
pub type Extra = Map<String, Value>;

fn default_schema_version() -> String {
    SCHEMA_VERSION.to_owned()
}

/// Root of an ATIF document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifTrajectory", optional_fields)]
pub struct Trajectory {
    /// Required by the RFC; the Pydantic reference model defaults it, so a
    /// missing value reads as the current version (and is flagged by
    /// validation).
    #[serde(default = "default_schema_version")]
    pub schema_version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trajectory_id: Option<String>,
    pub agent: Agent,
    pub steps: Vec<Step>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_metrics: Option<FinalMetrics>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continued_trajectory_ref: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Record<string, unknown>")]
    pub extra: Option<Extra>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_trajectories: Option<Vec<Trajectory>>,
}

/// The agent system that produced the trajectory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifAgent", optional_fields)]
pub struct Agent {
    pub name: String,
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_name: Option<String>,
    /// OpenAI function-calling definitions (`{type, function}` objects).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Array<Record<string, unknown>>")]
    pub tool_definitions: Option<Vec<Extra>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Record<string, unknown>")]
    pub extra: Option<Extra>,
}

impl Agent {
    pub fn new(name: impl Into<String>, version: impl Into<String>, model_name: Option<String>) -> Self {
        Agent { name: name.into(), version: version.into(), model_name, tool_definitions: None, extra: None }
    }
}

/// Who originated a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export, rename = "AtifStepSource")]
pub enum StepSource {
    System,
    User,
    Agent,
}

impl StepSource {
    pub fn as_str(self) -> &'static str {
        match self {
            StepSource::System => "system",
            StepSource::User => "user",
            StepSource::Agent => "agent",
        }
    }
}

/// One interaction turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifStep", optional_fields)]
pub struct Step {
    pub step_id: u64,
    /// ISO 8601 / RFC 3339 timestamp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    pub source: StepSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_effort: Option<ReasoningEffort>,
    pub message: Content,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCall>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation: Option<Observation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<Metrics>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_copied_context: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm_call_count: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Record<string, unknown>")]
    pub extra: Option<Extra>,
}

/// `reasoning_effort`: a level such as `"low"` or a numeric score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(untagged)]
#[ts(export, rename = "AtifReasoningEffort")]
pub enum ReasoningEffort {
    Level(String),
    Score(f64),
}

/// A step message or observation content: plain text or multimodal parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(untagged)]
#[ts(export, rename = "AtifContent")]
pub enum Content {
    Text(String),
    Parts(Vec<ContentPart>),
}

impl Content {
    /// The text of the content; image parts are left out, text parts are
    /// joined with newlines.
    pub fn text(&self) -> String {
        match self {
            Content::Text(text) => text.clone(),
            Content::Parts(parts) => parts
                .iter()
                .filter_map(|part| match part {
                    ContentPart::Text { text } => Some(text.as_str()),
                    ContentPart::Image { .. } => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Content::Text(text.to_owned())
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Content::Text(text)
    }
}

/// One part of multimodal content (v1.6+).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "lowercase")]
#[ts(export, rename = "AtifContentPart")]
pub enum ContentPart {
    Text { text: String },
    Image { source: ImageSource },
}

/// An image stored next to the trajectory (or at a URL).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifImageSource")]
pub struct ImageSource {
    /// One of `image/jpeg`, `image/png`, `image/gif`, `image/webp`.
    pub media_type: String,
    pub path: String,
}

/// A structured tool or function invocation by the agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifToolCall", optional_fields)]
pub struct ToolCall {
    pub tool_call_id: String,
    pub function_name: String,
    #[ts(type = "Record<string, unknown>")]
    pub arguments: Extra,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Record<string, unknown>")]
    pub extra: Option<Extra>,
}

/// Environment feedback for a step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifObservation")]
pub struct Observation {
    pub results: Vec<ObservationResult>,
}

/// Feedback from one tool call or action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifObservationResult", optional_fields)]
pub struct ObservationResult {
    /// The `tool_call_id` (in the same step) this result answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Content>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_trajectory_ref: Option<Vec<SubagentTrajectoryRef>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Record<string, unknown>")]
    pub extra: Option<Extra>,
}

/// A pointer to a delegated subagent trajectory: embedded (`trajectory_id`)
/// or external (`trajectory_path`). `session_id` is informational only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifSubagentTrajectoryRef", optional_fields)]
pub struct SubagentTrajectoryRef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trajectory_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trajectory_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Record<string, unknown>")]
    pub extra: Option<Extra>,
}

/// LLM operational data for one agent step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifMetrics", optional_fields)]
pub struct Metrics {
    /// All input tokens, cached ones included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<i64>,
    /// The subset of `prompt_tokens` served from cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_tokens: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_token_ids: Option<Vec<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_token_ids: Option<Vec<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logprobs: Option<Vec<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Record<string, unknown>")]
    pub extra: Option<Extra>,
}

/// Aggregate statistics for the whole trajectory.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "AtifFinalMetrics", optional_fields)]
pub struct FinalMetrics {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_prompt_tokens: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_completion_tokens: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_cached_tokens: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_cost_usd: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_steps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Record<string, unknown>")]
    pub extra: Option<Extra>,
}
