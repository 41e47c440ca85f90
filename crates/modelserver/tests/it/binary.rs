//! The `skillscope-model-server` binary: args, the listening line, serving.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::common::send_json;
use serde_json::json;

struct Kill(std::process::Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn binary_serves_script_with_key_and_models() {
    let dir = std::env::temp_dir().join(format!("msrv-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("script.json");
    std::fs::write(&script, r#"{"default": [{"text": "From file."}]}"#).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillscope-model-server"))
        .args(["--port", "0", "--require-key", "K1", "--model", "m1", "--model", "m2"])
        .arg("--script")
        .arg(&script)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let child = Kill(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    assert!(base.starts_with("http://127.0.0.1:"));

    let c = reqwest::Client::new();
    let req = json!({"model": "m2", "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "bash", "parameters": {}}}]});
    let b = send_json(c.post(format!("{base}/v1/chat/completions")).bearer_auth("K1").json(&req)).await;
    assert_eq!(b["choices"][0]["message"]["content"], "From file.");
    let r = c.post(format!("{base}/v1/chat/completions")).bearer_auth("K2").json(&req).send().await.unwrap();
    assert_eq!(r.status(), 401);
    let models = send_json(c.get(format!("{base}/v1/models"))).await;
    assert_eq!(models["data"][1]["id"], "m2");
    drop(child);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn binary_rejects_a_bad_script_file() {
    let out = Command::new(env!("CARGO_BIN_EXE_skillscope-model-server"))
        .args(["--script", "/nonexistent/script.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}
