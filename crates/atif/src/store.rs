//! Storage form of a trajectory (gzip-compressed JSON) and the rows of the
//! search index the database layer keeps (no database code here).

use std::io::Write;

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

use crate::model::{StepSource, Trajectory};

/// Longest text (in characters) an index row carries; longer text is cut
/// and ends with `…`.
pub const INDEX_TEXT_CHARS: usize = 2000;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("stored trajectory is not valid ATIF JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("cannot compress trajectory: {0}")]
    Io(#[from] std::io::Error),
}

/// The trajectory as gzip-compressed JSON.
pub fn compress(trajectory: &Trajectory) -> Result<Vec<u8>, StoreError> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    serde_json::to_writer(&mut encoder, trajectory)?;
    encoder.flush()?;
    Ok(encoder.finish()?)
}

/// Reads what [`compress`] wrote.
pub fn decompress(bytes: &[u8]) -> Result<Trajectory, StoreError> {
    Ok(serde_json::from_reader(GzDecoder::new(bytes))?)
}

/// One searchable row per step.
#[derive(Debug, Clone, PartialEq)]
pub struct StepIndexRow {
    pub step_id: u64,
    pub source: StepSource,
    /// The message text (image parts left out), truncated.
    pub text: String,
    pub tool_names: Vec<String>,
    /// Prompt plus completion tokens, when the step reports metrics.
    pub tokens: Option<i64>,
}

/// One searchable row per tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCallRow {
    pub step_id: u64,
    pub tool_call_id: String,
    pub function_name: String,
    /// The arguments as JSON, truncated.
    pub arguments: String,
    /// The text of the observation results answering this call (joined by
    /// newlines, truncated); `None` when the call got no result.
    pub result: Option<String>,
}

/// Index rows for the steps of the (root) trajectory.
pub fn index(trajectory: &Trajectory) -> Vec<StepIndexRow> {
    trajectory
        .steps
        .iter()
        .map(|step| StepIndexRow {
            step_id: step.step_id,
            source: step.source,
            text: truncate(&step.message.text()),
            tool_names: step
                .tool_calls
                .iter()
                .flatten()
                .map(|call| call.function_name.clone())
                .collect(),
            tokens: step.metrics.as_ref().and_then(|m| {
                (m.prompt_tokens.is_some() || m.completion_tokens.is_some())
                    .then(|| m.prompt_tokens.unwrap_or(0) + m.completion_tokens.unwrap_or(0))
            }),
        })
        .collect()
}

/// Index rows for the tool calls of the (root) trajectory, with their
/// results.
pub fn tool_call_rows(trajectory: &Trajectory) -> Vec<ToolCallRow> {
    let mut rows = Vec::new();
    for step in &trajectory.steps {
        let results = step.observation.iter().flat_map(|o| &o.results);
        for call in step.tool_calls.iter().flatten() {
            let texts: Vec<String> = results
                .clone()
                .filter(|r| r.source_call_id.as_deref() == Some(call.tool_call_id.as_str()))
                .filter_map(|r| r.content.as_ref().map(|c| c.text()))
                .collect();
            rows.push(ToolCallRow {
                step_id: step.step_id,
                tool_call_id: call.tool_call_id.clone(),
                function_name: call.function_name.clone(),
                arguments: truncate(&serde_json::Value::Object(call.arguments.clone()).to_string()),
                result: (!texts.is_empty()).then(|| truncate(&texts.join("\n"))),
            });
        }
    }
    rows
}

fn truncate(text: &str) -> String {
    if text.chars().count() <= INDEX_TEXT_CHARS {
        return text.to_owned();
    }
    let kept: String = text.chars().take(INDEX_TEXT_CHARS - 1).collect();
    format!("{kept}…")
}
