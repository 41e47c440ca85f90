//! Against the real Docker engine: lifecycle, exec, isolation, limits, files, builds.

use std::sync::Arc;
use std::time::{Duration, Instant};

use skillscope_sandbox::bootstrap::BUSYBOX_TAG;
use skillscope_sandbox::{
    file_changes, ChangeKind, Engine, ExecOptions, OutputStream, Owner, SandboxError, Uncharged, WaitClock,
};

use crate::common::{self, busybox, engine, run, secs, sh, Scope, IMAGE_BUILDS};
use crate::limits::{self, Limits};

#[tokio::test]
async fn exec_streams_output_and_reports_exit_codes() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("exec");
    let t0 = Instant::now();
    let c = scope.started(&engine, &scope.spec(BUSYBOX_TAG)).await;

    let mut chunks: Vec<(OutputStream, Vec<u8>, Instant)> = Vec::new();
    let script = sh("echo first; sleep 1; echo second; echo oops >&2; exit 3");
    let result = c
        .exec(&script, secs(10), &mut |stream, bytes| chunks.push((stream, bytes.to_vec(), Instant::now())))
        .await
        .unwrap();
    assert_eq!(result.exit_code, Some(3));
    assert!(!result.timed_out && !result.oom_killed && !result.success());
    assert_eq!(result.stdout, "first\nsecond\n");
    assert_eq!(result.stderr, "oops\n");
    // "first" was delivered while the command was still running, not at the end.
    let (stream, bytes, at) = &chunks[0];
    assert_eq!((*stream, bytes.as_slice()), (OutputStream::Stdout, b"first\n".as_slice()));
    let last = chunks.last().unwrap().2;
    assert!(last.duration_since(*at) >= Duration::from_millis(800), "not streamed: {chunks:?}");
    let streamed_err: Vec<u8> =
        chunks.iter().filter(|(s, _, _)| *s == OutputStream::Stderr).flat_map(|(_, b, _)| b.clone()).collect();
    assert_eq!(streamed_err, b"oops\n");

    let ok = run(&c, vec!["echo".into(), "hello world".into()], secs(10)).await;
    assert_eq!((ok.exit_code, ok.stdout.as_str()), (Some(0), "hello world\n"));
    assert!(ok.success());

    let opts = ExecOptions {
        workdir: Some("/tmp".into()),
        env: vec!["GREETING=hi".into()],
        user: Some("65534".into()),
        ..secs(10)
    };
    let ctx = run(&c, sh("echo $GREETING $(pwd) $(id -u)"), opts).await;
    assert_eq!(ctx.stdout, "hi /tmp 65534\n");

    c.remove().await.unwrap();
    eprintln!("create+start+3 execs+remove: {:?}", t0.elapsed());
    scope.assert_clean(&engine).await;
}

#[tokio::test]
async fn missing_binary_is_reported() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("missing");
    let c = scope.started(&engine, &scope.spec(BUSYBOX_TAG)).await;
    let result = run(&c, vec!["no-such-tool".into(), "--version".into()], secs(10)).await;
    assert!(matches!(result.exit_code, Some(126 | 127)), "{result:?}");
    let text = format!("{}{}", result.stdout, result.stderr);
    assert!(text.contains("no-such-tool"), "{text}");
    c.remove().await.unwrap();
    scope.assert_clean(&engine).await;
}

#[tokio::test]
async fn container_is_isolated_and_limited() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("isolation");
    let spec = skillscope_sandbox::ContainerSpec {
        memory_bytes: Some(64 << 20),
        nano_cpus: Some(500_000_000),
        pids_limit: Some(32),
        open_files: Some(256),
        file_size_bytes: Some(1 << 20),
        ..scope.spec(BUSYBOX_TAG)
    };
    let c = scope.started(&engine, &spec).await;

    // Open files and file size are bounded: a 2 MiB write stops at 1 MiB.
    let nofile = run(&c, sh("ulimit -n"), secs(10)).await;
    assert_eq!(nofile.stdout.trim(), "256", "{nofile:?}");
    let big = run(&c, sh("dd if=/dev/zero of=/tmp/big bs=1024 count=2048; wc -c < /tmp/big"), secs(10)).await;
    assert_eq!(big.stdout.trim(), "1048576", "{big:?}");

    let net = run(&c, vec!["cat".into(), "/proc/net/dev".into()], secs(10)).await;
    let ifaces: Vec<&str> = net.stdout.lines().skip(2).filter_map(|l| l.split(':').next()).map(str::trim).collect();
    assert_eq!(ifaces, ["lo"], "{}", net.stdout);

    // The engine applied the limits, and the kernel enforces them (cgroup v2 or v1).
    let expected =
        Limits { memory_bytes: Some(64 << 20), swap_bytes: Some(0), nano_cpus: Some(500_000_000), pids: Some(32) };
    assert_eq!(limits::applied(&c).await, expected);
    assert_eq!(limits::enforced(&c).await, expected, "swap must be off");

    let cat = |path: &str| vec!["cat".to_string(), path.to_string()];
    let status = run(&c, cat("/proc/self/status"), secs(10)).await.stdout;
    let field = |name: &str| {
        status.lines().find_map(|l| l.strip_prefix(name)).map(|v| v.trim().to_string()).unwrap_or_default()
    };
    assert_eq!(field("CapEff:"), "0000000000000000");
    assert_eq!(field("CapPrm:"), "0000000000000000");
    assert_eq!(field("CapBnd:"), "0000000000000000");
    assert_eq!(field("NoNewPrivs:"), "1");

    // Root without capabilities cannot do root things.
    let chown = run(&c, sh("echo x > /tmp/f && chown 65534 /tmp/f"), secs(10)).await;
    assert_ne!(chown.exit_code, Some(0), "{chown:?}");

    // The pids limit stops a process flood.
    let flood = run(&c, sh("for i in $(seq 1 60); do sleep 5 & done; wait"), secs(20)).await;
    assert!(flood.stderr.contains("fork"), "{flood:?}");

    c.remove().await.unwrap();
    scope.assert_clean(&engine).await;
}

#[tokio::test]
async fn readonly_rootfs_mounts_and_user() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("readonly");
    let host = tempfile::tempdir().unwrap();
    std::fs::write(host.path().join("input.txt"), "from host\n").unwrap();
    let spec = skillscope_sandbox::ContainerSpec {
        read_only_rootfs: true,
        user: Some("65534:65534".into()),
        workdir: Some("/tmp".into()),
        env: vec!["MODE=ro".into()],
        ro_mounts: vec![(host.path().to_path_buf(), "/data".into())],
        ..scope.spec(BUSYBOX_TAG)
    };
    let c = scope.started(&engine, &spec).await;
    let script = "cat /data/input.txt; echo $MODE $(id -u) $(pwd); \
                  (echo x > /data/new) 2>/dev/null || echo mount-ro; \
                  (echo x > /etc/new) 2>/dev/null || echo root-ro; \
                  echo ok > /tmp/t && cat /tmp/t";
    let r = run(&c, sh(script), secs(10)).await;
    assert_eq!(r.stdout, "from host\nro 65534 /tmp\nmount-ro\nroot-ro\nok\n", "{r:?}");
    assert!(!host.path().join("new").exists());
    c.remove().await.unwrap();
    scope.assert_clean(&engine).await;
}

#[tokio::test]
async fn exec_timeout_kills_the_command() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("timeout");
    let c = scope.started(&engine, &scope.spec(BUSYBOX_TAG)).await;

    // The watchdog kills the command's whole process group, background children included.
    let start = Instant::now();
    let opts = ExecOptions::seconds(1);
    let r = run(&c, sh("echo started; sleep 31 & sleep 30"), opts).await;
    assert!(r.timed_out && !r.oom_killed, "{r:?}");
    assert_eq!(r.exit_code, Some(137));
    assert_eq!(r.stdout, "started\n", "output before the kill is kept");
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    let ps = run(&c, sh("ps -o args | grep -c '[s]leep 3[01]'"), secs(10)).await;
    assert_eq!(ps.stdout.trim(), "0", "sleeps survived");
    // A quick command is not held up by its (killed) watchdog.
    let start = Instant::now();
    let r = run(&c, sh("echo fast"), secs(60)).await;
    assert!(r.success() && !r.timed_out);
    assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
    let after = run(&c, vec!["echo".into(), "alive".into()], secs(10)).await;
    assert_eq!(after.stdout, "alive\n");

    c.remove().await.unwrap();
    scope.assert_clean(&engine).await;
}

/// A clock that has been waiting since it was made, for as long as `for_how_long`.
struct WaitingFor {
    since: Instant,
    for_how_long: Duration,
}

impl WaitClock for WaitingFor {
    fn waited(&self) -> Duration {
        self.since.elapsed().min(self.for_how_long)
    }
    fn waiting(&self) -> bool {
        self.since.elapsed() < self.for_how_long
    }
}

/// Time the command waits on someone else moves its deadline out (a 1 s timeout, a 3 s command
/// that waited 2.5 s on its provider finishes), up to the stated most (with 0.5 s allowed, the
/// same command is killed), and only while the clock says so (without a clock, it is killed).
#[tokio::test]
async fn uncharged_wait_moves_the_deadline_out_up_to_its_limit() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("uncharged");
    let c = scope.started(&engine, &scope.spec(BUSYBOX_TAG)).await;
    let with = |for_how_long: Duration, at_most: Duration| ExecOptions {
        timeout: Duration::from_secs(1),
        uncharged: Some(Uncharged { clock: Arc::new(WaitingFor { since: Instant::now(), for_how_long }), at_most }),
        ..ExecOptions::default()
    };
    let r = run(&c, sh("sleep 3; echo done"), with(Duration::from_millis(2500), Duration::from_secs(60))).await;
    assert!(!r.timed_out && r.stdout == "done\n", "{r:?}");
    let r = run(&c, sh("sleep 3; echo done"), with(Duration::from_millis(2500), Duration::from_millis(500))).await;
    assert!(r.timed_out, "past the most that may be left out: {r:?}");
    let r = run(&c, sh("sleep 3; echo done"), ExecOptions::seconds(1)).await;
    assert!(r.timed_out, "{r:?}");
    c.remove().await.unwrap();
    scope.assert_clean(&engine).await;
}

#[tokio::test]
async fn memory_limit_exceeded_is_reported_as_oom() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("oom");
    let spec = skillscope_sandbox::ContainerSpec { memory_bytes: Some(32 << 20), ..scope.spec(BUSYBOX_TAG) };
    let c = scope.started(&engine, &spec).await;
    // dd fills a 128 MiB buffer from /dev/zero: four times the limit, no swap.
    let script = vec!["dd".into(), "if=/dev/zero".into(), "of=/dev/null".into(), "bs=128M".into(), "count=1".into()];
    let r = run(&c, script, secs(30)).await;
    assert!(r.oom_killed, "{r:?}");
    assert_eq!(r.exit_code, Some(137));
    assert!(!r.timed_out && !r.success());
    // The host, the engine and the container itself are unaffected.
    engine.ping().await.unwrap();
    assert!(c.inspect_state().await.unwrap().running);
    let small = run(
        &c,
        vec!["dd".into(), "if=/dev/zero".into(), "of=/dev/null".into(), "bs=1M".into(), "count=4".into()],
        secs(10),
    )
    .await;
    assert!(small.success() && !small.oom_killed, "{small:?}");
    c.remove().await.unwrap();
    scope.assert_clean(&engine).await;
}

/// A disk quota is asked of the storage driver; where it has none (overlay2 on ext4, as here) the
/// engine's refusal is caught, the container is made without it and says so, and later creates do
/// not ask again. Where the driver has one, a write past the quota fails.
#[tokio::test]
async fn a_disk_quota_is_enforced_by_the_driver_or_reported_missing() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("quota");
    let quota = 32u64 << 20;
    let spec = skillscope_sandbox::ContainerSpec { disk_quota_bytes: Some(quota), ..scope.spec(BUSYBOX_TAG) };
    let c = scope.started(&engine, &spec).await;
    let supported = engine.disk_quota_supported().expect("a create with a quota tells whether the driver has one");
    let fill = sh("dd if=/dev/zero of=/big bs=1M count=64");
    let r = run(&c, fill.clone(), secs(60)).await;
    if supported {
        assert_eq!(c.disk_quota, Some(quota));
        assert!(!r.success() && r.stderr.contains("No space left"), "{r:?}");
    } else {
        assert_eq!(c.disk_quota, None, "a container without an enforced quota does not claim one");
        assert!(r.success(), "no quota, so the 64 MiB write goes through: {r:?}");
        let again = scope.started(&engine, &spec).await;
        assert_eq!(again.disk_quota, None);
        again.remove().await.unwrap();
    }
    c.remove().await.unwrap();
    scope.assert_clean(&engine).await;
}

/// What root put in a folder (a file, a sub-folder, a link, a name past tar's 100 bytes) can be
/// given to a user whole, though root without capabilities cannot chown: then that user may edit
/// it, and nothing else about it changed.
#[tokio::test]
async fn a_folder_is_given_to_a_user_whole() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("give");
    let c = scope.started(&engine, &scope.spec(BUSYBOX_TAG)).await;
    let long = "n".repeat(120);
    let made = format!("mkdir -p /work/img/sub && echo x > /work/img/sub/f && ln -s f /work/img/sub/l && echo y > /work/img/{long} && chmod 640 /work/img/sub/f");
    assert!(run(&c, sh(&made), secs(10)).await.success());
    let owner = Owner { uid: 1000, gid: 1000 };
    let as_owner = || ExecOptions { user: Some(owner.user()), ..secs(10) };
    assert!(!run(&c, sh("echo z >> /work/img/sub/f"), as_owner()).await.success(), "root's before");
    c.give_dir("/work/img", owner).await.unwrap();
    let listing =
        run(&c, sh("cd /work/img && find . | sort | while read -r p; do stat -c '%u:%g %a %N' \"$p\"; done"), secs(10))
            .await;
    let lines: Vec<&str> = listing.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{}", listing.stdout);
    assert!(lines.iter().all(|l| l.starts_with("1000:1000 ")), "{}", listing.stdout);
    assert!(
        listing.stdout.contains("640 ./sub/f") && listing.stdout.contains("'./sub/l' -> 'f'"),
        "{}",
        listing.stdout
    );
    assert!(run(&c, sh(&format!("echo z >> /work/img/sub/f && cat /work/img/{long}")), as_owner()).await.success());
    assert_eq!(run(&c, sh("stat -c %u:%g /work"), secs(10)).await.stdout.trim(), "0:0", "the parent stays root's");
    c.remove().await.unwrap();
    scope.assert_clean(&engine).await;
}

/// A fresh container's folder is given the same whether it is read or known: an image's empty
/// folder is known by the image's id after the first container (no mount under it), and one the
/// image fills is read each time, so everything in it is the user's in every container.
#[tokio::test]
async fn an_images_folders_are_given_whole_in_every_fresh_container() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("give-image");
    let id = engine.ensure_image(BUSYBOX_TAG).await.unwrap();
    let owner = Owner { uid: 1000, gid: 1000 };
    let owners = |listing: &str| listing.lines().map(str::to_owned).collect::<std::collections::BTreeSet<_>>();
    for round in 0..3 {
        let spec = skillscope_sandbox::ContainerSpec { workdir: Some("/work".into()), ..scope.spec(&id) };
        let c = scope.started(&engine, &spec).await;
        c.give_image_dir("/work", owner).await.unwrap();
        c.give_image_dir("/bin", owner).await.unwrap();
        let work = run(&c, sh("stat -c %u:%g /work"), secs(10)).await.stdout;
        assert_eq!(work.trim(), "1000:1000", "round {round}");
        let bin = run(&c, sh("find /bin | while read -r p; do stat -c %u:%g \"$p\"; done"), secs(10)).await.stdout;
        assert_eq!(owners(&bin), ["1000:1000".to_string()].into(), "round {round}: {bin}");
        let as_owner = ExecOptions { user: Some(owner.user()), ..secs(10) };
        assert!(run(&c, sh("touch /work/mine /bin/mine"), as_owner).await.success(), "round {round}");
        c.remove().await.unwrap();
    }
    scope.assert_clean(&engine).await;
}

#[tokio::test]
async fn uploads_snapshots_and_file_changes() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("files");
    let c = scope.started(&engine, &scope.spec(BUSYBOX_TAG)).await;

    let host = tempfile::tempdir().unwrap();
    std::fs::write(host.path().join("keep.txt"), "same\n").unwrap();
    std::fs::write(host.path().join("edit.txt"), "line one\nline two\n").unwrap();
    std::fs::write(host.path().join("gone.txt"), "bye\n").unwrap();
    std::fs::create_dir(host.path().join("sub")).unwrap();
    std::fs::write(host.path().join("sub/blob.bin"), [0u8, 1, 2, 255]).unwrap();
    let owner = Some(Owner { uid: 1000, gid: 1000 });
    c.upload_dir(host.path(), "/work/task", owner).await.unwrap();
    c.upload_files(&[("notes/readme.md".into(), b"# hi\n".to_vec())], "/work/task", owner).await.unwrap();
    // The uploads and the target folder belong to the owner; the folder above stays root's.
    let owners =
        run(&c, sh("stat -c '%u:%g %n' /work /work/task /work/task/sub/blob.bin /work/task/notes/readme.md"), secs(10))
            .await;
    assert_eq!(
        owners.stdout,
        "0:0 /work\n1000:1000 /work/task\n1000:1000 /work/task/sub/blob.bin\n1000:1000 /work/task/notes/readme.md\n"
    );

    let before = c.snapshot("/work/task").await.unwrap();
    let paths: Vec<&str> = before.files.keys().map(String::as_str).collect();
    assert_eq!(paths, ["edit.txt", "gone.txt", "keep.txt", "notes/readme.md", "sub/blob.bin"]);
    // The tmp dir of the image keeps its sticky bit: uploads never touch parents.
    let tmp = run(&c, sh("stat -c %a /tmp"), secs(10)).await;
    assert_eq!(tmp.stdout.trim(), "1777");

    let script = "cd /work/task && echo 'line three' >> edit.txt && rm gone.txt \
                  && echo created > new.txt && printf '\\0\\1' > sub/blob.bin";
    // Root without capabilities cannot write the owner's files; the owner can.
    assert!(!run(&c, sh("echo x >> /work/task/keep.txt"), secs(10)).await.success());
    let as_owner = ExecOptions { user: owner.map(Owner::user), ..secs(10) };
    assert!(run(&c, sh(script), as_owner).await.success());
    let after = c.snapshot("/work/task").await.unwrap();

    let changes = file_changes(&before, &after);
    let summary: Vec<(&str, ChangeKind)> = changes.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(
        summary,
        [
            ("edit.txt", ChangeKind::Modified),
            ("gone.txt", ChangeKind::Deleted),
            ("new.txt", ChangeKind::Created),
            ("sub/blob.bin", ChangeKind::Modified),
        ]
    );
    let edit = changes[0].diff.as_deref().unwrap();
    assert!(edit.contains("--- a/edit.txt") && edit.contains("+line three"), "{edit}");
    assert!(changes[1].diff.as_deref().unwrap().contains("-bye"));
    assert!(changes[2].diff.as_deref().unwrap().contains("+created"));
    assert_eq!(changes[3].diff, None, "binary files get no text diff");
    let json = serde_json::to_string(&changes).unwrap();
    assert!(json.contains("\"kind\":\"modified\""), "{json}");

    let file = c.download("/work/task/new.txt").await.unwrap();
    assert_eq!(file, [("new.txt".to_string(), b"created\n".to_vec())]);
    let dir = c.download("/work/task/notes").await.unwrap();
    assert_eq!(dir, [("notes/readme.md".to_string(), b"# hi\n".to_vec())]);
    assert!(matches!(c.download("/work/nope").await, Err(SandboxError::Io(_))));
    assert!(c.snapshot("/work/nope").await.unwrap().files.is_empty());

    c.remove().await.unwrap();
    scope.assert_clean(&engine).await;
}

#[tokio::test]
async fn lost_container_is_an_infrastructure_error() {
    let engine = engine().await;
    busybox(&engine).await;
    let scope = Scope::new("lost");
    let c = scope.started(&engine, &scope.spec(BUSYBOX_TAG)).await;
    let listed = engine.managed_containers().await.unwrap();
    let mine = listed.iter().find(|m| m.id == c.id).expect("listed as managed");
    assert!(mine.running);
    assert_eq!(mine.labels.get(common::TEST_LABEL), Some(&scope.label));

    c.stop(Duration::from_secs(1)).await.unwrap();
    assert!(!c.inspect_state().await.unwrap().running);
    c.remove().await.unwrap();
    c.remove().await.unwrap(); // removing twice is fine
    let err = c.exec(&sh("true"), secs(5), &mut |_, _| {}).await.unwrap_err();
    assert!(matches!(err, SandboxError::ContainerLost(_)) && err.is_infrastructure(), "{err:?}");
    scope.assert_clean(&engine).await;
}

#[tokio::test]
async fn unreachable_engine_names_the_socket() {
    let err = Engine::connect_to("/nonexistent/docker.sock").await.unwrap_err();
    assert!(err.is_infrastructure());
    match &err {
        SandboxError::EngineUnavailable { socket, .. } => {
            assert_eq!(socket, "unix:///nonexistent/docker.sock")
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(err.to_string().contains("Docker engine unreachable at unix:///nonexistent/docker.sock"));

    // A socket file nobody listens on.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dead.sock");
    drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
    let err = Engine::connect_to(path.to_str().unwrap()).await.unwrap_err();
    assert!(matches!(err, SandboxError::EngineUnavailable { .. }), "{err:?}");

    let engine = engine().await;
    assert_eq!(engine.socket(), "unix:///var/run/docker.sock");
    assert!(!SandboxError::TooLarge("x".into()).is_infrastructure());
}

#[tokio::test]
async fn missing_image_is_reported() {
    let engine = engine().await;
    let scope = Scope::new("noimage");
    let err = engine.create(&scope.spec("skillscope/does-not-exist:0")).await.unwrap_err();
    assert!(matches!(err, SandboxError::ImageMissing(_)), "{err:?}");
    assert_eq!(engine.image_id("skillscope/does-not-exist:0").await.unwrap(), None);
    // No registry is reachable here, so a pull fails cleanly.
    let err = engine.ensure_image("skillscope/does-not-exist:0").await.unwrap_err();
    assert!(matches!(err, SandboxError::ImageMissing(_)), "{err:?}");
    scope.assert_clean(&engine).await;
}

#[tokio::test]
async fn builds_images_and_reuses_unchanged_contexts() {
    let _builds = IMAGE_BUILDS.lock().await;
    let engine = engine().await;
    let base = busybox(&engine).await;
    assert_eq!(engine.ensure_image(BUSYBOX_TAG).await.unwrap(), base);
    let scope = Scope::new("build");
    let tag = format!("skillscope/test-build:{}", scope.label);
    let ctx = tempfile::tempdir().unwrap();
    std::fs::write(
        ctx.path().join("Dockerfile"),
        "FROM skillscope/busybox:1 AS stage\nRUN echo staged > /staged.txt\n\
         FROM skillscope/busybox:1\nCOPY hello.txt /hello.txt\nCOPY --from=stage /staged.txt /staged.txt\n",
    )
    .unwrap();
    std::fs::write(ctx.path().join("hello.txt"), format!("hello {}\n", scope.label)).unwrap();

    let dangling_before = dangling();
    let t = Instant::now();
    let built = engine.build_image(ctx.path(), &tag).await.unwrap();
    let (id, first) = (built.id, t.elapsed());
    assert!(!built.reused);
    assert!(id.starts_with("sha256:"));
    assert_eq!(dangling(), dangling_before, "build left intermediates behind");

    let t = Instant::now();
    let again = engine.build_image(ctx.path(), &tag).await.unwrap();
    let second = t.elapsed();
    eprintln!("build: first {first:?}, reuse {second:?}");
    assert_eq!((again.id.as_str(), again.reused), (id.as_str(), true));
    assert!(second < first && second < Duration::from_secs(1), "{second:?} vs {first:?}");

    let c = scope.started(&engine, &scope.spec(&tag)).await;
    let r = run(&c, sh("cat /hello.txt /staged.txt"), secs(10)).await;
    assert_eq!(r.stdout, format!("hello {}\nstaged\n", scope.label));
    c.remove().await.unwrap();

    let broken = tempfile::tempdir().unwrap();
    std::fs::write(broken.path().join("Dockerfile"), "FROM skillscope/busybox:1\nRUN exit 7\n").unwrap();
    let err = engine.build_image(broken.path(), &format!("{tag}-broken")).await.unwrap_err();
    assert!(matches!(err, SandboxError::ImageBuild(_)) && err.is_infrastructure(), "{err:?}");
    assert_eq!(dangling(), dangling_before);

    let rmi = std::process::Command::new("docker").args(["rmi", &tag]).output().unwrap();
    assert!(rmi.status.success(), "{rmi:?}");
    scope.assert_clean(&engine).await;
}

/// The engine's dangling images, as a set: `docker images` lists images created in the same
/// second in no fixed order.
fn dangling() -> std::collections::BTreeSet<String> {
    let out = std::process::Command::new("docker")
        .args(["images", "-q", "--no-trunc", "--filter", "dangling=true"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect()
}

#[tokio::test]
async fn busybox_bootstrap_is_reused() {
    let engine = engine().await;
    let id = busybox(&engine).await;
    let t = Instant::now();
    assert_eq!(skillscope_sandbox::bootstrap::busybox(&engine).await.unwrap(), id);
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert_eq!(engine.image_id(BUSYBOX_TAG).await.unwrap(), Some(id));
}
