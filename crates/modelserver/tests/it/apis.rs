//! Each API, streaming and not: a tool call, then (after the tool result is
//! sent back) the final text; usage present; right terminal events.

use crate::common::*;
use serde_json::{json, Value};
use skillscope_modelserver::{start, ServerHandle, ServerOptions};

fn as_u64(v: &Value, ptr: &str) -> u64 {
    v.pointer(ptr).and_then(Value::as_u64).unwrap_or_else(|| panic!("no {ptr} in {v}"))
}

// ---------- Chat Completions ----------

#[tokio::test]
async fn chat_non_streaming_two_steps() {
    let s = server().await;
    let mut req = chat_request("You are helpful.", false);
    let (st, r1) = post_json(&s, "/v1/chat/completions", &req).await;
    assert_eq!(st, 200, "{r1}");
    assert_eq!(r1["object"], "chat.completion");
    assert_eq!(r1["model"], "test-model");
    assert_eq!(r1["choices"][0]["finish_reason"], "tool_calls");
    let msg = &r1["choices"][0]["message"];
    let call = &msg["tool_calls"][0];
    assert_eq!(call["type"], "function");
    assert_eq!(call["function"]["name"], "bash");
    let args: Value = serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(args, json!({"command": "ls"}));
    assert!(as_u64(&r1, "/usage/prompt_tokens") > 0);
    assert!(as_u64(&r1, "/usage/completion_tokens") > 0);
    assert_eq!(as_u64(&r1, "/usage/prompt_tokens_details/cached_tokens"), 0);

    let msgs = req["messages"].as_array_mut().unwrap();
    msgs.push(msg.clone());
    msgs.push(json!({"role": "tool", "tool_call_id": call["id"], "content": "a.txt\nb.txt"}));
    let (st, r2) = post_json(&s, "/chat/completions", &req).await;
    assert_eq!(st, 200, "{r2}");
    assert_eq!(r2["choices"][0]["finish_reason"], "stop");
    assert_eq!(r2["choices"][0]["message"]["content"], "Done.");
    assert!(r2["choices"][0]["message"].get("tool_calls").is_none());
    let prompt = as_u64(&r2, "/usage/prompt_tokens");
    let cached = as_u64(&r2, "/usage/prompt_tokens_details/cached_tokens");
    assert!(cached > 0 && cached < prompt, "cached {cached} of {prompt}");
    assert!(prompt > as_u64(&r1, "/usage/prompt_tokens"));
}

/// Folds chat chunks into (content, tool call id, name, arguments, finish, usage).
fn fold_chat(evs: &[Ev]) -> (String, String, String, String, String, Option<Value>) {
    assert_eq!(evs.last().unwrap().data, "[DONE]", "stream must end with [DONE]");
    let (mut content, mut id, mut name, mut args, mut finish, mut usage) =
        (String::new(), String::new(), String::new(), String::new(), String::new(), None);
    for e in &evs[..evs.len() - 1] {
        assert!(e.event.is_none());
        let c = e.json();
        assert_eq!(c["object"], "chat.completion.chunk");
        if c["choices"].as_array().unwrap().is_empty() {
            usage = Some(c["usage"].clone());
            continue;
        }
        let ch = &c["choices"][0];
        if let Some(t) = ch["delta"]["content"].as_str() {
            content.push_str(t);
        }
        if let Some(tc) = ch["delta"]["tool_calls"].get(0) {
            assert_eq!(tc["index"], 0);
            if let Some(i) = tc["id"].as_str() {
                id = i.to_string();
            }
            if let Some(n) = tc["function"]["name"].as_str() {
                name = n.to_string();
            }
            args.push_str(tc["function"]["arguments"].as_str().unwrap_or(""));
        }
        if let Some(f) = ch["finish_reason"].as_str() {
            finish = f.to_string();
        }
    }
    (content, id, name, args, finish, usage)
}

#[tokio::test]
async fn chat_streaming_two_steps() {
    let s = server().await;
    let mut req = chat_request("You are helpful.", true);
    let evs = post_sse(&s, "/v1/chat/completions", &req).await;
    let (content, id, name, args, finish, usage) = fold_chat(&evs);
    assert_eq!(content, "");
    assert_eq!(name, "bash");
    assert!(!id.is_empty());
    assert_eq!(serde_json::from_str::<Value>(&args).unwrap(), json!({"command": "ls"}));
    assert_eq!(finish, "tool_calls");
    let usage = usage.expect("usage chunk with include_usage");
    assert!(as_u64(&usage, "/prompt_tokens") > 0 && as_u64(&usage, "/completion_tokens") > 0);
    assert!(usage.pointer("/prompt_tokens_details/cached_tokens").is_some());

    let msgs = req["messages"].as_array_mut().unwrap();
    msgs.push(json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": id, "type": "function", "function": {"name": name, "arguments": args}}]}));
    msgs.push(json!({"role": "tool", "tool_call_id": id, "content": "a.txt"}));
    let evs = post_sse(&s, "/v1/chat/completions", &req).await;
    let (content, _, name, _, finish, usage) = fold_chat(&evs);
    assert_eq!(content, "Done.");
    assert_eq!(name, "");
    assert_eq!(finish, "stop");
    assert!(usage.is_some());

    // Without include_usage there is no usage chunk, and still a [DONE].
    req["stream_options"] = json!(null);
    let (_, _, _, _, finish, usage) = fold_chat(&post_sse(&s, "/v1/chat/completions", &req).await);
    assert_eq!(finish, "stop");
    assert!(usage.is_none());
}

#[tokio::test]
async fn requests_without_tools_get_ok() {
    let s = server().await;
    let mut req = chat_request("Generate a title", false);
    req.as_object_mut().unwrap().remove("tools");
    let (_, r) = post_json(&s, "/v1/chat/completions", &req).await;
    assert_eq!(r["choices"][0]["message"]["content"], "OK");
    let mut req = anthropic_request("title", false);
    req.as_object_mut().unwrap().remove("tools");
    let (_, r) = post_json(&s, "/v1/messages", &req).await;
    assert_eq!(r["content"][0], json!({"type": "text", "text": "OK"}));
}

// ---------- Anthropic Messages ----------

#[tokio::test]
async fn anthropic_non_streaming_two_steps() {
    let s = server().await;
    let mut req = anthropic_request("You are Claude.", false);
    let (st, r1) = post_json(&s, "/v1/messages?beta=true", &req).await;
    assert_eq!(st, 200, "{r1}");
    assert_eq!(r1["type"], "message");
    assert_eq!(r1["stop_reason"], "tool_use");
    let block = &r1["content"][0];
    assert_eq!(block["type"], "tool_use");
    assert_eq!(block["name"], "Bash", "bash step maps onto the offered Bash tool");
    assert_eq!(block["input"]["command"], "ls");
    assert!(as_u64(&r1, "/usage/input_tokens") > 0);
    assert!(as_u64(&r1, "/usage/output_tokens") > 0);
    assert_eq!(as_u64(&r1, "/usage/cache_read_input_tokens"), 0);

    let msgs = req["messages"].as_array_mut().unwrap();
    msgs.push(json!({"role": "assistant", "content": r1["content"].clone()}));
    // Claude Code sends mid-conversation system messages; they must be tolerated.
    msgs.push(json!({"role": "system", "content": "reminder"}));
    msgs.push(json!({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": block["id"], "content": "a.txt"}]}));
    let (st, r2) = post_json(&s, "/v1/messages", &req).await;
    assert_eq!(st, 200);
    assert_eq!(r2["stop_reason"], "end_turn");
    assert_eq!(r2["content"][0], json!({"type": "text", "text": "Done."}));
    assert!(as_u64(&r2, "/usage/cache_read_input_tokens") > 0);
}

/// Folds Anthropic events into (first block, accumulated text/json, stop_reason, usage).
fn fold_anthropic(evs: &[Ev]) -> (Value, String, String, Value) {
    let names: Vec<&str> = evs.iter().map(|e| e.event.as_deref().unwrap()).collect();
    assert_eq!(names.first(), Some(&"message_start"));
    assert_eq!(names.last(), Some(&"message_stop"), "{names:?}");
    for w in ["content_block_start", "content_block_delta", "content_block_stop", "message_delta"] {
        assert!(names.contains(&w), "missing {w}: {names:?}");
    }
    let (mut block, mut acc, mut stop, mut usage) = (Value::Null, String::new(), String::new(), Value::Null);
    for e in evs {
        let d = e.json();
        assert_eq!(d["type"].as_str(), e.event.as_deref(), "type matches event name");
        match e.event.as_deref().unwrap() {
            "message_start" => assert!(d["message"]["usage"]["input_tokens"].as_u64().unwrap() > 0),
            "content_block_start" => block = d["content_block"].clone(),
            "content_block_delta" => {
                let delta = &d["delta"];
                match delta["type"].as_str().unwrap() {
                    "text_delta" => acc.push_str(delta["text"].as_str().unwrap()),
                    "input_json_delta" => acc.push_str(delta["partial_json"].as_str().unwrap()),
                    t => panic!("delta type {t}"),
                }
            }
            "message_delta" => {
                stop = d["delta"]["stop_reason"].as_str().unwrap().to_string();
                usage = d["usage"].clone();
            }
            _ => {}
        }
    }
    (block, acc, stop, usage)
}

#[tokio::test]
async fn anthropic_streaming_two_steps() {
    let s = server().await;
    let mut req = anthropic_request("You are Claude.", true);
    let evs = post_sse(&s, "/v1/messages?beta=true", &req).await;
    let (block, json_text, stop, usage) = fold_anthropic(&evs);
    assert_eq!(block["type"], "tool_use");
    assert_eq!(block["name"], "Bash");
    assert_eq!(stop, "tool_use");
    let input: Value = serde_json::from_str(&json_text).unwrap();
    assert_eq!(input["command"], "ls");
    assert_eq!(input["description"], "run scripted command");
    assert!(usage["output_tokens"].as_u64().unwrap() > 0);

    let msgs = req["messages"].as_array_mut().unwrap();
    msgs.push(json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": block["id"], "name": "Bash", "input": input}]}));
    msgs.push(json!({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": block["id"], "content": "a.txt"}]}));
    let evs = post_sse(&s, "/v1/messages?beta=true", &req).await;
    let (block, text, stop, usage) = fold_anthropic(&evs);
    assert_eq!(block["type"], "text");
    assert_eq!(text, "Done.");
    assert_eq!(stop, "end_turn");
    assert!(usage["cache_read_input_tokens"].as_u64().unwrap() > 0);
}

// ---------- Responses ----------

#[tokio::test]
async fn responses_non_streaming_two_steps() {
    let s = server().await;
    let mut req = responses_request("You are Codex.", false);
    let (st, r1) = post_json(&s, "/v1/responses", &req).await;
    assert_eq!(st, 200, "{r1}");
    assert_eq!(r1["object"], "response");
    assert_eq!(r1["status"], "completed");
    let item = &r1["output"][0];
    assert_eq!(item["type"], "function_call");
    assert_eq!(item["name"], "exec_command", "bash step maps onto exec_command");
    let args: Value = serde_json::from_str(item["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(args, json!({"cmd": "ls"}));
    assert!(as_u64(&r1, "/usage/input_tokens") > 0);
    assert!(as_u64(&r1, "/usage/output_tokens") > 0);
    assert_eq!(as_u64(&r1, "/usage/input_tokens_details/cached_tokens"), 0);

    let input = req["input"].as_array_mut().unwrap();
    input.push(item.clone());
    input.push(json!({"type": "function_call_output", "call_id": item["call_id"], "output": "a.txt"}));
    let (st, r2) = post_json(&s, "/responses", &req).await;
    assert_eq!(st, 200);
    let item = &r2["output"][0];
    assert_eq!(item["type"], "message");
    assert_eq!(item["role"], "assistant");
    assert_eq!(item["content"][0]["type"], "output_text");
    assert_eq!(item["content"][0]["text"], "Done.");
    assert!(as_u64(&r2, "/usage/input_tokens_details/cached_tokens") > 0);
}

/// Folds Responses events into (final item, text deltas, argument deltas, usage).
fn fold_responses(evs: &[Ev]) -> (Value, String, String, Value) {
    let names: Vec<&str> = evs.iter().map(|e| e.event.as_deref().unwrap()).collect();
    assert_eq!(names.first(), Some(&"response.created"));
    assert_eq!(names.last(), Some(&"response.completed"), "{names:?}");
    assert!(names.contains(&"response.output_item.added"));
    assert!(names.contains(&"response.output_item.done"));
    let (mut item, mut text, mut args, mut usage) = (Value::Null, String::new(), String::new(), Value::Null);
    for (i, e) in evs.iter().enumerate() {
        let d = e.json();
        assert_eq!(d["type"].as_str(), e.event.as_deref());
        assert_eq!(d["sequence_number"], i);
        match e.event.as_deref().unwrap() {
            "response.output_text.delta" => text.push_str(d["delta"].as_str().unwrap()),
            "response.function_call_arguments.delta" => args.push_str(d["delta"].as_str().unwrap()),
            "response.output_item.done" => item = d["item"].clone(),
            "response.completed" => {
                assert_eq!(d["response"]["status"], "completed");
                assert_eq!(d["response"]["output"][0], item);
                usage = d["response"]["usage"].clone();
            }
            _ => {}
        }
    }
    (item, text, args, usage)
}

#[tokio::test]
async fn responses_streaming_two_steps() {
    let s = server().await;
    let mut req = responses_request("You are Codex.", true);
    let evs = post_sse(&s, "/v1/responses", &req).await;
    let (item, text, args, usage) = fold_responses(&evs);
    assert_eq!(item["type"], "function_call");
    assert_eq!(item["name"], "exec_command");
    assert_eq!(text, "");
    assert_eq!(args, item["arguments"].as_str().unwrap());
    assert_eq!(serde_json::from_str::<Value>(&args).unwrap(), json!({"cmd": "ls"}));
    assert!(usage["input_tokens"].as_u64().unwrap() > 0);
    assert!(usage["output_tokens"].as_u64().unwrap() > 0);
    assert!(usage.pointer("/input_tokens_details/cached_tokens").is_some());

    let input = req["input"].as_array_mut().unwrap();
    input.push(item.clone());
    input.push(json!({"type": "function_call_output", "call_id": item["call_id"], "output": "a.txt"}));
    let evs = post_sse(&s, "/v1/responses", &req).await;
    let (item, text, args, _) = fold_responses(&evs);
    assert_eq!(item["type"], "message");
    assert_eq!(text, "Done.");
    assert_eq!(args, "");
    assert_eq!(item["content"][0]["text"], "Done.");
}

// ---------- Gemini ----------

/// A Gemini request offering `run_shell_command` (as Gemini CLI does), the model in the path.
fn gemini_request(contents: Value) -> Value {
    json!({
        "contents": contents,
        "systemInstruction": {"parts": [{"text": "You are Gemini CLI."}]},
        "tools": [{"functionDeclarations": [{"name": "run_shell_command", "description": "Run a command.",
            "parametersJsonSchema": bash_schema()}]}],
    })
}

/// POSTs to a Gemini path with the key in `x-goog-api-key`, as Gemini CLI sends it.
async fn post_gemini(s: &ServerHandle, path: &str, key: &str, body: &Value) -> reqwest::Response {
    client().post(format!("{}{path}", s.base_url)).header("x-goog-api-key", key).json(body).send().await.unwrap()
}

#[tokio::test]
async fn gemini_streaming_two_steps_and_token_count() {
    let s = start(ServerOptions { script: script(), require_key: Some(KEY.into()), ..ServerOptions::default() })
        .await
        .unwrap();
    let stream = "/v1beta/models/test-model:streamGenerateContent?alt=sse";
    let mut contents = json!([{"role": "user", "parts": [{"text": "list files"}]}]);
    let r = post_gemini(&s, stream, KEY, &gemini_request(contents.clone())).await;
    assert_eq!(r.status(), 200);
    let evs = parse_sse(&r.text().await.unwrap());
    let last = evs.last().unwrap().json();
    let call = &last["candidates"][0]["content"]["parts"][0]["functionCall"];
    assert_eq!((call["name"].as_str(), &call["args"]), (Some("run_shell_command"), &json!({"command": "ls"})));
    assert_eq!(last["candidates"][0]["finishReason"], "STOP");
    assert_eq!(last["modelVersion"], "test-model", "the model named in the path");
    assert!(as_u64(&last, "/usageMetadata/promptTokenCount") > 0);

    let arr = contents.as_array_mut().unwrap();
    arr.push(json!({"role": "model", "parts": [{"functionCall": call}]}));
    arr.push(json!({"role": "user", "parts": [{"functionResponse": {"id": call["id"], "name": "run_shell_command", "response": {"output": "a.txt"}}}]}));
    let r = post_gemini(&s, stream, KEY, &gemini_request(contents.clone())).await;
    let evs = parse_sse(&r.text().await.unwrap());
    let text: String = evs
        .iter()
        .map(|e| e.json()["candidates"][0]["content"]["parts"][0]["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(text, "Done.");
    let last = evs.last().unwrap().json();
    assert!(as_u64(&last, "/usageMetadata/cachedContentTokenCount") > 0, "the prefix counts as cached: {last}");

    let (path, body) = ("/v1beta/models/test-model:countTokens", json!({"contents": contents}));
    let count: Value = post_gemini(&s, path, KEY, &body).await.json().await.unwrap();
    assert!(as_u64(&count, "/totalTokens") > 0, "{count}");

    let r = post_gemini(&s, stream, "sk-wrong", &gemini_request(contents)).await;
    assert_eq!(r.status(), 401, "only the real key is accepted");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["status"], "UNAUTHENTICATED");
}

// ---------- Branching ----------

#[tokio::test]
async fn branch_follows_skill_presence_in_every_api() {
    let s = server().await;
    let with = "<available_skills><skill><name>csv-insights</name></skill></available_skills>";
    let without = "<available_skills></available_skills>";

    let (_, r) = post_json(&s, "/v1/chat/completions", &chat_request(with, false)).await;
    let call = &r["choices"][0]["message"]["tool_calls"][0]["function"];
    assert_eq!(call["name"], "read_file");
    let args: Value = serde_json::from_str(call["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(args["path"], "/skills/csv-insights/SKILL.md");
    let (_, r) = post_json(&s, "/v1/chat/completions", &chat_request(without, false)).await;
    assert_eq!(r["choices"][0]["message"]["tool_calls"][0]["function"]["name"], "bash");

    let (_, r) = post_json(&s, "/v1/messages", &anthropic_request(with, false)).await;
    assert_eq!(r["content"][0]["name"], "read_file");
    let (_, r) = post_json(&s, "/v1/messages", &anthropic_request(without, false)).await;
    assert_eq!(r["content"][0]["name"], "Bash");

    // The skill may also show up only in a tool description.
    let mut req = responses_request(without, false);
    req["tools"][0]["description"] = json!("Run a command. Skills: csv-insights");
    req["input"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "function_call_output", "call_id": "call_0", "output": "skill body"}));
    let (_, r) = post_json(&s, "/v1/responses", &req).await;
    assert_eq!(r["output"][0]["content"][0]["text"], "Done with the skill.");
    let req = responses_request(without, false);
    let (_, r) = post_json(&s, "/v1/responses", &req).await;
    assert_eq!(r["output"][0]["name"], "exec_command");
}
