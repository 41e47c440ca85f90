//! Real HTTP against the scripted model server (`skillscope-modelserver`), for all four APIs.

use serde_json::{json, Value};
use skillscope_models::{
    ApiKind, ChatRequest, ChatResponse, Client, Message, ModelError, ProviderConfig, RetryPolicy, Secret, ToolDef,
    Usage,
};
use skillscope_modelserver::api::{Api, Usage as ServerUsage};
use skillscope_modelserver::{start, Fault, LoggedRequest, ServerHandle, ServerOptions};
use std::time::{Duration, Instant};

const KEY: &str = "sk-test-0123456789abcdef-SECRET";
const MODEL: &str = "scripted-model";
const LONG_COMMAND: &str = "ls -la /work/some/rather/long/path && wc -l README.md";
const FINAL_TEXT: &str = "Done: there are three files and the README has 42 lines.";

const ALL: [ApiKind; 4] = [ApiKind::OpenAiChat, ApiKind::Anthropic, ApiKind::OpenAiResponses, ApiKind::Gemini];

async fn server_with(models: Vec<String>) -> ServerHandle {
    let script = serde_json::from_value(json!({
        "default": [{"tool": "bash", "args": {"command": LONG_COMMAND}}, {"text": FINAL_TEXT}]
    }))
    .unwrap();
    start(ServerOptions { script, require_key: Some(KEY.to_string()), models })
        .await
        .expect("start the scripted model server")
}

async fn server() -> ServerHandle {
    server_with(Vec::new()).await
}

fn config(api: ApiKind, base_url: &str) -> ProviderConfig {
    let id = match api {
        ApiKind::OpenAiChat => "test-chat",
        ApiKind::OpenAiResponses => "test-responses",
        ApiKind::Anthropic => "test-anthropic",
        ApiKind::Gemini => "test-gemini",
    };
    let mut cfg = ProviderConfig::new(id, api, base_url);
    cfg.timeout_secs = 5;
    cfg.max_retries = 3;
    cfg
}

fn fast(c: Client) -> Client {
    c.with_retry_policy(RetryPolicy {
        base_delay: Duration::from_millis(20),
        max_delay: Duration::from_millis(200),
        max_retry_after: Duration::from_secs(10),
    })
}

fn client_for(cfg: ProviderConfig) -> Client {
    fast(Client::new(cfg, Some(Secret::new(KEY))).unwrap())
}

fn bash_tool() -> ToolDef {
    ToolDef {
        name: "bash".into(),
        description: "Run a shell command.".into(),
        parameters: json!({
            "type": "object",
            "properties": {"command": {"type": "string"}},
            "required": ["command"]
        }),
    }
}

fn first_request() -> ChatRequest {
    ChatRequest {
        model: MODEL.into(),
        system: "You are a careful coding agent.".into(),
        messages: vec![Message::user("How many files are there?")],
        tools: vec![bash_tool()],
        temperature: Some(0.0),
        max_tokens: Some(512),
    }
}

async fn complete(c: &Client, req: &ChatRequest) -> (Result<ChatResponse, ModelError>, Vec<String>) {
    let mut deltas = Vec::new();
    let r = c.complete(req, &mut |t: &str| deltas.push(t.to_string())).await;
    (r, deltas)
}

/// The usage the scripted server computes for a logged request.
fn expected_usage(srv: &ServerHandle, api: ApiKind, logged: &LoggedRequest) -> Usage {
    let server_api = match api {
        ApiKind::OpenAiChat => Api::ChatCompletions,
        ApiKind::OpenAiResponses => Api::Responses,
        ApiKind::Anthropic => Api::Anthropic,
        ApiKind::Gemini => Api::Gemini,
    };
    let conv = server_api.conversation(&logged.path, &logged.body);
    let u = ServerUsage::estimate(&conv, &srv.script().plan(&conv));
    Usage { input_tokens: u.input, cached_tokens: u.cached, output_tokens: u.output }
}

/// Tool call → tool result → final text, streamed, for one API; checks what was assembled and
/// what the server received.
async fn conversation(api: ApiKind) {
    let srv = server().await;
    let c = client_for(config(api, &srv.base_url));
    let mut req = first_request();

    // Turn 1: a tool call whose arguments arrive in fragments.
    let (r, deltas) = complete(&c, &req).await;
    let r = r.unwrap_or_else(|e| panic!("{api:?} turn 1: {e}"));
    assert!(deltas.is_empty(), "{api:?}: no text expected, got {deltas:?}");
    assert_eq!(r.text, None);
    assert_eq!(r.tool_calls.len(), 1, "{r:?}");
    let call = &r.tool_calls[0];
    assert_eq!(call.name, "bash");
    assert_eq!(call.arguments, json!({"command": LONG_COMMAND}));
    assert!(!call.id.is_empty());
    assert_eq!(r.attempts, 1);
    assert_eq!(r.model, MODEL);
    let expected_stop = match api {
        ApiKind::OpenAiChat | ApiKind::OpenAiResponses => "tool_calls",
        ApiKind::Anthropic => "tool_use",
        ApiKind::Gemini => "STOP",
    };
    assert_eq!(r.stop_reason, expected_stop);
    let logged = srv.requests();
    assert_eq!(logged.len(), 1);
    assert_eq!(r.usage, expected_usage(&srv, api, &logged[0]));
    assert!(r.usage.input_tokens > 0 && r.usage.output_tokens > 0, "{:?}", r.usage);

    // Turn 2: the tool result goes back; the final text streams in several deltas.
    req.messages.push(Message::Assistant { text: r.text.clone(), tool_calls: r.tool_calls.clone() });
    req.messages.push(Message::ToolResult {
        call_id: call.id.clone(),
        content: "a.txt\nb.txt\nREADME.md\n42 README.md".into(),
        is_error: false,
    });
    let (r2, deltas) = complete(&c, &req).await;
    let r2 = r2.unwrap_or_else(|e| panic!("{api:?} turn 2: {e}"));
    assert_eq!(r2.text.as_deref(), Some(FINAL_TEXT));
    assert!(r2.tool_calls.is_empty());
    assert!(deltas.len() > 1, "{api:?}: text should stream in pieces: {deltas:?}");
    assert_eq!(deltas.concat(), FINAL_TEXT);
    let expected_stop = match api {
        ApiKind::OpenAiChat => "stop",
        ApiKind::OpenAiResponses => "completed",
        ApiKind::Anthropic => "end_turn",
        ApiKind::Gemini => "STOP",
    };
    assert_eq!(r2.stop_reason, expected_stop);
    let logged = srv.requests();
    assert_eq!(logged.len(), 2);
    let second = &logged[1];
    assert_eq!(r2.usage, expected_usage(&srv, api, second));
    assert!(r2.usage.cached_tokens > 0 && r2.usage.cached_tokens < r2.usage.input_tokens, "{api:?}: {:?}", r2.usage);

    // The request as the server saw it.
    let b = &second.body;
    if api != ApiKind::Gemini {
        // Gemini has them in the path.
        assert_eq!(b["model"], json!(MODEL));
        assert_eq!(b["stream"], json!(true));
    }
    let args_text = serde_json::to_string(&json!({"command": LONG_COMMAND})).unwrap();
    match api {
        ApiKind::OpenAiChat => {
            assert_eq!(second.path, "/v1/chat/completions");
            assert_eq!(second.headers.get("authorization").map(String::as_str), Some("***"));
            assert!(!second.headers.contains_key("x-api-key"));
            assert_eq!(b["stream_options"], json!({"include_usage": true}));
            assert_eq!(b["max_tokens"], json!(512));
            assert_eq!(
                b["tools"],
                json!([{"type": "function", "function": {
                    "name": "bash", "description": "Run a shell command.", "parameters": bash_tool().parameters
                }}])
            );
            let m = b["messages"].as_array().unwrap();
            assert_eq!(m.len(), 4);
            assert_eq!(m[0], json!({"role": "system", "content": "You are a careful coding agent."}));
            assert_eq!(m[1], json!({"role": "user", "content": "How many files are there?"}));
            assert_eq!(m[2]["role"], json!("assistant"));
            assert_eq!(m[2]["content"], Value::Null);
            assert_eq!(
                m[2]["tool_calls"],
                json!([{"id": call.id, "type": "function", "function": {"name": "bash", "arguments": args_text}}])
            );
            assert_eq!(
                m[3],
                json!({"role": "tool", "tool_call_id": call.id, "content": "a.txt\nb.txt\nREADME.md\n42 README.md"})
            );
        }
        ApiKind::Anthropic => {
            assert_eq!(second.path, "/v1/messages");
            assert_eq!(second.headers.get("x-api-key").map(String::as_str), Some("***"));
            assert!(!second.headers.contains_key("authorization"));
            assert_eq!(second.headers.get("anthropic-version").map(String::as_str), Some("2023-06-01"));
            assert_eq!(b["system"], json!("You are a careful coding agent."));
            assert_eq!(b["max_tokens"], json!(512));
            assert_eq!(
                b["tools"],
                json!([{"name": "bash", "description": "Run a shell command.", "input_schema": bash_tool().parameters}])
            );
            let m = b["messages"].as_array().unwrap();
            assert_eq!(m.len(), 3);
            assert_eq!(
                m[0],
                json!({"role": "user", "content": [{"type": "text", "text": "How many files are there?"}]})
            );
            assert_eq!(
                m[1],
                json!({"role": "assistant", "content": [
                    {"type": "tool_use", "id": call.id, "name": "bash", "input": {"command": LONG_COMMAND}}
                ]})
            );
            assert_eq!(
                m[2],
                json!({"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": call.id, "content": "a.txt\nb.txt\nREADME.md\n42 README.md"}
                ]})
            );
        }
        ApiKind::OpenAiResponses => {
            assert_eq!(second.path, "/v1/responses");
            assert_eq!(second.headers.get("authorization").map(String::as_str), Some("***"));
            assert_eq!(b["instructions"], json!("You are a careful coding agent."));
            assert_eq!(b["max_output_tokens"], json!(512));
            assert_eq!(b["store"], json!(false));
            assert_eq!(
                b["tools"],
                json!([{"type": "function", "name": "bash", "description": "Run a shell command.",
                        "parameters": bash_tool().parameters, "strict": false}])
            );
            let input = b["input"].as_array().unwrap();
            assert_eq!(input.len(), 3);
            assert_eq!(input[0], json!({"role": "user", "content": "How many files are there?"}));
            assert_eq!(
                input[1],
                json!({"type": "function_call", "call_id": call.id, "name": "bash", "arguments": args_text})
            );
            assert_eq!(
                input[2],
                json!({"type": "function_call_output", "call_id": call.id, "output": "a.txt\nb.txt\nREADME.md\n42 README.md"})
            );
        }
        ApiKind::Gemini => {
            assert_eq!(second.path, format!("/v1beta/models/{MODEL}:streamGenerateContent?alt=sse"));
            assert_eq!(second.headers.get("x-goog-api-key").map(String::as_str), Some("***"));
            assert!(!second.headers.contains_key("authorization"));
            assert_eq!(b["systemInstruction"], json!({"parts": [{"text": "You are a careful coding agent."}]}));
            assert_eq!(b["generationConfig"]["maxOutputTokens"], json!(512));
            assert_eq!(
                b["tools"],
                json!([{"functionDeclarations": [{"name": "bash", "description": "Run a shell command.",
                        "parametersJsonSchema": bash_tool().parameters}]}])
            );
            let contents = b["contents"].as_array().unwrap();
            assert_eq!(contents.len(), 3);
            assert_eq!(contents[0], json!({"role": "user", "parts": [{"text": "How many files are there?"}]}));
            assert_eq!(
                contents[1],
                json!({"role": "model", "parts": [
                    {"functionCall": {"id": call.id, "name": "bash", "args": {"command": LONG_COMMAND}}}
                ]})
            );
            assert_eq!(
                contents[2],
                json!({"role": "user", "parts": [{"functionResponse": {"id": call.id, "name": "bash",
                        "response": {"output": "a.txt\nb.txt\nREADME.md\n42 README.md"}}}]})
            );
        }
    }
}

#[tokio::test]
async fn openai_chat_conversation_streams_tool_call_then_text() {
    conversation(ApiKind::OpenAiChat).await;
}

#[tokio::test]
async fn anthropic_conversation_streams_tool_call_then_text() {
    conversation(ApiKind::Anthropic).await;
}

#[tokio::test]
async fn responses_conversation_streams_tool_call_then_text() {
    conversation(ApiKind::OpenAiResponses).await;
}

#[tokio::test]
async fn gemini_conversation_streams_tool_call_then_text() {
    conversation(ApiKind::Gemini).await;
}

#[tokio::test]
async fn check_validates_the_key_and_model_for_each_api() {
    let srv = server_with(vec![MODEL.to_string()]).await;
    for api in ALL {
        let good = client_for(config(api, &srv.base_url));
        good.check(MODEL).await.unwrap_or_else(|e| panic!("{api:?}: {e}"));
        let last = srv.requests().pop().unwrap();
        assert_eq!(last.body.get("stream"), None, "{api:?}: check is not streamed");

        let bad = fast(Client::new(config(api, &srv.base_url), Some(Secret::new("sk-wrong-key-777"))).unwrap());
        let e = bad.check(MODEL).await.unwrap_err();
        assert!(matches!(e, ModelError::Unauthorized { status: 401, .. }), "{api:?}: {e:?}");
        assert!(e.to_string().contains(bad.id()), "{e}");

        let e = good.check("no-such-model").await.unwrap_err();
        assert!(matches!(&e, ModelError::UnknownModel { model, .. } if model == "no-such-model"), "{api:?}: {e:?}");
    }
}

#[tokio::test]
async fn rate_limit_waits_for_retry_after_then_succeeds() {
    let srv = server().await;
    for api in ALL {
        srv.push_faults(vec![Fault::RateLimit { retry_after_secs: 1 }]);
        let c = client_for(config(api, &srv.base_url));
        let t = Instant::now();
        let (r, _) = complete(&c, &first_request()).await;
        let elapsed = t.elapsed();
        let r = r.unwrap_or_else(|e| panic!("{api:?}: {e}"));
        assert_eq!(r.attempts, 2, "{api:?}");
        assert_eq!(r.tool_calls.len(), 1);
        // The policy's own backoff is at most 200 ms: only Retry-After explains a 1 s wait.
        assert!(elapsed >= Duration::from_secs(1), "{api:?}: retried after {elapsed:?}");
        assert!(elapsed < Duration::from_secs(4), "{api:?}: {elapsed:?}");
    }
}

#[tokio::test]
async fn server_errors_are_retried() {
    let srv = server().await;
    for (api, status) in [(ApiKind::OpenAiChat, 500), (ApiKind::Anthropic, 529), (ApiKind::OpenAiResponses, 503)] {
        srv.clear_requests();
        srv.push_faults(vec![Fault::ServerError { status }, Fault::ServerError { status: 500 }]);
        let c = client_for(config(api, &srv.base_url));
        let (r, _) = complete(&c, &first_request()).await;
        let r = r.unwrap_or_else(|e| panic!("{api:?}: {e}"));
        assert_eq!(r.attempts, 3, "{api:?}");
        assert_eq!(srv.requests().len(), 3);
    }
}

#[tokio::test]
async fn slow_response_times_out_then_the_retry_succeeds() {
    let srv = server().await;
    let mut cfg = config(ApiKind::OpenAiChat, &srv.base_url);
    cfg.timeout_secs = 1;
    srv.push_faults(vec![Fault::Slow { delay_ms: 3000 }]);
    let c = client_for(cfg.clone());
    let t = Instant::now();
    let (r, _) = complete(&c, &first_request()).await;
    let elapsed = t.elapsed();
    let r = r.unwrap();
    assert_eq!(r.attempts, 2);
    assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(2500), "did not give up on the slow attempt: {elapsed:?}");

    // Without retries the timeout itself is the answer.
    cfg.max_retries = 0;
    srv.push_faults(vec![Fault::Slow { delay_ms: 3000 }]);
    let c = client_for(cfg);
    let (r, _) = complete(&c, &first_request()).await;
    assert_eq!(r.unwrap_err(), ModelError::Timeout);
}

#[tokio::test]
async fn cut_stream_is_detected_and_retried() {
    let srv = server().await;
    for api in ALL {
        // After one tool result the script answers with text long enough to be cut midway.
        let mut req = first_request();
        req.messages.push(Message::Assistant {
            text: None,
            tool_calls: vec![skillscope_models::ToolCall {
                id: "call_0".into(),
                name: "bash".into(),
                arguments: json!({"command": "ls"}),
            }],
        });
        req.messages.push(Message::ToolResult { call_id: "call_0".into(), content: "a.txt".into(), is_error: false });
        let mut cfg = config(api, &srv.base_url);
        cfg.max_retries = 0;
        srv.push_faults(vec![Fault::CutStream]);
        let (r, partial) = complete(&client_for(cfg.clone()), &req).await;
        assert_eq!(r.unwrap_err(), ModelError::StreamCut, "{api:?}");
        assert!(partial.concat().len() < FINAL_TEXT.len(), "{api:?}: {partial:?}");

        cfg.max_retries = 2;
        srv.push_faults(vec![Fault::CutStream]);
        let (r, deltas) = complete(&client_for(cfg), &req).await;
        let r = r.unwrap_or_else(|e| panic!("{api:?}: {e}"));
        assert_eq!(r.attempts, 2);
        assert_eq!(r.text.as_deref(), Some(FINAL_TEXT));
        // The retry's text is delivered from its beginning, after the cut attempt's part.
        assert!(deltas.concat().ends_with(FINAL_TEXT), "{deltas:?}");
    }
}

#[tokio::test]
async fn malformed_json_is_reported_clearly_and_retried_once() {
    let srv = server().await;
    for api in ALL {
        let mut cfg = config(api, &srv.base_url);
        cfg.max_retries = 0;
        srv.push_faults(vec![Fault::MalformedJson]);
        let (r, _) = complete(&client_for(cfg.clone()), &first_request()).await;
        let e = r.unwrap_err();
        let ModelError::Malformed(msg) = &e else { panic!("{api:?}: {e:?}") };
        assert!(msg.contains(cfg.id.as_str()) && msg.contains("malformed JSON"), "{msg}");
        assert!(msg.contains("<<truncated"), "the message should show what was received: {msg}");

        // Retried once: one malformed answer is survived...
        cfg.max_retries = 3;
        srv.push_faults(vec![Fault::MalformedJson]);
        let (r, _) = complete(&client_for(cfg.clone()), &first_request()).await;
        assert_eq!(r.unwrap().attempts, 2, "{api:?}");
        // ...two are not, whatever max_retries says.
        srv.clear_requests();
        srv.push_faults(vec![Fault::MalformedJson, Fault::MalformedJson]);
        let (r, _) = complete(&client_for(cfg), &first_request()).await;
        assert!(matches!(r, Err(ModelError::Malformed(_))), "{api:?}: {r:?}");
        assert_eq!(srv.requests().len(), 2);
    }
    // A non-streamed answer with a broken body (check uses the non-streamed path).
    let mut cfg = config(ApiKind::OpenAiChat, &srv.base_url);
    cfg.max_retries = 0;
    srv.push_faults(vec![Fault::MalformedJson]);
    let e = client_for(cfg).check(MODEL).await.unwrap_err();
    assert!(matches!(&e, ModelError::Malformed(m) if m.contains("test-chat")), "{e:?}");
}

#[tokio::test]
async fn unauthorized_is_not_retried_and_never_shows_the_key() {
    let srv = server().await;
    for api in ALL {
        srv.clear_requests();
        srv.push_faults(vec![Fault::Unauthorized]);
        let cfg = config(api, &srv.base_url);
        let c = client_for(cfg.clone());
        let (r, _) = complete(&c, &first_request()).await;
        let e = r.unwrap_err();
        assert!(matches!(e, ModelError::Unauthorized { status: 401, .. }), "{api:?}: {e:?}");
        assert!(!e.is_retryable() && e.is_infrastructure());
        assert_eq!(srv.requests().len(), 1, "{api:?}: a rejected key must not be retried");
        let shown = format!("{e} {e:?} {c:?}");
        assert!(shown.contains(&format!("the API key was rejected by {}", cfg.id)), "{shown}");
        assert!(shown.contains("401"), "{shown}");
        assert!(!shown.contains(KEY) && !shown.contains("0123456789abcdef"), "{shown}");

        // No key at all: said so.
        let anon = fast(Client::new(cfg, None).unwrap());
        let (r, _) = complete(&anon, &first_request()).await;
        let e = r.unwrap_err();
        assert!(matches!(e, ModelError::Unauthorized { .. }), "{e:?}");
        assert!(e.to_string().contains("none is set"), "{e}");
    }
}

#[tokio::test]
async fn unknown_model_is_reported_and_not_retried() {
    let srv = server_with(vec![MODEL.to_string()]).await;
    for api in ALL {
        srv.clear_requests();
        let c = client_for(config(api, &srv.base_url));
        let mut req = first_request();
        req.model = "gpt-nonexistent".into();
        let (r, _) = complete(&c, &req).await;
        let e = r.unwrap_err();
        let ModelError::UnknownModel { model, message } = &e else { panic!("{api:?}: {e:?}") };
        assert_eq!(model, "gpt-nonexistent");
        assert!(
            message.contains(c.id()) && message.contains("404") && message.contains("gpt-nonexistent"),
            "{message}"
        );
        assert_eq!(srv.requests().len(), 1);
    }
}

#[tokio::test]
async fn exhausted_retries_return_the_last_error() {
    let srv = server().await;
    let mut cfg = config(ApiKind::OpenAiChat, &srv.base_url);
    cfg.max_retries = 2;
    srv.push_faults(vec![
        Fault::RateLimit { retry_after_secs: 0 },
        Fault::ServerError { status: 502 },
        Fault::ServerError { status: 503 },
        Fault::ServerError { status: 500 }, // never reached
    ]);
    let (r, _) = complete(&client_for(cfg), &first_request()).await;
    let e = r.unwrap_err();
    assert!(matches!(e, ModelError::Server { status: 503, .. }), "{e:?}");
    assert!(e.to_string().contains("test-chat") && e.to_string().contains("503"), "{e}");
    assert_eq!(srv.requests().len(), 3);
}

#[tokio::test]
async fn concurrency_limit_serialises_calls() {
    async fn two_slow_calls(srv: &ServerHandle, max_concurrency: u32) -> Duration {
        srv.push_faults(vec![Fault::Slow { delay_ms: 700 }, Fault::Slow { delay_ms: 700 }]);
        let mut cfg = config(ApiKind::Anthropic, &srv.base_url);
        cfg.max_concurrency = max_concurrency;
        let c = client_for(cfg);
        let req = first_request();
        let t = Instant::now();
        let call = || async {
            let start = t.elapsed();
            let r = c.complete(&req, &mut |_: &str| {}).await;
            (start, t.elapsed(), r)
        };
        let ((s1, e1, r1), (s2, e2, r2)) = tokio::join!(call(), call());
        r1.unwrap();
        r2.unwrap();
        // Both calls started at once; the limit decides whether their requests overlap.
        assert!(s1 < Duration::from_millis(100) && s2 < Duration::from_millis(100));
        let (first_end, second_end) = (e1.min(e2), e1.max(e2));
        if max_concurrency == 1 {
            assert!(first_end >= Duration::from_millis(700), "{first_end:?}");
            assert!(
                second_end >= first_end + Duration::from_millis(650),
                "the second call overlapped the first: ended {first_end:?} and {second_end:?}"
            );
        }
        t.elapsed()
    }
    let srv = server().await;
    let serial = two_slow_calls(&srv, 1).await;
    assert!(serial >= Duration::from_millis(1400), "{serial:?}");
    let parallel = two_slow_calls(&srv, 2).await;
    assert!(parallel < Duration::from_millis(1300), "with two permits they overlap: {parallel:?}");
}

#[tokio::test]
async fn unreachable_provider_is_a_network_error_naming_it() {
    // Bind a port, then free it: nothing listens there.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let mut cfg = config(ApiKind::OpenAiChat, &format!("http://127.0.0.1:{port}"));
    cfg.max_retries = 1;
    let (r, _) = complete(&client_for(cfg), &first_request()).await;
    let e = r.unwrap_err();
    assert!(matches!(&e, ModelError::Network(m) if m.contains("test-chat")), "{e:?}");
    assert!(e.is_retryable());
}

#[test]
fn secret_and_client_debug_never_show_the_key() {
    let s = Secret::new(KEY);
    assert_eq!(format!("{s:?}"), "***");
    for api in ALL {
        let c = Client::new(config(api, "http://127.0.0.1:1"), Some(s.clone())).unwrap();
        let d = format!("{c:?} {c:#?}");
        assert!(!d.contains(KEY) && !d.contains("SECRET"), "{d}");
    }
}
