//! Harbor reward files and JSON score lines.

use super::{in_range, tail, Score, ScoreError};
use serde_json::{Map, Value};

/// The Harbor report: either the framed file the plan writes
/// (`--- reward.json` / `--- reward.txt` sections) or the raw contents of one
/// reward file.
fn split_report(text: &str) -> (Option<String>, Option<String>) {
    if !text.starts_with("--- reward.") {
        return if text.trim_start().starts_with('{') {
            (Some(text.to_string()), None)
        } else {
            (None, Some(text.to_string()))
        };
    }
    let (mut json, mut txt) = (None::<String>, None::<String>);
    let mut in_json = false;
    for line in text.lines() {
        match line {
            "--- reward.json" => {
                json = Some(String::new());
                in_json = true;
            }
            "--- reward.txt" => {
                txt = Some(String::new());
                in_json = false;
            }
            _ => {
                let buf = if in_json { &mut json } else { &mut txt };
                if let Some(buf) = buf {
                    buf.push_str(line);
                    buf.push('\n');
                }
            }
        }
    }
    (json, txt)
}

pub(super) fn score_harbor(exit_code: Option<i64>, stdout: &str, report: Option<&[u8]>) -> Result<Score, ScoreError> {
    let missing = || {
        let code = exit_code.map_or("unknown".into(), |c| c.to_string());
        ScoreError::MissingReport(format!(
            "tests/test.sh (exit {code}) wrote neither /logs/verifier/reward.json nor reward.txt: {}",
            tail(stdout, 400)
        ))
    };
    let report = report.ok_or_else(missing)?;
    let text = std::str::from_utf8(report).map_err(|_| ScoreError::BadReport("reward file is not UTF-8".into()))?;
    let (json, txt) = split_report(text);
    if json.is_none() && txt.as_deref().is_none_or(|t| t.trim().is_empty()) {
        return Err(missing());
    }
    let exit_note = match exit_code {
        Some(c) if c != 0 => format!(" (test.sh exited {c})"),
        _ => String::new(),
    };
    if let Some(json) = json {
        match reward_from_json(&json)? {
            JsonReward::Value(key, v) => {
                let v = in_range(&format!("reward.json `{key}`"), v)?;
                return Ok(Score::plain(v, format!("reward.json `{key}` = {v}{exit_note}")));
            }
            JsonReward::Ambiguous(keys) => {
                if txt.is_none() {
                    return Err(ScoreError::BadReport(format!(
                        "reward.json has {} named rewards ({}) and no `reward` key, and there is no reward.txt; \
                         Harbor's default mean metric also needs exactly one",
                        keys.len(),
                        keys.join(", ")
                    )));
                }
            }
        }
    }
    let txt = txt.unwrap_or_default();
    let t = txt.trim();
    let v: f64 =
        t.parse().map_err(|_| ScoreError::BadReport(format!("reward.txt holds `{}`, not a number", tail(t, 80))))?;
    let v = in_range("reward.txt", v)?;
    Ok(Score::plain(v, format!("reward.txt = {v}{exit_note}")))
}

enum JsonReward {
    Value(String, f64),
    /// Several numeric rewards, none named `reward`.
    Ambiguous(Vec<String>),
}

fn reward_from_json(text: &str) -> Result<JsonReward, ScoreError> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| ScoreError::BadReport(format!("reward.json is not JSON: {e}")))?;
    let Value::Object(map) = v else {
        return Err(ScoreError::BadReport("reward.json is not a JSON object".into()));
    };
    if let Some(r) = map.get("reward") {
        return number(r)
            .map(|n| JsonReward::Value("reward".into(), n))
            .ok_or_else(|| ScoreError::BadReport("reward.json `reward` is not a number".into()));
    }
    let numeric: Vec<(&String, f64)> = map.iter().filter_map(|(k, v)| number(v).map(|n| (k, n))).collect();
    match numeric.as_slice() {
        [] => Err(ScoreError::BadReport("reward.json holds no numeric reward".into())),
        [(k, n)] if map.len() == 1 => Ok(JsonReward::Value((*k).clone(), *n)),
        _ => Ok(JsonReward::Ambiguous(map.keys().cloned().collect())),
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        _ => None,
    }
}

pub(super) fn score_json_stdout(exit_code: Option<i64>, stdout: &str) -> Result<Score, ScoreError> {
    let found = stdout.lines().rev().find_map(|l| {
        let l = l.trim();
        if !l.starts_with('{') {
            return None;
        }
        serde_json::from_str::<Map<String, Value>>(l).ok()
    });
    let Some(obj) = found else {
        let code = exit_code.map_or("unknown".into(), |c| c.to_string());
        return Err(ScoreError::MissingReport(format!(
            "the score command (exit {code}) printed no JSON object line: {}",
            tail(stdout, 400)
        )));
    };
    let value = obj
        .get("score")
        .and_then(number)
        .ok_or_else(|| ScoreError::BadReport("the last JSON line has no numeric `score`".into()))?;
    let value = in_range("score", value)?;
    let count = |k: &str| -> Result<u32, ScoreError> {
        match obj.get(k) {
            None | Some(Value::Null) => Ok(0),
            Some(v) => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| ScoreError::BadReport(format!("`{k}` is not a count"))),
        }
    };
    let mut detail = format!("score command printed score {value}");
    if let Some(c) = exit_code.filter(|c| *c != 0) {
        detail.push_str(&format!(" (exited {c})"));
    }
    Ok(Score {
        value,
        passed: count("passed")?,
        failed: count("failed")?,
        skipped: count("skipped")?,
        errors: count("errors")?,
        detail,
        checks: Vec::new(),
    })
}
