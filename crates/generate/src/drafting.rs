//! Drafting tasks from a skill: what the model is asked (the kind's prompt, the skill's name,
//! description and SKILL.md, the repository when there is one, and how many tasks) and how its
//! answer is checked. The call belongs to the caller. Every draft's instruction has its leakage
//! measured against the SKILL.md body; the kind's module reads the answer's items.

use crate::items::Item;
use crate::kind::DraftKind;
use crate::leakage::{leakage, Leakage};
use crate::{evals, requirements, scenarios};
use serde::{Deserialize, Serialize};
use skillscope_answers::json_object;
use skillscope_tasks::evals::{DEFAULT_AGENT_TIMEOUT_SECS, DEFAULT_VERIFIER_TIMEOUT_SECS};
use skillscope_tasks::{TaskEnvironment, TaskSource, TaskSourceKind, TaskSpec};
use ts_rs::TS;

/// SKILL.md characters shown to the model; a longer one is cut, and the prompt says so.
const SKILL_CHARS: usize = 40_000;
/// Characters of the skill's other files shown to the model.
const OTHER_CHARS: usize = 20_000;
/// The most tasks one request may ask for.
pub const MAX_COUNT: u32 = 20;

/// A drafted task, with its leakage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Draft {
    pub task: TaskSpec,
    pub leakage: Leakage,
}

/// The skill a request drafts from.
pub struct Skill<'a> {
    pub name: &'a str,
    pub description: &'a str,
    /// The SKILL.md text.
    pub body: &'a str,
    /// The skill's other files (references, scripts, assets).
    pub others: &'a [skillscope_tasks::TaskFile],
}

/// Where the drafted tasks run: the environment every draft gets, and what the model is shown of
/// it (a repository's files), if anything.
#[derive(Default)]
pub struct Setting {
    pub environment: TaskEnvironment,
    pub shown: Option<String>,
}

/// A skill prepared for drafting `count` tasks of one kind.
pub struct Drafting {
    kind: DraftKind,
    skill: String,
    body: String,
    count: u32,
    user: String,
    environment: TaskEnvironment,
}

impl Drafting {
    /// `count` tasks (1 to [`MAX_COUNT`]) of `kind` for `skill`, set in `setting`.
    pub fn prepare(kind: DraftKind, skill: &Skill, count: u32, setting: Setting) -> Result<Drafting, String> {
        if count == 0 || count > MAX_COUNT {
            return Err(format!("ask for 1 to {MAX_COUNT} tasks, not {count}"));
        }
        let shown: String = skill.body.chars().take(SKILL_CHARS).collect();
        let cut = if shown.len() < skill.body.len() { "\n[… the rest of SKILL.md left out …]" } else { "" };
        let others = if skill.others.is_empty() {
            String::new()
        } else {
            format!("\n\n## The skill's other files\n\n{}", crate::listing::show(skill.others, OTHER_CHARS))
        };
        let repository = setting.shown.map(|r| format!("\n\n## Repository\n\n{r}")).unwrap_or_default();
        let user = format!(
            "Write {count} task(s).\n\n## Skill\n\nName: {}\nDescription: {}\n\n## SKILL.md\n\n{shown}{cut}{others}{repository}",
            skill.name, skill.description
        );
        Ok(Drafting {
            kind,
            skill: skill.name.into(),
            body: skill.body.into(),
            count,
            user,
            environment: setting.environment,
        })
    }

    pub fn kind(&self) -> DraftKind {
        self.kind
    }

    pub fn system(&self) -> &'static str {
        self.kind.prompt().text
    }

    pub fn user(&self) -> &str {
        &self.user
    }

    /// The drafts in `answer`, each a task with its leakage, from `source` (who drafted it);
    /// `Err` says why the answer cannot be used.
    pub fn check_answer(&self, answer: &str, source: &str) -> Result<Vec<Draft>, String> {
        let json: serde_json::Value = serde_json::from_str(json_object(answer))
            .map_err(|e| format!("the model's answer is not the JSON asked for ({e})"))?;
        let items = match self.kind {
            DraftKind::Evals => evals::items(json),
            DraftKind::Scenarios => scenarios::items(json),
            DraftKind::Requirements => requirements::items(json),
        }?;
        if items.len() != self.count as usize {
            return Err(format!("the model wrote {} task(s), {} were asked", items.len(), self.count));
        }
        Ok(items.into_iter().enumerate().map(|(i, item)| self.draft(i + 1, item, source)).collect())
    }

    fn draft(&self, n: usize, item: Item, source: &str) -> Draft {
        let leakage = leakage(&item.instruction, &self.body);
        let warnings = crate::leakage::warning(&leakage).into_iter().collect();
        let (noun, tag) = self.kind.noun_and_tag();
        let name = match &item.label {
            Some(label) => format!("{} {noun} #{n}: {label}", self.skill),
            None => format!("{} {noun} #{n}", self.skill),
        };
        let task = TaskSpec {
            id: format!("{}#{tag}-{n}", self.skill),
            name,
            source: TaskSource { kind: TaskSourceKind::Generated, path: source.into() },
            instruction: item.instruction,
            environment: self.environment.clone(),
            verifier: item.verifier,
            agent_timeout_secs: DEFAULT_AGENT_TIMEOUT_SECS,
            verifier_timeout_secs: DEFAULT_VERIFIER_TIMEOUT_SECS,
            verifier_in_place: false,
            run_as_root: false,
            reference_solution: item.reference_solution,
            warnings,
        };
        Draft { task, leakage }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillscope_tasks::TaskVerifier;

    const BODY: &str = "# CSV summary\n\nAlways count the data rows without the header line, then total the units and the revenue columns and write them as Rows, Total units and Total revenue lines in summary.md.";
    const SKILL: Skill = Skill { name: "csv-summary", description: "Summarise CSV files", body: BODY, others: &[] };

    fn answer(key: &str, items: serde_json::Value) -> String {
        format!("Here they are:\n```json\n{}\n```", serde_json::json!({ key: items }))
    }

    fn prepare(kind: DraftKind, count: u32) -> Drafting {
        Drafting::prepare(kind, &SKILL, count, Setting::default()).unwrap()
    }

    #[test]
    fn good_evals_become_judged_tasks_and_a_leaky_one_is_flagged() {
        let d = prepare(DraftKind::Evals, 2);
        assert!(d.user().starts_with("Write 2 task(s).") && !d.user().contains("## Repository"));
        let others = [skillscope_tasks::TaskFile::new("references/format.md", "Rows first.")];
        let with_files = Skill { others: &others, ..SKILL };
        let d2 = Drafting::prepare(DraftKind::Evals, &with_files, 1, Setting::default()).unwrap();
        assert!(d2.user().contains("## The skill's other files\n\nFiles:\n- references/format.md (11 bytes)\n"));
        assert!(d2.user().contains("### references/format.md\n\n```\nRows first.\n```"));
        let drafts = d
            .check_answer(
                &answer("evals", serde_json::json!([
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
        let d = prepare(DraftKind::Evals, 1);
        assert!(d.check_answer("I'd rather not.", "x").unwrap_err().starts_with("the model's answer is not the JSON"));
        let two = answer(
            "evals",
            serde_json::json!([{"prompt": "a", "expectations": ["e"]}, {"prompt": "b", "expectations": ["e"]}]),
        );
        assert_eq!(d.check_answer(&two, "x").unwrap_err(), "the model wrote 2 task(s), 1 were asked");
        let none = answer("evals", serde_json::json!([{"prompt": "a", "expectations": []}]));
        assert_eq!(d.check_answer(&none, "x").unwrap_err(), "task 1 has 0 expectation(s); 1 to 8 are needed");
        let wrong_kind = answer("scenarios", serde_json::json!([]));
        assert_eq!(d.check_answer(&wrong_kind, "x").unwrap_err(), "the model's answer has no `evals` list");
        let err = Drafting::prepare(DraftKind::Evals, &SKILL, 0, Setting::default()).err().unwrap();
        assert_eq!(err, "ask for 1 to 20 tasks, not 0");
        for kind in DraftKind::ALL {
            assert_eq!(kind.prompt().sha256().len(), 64);
        }
    }

    #[test]
    fn scenarios_name_their_gap_and_need_one() {
        let d = prepare(DraftKind::Scenarios, 1);
        let good = answer(
            "scenarios",
            serde_json::json!([{"gap": "Counts the header as a data row",
            "prompt": "How many orders are in orders.csv?", "expectations": ["Says 3 orders"]}]),
        );
        let drafts = d.check_answer(&good, "x").unwrap();
        let t = &drafts[0].task;
        assert_eq!(
            (t.id.as_str(), t.name.as_str()),
            ("csv-summary#scn-1", "csv-summary scenario #1: Counts the header as a data row")
        );
        assert!(
            matches!(&t.verifier, TaskVerifier::NeedsJudge { expectations, .. } if expectations == &["Says 3 orders"])
        );
        // A scenario a script can check gets a reward script and its reference solution instead.
        let scripted = answer(
            "scenarios",
            serde_json::json!([{"gap": "g", "prompt": "Write total.txt",
            "reward_script": "grep -qx 530 total.txt && echo '{\"score\": 1}' || echo '{\"score\": 0}'",
            "solution": "echo 530 > total.txt"}]),
        );
        let t = d.check_answer(&scripted, "x").unwrap().remove(0).task;
        assert!(
            matches!(&t.verifier, TaskVerifier::JsonScoreCommand { command } if command.starts_with("grep -qx 530"))
        );
        assert_eq!(t.reference_solution.as_deref(), Some("echo 530 > total.txt"));
        let gapless = answer("scenarios", serde_json::json!([{"prompt": "p", "expectations": ["e"]}]));
        assert_eq!(
            d.check_answer(&gapless, "x").unwrap_err(),
            "scenario 1 names no gap of the agent without the skill"
        );
    }

    const DOC: &str = "# Task: Add a median\n\n## Background\nstats.py has mean().\n\n## Files to Create/Modify\n- `stats.py` (modify)\n\n## Requirements\nAdd median(values).\n\n## Acceptance Criteria\n- median([3, 1, 2]) is 2\n";
    const TESTS: &str = "from stats import median\n\ndef test_odd():\n    \"\"\"Odd length.\"\"\"\n    assert median([3, 1, 2]) == 2\n\ndef test_even():\n    \"\"\"Even length.\"\"\"\n    assert median([1, 2, 3, 4]) == 2.5\n\nclass TestOne:\n    def test_one(self):\n        \"\"\"One value.\"\"\"\n        assert median([5]) == 5\n";

    #[test]
    fn requirement_documents_get_their_pytest_file_and_reference_solution() {
        let env = TaskEnvironment { image: Some("img".into()), ..TaskEnvironment::default() };
        let setting = Setting { environment: env.clone(), shown: Some("Files:\n- stats.py".into()) };
        let d = Drafting::prepare(DraftKind::Requirements, &SKILL, 1, setting).unwrap();
        assert!(d.user().ends_with("## Repository\n\nFiles:\n- stats.py"));
        let good = answer(
            "tasks",
            serde_json::json!([{"document": DOC, "tests": TESTS, "solution": "cat >> stats.py <<'EOF'\n...\nEOF"}]),
        );
        let t = d.check_answer(&good, "x").unwrap().remove(0).task;
        assert_eq!((t.id.as_str(), t.name.as_str()), ("csv-summary#req-1", "csv-summary requirement #1: Add a median"));
        assert_eq!((t.instruction.as_str(), &t.environment), (DOC.trim(), &env));
        assert!(t.reference_solution.as_deref().unwrap().starts_with("cat >> stats.py"));
        let TaskVerifier::Pytest { test_files, tests_dir, .. } = &t.verifier else { panic!("{:?}", t.verifier) };
        assert_eq!((test_files[0].path.as_str(), tests_dir.as_str()), ("test_requirement.py", "/skillscope-tests"));

        let few = answer(
            "tasks",
            serde_json::json!([{"document": DOC, "tests": "def test_a():\n    pass\ndef helper_test():\n    pass\n"}]),
        );
        assert_eq!(
            d.check_answer(&few, "x").unwrap_err(),
            "requirement 1's pytest file has 1 test function(s); at least 3 are needed"
        );
        let no_files = DOC.replace("## Files to Create/Modify\n- `stats.py` (modify)\n\n", "");
        let missing = answer("tasks", serde_json::json!([{"document": no_files, "tests": TESTS}]));
        assert_eq!(
            d.check_answer(&missing, "x").unwrap_err(),
            "requirement 1 has no `## Files to Create/Modify` section (or it is empty)"
        );
        let untitled = answer("tasks", serde_json::json!([{"document": "## Background\nx", "tests": TESTS}]));
        assert_eq!(d.check_answer(&untitled, "x").unwrap_err(), "requirement 1: no `# Task:` title");
    }
}
