//! Running the `skillscope` binary from tests: keys go to the kernel keyring (see
//! `join_session_keyring`), stdin is given, output is captured.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub(crate) fn run(home: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .arg("--home")
        .arg(home)
        .args(args)
        .env("SKILLSCOPE_KEYRING", "keyutils")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

pub(crate) fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Asserts success and parses stdout as JSON (Null when it is not JSON).
pub(crate) fn ok(o: Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null)
}

/// A private session keyring for this process and the commands it starts.
pub(crate) fn join_session_keyring() {
    // SAFETY: keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL) creates and joins an anonymous keyring.
    let r = unsafe { libc::syscall(libc::SYS_keyctl, 1, std::ptr::null::<libc::c_char>()) };
    assert!(r >= 0, "cannot create a session keyring");
}

/// The scripted model server answering with `script` (its JSON form), served on `rt`.
pub(crate) fn scripted_server(
    rt: &tokio::runtime::Runtime,
    script: serde_json::Value,
) -> skillscope_modelserver::ServerHandle {
    let options =
        skillscope_modelserver::ServerOptions { script: serde_json::from_value(script).unwrap(), ..Default::default() };
    rt.block_on(skillscope_modelserver::start(options)).unwrap()
}
