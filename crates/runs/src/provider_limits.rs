//! One concurrency limit per model provider for the whole process: every trial builds its own
//! client, and all of them share the provider's limit, so `max_concurrency` holds across every
//! trial running at once (and the Claude Code proxy, which uses the trial's client).

use skillscope_models::ProviderConfig;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};
use tokio::sync::Semaphore;

/// Keyed by provider id and limit: a changed limit takes effect for trials that start after it.
type Limits = HashMap<(String, u32), Arc<Semaphore>>;
static LIMITS: LazyLock<Mutex<Limits>> = LazyLock::new(Default::default);

pub fn shared(provider: &ProviderConfig) -> Arc<Semaphore> {
    let mut limits = LIMITS.lock().unwrap_or_else(|e| e.into_inner());
    limits
        .entry((provider.id.clone(), provider.max_concurrency))
        .or_insert_with(|| Arc::new(Semaphore::new(provider.max_concurrency.max(1) as usize)))
        .clone()
}
