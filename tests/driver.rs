//! A WebDriver session on the real app: starts tauri-driver in its own process group (killed
//! on drop, with its WebKitWebDriver), waits for both its ports, and bounds every wait.

pub(crate) use fantoccini::Locator;
use fantoccini::{elements::Element, Client, ClientBuilder};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);

pub(crate) fn target_bin(name: &str) -> PathBuf {
    // CARGO_TARGET_TMPDIR is target/tmp; binaries live in target/debug.
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join("../debug").join(name);
    p.canonicalize().unwrap_or_else(|_| panic!("{} missing: run `cargo build` first", p.display()))
}

/// A private session keyring for this process and its children (tauri-driver, the app), so the
/// kernel keyring store works without a desktop session.
pub(crate) fn join_session_keyring() {
    // SAFETY: keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL) creates and joins an anonymous keyring.
    let r = unsafe { libc::syscall(libc::SYS_keyctl, 1, std::ptr::null::<libc::c_char>()) };
    assert!(r >= 0, "cannot create a session keyring");
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub(crate) struct Session {
    pub client: Client,
    driver: Child,
    artifacts: PathBuf,
    opened: PathBuf,
}

/// A desktop whose default browser, mail program and HTML viewer only write down what they were given
/// (xdg-open reads `mimeapps.list` and the desktop entry from these folders): no test starts a
/// real browser, and a test can see what the app opened outside its window.
fn recording_browser(home: &Path) -> PathBuf {
    let dir = home.join(".desktop");
    std::fs::create_dir_all(dir.join("config")).unwrap();
    std::fs::create_dir_all(dir.join("data/applications")).unwrap();
    let record = dir.join("record.sh");
    std::fs::write(&record, format!("#!/bin/sh\necho \"$1\" >> '{}'\n", dir.join("opened.txt").display())).unwrap();
    std::fs::set_permissions(&record, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let kinds = ["x-scheme-handler/http", "x-scheme-handler/https", "x-scheme-handler/mailto", "text/html"];
    let mime: String = kinds.iter().map(|k| format!("{k};")).collect();
    let entry =
        format!("[Desktop Entry]\nType=Application\nName=Recorder\nExec={} %u\nMimeType={mime}\n", record.display());
    std::fs::write(dir.join("data/applications/recorder.desktop"), entry).unwrap();
    let defaults: String = kinds.iter().map(|k| format!("{k}=recorder.desktop\n")).collect();
    std::fs::write(dir.join("config/mimeapps.list"), format!("[Default Applications]\n{defaults}")).unwrap();
    dir
}

impl Session {
    pub(crate) async fn start(home: &Path) -> Self {
        Session::start_with(home, &[]).await
    }

    /// Starts the app with `env` set on top of the test's own environment.
    pub(crate) async fn start_with(home: &Path, env: &[(&str, &Path)]) -> Self {
        assert!(std::env::var_os("DISPLAY").is_some(), "no DISPLAY: run under xvfb-run");
        let app = std::env::var_os("APP_BIN").map(PathBuf::from).unwrap_or_else(|| target_bin("skillscope-app"));
        let (port, native) = (free_port(), free_port());
        let desktop = recording_browser(home);
        let mut cmd = Command::new("tauri-driver");
        cmd.args(["--port", &port.to_string(), "--native-port", &native.to_string()])
            .env("SKILLSCOPE_HOME", home)
            .env("XDG_CONFIG_HOME", desktop.join("config"))
            .env("XDG_DATA_HOME", desktop.join("data"))
            .env("SKILLSCOPE_KEYRING", "keyutils")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let driver = cmd.spawn().expect("tauri-driver on PATH (cargo install tauri-driver)");
        // tauri-driver listens before its WebKitWebDriver does: wait for both.
        let deadline = Instant::now() + WAIT;
        while [port, native].iter().any(|p| TcpStream::connect(("127.0.0.1", *p)).is_err()) {
            assert!(Instant::now() < deadline, "tauri-driver did not open ports {port}/{native}");
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut b = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        let caps = serde_json::json!({ "tauri:options": { "application": app } });
        b.capabilities(caps.as_object().unwrap().clone());
        let client = tokio::time::timeout(Duration::from_secs(60), b.connect(&format!("http://127.0.0.1:{port}")))
            .await
            .expect("new WebDriver session timed out")
            .expect("new WebDriver session");
        let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.artifacts");
        std::fs::create_dir_all(&artifacts).unwrap();
        Session { client, driver, artifacts, opened: desktop.join("opened.txt") }
    }

    /// Calls `cmd` from the page as the front end would (through the window's IPC and its
    /// permissions): "resolved", "refused: <error>", or "waiting" when no answer came within `wait_ms`.
    pub(crate) async fn invoke_from_page(&self, cmd: &str, args: serde_json::Value, wait_ms: u64) -> String {
        let script = "const [cmd, args, ms, done] = arguments; \
            window.__TAURI_INTERNALS__.invoke(cmd, args).then(() => done('resolved'), (e) => done('refused: ' + e)); \
            setTimeout(() => done('waiting'), ms);";
        let answer = self.client.execute_async(script, vec![cmd.into(), args, wait_ms.into()]).await.unwrap();
        answer.as_str().unwrap().to_string()
    }

    /// The URLs and files the app handed the desktop to open.
    pub(crate) fn opened_urls(&self) -> Vec<String> {
        std::fs::read_to_string(&self.opened).unwrap_or_default().lines().map(str::to_owned).collect()
    }

    /// Waits until the desktop was asked to open `target` (a URL, or a file's path).
    pub(crate) async fn wait_until_opened(&self, target: &str) {
        let deadline = Instant::now() + WAIT;
        while !self.opened_urls().iter().any(|u| u == target || u.trim_start_matches("file://") == target) {
            assert!(Instant::now() < deadline, "{target} was never opened; opened: {:?}", self.opened_urls());
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    pub(crate) async fn wait_for(&self, loc: Locator<'_>) -> Element {
        self.wait_for_within(loc, WAIT).await
    }

    /// [`Self::wait_for`] for work that takes longer than a page's loading (trials on the queue).
    pub(crate) async fn wait_for_within(&self, loc: Locator<'_>, wait: Duration) -> Element {
        let found = self.client.wait().at_most(wait).for_element(loc).await;
        match found {
            Ok(e) => e,
            Err(e) => {
                self.screenshot("e2e-failure.png").await;
                panic!(
                    "element {loc:?} did not appear: {e}; errors on the page: {:?}; app processes alive: {:?}",
                    self.error_texts().await,
                    app_processes()
                );
            }
        }
    }

    /// The text of every error panel the page shows, so a failure says what the app said.
    async fn error_texts(&self) -> Vec<String> {
        let mut texts = Vec::new();
        for el in self.client.find_all(Locator::Css("[data-testid$='-error'], [role=alert]")).await.unwrap_or_default()
        {
            texts.push(el.text().await.unwrap_or_default());
        }
        texts
    }

    pub(crate) async fn wait_gone(&self, loc: Locator<'_>) {
        let deadline = Instant::now() + WAIT;
        while self.client.find(loc).await.is_ok() {
            assert!(Instant::now() < deadline, "{loc:?} is still there");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Clicks `loc` after scrolling it to the middle of the window: WebKitWebDriver's own scroll
    /// can leave a control at the window's bottom edge, where its click lands on nothing.
    pub(crate) async fn click(&self, loc: Locator<'_>) {
        let el = self.wait_for(loc).await;
        let arg = serde_json::to_value(&el).unwrap();
        self.client.execute("arguments[0].scrollIntoView({block: 'center'});", vec![arg]).await.unwrap();
        el.click().await.unwrap();
    }

    /// Clicks `loc` until `then` appears (a few tries): a page whose panels are still loading can
    /// reflow between the scroll and the click, which then lands beside the control.
    pub(crate) async fn click_until(&self, loc: Locator<'_>, then: Locator<'_>) -> Element {
        for _ in 0..3 {
            self.click(loc).await;
            if let Ok(el) = self.client.wait().at_most(Duration::from_secs(5)).for_element(then).await {
                return el;
            }
        }
        self.wait_for(then).await
    }

    pub(crate) async fn wait_text(&self, el: &Element, needle: &str) {
        let deadline = Instant::now() + WAIT;
        loop {
            let text = el.text().await.unwrap_or_default();
            if text.contains(needle) {
                return;
            }
            if Instant::now() > deadline {
                self.screenshot("e2e-failure.png").await;
                panic!("{needle:?} never appeared; text was {text:?}");
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Saves a screenshot under .artifacts/ (after a short pause: WebKit's can lag the DOM).
    pub(crate) async fn screenshot(&self, name: &str) {
        tokio::time::sleep(Duration::from_millis(600)).await;
        if let Ok(Ok(png)) = tokio::time::timeout(Duration::from_secs(15), self.client.screenshot()).await {
            std::fs::write(self.artifacts.join(name), png).unwrap();
        }
    }

    /// Ends the WebDriver session, bounded: a hung close must not hang the test.
    pub(crate) async fn close(&self) {
        let _ = tokio::time::timeout(Duration::from_secs(20), self.client.clone().close()).await;
    }

    /// Imports `source` through the Library's import dialog, waits for `expect` in the result,
    /// and closes the dialog with Escape.
    pub(crate) async fn import_via_dialog(&self, source: &str, expect: &str) {
        self.client.find(Locator::Css("[data-testid=import-open]")).await.unwrap().click().await.unwrap();
        let input = self.wait_for(Locator::Css("[data-testid=import-source]")).await;
        input.send_keys(source).await.unwrap();
        self.client.find(Locator::Css("[data-testid=import-submit]")).await.unwrap().click().await.unwrap();
        let result = self.wait_for(Locator::Css("[data-testid=import-result]")).await;
        self.wait_text(&result, expect).await;
        self.screenshot("e2e-import-dialog.png").await;
        // Escape closes the dialog (WebKitWebDriver misjudges clicks inside the scrolling dialog).
        input.send_keys("\u{E00C}").await.unwrap();
        self.wait_gone(Locator::Css("[data-testid=import-close]")).await;
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The whole group, so WebKitWebDriver and the app go too. (Not `kill -KILL -PID`:
        // procps misparses a negative PID after a signal name and can signal every process.)
        let pgid = self.driver.id() as libc::pid_t;
        assert!(pgid > 1);
        // SAFETY: plain syscall on a process group this test created.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
        let _ = self.driver.wait();
    }
}

/// Runs the project's CLI on a workspace (keys in the kernel keyring), failing loudly.
pub(crate) fn cli(home: &Path, args: &[&str], stdin: &str) {
    use std::io::Write;
    let mut c = Command::new(target_bin("skillscope"))
        .arg("--home")
        .arg(home)
        .args(args)
        .env("SKILLSCOPE_KEYRING", "keyutils")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = c.wait_with_output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Opens a local HTML file in headless Chromium (no network) and saves a screenshot.
pub(crate) fn chromium_screenshot(html: &Path, png: &Path) {
    let profile = tempfile::tempdir().unwrap();
    let status = Command::new("timeout")
        .args([
            "-k",
            "5",
            "60",
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=1100,1400",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", html.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("chromium (apt package chromium)");
    assert!(status.success(), "chromium failed: {status}");
}

/// The project's scripted model server on 127.0.0.1, playing `script`.
pub(crate) async fn model_server(
    script: serde_json::Value,
    require_key: Option<&str>,
) -> skillscope_modelserver::ServerHandle {
    skillscope_modelserver::start(skillscope_modelserver::ServerOptions {
        script: serde_json::from_value(script).unwrap(),
        require_key: require_key.map(String::from),
        ..Default::default()
    })
    .await
    .unwrap()
}

/// The pids of running app processes: tells a lost WebDriver session ("page crash or hang") whose
/// app died from one whose app still runs.
fn app_processes() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .map(|dir| {
            dir.flatten()
                .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
                .filter(|pid| {
                    std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "skillscope-app")
                })
                .collect()
        })
        .unwrap_or_default()
}
