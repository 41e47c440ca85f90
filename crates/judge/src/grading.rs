//! Grading a run's expectations: what the judge is asked (its prompt version's grading prompt, the
//! task and a transcript of the run) and how its answer is checked. The call belongs to the caller.
//! An expectation passes only with a quote found in the transcript the judge was shown; an answer
//! that is not the JSON asked for, or grades other expectations than asked, is unusable.

use serde::{Deserialize, Serialize};
use skillscope_answers::{find_quote, json_object};
use skillscope_atif::{StepSource, Trajectory};
use ts_rs::TS;

/// Transcript characters shown: the start and, mostly, the end (where results and answers are).
const HEAD_CHARS: usize = 20_000;
const TAIL_CHARS: usize = 60_000;
/// A tool result longer than this is cut in the transcript.
const RESULT_CHARS: usize = 4_000;
const MAX_QUOTE_CHARS: usize = 300;

/// One expectation as graded: the judge's verdict, its quote, and why a pass was refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct GradedExpectation {
    pub text: String,
    pub passed: bool,
    /// The judge's quote from the transcript.
    pub evidence: String,
    /// Set when the judge's pass was not accepted (its quote is not in the transcript).
    pub refused: Option<String>,
}

/// A usable grading: each expectation, and the pass ratio.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Graded {
    pub expectations: Vec<GradedExpectation>,
    /// Passed expectations / all expectations, in [0, 1].
    pub score: f64,
}

/// A run prepared for grading.
pub struct Grading {
    expectations: Vec<String>,
    transcript: String,
    user: String,
}

fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}… [cut: {} more characters]", &s[..i], s[i..].chars().count()),
        None => s.to_string(),
    }
}

/// The run as the judge reads it: each agent message, tool call (its arguments as JSON) and tool
/// result, in order; long results cut, and the middle of a very long run left out (said so).
pub fn transcript(trajectory: &Trajectory) -> String {
    let mut out = String::new();
    for step in trajectory.steps.iter().filter(|s| s.source == StepSource::Agent) {
        let text = step.message.text();
        if !text.trim().is_empty() {
            out.push_str(&format!("[agent] {text}\n"));
        }
        for call in step.tool_calls.iter().flatten() {
            out.push_str(&format!(
                "[call {}] {}\n",
                call.function_name,
                serde_json::Value::Object(call.arguments.clone())
            ));
        }
        for r in step.observation.iter().flat_map(|o| &o.results) {
            if let Some(c) = &r.content {
                out.push_str(&format!("[result] {}\n", cut(&c.text(), RESULT_CHARS)));
            }
        }
    }
    let chars = out.chars().count();
    if chars <= HEAD_CHARS + TAIL_CHARS {
        return out;
    }
    let head: String = out.chars().take(HEAD_CHARS).collect();
    let tail: String = out.chars().skip(chars - TAIL_CHARS).collect();
    format!("{head}\n[… {} characters of the run left out …]\n{tail}", chars - HEAD_CHARS - TAIL_CHARS)
}

/// What is graded: the case's expectations, or, when it has none, agreement with its expected
/// output.
pub fn expectations(expectations: &[String], expected_output: Option<&str>) -> Vec<String> {
    match (expectations.is_empty(), expected_output) {
        (false, _) => expectations.to_vec(),
        (true, Some(out)) => vec![format!("The result agrees with the expected output: {out}")],
        (true, None) => Vec::new(),
    }
}

#[derive(Deserialize)]
struct Answer {
    expectations: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    text: String,
    passed: bool,
    #[serde(default)]
    evidence: String,
}

impl Grading {
    /// `expectations` (see [`expectations`]) of a run of `instruction` shown as `transcript`.
    pub fn prepare(instruction: &str, expectations: Vec<String>, transcript: String) -> Grading {
        let list: String = expectations.iter().enumerate().map(|(i, e)| format!("{}. {e}\n", i + 1)).collect();
        let user = format!(
            "## Task given to the agent\n\n{instruction}\n\n## Expectations\n\n{list}\n## Transcript of the run\n\n{transcript}"
        );
        Grading { expectations, transcript, user }
    }

    pub fn user(&self) -> &str {
        &self.user
    }

    /// The verdicts in `answer`, checked; `Err` says why the answer cannot be used.
    pub fn check_answer(&self, answer: &str) -> Result<Graded, String> {
        let parsed: Answer = serde_json::from_str(json_object(answer))
            .map_err(|e| format!("the judge's answer is not the JSON asked for ({e})"))?;
        if parsed.expectations.len() != self.expectations.len() {
            return Err(format!(
                "the judge graded {} expectation(s), {} were asked",
                parsed.expectations.len(),
                self.expectations.len()
            ));
        }
        let mut graded = Vec::new();
        for (asked, item) in self.expectations.iter().zip(parsed.expectations) {
            if !item.text.trim().is_empty() && item.text.trim() != asked.trim() {
                return Err(format!("the judge graded {:?} where {:?} was asked", item.text, asked));
            }
            let quote = item.evidence.trim();
            let refused = match () {
                _ if !item.passed => None,
                _ if quote.is_empty() => Some("a pass without a quote".to_string()),
                _ if quote.chars().count() > MAX_QUOTE_CHARS => {
                    Some(format!("a quote over {MAX_QUOTE_CHARS} characters"))
                }
                _ if find_quote(&self.transcript, quote).is_none() => {
                    Some("the quote is not in the transcript of the run".to_string())
                }
                _ => None,
            };
            graded.push(GradedExpectation {
                text: asked.clone(),
                passed: item.passed && refused.is_none(),
                evidence: item.evidence,
                refused,
            });
        }
        let passed = graded.iter().filter(|g| g.passed).count();
        let score = if graded.is_empty() { 0.0 } else { passed as f64 / graded.len() as f64 };
        Ok(Graded { expectations: graded, score })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRANSCRIPT: &str = "[call bash] {\"command\":\"cat summary.md\"}\n[result] Rows: 3\nTotal units: 20\nTotal revenue: 530\n[agent] Done.\n";

    fn grading() -> Grading {
        let asked = vec!["summary.md states 3 rows".to_string(), "summary.md totals revenue as 530".to_string()];
        Grading::prepare("Summarise sales.csv", asked, TRANSCRIPT.to_string())
    }

    fn answer(items: &[(&str, bool, &str)]) -> String {
        let items: Vec<_> =
            items.iter().map(|(t, p, e)| serde_json::json!({"text": t, "passed": p, "evidence": e})).collect();
        format!("Here you go:\n```json\n{}\n```", serde_json::json!({ "expectations": items }))
    }

    #[test]
    fn quoted_passes_count_and_the_ratio_is_passed_over_total() {
        let g = grading()
            .check_answer(&answer(&[
                ("summary.md states 3 rows", true, "Rows: 3"),
                ("summary.md totals revenue as 530", false, ""),
            ]))
            .unwrap();
        assert_eq!(g.score, 0.5);
        assert_eq!((g.expectations[0].passed, g.expectations[0].refused.as_deref()), (true, None));
        // Re-wrapped whitespace is still the same passage.
        let g = grading()
            .check_answer(&answer(&[
                ("summary.md states 3 rows", true, "Rows: 3 Total units: 20"),
                ("summary.md totals revenue as 530", true, "Total revenue: 530"),
            ]))
            .unwrap();
        assert_eq!(g.score, 1.0);
    }

    #[test]
    fn an_invented_or_missing_quote_fails_its_expectation() {
        let g = grading()
            .check_answer(&answer(&[
                ("summary.md states 3 rows", true, "Rows: 4"),
                ("summary.md totals revenue as 530", true, ""),
            ]))
            .unwrap();
        assert_eq!(g.score, 0.0);
        assert_eq!(g.expectations[0].refused.as_deref(), Some("the quote is not in the transcript of the run"));
        assert_eq!(g.expectations[1].refused.as_deref(), Some("a pass without a quote"));
    }

    #[test]
    fn unusable_answers_say_why() {
        let g = grading();
        assert!(g
            .check_answer("I cannot help with grading.")
            .unwrap_err()
            .starts_with("the judge's answer is not the JSON"));
        assert_eq!(
            g.check_answer(&answer(&[("summary.md states 3 rows", true, "Rows: 3")])).unwrap_err(),
            "the judge graded 1 expectation(s), 2 were asked"
        );
        let swapped = answer(&[
            ("summary.md totals revenue as 530", true, "Rows: 3"),
            ("summary.md states 3 rows", true, "Rows: 3"),
        ]);
        assert!(g.check_answer(&swapped).unwrap_err().contains("where \"summary.md states 3 rows\" was asked"));
    }

    #[test]
    fn the_expected_output_stands_in_for_missing_expectations() {
        assert_eq!(expectations(&[], Some("530")), ["The result agrees with the expected output: 530"]);
        assert!(expectations(&[], None).is_empty());
    }
}
