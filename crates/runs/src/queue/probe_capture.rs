//! A probe trial's additions to the sandbox: read-only planted files, canary files in the agent's
//! home, and the egress path (forwarder in the container, recording sink on the host); a CLI
//! harness's trial gets the egress path alone, so that what it sends besides its model calls is
//! seen. The
//! network stays `none`; what the container tries to send reaches only the sink, and is kept with
//! the container's whole-filesystem changes as the attempt's observations.

use super::model::{ProbeCapture, TrialSpec};
use super::store::Claimed;
use super::trial_error::TrialError;
use crate::error::{Result, RunsError};
use rusqlite::params;
use skillscope_egress::{EgressRecord, Sink};
use skillscope_sandbox::{
    file_changes, ChangeKind, Container, ContainerSpec, EngineChange, EngineChangeKind, ExecOptions, FileChange,
    Snapshot,
};
use skillscope_store::workspace::Workspace;
use std::path::PathBuf;

/// A probe trial's host side, alive for one attempt.
pub(super) struct Capture {
    /// Removed when the capture is dropped.
    dir: tempfile::TempDir,
    mounts: Vec<(PathBuf, String)>,
    sink: Option<Sink>,
    home_files: Vec<(String, Vec<u8>)>,
    /// The container's changes and the agent's home as they were just before the agent started:
    /// what the set-up itself did (mount points, planted files) is not the agent's doing.
    baseline: Option<(Vec<EngineChange>, Snapshot)>,
}

/// What one probe attempt left behind, as stored.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Observations {
    pub egress: Vec<EgressRecord>,
    pub changes: Vec<EngineChange>,
}

impl Capture {
    /// Prepares the host side of `spec.probe`, when it has one, or of an egress watch alone when
    /// `watch_egress` asks for one.
    pub(super) async fn prepare(ws: &Workspace, c: &Claimed, watch_egress: bool) -> Result<Option<Capture>> {
        let watch = ProbeCapture { home_files: Vec::new(), ro_files: Vec::new(), egress: true };
        let probe = match &c.spec.probe {
            Some(probe) => probe,
            None if watch_egress => &watch,
            None => return Ok(None),
        };
        let staging = ws.staging_dir()?;
        let dir = staging.path();
        let io = |what: &str, e: std::io::Error| RunsError::Internal(format!("preparing the trial's {what}: {e}"));
        let mut mounts = Vec::new();
        for (i, (path, content)) in probe.ro_files.iter().enumerate() {
            let host = dir.join(format!("planted-{i}"));
            std::fs::write(&host, content).map_err(|e| io("planted files", e))?;
            mounts.push((host, path.clone()));
        }
        let sink = if probe.egress {
            let sockets = dir.join("egress");
            std::fs::create_dir_all(&sockets).map_err(|e| io("egress sink", e))?;
            let sink = Sink::start(&sockets).map_err(|e| io("egress sink", e))?;
            let forwarder = skillscope_egress::write_forwarder(dir).map_err(|e| io("forwarder", e))?;
            let resolv = skillscope_egress::write_resolv_conf(dir).map_err(|e| io("resolver", e))?;
            mounts.extend(skillscope_egress::ro_mounts(&forwarder, &resolv, &sockets));
            // The sink's authority, trusted in the container: its HTTPS is recorded in the clear.
            mounts.push(skillscope_egress::write_ca(dir, sink.ca_pem()).map_err(|e| io("egress authority", e))?);
            Some(sink)
        } else {
            None
        };
        let home_files = home_files(probe);
        Ok(Some(Capture { dir: staging, mounts, sink, home_files, baseline: None }))
    }

    /// Adds the mounts and, for egress, the setting that lets an unprivileged forwarder listen on
    /// ports 53, 80 and 443, and the variables that make TLS clients trust the sink's authority.
    pub(super) fn apply(&self, spec: &mut ContainerSpec) {
        spec.ro_mounts.extend(self.mounts.iter().cloned());
        if self.sink.is_some() {
            let (key, value) = skillscope_egress::UNPRIVILEGED_PORTS_SYSCTL;
            spec.sysctls.insert(key.to_string(), value.to_string());
            spec.env.extend(skillscope_egress::ca_env());
        }
    }

    /// Plants the home files (as the trial's user) and starts the forwarder (as root, so the agent
    /// cannot stop it), then notes the baseline the agent's changes are measured against.
    pub(super) async fn start(
        &mut self,
        container: &Container,
        spec: &TrialSpec,
    ) -> std::result::Result<(), TrialError> {
        if !self.home_files.is_empty() {
            container.upload_files(&self.home_files, skillscope_agent::HOME, spec.owner()).await?;
        }
        if self.sink.is_some() {
            let sh = vec!["sh".to_string(), "-c".into(), skillscope_egress::forwarder_start_command()];
            let opts = ExecOptions { user: Some("0".into()), ..ExecOptions::seconds(30) };
            let r = container.exec(&sh, opts, &mut |_, _| {}).await?;
            if r.exit_code != Some(0) {
                return Err(TrialError {
                    infra: true,
                    message: format!("the egress forwarder did not start: {}", r.stderr.trim()),
                });
            }
        }
        self.baseline = Some((container.engine_changes().await?, container.snapshot(skillscope_agent::HOME).await?));
        Ok(())
    }

    /// Records what left the container and what changed in it, once the agent has stopped.
    pub(super) async fn record(&mut self, ws: &Workspace, c: &Claimed, container: &Container) -> Result<()> {
        let after = container.engine_changes().await?;
        let home = container.snapshot(skillscope_agent::HOME).await?;
        let changes = match &self.baseline {
            Some((before, home_before)) => since(before, after, &file_changes(home_before, &home)),
            None => after,
        };
        let egress = match self.sink.take() {
            Some(sink) => {
                sink.stop().await;
                sink.records()
            }
            None => Vec::new(),
        };
        ws.conn()?.execute(
            "INSERT OR REPLACE INTO trial_observations(trial_id, attempt, egress_json, changes_json) VALUES (?1, ?2, ?3, ?4)",
            params![c.id, c.attempt, serde_json::to_string(&egress)?, serde_json::to_string(&changes)?],
        )?;
        Ok(())
    }

    /// Stops the sink if it still runs and removes the host folder, whatever happened to the attempt.
    pub(super) async fn close(mut self) {
        if let Some(sink) = self.sink.take() {
            sink.stop().await;
        }
        drop(self.dir);
    }
}

/// The changes made after `before` was taken: new entries of the engine's diff, entries gone from
/// it (a planted file deleted), and files of the agent's home modified in place (the engine's diff
/// still shows a planted file as "added" after the agent rewrote it).
fn since(before: &[EngineChange], after: Vec<EngineChange>, home: &[FileChange]) -> Vec<EngineChange> {
    let mut out: Vec<EngineChange> = after.iter().filter(|c| !before.contains(c)).cloned().collect();
    for gone in before.iter().filter(|b| !after.iter().any(|a| a.path == b.path)) {
        out.push(EngineChange { path: gone.path.clone(), kind: EngineChangeKind::Deleted });
    }
    for m in home.iter().filter(|f| f.kind == ChangeKind::Modified) {
        let path = format!("{}/{}", skillscope_agent::HOME.trim_end_matches('/'), m.path);
        if !out.iter().any(|c| c.path == path) {
            out.push(EngineChange { path, kind: EngineChangeKind::Modified });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn home_files(probe: &ProbeCapture) -> Vec<(String, Vec<u8>)> {
    probe.home_files.iter().map(|(p, content)| (p.clone(), content.clone().into_bytes())).collect()
}

/// The observations of a trial's latest attempt that recorded any.
pub fn observations(ws: &Workspace, trial_id: i64) -> Result<Option<Observations>> {
    use rusqlite::OptionalExtension;
    let row: Option<(String, String)> = ws
        .conn()?
        .query_row(
            "SELECT egress_json, changes_json FROM trial_observations WHERE trial_id = ?1 ORDER BY attempt DESC LIMIT 1",
            [trial_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(match row {
        Some((egress, changes)) => {
            Some(Observations { egress: serde_json::from_str(&egress)?, changes: serde_json::from_str(&changes)? })
        }
        None => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(path: &str, kind: EngineChangeKind) -> EngineChange {
        EngineChange { path: path.into(), kind }
    }

    #[test]
    fn only_what_changed_after_the_baseline_counts() {
        use EngineChangeKind::*;
        let before =
            [ch("/opt/skillscope", Added), ch("/tmp/skillscope-home/.ssh/id_rsa", Added), ch("/etc", Modified)];
        let after = vec![ch("/opt/skillscope", Added), ch("/etc", Modified), ch("/tmp/skillscope-home/.bashrc", Added)];
        let home = [FileChange { path: ".netrc".into(), kind: ChangeKind::Modified, diff: None }];
        let got = since(&before, after, &home);
        assert_eq!(
            got,
            [
                ch("/tmp/skillscope-home/.bashrc", Added),
                ch("/tmp/skillscope-home/.netrc", Modified),
                ch("/tmp/skillscope-home/.ssh/id_rsa", Deleted),
            ]
        );
    }
}
