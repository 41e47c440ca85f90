//! Settings edited in the app: written to `config.toml` and `prices.toml`, seen at once by every
//! handle on the workspace (the queue's worker holds a clone), refused whole when a field is out of
//! range, and prices merged from a LiteLLM-style JSON.

use skillscope_api::settings::{self, PriceRow};
use skillscope_api::{ErrorCode, Workspace};

#[test]
fn saved_settings_reach_every_handle_and_a_new_process() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let worker_handle = ws.clone();
    let before = settings::get(&ws).unwrap();
    assert!(!before.prices_from_file && before.prices.iter().any(|p| p.model == "gpt-4o"), "the built-in table");

    let mut s = before.clone();
    s.queue_concurrency = 1;
    s.queue_max_attempts = 2;
    s.trial_deadline_secs = Some(900);
    s.scan_quality_gate = 70.0;
    s.scan_risky_below = 40;
    s.prices =
        vec![PriceRow { model: "local-m".into(), input_per_mtok: 1.0, cached_per_mtok: None, output_per_mtok: 2.0 }];
    let saved = settings::save(&ws, s).unwrap();
    assert!(saved.prices_from_file);
    // The worker's clone sees the change without a restart.
    let q = worker_handle.config().queue;
    assert_eq!((q.concurrency(), q.max_attempts(), q.trial_deadline_secs), (1, 2, Some(900)));
    assert_eq!(worker_handle.config().scan.risky_below, 40);
    // And so does the next start.
    let reopened = settings::get(&Workspace::open(home.path()).unwrap()).unwrap();
    assert_eq!(reopened, saved);
    assert_eq!(reopened.prices.len(), 1);
}

#[test]
fn an_out_of_range_field_is_refused_and_nothing_is_written() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let good = settings::get(&ws).unwrap();
    type Mutate = fn(&mut settings::Settings);
    let cases: [(Mutate, &str); 6] = [
        (|s| s.queue_concurrency = 0, "concurrency"),
        (|s| s.queue_max_attempts = 11, "attempts"),
        (|s| s.trial_deadline_secs = Some(0), "deadline"),
        (|s| s.scan_quality_gate = 101.0, "quality gate"),
        (|s| s.prices[0].output_per_mtok = -1.0, "0 or more"),
        (|s| s.prices[1].model = s.prices[0].model.clone(), "twice"),
    ];
    for (mutate, says) in cases {
        let mut s = good.clone();
        mutate(&mut s);
        let e = settings::save(&ws, s).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidInput);
        assert!(e.message.contains(says), "{says}: {}", e.message);
    }
    assert!(!ws.config_path().exists() && !home.path().join("prices.toml").exists(), "nothing written");
    assert_eq!(settings::get(&ws).unwrap(), good);
}

#[test]
fn litellm_prices_merge_into_the_table_in_force() {
    let home = tempfile::tempdir().unwrap();
    let ws = Workspace::open(home.path()).unwrap();
    let file = home.path().join("litellm.json");
    std::fs::write(
        &file,
        r#"{"sample_spec": {"input_cost_per_token": 0, "output_cost_per_token": 0},
            "gpt-4o": {"input_cost_per_token": 5e-06, "output_cost_per_token": 2e-05},
            "my-local-model": {"input_cost_per_token": 1e-07, "output_cost_per_token": 2e-07},
            "whisper-1": {"input_cost_per_second": 0.0001}}"#,
    )
    .unwrap();
    let done = settings::import_prices(&ws, file.to_str().unwrap()).unwrap();
    assert_eq!((done.added, done.updated), (1, 1));
    assert_eq!(done.skipped, ["sample_spec", "whisper-1"]);
    let row = |m: &str| done.settings.prices.iter().find(|p| p.model == m).cloned().unwrap();
    assert_eq!((row("gpt-4o").input_per_mtok, row("gpt-4o").output_per_mtok), (5.0, 20.0));
    assert!((row("my-local-model").input_per_mtok - 0.1).abs() < 1e-12);
    assert!(done.settings.prices.iter().any(|p| p.model == "claude-sonnet-4"), "the rest of the table is kept");

    std::fs::write(&file, "{\"not\": \"prices\"}").unwrap();
    let e = settings::import_prices(&ws, file.to_str().unwrap()).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidInput);
    let e = settings::import_prices(&ws, "/nonexistent/prices.json").unwrap_err();
    assert!(e.message.contains("/nonexistent/prices.json"), "{}", e.message);
}
