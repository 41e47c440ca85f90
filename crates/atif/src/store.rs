//! Storage form of a trajectory and of its steps (gzip-compressed JSON) and
//! the per-step index rows the database layer keeps (no database code here).

use std::io::Write;

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::model::{Step, StepSource, Trajectory};

/// Longest search text (in characters) an index row keeps; a step's text
/// beyond it is not found by filtering.
pub const INDEX_TEXT_CHARS: usize = 65_536;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("stored trajectory is not valid ATIF JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("cannot compress trajectory: {0}")]
    Io(#[from] std::io::Error),
}

/// A trajectory (or one step of it) as gzip-compressed JSON. The fastest
/// level: storing a 50 MB trajectory takes a third of the time of the default
/// level, for slightly larger blobs.
pub fn compress<T: Serialize>(value: &T) -> Result<Vec<u8>, StoreError> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    serde_json::to_writer(&mut encoder, value)?;
    encoder.flush()?;
    Ok(encoder.finish()?)
}

/// Reads what [`compress`] wrote.
pub fn decompress<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, StoreError> {
    Ok(serde_json::from_reader(GzDecoder::new(bytes))?)
}

/// One row per step: what a viewer needs to find, time and align steps
/// without reading the whole trajectory.
#[derive(Debug, Clone, PartialEq)]
pub struct StepIndexRow {
    /// Index in the trajectory (step ids of imported files may repeat).
    pub position: u32,
    pub step_id: u64,
    pub source: StepSource,
    /// Everything a reader sees in the step (message, reasoning, tool names
    /// and arguments, outputs), lower-cased and truncated, for filtering.
    pub text: String,
    /// The timestamp in unix milliseconds, when the step has a readable one.
    pub at_ms: Option<i64>,
    /// SHA-256 of the calls made (names and arguments) and the outputs seen:
    /// equal signatures mean the agent did and saw the same (messages aside).
    pub signature: String,
}

/// Index rows for the steps of the (root) trajectory.
pub fn index(trajectory: &Trajectory) -> Vec<StepIndexRow> {
    trajectory
        .steps
        .iter()
        .enumerate()
        .map(|(position, step)| StepIndexRow {
            position: position as u32,
            step_id: step.step_id,
            source: step.source,
            text: truncate(&search_text(step).to_lowercase()),
            at_ms: step.timestamp.as_deref().and_then(unix_ms),
            signature: signature(step),
        })
        .collect()
}

/// The message, reasoning, each call (name and arguments) and each output.
fn search_text(step: &Step) -> String {
    let mut parts = vec![step.message.text()];
    parts.extend(step.reasoning_content.clone());
    for call in step.tool_calls.iter().flatten() {
        parts.push(call.function_name.clone());
        parts.push(Value::Object(call.arguments.clone()).to_string());
    }
    parts.extend(observation_texts(step));
    parts.join("\n")
}

fn observation_texts(step: &Step) -> impl Iterator<Item = String> + '_ {
    step.observation.iter().flat_map(|o| &o.results).map(|r| r.content.as_ref().map(|c| c.text()).unwrap_or_default())
}

/// Object keys serialise sorted (serde_json without `preserve_order`), so
/// equal arguments hash equal whatever their order in the file.
fn signature(step: &Step) -> String {
    let calls: Vec<(&str, Value)> = step
        .tool_calls
        .iter()
        .flatten()
        .map(|c| (c.function_name.as_str(), Value::Object(c.arguments.clone())))
        .collect();
    let seen: Vec<String> = observation_texts(step).collect();
    let canonical = serde_json::to_vec(&(calls, seen)).expect("plain JSON values serialise");
    hex::encode(Sha256::digest(canonical))
}

fn unix_ms(timestamp: &str) -> Option<i64> {
    let t = OffsetDateTime::parse(timestamp, &Rfc3339).ok()?;
    i64::try_from(t.unix_timestamp_nanos() / 1_000_000).ok()
}

fn truncate(text: &str) -> String {
    if text.chars().count() <= INDEX_TEXT_CHARS {
        return text.to_owned();
    }
    let kept: String = text.chars().take(INDEX_TEXT_CHARS - 1).collect();
    format!("{kept}…")
}
