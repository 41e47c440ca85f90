//! Errors of model calls. None of them is the agent's doing: they are all infrastructure.

use std::time::Duration;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    /// 401/403. `message` names the provider: "the API key was rejected by <provider> ...".
    #[error("{message}")]
    Unauthorized { status: u16, message: String },
    /// 404 on a model call: the model does not exist there (or the base URL is wrong).
    #[error("{message}")]
    UnknownModel { model: String, message: String },
    /// 429 (or a rate-limit error inside a stream).
    #[error("rate limited by the model provider{}", match retry_after { Some(d) => format!(" (asked to retry after {:.1} s)", d.as_secs_f64()), None => String::new() })]
    RateLimited { retry_after: Option<Duration> },
    /// Any other HTTP error status, or an error event inside a stream. `message` names the
    /// provider and the status.
    #[error("{message}")]
    Server { status: u16, message: String },
    /// No response headers, or no stream data, within the provider's timeout.
    #[error("the model provider did not answer within the timeout")]
    Timeout,
    /// The response stream ended (or broke) before the provider's end marker.
    #[error("the model provider's response stream was cut off before it finished")]
    StreamCut,
    /// The provider sent something that is not the JSON its API promises.
    #[error("{0}")]
    Malformed(String),
    /// Connection-level failure (refused, reset, DNS, TLS).
    #[error("{0}")]
    Network(String),
    /// The provider configuration or the request cannot be used as given.
    #[error("{0}")]
    Config(String),
}

impl ModelError {
    /// Every model error is infrastructure: the agent under evaluation did not cause it, so a
    /// trial that ends on one is not the skill's failure.
    pub fn is_infrastructure(&self) -> bool {
        true
    }

    /// Whether the same request may succeed when tried again. `Malformed` is retryable, but the
    /// retry loop tries it again only once.
    pub fn is_retryable(&self) -> bool {
        match self {
            ModelError::RateLimited { .. }
            | ModelError::Timeout
            | ModelError::StreamCut
            | ModelError::Network(_)
            | ModelError::Malformed(_) => true,
            ModelError::Server { status, .. } => *status >= 500 || *status == 408,
            ModelError::Unauthorized { .. } | ModelError::UnknownModel { .. } | ModelError::Config(_) => false,
        }
    }

    /// A short stable name of the variant, for logs and statistics.
    pub fn kind(&self) -> &'static str {
        match self {
            ModelError::Unauthorized { .. } => "unauthorized",
            ModelError::UnknownModel { .. } => "unknown_model",
            ModelError::RateLimited { .. } => "rate_limited",
            ModelError::Server { .. } => "server",
            ModelError::Timeout => "timeout",
            ModelError::StreamCut => "stream_cut",
            ModelError::Malformed(_) => "malformed",
            ModelError::Network(_) => "network",
            ModelError::Config(_) => "config",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retryability() {
        assert!(ModelError::RateLimited { retry_after: None }.is_retryable());
        assert!(ModelError::Server { status: 503, message: String::new() }.is_retryable());
        assert!(!ModelError::Server { status: 400, message: String::new() }.is_retryable());
        assert!(ModelError::Timeout.is_retryable());
        assert!(ModelError::StreamCut.is_retryable());
        assert!(ModelError::Malformed("x".into()).is_retryable());
        assert!(!ModelError::Unauthorized { status: 401, message: String::new() }.is_retryable());
        assert!(!ModelError::UnknownModel { model: "m".into(), message: String::new() }.is_retryable());
        assert!(!ModelError::Config("x".into()).is_retryable());
        assert!(ModelError::Config("x".into()).is_infrastructure());
        let e = ModelError::RateLimited { retry_after: Some(Duration::from_secs(2)) };
        assert_eq!(e.to_string(), "rate limited by the model provider (asked to retry after 2.0 s)");
    }
}
