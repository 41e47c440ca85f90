//! The three kinds of task a model drafts from a skill, each with its own versioned prompt.

use serde::{Deserialize, Serialize};
use skillscope_answers::Prompt;
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum DraftKind {
    /// SWE-Skills-Bench requirement documents (four-field template), each scored by a generated
    /// pytest file and checked against a generated reference solution.
    Requirements,
    /// SkillAudit scenarios aimed at where an agent without the skill falls short, graded by a judge.
    Scenarios,
    /// skill-creator eval prompts with expectations, graded by a judge.
    #[default]
    Evals,
}

impl DraftKind {
    pub const ALL: [DraftKind; 3] = [DraftKind::Requirements, DraftKind::Scenarios, DraftKind::Evals];

    pub fn prompt(self) -> Prompt {
        match self {
            DraftKind::Requirements => {
                Prompt { version: "draft-requirements-v1", text: include_str!("../prompts/draft-requirements-v1.md") }
            }
            DraftKind::Scenarios => {
                Prompt { version: "draft-scenarios-v1", text: include_str!("../prompts/draft-scenarios-v1.md") }
            }
            DraftKind::Evals => {
                Prompt { version: "draft-evals-v1", text: include_str!("../prompts/draft-evals-v1.md") }
            }
        }
    }

    /// How many a request asks for unless told: ten requirement documents per skill as
    /// SWE-Skills-Bench derives them, three scenarios as SkillAudit does, three eval prompts.
    pub fn default_count(self) -> u32 {
        match self {
            DraftKind::Requirements => 10,
            DraftKind::Scenarios | DraftKind::Evals => 3,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DraftKind::Requirements => "requirements",
            DraftKind::Scenarios => "scenarios",
            DraftKind::Evals => "evals",
        }
    }

    /// What one task of this kind is called in names, and its short tag in ids.
    pub(crate) fn noun_and_tag(self) -> (&'static str, &'static str) {
        match self {
            DraftKind::Requirements => ("requirement", "req"),
            DraftKind::Scenarios => ("scenario", "scn"),
            DraftKind::Evals => ("generated", "gen"),
        }
    }
}
