//! Claude Code's `stream-json` output (real runs, `fixtures/harness/`) as ATIF trajectories and
//! outcomes: steps, tool results matched to their calls, the injected skill body, usage totals, and
//! how each run ended.

use skillscope_agent::claude_code::{convert, Ending};

fn sample(name: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/harness").join(name))
        .unwrap()
}

#[test]
fn a_run_that_uses_a_skill_becomes_a_valid_trajectory() {
    let c = convert("Create out.txt", &sample("claude-code-skill.jsonl"), "", "trial-1-attempt-1", "claude-test");
    assert_eq!(skillscope_atif::validate(&c.trajectory), Vec::new(), "{}", c.trajectory);
    let steps = c.trajectory["steps"].as_array().unwrap();
    let sources: Vec<&str> = steps.iter().map(|s| s["source"].as_str().unwrap()).collect();
    // The instruction, the Skill call, the injected SKILL.md body, the Bash call, the answer.
    assert_eq!(sources, ["user", "agent", "user", "agent", "agent"]);
    assert_eq!(steps[0]["message"], "Create out.txt");
    assert_eq!(steps[1]["tool_calls"][0]["function_name"], "Skill");
    assert_eq!(steps[1]["observation"]["results"][0]["content"], "Launching skill: demo-skill");
    assert!(steps[2]["message"].as_str().unwrap().contains("Base directory for this skill"));
    assert_eq!(steps[3]["tool_calls"][0]["arguments"]["command"], "echo hi > out.txt");
    assert_eq!(steps[3]["observation"]["results"][0]["source_call_id"], "toolu_1");
    assert_eq!(steps[4]["message"], "done");
    assert_eq!(c.ending, Some(Ending::Answer));
    assert_eq!((c.final_text.as_deref(), c.turns), (Some("done"), 4));
    // The run's totals: prompt = uncached + cache reads + cache writes.
    assert_eq!((c.usage.input_tokens, c.usage.cached_tokens, c.usage.output_tokens), (17_024 + 33_987, 33_987, 17));
    assert_eq!(c.trajectory["final_metrics"]["total_prompt_tokens"], 17_024 + 33_987);
    assert_eq!(c.trajectory["agent"]["name"], "claude-code");
}

#[test]
fn the_turn_limit_and_a_dead_model_are_told_apart() {
    let c = convert("x", &sample("claude-code-max-turns.jsonl"), "", "s", "m");
    assert_eq!(c.ending, Some(Ending::TurnLimit));
    assert_eq!(skillscope_atif::validate(&c.trajectory), Vec::new());
    let c = convert("x", &sample("claude-code-model-down.jsonl"), "", "s", "m");
    match c.ending {
        Some(Ending::Failed(why)) => assert!(why.contains("Unable to connect to API"), "{why}"),
        other => panic!("expected a failure, got {other:?}"),
    }
    assert_eq!(convert("x", "not json\n", "", "s", "m").ending, None, "no result line: no ending");
}

/// A real run's stream (one output token per response) and its session log (the real counts):
/// each step gets its response's output tokens from the log. A log that lacks a response leaves
/// the steps without them; the run's total stays either way.
#[test]
fn output_tokens_per_step_come_from_the_session_log() {
    let (stream, log) = (sample("claude-code-tokens.jsonl"), sample("claude-code-tokens.session.jsonl"));
    let c = convert("do it", &stream, &log, "s", "m");
    assert_eq!(skillscope_atif::validate(&c.trajectory), Vec::new(), "{}", c.trajectory);
    let completion: Vec<_> = c.trajectory["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["metrics"]["completion_tokens"].as_u64())
        .collect();
    assert_eq!(completion, [11, 2]);
    assert_eq!(c.usage.output_tokens, 13);

    let first_response_only: String = log.lines().filter(|l| !l.contains("msg_000002")).collect::<Vec<_>>().join("\n");
    let c = convert("do it", &stream, &first_response_only, "s", "m");
    assert_eq!(skillscope_atif::validate(&c.trajectory), Vec::new(), "{}", c.trajectory);
    assert!(c.trajectory["steps"].as_array().unwrap().iter().all(|s| s["metrics"].get("completion_tokens").is_none()));
    assert_eq!(c.trajectory["final_metrics"]["total_completion_tokens"], 13);
}

/// ACES's deterministic metrics read a real Claude Code run as its converter writes it: the Skill
/// tool is a direct read (activation 1.0), the Bash call ran nothing of the skill (read only:
/// order 1.0), nothing failed, nothing unsafe.
#[test]
fn the_runtime_metrics_read_a_claude_code_trajectory() {
    use skillscope_measures::{measure, Case};
    let c = convert("Create out.txt", &sample("claude-code-skill.jsonl"), "", "trial-1-attempt-1", "claude-test");
    let trajectory: skillscope_atif::Trajectory = serde_json::from_value(c.trajectory).unwrap();
    let case = Case { skill: Some("demo-skill".into()), should_trigger: true, ..Case::default() };
    let m = measure(&trajectory, &case);
    assert_eq!(m.skill_execution.score, 1.0, "{:?}", m.skill_execution.evidence);
    assert_eq!(m.skill_execution.evidence[0], "activation 1.00: demo-skill's SKILL.md read at call 1");
    assert_eq!((m.security.score, m.skill_efficiency.score), (1.0, 1.0), "{m:?}");
    let other = Case { skill: Some("another-skill".into()), ..case };
    assert_eq!(
        measure(&trajectory, &other).skill_efficiency.evidence[0],
        "routing 0: read a skill it should not have (demo-skill)"
    );
}
