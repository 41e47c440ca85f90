//! Hostile workloads on the real engine: for each, the built-in agent (scripted model) runs the
//! hostile thing as its one tool call, as the trial's unprivileged user. Each is contained and the
//! trial names what happened; afterwards no container of the workspace is left, the host's free
//! disk is within 1% of before, and the queue serves an honest trial. (A set-up that never
//! returns is the trial deadline's test, `trial_deadline`.)

use crate::common::*;
use serde_json::json;
use skillscope_api::agents;
use skillscope_api::queue::model::{AgentTask, TrialLimits, TrialSpec, TrialState};
use skillscope_api::queue::store;
use skillscope_api::Workspace;

/// Free bytes on the filesystem that holds the engine's data (or the root's).
fn free_disk() -> u64 {
    let path = if std::path::Path::new("/var/lib/docker").exists() { "/var/lib/docker\0" } else { "/\0" };
    // SAFETY: a NUL-terminated path and a zeroed statvfs for the call to fill.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::statvfs(path.as_ptr().cast(), &mut s) }, 0);
    s.f_bavail as u64 * s.f_frsize as u64
}

/// The attacks: a name (also the marker of its task's instruction), the command, and what the
/// trial's tool output or message must say. The endless ones run with the tool's 5 s
/// `timeout_secs`, the rest within the agent's 30 s.
struct Attack {
    name: &'static str,
    command: String,
    says: &'static str,
    endless: bool,
}

fn attack(name: &'static str, command: impl Into<String>, says: &'static str, endless: bool) -> Attack {
    Attack { name, command: command.into(), says, endless }
}

fn attacks(model_port: u16) -> Vec<Attack> {
    let killed = "[killed: the command exceeded 5 s]";
    vec![
        // The waiting shell forks once, before the bomb starts, then `exec`s: a shell that failed a
        // fork of its own once the bomb had used up the pids would exit at once (ash aborts on a
        // failed fork), and nothing would be left to time out.
        attack("fork-bomb", "bomb() { bomb | bomb & }; (bomb) & exec sleep 30", killed, true),
        attack("memory-bomb", "head -c 2000000000 /dev/zero | tail", "[killed: the container's memory limit was reached]", false),
        attack(
            "disk-fill",
            "i=0; while [ $i -lt 40 ]; do dd if=/dev/zero of=fill$i bs=1M count=1024 2>/dev/null; i=$((i+1)); done",
            "disk limit: the agent wrote",
            false,
        ),
        attack("term-ignorer", "(trap '' TERM; exec sleep 1000) & echo started", "started", true),
        attack("endless-output", "yes out & yes err >&2; wait", killed, true),
        attack("cpu-spin", "while :; do :; done", killed, true),
        attack("kill-init", "kill -9 1; echo rc=$?", "rc=1", false),
        attack(
            "docker-socket",
            "ls /var/run/docker.sock /run/docker.sock 2>&1; find / -xdev -name 'docker.sock' 2>/dev/null; echo searched",
            "No such file",
            false,
        ),
        attack(
            "loopback-egress",
            format!("nc 127.0.0.1 {model_port} </dev/null 2>&1; echo rc=$?"),
            "Connection refused",
            false,
        ),
        attack("many-files", "mkdir many && cd many && seq 100000 | xargs touch && ls | wc -l", "100000", false),
    ]
}

#[test]
fn hostile_workloads_are_contained_and_the_host_and_queue_carry_on() {
    join_session_keyring();
    let rt = rt();
    let engine = rt.block_on(engine());
    // One branch per attack, keyed by its task's instruction; the default does the honest task.
    let probe = rt.block_on(skillscope_modelserver::start(Default::default())).unwrap();
    let model_port = probe.addr.port();
    let branches: Vec<_> = attacks(model_port)
        .into_iter()
        .map(|a| {
            let args = if a.endless { json!({"command": a.command, "timeout_secs": 5}) } else { json!({"command": a.command}) };
            json!({"if_prompt_contains": format!("attack {}", a.name), "steps": [{"tool": "bash", "args": args}, {"text": "done"}]})
        })
        .collect();
    let script = serde_json::from_value(json!({
        "default": [{"tool": "bash", "args": {"command": "cp task.txt answer.txt"}}, {"text": "done"}],
        "branches": branches,
    }))
    .unwrap();
    probe.set_script(script);
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.toml"), "[queue]\nconcurrency = 2\nmax_attempts = 1\n").unwrap();
    let ws = Workspace::open(&home).unwrap();
    let config = scripted_builtin_agent(&ws, &probe.base_url, "sk-hostile-00000000");
    let mut cfg = agents::agent(&ws, config).unwrap();
    cfg.limits.command_timeout_secs = 30;
    agents::save_agent(&ws, &cfg).unwrap();
    let free_before = free_disk();

    let spec = |instruction: String| TrialSpec {
        limits: TrialLimits { memory_mb: 256, disk_mb: 512, ..TrialLimits::default() },
        agent: Some(AgentTask { agent_config_id: config, instruction, skill_version_ids: vec![] }),
        ..TrialSpec::command(IMAGE, vec![])
    };
    let mut trials: Vec<(String, TrialSpec)> =
        attacks(model_port).iter().map(|a| (a.name.to_string(), spec(format!("attack {}", a.name)))).collect();
    let honest = tmp.path().join("honest");
    std::fs::create_dir_all(&honest).unwrap();
    std::fs::write(honest.join("task.txt"), "1\n").unwrap();
    trials.push((
        "honest".into(),
        TrialSpec {
            workspace: Some(honest.display().to_string()),
            verifier: Some(vec!["cmp".into(), "-s".into(), "task.txt".into(), "answer.txt".into()]),
            ..spec("Copy task.txt to answer.txt.".into())
        },
    ));
    let run = store::create_run(&ws, "hostile", &trials).unwrap();
    let (sink, _) = recorder();
    rt.block_on(drain(&ws, None, sink)).unwrap();

    let all = store::trials(&ws, run).unwrap();
    for Attack { name, says: said, .. } in attacks(model_port) {
        let t = all.iter().find(|t| t.label == name).unwrap();
        assert_ne!(t.state, TrialState::InfraError, "{name}: {}", t.message);
        let tool_output = skillscope_api::trajectories::for_trial(&ws, t.id)
            .unwrap()
            .first()
            .map(|s| serde_json::to_string(&skillscope_api::trajectories::get(&ws, s.id).unwrap()).unwrap())
            .unwrap_or_default();
        assert!(
            tool_output.contains(said) || t.message.contains(said),
            "{name}: expected {said:?}; state {:?}, message {:?}; trajectory: {}",
            t.state,
            t.message,
            &tool_output[tool_output.len().saturating_sub(3000)..]
        );
    }
    let disk = all.iter().find(|t| t.label == "disk-fill").unwrap();
    assert_eq!(disk.state, TrialState::AgentError, "the disk limit is the agent's outcome: {}", disk.message);
    let honest = all.iter().find(|t| t.label == "honest").unwrap();
    assert_eq!(honest.state, TrialState::Passed, "the queue still serves: {}", honest.message);
    assert_eq!(rt.block_on(leftovers(&engine, &ws)), 0, "no container of the workspace is left");
    let free_after = free_disk();
    assert!(
        free_after as f64 >= free_before as f64 * 0.99,
        "the host keeps its free disk: {free_before} bytes before, {free_after} after"
    );
}
