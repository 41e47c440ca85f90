//! Finding the container engine the way the docker CLI does (`DOCKER_HOST`, then `DOCKER_CONTEXT`,
//! then the config's current context, then the default socket), and, when the CLI's choice does not
//! answer, the rootless Docker and Podman sockets too. [`engine_status`] says which one answers, or
//! why none does and what the user can do about it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use ts_rs::TS;

use crate::Engine;

/// One address an engine may listen on, and why it is tried.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Endpoint {
    /// `unix:///path`, `tcp://host:port` or `npipe://…`.
    pub host: String,
    /// Where it came from: `DOCKER_HOST`, `docker context "<name>"`, `default socket`,
    /// `rootless Docker`, `Podman (user)`, `Podman (system)`.
    pub source: String,
}

/// What the machine's engine can do for Skillscope right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum EngineState {
    Running,
    /// No engine program and no socket: Docker or Podman must be installed.
    NotInstalled,
    /// Installed (or a socket left behind) but nothing answers.
    NotRunning,
    /// A socket exists and this user may not open it.
    NoPermission,
}

impl EngineState {
    pub fn label(self) -> &'static str {
        match self {
            EngineState::Running => "running",
            EngineState::NotInstalled => "not installed",
            EngineState::NotRunning => "not running",
            EngineState::NoPermission => "no permission",
        }
    }
}

/// What was found at one endpoint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct EndpointCheck {
    pub endpoint: Endpoint,
    /// `None` when the engine answered there.
    pub problem: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct EngineStatus {
    pub state: EngineState,
    /// The endpoint that answered.
    pub endpoint: Option<Endpoint>,
    /// The engine's name and version, e.g. "Docker Engine - Community 20.10.24" or "Podman Engine 4.3.1".
    pub version: Option<String>,
    /// Every endpoint tried, in order.
    pub checked: Vec<EndpointCheck>,
    /// What to do, with the exact command, when the state is not `running`.
    pub fix: Option<String>,
}

/// Where the discovery reads its inputs; the real process environment by default, a test's own
/// values otherwise.
#[derive(Clone, Debug, Default)]
pub struct Environment {
    pub docker_host: Option<String>,
    pub docker_context: Option<String>,
    /// `$DOCKER_CONFIG`, else `~/.docker`.
    pub docker_config_dir: Option<PathBuf>,
    pub xdg_runtime_dir: Option<PathBuf>,
    /// The folders of `PATH`, searched for `docker`, `dockerd` and `podman`.
    pub path: Vec<PathBuf>,
}

impl Environment {
    pub fn from_process() -> Environment {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let home = var("HOME").map(PathBuf::from);
        Environment {
            docker_host: var("DOCKER_HOST"),
            docker_context: var("DOCKER_CONTEXT"),
            docker_config_dir: var("DOCKER_CONFIG").map(PathBuf::from).or_else(|| home.map(|h| h.join(".docker"))),
            xdg_runtime_dir: var("XDG_RUNTIME_DIR").map(PathBuf::from),
            path: std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default(),
        }
    }

    fn has_program(&self, name: &str) -> bool {
        self.path.iter().any(|dir| dir.join(name).is_file())
    }
}

#[cfg(windows)]
const DEFAULT_HOST: &str = "npipe:////./pipe/docker_engine";
#[cfg(not(windows))]
const DEFAULT_HOST: &str = "unix:///var/run/docker.sock";

/// The endpoints to try, in order. An explicit `DOCKER_HOST` is the only one (the user chose it);
/// otherwise the docker CLI's choice comes first and the rootless and Podman sockets follow.
pub fn candidates(env: &Environment) -> Vec<Endpoint> {
    if let Some(host) = &env.docker_host {
        return vec![Endpoint { host: host.clone(), source: "DOCKER_HOST".into() }];
    }
    let mut out = Vec::new();
    if let Some(found) = context_endpoint(env) {
        out.push(found);
    }
    let mut push = |host: String, source: &str| {
        if !out.iter().any(|e| e.host == host) {
            out.push(Endpoint { host, source: source.into() });
        }
    };
    push(DEFAULT_HOST.into(), "default socket");
    if let Some(run) = &env.xdg_runtime_dir {
        push(unix_host(&run.join("docker.sock")), "rootless Docker");
        push(unix_host(&run.join("podman/podman.sock")), "Podman (user)");
    }
    if cfg!(unix) {
        push("unix:///run/podman/podman.sock".into(), "Podman (system)");
    }
    out
}

fn unix_host(path: &Path) -> String {
    format!("unix://{}", path.display())
}

/// The endpoint of the docker context in use (`DOCKER_CONTEXT`, else `currentContext` in the
/// config), read from its metadata as the docker CLI stores it: `contexts/meta/<sha256 of the
/// name>/meta.json`. The context named "default" is the default socket.
fn context_endpoint(env: &Environment) -> Option<Endpoint> {
    let dir = env.docker_config_dir.as_ref()?;
    let name = env.docker_context.clone().or_else(|| {
        let config: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("config.json")).ok()?).ok()?;
        config.get("currentContext")?.as_str().map(str::to_owned)
    })?;
    if name.is_empty() || name == "default" {
        return None;
    }
    let id = hex::encode(Sha256::digest(name.as_bytes()));
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("contexts/meta").join(id).join("meta.json")).ok()?).ok()?;
    let host = meta.pointer("/Endpoints/docker/Host")?.as_str()?;
    Some(Endpoint { host: host.into(), source: format!("docker context \"{name}\"") })
}

/// Why the engine at a Unix socket cannot be used, known before any HTTP is spoken: the kernel's
/// answer to a connect names the cause exactly.
#[derive(Debug, PartialEq, Eq)]
enum SocketProblem {
    Missing,
    Refused,
    Denied,
    Other(String),
}

#[cfg(unix)]
fn socket_problem(host: &str) -> Option<SocketProblem> {
    use std::io::ErrorKind;
    let path = host.strip_prefix("unix://")?;
    match std::os::unix::net::UnixStream::connect(path) {
        Ok(_) => None,
        Err(e) => Some(match e.kind() {
            ErrorKind::NotFound => SocketProblem::Missing,
            ErrorKind::ConnectionRefused => SocketProblem::Refused,
            ErrorKind::PermissionDenied => SocketProblem::Denied,
            _ => SocketProblem::Other(e.to_string()),
        }),
    }
}

#[cfg(not(unix))]
fn socket_problem(_host: &str) -> Option<SocketProblem> {
    None
}

/// Tries each candidate in order and reports the first engine that answers, or the state of the
/// machine and the fix when none does.
pub async fn engine_status(env: &Environment) -> EngineStatus {
    let mut checked = Vec::new();
    let mut problems = Vec::new();
    for endpoint in candidates(env) {
        let problem = match socket_problem(&endpoint.host) {
            Some(p) => p,
            None => match Engine::connect_host(&endpoint.host).await {
                Ok(engine) => {
                    checked.push(EndpointCheck { endpoint: endpoint.clone(), problem: None });
                    return EngineStatus {
                        state: EngineState::Running,
                        version: engine.describe().await.ok(),
                        endpoint: Some(endpoint),
                        checked,
                        fix: None,
                    };
                }
                Err(e) => SocketProblem::Other(e.to_string()),
            },
        };
        let text = match &problem {
            SocketProblem::Missing => "no socket there".to_string(),
            SocketProblem::Refused => "a socket file, but nothing listening (the engine is stopped)".to_string(),
            SocketProblem::Denied => "permission denied: this user may not open the socket".to_string(),
            SocketProblem::Other(detail) => detail.clone(),
        };
        checked.push(EndpointCheck { endpoint: endpoint.clone(), problem: Some(text) });
        problems.push((endpoint, problem));
    }
    let (state, fix) = diagnose(env, &problems);
    EngineStatus { state, endpoint: None, version: None, checked, fix: Some(fix) }
}

/// The state of a machine where no endpoint answered, and the exact fix.
fn diagnose(env: &Environment, problems: &[(Endpoint, SocketProblem)]) -> (EngineState, String) {
    if let Some((endpoint, _)) = problems.iter().find(|(_, p)| *p == SocketProblem::Denied) {
        let socket = endpoint.host.trim_start_matches("unix://");
        return (
            EngineState::NoPermission,
            format!(
                "Your user may not open {socket}. Join the group that owns it: `sudo usermod -aG docker $USER`, then log out and back in (or use rootless Docker or Podman, which need no group)."
            ),
        );
    }
    let docker = env.has_program("docker") || env.has_program("dockerd");
    let podman = env.has_program("podman");
    let explicit =
        problems.first().filter(|(e, _)| e.source == "DOCKER_HOST" || e.source.starts_with("docker context"));
    if let Some((endpoint, problem)) = explicit {
        let fix = match problem {
            SocketProblem::Other(detail) => format!("The engine at {} ({}) did not answer: {detail}. Start it, or point DOCKER_HOST / the docker context at a running engine.", endpoint.host, endpoint.source),
            _ => format!("Nothing answers at {} ({}). Start that engine, or unset it to use the default socket.", endpoint.host, endpoint.source),
        };
        return (EngineState::NotRunning, fix);
    }
    let refused = |source: &str| problems.iter().any(|(e, p)| e.source == source && *p == SocketProblem::Refused);
    if docker || podman || problems.iter().any(|(_, p)| *p != SocketProblem::Missing) {
        let fix = if refused("rootless Docker") {
            "Rootless Docker is installed but stopped: run `systemctl --user start docker`.".to_string()
        } else if docker || refused("default socket") {
            "Docker is installed but not running: run `sudo systemctl enable --now docker` (without systemd: `sudo dockerd &`).".to_string()
        } else {
            "Podman is installed but its socket is off: run `systemctl --user enable --now podman.socket` (as root: `sudo systemctl enable --now podman.socket`).".to_string()
        };
        return (EngineState::NotRunning, fix);
    }
    (
        EngineState::NotInstalled,
        "No container engine is installed. On Debian or Ubuntu: `sudo apt install docker.io`, then `sudo usermod -aG docker $USER` and log in again; or `sudo apt install podman` and `systemctl --user enable --now podman.socket`.".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_in(dir: &Path) -> Environment {
        Environment { docker_config_dir: Some(dir.join(".docker")), ..Environment::default() }
    }

    fn write_context(dir: &Path, name: &str, host: &str) {
        let id = hex::encode(Sha256::digest(name.as_bytes()));
        let meta = dir.join(".docker/contexts/meta").join(id);
        std::fs::create_dir_all(&meta).unwrap();
        let json = serde_json::json!({"Name": name, "Endpoints": {"docker": {"Host": host}}});
        std::fs::write(meta.join("meta.json"), json.to_string()).unwrap();
    }

    #[test]
    fn docker_host_is_the_only_candidate_when_set() {
        let env = Environment {
            docker_host: Some("tcp://127.0.0.1:2375".into()),
            xdg_runtime_dir: Some("/run/user/1000".into()),
            ..Environment::default()
        };
        assert_eq!(
            candidates(&env),
            vec![Endpoint { host: "tcp://127.0.0.1:2375".into(), source: "DOCKER_HOST".into() }]
        );
    }

    #[test]
    fn the_current_context_comes_first_then_the_default_rootless_and_podman_sockets() {
        let dir = tempfile::tempdir().unwrap();
        write_context(dir.path(), "rootless", "unix:///run/user/1000/docker.sock");
        std::fs::write(dir.path().join(".docker/config.json"), r#"{"currentContext":"rootless"}"#).unwrap();
        let env = Environment { xdg_runtime_dir: Some("/run/user/1000".into()), ..env_in(dir.path()) };
        let hosts: Vec<(String, String)> = candidates(&env).into_iter().map(|e| (e.host, e.source)).collect();
        let expected = [
            ("unix:///run/user/1000/docker.sock", "docker context \"rootless\""),
            ("unix:///var/run/docker.sock", "default socket"),
            ("unix:///run/user/1000/podman/podman.sock", "Podman (user)"),
            ("unix:///run/podman/podman.sock", "Podman (system)"),
        ];
        let expected: Vec<(String, String)> = expected.iter().map(|(h, s)| (h.to_string(), s.to_string())).collect();
        assert_eq!(hosts, expected);
    }

    #[test]
    fn docker_context_overrides_the_config_and_default_means_the_default_socket() {
        let dir = tempfile::tempdir().unwrap();
        write_context(dir.path(), "remote", "tcp://10.0.0.5:2376");
        std::fs::write(dir.path().join(".docker/config.json"), r#"{"currentContext":"default"}"#).unwrap();
        assert_eq!(candidates(&env_in(dir.path()))[0].source, "default socket");
        let env = Environment { docker_context: Some("remote".into()), ..env_in(dir.path()) };
        assert_eq!(
            candidates(&env)[0],
            Endpoint { host: "tcp://10.0.0.5:2376".into(), source: "docker context \"remote\"".into() }
        );
    }

    #[test]
    fn a_broken_config_or_missing_context_falls_back_to_the_default() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".docker")).unwrap();
        std::fs::write(dir.path().join(".docker/config.json"), "{not json").unwrap();
        assert_eq!(candidates(&env_in(dir.path()))[0].source, "default socket");
        std::fs::write(dir.path().join(".docker/config.json"), r#"{"currentContext":"gone"}"#).unwrap();
        assert_eq!(candidates(&env_in(dir.path()))[0].source, "default socket");
    }

    fn problem(source: &str, p: SocketProblem) -> (Endpoint, SocketProblem) {
        (Endpoint { host: format!("unix:///x/{source}"), source: source.into() }, p)
    }

    #[test]
    fn each_state_gets_its_fix() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("docker"), "").unwrap();
        let with_docker = Environment { path: vec![dir.path().into()], ..Environment::default() };
        let nothing = Environment::default();

        let (state, fix) = diagnose(&nothing, &[problem("default socket", SocketProblem::Denied)]);
        assert_eq!(state, EngineState::NoPermission);
        assert!(fix.contains("usermod -aG docker"), "{fix}");

        let (state, fix) = diagnose(&nothing, &[problem("default socket", SocketProblem::Missing)]);
        assert_eq!(state, EngineState::NotInstalled);
        assert!(fix.contains("apt install docker.io"), "{fix}");

        let (state, fix) = diagnose(&with_docker, &[problem("default socket", SocketProblem::Missing)]);
        assert_eq!(state, EngineState::NotRunning);
        assert!(fix.contains("systemctl enable --now docker"), "{fix}");

        let rootless =
            [problem("default socket", SocketProblem::Missing), problem("rootless Docker", SocketProblem::Refused)];
        let (state, fix) = diagnose(&nothing, &rootless);
        assert_eq!(state, EngineState::NotRunning);
        assert!(fix.contains("systemctl --user start docker"), "{fix}");

        let (state, fix) = diagnose(&nothing, &[problem("DOCKER_HOST", SocketProblem::Missing)]);
        assert_eq!(state, EngineState::NotRunning);
        assert!(fix.contains("DOCKER_HOST") || fix.contains("unset"), "{fix}");
    }
}
