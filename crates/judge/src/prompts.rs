//! The judge's prompt versions. A judge is asked with one set, chosen with its model; every
//! verdict records the version and hash of the prompt it answered. v1 asks for the verdict with
//! its quote; v2 asks for the evidence first (tool results over the agent's own claims) and, when
//! comparing, for the reason before the verdict, criterion by criterion. Both answer in the same
//! JSON shape, so both are checked alike.

use serde::{Deserialize, Serialize};
use skillscope_answers::Prompt;
use ts_rs::TS;

const GRADE_V1: Prompt =
    Prompt { version: "grade-expectations-v1", text: include_str!("../prompts/grade-expectations-v1.md") };
const GRADE_V2: Prompt =
    Prompt { version: "grade-expectations-v2", text: include_str!("../prompts/grade-expectations-v2.md") };
const PREFER_V1: Prompt = Prompt { version: "prefer-v1", text: include_str!("../prompts/prefer-v1.md") };
const PREFER_V2: Prompt = Prompt { version: "prefer-v2", text: include_str!("../prompts/prefer-v2.md") };

/// Which version of the grading and comparing prompts a judge is asked with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum PromptSet {
    /// Verdict with a quote (the first version; judges recorded before versions could be chosen
    /// used it).
    #[default]
    V1,
    /// Evidence first, tool results over the agent's claims; comparison reasoned before its verdict.
    V2,
}

impl PromptSet {
    pub const ALL: [PromptSet; 2] = [PromptSet::V1, PromptSet::V2];

    /// Grading expectations (ACES's rubrics are asked as expectations too).
    pub fn grading(self) -> &'static Prompt {
        match self {
            PromptSet::V1 => &GRADE_V1,
            PromptSet::V2 => &GRADE_V2,
        }
    }

    /// Comparing the two arms of a pair.
    pub fn preference(self) -> &'static Prompt {
        match self {
            PromptSet::V1 => &PREFER_V1,
            PromptSet::V2 => &PREFER_V2,
        }
    }

    /// The name the CLI takes and prints.
    pub fn name(self) -> &'static str {
        match self {
            PromptSet::V1 => "v1",
            PromptSet::V2 => "v2",
        }
    }

    pub fn parse(name: &str) -> Option<PromptSet> {
        PromptSet::ALL.into_iter().find(|p| p.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_version_has_its_own_prompts_and_hashes() {
        let hashes: std::collections::HashSet<String> =
            PromptSet::ALL.iter().flat_map(|p| [p.grading().sha256(), p.preference().sha256()]).collect();
        assert_eq!(hashes.len(), 4);
        assert_eq!(PromptSet::V2.grading().version, "grade-expectations-v2");
        assert_eq!(PromptSet::parse("v2"), Some(PromptSet::V2));
        assert_eq!(PromptSet::parse("v3"), None);
        // A judge stored before versions could be chosen reads as v1.
        let old: crate::Judge = serde_json::from_str(r#"{"provider":"p","model":"m"}"#).unwrap();
        assert_eq!(old.prompts, PromptSet::V1);
    }
}
