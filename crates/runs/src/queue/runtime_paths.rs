//! Where a verifier's programs and modules come from in a trial's container: the PATH, Python's
//! import path and user site-packages, the modules the interpreter and its test runner load on
//! their own, the packages installed beside them, and the dynamic linker's folders. Read in the
//! agent's container after the set-up and before the agent starts, so nothing of the agent's
//! shapes the answer; the tamper checks ([`super::tamper`]) judge the agent's changes against it.

use skillscope_sandbox::{Container, ExecOptions};

use super::trial_error::TrialError;

/// What the verifier's runtime would load from, as read in the container.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuntimePaths {
    /// The PATH's folders, in order, as the environment gives them (relative ones included).
    pub path: Vec<String>,
    /// Python's `sys.path` (without the entry for the current folder).
    pub python_path: Vec<String>,
    /// Python's user site-packages for the trial's user.
    pub user_site: Option<String>,
    /// Top-level modules loaded by starting Python and importing its test runners (pytest with
    /// its built-in plugins, unittest): a module of that name found first runs as the runner.
    pub runner_modules: Vec<String>,
    /// Top-level modules installed in site-packages (the runner, its plugins and dependencies).
    pub installed_modules: Vec<String>,
    /// Folders the dynamic linker searches besides its defaults (`LD_LIBRARY_PATH`, `ld.so.conf`).
    pub library_dirs: Vec<String>,
}

/// Lists what Python loads on its own; any failure leaves the lines printed so far.
const PROBE_PY: &str = r#"import sys, site, pkgutil
for p in sys.path:
    if p: print("syspath=" + p)
try: print("usersite=" + site.getusersitepackages())
except Exception: pass
try:
    import pytest
    from _pytest.config import get_config
    get_config()
except Exception: pass
try: import unittest
except Exception: pass
for m in sorted({n.split(".")[0] for n in list(sys.modules)}): print("loaded=" + m)
dirs = [d for d in site.getsitepackages() if d] if hasattr(site, "getsitepackages") else []
for m in pkgutil.iter_modules(dirs): print("installed=" + m.name)
"#;

/// The probe: every line `key=value`, `end=ok` last, so a cut-off run is told from a short answer.
pub fn script() -> String {
    format!(
        r#"cd / || exit 1
echo "path=$PATH"
echo "ld=$LD_LIBRARY_PATH"
for f in /etc/ld.so.conf /etc/ld.so.conf.d/*.conf; do [ -f "$f" ] && sed -n 's/^[[:space:]]*\(\/[^[:space:]#]*\).*/ldconf=\1/p' "$f"; done
PY=$(command -v python3 || command -v python)
if [ -n "$PY" ]; then "$PY" -c {probe} || exit 1; fi
echo end=ok"#,
        probe = skillscope_tasks::sh_quote(PROBE_PY)
    )
}

/// Reads the probe's output; `None` when it did not finish.
pub fn parse(out: &str) -> Option<RuntimePaths> {
    let mut r = RuntimePaths::default();
    let mut ended = false;
    for line in out.lines() {
        let Some((key, value)) = line.split_once('=') else { continue };
        let split = |v: &str| v.split(':').filter(|d| !d.is_empty()).map(String::from).collect::<Vec<_>>();
        match key {
            "path" => r.path = split(value),
            "ld" => r.library_dirs.extend(split(value)),
            "ldconf" => r.library_dirs.push(value.to_string()),
            "syspath" => r.python_path.push(value.to_string()),
            "usersite" => r.user_site = Some(value.to_string()),
            "loaded" => r.runner_modules.push(value.to_string()),
            "installed" => r.installed_modules.push(value.to_string()),
            "end" => ended = value == "ok",
            _ => {}
        }
    }
    ended.then_some(r)
}

/// Runtimes read to their end, by image and everything else that decides them (the key): the same
/// image, set-up, environment, user and workdir give the same paths, so later trials of this
/// process reuse them instead of starting Python again.
const KEPT: usize = 256;
static READ: std::sync::Mutex<Vec<(String, RuntimePaths)>> = std::sync::Mutex::new(Vec::new());

/// [`read`], or what a trial with the same `key` read before.
pub(super) async fn read_once(
    container: &Container,
    opts: ExecOptions,
    key: String,
) -> Result<RuntimePaths, TrialError> {
    let known = |k: &str| READ.lock().ok()?.iter().find(|(have, _)| have == k).map(|(_, r)| r.clone());
    if let Some(paths) = known(&key) {
        return Ok(paths);
    }
    let paths = read(container, opts).await?;
    if let Ok(mut all) = READ.lock() {
        if all.len() >= KEPT {
            all.remove(0);
        }
        all.push((key, paths.clone()));
    }
    Ok(paths)
}

/// Reads the runtime's paths in `container` as `opts`' user with its environment. A probe that
/// cannot finish fails the attempt as an infrastructure error: the tamper checks would otherwise
/// judge against paths nobody read.
async fn read(container: &Container, opts: ExecOptions) -> Result<RuntimePaths, TrialError> {
    let cmd = vec!["/bin/sh".to_string(), "-c".into(), script()];
    let r = container
        .exec(&cmd, ExecOptions { timeout: std::time::Duration::from_secs(60), ..opts }, &mut |_, _| {})
        .await?;
    let how = if r.timed_out { "timed out".to_string() } else { format!("exited {:?}", r.exit_code) };
    match parse(&r.stdout) {
        Some(paths) if r.exit_code == Some(0) => Ok(paths),
        _ => Err(TrialError {
            infra: true,
            message: format!("verifier runtime unverified: reading its paths {how}: {}", r.stderr.trim()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_cut_short_reads_as_unknown() {
        let full = "path=/usr/bin:node_modules/.bin\nld=/opt/lib\nldconf=/usr/local/lib\nsyspath=/usr/lib/python3.11\n\
                    usersite=/home/u/.local/lib/python3.11/site-packages\nloaded=pytest\ninstalled=pluggy\nend=ok\n";
        let r = parse(full).unwrap();
        assert_eq!(r.path, ["/usr/bin", "node_modules/.bin"]);
        assert_eq!(r.library_dirs, ["/opt/lib", "/usr/local/lib"]);
        assert_eq!(
            (r.runner_modules.as_slice(), r.installed_modules.as_slice()),
            (&["pytest".to_string()][..], &["pluggy".to_string()][..])
        );
        assert_eq!(r.user_site.as_deref(), Some("/home/u/.local/lib/python3.11/site-packages"));
        assert_eq!(parse(full.trim_end_matches("end=ok\n")), None);
        assert_eq!(parse("path=/bin\nend=failed\n"), None);
    }
}
