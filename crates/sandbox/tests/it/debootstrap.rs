//! The Debian python base image, built by debootstrap from the Debian mirror (about 40 s
//! cold here, then reused by tag), and the exec watchdog under dash and without `setsid`.

use std::time::{Duration, Instant};

use skillscope_sandbox::bootstrap::{self, DEBIAN_PYTHON_TAG};
use skillscope_sandbox::ExecOptions;

use crate::common::{engine, run, secs, sh, Scope, IMAGE_BUILDS};

#[tokio::test]
async fn debian_python_image_runs_pytest() {
    let _builds = IMAGE_BUILDS.lock().await;
    let engine = engine().await;
    let t = Instant::now();
    let id = bootstrap::debian_python(&engine, &mut |line| eprintln!("[debootstrap] {line}"))
        .await
        .expect("debian bootstrap");
    eprintln!("debian_python: {:?} -> {id}", t.elapsed());
    let t = Instant::now();
    assert_eq!(bootstrap::debian_python(&engine, &mut |_| {}).await.unwrap(), id);
    assert!(t.elapsed() < Duration::from_secs(2), "present image must be reused");

    let scope = Scope::new("debian");
    let c = scope.started(&engine, &scope.spec(DEBIAN_PYTHON_TAG)).await;
    let test = b"def test_adds():\n    assert 1 + 1 == 2\n".to_vec();
    c.upload_files(&[("test_math.py".into(), test)], "/work", None).await.unwrap();
    let opts = ExecOptions { workdir: Some("/work".into()), ..secs(60) };
    let r = run(&c, vec!["python3".into(), "-m".into(), "pytest".into(), "-q".into()], opts).await;
    assert!(r.success(), "{r:?}");
    assert!(r.stdout.contains("1 passed"), "{r:?}");
    // ripgrep, which OpenCode's skill tool needs.
    let r = run(&c, vec!["rg".into(), "--version".into()], secs(10)).await;
    assert!(r.success() && r.stdout.starts_with("ripgrep"), "{r:?}");

    // dash: the watchdog kills the whole group.
    let opts = ExecOptions::seconds(1);
    let start = Instant::now();
    let r = run(&c, sh("sleep 31 & sleep 30"), opts.clone()).await;
    assert!(r.timed_out && r.exit_code == Some(137), "{r:?}");
    assert!(start.elapsed() < Duration::from_secs(5));
    let left = "cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' ' | grep -c 'sleep 3[01]'";
    assert_eq!(run(&c, sh(left), secs(10)).await.stdout.trim(), "0");
    c.remove().await.unwrap();

    // Without setsid: our deadline, a container kill and a restart.
    let ctx = tempfile::tempdir().unwrap();
    let dockerfile = format!("FROM {DEBIAN_PYTHON_TAG}\nRUN rm /usr/bin/setsid\n");
    std::fs::write(ctx.path().join("Dockerfile"), dockerfile).unwrap();
    let tag = format!("skillscope/test-nosetsid:{}", scope.label);
    engine.build_image(ctx.path(), &tag).await.unwrap();
    let c = scope.started(&engine, &scope.spec(&tag)).await;
    c.upload_files(&[("kept.txt".into(), b"kept\n".to_vec())], "/work", None).await.unwrap();
    let start = Instant::now();
    let r = run(&c, vec!["sleep".into(), "30".into()], opts).await;
    assert!(r.timed_out && r.exit_code.is_none(), "{r:?}");
    assert!(start.elapsed() < Duration::from_secs(12), "{:?}", start.elapsed());
    let after = run(&c, vec!["cat".into(), "/work/kept.txt".into()], secs(10)).await;
    assert_eq!(after.stdout, "kept\n", "container restarted with its files");
    c.remove().await.unwrap();
    let rmi = std::process::Command::new("docker").args(["rmi", &tag]).output().unwrap();
    assert!(rmi.status.success(), "{rmi:?}");
    scope.assert_clean(&engine).await;
}
