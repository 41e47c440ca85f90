//! Auth, model checks, the request log, runtime script changes, model list.

use crate::common::*;
use serde_json::{json, Value};
use skillscope_modelserver::{start, LoggedRequest, Script, ServerOptions, Step};

async fn keyed_server() -> skillscope_modelserver::ServerHandle {
    start(ServerOptions {
        script: script(),
        require_key: Some(KEY.to_string()),
        models: vec!["scripted-1".to_string(), "scripted-2".to_string()],
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn wrong_or_missing_key_gets_401_in_each_api_style() {
    let s = keyed_server().await;
    let c = client();
    let mut chat = chat_request("x", false);
    chat["model"] = json!("scripted-1");
    let mut msg = anthropic_request("x", false);
    msg["model"] = json!("scripted-1");

    let r =
        c.post(format!("{}/v1/chat/completions", s.base_url)).bearer_auth("sk-wrong").json(&chat).send().await.unwrap();
    assert_eq!(r.status(), 401);
    let b: Value = r.json().await.unwrap();
    assert_eq!(b["error"]["code"], "invalid_api_key");
    assert!(!b.to_string().contains("sk-wrong"));

    let r = c
        .post(format!("{}/v1/messages", s.base_url))
        .header("x-api-key", "sk-wrong")
        .header("anthropic-version", "2023-06-01")
        .json(&msg)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    let b: Value = r.json().await.unwrap();
    assert_eq!(b, json!({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}}));

    let r = c
        .post(format!("{}/v1/responses", s.base_url))
        .json(&json!({"model": "scripted-1", "input": "hi"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401, "no key at all");

    // The right key, by either header, works.
    let r = c.post(format!("{}/v1/messages", s.base_url)).header("x-api-key", KEY).json(&msg).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let (st, _) = post_json(&s, "/v1/chat/completions", &chat).await;
    assert_eq!(st, 200);
}

#[tokio::test]
async fn any_key_is_accepted_without_require_key_but_one_is_needed() {
    let s = server().await;
    let c = client();
    let url = format!("{}/v1/chat/completions", s.base_url);
    let r = c.post(&url).bearer_auth("whatever").json(&chat_request("x", false)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let r = c.post(&url).json(&chat_request("x", false)).send().await.unwrap();
    assert_eq!(r.status(), 401);
}

#[tokio::test]
async fn unknown_model_gets_404() {
    let s = keyed_server().await;
    let (st, b) = post_json(&s, "/v1/chat/completions", &chat_request("x", false)).await;
    assert_eq!(st, 404);
    assert_eq!(b["error"]["code"], "model_not_found");
    assert!(b["error"]["message"].as_str().unwrap().contains("test-model"));
    assert_error(&s, "/v1/responses", &responses_request("x", true), "code", (404, "model_not_found")).await;
    assert_error(&s, "/v1/messages", &anthropic_request("x", false), "type", (404, "not_found_error")).await;

    let mut req = anthropic_request("x", false);
    req["model"] = json!("scripted-2");
    let (st, b) = post_json(&s, "/v1/messages", &req).await;
    assert_eq!(st, 200);
    assert_eq!(b["model"], "scripted-2");
}

#[tokio::test]
async fn models_endpoint_lists_configured_models() {
    let s = keyed_server().await;
    let b = send_json(client().get(format!("{}/v1/models", s.base_url)).bearer_auth(KEY)).await;
    let ids: Vec<&str> = b["data"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["scripted-1", "scripted-2"]);
    assert_eq!(b["object"], "list");
}

#[tokio::test]
async fn request_log_redacts_keys_and_can_be_cleared() {
    let s = server().await;
    let c = client();
    let r = c
        .post(format!("{}/v1/messages?beta=true", s.base_url))
        .header("x-api-key", "sk-ant-very-secret")
        .header("authorization", "Bearer sk-also-secret")
        .header("anthropic-version", "2023-06-01")
        .json(&anthropic_request("x", false))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);

    let raw = c.get(format!("{}/_control/requests", s.base_url)).send().await.unwrap().text().await.unwrap();
    assert!(!raw.contains("sk-ant-very-secret") && !raw.contains("sk-also-secret"), "{raw}");
    let log: Vec<LoggedRequest> = serde_json::from_str(&raw).unwrap();
    assert_eq!(log.len(), 1);
    let r = &log[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path, "/v1/messages?beta=true");
    assert_eq!(r.headers["x-api-key"], "***");
    assert_eq!(r.headers["authorization"], "***");
    assert_eq!(r.headers["anthropic-version"], "2023-06-01");
    assert_eq!(r.body["model"], "test-model");
    assert_eq!(s.requests(), log);

    let r = c.delete(format!("{}/_control/requests", s.base_url)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(s.requests().is_empty());
}

#[tokio::test]
async fn script_can_be_replaced_at_runtime() {
    let s = server().await;
    // Over HTTP, as a bare list of steps.
    let r = client()
        .post(format!("{}/_control/script", s.base_url))
        .json(&json!([{"text": "Replaced."}]))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let (_, b) = post_json(&s, "/v1/chat/completions", &chat_request("x", false)).await;
    assert_eq!(b["choices"][0]["message"]["content"], "Replaced.");
    // Through the handle.
    s.set_script(Script { default: vec![Step::tool("read_file", json!({"path": "a"}))], branches: vec![] });
    let (_, b) = post_json(&s, "/v1/messages", &anthropic_request("x", false)).await;
    assert_eq!(b["content"][0]["name"], "read_file");
    assert_eq!(b["content"][0]["input"], json!({"path": "a"}));
    // An invalid script is refused and the old one stays.
    let r = client().post(format!("{}/_control/script", s.base_url)).body("{not json").send().await.unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(s.script().default.len(), 1);
}

#[tokio::test]
async fn head_probe_and_unknown_routes() {
    let s = server().await;
    let r = client().head(format!("{}/", s.base_url)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let r = client().post(format!("{}/v1/nope", s.base_url)).send().await.unwrap();
    assert_eq!(r.status(), 404);
}
