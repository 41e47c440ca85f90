//! One task as read from a writer's answer, before its leakage is measured, and the checks every
//! kind's reader shares.

use skillscope_tasks::TaskVerifier;

/// One task read from an answer, before its leakage is measured.
pub(crate) struct Item {
    /// Shown after the task's number in its name (a title, a gap), if anything.
    pub label: Option<String>,
    pub instruction: String,
    pub verifier: TaskVerifier,
    pub reference_solution: Option<String>,
}

/// The array `key` of an answer, each element read by `item` (with its 1-based number).
pub(crate) fn each<T: serde::de::DeserializeOwned>(
    json: serde_json::Value,
    key: &str,
    item: impl Fn(usize, T) -> Result<Item, String>,
) -> Result<Vec<Item>, String> {
    let list =
        json.get(key).and_then(|v| v.as_array()).ok_or_else(|| format!("the model's answer has no `{key}` list"))?;
    list.iter()
        .enumerate()
        .map(|(i, v)| {
            let t = serde_json::from_value(v.clone()).map_err(|e| format!("task {}: {e}", i + 1))?;
            item(i + 1, t)
        })
        .collect()
}

/// The trimmed, non-empty lines of `list`, 1 to [`MAX_EXPECTATIONS`] of them, for task `n`.
pub(crate) fn expectations(n: usize, list: &[String]) -> Result<Vec<String>, String> {
    let kept: Vec<String> = list.iter().map(|e| e.trim().to_string()).filter(|e| !e.is_empty()).collect();
    if kept.is_empty() || kept.len() > MAX_EXPECTATIONS {
        return Err(format!("task {n} has {} expectation(s); 1 to {MAX_EXPECTATIONS} are needed", kept.len()));
    }
    Ok(kept)
}

const MAX_EXPECTATIONS: usize = 8;

/// `text` trimmed, or None when blank.
pub(crate) fn filled(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty())
}
