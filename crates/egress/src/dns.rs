//! DNS on the sink: every query is recorded and answered so that the client goes on to connect
//! to the forwarder: `A` with 127.0.0.1, anything else with an empty NOERROR answer (an `AAAA`
//! of ::1 would fail in containers whose loopback has no IPv6, and clients fall back to `A`).

use std::fmt::Write as _;

use tokio::io::{AsyncRead, AsyncWrite};

use crate::conn::Conn;
use crate::record::{lossy, EgressKind, EgressRecord, Recorder, BODY_CAP};

const HEADER: usize = 12;
const TYPE_A: u16 = 1;
const CLASS_IN: u16 = 1;
const TTL_SECS: u32 = 60;
const FORMERR: u8 = 1;
const NOTIMP: u8 = 4;
/// Most compression pointers followed in one name (a loop of them would never end).
const MAX_POINTERS: usize = 16;
const MAX_NAME: usize = 255;

#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Question {
    /// The name in presentation form, case kept (`\DDD` for unusual bytes).
    pub(crate) name: String,
    pub(crate) qtype: u16,
    pub(crate) qclass: u16,
    /// Index just past the question in the message.
    end: usize,
}

/// The first question of a query message.
pub(crate) fn question(msg: &[u8]) -> Option<Question> {
    if msg.len() < HEADER || u16::from_be_bytes([msg[4], msg[5]]) == 0 {
        return None;
    }
    let mut pos = HEADER;
    let mut end = None;
    let mut labels: Vec<&[u8]> = Vec::new();
    let (mut wire_len, mut pointers) = (1, 0);
    loop {
        let len = *msg.get(pos)?;
        match len & 0xC0 {
            0x00 if len == 0 => break,
            0x00 => {
                let label = msg.get(pos + 1..pos + 1 + usize::from(len))?;
                wire_len += 1 + label.len();
                if wire_len > MAX_NAME {
                    return None;
                }
                labels.push(label);
                pos += 1 + label.len();
            }
            0xC0 => {
                pointers += 1;
                let low = *msg.get(pos + 1)?;
                if pointers > MAX_POINTERS {
                    return None;
                }
                end.get_or_insert(pos + 2);
                pos = usize::from(len & 0x3F) << 8 | usize::from(low);
            }
            _ => return None,
        }
    }
    let end = end.unwrap_or(pos + 1);
    let fixed = msg.get(end..end + 4)?;
    Some(Question {
        name: presentation(&labels),
        qtype: u16::from_be_bytes([fixed[0], fixed[1]]),
        qclass: u16::from_be_bytes([fixed[2], fixed[3]]),
        end: end + 4,
    })
}

fn presentation(labels: &[&[u8]]) -> String {
    if labels.is_empty() {
        return ".".to_string();
    }
    let mut name = String::new();
    for (i, label) in labels.iter().enumerate() {
        if i > 0 {
            name.push('.');
        }
        for &b in *label {
            match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' => name.push(char::from(b)),
                b'.' | b'\\' => {
                    name.push('\\');
                    name.push(char::from(b));
                }
                _ => {
                    let _ = write!(name, "\\{b:03}");
                }
            }
        }
    }
    name
}

pub(crate) fn type_name(qtype: u16) -> String {
    let known = match qtype {
        1 => "A",
        2 => "NS",
        5 => "CNAME",
        6 => "SOA",
        12 => "PTR",
        15 => "MX",
        16 => "TXT",
        28 => "AAAA",
        33 => "SRV",
        64 => "SVCB",
        65 => "HTTPS",
        255 => "ANY",
        _ => return format!("TYPE{qtype}"),
    };
    known.to_string()
}

/// The question and the answer to a query message; no answer to what is not a query.
pub(crate) fn respond(msg: &[u8]) -> (Option<Question>, Option<Vec<u8>>) {
    if msg.len() < HEADER || msg[2] & 0x80 != 0 {
        return (None, None);
    }
    let opcode = (msg[2] >> 3) & 0x0F;
    let header = |rcode: u8, qd: u16, an: u16| {
        let mut h = Vec::with_capacity(HEADER);
        h.extend_from_slice(&msg[..2]);
        h.push(0x80 | (msg[2] & 0x79) | 0x04); // QR, opcode and RD kept, AA
        h.push(0x80 | rcode); // RA
        for count in [qd, an, 0, 0] {
            h.extend_from_slice(&count.to_be_bytes());
        }
        h
    };
    if opcode != 0 {
        return (None, Some(header(NOTIMP, 0, 0)));
    }
    let Some(q) = question(msg) else { return (None, Some(header(FORMERR, 0, 0))) };
    let a = q.qtype == TYPE_A && q.qclass == CLASS_IN;
    let mut answer = header(0, 1, u16::from(a));
    answer.extend_from_slice(&msg[HEADER..q.end]);
    if a {
        answer.extend_from_slice(&[0xC0, 0x0C, 0, 1, 0, 1]); // the question's name, A, IN
        answer.extend_from_slice(&TTL_SECS.to_be_bytes());
        answer.extend_from_slice(&[0, 4, 127, 0, 0, 1]);
    }
    (Some(q), Some(answer))
}

/// Serves queries framed like DNS over TCP (2-byte length, message) until the stream ends.
pub(crate) async fn serve<S: AsyncRead + AsyncWrite + Unpin>(conn: &mut Conn<S>, rec: &Recorder) {
    while let Ok(true) = conn.fill_to(2).await {
        let len = usize::from(u16::from_be_bytes([conn.buffered()[0], conn.buffered()[1]]));
        conn.consume(2);
        if !matches!(conn.fill_to(len).await, Ok(true)) {
            return;
        }
        let msg = conn.buffered()[..len].to_vec();
        conn.consume(len);
        let (q, answer) = respond(&msg);
        let mut record = EgressRecord::new(EgressKind::Dns, Some(53));
        match q {
            Some(q) => {
                record.host = Some(q.name);
                record.query_type = Some(type_name(q.qtype));
            }
            None => {
                record.body = lossy(&msg, BODY_CAP);
                record.body_bytes = msg.len() as u64;
            }
        }
        rec.push(record);
        let Some(answer) = answer else { return };
        let mut framed = u16::try_from(answer.len()).unwrap_or(0).to_be_bytes().to_vec();
        framed.extend_from_slice(&answer);
        if conn.write(&framed).await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::xorshift;

    fn query(id: u16, labels: &[&[u8]], qtype: u16) -> Vec<u8> {
        let mut q = id.to_be_bytes().to_vec();
        q.extend_from_slice(&[0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]); // RD, one question
        for label in labels {
            q.push(u8::try_from(label.len()).unwrap());
            q.extend_from_slice(label);
        }
        q.push(0);
        q.extend_from_slice(&qtype.to_be_bytes());
        q.extend_from_slice(&CLASS_IN.to_be_bytes());
        q
    }

    #[test]
    fn an_a_query_is_answered_with_loopback() {
        let q = query(0xBEEF, &[b"CANARY", b"attacker", b"example"], TYPE_A);
        let (question, answer) = respond(&q);
        let question = question.unwrap();
        assert_eq!((question.name.as_str(), question.qtype, question.qclass), ("CANARY.attacker.example", 1, 1));
        let answer = answer.unwrap();
        assert_eq!(&answer[..2], &[0xBE, 0xEF]);
        assert_eq!(answer[2] & 0x80, 0x80, "a response");
        assert_eq!(answer[2] & 0x01, 0x01, "RD echoed");
        assert_eq!(answer[3] & 0x0F, 0, "NOERROR");
        assert_eq!(&answer[4..8], &[0, 1, 0, 1], "one question, one answer");
        assert_eq!(&answer[HEADER..q.len()], &q[HEADER..], "the question echoed");
        assert_eq!(&answer[answer.len() - 4..], &[127, 0, 0, 1]);
    }

    #[test]
    fn other_types_get_an_empty_answer() {
        for qtype in [28, 16, 15, 255, 4242] {
            let (question, answer) = respond(&query(1, &[b"x", b"example"], qtype));
            assert_eq!(question.unwrap().qtype, qtype);
            let answer = answer.unwrap();
            assert_eq!((answer[3] & 0x0F, &answer[4..8]), (0, &[0, 1, 0, 0][..]), "type {qtype}");
        }
        assert_eq!(type_name(28), "AAAA");
        assert_eq!(type_name(4242), "TYPE4242");
    }

    #[test]
    fn names_are_shown_with_odd_bytes_escaped() {
        let (q, _) = respond(&query(1, &[b"a.b", b"c\\d", &[0, 0xFF, b' ']], TYPE_A));
        assert_eq!(q.unwrap().name, r"a\.b.c\\d.\000\255\032");
        let (root, _) = respond(&query(1, &[], 2));
        assert_eq!(root.unwrap().name, ".");
    }

    #[test]
    fn bad_queries_get_an_error_or_nothing() {
        let rcode = |msg: &[u8]| respond(msg).1.map(|a| a[3] & 0x0F);
        assert_eq!(rcode(&[0; 11]), None, "shorter than a header");
        let mut response = query(1, &[b"x"], TYPE_A);
        response[2] |= 0x80;
        assert_eq!(rcode(&response), None, "a response is not answered");
        let mut notify = query(1, &[b"x"], TYPE_A);
        notify[2] |= 4 << 3;
        assert_eq!(rcode(&notify), Some(NOTIMP));
        let mut none = query(1, &[b"x"], TYPE_A);
        none[5] = 0;
        assert_eq!(rcode(&none), Some(FORMERR), "no question");
        // A name that points at itself, and one that is too long.
        let mut looped = query(1, &[], TYPE_A);
        looped.splice(HEADER..HEADER + 1, [0xC0, 12]);
        assert_eq!(rcode(&looped), Some(FORMERR));
        let long: Vec<&[u8]> = vec![&[b'a'; 63]; 5];
        assert_eq!(rcode(&query(1, &long, TYPE_A)), Some(FORMERR));
        assert_eq!(rcode(&[0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x80]), Some(FORMERR), "a reserved label type");
    }

    #[test]
    fn truncated_and_random_queries_never_panic() {
        let q = query(7, &[b"exfil", b"example"], TYPE_A);
        for cut in 0..q.len() {
            let (question, _) = respond(&q[..cut]);
            assert!(question.is_none(), "cut at {cut}");
        }
        for at in 0..q.len() {
            for value in [0x00, 0x3F, 0x40, 0xC0, 0xFF] {
                let mut bad = q.clone();
                bad[at] = value;
                let _ = respond(&bad);
            }
        }
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..5000 {
            let mut bytes: Vec<u8> = (0..(seed % 80)).map(|_| xorshift(&mut seed) as u8).collect();
            if bytes.len() > 5 {
                bytes[2] &= 0x7F;
                bytes[4..6].copy_from_slice(&[0, 1]);
            }
            let _ = respond(&bytes);
        }
    }
}
