//! Live output of running trials, kept (bounded) so a page opened late still sees it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

const LOG_CAP: usize = 256 * 1024;

#[derive(Default, Clone)]
pub(crate) struct LiveLogs(Arc<Mutex<HashMap<i64, String>>>);

impl LiveLogs {
    /// Appends output of a trial, dropping the oldest text beyond the cap (at a char boundary).
    pub(crate) fn append(&self, trial: i64, text: &str) {
        let mut map = self.0.lock().expect("log lock");
        let log = map.entry(trial).or_default();
        log.push_str(text);
        if log.len() > LOG_CAP {
            let cut = log.len() - LOG_CAP;
            let cut = (cut..log.len()).find(|i| log.is_char_boundary(*i)).unwrap_or(log.len());
            log.replace_range(..cut, "");
        }
    }

    pub(crate) fn get(&self, trial: i64) -> String {
        self.0.lock().expect("log lock").get(&trial).cloned().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_output_within_the_cap_at_a_char_boundary() {
        let logs = LiveLogs::default();
        logs.append(1, &"é".repeat(LOG_CAP));
        logs.append(1, "end");
        let log = logs.get(1);
        assert!(log.len() <= LOG_CAP && log.ends_with("end"));
        assert_eq!(logs.get(2), "");
    }
}
