//! One client per provider: HTTP, authentication, the concurrency limit, timeouts and retries.

use crate::api::{self, error_message, Ctx, Fold};
use crate::config::{ApiKind, ProviderConfig, Secret};
use crate::error::ModelError;
use crate::retry::{parse_retry_after, RetryPolicy};
use crate::sse::SseParser;
use crate::types::{ChatRequest, ChatResponse, Message};
use futures_util::StreamExt;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use reqwest::StatusCode;
use std::fmt;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

pub struct Client {
    cfg: ProviderConfig,
    key: Option<Secret>,
    url: String,
    openai_hosted: bool,
    http: reqwest::Client,
    headers: HeaderMap,
    limit: Arc<Semaphore>,
    policy: RetryPolicy,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("id", &self.cfg.id)
            .field("api", &self.cfg.api)
            .field("url", &self.url)
            .field("max_concurrency", &self.cfg.max_concurrency)
            .field("timeout_secs", &self.cfg.timeout_secs)
            .field("max_retries", &self.cfg.max_retries)
            .field("key", &self.key.as_ref().map(|_| "***"))
            .finish_non_exhaustive()
    }
}

/// Time a call spends waiting on its provider rather than being answered: queued behind the
/// provider's concurrency limit, in failed attempts that were retried, and sleeping before a retry
/// (Retry-After or backoff). A caller with a time budget (the agent's wall time) leaves it out; an
/// attempt that fails is known to be the provider's time only once it has failed, so during it
/// [`ProviderWait::waiting`] is false, and a caller lets an attempt in flight end before its
/// deadline passes ([`ProviderWait::in_flight`] for a harness behind the proxy). For such a
/// harness, whose retries happen in the harness, an answer with a retryable status counts as wait,
/// and so does the gap until the harness's next request (its backoff).
#[derive(Debug, Default)]
pub struct ProviderWait {
    /// How many reasons to wait are in progress (calls queued or sleeping, a harness's backoff).
    waiting: AtomicU32,
    waited_us: AtomicU64,
    /// When the last retryable answer went back to a harness, until its next request.
    backoff_since: Mutex<Option<Instant>>,
    /// A harness's requests the proxy is forwarding now.
    in_flight: Arc<AtomicU32>,
}

/// Counts one forwarded request as in flight until it is dropped.
pub(crate) struct InFlight(Arc<AtomicU32>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl ProviderWait {
    /// True while a call is queued for the limit or sleeping before a retry.
    pub fn waiting(&self) -> bool {
        self.waiting.load(Ordering::SeqCst) > 0
    }

    /// The wait so far, over every call made with this clock.
    pub fn waited(&self) -> Duration {
        Duration::from_micros(self.waited_us.load(Ordering::SeqCst))
    }

    pub(crate) fn add(&self, d: Duration) {
        self.waited_us.fetch_add(d.as_micros() as u64, Ordering::SeqCst);
    }

    async fn during<T>(&self, f: impl std::future::Future<Output = T>) -> T {
        let started = Instant::now();
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let out = f.await;
        self.add(started.elapsed());
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        out
    }

    /// Whether a harness's request is being forwarded now: until it ends, nobody knows whether
    /// its time is the model's or a failing provider's.
    pub fn in_flight(&self) -> bool {
        self.in_flight.load(Ordering::SeqCst) > 0
    }

    pub(crate) fn flight(&self) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        InFlight(self.in_flight.clone())
    }

    /// A harness was sent a retryable answer: it is backing off until its next request.
    pub(crate) fn backoff_started(&self) {
        let mut since = self.backoff_since.lock().unwrap_or_else(|e| e.into_inner());
        if since.replace(Instant::now()).is_none() {
            self.waiting.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// A harness sent a request: any backoff it was in is over and counted.
    pub(crate) fn backoff_ended(&self) {
        let mut since = self.backoff_since.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = since.take() {
            self.add(t.elapsed());
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// The header an API takes its key in, for those that do not take a bearer token.
fn key_header(api: ApiKind) -> &'static str {
    match api {
        ApiKind::Gemini => "x-goog-api-key",
        _ => "x-api-key",
    }
}

impl Client {
    pub fn new(cfg: ProviderConfig, key: Option<Secret>) -> Result<Client, ModelError> {
        let id = cfg.id.clone();
        if id.trim().is_empty() {
            return Err(ModelError::Config("a model provider needs a non-empty id".into()));
        }
        if cfg.max_concurrency == 0 {
            return Err(ModelError::Config(format!("provider {id}: max_concurrency must be at least 1")));
        }
        if cfg.timeout_secs == 0 {
            return Err(ModelError::Config(format!("provider {id}: timeout_secs must be at least 1")));
        }
        let url = cfg.endpoint_url();
        let parsed = reqwest::Url::parse(&url)
            .map_err(|e| ModelError::Config(format!("provider {id}: base URL {:?} is not a URL: {e}", cfg.base_url)))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(ModelError::Config(format!(
                "provider {id}: base URL {:?} must start with http:// or https://",
                cfg.base_url
            )));
        }
        let openai_hosted = parsed.host_str() == Some("api.openai.com");

        let mut headers = HeaderMap::new();
        if let Some(k) = &key {
            let invalid = || {
                ModelError::Config(format!(
                    "provider {id}: the API key contains characters that cannot go in an HTTP header"
                ))
            };
            let k = k.expose().trim();
            if k.is_empty() {
                return Err(ModelError::Config(format!("provider {id}: the API key is empty")));
            }
            match cfg.api {
                ApiKind::OpenAiChat | ApiKind::OpenAiResponses => {
                    let mut v = HeaderValue::from_str(&format!("Bearer {k}")).map_err(|_| invalid())?;
                    v.set_sensitive(true);
                    headers.insert(AUTHORIZATION, v);
                }
                ApiKind::Anthropic | ApiKind::Gemini => {
                    let mut v = HeaderValue::from_str(k).map_err(|_| invalid())?;
                    v.set_sensitive(true);
                    headers.insert(HeaderName::from_static(key_header(cfg.api)), v);
                }
            }
        }
        if cfg.api == ApiKind::Anthropic {
            headers.insert(HeaderName::from_static("anthropic-version"), HeaderValue::from_static("2023-06-01"));
        }

        let timeout = Duration::from_secs(cfg.timeout_secs);
        let http = reqwest::Client::builder()
            .user_agent(concat!("skillscope/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(timeout.min(Duration::from_secs(30)))
            .build()
            .map_err(|e| ModelError::Config(format!("provider {id}: cannot build an HTTP client: {e}")))?;
        Ok(Client {
            limit: Arc::new(Semaphore::new(cfg.max_concurrency as usize)),
            cfg,
            key,
            url,
            openai_hosted,
            http,
            headers,
            policy: RetryPolicy::default(),
        })
    }

    /// Shares `limit` (the provider's concurrency limit) with every other client given the same
    /// one, so that the limit holds across all of them.
    pub fn with_shared_limit(mut self, limit: Arc<Semaphore>) -> Self {
        self.limit = limit;
        self
    }

    /// Replaces the backoff schedule (the number of retries comes from the config).
    pub fn with_retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.policy = policy;
        self
    }

    pub fn config(&self) -> &ProviderConfig {
        &self.cfg
    }

    pub fn id(&self) -> &str {
        &self.cfg.id
    }

    /// Streams (SSE) and assembles text and tool calls; `on_text` receives text deltas as they
    /// arrive. When an attempt fails after some text was delivered and is retried, the retry's
    /// text is delivered from its beginning.
    pub async fn complete(
        &self,
        req: &ChatRequest,
        on_text: &mut (dyn FnMut(&str) + Send),
    ) -> Result<ChatResponse, ModelError> {
        self.run(req, true, on_text, &ProviderWait::default()).await
    }

    /// [`Self::complete`], keeping `wait` up to date with the time the call spends waiting on the
    /// provider rather than being answered (see [`ProviderWait`]).
    pub async fn complete_waiting(
        &self,
        req: &ChatRequest,
        on_text: &mut (dyn FnMut(&str) + Send),
        wait: &ProviderWait,
    ) -> Result<ChatResponse, ModelError> {
        self.run(req, true, on_text, wait).await
    }

    /// A cheap real call to test a credential and a model name: a non-streamed completion of a
    /// token or so (16 for Responses, its minimum).
    pub async fn check(&self, model: &str) -> Result<(), ModelError> {
        let mut req = ChatRequest::new(model, vec![Message::user("Reply with OK.")]);
        req.max_tokens = Some(match self.cfg.api {
            ApiKind::OpenAiResponses => 16,
            _ => 1,
        });
        self.run(&req, false, &mut |_: &str| {}, &ProviderWait::default()).await.map(|_| ())
    }

    async fn run(
        &self,
        req: &ChatRequest,
        stream: bool,
        on_text: &mut (dyn FnMut(&str) + Send),
        wait: &ProviderWait,
    ) -> Result<ChatResponse, ModelError> {
        let mut attempt: u32 = 0;
        let mut malformed_retried = false;
        loop {
            attempt += 1;
            let tried = Instant::now();
            let result = self.attempt(req, stream, on_text, wait).await.map_err(|e| self.redact(e));
            let err = match result {
                Ok(mut r) => {
                    r.attempts = attempt;
                    return Ok(r);
                }
                Err(e) => e,
            };
            let retries_done = attempt - 1;
            let is_malformed = matches!(err, ModelError::Malformed(_));
            if !err.is_retryable() || retries_done >= self.cfg.max_retries || (is_malformed && malformed_retried) {
                if attempt > 1 {
                    tracing::warn!(provider = %self.cfg.id, model = %req.model, attempts = attempt, error = %err, "model call failed");
                }
                return Err(err);
            }
            malformed_retried |= is_malformed;
            let Some(delay) = self.policy.delay_for(&err, retries_done) else {
                return Err(err);
            };
            // A failed attempt that is retried was the provider's time, not the caller's.
            wait.add(tried.elapsed());
            tracing::warn!(
                provider = %self.cfg.id,
                model = %req.model,
                attempt,
                delay_ms = delay.as_millis() as u64,
                error = %err,
                "model call failed; retrying"
            );
            wait.during(tokio::time::sleep(delay)).await;
        }
    }

    /// One attempt, holding a concurrency permit throughout.
    async fn attempt(
        &self,
        req: &ChatRequest,
        stream: bool,
        on_text: &mut (dyn FnMut(&str) + Send),
        wait: &ProviderWait,
    ) -> Result<ChatResponse, ModelError> {
        let _permit = wait
            .during(self.limit.acquire())
            .await
            .map_err(|_| ModelError::Config(format!("provider {}: client closed", self.cfg.id)))?;
        let ctx = Ctx { provider: &self.cfg.id, model: &req.model, openai_hosted: self.openai_hosted };
        let timeout = Duration::from_secs(self.cfg.timeout_secs);
        let body = api::build_request(self.cfg.api, &ctx, req, stream);
        let url = match self.cfg.api {
            ApiKind::Gemini => api::gemini::url(&self.url, &req.model, stream),
            _ => self.url.clone(),
        };
        let send = self
            .http
            .post(url)
            .headers(self.headers.clone())
            .header(ACCEPT, if stream { "text/event-stream" } else { "application/json" })
            .json(&body)
            .send();
        let resp = match tokio::time::timeout(timeout, send).await {
            Err(_) => return Err(ModelError::Timeout),
            Ok(Err(e)) => return Err(self.transport_error(&e)),
            Ok(Ok(r)) => r,
        };
        let status = resp.status();
        if !status.is_success() {
            let headers = resp.headers().clone();
            let text = match tokio::time::timeout(timeout, resp.text()).await {
                Ok(Ok(t)) => t,
                _ => String::new(),
            };
            return Err(self.http_error(&ctx, status, &headers, &text));
        }
        let is_sse = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.contains("text/event-stream"));
        if !stream || !is_sse {
            let text = match tokio::time::timeout(timeout, resp.text()).await {
                Err(_) => return Err(ModelError::Timeout),
                Ok(Err(e)) if e.is_timeout() => return Err(ModelError::Timeout),
                Ok(Err(_)) => return Err(ModelError::StreamCut),
                Ok(Ok(t)) => t,
            };
            let r = api::parse_response(self.cfg.api, &ctx, &text)?;
            if stream {
                if let Some(t) = &r.text {
                    on_text(t);
                }
            }
            return Ok(r);
        }

        let mut bytes = resp.bytes_stream();
        let mut parser = SseParser::new();
        let mut fold = Fold::new(self.cfg.api);
        'read: loop {
            match tokio::time::timeout(timeout, bytes.next()).await {
                Err(_) => {
                    tracing::debug!(provider = %self.cfg.id, "stream idle beyond the timeout");
                    return Err(ModelError::Timeout);
                }
                Ok(None) => break,
                Ok(Some(Err(e))) => {
                    tracing::debug!(provider = %self.cfg.id, error = %e, "stream broke");
                    return Err(ModelError::StreamCut);
                }
                Ok(Some(Ok(chunk))) => {
                    for ev in parser.push(&chunk) {
                        if fold.event(&ctx, &ev, on_text)? {
                            break 'read;
                        }
                    }
                }
            }
        }
        // The body ended. An event the server did not close with a blank line still counts, but
        // a half-written one means the stream was cut, not that the JSON was bad.
        if parser.has_partial() {
            for ev in parser.push(b"\n\n") {
                match fold.event(&ctx, &ev, on_text) {
                    Ok(_) => {}
                    Err(ModelError::Malformed(_)) => return Err(ModelError::StreamCut),
                    Err(e) => return Err(e),
                }
            }
        }
        fold.finish(&ctx)
    }

    fn transport_error(&self, e: &reqwest::Error) -> ModelError {
        if e.is_timeout() {
            return ModelError::Timeout;
        }
        let mut detail = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            detail.push_str(": ");
            detail.push_str(&s.to_string());
            source = s.source();
        }
        if e.is_connect() {
            ModelError::Network(format!("could not connect to {} at {}: {detail}", self.cfg.id, self.cfg.base_url))
        } else {
            ModelError::Network(format!("the request to {} failed: {detail}", self.cfg.id))
        }
    }

    fn http_error(&self, ctx: &Ctx, status: StatusCode, headers: &HeaderMap, body: &str) -> ModelError {
        let code = status.as_u16();
        let msg = error_message(body);
        let provider = &self.cfg.id;
        match code {
            401 | 403 => ModelError::Unauthorized {
                status: code,
                message: if self.key.is_none() {
                    format!("{provider} requires an API key and none is set (HTTP {code}): {msg}")
                } else {
                    format!("the API key was rejected by {provider} (HTTP {code}): {msg}")
                },
            },
            404 => ModelError::UnknownModel {
                model: ctx.model.to_string(),
                message: format!(
                    "{provider} does not know the model {:?} (HTTP 404; or the base URL {} is wrong): {msg}",
                    ctx.model, self.cfg.base_url
                ),
            },
            429 if body.contains("insufficient_quota") => ModelError::Server {
                status: code,
                message: format!("{provider} refused the request: the account's quota is used up (HTTP 429): {msg}"),
            },
            429 => ModelError::RateLimited { retry_after: parse_retry_after(headers) },
            _ => ModelError::Server {
                status: code,
                message: format!("{provider} answered HTTP {code} for model {:?}: {msg}", ctx.model),
            },
        }
    }

    /// Removes the key from any text the provider echoed back.
    fn redact(&self, e: ModelError) -> ModelError {
        let Some(key) = self.key.as_ref().map(|k| k.expose().trim()).filter(|k| k.len() >= 4) else {
            return e;
        };
        let clean = |s: String| {
            if s.contains(key) {
                s.replace(key, "***")
            } else {
                s
            }
        };
        match e {
            ModelError::Unauthorized { status, message } => {
                ModelError::Unauthorized { status, message: clean(message) }
            }
            ModelError::UnknownModel { model, message } => ModelError::UnknownModel { model, message: clean(message) },
            ModelError::Server { status, message } => ModelError::Server { status, message: clean(message) },
            ModelError::Malformed(m) => ModelError::Malformed(clean(m)),
            ModelError::Network(m) => ModelError::Network(clean(m)),
            ModelError::Config(m) => ModelError::Config(clean(m)),
            other => other,
        }
    }
}

impl Client {
    /// Sends a request a harness made (its own path, headers and body) to this provider, with
    /// this client's key in place of whatever key the harness sent. The request waits for a
    /// place under the provider's concurrency limit (time counted in `wait`) and holds it until
    /// the returned permit is dropped, i.e. until its answer has been passed on whole.
    pub(crate) async fn forward(
        &self,
        method: reqwest::Method,
        path_and_query: &str,
        headers: &HeaderMap,
        body: bytes::Bytes,
        wait: &ProviderWait,
    ) -> Result<(reqwest::Response, OwnedSemaphorePermit), ModelError> {
        let permit = wait
            .during(self.limit.clone().acquire_owned())
            .await
            .map_err(|_| ModelError::Config(format!("provider {}: client closed", self.cfg.id)))?;
        let mut out = HeaderMap::new();
        for (name, value) in headers {
            if !matches!(
                name.as_str(),
                "host"
                    | "content-length"
                    | "connection"
                    | "transfer-encoding"
                    | "authorization"
                    | "x-api-key"
                    | "x-goog-api-key"
            ) {
                out.append(name.clone(), value.clone());
            }
        }
        for name in [AUTHORIZATION, HeaderName::from_static("x-api-key"), HeaderName::from_static("x-goog-api-key")] {
            if let Some(v) = self.headers.get(&name) {
                out.insert(name, v.clone());
            }
        }
        let url = format!("{}{path_and_query}", self.cfg.api_root());
        let response = self.http.request(method, url).headers(out).body(body).send().await;
        Ok((response.map_err(|e| self.transport_error(&e))?, permit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_debug_hides_the_key_and_config_is_validated() {
        let key = "sk-test-abcdef123456";
        let c = Client::new(ProviderConfig::openai(), Some(Secret::new(key))).unwrap();
        let dbg = format!("{c:?}");
        assert!(!dbg.contains("abcdef123456"), "{dbg}");
        assert!(dbg.contains("***") && dbg.contains("openai"), "{dbg}");
        assert!(c.openai_hosted);

        let mut bad = ProviderConfig::anthropic();
        bad.max_concurrency = 0;
        assert!(matches!(Client::new(bad, None), Err(ModelError::Config(_))));
        let mut bad = ProviderConfig::openai();
        bad.base_url = "ftp://x".into();
        assert!(matches!(Client::new(bad, None), Err(ModelError::Config(_))));
        let err = Client::new(ProviderConfig::openai(), Some(Secret::new("sk-a\nb"))).unwrap_err();
        assert!(!err.to_string().contains("sk-a"), "{err}");
    }

    #[test]
    fn redacts_an_echoed_key() {
        let c = Client::new(ProviderConfig::openai(), Some(Secret::new("sk-echoed-key-999"))).unwrap();
        let e = c.redact(ModelError::Unauthorized { status: 401, message: "bad key sk-echoed-key-999".into() });
        assert_eq!(e.to_string(), "bad key ***");
    }
}
