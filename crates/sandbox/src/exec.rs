//! Running commands in a started container: streamed output, exit codes, timeouts, OOM.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bollard::container::LogOutput;
use bollard::exec::{CreateExecOptions, StartExecResults};
use bollard::query_parameters::{EventsOptions, KillContainerOptionsBuilder, StartContainerOptions};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use crate::container::Container;
use crate::error::SandboxError;

/// Most output kept per stream in an [`ExecResult`]; the rest is counted, not stored.
pub const OUTPUT_CAP: usize = 1 << 20;
/// How long past its timeout a command may linger before we give up on the in-container
/// watchdog and kill every process in the container.
const KILL_GRACE: Duration = Duration::from_secs(5);
/// Exit code of a process killed by SIGKILL (timeout or OOM killer).
const SIGKILL_EXIT: i64 = 128 + 9;

/// Runs the command (`$2…`) in a process group of its own (`setsid`) next to a watchdog
/// that SIGKILLs the whole group after `$1` seconds; the watchdog goes when the command
/// ends. Without `setsid` the command runs plain and only our deadline applies.
const WRAPPER: &str = r#"t=$1; shift
command -v setsid >/dev/null 2>&1 || exec "$@"
setsid "$@" & p=$!
setsid sh -c 'sleep "$0"; kill -9 -"$1"' "$t" "$p" >/dev/null 2>&1 & w=$!
wait "$p" 2>/dev/null; r=$?
kill -9 -"$w" 2>/dev/null
exit $r"#;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputStream {
    Stdout,
    Stderr,
}

#[derive(Clone, Debug)]
pub struct ExecOptions {
    pub timeout: Duration,
    pub workdir: Option<String>,
    pub env: Vec<String>,
    pub user: Option<String>,
    /// Time the command spends waiting on someone else, which its timeout does not count.
    pub uncharged: Option<Uncharged>,
}

impl Default for ExecOptions {
    fn default() -> Self {
        ExecOptions { timeout: Duration::from_secs(600), workdir: None, env: Vec::new(), user: None, uncharged: None }
    }
}

impl ExecOptions {
    /// The default options with a timeout of `n` seconds.
    pub fn seconds(n: u64) -> Self {
        ExecOptions { timeout: Duration::from_secs(n), ..ExecOptions::default() }
    }
}

/// What a command waits on outside itself (a model provider, for an agent harness).
pub trait WaitClock: Send + Sync {
    /// The wait so far.
    fn waited(&self) -> Duration;
    /// Whether it is waiting now.
    fn waiting(&self) -> bool;
}

/// Moves a command's deadline out by the time its clock reports waited, up to `at_most` in
/// all; while the clock is waiting the deadline does not pass. The in-container watchdog is set
/// to the timeout plus `at_most`, the hard limit.
#[derive(Clone)]
pub struct Uncharged {
    pub clock: std::sync::Arc<dyn WaitClock>,
    pub at_most: Duration,
}

impl Uncharged {
    fn extra(&self) -> Duration {
        self.clock.waited().min(self.at_most)
    }

    fn holds(&self) -> bool {
        self.clock.waiting() && self.clock.waited() < self.at_most
    }
}

impl std::fmt::Debug for Uncharged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Uncharged").field("waited", &self.clock.waited()).field("at_most", &self.at_most).finish()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecResult {
    /// None when the command did not finish (timed out and the container was killed).
    pub exit_code: Option<i64>,
    pub timed_out: bool,
    pub oom_killed: bool,
    pub stdout: String,
    pub stderr: String,
    pub duration: Duration,
}

impl ExecResult {
    pub fn success(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out && !self.oom_killed
    }
}

/// Output of one stream, capped at [`OUTPUT_CAP`] bytes.
#[derive(Default)]
struct Capture {
    kept: Vec<u8>,
    dropped: usize,
}

impl Capture {
    fn push(&mut self, bytes: &[u8]) {
        let room = OUTPUT_CAP.saturating_sub(self.kept.len());
        let take = room.min(bytes.len());
        self.kept.extend_from_slice(&bytes[..take]);
        self.dropped += bytes.len() - take;
    }

    fn finish(self) -> String {
        let mut text = String::from_utf8_lossy(&self.kept).into_owned();
        if self.dropped > 0 {
            text.push_str(&format!("\n[… truncated {} bytes]", self.dropped));
        }
        text
    }
}

impl Container {
    /// Runs `cmd`, passing output chunks (not lines) to `on_output` as they arrive.
    /// A command still running after `opts.timeout` is killed with its process group and
    /// reported as `timed_out`. Needs `sh` (and `setsid`, `sleep`, for the in-container
    /// watchdog) in the image; without the watchdog, the container's processes are
    /// killed and the container restarted, its files intact.
    pub async fn exec(
        &self,
        cmd: &[String],
        opts: ExecOptions,
        on_output: &mut (dyn FnMut(OutputStream, &[u8]) + Send),
    ) -> Result<ExecResult, SandboxError> {
        let docker = &self.engine.docker;
        let uncharged = opts.uncharged.clone();
        let hard_limit = opts.timeout + uncharged.as_ref().map_or(Duration::ZERO, |u| u.at_most);
        let seconds = hard_limit.as_secs_f64().ceil().max(1.0) as u64;
        let mut wrapped = vec![
            "sh".to_string(),
            "-c".to_string(),
            WRAPPER.to_string(),
            "skillscope-exec".to_string(),
            seconds.to_string(),
        ];
        wrapped.extend_from_slice(cmd);
        let created = docker
            .create_exec(
                &self.id,
                CreateExecOptions {
                    cmd: Some(wrapped),
                    attach_stdout: Some(true),
                    attach_stderr: Some(true),
                    working_dir: opts.workdir,
                    env: Some(opts.env),
                    user: opts.user,
                    ..CreateExecOptions::default()
                },
            )
            .await
            .map_err(|e| self.lost(e))?;
        let started_at = SystemTime::now();
        let start = Instant::now();
        let StartExecResults::Attached { mut output, .. } =
            docker.start_exec(&created.id, None).await.map_err(|e| self.lost(e))?
        else {
            return Err(SandboxError::Engine("exec started detached".into()));
        };

        let (mut stdout, mut stderr) = (Capture::default(), Capture::default());
        // The deadline moves out by the uncharged wait, so it is looked at again every so often.
        let deadline =
            || start + opts.timeout + uncharged.as_ref().map_or(Duration::ZERO, Uncharged::extra) + KILL_GRACE;
        let recheck = if uncharged.is_some() { Duration::from_millis(250) } else { Duration::MAX };
        let mut overran = false;
        loop {
            let check = deadline().min(Instant::now().checked_add(recheck).unwrap_or_else(deadline));
            match tokio::time::timeout_at(check.into(), output.next()).await {
                Err(_) => {
                    if Instant::now() >= deadline() && !uncharged.as_ref().is_some_and(Uncharged::holds) {
                        overran = true;
                        break;
                    }
                }
                Ok(None) => break,
                Ok(Some(chunk)) => match chunk.map_err(|e| self.lost(e))? {
                    LogOutput::StdOut { message } | LogOutput::Console { message } => {
                        on_output(OutputStream::Stdout, &message);
                        stdout.push(&message);
                    }
                    LogOutput::StdErr { message } => {
                        on_output(OutputStream::Stderr, &message);
                        stderr.push(&message);
                    }
                    LogOutput::StdIn { .. } => {}
                },
            }
        }
        drop(output);

        let exit_code = if overran {
            self.kill_and_restart().await?;
            None
        } else {
            self.exit_code(&created.id).await?
        };
        let duration = start.elapsed();
        let killed = exit_code == Some(SIGKILL_EXIT);
        let oom_killed = killed && self.oom_since(started_at).await?;
        Ok(ExecResult {
            exit_code,
            timed_out: overran || (killed && !oom_killed && duration >= opts.timeout),
            oom_killed,
            stdout: stdout.finish(),
            stderr: stderr.finish(),
            duration,
        })
    }

    /// The exit code of a finished exec; the engine may need a moment to record it.
    async fn exit_code(&self, exec_id: &str) -> Result<Option<i64>, SandboxError> {
        for _ in 0..100 {
            let inspect = self.engine.docker.inspect_exec(exec_id).await.map_err(|e| self.lost(e))?;
            if inspect.running != Some(true) {
                return Ok(inspect.exit_code);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Ok(None)
    }

    /// Whether the engine reported an OOM kill in this container since `since`.
    async fn oom_since(&self, since: SystemTime) -> Result<bool, SandboxError> {
        let stamp = |t: SystemTime| {
            let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
            format!("{}.{:09}", d.as_secs(), d.subsec_nanos())
        };
        let filters = HashMap::from([
            ("container".to_string(), vec![self.id.clone()]),
            ("event".to_string(), vec!["oom".to_string()]),
        ]);
        let options = EventsOptions {
            since: Some(stamp(since - Duration::from_secs(1))),
            until: Some(stamp(SystemTime::now() + Duration::from_millis(500))),
            filters: Some(filters),
        };
        let mut events = self.engine.docker.events(Some(options));
        match events.next().await {
            Some(Ok(_)) => Ok(true),
            Some(Err(e)) => Err(e.into()),
            None => Ok(false),
        }
    }

    /// Last resort when a command outlives its timeout: kill every process in the
    /// container, then start it again so later commands still have a container.
    async fn kill_and_restart(&self) -> Result<(), SandboxError> {
        let docker = &self.engine.docker;
        let options = KillContainerOptionsBuilder::default().signal("KILL").build();
        docker.kill_container(&self.id, Some(options)).await.map_err(|e| self.lost(e))?;
        for _ in 0..100 {
            if !self.inspect_state().await?.running {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        docker.start_container(&self.id, None::<StartContainerOptions>).await.map_err(|e| self.lost(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_keeps_the_cap_and_counts_the_rest() {
        let mut capture = Capture::default();
        capture.push(&vec![b'a'; OUTPUT_CAP - 1]);
        capture.push(b"bcd");
        let text = capture.finish();
        assert!(text.starts_with("aaa") && text.contains("ab\n[… truncated 2 bytes]"));
        assert_eq!(text.len(), OUTPUT_CAP + "\n[… truncated 2 bytes]".len());
    }
}
