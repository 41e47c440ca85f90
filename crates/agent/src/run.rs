//! The agent loop.

use crate::prompt::{system_prompt, SkillListing};
use crate::record::Recorder;
pub use crate::record::StopReason;
use crate::tools::{self, ToolLimits, Tools};
use serde::{Deserialize, Serialize};
use skillscope_models::{ChatRequest, Client, Message, ModelError, PriceTable, ProviderWait, Usage};
use skillscope_sandbox::{Container, SandboxError};
use std::time::{Duration, Instant};
use ts_rs::TS;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AgentLimits {
    pub max_turns: u32,
    /// Input plus output tokens over the whole run.
    pub token_budget: u64,
    pub wall_timeout_secs: u64,
    pub command_timeout_secs: u64,
    pub output_limit_bytes: u32,
    pub temperature: Option<f32>,
    pub max_output_tokens: Option<u32>,
}

impl Default for AgentLimits {
    fn default() -> Self {
        Self {
            max_turns: 30,
            token_budget: 400_000,
            wall_timeout_secs: 1200,
            command_timeout_secs: 120,
            output_limit_bytes: 16 * 1024,
            temperature: Some(0.0),
            max_output_tokens: Some(4096),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct AgentOutcome {
    pub stop: StopReason,
    pub turns: u32,
    pub usage: Usage,
    pub cost_usd: Option<f64>,
    pub final_text: Option<String>,
    /// Time spent waiting on the model, and running tools, in milliseconds.
    pub model_ms: u64,
    pub tool_ms: u64,
    /// The ATIF v1.7 trajectory, already passed through the redactor.
    pub trajectory: serde_json::Value,
}

/// Failures the agent did not cause: the trial is an infrastructure failure and is retried.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error("model provider: {0}")]
    Model(#[from] ModelError),
    #[error("sandbox: {0}")]
    Sandbox(#[from] SandboxError),
    /// An external harness (Claude Code) failed around the agent's work.
    #[error("{0}")]
    Harness(String),
}

pub struct RunInput<'a> {
    pub client: &'a Client,
    pub model: &'a str,
    pub prices: &'a PriceTable,
    pub container: &'a Container,
    pub workdir: &'a str,
    pub instruction: &'a str,
    /// Who the agent's commands run as and who owns what it writes (None: root).
    pub owner: Option<skillscope_sandbox::Owner>,
    pub skills: &'a [SkillListing],
    pub limits: &'a AgentLimits,
    pub redactor: &'a skillscope_atif::Redactor,
    pub session_id: String,
    /// Live progress lines (tool calls and their results), already redacted.
    pub log: &'a (dyn Fn(&str) + Send + Sync),
}

fn add(total: &mut Usage, u: &Usage) {
    total.input_tokens += u.input_tokens;
    total.cached_tokens += u.cached_tokens;
    total.output_tokens += u.output_tokens;
}

/// The model's answer, or None once the agent's own time is up. A call in flight at the deadline
/// is let finish: until an attempt ends nobody knows whether its time was the model's (the
/// agent's own) or a failing provider's, which is moved out of the agent's time once the attempt
/// fails; the agent may so stop up to one request timeout late. A call that fails for good is its
/// error (the provider's), not a wall-time stop; one answered after the deadline is a stop.
async fn answer<R, E>(
    call: impl std::future::Future<Output = Result<R, E>>,
    deadline: &impl Fn() -> Instant,
) -> Option<Result<R, E>> {
    match call.await {
        Ok(_) if Instant::now() >= deadline() => None,
        r => Some(r),
    }
}

pub async fn run(input: RunInput<'_>) -> Result<AgentOutcome, AgentError> {
    let started = Instant::now();
    let limits = input.limits;
    let tools = Tools {
        container: input.container,
        workdir: input.workdir.to_string(),
        owner: input.owner,
        limits: ToolLimits {
            command_timeout: Duration::from_secs(limits.command_timeout_secs),
            output_limit: limits.output_limit_bytes as usize,
        },
    };
    let system = system_prompt(input.workdir, input.skills);
    let mut rec = Recorder::new(&input.session_id, input.model, tools::definitions());
    rec.system(&system);
    rec.user(input.instruction);
    let mut messages = vec![Message::User { text: input.instruction.to_string() }];
    let mut usage = Usage::default();
    let mut turns = 0;
    let mut final_text = None;
    let (mut model_time, mut tool_time) = (Duration::ZERO, Duration::ZERO);
    let mut requests = Vec::new();
    // The wall-time budget is the agent's own time: waiting on the provider (its concurrency
    // limit, retries, Retry-After) moves the deadline out by as much.
    let wait = ProviderWait::default();
    let budget = started + Duration::from_secs(limits.wall_timeout_secs);
    let deadline = || budget + wait.waited();
    let stop = loop {
        if turns >= limits.max_turns {
            break StopReason::MaxTurns;
        }
        if usage.input_tokens + usage.output_tokens >= limits.token_budget {
            break StopReason::TokenBudget;
        }
        if Instant::now() >= deadline() {
            break StopReason::WallTimeout;
        }
        let req = ChatRequest {
            model: input.model.to_string(),
            system: system.clone(),
            messages: messages.clone(),
            tools: tools::definitions(),
            temperature: limits.temperature,
            max_tokens: limits.max_output_tokens,
        };
        let asked = Instant::now();
        let asked_at = time::OffsetDateTime::now_utc();
        let waited_before = wait.waited();
        let Some(resp) = answer(input.client.complete_waiting(&req, &mut |_| {}, &wait), &deadline).await else {
            break StopReason::WallTimeout;
        };
        let resp = resp?;
        let waited = wait.waited() - waited_before;
        model_time += asked.elapsed().saturating_sub(waited);
        // The model request log: what was asked and what came back, without message bodies
        // (those are the trajectory's steps).
        requests.push(serde_json::json!({
            "turn": turns + 1,
            "started_at": asked_at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default(),
            "latency_ms": asked.elapsed().as_millis() as u64,
            "model": resp.model,
            "messages": req.messages.len(),
            "tools": req.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>(),
            "temperature": req.temperature,
            "max_tokens": req.max_tokens,
            "attempts": resp.attempts,
            "provider_wait_ms": waited.as_millis() as u64,
            "stop_reason": resp.stop_reason,
            "usage": {"input": resp.usage.input_tokens, "cached": resp.usage.cached_tokens, "output": resp.usage.output_tokens},
        }));
        turns += 1;
        add(&mut usage, &resp.usage);
        let cost = input.prices.cost(input.model, &resp.usage);
        let step = rec.agent(resp.text.as_deref().unwrap_or(""), &resp.tool_calls, &resp.usage, cost);
        messages.push(Message::Assistant { text: resp.text.clone(), tool_calls: resp.tool_calls.clone() });
        if resp.tool_calls.is_empty() {
            final_text = resp.text;
            break StopReason::FinalAnswer;
        }
        if let Some(text) = resp.text.as_deref().filter(|t| !t.trim().is_empty()) {
            (input.log)(&input.redactor.redact(&format!("agent: {text}\n")));
        }
        for call in &resp.tool_calls {
            (input.log)(&input.redactor.redact(&format!("$ {} {}\n", call.name, call.arguments)));
            let ran = Instant::now();
            let out = match tokio::time::timeout(
                deadline().saturating_duration_since(Instant::now()),
                tools.call(&call.name, &call.arguments),
            )
            .await
            {
                Ok(r) => r?,
                Err(_) => {
                    tools::ToolOutput { content: "[killed: the agent's wall time ran out]".into(), is_error: true }
                }
            };
            tool_time += ran.elapsed();
            (input.log)(&input.redactor.redact(&format!("{}\n", tools::truncate(&out.content, 2000))));
            rec.observation(step, &call.id, &out.content);
            messages.push(Message::ToolResult {
                call_id: call.id.clone(),
                content: out.content,
                is_error: out.is_error,
            });
        }
    };
    let cost_usd = input.prices.cost(input.model, &usage);
    let mut trajectory = rec.finish(&usage, cost_usd, stop, requests);
    input.redactor.redact_json(&mut trajectory);
    Ok(AgentOutcome {
        stop,
        turns,
        usage,
        cost_usd,
        final_text,
        model_ms: model_time.as_millis() as u64,
        tool_ms: tool_time.as_millis() as u64,
        trajectory,
    })
}
