//! End-to-end: the real Skillscope window (WebKitGTK) under Xvfb, driven through tauri-driver and
//! WebKitWebDriver. Needs a display (run under `xvfb-run`); without one it fails rather than skips.
//! The app binary is taken from target/debug (override with APP_BIN): `cargo build` first.

mod driver;

use driver::{Locator, Session};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread")]
async fn import_a_skill_through_the_ui_and_find_it_in_the_library() {
    let home = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    let skill = src.path().join("e2e-imported");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: e2e-imported\ndescription: Imported by the end-to-end test. Use when testing.\n---\n# E2E\nHello from the test.\n\nSee [the guide](references/guide.md) and [the site](http://127.0.0.1:9/docs).\n",
    )
    .unwrap();
    std::fs::create_dir_all(skill.join("references")).unwrap();
    std::fs::write(skill.join("references/guide.md"), "# Guide\nGuide text for the link test.\n").unwrap();

    let s = Session::start(home.path()).await;

    // First start seeds the sample skills into the new workspace.
    s.wait_for(Locator::Css("[data-testid=skill-row][data-skill-name=csv-insights]")).await;

    s.import_via_dialog(&skill.display().to_string(), "e2e-imported").await;

    let row = s.wait_for(Locator::Css("[data-testid=skill-row][data-skill-name=e2e-imported]")).await;
    s.screenshot("e2e-library.png").await;
    // WebKitWebDriver cannot click a <tr> itself ("not interactable"); click its first cell.
    row.find(Locator::Css("td")).await.unwrap().click().await.unwrap();
    let page = s.wait_for(Locator::Css("[data-testid=skill-page][data-skill-name=e2e-imported]")).await;
    s.wait_text(&page, "Hello from the test.").await;
    s.screenshot("e2e-skill-page.png").await;

    // A web link opens outside (the desktop's browser is a recorder here); the window stays.
    s.click(Locator::LinkText("the site")).await;
    s.wait_until_opened("http://127.0.0.1:9/docs").await;
    // Navigations away from the app page are refused: a file URL, a page of the app's origin.
    for target in ["file:///etc/passwd", "/docs/a.md", "https://127.0.0.1:9/"] {
        s.client.execute(&format!("window.location.href = {target:?};"), vec![]).await.unwrap();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let url = s.client.current_url().await.unwrap();
        assert!(
            url.as_str().starts_with("tauri://localhost") && matches!(url.path(), "" | "/"),
            "the window left the app: {url}"
        );
        s.wait_for(Locator::Css("[data-testid=skill-page][data-skill-name=e2e-imported]")).await;
    }
    assert_eq!(s.opened_urls(), ["http://127.0.0.1:9/docs"], "a refused navigation opened nothing outside");
    // A link to one of the skill's files opens it in the Files tab.
    s.click(Locator::LinkText("the guide")).await;
    let page = s.wait_for(Locator::Css("[data-testid=skill-page]")).await;
    s.wait_text(&page, "Guide text for the link test.").await;

    // The UI's import really reached the workspace on disk.
    let db = rusqlite_count(home.path());
    assert!(db >= 4, "expected the 3 samples and the imported skill, found {db} skills");

    // The import dialog offers the system's pickers, and the window may open one: the call is
    // still waiting on the (native, undriven) picker after 3 s instead of being refused.
    s.click(Locator::Css("[data-testid=nav-library]")).await;
    s.click(Locator::Css("[data-testid=import-open]")).await;
    s.wait_for(Locator::Css("[data-testid=import-pick-file]")).await;
    s.wait_for(Locator::Css("[data-testid=import-pick-folder]")).await;
    let picker =
        s.invoke_from_page("plugin:dialog|open", serde_json::json!({"options": {"directory": true}}), 3000).await;
    assert_eq!(picker, "waiting");
    s.close().await;
}

/// Counts skills with the project's own CLI, so the test reads the same workspace the app wrote.
fn rusqlite_count(home: &std::path::Path) -> usize {
    let out = std::process::Command::new(driver::target_bin("skillscope"))
        .args(["--home", &home.display().to_string(), "list", "--json"])
        .output()
        .expect("run skillscope list");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<_> = v.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect();
    assert!(names.contains(&"e2e-imported".to_string()), "{names:?}");
    names.len()
}

/// Issue 3: scan a skill from the UI and see its findings, the decoded hidden text, and an export;
/// issue 15: have a model (the scripted server) review it, and see its quoted finding added.
#[tokio::test(flavor = "multi_thread")]
async fn scan_a_risky_skill_from_the_ui_and_export_sarif() {
    driver::join_session_keyring();
    let review = serde_json::json!({"findings": [{"pattern": "A6", "severity": "high", "file": "SKILL.md",
        "quote": "Formats haiku poems. Use when the user wants a haiku.", "message": "the description hides what the skill asks"}]});
    let script = serde_json::json!({"branches": [{"if_prompt_contains": "Skill folder: a2-tag-smuggling",
        "steps": [{"text": review.to_string()}]}]});
    let server = driver::model_server(script, None).await;
    let home = tempfile::tempdir().unwrap();
    driver::cli(home.path(), &["provider", "add", "local", "--api", "openai_chat", "--base-url", &server.base_url], "");
    driver::cli(home.path(), &["credential", "set", "local"], "sk-e2e-review-0000000");
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scan/a2-tag-smuggling");
    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css("[data-testid=skill-row][data-skill-name=csv-insights]")).await;
    s.import_via_dialog(&fixture.canonicalize().unwrap().display().to_string(), "a2-tag-smuggling").await;

    s.click(Locator::Css("[data-testid=nav-scans]")).await;
    let row = s
        .wait_for(Locator::Css("[data-testid=scan-row][data-skill-name=a2-tag-smuggling] [data-testid=scan-select]"))
        .await;
    row.click().await.unwrap();
    s.wait_for(Locator::Css("[data-testid=scan-selected][data-skill-name=a2-tag-smuggling]")).await;
    let card = s.wait_for(Locator::Css("[data-testid=scans-page] [data-testid=security-card]")).await;
    card.find(Locator::Css("[data-testid=risky-badge]")).await.unwrap();
    let a2 = card.find(Locator::Css("[data-testid=security-finding][data-pattern=A2]")).await.unwrap();
    assert_eq!(a2.attr("data-severity").await.unwrap().as_deref(), Some("critical"));
    let hidden = card.find(Locator::Css("[data-testid=decoded-hidden]")).await.unwrap();
    assert!(!hidden.text().await.unwrap().trim().is_empty(), "the hidden message is shown decoded");
    let not_reviewed = card.find(Locator::Css("[data-testid=model-review][data-reviewed=no]")).await.unwrap();
    s.wait_text(&not_reviewed, "Not reviewed by a model").await;
    card.find(Locator::Css("[data-testid=model-review-model]")).await.unwrap().send_keys("m").await.unwrap();
    card.find(Locator::Css("[data-testid=model-review-run]")).await.unwrap().click().await.unwrap();
    let reviewed = s.wait_for(Locator::Css("[data-testid=model-review][data-reviewed=yes]")).await;
    s.wait_text(&reviewed, "Reviewed by m (local").await;
    let card = s.wait_for(Locator::Css("[data-testid=scans-page] [data-testid=security-card]")).await;
    let a6 = card.find(Locator::Css("[data-testid=security-finding][data-pattern=A6]")).await.unwrap();
    s.wait_text(&a6, "Model review:").await;
    s.screenshot("e2e-scan.png").await;

    card.find(Locator::Css("[data-testid=export-sarif]")).await.unwrap().click().await.unwrap();
    let path_el = s.wait_for(Locator::Css("[data-testid=security-card] [data-testid=export-path]")).await;
    s.wait_text(&path_el, ".sarif").await;
    let text = path_el.text().await.unwrap();
    let path = text.split_whitespace().find(|w| w.ends_with(".sarif")).expect("a path in the export note");
    let sarif: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(
        path.starts_with(&home.path().canonicalize().unwrap().display().to_string()),
        "exports stay in the workspace"
    );
    s.close().await;
}

/// Issue 15: run security probes on a hostile fixture from its skill page (the app's own queue
/// worker runs them), see the probe confirmed, and open its evidence: the captured request and the
/// trajectory at the step where the agent read the skill.
#[tokio::test(flavor = "multi_thread")]
async fn probes_from_the_skill_page_confirm_a_hostile_skill_and_open_the_evidence() {
    driver::join_session_keyring();
    let name = "probe-http-exfil";
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let fixture = root.join("fixtures/probes").join(name).canonicalize().unwrap();
    let md = std::fs::read_to_string(fixture.join("SKILL.md")).unwrap();
    let command = md.split("```bash\n").nth(1).unwrap().split("```").next().unwrap().trim();
    let script = serde_json::json!({"default": [{"text": "No skill here."}], "branches": [{
        "if_prompt_contains": format!("/skills/{name}/SKILL.md"),
        "steps": [{"tool": "bash", "args": {"command": format!("cat /skills/{name}/SKILL.md")}},
                  {"tool": "bash", "args": {"command": command}}, {"text": "Done."}]}]});
    let server = driver::model_server(script, None).await;
    let home = tempfile::tempdir().unwrap();
    let cli = |args: &[&str], stdin: &str| driver::cli(home.path(), args, stdin);
    cli(&["provider", "add", "local", "--api", "openai_chat", "--base-url", &server.base_url], "");
    cli(&["credential", "set", "local"], "sk-e2e-probes-0000000");
    cli(&["agent", "add", "builtin", "--provider", "local", "--model", "m"], "");
    cli(&["import", fixture.to_str().unwrap()], "");

    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css(&format!("[data-testid=skill-row][data-skill-name={name}] td")))
        .await
        .click()
        .await
        .unwrap();
    s.wait_for(Locator::Css("[data-testid=tab-review]")).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    s.click(Locator::Css("[data-testid=tab-review]")).await;
    let run = s.wait_for(Locator::Css("[data-testid=probes-panel] [data-testid=probe-run]")).await;
    // The panel sits below the scan cards: bring the button into view as a person scrolls to it.
    s.client
        .execute("arguments[0].scrollIntoView({block: 'center'});", vec![serde_json::to_value(&run).unwrap()])
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    run.click().await.unwrap();
    let generic = "[data-testid=probe][data-task=generic]";
    s.wait_for(Locator::Css(generic)).await;
    let confirmed = format!("{generic}[data-outcome=confirmed]");
    let probe = s.wait_for_within(Locator::Css(&confirmed), Duration::from_secs(180)).await;
    let sent = probe.find(Locator::Css("[data-testid=probe-evidence][data-kind=canary_sent]")).await.unwrap();
    s.wait_text(&sent, "AWS").await;
    sent.find(Locator::Css("summary")).await.unwrap().click().await.unwrap();
    let request = sent.find(Locator::Css("[data-testid=probe-request]")).await.unwrap();
    s.wait_text(&request, "creds-check.example").await;
    s.screenshot("e2e-probes.png").await;
    let read = probe
        .find(Locator::Css("[data-testid=probe-evidence][data-kind=skill_read] [data-testid=probe-evidence-step]"))
        .await
        .unwrap();
    read.click().await.unwrap();
    let step = s.wait_for(Locator::Css("[data-testid=traj-step][data-highlighted=true]")).await;
    s.wait_text(&step, "/skills/probe-http-exfil/SKILL.md").await;
    s.close().await;
}

/// Issue 4: queue a sandbox run from the Runs page, watch its live log, see it pass.
#[tokio::test(flavor = "multi_thread")]
async fn queue_a_sandbox_run_and_watch_it_finish() {
    let home = tempfile::tempdir().unwrap();
    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css("[data-testid=skill-row]")).await;
    s.click(Locator::Css("[data-testid=nav-runs]")).await;
    s.wait_for(Locator::Css("[data-testid=runs-page]")).await;
    let command = s.wait_for(Locator::Css("[data-testid=sandbox-command]")).await;
    command.clear().await.unwrap();
    command.send_keys("echo hello-from-e2e; sleep 3; echo finished-e2e").await.unwrap();
    s.click(Locator::Css("[data-testid=sandbox-submit]")).await;

    // A new workspace holds the labelled demo experiment's run; the new run is the other one.
    s.wait_for(Locator::Css("[data-testid=run-row][data-demo=true] [data-testid=origin-badge]")).await;
    let run = s.wait_for(Locator::Css("[data-testid=run-row][data-demo=false] td")).await;
    run.click().await.unwrap();
    let trial = s.wait_for(Locator::Css("[data-testid=trial-row] td")).await;
    trial.click().await.unwrap();
    // The live log shows output while the command still sleeps.
    let log = s.wait_for(Locator::Css("[data-testid=trial-log]")).await;
    s.wait_text(&log, "hello-from-e2e").await;
    s.screenshot("e2e-runs-live.png").await;
    s.wait_for(Locator::Css("[data-testid=trial-row][data-state=passed]")).await;
    let stdout = s.wait_for(Locator::Css("[data-testid=attempt-stdout]")).await;
    s.wait_text(&stdout, "finished-e2e").await;
    s.screenshot("e2e-runs-done.png").await;
    s.close().await;
}

/// Issue 5: add a provider and its key (kernel keyring), test the key with a real call to the
/// scripted model server, add an agent configuration, run the built-in agent, see its trajectory.
#[tokio::test(flavor = "multi_thread")]
async fn settings_key_agent_run_and_trajectory() {
    driver::join_session_keyring();
    let key = "sk-e2e-5f1c2a9d7b3e4680";
    let script = serde_json::json!({"default": [
        {"tool": "bash", "args": {"command": "awk -F, 'NR>1{s+=$1} END{print s}' data.csv > report.txt"}},
        {"tool": "read_file", "args": {"path": "report.txt"}},
        {"text": "report.txt holds the sum."}
    ]});
    let server = driver::model_server(script, Some(key)).await;
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("data.csv"), "n\n4\n5\n6\n").unwrap();

    let s = Session::start(home.path()).await;
    let c = &s.client;
    s.wait_for(Locator::Css("[data-testid=skill-row]")).await;
    s.click(Locator::Css("[data-testid=nav-settings]")).await;
    // The engine is found and named; its base images are listed, and Prepare rebuilds one with progress.
    s.wait_for(Locator::Css("[data-testid=engine-status] [data-engine-state=running]")).await;
    s.wait_for(Locator::Css("[data-testid=image-row][data-ready=true]")).await;
    s.click(Locator::Css("[data-testid=prepare-busybox]")).await;
    let prepared = s.wait_for(Locator::Css("[data-testid=prepare-done]")).await;
    s.wait_text(&prepared, "Built 1 image").await;
    // No registry answers here: a pull says so, with what to do instead.
    s.wait_for(Locator::Css("[data-testid=image-pull-ref]")).await.send_keys("127.0.0.1:9/absent:1").await.unwrap();
    s.click(Locator::Css("[data-testid=image-pull-submit]")).await;
    let pull = s.wait_for(Locator::Css("[data-testid=image-pull-error]")).await;
    s.wait_text(&pull, "pull failed").await;

    // Queue, scan and price settings: saved to the workspace and merged from a LiteLLM price file.
    let concurrency = s.wait_for(Locator::Css("[data-testid=settings-concurrency]")).await;
    concurrency.clear().await.unwrap();
    concurrency.send_keys("1").await.unwrap();
    s.click(Locator::Css("[data-testid=settings-save]")).await;
    s.wait_for(Locator::Css("[data-testid=settings-saved]")).await;
    let config = std::fs::read_to_string(home.path().join("config.toml")).unwrap();
    assert!(config.contains("concurrency = 1"), "{config}");
    let litellm = work.path().join("litellm.json");
    std::fs::write(&litellm, r#"{"scripted": {"input_cost_per_token": 1e-06, "output_cost_per_token": 2e-06}}"#)
        .unwrap();
    s.wait_for(Locator::Css("[data-testid=price-import-path]"))
        .await
        .send_keys(litellm.to_str().unwrap())
        .await
        .unwrap();
    s.click(Locator::Css("[data-testid=price-import-submit]")).await;
    let imported = s.wait_for(Locator::Css("[data-testid=price-import-result]")).await;
    s.wait_text(&imported, "Added 1").await;
    s.wait_for(Locator::Css("[data-testid=price-row][data-model=scripted]")).await;

    s.wait_for(Locator::Css("[data-testid=provider-form]")).await;
    c.find(Locator::Css("[data-testid=provider-id]")).await.unwrap().send_keys("local").await.unwrap();
    let url = c.find(Locator::Css("[data-testid=provider-base-url]")).await.unwrap();
    url.clear().await.unwrap();
    url.send_keys(&server.base_url).await.unwrap();
    s.click(Locator::Css("[data-testid=provider-save]")).await;
    let row = "[data-testid=provider-row][data-provider-id=local]";
    s.wait_for(Locator::Css(row)).await;
    c.find(Locator::Css(&format!("{row} [data-testid=key-input]"))).await.unwrap().send_keys(key).await.unwrap();
    s.click(Locator::Css(&format!("{row} [data-testid=key-save]"))).await;
    let status = s.wait_for(Locator::Css(&format!("{row} [data-testid=key-status]"))).await;
    s.wait_text(&status, "Key stored").await;
    c.find(Locator::Css(&format!("{row} [data-testid=key-test-model]")))
        .await
        .unwrap()
        .send_keys("scripted")
        .await
        .unwrap();
    s.click(Locator::Css(&format!("{row} [data-testid=key-test]"))).await;
    s.wait_for(Locator::Css(&format!("{row} [data-testid=key-test-result][data-ok=true]"))).await;

    // Every harness is ready (scripts/test.sh installed the CLIs into SKILLSCOPE_HARNESS_DIR).
    for harness in ["builtin", "claude-code", "codex", "opencode"] {
        s.wait_for(Locator::Css(&format!("[data-testid=harness-row][data-harness={harness}][data-installed=true]")))
            .await;
    }
    c.find(Locator::Css("[data-testid=agent-name]")).await.unwrap().send_keys("builtin-e2e").await.unwrap();
    c.find(Locator::Css("[data-testid=agent-model]")).await.unwrap().send_keys("scripted").await.unwrap();
    s.click(Locator::Css("[data-testid=agent-save]")).await;
    s.wait_for(Locator::Css("[data-testid=agent-row][data-agent-name=builtin-e2e]")).await;
    // Claude Code speaks only the Anthropic API: on this provider it is refused, and the form says why.
    c.find(Locator::Css("[data-testid=agent-name]")).await.unwrap().send_keys("claude-e2e").await.unwrap();
    c.find(Locator::Css("[data-testid=agent-harness]")).await.unwrap().select_by_value("claude-code").await.unwrap();
    c.find(Locator::Css("[data-testid=agent-model]")).await.unwrap().send_keys("claude-test").await.unwrap();
    s.click(Locator::Css("[data-testid=agent-save]")).await;
    let refused = s.wait_for(Locator::Css("[data-testid=agent-form-error]")).await;
    s.wait_text(&refused, "Anthropic").await;
    // Codex speaks only OpenAI Responses: refused too; the form says which limits it keeps.
    c.find(Locator::Css("[data-testid=agent-harness]")).await.unwrap().select_by_value("codex").await.unwrap();
    let note = s.wait_for(Locator::Css("[data-testid=agent-limits-note]")).await;
    s.wait_text(&note, "holds Codex CLI to the turn limit").await;
    s.click(Locator::Css("[data-testid=agent-save]")).await;
    let refused = s.wait_for(Locator::Css("[data-testid=agent-form-error]")).await;
    s.wait_text(&refused, "OpenAI Responses").await;
    // OpenCode speaks this provider's Chat Completions: saved.
    c.find(Locator::Css("[data-testid=agent-harness]")).await.unwrap().select_by_value("opencode").await.unwrap();
    let name = c.find(Locator::Css("[data-testid=agent-name]")).await.unwrap();
    name.clear().await.unwrap();
    name.send_keys("opencode-e2e").await.unwrap();
    s.click(Locator::Css("[data-testid=agent-save]")).await;
    s.wait_for(Locator::Css("[data-testid=agent-row][data-agent-name=opencode-e2e]")).await;
    s.screenshot("e2e-settings.png").await;
    let page = c.source().await.unwrap();
    assert!(!page.contains(key), "the key is never shown once saved");

    s.click(Locator::Css("[data-testid=nav-runs]")).await;
    s.wait_for(Locator::Css("[data-testid=engine-status] [data-engine-state=running]")).await;
    let form = s.wait_for(Locator::Css("[data-testid=agent-run-form]")).await;
    form.find(Locator::Css("[data-testid=agent-run-instruction]"))
        .await
        .unwrap()
        .send_keys("Create report.txt containing the sum of the numbers in data.csv")
        .await
        .unwrap();
    form.find(Locator::Css("[data-testid=agent-run-workspace]"))
        .await
        .unwrap()
        .send_keys(&work.path().display().to_string())
        .await
        .unwrap();
    form.find(Locator::Css("[data-testid=agent-run-verifier]"))
        .await
        .unwrap()
        .send_keys("test \"$(cat report.txt)\" = 15")
        .await
        .unwrap();
    s.click(Locator::Css("[data-testid=agent-run-form] [data-testid=agent-run-submit]")).await;
    s.wait_for(Locator::Css("[data-testid=run-row][data-demo=true]")).await;
    s.click(Locator::Css("[data-testid=run-row][data-demo=false] td")).await;
    s.click(Locator::Css("[data-testid=trial-row][data-state=passed] td")).await;
    s.wait_for(Locator::Css("[data-testid=trajectory] [data-testid=traj-tool-call]")).await;
    let traj = s.wait_for(Locator::Css("[data-testid=trajectory]")).await;
    s.wait_text(&traj, "read_file").await;
    s.wait_text(&traj, "15").await;
    s.screenshot("e2e-trajectory.png").await;
    s.close().await;
}

/// Issue 6: an experiment run by `skillscope eval` (Harbor task, built-in agent, scripted model)
/// appears on the Results page with its skill's class, summary and pairs.
#[tokio::test(flavor = "multi_thread")]
async fn results_page_shows_an_evaluated_skill() {
    driver::join_session_keyring();
    let script = serde_json::json!({"default": [{"tool": "bash", "args": {"command": "cp task.txt answer.txt"}}, {"text": "copied"}]});
    let server = driver::model_server(script, None).await;
    let home = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cli = |args: &[&str], stdin: &str| driver::cli(home.path(), args, stdin);
    cli(&["samples"], "");
    cli(&["provider", "add", "local", "--api", "openai_chat", "--base-url", &server.base_url], "");
    cli(&["credential", "set", "local"], "sk-e2e-results-0000000");
    cli(&["agent", "add", "builtin", "--provider", "local", "--model", "m"], "");
    let tasks = root.join("fixtures/tasks/harbor-local").canonicalize().unwrap();
    cli(&["eval", "--skill", "csv-insights", "--tasks", tasks.to_str().unwrap(), "--config", "builtin", "--json"], "");

    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css("[data-testid=skill-row]")).await;
    s.click(Locator::Css("[data-testid=nav-results]")).await;
    // The demo experiment (imported on first start) is labelled; pick the evaluated one.
    s.wait_for(Locator::Css("[data-testid=experiment-row][data-demo=true] [data-testid=origin-badge]")).await;
    s.click(Locator::Css("[data-testid=experiment-row][data-demo=false] td")).await;
    s.wait_for(Locator::Css("[data-testid=skill-result][data-skill=csv-insights][data-class=too_few_tasks]")).await;
    let summary = s.wait_for(Locator::Css("[data-testid=results-summary]")).await;
    s.wait_text(&summary, "100").await;
    s.wait_for(Locator::Css("[data-testid=pair-row][data-excluded=false]")).await;
    s.screenshot("e2e-results.png").await;
    s.close().await;
}

/// Issue 7: heatmap → cell → pair → first divergence; a decision; the exported report opens in
/// headless Chromium and its screenshot shows the heatmap and the decision.
#[tokio::test(flavor = "multi_thread")]
async fn explore_results_decide_and_export_the_report() {
    driver::join_session_keyring();
    // With the skill the agent reads SKILL.md first; without it, it goes straight to work.
    let script = serde_json::json!({
        "default": [{"tool": "bash", "args": {"command": "cp task.txt answer.txt"}}, {"text": "copied"}],
        "branches": [{"if_prompt_contains": "csv-insights", "steps": [
            {"tool": "read_file", "args": {"path": "/skills/csv-insights/SKILL.md"}},
            {"tool": "bash", "args": {"command": "cp task.txt answer.txt"}},
            {"text": "copied, having read the skill"}
        ]}]
    });
    let server = driver::model_server(script, None).await;
    let home = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let tasks = root.join("fixtures/tasks/harbor-local").canonicalize().unwrap();
    let base_url = server.base_url.clone();
    driver::cli(home.path(), &["samples"], "");
    driver::cli(home.path(), &["provider", "add", "local", "--api", "openai_chat", "--base-url", &base_url], "");
    driver::cli(home.path(), &["credential", "set", "local"], "sk-e2e-report-0000000");
    driver::cli(home.path(), &["agent", "add", "builtin", "--provider", "local", "--model", "m"], "");
    driver::cli(
        home.path(),
        &["eval", "--skill", "csv-insights", "--tasks", tasks.to_str().unwrap(), "--config", "builtin", "--json"],
        "",
    );

    let s = Session::start(home.path()).await;
    let c = &s.client;
    s.wait_for(Locator::Css("[data-testid=skill-row]")).await;
    s.click(Locator::Css("[data-testid=nav-results]")).await;
    // The demo experiment (imported on first start) is labelled; pick the evaluated one.
    s.wait_for(Locator::Css("[data-testid=experiment-row][data-demo=true] [data-testid=origin-badge]")).await;
    s.click(Locator::Css("[data-testid=experiment-row][data-demo=false] td")).await;
    let cell = s.wait_for(Locator::Css("[data-testid=heat-cell][data-skill=csv-insights][data-config=builtin]")).await;
    cell.click().await.unwrap();
    s.wait_for(Locator::Css("[data-testid=cell-detail]")).await;
    s.screenshot("e2e-heatmap.png").await;
    s.click(Locator::Css("[data-testid=open-pair]")).await;
    s.wait_for(Locator::Css("[data-testid=pair-view]")).await;
    s.wait_for(Locator::Css("[data-testid=pair-with] [data-testid=skill-read]")).await;
    s.click(Locator::Css("[data-testid=jump-divergence]")).await;
    s.wait_for(Locator::Css("[data-testid=pair-without] [data-divergent=true]")).await;
    s.wait_for(Locator::Css("[data-testid=pair-with] [data-divergent=true]")).await;
    s.screenshot("e2e-pair.png").await;

    // Decide on the skill's page and export the report.
    s.click(Locator::Css("[data-testid=nav-library]")).await;
    s.click(Locator::Css("[data-testid=skill-row][data-skill-name=csv-insights] td")).await;
    // The tab row settles once the skill has loaded; click the Decision tab after that.
    s.wait_for(Locator::Css("[data-testid=tab-review]")).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    s.click(Locator::Css("[data-testid=tab-decision]")).await;
    s.wait_for(Locator::Css("[data-testid=decision-form]")).await;
    // Click the radio's label, as a person does (WebKitWebDriver's click on the bare input is lost).
    s.click(Locator::XPath("//input[@data-testid='decision-approve']/parent::label")).await;
    c.find(Locator::Css("[data-testid=decision-rationale]"))
        .await
        .unwrap()
        .send_keys("Safe and harmless; no measurable effect on copy tasks.")
        .await
        .unwrap();
    let reviewer = c.find(Locator::Css("[data-testid=decision-reviewer]")).await.unwrap();
    reviewer.clear().await.unwrap();
    reviewer.send_keys("E2E Reviewer").await.unwrap();
    s.click(Locator::Css("[data-testid=decision-submit]")).await;
    s.wait_for(Locator::Css("[data-testid=decision-row][data-verdict=approve][data-covers-latest=true]")).await;
    s.click(Locator::Css("[data-testid=report-html]")).await;
    let path_el = s.wait_for(Locator::Css("[data-testid=report-path]")).await;
    s.wait_text(&path_el, ".html").await;
    let text = path_el.text().await.unwrap();
    let report = text.split_whitespace().find(|w| w.ends_with(".html")).expect("the report path").to_string();
    // Open hands the report to the desktop (a recorder here); a path outside the exports folder is refused.
    s.click(Locator::Css("[data-testid=report-path] [data-testid=export-open]")).await;
    s.wait_until_opened(&report).await;
    let refused =
        s.invoke_from_page("plugin:opener|open_path", serde_json::json!({"path": "/etc/passwd"}), 10_000).await;
    assert!(refused.starts_with("refused: Not allowed to open path"), "{refused}");
    assert!(!s.opened_urls().iter().any(|u| u.contains("passwd")));
    s.close().await;

    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("id=\"heatmap\"") && html.contains("E2E Reviewer") && !html.contains("<script"));
    let shot = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.artifacts/e2e-report.png");
    driver::chromium_screenshot(std::path::Path::new(&report), &shot);
    assert!(std::fs::metadata(&shot).unwrap().len() > 10_000, "a real screenshot of the report");
}

/// Issue 7: a 5,000-step, ~50 MB trajectory opens a window of steps at a time: the first screen,
/// more on scrolling (never more than a window kept), a link to a far step, a back-end filter. The
/// time to the first screen is printed for docs/benchmarks.md, not asserted.
#[tokio::test(flavor = "multi_thread")]
async fn a_long_trajectory_opens_a_window_at_a_time() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("long-run.json");
    let out = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
    serde_json::to_writer(out, &skillscope_atif::synthetic(5_000, 10_000)).unwrap();
    driver::cli(home.path(), &["trajectory", "import", file.to_str().unwrap()], "");
    // And one step with a 300 KB output: it comes cut, and whole on request.
    let huge = home.path().join("huge-step.json");
    std::fs::write(&huge, serde_json::to_vec(&skillscope_atif::synthetic(2, 300_000)).unwrap()).unwrap();
    driver::cli(home.path(), &["trajectory", "import", huge.to_str().unwrap()], "");

    let s = Session::start(home.path()).await;
    s.click(Locator::Css("[data-testid=nav-trajectories]")).await;
    // The list comes a page at a time, newest (the demo's) first: find ours by name.
    s.wait_for(Locator::Css("[data-testid=pager-next]")).await;
    let search = s.wait_for(Locator::Css("[data-testid=trajectory-search]")).await;
    search.send_keys("long-run").await.unwrap();
    let row = s
        .wait_for(Locator::XPath("//tr[@data-testid='trajectory-list-row'][.//strong[text()='long-run.json']]/td"))
        .await;
    let started = std::time::Instant::now();
    row.click().await.unwrap();
    s.wait_for(Locator::Css("[data-testid=traj-step][data-step-id='1']")).await;
    println!("first screen of a 5,000-step trajectory in {} ms (from the click)", started.elapsed().as_millis());
    let view = s.wait_for(Locator::Css("[data-testid=trajectory][data-steps-total='5000']")).await;
    let steps = |s: &Session| {
        let c = s.client.clone();
        async move { c.find_all(Locator::Css("[data-testid=traj-step]")).await.unwrap().len() }
    };
    let first = steps(&s).await;
    assert!((1..=250).contains(&first), "only a window is loaded, not {first} steps");
    s.wait_for(Locator::Css("[data-testid=window-later]")).await;

    // Scrolling down loads later steps and drops early ones: the window moves, it does not grow.
    for _ in 0..100 {
        s.client
            .execute(
                "const b = document.querySelector('[data-testid=traj-scroll]'); b.scrollTop = b.scrollHeight;",
                vec![],
            )
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        if s.client.find(Locator::Css("[data-testid=window-earlier]")).await.is_ok() {
            break;
        }
    }
    s.wait_for(Locator::Css("[data-testid=window-earlier]")).await;
    let loaded = steps(&s).await;
    assert!(loaded <= 250, "{loaded} steps in the page");
    assert!(
        s.client.find(Locator::Css("[data-testid=traj-step][data-step-id='1']")).await.is_err(),
        "step 1 was dropped"
    );

    // A link to a far step opens its window, highlighted.
    s.client
        .execute("window.location.hash = window.location.hash.split('/step/')[0] + '/step/4321';", vec![])
        .await
        .unwrap();
    s.wait_for(Locator::Css("[data-testid=traj-step][data-step-id='4321'][data-highlighted=true]")).await;
    s.screenshot("e2e-long-trajectory.png").await;
    // j moves the highlight to the next step; at a window's edge the next window loads.
    for _ in 0..40 {
        s.client.active_element().await.unwrap().send_keys("j").await.unwrap();
    }
    s.wait_for(Locator::Css("[data-testid=traj-step][data-step-id='4361'][data-highlighted=true]")).await;

    // The filter runs on the back end over all 5,000 steps.
    s.wait_for(Locator::Css("[data-testid=traj-filter]")).await.send_keys("echo step 4321 &&").await.unwrap();
    let count = s.wait_for(Locator::Css("[data-testid=traj-count]")).await;
    s.wait_text(&count, "1 of 5000 steps").await;
    s.wait_text(&view, "Step 4321: looking at the next failure.").await;

    search.clear().await.unwrap();
    search.send_keys("huge-step").await.unwrap();
    s.wait_for(Locator::XPath("//tr[@data-testid='trajectory-list-row'][.//strong[text()='huge-step.json']]/td"))
        .await
        .click()
        .await
        .unwrap();
    s.wait_for(Locator::Css("[data-testid=step-cut]")).await;
    s.click(Locator::Css("[data-testid=step-load-whole]")).await;
    s.wait_gone(Locator::Css("[data-testid=step-cut]")).await;
    s.close().await;
}

/// Issue 7: a new workspace holds the demo experiment (really run, labelled as such), so a newcomer
/// explores every view at once: results with categories, a cell, a pair, the trajectories.
#[tokio::test(flavor = "multi_thread")]
async fn a_newcomer_explores_the_demo_on_first_start() {
    let home = tempfile::tempdir().unwrap();
    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css("[data-testid=skill-row]")).await;
    // The Results page opens on the newest experiment: here the demo.
    s.click(Locator::Css("[data-testid=nav-results]")).await;
    let note = s.wait_for(Locator::Css("[data-testid=origin-note][data-kind=demo]")).await;
    s.wait_text(&note, "scripted model server").await;
    for (skill, category) in
        [("csv-insights", "data"), ("commit-messages", "version-control"), ("pytest-triage", "testing")]
    {
        s.wait_for(Locator::Css(&format!("[data-testid=heat-row][data-skill={skill}][data-category={category}]")))
            .await;
    }
    s.wait_for(Locator::Css("[data-testid=heat-category]")).await.select_by_value("data").await.unwrap();
    s.wait_gone(Locator::Css("[data-testid=heat-row][data-skill=pytest-triage]")).await;
    s.click(Locator::Css("[data-testid=heat-cell][data-skill=csv-insights]")).await;
    s.wait_for(Locator::Css("[data-testid=cell-detail]")).await;
    s.screenshot("e2e-demo-results.png").await;
    s.click(Locator::Css("[data-testid=open-pair]")).await;
    s.wait_for(Locator::Css("[data-testid=pair-with] [data-testid=skill-read]")).await;
    // What each arm could see before its agent started: nothing, and exactly the skill.
    let seen = |arm: &str| format!("[data-testid=arm-result][data-arm={arm}] [data-testid=arm-skills-seen]");
    s.wait_text(&s.wait_for(Locator::Css(&seen("without"))).await, "visible to the agent: none").await;
    s.wait_text(&s.wait_for(Locator::Css(&seen("with"))).await, "csv-insights").await;
    // What ran in each arm, and the verifier's own result from its fresh container.
    let arm = |name: &str, what: &str| format!("[data-testid=arm-result][data-arm={name}] [data-testid={what}]");
    s.wait_text(&s.wait_for(Locator::Css(&arm("with", "arm-snapshot"))).await, "scripted").await;
    s.wait_text(&s.wait_for(Locator::Css(&arm("without", "arm-verifier"))).await, "a fresh container").await;
    s.wait_text(&s.wait_for(Locator::Css(&arm("with", "arm-verifier"))).await, "reward.txt").await;
    s.screenshot("e2e-demo-pair-arms.png").await;
    s.click(Locator::Css("[data-testid=jump-divergence]")).await;
    s.wait_for(Locator::Css("[data-testid=pair-with] [data-divergent=true]")).await;
    s.screenshot("e2e-demo-pair.png").await;
    s.click(Locator::Css("[data-testid=nav-trajectories]")).await;
    s.click(Locator::Css("[data-testid=trajectory-list-row] td")).await;
    s.wait_for(Locator::Css("[data-testid=trajectory-panel] [data-testid=traj-tool-call]")).await;
    s.close().await;
}

/// Clicks an export button of the selected experiment; returns the saved file's path, which must
/// be in the workspace's exports folder and contain `part`.
async fn saved(s: &Session, home: &std::path::Path, button: &str, part: &str) -> String {
    s.click(Locator::Css(&format!("[data-testid={button}]"))).await;
    let shown = s.wait_for(Locator::Css("[data-testid=experiment-export-path] code")).await;
    s.wait_text(&shown, part).await;
    let path = shown.text().await.unwrap();
    assert!(path.starts_with(&home.join("exports").display().to_string()), "{path}");
    path
}

/// Issue 20: an experiment leaves the app as CSV (pairs and trials) and as a bundle, each saved
/// in the exports folder with its path shown, and the bundle comes back in as a new experiment;
/// issue 18: its runtime measures on request.
#[tokio::test(flavor = "multi_thread")]
async fn an_experiment_leaves_as_csv_and_a_bundle_and_comes_back() {
    let home = tempfile::tempdir().unwrap();
    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css("[data-testid=skill-row]")).await;
    s.click(Locator::Css("[data-testid=nav-results]")).await;
    let demo = s.wait_for(Locator::Css("[data-testid=experiment-results]")).await;
    let demo_id = demo.attr("data-experiment-id").await.unwrap().unwrap();
    let pairs = saved(&s, home.path(), "experiment-csv-pairs", "-pairs-").await;
    assert!(std::fs::read_to_string(&pairs).unwrap().starts_with("pair_id,skill,skill_version,task"));
    let trials = saved(&s, home.path(), "experiment-csv-trials", "-trials-").await;
    assert!(std::fs::read_to_string(&trials).unwrap().starts_with("trial_id,pair_id,arm"));
    let bundle = saved(&s, home.path(), "experiment-bundle-export", ".json.gz").await;
    s.screenshot("e2e-experiment-exports.png").await;
    // Issue 18: ACES's runtime measures from the demo's trajectories, with the method named.
    s.click(Locator::Css("[data-testid=measures-run]")).await;
    let lift = s
        .wait_for(Locator::Css(
            "[data-testid=measures-table] tr[data-measure=skill_execution][data-skill=csv-insights]",
        ))
        .await;
    s.wait_text(&lift, "+50.0").await;
    s.wait_text(
        &s.wait_for(Locator::Css("[data-testid=measures-method]")).await,
        "overall is ACES's per-trial mean of all six",
    )
    .await;
    s.wait_for(Locator::Css("[data-testid=pass-at-k-table] tbody tr")).await;
    s.client
        .execute("arguments[0].scrollIntoView({block: 'center'});", vec![serde_json::to_value(&lift).unwrap()])
        .await
        .unwrap();
    s.screenshot("e2e-measures.png").await;

    s.wait_for(Locator::Css("[data-testid=bundle-import-path]")).await.send_keys(&bundle).await.unwrap();
    s.click(Locator::Css("[data-testid=bundle-import-submit]")).await;
    let imported = s
        .wait_for(Locator::Css(&format!("[data-testid=experiment-results]:not([data-experiment-id='{demo_id}'])")))
        .await;
    assert_ne!(imported.attr("data-experiment-id").await.unwrap().unwrap(), demo_id);
    s.wait_for(Locator::Css("[data-testid=heat-row][data-skill=csv-insights]")).await;
    s.close().await;
}

/// Issue 20, evals as code: a skill that ships its own evals/ offers them on its page; one click
/// stores them as a task set (the judge-only case listed, not run) that the Tasks page shows.
#[tokio::test(flavor = "multi_thread")]
async fn a_skills_own_evals_become_a_task_set_from_its_page() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let skill = root.join("fixtures/tasks/evals/csv-summary").canonicalize().unwrap();
    let home = tempfile::tempdir().unwrap();
    driver::cli(home.path(), &["import", skill.to_str().unwrap()], "");
    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css("[data-testid=skill-row][data-skill-name=csv-summary] td")).await.click().await.unwrap();
    s.wait_for(Locator::Css("[data-testid=tab-review]")).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    s.click(Locator::Css("[data-testid=tab-review]")).await;
    let import = Locator::Css("[data-testid=skill-evals-import]");
    let result = s.click_until(import, Locator::Css("[data-testid=skill-evals-result]")).await;
    s.wait_text(&result, "csv-summary v1 evals").await;
    s.wait_text(&result, "2 tasks").await;
    s.screenshot("e2e-skill-evals.png").await;
    result.find(Locator::Css("a")).await.unwrap().click().await.unwrap();
    s.wait_text(&s.wait_for(Locator::Css("[data-testid=task-set-detail]")).await, "csv-summary v1 evals").await;
    s.close().await;
}

/// Issue 19: from a skill's page a model drafts eval tasks; on the Tasks page the draft that copies
/// the skill's procedure shows the copied span, the reviewer approves the clean one by name, and
/// editing it withdraws the approval. Then requirement documents set in a repository: the window
/// builds its environment, and the Tasks page shows each generated verifier's sanity checks as the
/// queue runs them (a sound one, one that passes on the untouched repository).
#[tokio::test(flavor = "multi_thread")]
async fn drafted_tasks_are_checked_for_leakage_and_reviewed_in_the_window() {
    driver::join_session_keyring();
    let clean = "Summarise input/q3.csv for the finance team: how many rows, and what are the totals?";
    let leaky = "Read the CSV with Python's csv module, count the data rows and total every numeric column of q3.csv";
    let drafts = serde_json::json!({"evals": [
        {"prompt": clean, "expected_output": "Rows: 3", "expectations": ["States the number of rows"]},
        {"prompt": leaky, "expected_output": "Rows: 3", "expectations": ["States the number of rows"]}]});
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // Requirement documents when the request shows a repository, else the eval drafts.
    let mut script: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("fixtures/models/stats-requirements-writer.json")).unwrap(),
    )
    .unwrap();
    script["branches"][0]["if_prompt_contains"] = "## Repository".into();
    let evals = serde_json::json!({"if_prompt_contains": "## SKILL.md", "steps": [{"text": drafts.to_string()}]});
    script["branches"].as_array_mut().unwrap().push(evals);
    let writer = driver::model_server(script, None).await;
    let home = tempfile::tempdir().unwrap();
    let cli = |args: &[&str], stdin: &str| driver::cli(home.path(), args, stdin);
    cli(&["provider", "add", "writer", "--api", "openai_chat", "--base-url", &writer.base_url], "");
    cli(&["credential", "set", "writer"], "sk-e2e-writer-0000000");
    cli(&["agent", "add", "writer", "--provider", "writer", "--model", "m"], "");
    let skill = root.join("fixtures/tasks/evals/csv-summary").canonicalize().unwrap();
    cli(&["import", skill.to_str().unwrap()], "");
    let repo = home.path().join("stats-lib");
    let git = format!(
        "cp -r '{}' '{}' && cd '{}' && git init -q . && git config user.email t@e && git config user.name t && git add . && git commit -qm init",
        root.join("fixtures/repos/stats-lib").display(),
        repo.display(),
        repo.display()
    );
    let made = std::process::Command::new("sh").arg("-c").arg(&git).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));

    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css("[data-testid=skill-row][data-skill-name=csv-summary] td")).await.click().await.unwrap();
    s.wait_for(Locator::Css("[data-testid=tab-review]")).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    s.click(Locator::Css("[data-testid=tab-review]")).await;
    s.wait_for(Locator::Css("[data-testid=generate-writer] option[value='1']")).await;
    s.wait_for(Locator::Css("[data-testid=generate-writer]")).await.select_by_value("1").await.unwrap();
    let count = s.wait_for(Locator::Css("[data-testid=generate-count]")).await;
    count.clear().await.unwrap();
    count.send_keys("2").await.unwrap();
    s.click(Locator::Css("[data-testid=generate-run]")).await;
    let result = s
        .wait_for_within(Locator::Css("[data-testid=generate-result][data-flagged='1']"), Duration::from_secs(60))
        .await;
    s.wait_text(&result, "2 drafts stored, 1 flagged").await;
    s.screenshot("e2e-generate.png").await;
    s.click(Locator::Css("[data-testid=generate-review-link]")).await;

    s.click(Locator::Css("[data-testid=task-row][data-task-id$='gen-2'] td")).await;
    let warning = s.wait_for(Locator::Css("[data-testid=task-detail] [data-testid=task-warning]")).await;
    s.wait_text(
        &warning,
        "\"Read the CSV with Python's csv module, count the data rows and total every numeric column\"",
    )
    .await;
    s.click(Locator::Css("[data-testid=task-row][data-task-id$='gen-1'] td")).await;
    s.wait_for(Locator::Css("[data-testid=draft-review][data-verdict=draft]")).await;
    s.wait_for(Locator::Css("[data-testid=draft-reviewer]")).await.send_keys("Ada Lovelace").await.unwrap();
    s.click(Locator::Css("[data-testid=draft-approve]")).await;
    s.wait_for(Locator::Css("[data-testid=task-row][data-task-id$='gen-1'][data-review=approved]")).await;
    s.wait_for(Locator::Css("[data-testid=task-row][data-task-id$='gen-2'][data-review=draft]")).await;
    let review = s.wait_for(Locator::Css("[data-testid=draft-review][data-verdict=approved]")).await;
    s.wait_text(&review, "Approved by Ada Lovelace").await;
    s.screenshot("e2e-draft-review.png").await;
    // An edit of the approved draft withdraws the approval: it was given to the old text.
    s.click(Locator::Css("[data-testid=draft-edit]")).await;
    let instruction = s.wait_for(Locator::Css("[data-testid=draft-edit-instruction]")).await;
    instruction.send_keys(" Reply in one line.").await.unwrap();
    s.click(Locator::Css("[data-testid=draft-edit-save]")).await;
    s.wait_for(Locator::Css("[data-testid=task-row][data-task-id$='gen-1'][data-review=draft]")).await;
    let edited = s.wait_for(Locator::Css("[data-testid=task-instruction]")).await;
    s.wait_text(&edited, "Reply in one line.").await;

    // Requirement documents set in the repository: its environment is built, then each verifier is
    // checked in the sandbox by the queue, and the page shows the checks as they finish.
    s.click(Locator::Css("[data-testid=nav-library]")).await;
    s.click(Locator::Css("[data-testid=skill-row][data-skill-name=csv-summary] td")).await;
    s.wait_for(Locator::Css("[data-testid=tab-review]")).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    s.click(Locator::Css("[data-testid=tab-review]")).await;
    s.wait_for(Locator::Css("[data-testid=generate-kind]")).await.select_by_value("requirements").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=generate-writer] option[value='1']")).await;
    s.wait_for(Locator::Css("[data-testid=generate-writer]")).await.select_by_value("1").await.unwrap();
    let count = s.wait_for(Locator::Css("[data-testid=generate-count]")).await;
    count.clear().await.unwrap();
    count.send_keys("3").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=generate-repository]"))
        .await
        .send_keys(repo.to_str().unwrap())
        .await
        .unwrap();
    s.click(Locator::Css("[data-testid=generate-run]")).await;
    let result = s.wait_for_within(Locator::Css("[data-testid=generate-result]"), Duration::from_secs(300)).await;
    s.wait_text(&result, "3 drafts stored").await;
    s.wait_text(&result, "pip installs requirements.txt").await;
    s.wait_text(&result, "Their verifiers are being checked in the sandbox").await;
    s.click(Locator::Css("[data-testid=generate-review-link]")).await;
    s.click(Locator::Css("[data-testid=task-row][data-task-id$='req-2'] td")).await;
    let flagged = s
        .wait_for_within(Locator::Css("[data-testid=verifier-sanity][data-state=flagged]"), Duration::from_secs(300))
        .await;
    s.wait_text(&flagged, "passes on the untouched environment (pass ratio 1.00): it does not test the change").await;
    s.wait_for(Locator::Css("[data-testid=task-row][data-task-id$='req-2'][data-sanity=flagged]")).await;
    s.click(Locator::Css("[data-testid=task-row][data-task-id$='req-1'] td")).await;
    let sound = s.wait_for(Locator::Css("[data-testid=verifier-sanity][data-state=passed]")).await;
    s.wait_text(&sound, "After the reference solution: 1.00, 1.00 (must pass)").await;
    s.wait_for(Locator::Css("[data-testid=task-test-file]")).await;
    s.screenshot("e2e-verifier-sanity.png").await;
    s.close().await;
}

/// Issue 16, as a new user: the base image is missing and the app prepares it; the user's own
/// skill comes in through the Library's import and its evals.json through the Tasks page (the same
/// content imported again is the same set); the experiment form estimates the run, runs it against
/// the scripted model server, and the results lead to an exported report the app offers to open.
/// (The provider, key and agent configuration come from the CLI here; the Settings test adds them
/// through the window.)
#[tokio::test(flavor = "multi_thread")]
async fn a_new_user_goes_from_a_missing_image_to_an_exported_report() {
    driver::join_session_keyring();
    let summary = "printf 'Rows: 3\\nTotal units: 20\\nTotal revenue: 530\\n' > summary.md";
    let script = serde_json::json!({"default": [{"tool": "bash", "args": {"command": summary}}, {"text": "summary.md written"}]});
    let server = driver::model_server(script, None).await;
    let home = tempfile::tempdir().unwrap();
    let cli = |args: &[&str], stdin: &str| driver::cli(home.path(), args, stdin);
    cli(&["provider", "add", "local", "--api", "openai_chat", "--base-url", &server.base_url], "");
    cli(&["credential", "set", "local"], "sk-e2e-newuser-0000000");
    cli(&["agent", "add", "builtin", "--provider", "local", "--model", "m"], "");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let skill = root.join("fixtures/tasks/evals/csv-summary").canonicalize().unwrap();
    // The engine holds no base image yet (this removes only the tag; Prepare rebuilds it).
    let rmi = std::process::Command::new("docker").args(["rmi", "-f", "skillscope/busybox:1"]).output().unwrap();
    assert!(rmi.status.success(), "{}", String::from_utf8_lossy(&rmi.stderr));

    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css("[data-testid=skill-row]")).await;
    s.click(Locator::Css("[data-testid=nav-settings]")).await;
    s.wait_for(Locator::Css("[data-testid=engine-status] [data-engine-state=running]")).await;
    s.wait_for(Locator::Css("[data-testid=image-row][data-ready=false]")).await;
    s.click(Locator::Css("[data-testid=prepare-busybox]")).await;
    let prepared = s.wait_for_within(Locator::Css("[data-testid=prepare-done]"), Duration::from_secs(120)).await;
    s.wait_text(&prepared, "Built 1 image").await;
    s.wait_for(Locator::Css("[data-testid=image-row][data-ready=true]")).await;

    s.click(Locator::Css("[data-testid=nav-library]")).await;
    s.import_via_dialog(skill.to_str().unwrap(), "csv-summary").await;

    s.click(Locator::Css("[data-testid=nav-tasks]")).await;
    let path = s.wait_for(Locator::Css("[data-testid=task-import-path]")).await;
    path.send_keys(skill.to_str().unwrap()).await.unwrap();
    s.click(Locator::Css("[data-testid=task-import-submit]")).await;
    let result = s.wait_for(Locator::Css("[data-testid=task-import-result][data-reused=false]")).await;
    s.wait_text(&result, "csv-summary v1").await;
    s.wait_for(Locator::Css("[data-testid=task-set-row][data-task-set-name=csv-summary]")).await;
    // The judge-only case is listed and says experiments leave it out; the other one opens whole.
    s.click(Locator::Css("[data-testid=task-set-detail] [data-testid=task-row][data-runnable=false] td")).await;
    s.wait_for(Locator::Css("[data-testid=task-detail] [data-testid=task-not-runnable]")).await;
    s.click(Locator::Css("[data-testid=task-set-detail] [data-testid=task-row][data-runnable=true] td")).await;
    let detail = s.wait_for(Locator::Css("[data-testid=task-detail]")).await;
    s.wait_text(&detail, "summary.md").await;
    s.click(Locator::Css("[data-testid=task-import-submit]")).await;
    s.wait_for(Locator::Css("[data-testid=task-import-result][data-reused=true]")).await;
    s.screenshot("e2e-tasks.png").await;

    s.click(Locator::Css("[data-testid=nav-results]")).await;
    s.wait_for(Locator::Css("[data-testid=experiment-name]"))
        .await
        .send_keys("My skill on its own evals")
        .await
        .unwrap();
    s.wait_for(Locator::Css("[data-testid=experiment-skills]")).await.select_by_label("csv-summary v1").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=experiment-configs]")).await.select_by_value("1").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=experiment-task-source]")).await.select_by_value("1").await.unwrap();
    s.wait_gone(Locator::Css("[data-testid=experiment-tasks]")).await;
    let repeats = s.wait_for(Locator::Css("[data-testid=experiment-repeats]")).await;
    repeats.clear().await.unwrap();
    repeats.send_keys("1").await.unwrap();
    // Before it starts: one pair, two trials; no past trial to time or price it by.
    s.wait_for(Locator::Css("[data-testid=experiment-estimate][data-trials='2']")).await;
    s.wait_for(Locator::Css("[data-testid=experiment-estimate-no-basis]")).await;
    s.screenshot("e2e-experiment-form.png").await;
    s.click(Locator::Css("[data-testid=experiment-submit]")).await;
    s.wait_for_within(
        Locator::Css("[data-testid=skill-result][data-skill=csv-summary][data-class=too_few_tasks]"),
        Duration::from_secs(240),
    )
    .await;
    s.wait_for(Locator::Css("[data-testid=pair-row][data-excluded=false]")).await;
    s.screenshot("e2e-new-user-results.png").await;

    s.click(Locator::Css("[data-testid=nav-library]")).await;
    s.click(Locator::Css("[data-testid=skill-row][data-skill-name=csv-summary] td")).await;
    s.wait_for(Locator::Css("[data-testid=tab-review]")).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    s.click(Locator::Css("[data-testid=tab-decision]")).await;
    s.click(Locator::Css("[data-testid=report-html]")).await;
    let path_el = s.wait_for(Locator::Css("[data-testid=report-path]")).await;
    s.wait_text(&path_el, ".html").await;
    s.wait_for(Locator::Css("[data-testid=report-path] [data-testid=export-open]")).await;
    s.click(Locator::Css("[data-testid=nav-tasks]")).await;
    s.wait_for(Locator::Css("[data-testid=task-set-row][data-task-set-name=csv-summary] a[href^='#/results/']")).await;
    s.close().await;
}

/// Issue 18: an experiment on a skill whose evals.json case has only expectations (no verifier),
/// set up in the window with a judge: the built-in agent runs both arms, the Judge button grades
/// them (each pass quoting the run) and compares the arms in both orders, and the judged lift
/// shows in the heatmap (by pass ratio and by behavior_check), the measures (behavior_check,
/// preference) and the pair's view.
#[tokio::test(flavor = "multi_thread")]
async fn a_judged_experiment_is_graded_compared_and_shown() {
    driver::join_session_keyring();
    let agent = driver::model_server(
        serde_json::json!({"default": [{"text": "I am not sure."}], "branches": [{
            "if_prompt_contains": "csv-summary/SKILL.md",
            "steps": [{"tool": "bash", "args": {"command": "cat /skills/csv-summary/SKILL.md"}},
                      {"text": "East sells at 30 per unit, the highest."}]}]}),
        None,
    )
    .await;
    // Grades, gives the rubric and calibrates in favour of the run that read the skill, and names
    // that run in either position when comparing (see fixtures/models/README.md).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let script = std::fs::read_to_string(root.join("fixtures/models/csv-summary-judge.json")).unwrap();
    let judge = driver::model_server(serde_json::from_str(&script).unwrap(), None).await;
    let home = tempfile::tempdir().unwrap();
    let cli = |args: &[&str], stdin: &str| driver::cli(home.path(), args, stdin);
    for (id, server) in [("agent", &agent), ("judge", &judge)] {
        cli(&["provider", "add", id, "--api", "openai_chat", "--base-url", &server.base_url], "");
        cli(&["credential", "set", id], &format!("sk-e2e-{id}-judged-0000"));
        cli(&["agent", "add", id, "--provider", id, "--model", "m"], "");
    }
    let skill = root.join("fixtures/tasks/evals/csv-summary").canonicalize().unwrap();
    cli(&["import", skill.to_str().unwrap()], "");
    cli(&["tasks", "import", skill.to_str().unwrap()], "");

    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css("[data-testid=skill-row]")).await;
    s.click(Locator::Css("[data-testid=nav-results]")).await;
    s.wait_for(Locator::Css("[data-testid=experiment-name]")).await.send_keys("Judged evals").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=experiment-skills]")).await.select_by_label("csv-summary v1").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=experiment-configs]")).await.select_by_value("1").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=experiment-task-source]")).await.select_by_value("1").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=experiment-judge]")).await.select_by_value("2").await.unwrap();
    // The judge's second prompt version, recorded with its verdicts (the pair page names it).
    s.wait_for(Locator::Css("[data-testid=experiment-judge-prompts]")).await.select_by_value("v2").await.unwrap();
    let repeats = s.wait_for(Locator::Css("[data-testid=experiment-repeats]")).await;
    repeats.clear().await.unwrap();
    repeats.send_keys("1").await.unwrap();
    // With a judge, both cases run: two pairs, four trials.
    s.wait_for(Locator::Css("[data-testid=experiment-estimate][data-trials='4']")).await;
    s.click(Locator::Css("[data-testid=experiment-submit]")).await;
    // Both arms of the judged case ended ungraded; the verified case's pair is scored, not compared.
    let run = Locator::Css("[data-testid=experiment-judge-run][data-arms='2'][data-pairs='1']");
    s.wait_for_within(run, Duration::from_secs(240)).await;
    s.click(run).await;
    let done = s.wait_for_within(Locator::Css("[data-testid=experiment-judge-result]"), Duration::from_secs(60)).await;
    // Graded first, the judged case's pair is scored and compared in the same pass.
    s.wait_text(&done, "Graded 2 arms, applied the rubric to 4 arms and compared 2 pairs").await;
    s.wait_for(Locator::Css("[data-testid=experiment-judge-run][data-arms='0'][data-rubric='0'][data-pairs='0']"))
        .await;
    // 0 → 100 on the judged case, 0 → 0 on the verified one.
    s.wait_for(Locator::Css("[data-testid=heat-cell][data-skill=csv-summary][data-delta='50']")).await;
    // The heatmap by the judge's measure: only the judged case, 0 → 100.
    s.wait_for(Locator::Css("[data-testid=heat-measure]")).await.select_by_value("behavior_check").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=heat-cell][data-skill=csv-summary][data-delta='100']")).await;
    s.screenshot("e2e-judged-heatmap.png").await;
    // The judge's preferences: both compared pairs preferred the with arm, a net preference of 100.
    s.wait_for(Locator::Css("[data-testid=heat-measure]")).await.select_by_value("preference").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=heat-cell][data-skill=csv-summary][data-delta='100']")).await;
    // Activation has a grid of its own; this experiment has no routing case to fill it.
    s.wait_for(Locator::Css("[data-testid=heat-measure]")).await.select_by_value("activation").await.unwrap();
    let empty = s.wait_for(Locator::Css("[data-testid=activation-none]")).await;
    s.wait_text(&empty, "This experiment has no routing cases").await;
    s.wait_for(Locator::Css("[data-testid=heat-measure]")).await.select_by_value("pass_ratio").await.unwrap();
    s.wait_for(Locator::Css("[data-testid=heat-cell][data-skill=csv-summary][data-delta='50']")).await;
    s.click(Locator::Css("[data-testid=measures-run]")).await;
    s.wait_for(Locator::Css("[data-testid=measures-table] [data-measure=behavior_check][data-skill=csv-summary]"))
        .await;
    let preference = s.wait_for(Locator::Css("[data-testid=preference-table]")).await;
    s.wait_text(&preference, "2 / 0 / 0").await;
    // Calibration: the judged arms graded twice more agree with themselves; on the verified case
    // (both arms fail their verifier) the judge passes the arm that read the skill: 1 of 2 agree.
    s.click(Locator::Css("[data-testid=judge-calibrate]")).await;
    s.wait_for_within(
        Locator::Css(
            "[data-testid=judge-calibration-latest][data-unanimous='4'][data-expectations='4'][data-arms='2'][data-agree='1']",
        ),
        Duration::from_secs(60),
    )
    .await;
    s.screenshot("e2e-judged-results.png").await;

    s.click(Locator::Css("[data-testid=heat-cell][data-skill=csv-summary]")).await;
    s.click(Locator::Css("[data-testid=open-pair][data-task*=judge]")).await;
    let with = s.wait_for(Locator::Css("[data-testid=arm-result][data-arm=with] [data-testid=arm-judgement]")).await;
    s.wait_text(&with, "30 per unit").await;
    s.wait_text(&with, "prompt grade-expectations-v2").await;
    // With no verifier, the run's own "passed" says only that the agent finished.
    let state = s.wait_for(Locator::Css("[data-testid=arm-result][data-arm=with] [data-testid=trial-state]")).await;
    s.wait_text(&state, "Finished (judged)").await;
    s.wait_for(Locator::Css(
        "[data-testid=arm-result][data-arm=without] [data-testid=arm-expectation][data-passed=false]",
    ))
    .await;
    s.wait_for(Locator::Css("[data-testid=pair-preferred][data-preferred=with]")).await;
    let rubric = s.wait_for(Locator::Css("[data-testid=arm-result][data-arm=with] [data-testid=arm-rubric]")).await;
    s.wait_text(&rubric, "goal_accuracy 100 points, accuracy 80 points").await;
    s.screenshot("e2e-judged-pair.png").await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn harnesses_install_from_settings_with_progress() {
    driver::join_session_keyring();
    let home = tempfile::tempdir().unwrap();
    // A harness folder of its own, empty: nothing but the built-in agent is ready.
    let harnesses = tempfile::tempdir().unwrap();
    let cli = |args: &[&str]| driver::cli(home.path(), args, "");
    cli(&["provider", "add", "gem", "--api", "gemini", "--base-url", "http://127.0.0.1:9"]);
    cli(&["agent", "add", "gemini-e2e", "--provider", "gem", "--model", "m", "--harness", "gemini"]);
    let s = Session::start_with(home.path(), &[("SKILLSCOPE_HARNESS_DIR", harnesses.path())]).await;
    // A configuration whose CLI is not installed is refused before anything is queued, saying how
    // to install it.
    s.click(Locator::Css("[data-testid=nav-runs]")).await;
    let form = s.wait_for(Locator::Css("[data-testid=agent-run-form]")).await;
    s.wait_for(Locator::Css("[data-testid=agent-run-config]"))
        .await
        .select_by_label("gemini-e2e (gem · m)")
        .await
        .unwrap();
    form.find(Locator::Css("[data-testid=agent-run-instruction]")).await.unwrap().send_keys("Say hi").await.unwrap();
    s.click(Locator::Css("[data-testid=agent-run-form] [data-testid=agent-run-submit]")).await;
    let refused = s.wait_for(Locator::Css("[data-testid=agent-run-error]")).await;
    s.wait_text(&refused, "gemini 0.61.0 is not installed: install it in Settings → Harnesses").await;
    s.screenshot("e2e-harness-missing.png").await;
    assert!(
        s.client.find_all(Locator::Css("[data-testid=run-row][data-demo=false]")).await.unwrap().is_empty(),
        "nothing was queued"
    );
    s.click(Locator::Css("[data-testid=nav-settings]")).await;
    s.wait_for(Locator::Css("[data-testid=harness-row][data-harness=builtin][data-installed=true]")).await;
    for harness in ["codex", "opencode", "gemini"] {
        let row = format!("[data-testid=harness-row][data-harness={harness}]");
        // npm's progress while it runs (the bytes written so far), then the harness is ready. The
        // panels above (the engine's) can still be loading and move the button as it is clicked.
        let install = format!("{row}[data-installed=false] [data-testid=harness-install]");
        let progress =
            s.click_until(Locator::Css(&install), Locator::Css("[data-testid=harness-install-progress]")).await;
        s.wait_text(&progress, &format!("Installing {harness}")).await;
        s.wait_for_within(Locator::Css(&format!("{row}[data-installed=true]")), Duration::from_secs(300)).await;
    }
    s.screenshot("e2e-harness-install.png").await;
    s.close().await;
    for harness in ["codex", "opencode", "gemini"] {
        let installed = std::fs::read_dir(harnesses.path())
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with(&format!("{harness}-")));
        assert!(installed, "{harness} is in the harness folder the app was given");
    }
}

/// A folder dragged from another window (a GTK drag source standing in for the file manager,
/// moved by xdotool through X11's drag-and-drop protocol) and dropped on the Library is put in the
/// import dialog, and imports.
#[tokio::test(flavor = "multi_thread")]
async fn a_folder_dropped_on_the_library_is_offered_for_import() {
    let home = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    let skill = src.path().join("dropped-skill");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: dropped-skill\ndescription: Dropped on the window by the end-to-end test. Use when testing.\n---\n# Dropped\n",
    )
    .unwrap();
    let s = Session::start(home.path()).await;
    s.wait_for(Locator::Css("[data-testid=skill-row][data-skill-name=csv-insights]")).await;

    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("drag_source.py");
    let mut source = std::process::Command::new("/usr/bin/python3")
        .arg(&script)
        .arg(&skill)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 with GTK (python3-gi)");
    let mut ready = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(source.stdout.take().unwrap()), &mut ready).unwrap();
    assert_eq!(ready.trim(), "ready", "the drag source window did not start");
    // Press on the source (top-left corner), move onto the window's middle in steps, release.
    let mut moves = vec!["mousemove".to_string(), "60".into(), "60".into(), "sleep".into(), "0.3".into()];
    moves.extend(["mousedown", "1", "sleep", "0.3"].map(String::from));
    for x in [70, 90, 120, 160, 220, 300, 400, 500, 600] {
        moves.extend(["mousemove".to_string(), x.to_string(), "400".into(), "sleep".into(), "0.1".into()]);
    }
    moves.extend(["sleep", "0.5", "mouseup", "1"].map(String::from));
    let status = std::process::Command::new("timeout").args(["-k", "5", "30", "xdotool"]).args(&moves).status();
    assert!(status.expect("xdotool").success(), "xdotool failed");

    let input = s.wait_for(Locator::Css("[data-testid=import-source]")).await;
    let want = skill.display().to_string();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let value = input.prop("value").await.unwrap().unwrap_or_default();
        if value == want {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the import source is {value:?}, not the dropped {want}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    s.screenshot("e2e-dropped.png").await;
    s.click(Locator::Css("[data-testid=import-submit]")).await;
    let result = s.wait_for(Locator::Css("[data-testid=import-result]")).await;
    s.wait_text(&result, "dropped-skill").await;
    let _ = source.kill();
    let _ = source.wait();
    s.close().await;
}
