//! A small Server-Sent Events parser over a byte stream (the subset model APIs use: `event:`,
//! `data:`, comments, and any of the three line endings).

/// One dispatched event. `event` is `None` when the server sent no `event:` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    pub event: Option<String>,
    pub data: String,
}

/// Incremental parser: feed it chunks as they arrive, take out complete events.
#[derive(Debug, Default)]
pub struct SseParser {
    buf: Vec<u8>,
    /// A `\r` ended the buffer, so a `\n` at the start of the next chunk belongs to it.
    pending_cr: bool,
    event: Option<String>,
    data: Vec<String>,
    has_data: bool,
}

impl SseParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds bytes and returns the events they complete.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let mut chunk = chunk;
        if self.pending_cr {
            self.pending_cr = false;
            if chunk.first() == Some(&b'\n') {
                chunk = &chunk[1..];
            }
        }
        self.buf.extend_from_slice(chunk);
        let mut start = 0;
        let mut i = 0;
        while i < self.buf.len() {
            let b = self.buf[i];
            if b == b'\n' || b == b'\r' {
                let line = String::from_utf8_lossy(&self.buf[start..i]).into_owned();
                let mut next = i + 1;
                if b == b'\r' {
                    if next < self.buf.len() {
                        if self.buf[next] == b'\n' {
                            next += 1;
                        }
                    } else {
                        self.pending_cr = true;
                    }
                }
                self.line(&line, &mut out);
                start = next;
                i = next;
            } else {
                i += 1;
            }
        }
        self.buf.drain(..start);
        out
    }

    /// True when bytes of an unfinished line or event are held (the stream stopped mid-event).
    pub fn has_partial(&self) -> bool {
        !self.buf.is_empty() || self.has_data || self.event.is_some()
    }

    fn line(&mut self, line: &str, out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            if self.has_data {
                out.push(SseEvent { event: self.event.take(), data: self.data.join("\n") });
            }
            self.event = None;
            self.data.clear();
            self.has_data = false;
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.find(':') {
            Some(pos) => {
                let v = &line[pos + 1..];
                (&line[..pos], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (line, ""),
        };
        match field {
            "event" => self.event = Some(value.to_string()),
            "data" => {
                self.data.push(value.to_string());
                self.has_data = true;
            }
            _ => {} // id, retry and unknown fields are of no use here
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut p = SseParser::new();
        chunks.iter().flat_map(|c| p.push(c)).collect()
    }

    #[test]
    fn parses_events_split_anywhere() {
        let whole = b"event: message_start\ndata: {\"a\":1}\n\n: ping comment\n\ndata: x\ndata: y\n\ndata: [DONE]\n\n";
        let expected = vec![
            SseEvent { event: Some("message_start".into()), data: "{\"a\":1}".into() },
            SseEvent { event: None, data: "x\ny".into() },
            SseEvent { event: None, data: "[DONE]".into() },
        ];
        assert_eq!(feed(&[whole]), expected);
        for split in 1..whole.len() {
            let (a, b) = whole.split_at(split);
            assert_eq!(feed(&[a, b]), expected, "split at {split}");
        }
        let bytes: Vec<&[u8]> = whole.chunks(1).collect();
        assert_eq!(feed(&bytes), expected);
    }

    #[test]
    fn handles_crlf_and_cr_line_endings_across_chunks() {
        assert_eq!(
            feed(&[b"data: a\r", b"\n\r", b"\ndata:b\r\r"]),
            vec![SseEvent { event: None, data: "a".into() }, SseEvent { event: None, data: "b".into() },]
        );
    }

    #[test]
    fn multibyte_utf8_split_across_chunks_survives() {
        let s = "data: héllo ✓\n\n".as_bytes();
        let (a, b) = s.split_at(9); // inside the 'é'
        assert_eq!(feed(&[a, b])[0].data, "héllo ✓");
    }

    #[test]
    fn reports_a_partial_event() {
        let mut p = SseParser::new();
        assert!(p.push(b"data: {\"a\":").is_empty());
        assert!(p.has_partial());
        let mut q = SseParser::new();
        q.push(b"data: 1\n\n");
        assert!(!q.has_partial());
    }
}
