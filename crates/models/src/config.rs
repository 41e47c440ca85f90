//! Provider configuration and the API key wrapper.

use serde::{Deserialize, Serialize};
use std::fmt;
use ts_rs::TS;

/// The wire protocol a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ApiKind {
    /// OpenAI Chat Completions (`/v1/chat/completions`), also spoken by vLLM, Ollama, llama.cpp,
    /// OpenRouter and most local servers. Written `openai_chat`.
    #[serde(rename = "openai_chat")]
    OpenAiChat,
    /// OpenAI Responses (`/v1/responses`). Written `openai_responses`.
    #[serde(rename = "openai_responses")]
    OpenAiResponses,
    /// Anthropic Messages (`/v1/messages`).
    Anthropic,
    /// Google's Generative Language API (`/v1beta/models/{model}:generateContent`), the key in
    /// `x-goog-api-key`.
    Gemini,
}

impl ApiKind {
    /// Its name in messages.
    pub fn label(self) -> &'static str {
        match self {
            ApiKind::OpenAiChat => "OpenAI Chat Completions",
            ApiKind::OpenAiResponses => "OpenAI Responses",
            ApiKind::Anthropic => "Anthropic Messages",
            ApiKind::Gemini => "Gemini",
        }
    }

    /// The endpoint path below the version prefix (for Gemini, below which the model's own path
    /// follows).
    pub(crate) fn endpoint(self) -> &'static str {
        match self {
            ApiKind::OpenAiChat => "chat/completions",
            ApiKind::OpenAiResponses => "responses",
            ApiKind::Anthropic => "messages",
            ApiKind::Gemini => "models",
        }
    }

    /// The version prefix put in when a base URL has none.
    fn default_version(self) -> &'static str {
        match self {
            ApiKind::Gemini => "v1beta",
            _ => "v1",
        }
    }
}

/// Whether a path segment is an API version (`v1`, `v1beta`, `v1alpha`).
fn is_version(segment: &str) -> bool {
    let Some(rest) = segment.strip_prefix('v') else { return false };
    let digits = rest.trim_end_matches(char::is_alphabetic);
    !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && matches!(&rest[digits.len()..], "" | "alpha" | "beta")
}

/// One model provider: where it is, which protocol it speaks, and how hard we may use it.
///
/// `base_url` may be given with or without the version prefix: `https://api.openai.com/v1` and
/// `https://api.openai.com` both reach `https://api.openai.com/v1/chat/completions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ProviderConfig {
    /// Stable identifier chosen by the user, e.g. `openai`, `anthropic`, `local-vllm`.
    pub id: String,
    pub api: ApiKind,
    pub base_url: String,
    /// Requests in flight at once against this provider (at least 1).
    #[serde(default = "default_max_concurrency")]
    pub max_concurrency: u32,
    /// Bound on waiting for the response headers and on each silence inside a stream.
    #[serde(default = "default_timeout_secs")]
    pub timeout_secs: u64,
    /// Retries after the first attempt for errors that may pass (429, 5xx, timeouts, cut streams).
    #[serde(default = "default_max_retries")]
    pub max_retries: u32,
}

fn default_max_concurrency() -> u32 {
    4
}
fn default_timeout_secs() -> u64 {
    120
}
fn default_max_retries() -> u32 {
    3
}

impl ProviderConfig {
    /// A configuration with the default limits (4 concurrent requests, 120 s timeout, 3 retries).
    pub fn new(id: impl Into<String>, api: ApiKind, base_url: impl Into<String>) -> Self {
        ProviderConfig {
            id: id.into(),
            api,
            base_url: base_url.into(),
            max_concurrency: default_max_concurrency(),
            timeout_secs: default_timeout_secs(),
            max_retries: default_max_retries(),
        }
    }

    /// OpenAI's hosted API through Chat Completions.
    pub fn openai() -> Self {
        Self::new("openai", ApiKind::OpenAiChat, "https://api.openai.com/v1")
    }

    /// Anthropic's hosted API.
    pub fn anthropic() -> Self {
        Self::new("anthropic", ApiKind::Anthropic, "https://api.anthropic.com")
    }

    /// The base URL without a trailing API version (`…/v1`): what a proxied request's own path
    /// (`/v1/messages?…`) is appended to.
    pub(crate) fn api_root(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        match base.rsplit_once('/') {
            Some((root, last)) if is_version(last) => root.to_string(),
            _ => base.to_string(),
        }
    }

    /// The full URL of this provider's endpoint for `api` (for Gemini, the models' URL).
    pub(crate) fn endpoint_url(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        if base.rsplit('/').next().is_some_and(is_version) {
            format!("{base}/{}", self.api.endpoint())
        } else {
            format!("{base}/{}/{}", self.api.default_version(), self.api.endpoint())
        }
    }
}

/// An API key. It is only ever written into the authentication header: `Debug` prints `***`
/// and it cannot be serialized.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(key: impl Into<String>) -> Self {
        Secret(key.into())
    }

    /// The key itself, for the authentication header.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl From<String> for Secret {
    fn from(s: String) -> Self {
        Secret(s)
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Self {
        Secret(s.to_string())
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_root_drops_a_trailing_version() {
        let mut c = ProviderConfig::new("x", ApiKind::Anthropic, "https://api.anthropic.com/");
        assert_eq!(c.api_root(), "https://api.anthropic.com");
        c.base_url = "https://openrouter.ai/api/v1/".into();
        assert_eq!(c.api_root(), "https://openrouter.ai/api");
        c.base_url = "http://127.0.0.1:9/vendor".into();
        assert_eq!(c.api_root(), "http://127.0.0.1:9/vendor");
        c.base_url = "https://generativelanguage.googleapis.com/v1beta".into();
        assert_eq!(c.api_root(), "https://generativelanguage.googleapis.com");
        c.base_url = "http://h/vendor/v1gamma".into();
        assert_eq!(c.api_root(), "http://h/vendor/v1gamma");
    }

    #[test]
    fn endpoint_url_accepts_base_with_or_without_version() {
        let mut c = ProviderConfig::new("x", ApiKind::OpenAiChat, "http://127.0.0.1:9/");
        assert_eq!(c.endpoint_url(), "http://127.0.0.1:9/v1/chat/completions");
        c.base_url = "https://api.openai.com/v1".into();
        assert_eq!(c.endpoint_url(), "https://api.openai.com/v1/chat/completions");
        c.base_url = "https://openrouter.ai/api/v1/".into();
        assert_eq!(c.endpoint_url(), "https://openrouter.ai/api/v1/chat/completions");
        c.api = ApiKind::Anthropic;
        c.base_url = "https://api.anthropic.com".into();
        assert_eq!(c.endpoint_url(), "https://api.anthropic.com/v1/messages");
        c.api = ApiKind::OpenAiResponses;
        c.base_url = "https://example.com/vendor".into();
        assert_eq!(c.endpoint_url(), "https://example.com/vendor/v1/responses");
        c.api = ApiKind::Gemini;
        assert_eq!(c.endpoint_url(), "https://example.com/vendor/v1beta/models");
        c.base_url = "https://generativelanguage.googleapis.com/v1beta/".into();
        assert_eq!(c.endpoint_url(), "https://generativelanguage.googleapis.com/v1beta/models");
    }

    #[test]
    fn config_defaults_fill_missing_limits() {
        let c: ProviderConfig =
            serde_json::from_str(r#"{"id":"local-vllm","api":"openai_chat","base_url":"http://localhost:8000/v1"}"#)
                .unwrap();
        assert_eq!(c.api, ApiKind::OpenAiChat);
        assert_eq!((c.max_concurrency, c.timeout_secs, c.max_retries), (4, 120, 3));
        let json = serde_json::to_string(&ApiKind::OpenAiResponses).unwrap();
        assert_eq!(json, "\"openai_responses\"");
    }

    #[test]
    fn secret_debug_hides_the_key() {
        let s = Secret::new("sk-very-secret-123");
        assert_eq!(format!("{s:?}"), "***");
        assert!(!format!("{:?}", Some(s)).contains("very-secret"));
    }
}
