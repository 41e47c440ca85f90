//! The recorder produces valid ATIF that survives JSON and compressed
//! storage, and feeds the search index.

use serde_json::{json, Value};
use skillscope_atif::{
    compress, decompress, index, validate, Agent, BuildError, Content, ContentPart, ImageSource, StepSource,
    Trajectory, TrajectoryBuilder, TurnMetrics, INDEX_TEXT_CHARS,
};
use time::macros::datetime;

fn record() -> Trajectory {
    let agent = Agent::new("skillscope", "0.1.0", Some("claude-test".into()));
    let mut builder = TrajectoryBuilder::new("trial-42", agent);
    assert_eq!(builder.system_step("You are a careful assistant."), 1);
    assert_eq!(builder.user_step("Create hello.txt with a greeting."), 2);
    let first = builder.agent_step(
        "I'll write the file, then check it.",
        Some("Two tool calls are enough.".into()),
        vec![
            ("call_1".into(), "write_file".into(), json!({"path": "hello.txt", "content": "Hello"})),
            ("call_2".into(), "bash".into(), json!("cat hello.txt")),
        ],
        TurnMetrics { prompt_tokens: 1200, completion_tokens: 80, cached_tokens: 1000, cost_usd: Some(0.25) },
        datetime!(2026-05-01 12:00:02.5 UTC),
    );
    assert_eq!(first, 3);
    builder.observation(first, "call_1", "written 5 bytes").unwrap();
    builder.observation(first, "call_2", "Hello").unwrap();
    let last = builder.agent_step(
        "Done: hello.txt says Hello.",
        None,
        Vec::new(),
        TurnMetrics { prompt_tokens: 1300, completion_tokens: 20, cached_tokens: 1200, cost_usd: Some(0.5) },
        datetime!(2026-05-01 14:00:03 +02:00),
    );
    assert_eq!(last, 4);
    builder.finish(Some(serde_json::Map::from_iter([("harness".to_owned(), json!("local"))])))
}

#[test]
fn recorded_trajectory_is_valid_atif() {
    let trajectory = record();
    let json = serde_json::to_value(&trajectory).unwrap();
    assert_eq!(validate(&json), Vec::new());

    assert_eq!(json["schema_version"], "ATIF-v1.7");
    assert_eq!(json["session_id"], "trial-42");
    let ids: Vec<u64> = trajectory.steps.iter().map(|s| s.step_id).collect();
    assert_eq!(ids, [1, 2, 3, 4]);
    assert_eq!(json["steps"][2]["timestamp"], "2026-05-01T12:00:02.5Z");
    assert_eq!(json["steps"][3]["timestamp"], "2026-05-01T12:00:03Z", "normalised to UTC");
    // Optional fields are omitted, not null.
    assert!(json["steps"][1].get("metrics").is_none());
    assert!(json["steps"][3].get("tool_calls").is_none());
    assert_eq!(json["steps"][2]["reasoning_content"], "Two tool calls are enough.");
    assert_eq!(json["steps"][2]["llm_call_count"], 1);
    assert_eq!(
        json["steps"][2]["tool_calls"][1]["arguments"],
        json!({"input": "cat hello.txt"}),
        "non-object arguments are wrapped"
    );
    assert_eq!(
        json["steps"][2]["observation"],
        json!({"results": [
            {"source_call_id": "call_1", "content": "written 5 bytes"},
            {"source_call_id": "call_2", "content": "Hello"}
        ]})
    );
    assert_eq!(
        json["final_metrics"],
        json!({
            "total_prompt_tokens": 2500, "total_completion_tokens": 100, "total_cached_tokens": 2200,
            "total_cost_usd": 0.75, "total_steps": 4, "extra": {"harness": "local"}
        })
    );
}

#[test]
fn round_trips_through_json_and_compression() {
    let trajectory = record();
    let text = serde_json::to_string(&trajectory).unwrap();
    assert_eq!(serde_json::from_str::<Trajectory>(&text).unwrap(), trajectory);

    let packed = compress(&trajectory).unwrap();
    assert_eq!(&packed[..2], &[0x1f, 0x8b], "gzip magic");
    assert!(packed.len() < text.len());
    let unpacked: Trajectory = decompress(&packed).unwrap();
    assert_eq!(unpacked, trajectory);
    assert_eq!(validate(&serde_json::to_value(&unpacked).unwrap()), Vec::new());

    assert!(decompress::<Trajectory>(b"not gzip").is_err());
}

#[test]
fn cost_total_needs_every_step_cost() {
    let mut builder = TrajectoryBuilder::new("t", Agent::new("a", "1", None));
    builder.user_step("hi");
    let metrics = TurnMetrics { prompt_tokens: 10, completion_tokens: 2, cached_tokens: 0, cost_usd: None };
    builder.agent_step("hello", None, Vec::new(), metrics, datetime!(2026-05-01 12:00 UTC));
    let final_metrics = builder.finish(None).final_metrics.unwrap();
    assert_eq!(final_metrics.total_cost_usd, None);
    assert_eq!(final_metrics.total_prompt_tokens, Some(10));

    let mut builder = TrajectoryBuilder::new("t", Agent::new("a", "1", None));
    builder.user_step("hi");
    let final_metrics = builder.finish(None).final_metrics.unwrap();
    assert_eq!(final_metrics.total_prompt_tokens, None, "no agent step, no token totals");
    assert_eq!(final_metrics.total_steps, Some(1));
}

#[test]
fn observations_belong_to_the_step_of_their_call() {
    let mut builder = TrajectoryBuilder::new("t", Agent::new("a", "1", None));
    let user = builder.user_step("hi");
    let agent = builder.agent_step(
        "",
        None,
        vec![("call_1".into(), "bash".into(), json!({"cmd": "ls"}))],
        TurnMetrics::default(),
        datetime!(2026-05-01 12:00 UTC),
    );
    assert_eq!(
        builder.observation(user, "call_1", "x"),
        Err(BuildError::UnknownCall { step: user, call_id: "call_1".into() })
    );
    let err = builder.observation(agent, "call_9", "x").unwrap_err();
    assert_eq!(err.to_string(), "step 2: source_call_id: call_9 does not match a tool call in step 2");
    assert_eq!(builder.observation(7, "call_1", "x"), Err(BuildError::NoSuchStep(7)));
    assert_eq!(builder.observation(0, "call_1", "x"), Err(BuildError::NoSuchStep(0)));
    builder.observation(agent, "call_1", "a.txt").unwrap();
}

#[test]
fn index_rows_carry_search_text_times_and_signatures() {
    let trajectory = record();
    let rows = index(&trajectory);
    assert_eq!(rows.len(), 4);
    assert_eq!(rows.iter().map(|r| r.position).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(rows[0].source, StepSource::System);
    assert_eq!(rows[0].source.as_str(), "system");
    assert_eq!(rows[1].text, "create hello.txt with a greeting.");
    // The agent step is found by its reasoning, its calls' names and arguments, and its outputs.
    for needle in ["two tool calls", "write_file", "\"path\":\"hello.txt\"", "written 5 bytes", "hello"] {
        assert!(rows[2].text.contains(needle), "{needle} in {}", rows[2].text);
    }
    assert_eq!(rows[3].step_id, 4);
    assert!(rows.iter().all(|r| r.at_ms.is_some()), "the recorder stamps every step");
    assert_eq!(rows[3].at_ms.unwrap() - rows[2].at_ms.unwrap(), 500);
    // Steps without calls or outputs look alike; a step with them does not.
    assert_eq!(rows[0].signature, rows[3].signature);
    assert_ne!(rows[2].signature, rows[3].signature);
}

#[test]
fn signatures_ignore_messages_and_argument_order_but_not_outputs() {
    let step = |message: &str, args: Value, output: &str| {
        let mut builder = TrajectoryBuilder::new("t", Agent::new("a", "1", None));
        let id = builder.agent_step(
            message,
            None,
            vec![("c".into(), "write_file".into(), args)],
            TurnMetrics::default(),
            datetime!(2026-05-01 12:00 UTC),
        );
        builder.observation(id, "c", output).unwrap();
        index(&builder.finish(None)).remove(0).signature
    };
    let base = step("one", json!({"path": "a", "content": "x"}), "ok");
    assert_eq!(base, step("two", json!({"content": "x", "path": "a"}), "ok"));
    assert_ne!(base, step("one", json!({"path": "b", "content": "x"}), "ok"));
    assert_ne!(base, step("one", json!({"path": "a", "content": "x"}), "failed"));
}

#[test]
fn index_text_is_lower_cased_truncated_and_skips_images() {
    let mut builder = TrajectoryBuilder::new("t", Agent::new("a", "1", None));
    let long = "É".repeat(INDEX_TEXT_CHARS + 10);
    builder.user_step(long.as_str());
    builder.user_step("x".repeat(INDEX_TEXT_CHARS).as_str());
    builder.user_step(Content::Parts(vec![
        ContentPart::Text { text: "Look".into() },
        ContentPart::Image { source: ImageSource { media_type: "image/png".into(), path: "images/a.png".into() } },
        ContentPart::Text { text: "closely".into() },
    ]));
    let trajectory = builder.finish(None);
    assert_eq!(validate(&serde_json::to_value(&trajectory).unwrap()), Vec::new());
    let rows = index(&trajectory);
    assert_eq!(rows[0].text.chars().count(), INDEX_TEXT_CHARS);
    assert!(rows[0].text.ends_with("é…"));
    assert_eq!(rows[1].text.chars().count(), INDEX_TEXT_CHARS);
    assert!(!rows[1].text.ends_with('…'), "text at the limit is kept whole");
    assert_eq!(rows[2].text, "look\nclosely");
}
