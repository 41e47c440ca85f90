//! Redaction removes planted secrets of every shape and leaves ordinary
//! text alone.

use serde_json::json;
use skillscope_atif::Redactor;

fn plain() -> Redactor {
    Redactor::new(Vec::new())
}

#[test]
fn known_secret_values_are_replaced() {
    let redactor =
        Redactor::new(vec!["hunter2-correct-horse".into(), "short".into(), "abcdefgh12".into(), "gh12XYZW99".into()]);
    assert_eq!(
        redactor.redact("pw hunter2-correct-horse, again hunter2-correct-horse; short stays"),
        "pw [REDACTED], again [REDACTED]; short stays"
    );
    // Overlapping secrets leave no fragment behind.
    assert_eq!(redactor.redact("xxabcdefgh12XYZW99yy"), "xx[REDACTED]yy");
}

#[test]
fn key_shapes_are_replaced() {
    let cases = [
        (
            "OpenAI key sk-abc123DEF456ghi789JKL012mno345PQR678stu901VWX2 leaked",
            "OpenAI key [REDACTED] leaked",
        ),
        (
            "export KEY=sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90_Uv-Wx",
            "export KEY=[REDACTED]",
        ),
        (
            "x-api-key: sk-ant-api03-AbCdEf0123456789AbCdEf0123456789-AbCdEf_0123456789AA",
            "x-api-key: [REDACTED]",
        ),
        (
            "git clone https://ghp_1234567890abcdefghijABCDEFGHIJ123456@github.com/o/r",
            "git clone https://[REDACTED]@github.com/o/r",
        ),
        (
            "GH=github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV0123456789",
            "GH=[REDACTED]",
        ),
        ("aws id AKIAIOSFODNN7EXAMPLE in config", "aws id [REDACTED] in config"),
        (
            "Authorization: Bearer abcDEF123456ghiJKL789.xyz",
            "Authorization: Bearer [REDACTED]",
        ),
        (
            "GET https://api.example.com/v1?api_key=Zx9Yw8Vu7Ts6&q=1",
            "GET https://api.example.com/v1?api_key=[REDACTED]&q=1",
        ),
        (r#"{"api_key": "Zx9Yw8Vu7Ts6Rq5"}"#, r#"{"api_key": "[REDACTED]"}"#),
        ("OPENAI_API_KEY=abcd1234efgh5678 python run.py", "OPENAI_API_KEY=[REDACTED] python run.py"),
        (r#"{\"password\": \"P4ssw0rd!!\"}"#, r#"{\"password\": \"[REDACTED]\"}"#),
        ("db password: CorrectHorse", "db password: [REDACTED]"),
        (
            "token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end",
            "token [REDACTED] end",
        ),
        (
            "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc+/=\n-----END RSA PRIVATE KEY-----\ndone",
            "key:\n[REDACTED]\ndone",
        ),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
            "[REDACTED]",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(plain().redact(input), expected, "input: {input}");
    }
}

#[test]
fn ordinary_text_is_left_alone() {
    let texts = [
        "The task-force met about risk-assessment-and-mitigation-strategy-2024.",
        "Use the sk-learn estimator; ask-me-anything threads are fine.",
        "He was the bearer of good news: Bearer authentication-is-required here.",
        "password: required, token: expired, secret: unknown",
        "max_tokens=4096, prompt_tokens: 18907, \"cached_tokens\": 13788",
        "total_token: 12345678",
        "AKIA keys start with AKIA; ghp_ tokens start with ghp_.",
        "session d7d4e19e-608d-44ef-b166-cd050ef274ba, tool toolu_01Rmm2GPxpGq9Er31axjfYRv",
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
        "eyJ is how base64 JSON starts.",
        "Created `/app/hello.txt` containing `Hello, world!`.",
    ];
    for text in texts {
        assert_eq!(plain().redact(text), text);
    }
}

#[test]
fn every_string_in_json_is_redacted() {
    let redactor = Redactor::new(vec!["my-very-own-secret".into()]);
    let mut value = json!({
        "message": "key is my-very-own-secret",
        "tool_calls": [{"arguments": {"env": {"OPENAI_API_KEY": "sk-abc123DEF456ghi789JKL012mno345"}}}],
        "metrics": {"prompt_tokens": 12345678},
        "ok": true,
        "nothing": null,
        "my-very-own-secret": "keys are kept"
    });
    redactor.redact_json(&mut value);
    assert_eq!(
        value,
        json!({
            "message": "key is [REDACTED]",
            "tool_calls": [{"arguments": {"env": {"OPENAI_API_KEY": "[REDACTED]"}}}],
            "metrics": {"prompt_tokens": 12345678},
            "ok": true,
            "nothing": null,
            "my-very-own-secret": "keys are kept"
        })
    );
}
