//! Asking the judge: the provider configuration's client with its key from the keyring, a prompt
//! (of the judge's prompt version) at temperature 0, and one more try when the answer is unusable. Grading and pairwise
//! preference both ask through [`ask`].

use crate::error::Result;
use crate::grading::{Graded, Grading};
use crate::prompts::PromptSet;
use serde::{Deserialize, Serialize};
use skillscope_models::{ChatRequest, Client, Message, Secret};
use skillscope_runs::error::RunsError;
use skillscope_runs::{agents, credentials};
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

/// Sampling temperature of every judgement: the most repeatable setting the APIs offer.
pub const TEMPERATURE: f32 = 0.0;
/// Output token limit of an answer.
const MAX_ANSWER_TOKENS: u32 = 4096;

/// Who judges: a provider configuration, a model and a prompt version, as the user picked them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Judge {
    pub provider: String,
    pub model: String,
    #[serde(default)]
    pub prompts: PromptSet,
}

impl std::fmt::Display for Judge {
    /// "provider · model, prompts v1", as reports and charts name the judge.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} · {}, prompts {}", self.provider, self.model, self.prompts.name())
    }
}

/// One answer: the model as the API named itself (when it answered), and the checked verdict or
/// why there is none (the NO SCORE reason).
pub struct Asked<T> {
    pub model_reported: Option<String>,
    pub outcome: std::result::Result<T, String>,
}

/// A client for a model of a provider configuration, its key from the keyring, and the judge's
/// prompt version.
pub struct Session {
    client: Client,
    model: String,
    prompts: PromptSet,
}

impl Session {
    /// A session for `model` of `provider` (a judge, or a writer of drafts that brings its own
    /// prompts). Errs only when no call can be attempted (no such provider, an unusable
    /// configuration or keyring).
    pub fn open(ws: &Workspace, provider: &str, model: &str) -> Result<Session> {
        let cfg = agents::provider(ws, provider)?;
        let key = credentials::get(provider).map_err(RunsError::from)?;
        let client = Client::new(cfg, key.map(Secret::new))
            .map_err(|source| RunsError::Model { what: provider.to_string(), source })?;
        Ok(Session { client, model: model.to_string(), prompts: PromptSet::default() })
    }

    /// A session for `judge`, asking with its prompt version.
    pub fn judge(ws: &Workspace, judge: &Judge) -> Result<Session> {
        Ok(Session { prompts: judge.prompts, ..Session::open(ws, &judge.provider, &judge.model)? })
    }

    pub fn prompts(&self) -> PromptSet {
        self.prompts
    }

    /// Asks `user` under `system`; `check` turns the answer into a verdict or says why it cannot
    /// be used. A failed call, a refusal or an answer unusable twice is a NO SCORE in the outcome.
    pub async fn ask<T>(
        &self,
        system: &str,
        user: &str,
        check: impl Fn(&str) -> std::result::Result<T, String>,
    ) -> Asked<T> {
        let mut req = ChatRequest::new(&self.model, vec![Message::user(user)]);
        req.system = system.to_string();
        req.temperature = Some(TEMPERATURE);
        req.max_tokens = Some(MAX_ANSWER_TOKENS);
        let mut model_reported = None;
        let mut last = String::new();
        for attempt in 1..=2 {
            let answer = match self.client.complete(&req, &mut |_: &str| {}).await {
                Ok(a) => a,
                Err(e) => return Asked { model_reported, outcome: Err(format!("the judge could not be asked: {e}")) },
            };
            model_reported = Some(answer.model.clone());
            match check(answer.text.as_deref().unwrap_or("")) {
                Ok(verdict) => return Asked { model_reported, outcome: Ok(verdict) },
                Err(e) => last = if attempt == 1 { e } else { format!("{e}; asked twice") },
            }
        }
        Asked { model_reported, outcome: Err(last) }
    }

    /// Grades `grading`'s expectations.
    pub async fn grade(&self, grading: &Grading) -> Asked<Graded> {
        self.ask(self.prompts.grading().text, grading.user(), |a| grading.check_answer(a)).await
    }
}
