//! Faults on demand: each queued fault applies to one model request, in order.

use std::collections::VecDeque;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

/// One fault, applied to the next model request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fault {
    /// 429 with a `Retry-After` header.
    RateLimit {
        #[serde(default = "one")]
        retry_after_secs: u64,
    },
    /// An error status (500 by default; 529 gives Anthropic's overloaded error).
    ServerError {
        #[serde(default = "five_hundred")]
        status: u16,
    },
    /// Wait this long before the first byte, then answer normally.
    Slow { delay_ms: u64 },
    /// Wait this long, then answer with an error status: a provider failing after a while.
    SlowServerError {
        delay_ms: u64,
        #[serde(default = "five_hundred")]
        status: u16,
    },
    /// Send part of the answer, then close the connection.
    CutStream,
    /// A 200 whose body (or one stream event) is not valid JSON.
    MalformedJson,
    /// 401 as if the key were wrong.
    Unauthorized,
}

fn one() -> u64 {
    1
}

fn five_hundred() -> u16 {
    500
}

/// The queue of pending faults.
#[derive(Debug, Default)]
pub struct FaultQueue(Mutex<VecDeque<Fault>>);

impl FaultQueue {
    pub fn push(&self, faults: impl IntoIterator<Item = Fault>) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend(faults);
    }

    pub fn pop(&self) -> Option<Fault> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
    }

    pub fn pending(&self) -> Vec<Fault> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).iter().cloned().collect()
    }

    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind_in_order() {
        let f: Vec<Fault> = serde_json::from_str(
            r#"[{"kind":"rate_limit","retry_after_secs":2},{"kind":"server_error","status":503},
                {"kind":"slow","delay_ms":10},{"kind":"cut_stream"},{"kind":"malformed_json"},
                {"kind":"unauthorized"},{"kind":"rate_limit"},{"kind":"server_error"},
                {"kind":"slow_server_error","delay_ms":5}]"#,
        )
        .unwrap();
        let q = FaultQueue::default();
        q.push(f);
        assert_eq!(q.pop(), Some(Fault::RateLimit { retry_after_secs: 2 }));
        assert_eq!(q.pop(), Some(Fault::ServerError { status: 503 }));
        assert_eq!(q.pop(), Some(Fault::Slow { delay_ms: 10 }));
        assert_eq!(q.pop(), Some(Fault::CutStream));
        assert_eq!(q.pop(), Some(Fault::MalformedJson));
        assert_eq!(q.pop(), Some(Fault::Unauthorized));
        assert_eq!(q.pop(), Some(Fault::RateLimit { retry_after_secs: 1 }));
        assert_eq!(q.pop(), Some(Fault::ServerError { status: 500 }));
        assert_eq!(q.pop(), Some(Fault::SlowServerError { delay_ms: 5, status: 500 }));
        assert_eq!(q.pop(), None);
    }
}
