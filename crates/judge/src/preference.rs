//! Pairwise preference: the judge compares the two arms of a pair (its prompt version's), once
//! with the without arm shown as A and once with it shown as B. Two answers naming the same arm
//! are a preference; answers that disagree are a tie. When the two answers named the same
//! position (A twice, or B twice) the judge followed position, not content: a position flip,
//! counted as the judge's bias.

use crate::call::{Asked, Session};
use serde::{Deserialize, Serialize};
use skillscope_answers::json_object;
use ts_rs::TS;

const MAX_REASON_CHARS: usize = 500;

/// Which arm the judge preferred, after both orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Preferred {
    With,
    Without,
    Tie,
}

/// One order's answer: the run shown first (A), second (B), or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Position {
    A,
    B,
    Tie,
}

/// Both orders' answers and what they add up to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Compared {
    pub preferred: Preferred,
    /// The answers disagreed by naming the same position both times.
    pub position_flip: bool,
    /// The answer with the without arm shown as A, and its reason.
    pub without_first: Position,
    pub without_first_reason: String,
    /// The answer with the with arm shown as A, and its reason.
    pub with_first: Position,
    pub with_first_reason: String,
}

/// A pair prepared for comparison: the task and both arms' transcripts.
pub struct Comparison {
    instruction: String,
    without: String,
    with: String,
}

#[derive(Deserialize)]
struct Answer {
    better: String,
    #[serde(default)]
    reason: String,
}

impl Comparison {
    pub fn prepare(instruction: &str, without: String, with: String) -> Comparison {
        Comparison { instruction: instruction.to_string(), without, with }
    }

    /// The question with the without arm shown first (as A) or second.
    pub fn user(&self, without_first: bool) -> String {
        let (a, b) = if without_first { (&self.without, &self.with) } else { (&self.with, &self.without) };
        format!("## Task given to the agent\n\n{}\n\n## Run A\n\n{a}\n\n## Run B\n\n{b}", self.instruction)
    }

    /// The position an answer names, and its reason; `Err` says why the answer cannot be used.
    pub fn check_answer(answer: &str) -> Result<(Position, String), String> {
        let parsed: Answer = serde_json::from_str(json_object(answer))
            .map_err(|e| format!("the judge's answer is not the JSON asked for ({e})"))?;
        let position = match parsed.better.trim().to_ascii_lowercase().as_str() {
            "a" => Position::A,
            "b" => Position::B,
            "tie" => Position::Tie,
            other => return Err(format!("the judge answered {other:?} where \"A\", \"B\" or \"tie\" was asked")),
        };
        let reason: String = parsed.reason.chars().take(MAX_REASON_CHARS).collect();
        Ok((position, reason))
    }

    /// The preference the two orders' answers add up to.
    pub fn combine(without_first: (Position, String), with_first: (Position, String)) -> Compared {
        let arm = |p: Position, without_is_a: bool| match (p, without_is_a) {
            (Position::Tie, _) => Preferred::Tie,
            (Position::A, true) | (Position::B, false) => Preferred::Without,
            (Position::A, false) | (Position::B, true) => Preferred::With,
        };
        let (first, second) = (arm(without_first.0, true), arm(with_first.0, false));
        let preferred = if first == second { first } else { Preferred::Tie };
        Compared {
            preferred,
            position_flip: without_first.0 == with_first.0 && without_first.0 != Position::Tie,
            without_first: without_first.0,
            without_first_reason: without_first.1,
            with_first: with_first.0,
            with_first_reason: with_first.1,
        }
    }

    /// Asks both orders; either one unusable is a NO SCORE that says which.
    pub async fn compare(&self, session: &Session) -> Asked<Compared> {
        let prompt = session.prompts().preference().text;
        let first = session.ask(prompt, &self.user(true), Self::check_answer).await;
        let first_answer = match first.outcome {
            Ok(a) => a,
            Err(e) => {
                let outcome = Err(format!("with the without arm shown first: {e}"));
                return Asked { model_reported: first.model_reported, outcome };
            }
        };
        let second = session.ask(prompt, &self.user(false), Self::check_answer).await;
        Asked {
            model_reported: second.model_reported.or(first.model_reported),
            outcome: second
                .outcome
                .map(|a| Self::combine(first_answer, a))
                .map_err(|e| format!("with the with arm shown first: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Position::{Tie, A, B};

    fn combine(first: Position, second: Position) -> (Preferred, bool) {
        let c = Comparison::combine((first, "r1".into()), (second, "r2".into()));
        (c.preferred, c.position_flip)
    }

    #[test]
    fn agreeing_orders_are_a_preference_and_disagreeing_ones_a_tie() {
        // The without arm is A first, B second: B then A both name the with arm.
        assert_eq!(combine(B, A), (Preferred::With, false));
        assert_eq!(combine(A, B), (Preferred::Without, false));
        assert_eq!(combine(Tie, Tie), (Preferred::Tie, false));
        // The same position twice: the judge followed position, a flip.
        assert_eq!(combine(A, A), (Preferred::Tie, true));
        assert_eq!(combine(B, B), (Preferred::Tie, true));
        // A tie in one order only: no preference, and no position named twice.
        assert_eq!(combine(Tie, A), (Preferred::Tie, false));
    }

    #[test]
    fn answers_are_parsed_or_refused_with_the_reason() {
        assert_eq!(
            Comparison::check_answer("```json\n{\"better\": \"b\", \"reason\": \"tests pass\"}\n```").unwrap(),
            (B, "tests pass".to_string())
        );
        assert_eq!(
            Comparison::check_answer("{\"better\": \"both\"}").unwrap_err(),
            "the judge answered \"both\" where \"A\", \"B\" or \"tie\" was asked"
        );
        assert!(Comparison::check_answer("I prefer A.").unwrap_err().starts_with("the judge's answer is not the JSON"));
    }

    #[test]
    fn each_order_shows_the_other_arm_first() {
        let c = Comparison::prepare("do it", "WITHOUT".into(), "WITH".into());
        let (first, second) = (c.user(true), c.user(false));
        assert!(first.contains("## Run A\n\nWITHOUT\n") && first.ends_with("## Run B\n\nWITH"));
        assert!(second.contains("## Run A\n\nWITH\n") && second.ends_with("## Run B\n\nWITHOUT"));
    }
}
