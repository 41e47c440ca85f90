//! pytest's JUnit XML report → pass ratio.

use super::{tail, Check, CheckOutcome, Score, ScoreError};
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

#[derive(Debug, Default, PartialEq)]
pub(super) struct Counts {
    pub passed: u32,
    pub failed: u32,
    pub skipped: u32,
    pub errors: u32,
    /// Test cases with both a failure and an error (counted as failed).
    pub double: u32,
    pub checks: Vec<Check>,
}

#[derive(Default)]
struct Case {
    failure: bool,
    error: bool,
    skipped: bool,
    duration_ms: Option<u64>,
    message: Option<String>,
}

/// Counts test cases by outcome. The root must be `testsuites` or
/// `testsuite`; test cases may sit in nested suites. `<testcase>` elements
/// with the same `classname` and `name` are one test (pytest writes a
/// teardown error after a failure as a second element).
pub(super) fn count(xml: &[u8]) -> Result<Counts, String> {
    let mut reader = Reader::from_reader(xml);
    reader.config_mut().trim_text(true);
    let mut depth = 0usize;
    let mut root_seen = false;
    let mut order: Vec<(String, Case)> = Vec::new();
    // Depth and index (in `order`) of the open <testcase>.
    let mut open: Option<(usize, usize)> = None;
    loop {
        let ev = reader.read_event().map_err(|e| format!("XML error at byte {}: {e}", reader.error_position()))?;
        match ev {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(ev, Event::Empty(_));
                let name = local(e);
                if !root_seen {
                    root_seen = true;
                    if name != "testsuites" && name != "testsuite" {
                        return Err(format!("root element is <{name}>, not <testsuites> or <testsuite>"));
                    }
                }
                match (open, name.as_str()) {
                    (None, "testcase") => {
                        let key = case_key(e, order.len());
                        let idx = match order.iter().position(|(k, _)| *k == key) {
                            Some(i) => i,
                            None => {
                                order.push((key, Case::default()));
                                order.len() - 1
                            }
                        };
                        let secs = attr(e, "time").and_then(|t| t.parse::<f64>().ok()).filter(|t| t.is_finite());
                        if let Some(secs) = secs {
                            let ms = (secs.max(0.0) * 1000.0).round() as u64;
                            let c = &mut order[idx].1;
                            c.duration_ms = Some(c.duration_ms.unwrap_or(0).saturating_add(ms));
                        }
                        if !empty {
                            open = Some((depth, idx));
                        }
                    }
                    (Some((d, idx)), outcome) if depth == d + 1 => {
                        let c = &mut order[idx].1;
                        match outcome {
                            "failure" => c.failure = true,
                            "error" => c.error = true,
                            "skipped" => c.skipped = true,
                            _ => {}
                        }
                        if matches!(outcome, "failure" | "error" | "skipped") && c.message.is_none() {
                            c.message = attr(e, "message");
                        }
                    }
                    _ => {}
                }
                if !empty {
                    depth += 1;
                }
            }
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                if open.is_some_and(|(d, _)| d == depth) {
                    open = None;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !root_seen {
        return Err("empty document".into());
    }
    if open.is_some() || depth != 0 {
        return Err("document ends inside an element".into());
    }
    let mut counts = Counts::default();
    for (id, c) in order {
        let outcome = tally(&mut counts, &c);
        counts.checks.push(Check { id, outcome, duration_ms: c.duration_ms, message: c.message });
    }
    Ok(counts)
}

fn attr(e: &BytesStart, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| AsRef::<str>::as_ref(&a.key) == key)
        .and_then(|a| a.normalized_value(XmlVersion::Implicit1_0).ok().map(|v| v.into_owned()))
}

/// `classname::name`; a test case without a name is its own test.
fn case_key(e: &BytesStart, index: usize) -> String {
    match attr(e, "name") {
        Some(n) => format!("{}::{n}", attr(e, "classname").unwrap_or_default()),
        None => format!("#{index}"),
    }
}

fn local(e: &BytesStart) -> String {
    AsRef::<str>::as_ref(&e.local_name()).to_string()
}

fn tally(counts: &mut Counts, c: &Case) -> CheckOutcome {
    if c.failure {
        counts.failed += 1;
        if c.error {
            counts.double += 1;
        }
        CheckOutcome::Failed
    } else if c.error {
        counts.errors += 1;
        CheckOutcome::Error
    } else if c.skipped {
        counts.skipped += 1;
        CheckOutcome::Skipped
    } else {
        counts.passed += 1;
        CheckOutcome::Passed
    }
}

pub(super) fn score(exit_code: Option<i64>, stdout: &str, report: Option<&[u8]>) -> Result<Score, ScoreError> {
    match exit_code {
        Some(5) => return Err(ScoreError::NoTestsCollected("pytest exited 5 (no tests were collected)".into())),
        Some(c @ (3 | 4)) => {
            let what = if c == 3 { "an internal error" } else { "a usage error" };
            return Err(ScoreError::VerifierFailed(format!("pytest exited {c} ({what}): {}", tail(stdout, 400))));
        }
        _ => {}
    }
    let Some(report) = report else {
        let code = exit_code.map_or("unknown".into(), |c| c.to_string());
        return Err(ScoreError::MissingReport(format!(
            "pytest wrote no JUnit report (exit {code}): {}",
            tail(stdout, 400)
        )));
    };
    let c = count(report).map_err(ScoreError::BadReport)?;
    let total = c.passed + c.failed + c.skipped + c.errors;
    if total == 0 {
        return Err(ScoreError::NoTestsCollected("the JUnit report holds no test cases".into()));
    }
    let bad = c.failed + c.errors;
    match exit_code {
        Some(0) if bad > 0 => {
            return Err(ScoreError::Inconsistent(format!(
                "pytest exited 0 but the report has {} failed and {} errors",
                c.failed, c.errors
            )))
        }
        Some(1) if bad == 0 => {
            return Err(ScoreError::Inconsistent(
                "pytest exited 1 (tests failed) but the report has no failures or errors".into(),
            ))
        }
        _ => {}
    }
    let mut detail =
        format!("pytest: {} passed, {} failed, {} skipped, {} errors", c.passed, c.failed, c.skipped, c.errors);
    if c.double > 0 {
        detail.push_str(&format!(" ({} failed test(s) also errored in teardown)", c.double));
    }
    if let Some(code) = exit_code.filter(|c| *c != 0 && *c != 1) {
        detail.push_str(&format!("; pytest exited {code}"));
    }
    Ok(Score {
        value: f64::from(c.passed) / f64::from(total),
        passed: c.passed,
        failed: c.failed,
        skipped: c.skipped,
        errors: c.errors,
        detail,
        checks: c.checks,
    })
}
