//! Backoff between attempts and the reading of `Retry-After`.

use crate::error::ModelError;
use reqwest::header::HeaderMap;
use std::time::{Duration, SystemTime};

/// How long to wait between attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Wait before the first retry; doubled for each further one.
    pub base_delay: Duration,
    /// No exponential wait is longer than this.
    pub max_delay: Duration,
    /// A `Retry-After` longer than this is not waited for: the error is returned at once.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            max_retry_after: Duration::from_secs(300),
        }
    }
}

impl RetryPolicy {
    /// Exponential backoff with jitter for the retry numbered `retry` (0 for the first): a random
    /// wait between half and all of `base_delay * 2^retry`, capped at `max_delay`.
    pub fn backoff(&self, retry: u32) -> Duration {
        let exp = self.base_delay.saturating_mul(1u32 << retry.min(20));
        let full = exp.min(self.max_delay);
        let half = full / 2;
        half + full.mul_f64(fastrand::f64() * 0.5)
    }

    /// The wait before retrying after `err`, or `None` when it should not be retried at all
    /// (a `Retry-After` beyond `max_retry_after`). A `Retry-After` is honoured in full, plus a
    /// little jitter so that concurrent callers do not return in lockstep.
    pub fn delay_for(&self, err: &ModelError, retry: u32) -> Option<Duration> {
        match err {
            ModelError::RateLimited { retry_after: Some(after) } => {
                if *after > self.max_retry_after {
                    None
                } else {
                    Some(*after + Duration::from_millis(fastrand::u64(0..=100)))
                }
            }
            _ => Some(self.backoff(retry)),
        }
    }
}

/// Reads `retry-after-ms` (OpenAI) or `Retry-After` (seconds, possibly fractional, or an HTTP date).
pub(crate) fn parse_retry_after(headers: &HeaderMap) -> Option<Duration> {
    if let Some(ms) = headers
        .get("retry-after-ms")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
    {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    let value = headers.get("retry-after")?.to_str().ok()?.trim();
    parse_retry_after_value(value, SystemTime::now())
}

pub(crate) fn parse_retry_after_value(value: &str, now: SystemTime) -> Option<Duration> {
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_with_jitter_and_caps() {
        let p = RetryPolicy {
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(1),
            max_retry_after: Duration::from_secs(10),
        };
        for _ in 0..50 {
            let d0 = p.backoff(0);
            assert!(d0 >= Duration::from_millis(50) && d0 <= Duration::from_millis(100), "{d0:?}");
            let d2 = p.backoff(2);
            assert!(d2 >= Duration::from_millis(200) && d2 <= Duration::from_millis(400), "{d2:?}");
            let d9 = p.backoff(9);
            assert!(d9 >= Duration::from_millis(500) && d9 <= Duration::from_secs(1), "{d9:?}");
        }
        assert!(p.backoff(40) <= Duration::from_secs(1));
        let samples: std::collections::HashSet<_> = (0..20).map(|_| p.backoff(3)).collect();
        assert!(samples.len() > 1, "backoff has no jitter");
    }

    #[test]
    fn retry_after_is_honoured_unless_too_long() {
        let p = RetryPolicy::default();
        let e = ModelError::RateLimited { retry_after: Some(Duration::from_secs(2)) };
        let d = p.delay_for(&e, 0).unwrap();
        assert!(d >= Duration::from_secs(2) && d <= Duration::from_millis(2100));
        let e = ModelError::RateLimited { retry_after: Some(Duration::from_secs(3600)) };
        assert_eq!(p.delay_for(&e, 0), None);
    }

    #[test]
    fn parses_seconds_and_http_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480); // 21 Oct 2015 07:28:00 GMT
        assert_eq!(parse_retry_after_value("3", now), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after_value("1.5", now), Some(Duration::from_millis(1500)));
        assert_eq!(parse_retry_after_value("Wed, 21 Oct 2015 07:28:30 GMT", now), Some(Duration::from_secs(30)));
        assert_eq!(parse_retry_after_value("Wed, 21 Oct 2015 07:27:00 GMT", now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after_value("soon", now), None);
        assert_eq!(parse_retry_after_value("-1", now), None);

        let mut h = HeaderMap::new();
        h.insert("retry-after", "7".parse().unwrap());
        assert_eq!(parse_retry_after(&h), Some(Duration::from_secs(7)));
        h.insert("retry-after-ms", "250".parse().unwrap());
        assert_eq!(parse_retry_after(&h), Some(Duration::from_millis(250)));
    }
}
