//! What a sandbox container looks like: image, limits, mounts. Isolation is not optional:
//! every container drops all capabilities, forbids privilege gain and runs unprivileged, with
//! limits on memory, CPU, processes, open files and file size.

use std::collections::HashMap;
use std::path::PathBuf;

use bollard::models::{ContainerCreateBody, HostConfig, Mount, MountType, ResourcesUlimits};
use serde::{Deserialize, Serialize};

/// Label put on every container and image this crate creates.
pub const MANAGED_LABEL: &str = "skillscope.managed";

/// Network access of a container.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NetworkMode {
    /// Loopback only.
    #[default]
    None,
    /// Docker's default bridge: unrestricted egress.
    Bridge,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContainerSpec {
    pub image: String,
    /// Extra labels; `skillscope.managed=true` is always added.
    pub labels: HashMap<String, String>,
    pub network: NetworkMode,
    /// Memory limit; swap is disabled (memory_swap = memory).
    pub memory_bytes: Option<i64>,
    /// CPU limit in units of 1e-9 CPUs.
    pub nano_cpus: Option<i64>,
    pub pids_limit: Option<i64>,
    /// Most open files per process (soft and hard `nofile` limit).
    pub open_files: Option<i64>,
    /// Largest file a process may write, in bytes (`fsize`; a write past it fails with EFBIG).
    pub file_size_bytes: Option<i64>,
    /// Read-only root filesystem, with a tmpfs on /tmp. Uploads need a writable rootfs.
    pub read_only_rootfs: bool,
    pub user: Option<String>,
    /// Host paths bind-mounted read-only at the given container paths.
    pub ro_mounts: Vec<(PathBuf, String)>,
    pub workdir: Option<String>,
    pub env: Vec<String>,
    /// Size quota on the container's writable layer, asked of the storage driver; where the
    /// driver has none (overlay2 off xfs with project quotas, for one) the container is created
    /// without it and [`Container::disk_quota`] says so.
    pub disk_quota_bytes: Option<u64>,
    /// Namespaced kernel settings of the container (`--sysctl`), e.g.
    /// `net.ipv4.ip_unprivileged_port_start=0` so an unprivileged process may listen on port 80.
    pub sysctls: HashMap<String, String>,
}

pub const DEFAULT_MEMORY_BYTES: i64 = 1 << 30;
pub const DEFAULT_NANO_CPUS: i64 = 1_000_000_000;
pub const DEFAULT_PIDS_LIMIT: i64 = 256;
pub const DEFAULT_OPEN_FILES: i64 = 4096;
pub const DEFAULT_FILE_SIZE_BYTES: i64 = 2 << 30;

/// Keeps the container alive; all work happens through exec.
const IDLE_COMMAND: [&str; 3] = ["sh", "-c", "while :; do sleep 3600; done"];

impl Default for ContainerSpec {
    fn default() -> Self {
        ContainerSpec {
            image: String::new(),
            labels: HashMap::new(),
            network: NetworkMode::None,
            memory_bytes: Some(DEFAULT_MEMORY_BYTES),
            nano_cpus: Some(DEFAULT_NANO_CPUS),
            pids_limit: Some(DEFAULT_PIDS_LIMIT),
            open_files: Some(DEFAULT_OPEN_FILES),
            file_size_bytes: Some(DEFAULT_FILE_SIZE_BYTES),
            read_only_rootfs: false,
            user: None,
            ro_mounts: Vec::new(),
            workdir: None,
            env: Vec::new(),
            disk_quota_bytes: None,
            sysctls: HashMap::new(),
        }
    }
}

impl ContainerSpec {
    pub fn new(image: impl Into<String>) -> Self {
        ContainerSpec { image: image.into(), ..ContainerSpec::default() }
    }

    /// The engine's create request; `with_quota` adds the disk quota, if the spec has one.
    pub(crate) fn create_body(&self, with_quota: bool) -> ContainerCreateBody {
        let mut labels = self.labels.clone();
        labels.insert(MANAGED_LABEL.to_string(), "true".to_string());
        let network_mode = match self.network {
            NetworkMode::None => "none",
            NetworkMode::Bridge => "bridge",
        };
        let mounts = self
            .ro_mounts
            .iter()
            .map(|(host, target)| Mount {
                target: Some(target.clone()),
                source: Some(host.to_string_lossy().into_owned()),
                typ: Some(MountType::BIND),
                read_only: Some(true),
                ..Mount::default()
            })
            .collect();
        let ulimit = |name: &str, v: i64| ResourcesUlimits { name: Some(name.into()), soft: Some(v), hard: Some(v) };
        let ulimits = [("nofile", self.open_files), ("fsize", self.file_size_bytes)]
            .into_iter()
            .filter_map(|(name, v)| v.map(|v| ulimit(name, v)))
            .collect();
        let tmpfs = self
            .read_only_rootfs
            .then(|| HashMap::from([("/tmp".to_string(), "rw,nosuid,nodev,size=256m".to_string())]));
        ContainerCreateBody {
            image: Some(self.image.clone()),
            cmd: Some(IDLE_COMMAND.iter().map(|s| s.to_string()).collect()),
            entrypoint: Some(Vec::new()),
            labels: Some(labels),
            user: self.user.clone(),
            working_dir: self.workdir.clone(),
            env: Some(self.env.clone()),
            network_disabled: Some(self.network == NetworkMode::None),
            host_config: Some(HostConfig {
                network_mode: Some(network_mode.to_string()),
                memory: self.memory_bytes,
                memory_swap: self.memory_bytes,
                nano_cpus: self.nano_cpus,
                pids_limit: self.pids_limit,
                ulimits: Some(ulimits),
                cap_drop: Some(vec!["ALL".to_string()]),
                security_opt: Some(vec!["no-new-privileges".to_string()]),
                privileged: Some(false),
                readonly_rootfs: Some(self.read_only_rootfs),
                init: Some(true),
                mounts: Some(mounts),
                tmpfs,
                sysctls: (!self.sysctls.is_empty()).then(|| self.sysctls.clone()),
                storage_opt: self
                    .disk_quota_bytes
                    .filter(|_| with_quota)
                    .map(|b| HashMap::from([("size".to_string(), b.to_string())])),
                ..HostConfig::default()
            }),
            ..ContainerCreateBody::default()
        }
    }
}
