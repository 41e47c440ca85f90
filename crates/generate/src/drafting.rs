//! Drafting eval tasks from a skill: what the model is asked (`prompts/draft-evals-v1.md`, the
//! skill's name, description and SKILL.md, and how many tasks) and how its answer is checked. The
//! call belongs to the caller. Every draft becomes a task graded by a judge (skill-creator's
//! expectations), with its leakage measured against the SKILL.md body.

use crate::leakage::{leakage, Leakage};
use serde::{Deserialize, Serialize};
use skillscope_answers::{json_object, Prompt};
use skillscope_tasks::evals::{DEFAULT_AGENT_TIMEOUT_SECS, DEFAULT_VERIFIER_TIMEOUT_SECS};
use skillscope_tasks::model::DEFAULT_WORKDIR;
use skillscope_tasks::{TaskEnvironment, TaskSource, TaskSourceKind, TaskSpec, TaskVerifier};
use ts_rs::TS;

/// The prompt file; its text is part of the binary and its hash is recorded with each answer.
pub const PROMPT: Prompt = Prompt { version: "draft-evals-v1", text: include_str!("../prompts/draft-evals-v1.md") };
/// SKILL.md characters shown to the model; a longer one is cut, and the prompt says so.
const SKILL_CHARS: usize = 40_000;
/// The most tasks one request may ask for.
pub const MAX_COUNT: u32 = 20;
const MAX_EXPECTATIONS: usize = 8;

/// A drafted task, with its leakage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Draft {
    pub task: TaskSpec,
    pub leakage: Leakage,
}

/// A skill prepared for drafting `count` tasks.
pub struct Drafting {
    skill: String,
    body: String,
    count: u32,
    user: String,
}

#[derive(Deserialize)]
struct Answer {
    evals: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    prompt: String,
    #[serde(default)]
    expected_output: Option<String>,
    #[serde(default)]
    expectations: Vec<String>,
}

impl Drafting {
    /// `count` tasks (1 to [`MAX_COUNT`]) for skill `name`, described as `description`, whose
    /// SKILL.md body is `body`.
    pub fn prepare(name: &str, description: &str, body: &str, count: u32) -> Result<Drafting, String> {
        if count == 0 || count > MAX_COUNT {
            return Err(format!("ask for 1 to {MAX_COUNT} tasks, not {count}"));
        }
        let shown: String = body.chars().take(SKILL_CHARS).collect();
        let cut = if shown.len() < body.len() { "\n[… the rest of SKILL.md left out …]" } else { "" };
        let user = format!(
            "Write {count} task(s).\n\n## Skill\n\nName: {name}\nDescription: {description}\n\n## SKILL.md\n\n{shown}{cut}"
        );
        Ok(Drafting { skill: name.into(), body: body.into(), count, user })
    }

    pub fn system(&self) -> &str {
        PROMPT.text
    }

    pub fn user(&self) -> &str {
        &self.user
    }

    /// The drafts in `answer`, each a task with its leakage, from `source` (who drafted it);
    /// `Err` says why the answer cannot be used.
    pub fn check_answer(&self, answer: &str, source: &str) -> Result<Vec<Draft>, String> {
        let parsed: Answer = serde_json::from_str(json_object(answer))
            .map_err(|e| format!("the model's answer is not the JSON asked for ({e})"))?;
        if parsed.evals.len() != self.count as usize {
            return Err(format!("the model wrote {} task(s), {} were asked", parsed.evals.len(), self.count));
        }
        parsed.evals.into_iter().enumerate().map(|(i, item)| self.draft(i + 1, item, source)).collect()
    }

    fn draft(&self, n: usize, item: Item, source: &str) -> Result<Draft, String> {
        let prompt = item.prompt.trim();
        let expectations: Vec<String> =
            item.expectations.iter().map(|e| e.trim().to_string()).filter(|e| !e.is_empty()).collect();
        if prompt.is_empty() {
            return Err(format!("task {n} has no prompt"));
        }
        if expectations.is_empty() || expectations.len() > MAX_EXPECTATIONS {
            return Err(format!(
                "task {n} has {} expectation(s); 1 to {MAX_EXPECTATIONS} are needed",
                expectations.len()
            ));
        }
        let leakage = leakage(prompt, &self.body);
        let mut warnings = Vec::new();
        if leakage.flagged {
            let spans: Vec<String> = leakage.spans.iter().map(|s| format!("\"{}\"", s.text)).collect();
            warnings.push(format!(
                "leakage: {:.0}% of the instruction's words are in runs copied from SKILL.md (longest {} words): {}; review before approving",
                leakage.shared_share * 100.0,
                leakage.longest_span_words,
                spans.join(", ")
            ));
        }
        let task = TaskSpec {
            id: format!("{}#gen-{n}", self.skill),
            name: format!("{} generated #{n}", self.skill),
            source: TaskSource { kind: TaskSourceKind::Generated, path: source.into() },
            instruction: prompt.into(),
            environment: TaskEnvironment { workdir: Some(DEFAULT_WORKDIR.into()), ..TaskEnvironment::default() },
            verifier: TaskVerifier::NeedsJudge {
                expectations,
                expected_output: item.expected_output.map(|o| o.trim().to_string()).filter(|o| !o.is_empty()),
            },
            agent_timeout_secs: DEFAULT_AGENT_TIMEOUT_SECS,
            verifier_timeout_secs: DEFAULT_VERIFIER_TIMEOUT_SECS,
            verifier_in_place: false,
            run_as_root: false,
            warnings,
        };
        Ok(Draft { task, leakage })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "# CSV summary\n\nAlways count the data rows without the header line, then total the units and the revenue columns and write them as Rows, Total units and Total revenue lines in summary.md.";

    fn answer(items: serde_json::Value) -> String {
        format!("Here they are:\n```json\n{}\n```", serde_json::json!({ "evals": items }))
    }

    #[test]
    fn good_drafts_become_judged_tasks_and_a_leaky_one_is_flagged() {
        let d = Drafting::prepare("csv-summary", "Summarise CSV files", BODY, 2).unwrap();
        assert!(d.user().starts_with("Write 2 task(s)."));
        let drafts = d
            .check_answer(
                &answer(serde_json::json!([
                    {"prompt": "Summarise input/q3.csv for the finance team.", "expected_output": "Rows: 4",
                     "expectations": ["States 4 rows", " "]},
                    {"prompt": "Please count the data rows without the header line, then total the units and the revenue columns of q3.csv.",
                     "expectations": ["Totals the revenue"]}])),
                "drafted by p · m",
            )
            .unwrap();
        let t = &drafts[0].task;
        assert_eq!((t.id.as_str(), t.source.kind), ("csv-summary#gen-1", TaskSourceKind::Generated));
        assert_eq!(
            t.verifier,
            TaskVerifier::NeedsJudge {
                expectations: vec!["States 4 rows".into()],
                expected_output: Some("Rows: 4".into())
            }
        );
        assert!(!drafts[0].leakage.flagged && t.warnings.is_empty());
        assert!(drafts[1].leakage.flagged, "{:?}", drafts[1].leakage);
        assert!(drafts[1].task.warnings[0].starts_with("leakage: "));
    }

    #[test]
    fn malformed_and_unverifiable_answers_say_why() {
        let d = Drafting::prepare("s", "d", BODY, 1).unwrap();
        assert!(d.check_answer("I'd rather not.", "x").unwrap_err().starts_with("the model's answer is not the JSON"));
        let two =
            answer(serde_json::json!([{"prompt": "a", "expectations": ["e"]}, {"prompt": "b", "expectations": ["e"]}]));
        assert_eq!(d.check_answer(&two, "x").unwrap_err(), "the model wrote 2 task(s), 1 were asked");
        let none = answer(serde_json::json!([{"prompt": "a", "expectations": []}]));
        assert_eq!(d.check_answer(&none, "x").unwrap_err(), "task 1 has 0 expectation(s); 1 to 8 are needed");
        assert_eq!(Drafting::prepare("s", "d", BODY, 0).err().unwrap(), "ask for 1 to 20 tasks, not 0");
        assert_eq!(PROMPT.sha256().len(), 64);
    }
}
