//! The scan's model review, called: a provider configuration and model the user picked read a
//! skill against the taxonomy (prompt and checks in `skillscope_scan::semantic`). A review that
//! gets no usable answer marks the report "not reviewed"; it is never taken as "safe".

use crate::agents;
use crate::credentials;
use crate::error::{Result, RunsError};
use skillscope_models::{ChatRequest, Client, Message, Secret};
use skillscope_scan::semantic::{Checked, Review, Reviewer, TEMPERATURE};
use skillscope_scan::{SecurityReport, SkillFile};
use skillscope_store::workspace::Workspace;

/// Output token limit of a review answer.
const MAX_ANSWER_TOKENS: u32 = 4096;

enum Failed {
    /// No answer: the call failed after the client's own retries.
    Call(String),
    /// An answer that is not the JSON asked for.
    Unusable(String),
}

/// Reviews one skill with `model` of provider `provider_id` and adds the outcome to `report`
/// (scored again with `risky_below`). Errs only when no review can be attempted (no such provider,
/// an unusable configuration or keyring); a call that fails or times out, or an answer that is
/// unusable twice, is recorded in the report as "not reviewed".
pub async fn review(
    ws: &Workspace,
    provider_id: &str,
    model: &str,
    dir_name: &str,
    files: &[SkillFile],
    report: &mut SecurityReport,
    risky_below: u32,
) -> Result<()> {
    let cfg = agents::provider(ws, provider_id)?;
    let key = credentials::get(provider_id)?;
    let client = Client::new(cfg, key.map(Secret::new))
        .map_err(|source| RunsError::Model { what: provider_id.to_string(), source })?;
    let review = Review::prepare(dir_name, files, report);
    let mut req = ChatRequest::new(model, vec![Message::user(review.user())]);
    req.system = review.system().to_string();
    req.temperature = Some(TEMPERATURE);
    req.max_tokens = Some(MAX_ANSWER_TOKENS);
    let mut reviewer = Reviewer { provider: provider_id.to_string(), model: model.to_string() };
    let mut outcome = ask(&client, &req, &review, report, &mut reviewer).await;
    if matches!(outcome, Err(Failed::Unusable(_))) {
        outcome = ask(&client, &req, &review, report, &mut reviewer).await.map_err(|f| match f {
            Failed::Unusable(e) => Failed::Unusable(format!("{e}; asked twice")),
            call => call,
        });
    }
    let outcome = outcome.map_err(|(Failed::Call(e) | Failed::Unusable(e))| e);
    if let Err(e) = &outcome {
        tracing::warn!(provider = provider_id, model, error = %e, "skill not reviewed");
    }
    review.apply(report, reviewer, outcome, risky_below);
    Ok(())
}

async fn ask(
    client: &Client,
    req: &ChatRequest,
    review: &Review<'_>,
    report: &SecurityReport,
    reviewer: &mut Reviewer,
) -> std::result::Result<Checked, Failed> {
    let answer = client
        .complete(req, &mut |_: &str| {})
        .await
        .map_err(|e| Failed::Call(format!("the reviewer could not be asked: {e}")))?;
    reviewer.model = answer.model;
    review.check_answer(answer.text.as_deref().unwrap_or(""), report).map_err(Failed::Unusable)
}
