//! The resource limits of a container, read two ways: as the engine applied them
//! (`inspect_container` → `HostConfig`) and as the kernel enforces them inside the container,
//! from the cgroup v2 files (`/sys/fs/cgroup/memory.max`, `cpu.max`, …) or, where those are
//! absent, the cgroup v1 ones (`/sys/fs/cgroup/memory/memory.limit_in_bytes`, …). Debian 12 and
//! Ubuntu 22.04+ default to v2; older hosts, and this one, to v1.

use bollard::models::HostConfig;
use bollard::Docker;
use skillscope_sandbox::Container;

use crate::common::{run, secs, sh};

/// Limits in the engine's units; `None` is unlimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    pub(crate) memory_bytes: Option<i64>,
    /// Swap usable on top of the memory limit (`memory_swap - memory` in engine terms).
    pub(crate) swap_bytes: Option<i64>,
    pub(crate) nano_cpus: Option<i64>,
    pub(crate) pids: Option<i64>,
}

/// Prints one line per limit: `<name> v2 <file>` when the v2 file exists, else
/// `<name> v1 <file>…` when all the v1 files do, else `<name> none`. `CGROUP_ROOT` stands in
/// for `/sys/fs/cgroup` in the unit tests.
pub(crate) const LIMITS_SCRIPT: &str = r#"limit() {
  n=$1 v2=$2; shift 2
  if [ -r "$v2" ]; then echo "$n v2 $(cat "$v2")"; return; fi
  for f; do [ -r "$f" ] || { echo "$n none"; return; }; done
  printf '%s v1' "$n"; for f; do printf ' %s' "$(cat "$f")"; done; echo
}
g=${CGROUP_ROOT:-/sys/fs/cgroup}
limit memory $g/memory.max $g/memory/memory.limit_in_bytes
limit swap $g/memory.swap.max $g/memory/memory.memsw.limit_in_bytes $g/memory/memory.limit_in_bytes
limit cpu $g/cpu.max $g/cpu/cpu.cfs_quota_us $g/cpu/cpu.cfs_period_us
limit pids $g/pids.max $g/pids/pids.max
"#;

/// The limits the engine recorded for `container`.
pub(crate) async fn applied(container: &Container) -> Limits {
    let docker = Docker::connect_with_defaults().expect("Docker client");
    let docker = docker.negotiate_version().await.expect("Docker API version");
    let inspect = docker.inspect_container(&container.id, None).await.expect("inspect container");
    from_host_config(&inspect.host_config.unwrap_or_default())
}

/// The limits the kernel enforces inside `container` (needs `sh` and `cat`).
pub(crate) async fn enforced(container: &Container) -> Limits {
    let out = run(container, sh(LIMITS_SCRIPT), secs(10)).await;
    assert!(out.success(), "{out:?}");
    parse_limits(&out.stdout).unwrap_or_else(|e| panic!("{e} in:\n{}", out.stdout))
}

fn from_host_config(host: &HostConfig) -> Limits {
    let positive = |v: Option<i64>| v.filter(|&n| n > 0);
    let memory_bytes = positive(host.memory);
    let swap_bytes = match (memory_bytes, host.memory_swap) {
        (Some(memory), Some(swap)) if swap > 0 => Some(swap - memory),
        // -1: unlimited swap. Unset with a memory limit: the engine allows as much swap again.
        (Some(_), Some(-1)) | (None, _) => None,
        (Some(memory), _) => Some(memory),
    };
    Limits { memory_bytes, swap_bytes, nano_cpus: positive(host.nano_cpus), pids: positive(host.pids_limit) }
}

/// Parses the output of [`LIMITS_SCRIPT`].
pub(crate) fn parse_limits(output: &str) -> Result<Limits, String> {
    let (mut memory, mut swap, mut cpu, mut pids) = (None, None, None, None);
    for line in output.lines().filter(|l| !l.trim().is_empty()) {
        let mut words = line.split_whitespace();
        let (name, version) = (words.next().unwrap_or_default(), words.next().unwrap_or_default());
        let values: Vec<&str> = words.collect();
        let value = match (name, version, values.as_slice()) {
            ("memory", "v2", [v]) | ("swap", "v2", [v]) | ("pids", "v2" | "v1", [v]) => parse_max(v)?,
            ("memory", "v1", [v]) => parse_v1_bytes(v)?,
            ("swap", "v1", [memsw, memory]) => match (parse_v1_bytes(memsw)?, parse_v1_bytes(memory)?) {
                (Some(memsw), Some(memory)) => Some(memsw - memory),
                _ => None,
            },
            ("cpu", "v2", [quota, period]) => parse_cpu_max(quota, period)?,
            ("cpu", "v1", [quota, period]) => parse_cfs_quota(quota, period)?,
            _ => return Err(format!("unexpected cgroup line {line:?}")),
        };
        let slot = match name {
            "memory" => &mut memory,
            "swap" => &mut swap,
            "cpu" => &mut cpu,
            _ => &mut pids,
        };
        *slot = Some(value);
    }
    let missing = |name: &str| format!("no {name} line");
    Ok(Limits {
        memory_bytes: memory.ok_or_else(|| missing("memory"))?,
        swap_bytes: swap.ok_or_else(|| missing("swap"))?,
        nano_cpus: cpu.ok_or_else(|| missing("cpu"))?,
        pids: pids.ok_or_else(|| missing("pids"))?,
    })
}

fn number(text: &str) -> Result<i64, String> {
    text.trim().parse().map_err(|_| format!("not a number: {text:?}"))
}

/// A v2 limit (`memory.max`, `memory.swap.max`, `pids.max`) or v1 `pids.max`: a number, or
/// `max` for none.
fn parse_max(text: &str) -> Result<Option<i64>, String> {
    if text.trim() == "max" {
        Ok(None)
    } else {
        number(text).map(Some)
    }
}

/// v1 `memory.limit_in_bytes` / `memory.memsw.limit_in_bytes`: always a number; "unlimited"
/// is `i64::MAX` rounded down to the page size (9223372036854771712 with 4 KiB pages).
fn parse_v1_bytes(text: &str) -> Result<Option<i64>, String> {
    const UNLIMITED_FROM: i64 = 1 << 62;
    Ok(Some(number(text)?).filter(|&n| n < UNLIMITED_FROM))
}

/// v2 `cpu.max`, `"<quota> <period>"` in µs (quota `max` for none), as nano-CPUs.
fn parse_cpu_max(quota: &str, period: &str) -> Result<Option<i64>, String> {
    match parse_max(quota)? {
        None => Ok(None),
        Some(quota) => nano_cpus(quota, number(period)?).map(Some),
    }
}

/// v1 `cpu.cfs_quota_us` (-1 for none) and `cpu.cfs_period_us`, as nano-CPUs.
fn parse_cfs_quota(quota: &str, period: &str) -> Result<Option<i64>, String> {
    match number(quota)? {
        -1 => Ok(None),
        quota => nano_cpus(quota, number(period)?).map(Some),
    }
}

fn nano_cpus(quota: i64, period: i64) -> Result<i64, String> {
    if quota <= 0 || period <= 0 {
        return Err(format!("bad CPU quota {quota} / period {period}"));
    }
    Ok(quota * 1_000_000_000 / period)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITED: Limits =
        Limits { memory_bytes: Some(64 << 20), swap_bytes: Some(0), nano_cpus: Some(500_000_000), pids: Some(32) };
    const UNLIMITED: Limits = Limits { memory_bytes: None, swap_bytes: None, nano_cpus: None, pids: None };

    #[test]
    fn v2_files_parse() {
        let out = "memory v2 67108864\nswap v2 0\ncpu v2 50000 100000\npids v2 32\n";
        assert_eq!(parse_limits(out), Ok(LIMITED));
        let out = "memory v2 max\nswap v2 max\ncpu v2 max 100000\npids v2 max\n";
        assert_eq!(parse_limits(out), Ok(UNLIMITED));
        assert_eq!(parse_cpu_max("200000", "100000"), Ok(Some(2_000_000_000)));
        assert_eq!(parse_cpu_max("max", "100000"), Ok(None));
        assert_eq!(parse_max("max\n"), Ok(None));
        assert_eq!(parse_max("1073741824\n"), Ok(Some(1 << 30)));
    }

    #[test]
    fn v1_files_parse() {
        let out = "memory v1 67108864\nswap v1 67108864 67108864\ncpu v1 50000 100000\npids v1 32\n";
        assert_eq!(parse_limits(out), Ok(LIMITED));
        let out = "memory v1 9223372036854771712\nswap v1 9223372036854771712 9223372036854771712\n\
                   cpu v1 -1 100000\npids v1 max\n";
        assert_eq!(parse_limits(out), Ok(UNLIMITED));
        let out = "memory v1 67108864\nswap v1 134217728 67108864\ncpu v1 150000 100000\npids v1 256\n";
        let limits = parse_limits(out).unwrap();
        assert_eq!(
            (limits.swap_bytes, limits.nano_cpus, limits.pids),
            (Some(64 << 20), Some(1_500_000_000), Some(256))
        );
    }

    #[test]
    fn missing_or_garbled_files_are_errors() {
        let full = "memory v2 max\nswap v2 max\ncpu v2 max 100000\npids v2 max\n";
        assert!(parse_limits(&full.replace("memory v2 max", "memory none")).is_err());
        assert!(parse_limits(&full.replace("pids v2 max\n", "")).is_err());
        assert!(parse_limits(&full.replace("max 100000", "50000")).is_err());
        assert!(parse_limits(&full.replace("memory v2 max", "memory v2 lots")).is_err());
        assert!(parse_cfs_quota("50000", "0").is_err());
    }

    /// Runs [`LIMITS_SCRIPT`] with the host's `sh` over a fake hierarchy of `files`.
    fn script_over(files: &[(&str, &str)]) -> Result<Limits, String> {
        let root = tempfile::tempdir().unwrap();
        for (path, contents) in files {
            let path = root.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, contents).unwrap();
        }
        let out = std::process::Command::new("sh")
            .args(["-c", LIMITS_SCRIPT])
            .env("CGROUP_ROOT", root.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        parse_limits(&String::from_utf8_lossy(&out.stdout))
    }

    #[test]
    fn script_reads_whichever_hierarchy_exists() {
        let v2 = [
            ("memory.max", "67108864\n"),
            ("memory.swap.max", "0\n"),
            ("cpu.max", "50000 100000\n"),
            ("pids.max", "32\n"),
        ];
        assert_eq!(script_over(&v2), Ok(LIMITED));
        let v1 = [
            ("memory/memory.limit_in_bytes", "67108864\n"),
            ("memory/memory.memsw.limit_in_bytes", "67108864\n"),
            ("cpu/cpu.cfs_quota_us", "50000\n"),
            ("cpu/cpu.cfs_period_us", "100000\n"),
            ("pids/pids.max", "32\n"),
        ];
        assert_eq!(script_over(&v1), Ok(LIMITED));
        // v2 files win over v1 ones; a limit in neither is an error.
        let both: Vec<_> = v1.iter().chain(&[("memory.max", "max\n")]).copied().collect();
        assert_eq!(script_over(&both).map(|l| l.memory_bytes), Ok(None));
        assert!(script_over(&v2[..3]).is_err());
    }

    #[test]
    fn host_config_limits() {
        let host = HostConfig {
            memory: Some(64 << 20),
            memory_swap: Some(64 << 20),
            nano_cpus: Some(500_000_000),
            pids_limit: Some(32),
            ..HostConfig::default()
        };
        assert_eq!(from_host_config(&host), LIMITED);
        assert_eq!(from_host_config(&HostConfig::default()), UNLIMITED);
        let host =
            HostConfig { memory: Some(0), memory_swap: Some(-1), nano_cpus: Some(0), pids_limit: Some(-1), ..host };
        assert_eq!(from_host_config(&host), UNLIMITED);
        let host = HostConfig { memory: Some(1 << 30), memory_swap: Some(-1), ..HostConfig::default() };
        assert_eq!(from_host_config(&host).swap_bytes, None);
        let host = HostConfig { memory: Some(1 << 30), memory_swap: None, ..HostConfig::default() };
        assert_eq!(from_host_config(&host).swap_bytes, Some(1 << 30));
    }
}
