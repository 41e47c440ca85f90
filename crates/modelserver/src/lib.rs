//! Skillscope's scripted model server.
//!
//! A fake model API on 127.0.0.1 that speaks OpenAI Chat Completions,
//! OpenAI Responses, Anthropic Messages and Gemini (JSON and SSE), plays a JSON
//! [`Script`] chosen statelessly from each request, and injects [`Fault`]s on
//! demand. Tests start it with [`start`]; the `skillscope-model-server`
//! binary serves it from the command line.
//!
//! Model endpoints (JSON, or SSE when the body has `"stream": true`):
//! `POST /v1/chat/completions`, `POST /v1/responses`, `POST /v1/messages`
//! (also without `/v1`), `GET /v1/models`; Gemini's
//! `POST /v1beta/models/{model}:generateContent`, `:streamGenerateContent`
//! (SSE) and `:countTokens`. A key is required (`Authorization: Bearer K`,
//! `x-api-key: K` or `x-goog-api-key: K`); with
//! [`ServerOptions::require_key`] only that key. With
//! [`ServerOptions::models`] non-empty, other models get 404.
//!
//! Control endpoints: `GET|POST /_control/script` (a [`Script`]),
//! `GET|POST|DELETE /_control/faults` (a list of [`Fault`]s, one per coming
//! model request), `GET|DELETE /_control/requests` (the [`LoggedRequest`]
//! log, credentials shown as `***`).
//!
//! Step selection is stateless: with n tool results in the conversation,
//! `steps[n]` plays, from the first branch whose `if_prompt_contains` occurs
//! in any string of the request, else from `default`.

pub mod api;
pub mod control;
pub mod faults;
pub mod script;
pub mod server;
pub mod sse;

pub use api::Api;
pub use control::LoggedRequest;
pub use faults::Fault;
pub use script::{Branch, Script, Step};
pub use server::{start, start_on, ServerHandle, ServerOptions, DEFAULT_MODEL};
