//! Agent-loop overhead per step, excluding model latency, against a raw `docker exec` of the
//! same command. `cargo bench -p skillscope-agent --bench step_overhead`
//! Needs a Docker engine and the busybox image (`skillscope image bootstrap --busybox-only`).

use serde_json::json;
use skillscope_agent::run::RunInput;
use skillscope_agent::AgentLimits;
use skillscope_models::{ApiKind, Client, PriceTable, ProviderConfig, Secret};
use skillscope_sandbox::{bootstrap, ContainerSpec, Engine, ExecOptions};
use std::time::{Duration, Instant};

const STEPS: usize = 40;
const COMMAND: &str = "echo step";

#[tokio::main]
async fn main() {
    let engine = Engine::connect().await.expect("a Docker engine");
    let image = bootstrap::busybox(&engine).await.expect("busybox image");
    let mut spec = ContainerSpec::new(image);
    spec.labels.insert("skillscope.bench".into(), "step-overhead".into());
    let container = engine.create(&spec).await.unwrap();
    container.start().await.unwrap();

    // Raw floor: the same command through `docker exec`, one after another.
    let cmd = vec!["sh".to_string(), "-c".into(), COMMAND.into()];
    let t = Instant::now();
    for _ in 0..STEPS {
        let r = container.exec(&cmd, ExecOptions::seconds(30), &mut |_, _| {}).await.unwrap();
        assert_eq!(r.exit_code, Some(0));
    }
    let raw = t.elapsed() / STEPS as u32;

    let mut steps: Vec<_> = (0..STEPS).map(|_| json!({"tool": "bash", "args": {"command": COMMAND}})).collect();
    steps.push(json!({"text": "done"}));
    let server = skillscope_modelserver::start(skillscope_modelserver::ServerOptions {
        script: serde_json::from_value(json!({"default": steps})).unwrap(),
        ..Default::default()
    })
    .await
    .unwrap();
    let client = Client::new(
        ProviderConfig::new("bench", ApiKind::OpenAiChat, server.base_url.clone()),
        Some(Secret::new("sk-bench-0000000000")),
    )
    .unwrap();
    let limits = AgentLimits { max_turns: STEPS as u32 + 5, ..Default::default() };
    let t = Instant::now();
    let out = skillscope_agent::run(RunInput {
        client: &client,
        model: "scripted",
        prices: &PriceTable::empty(),
        container: &container,
        workdir: "/tmp",
        instruction: "benchmark",
        owner: None,
        skills: &[],
        limits: &limits,
        redactor: &skillscope_atif::Redactor::new(vec![]),
        session_id: "bench".into(),
        log: &|_| {},
    })
    .await
    .unwrap();
    let total = t.elapsed();
    container.remove().await.unwrap();
    assert_eq!(out.turns as usize, STEPS + 1);
    let per_step = total.saturating_sub(Duration::from_millis(out.model_ms)) / STEPS as u32;
    println!("steps: {STEPS} tool calls of `{COMMAND}`");
    println!("raw docker exec: {:.1} ms per command", raw.as_secs_f64() * 1e3);
    println!(
        "agent loop: {:.1} ms per step excluding model time ({} ms model time in total) = {:.2}x raw exec; loop overhead {:.1} ms per step",
        per_step.as_secs_f64() * 1e3,
        out.model_ms,
        per_step.as_secs_f64() / raw.as_secs_f64(),
        (per_step.as_secs_f64() - raw.as_secs_f64()) * 1e3
    );
}
