//! Model provider clients for Skillscope's own coding agent: OpenAI Chat Completions (and the
//! many servers that speak it), OpenAI Responses and Anthropic Messages, behind one
//! provider-neutral API. Streaming, retries with backoff, per-provider concurrency limits,
//! timeouts and prices; and a key-adding proxy for harnesses that run in a sandbox. GUI-free.

mod api;
mod client;
mod config;
mod error;
mod price;
pub mod proxy;
mod retry;
pub mod sse;
mod types;

pub use api::parse_answer;
pub use client::{Client, ProviderWait};
pub use config::{ApiKind, ProviderConfig, Secret};
pub use error::ModelError;
pub use price::{ModelPrice, PriceTable};
pub use retry::RetryPolicy;
pub use types::{ChatRequest, ChatResponse, Message, ToolCall, ToolDef, Usage};
