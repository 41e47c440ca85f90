//! Base images made without a registry: busybox from the host's static binary, and a
//! Debian bookworm rootfs (python3 + pytest) from debootstrap.

use std::path::Path;
use std::process::Stdio;

use bollard::query_parameters::CreateImageOptionsBuilder;
use bytes::Bytes;
use futures_util::{stream, StreamExt};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, BufReader};
use tokio::process::Command;

use crate::engine::Engine;
use crate::error::SandboxError;
use crate::spec::MANAGED_LABEL;

pub const BUSYBOX_TAG: &str = "skillscope/busybox:1";
pub const DEBIAN_PYTHON_TAG: &str = "skillscope/debian-python:12";
/// Debian's busybox-static (apt package `busybox-static`).
const HOST_BUSYBOX: &str = "/bin/busybox";
const DEBIAN_MIRROR: &str = "http://deb.debian.org/debian";
const PATH_ENV: &str = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

const BUSYBOX_DOCKERFILE: &str = "FROM scratch\nCOPY rootfs/ /\nENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\nCMD [\"sh\"]\n";
#[cfg(unix)]
const PASSWD: &str = "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n";
#[cfg(unix)]
const GROUP: &str = "root:x:0:\nnogroup:x:65534:\n";

/// Builds `skillscope/busybox:1` FROM scratch: the host's static busybox with a link per
/// applet. Rebuilding an unchanged context is skipped. Returns the image id.
pub async fn busybox(engine: &Engine) -> Result<String, SandboxError> {
    let missing = |detail: String| {
        SandboxError::ImageBuild(format!("{HOST_BUSYBOX}: {detail} (install the busybox-static package)"))
    };
    let applets = Command::new(HOST_BUSYBOX).arg("--list-full").output().await.map_err(|e| missing(e.to_string()))?;
    if !applets.status.success() {
        return Err(missing("--list-full failed".into()));
    }
    let context = tempfile::tempdir()?;
    write_busybox_rootfs(&context.path().join("rootfs"), &String::from_utf8_lossy(&applets.stdout))?;
    std::fs::write(context.path().join("Dockerfile"), BUSYBOX_DOCKERFILE)?;
    Ok(engine.build_image(context.path(), BUSYBOX_TAG).await?.id)
}

/// A Unix host only: the image is the host's own static busybox (elsewhere the command above
/// already failed, as there is no `/bin/busybox` to run).
#[cfg(not(unix))]
fn write_busybox_rootfs(_rootfs: &Path, _applets: &str) -> Result<(), SandboxError> {
    Err(SandboxError::ImageBuild(format!("{BUSYBOX_TAG} is built from a Linux host's busybox-static")))
}

#[cfg(unix)]
fn write_busybox_rootfs(rootfs: &Path, applets: &str) -> Result<(), SandboxError> {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let set_mode = |path: &Path, mode: u32| std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode));
    for dir in ["bin", "etc", "root", "tmp", "work"] {
        std::fs::create_dir_all(rootfs.join(dir))?;
    }
    set_mode(&rootfs.join("tmp"), 0o1777)?;
    set_mode(&rootfs.join("root"), 0o700)?;
    std::fs::copy(HOST_BUSYBOX, rootfs.join("bin/busybox"))?;
    set_mode(&rootfs.join("bin/busybox"), 0o755)?;
    std::fs::write(rootfs.join("etc/passwd"), PASSWD)?;
    std::fs::write(rootfs.join("etc/group"), GROUP)?;
    for applet in applets.lines().map(str::trim).filter(|a| !a.is_empty()) {
        let link = rootfs.join(applet);
        if link.exists() {
            continue;
        }
        if let Some(parent) = link.parent() {
            std::fs::create_dir_all(parent)?;
        }
        symlink("/bin/busybox", &link)?;
    }
    Ok(())
}

/// The packages `skillscope/debian-python:12` adds to a minimal Debian: Python and pytest for
/// tasks, pip for the dependencies of environments built from a repository, ripgrep for
/// OpenCode's skill tool (it fails without `rg`, and would download it).
const DEBIAN_PACKAGES: &str = "python3,python3-pytest,python3-pip,ripgrep";
/// The image's label naming [`DEBIAN_PACKAGES`]: an image made from another list is out of date.
const RECIPE_LABEL: &str = "org.skillscope.packages";

/// The id of `skillscope/debian-python:12` when this engine holds it made from today's recipe.
async fn current_debian_python(engine: &Engine) -> Result<Option<String>, SandboxError> {
    let label = engine.image_label(DEBIAN_PYTHON_TAG, RECIPE_LABEL).await?;
    if label.as_deref() != Some(DEBIAN_PACKAGES) {
        return Ok(None);
    }
    engine.image_id(DEBIAN_PYTHON_TAG).await
}

/// Makes `skillscope/debian-python:12`: `debootstrap --variant=minbase` of bookworm with
/// [`DEBIAN_PACKAGES`], imported as a single-layer image. Takes minutes; skipped when the tag
/// exists made from the same packages (one made from another list is made again).
/// `progress` receives debootstrap's output lines.
pub async fn debian_python(engine: &Engine, progress: &mut (dyn FnMut(&str) + Send)) -> Result<String, SandboxError> {
    if let Some(id) = current_debian_python(engine).await? {
        progress(&format!("{DEBIAN_PYTHON_TAG} present: {id}"));
        return Ok(id);
    }
    let failed = |detail: String| SandboxError::ImageBuild(format!("{DEBIAN_PYTHON_TAG}: {detail}"));
    let work = tempfile::Builder::new().prefix("skillscope-debootstrap").tempdir()?;
    let rootfs = work.path().join("rootfs");
    let mut child = Command::new("debootstrap")
        .arg("--variant=minbase")
        .arg(format!("--include={DEBIAN_PACKAGES}"))
        .arg("bookworm")
        .arg(&rootfs)
        .arg(DEBIAN_MIRROR)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| failed(format!("cannot run debootstrap ({e}); install the debootstrap package")))?;
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let mut lines = stream::select(line_stream(stdout), line_stream(stderr));
    let mut last = Vec::new();
    while let Some(line) = lines.next().await {
        progress(&line);
        last.push(line);
        if last.len() > 20 {
            last.remove(0);
        }
    }
    let status = child.wait().await?;
    if !status.success() {
        return Err(failed(format!("debootstrap {status}:\n{}", last.join("\n"))));
    }
    progress("importing rootfs");
    import_rootfs(engine, &rootfs, DEBIAN_PYTHON_TAG, &[format!("LABEL {RECIPE_LABEL}={DEBIAN_PACKAGES}")]).await?;
    engine.image_id(DEBIAN_PYTHON_TAG).await?.ok_or_else(|| failed("imported image not found".into()))
}

/// One of the project's base images on this engine.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[ts(export)]
pub struct BaseImage {
    pub tag: String,
    /// What needs it.
    pub used_by: String,
    /// The local image id (`sha256:…`) when present.
    pub id: Option<String>,
    /// How "Prepare" (or `skillscope image bootstrap`) makes it on this machine.
    pub how: String,
}

/// The base images tasks and harnesses need, and which of them this engine holds.
pub async fn base_images(engine: &Engine) -> Result<Vec<BaseImage>, SandboxError> {
    let wanted = [
        (BUSYBOX_TAG, "the built-in agent, sandbox runs and the probes", "from the host's busybox-static (seconds)"),
        (
            DEBIAN_PYTHON_TAG,
            "Claude Code and other glibc harnesses, Python and pytest tasks",
            "debootstrap of Debian 12 from deb.debian.org (minutes; needs debootstrap and a Debian mirror)",
        ),
    ];
    let mut out = Vec::new();
    for (tag, used_by, how) in wanted {
        out.push(BaseImage {
            tag: tag.into(),
            used_by: used_by.into(),
            id: if tag == DEBIAN_PYTHON_TAG {
                current_debian_python(engine).await?
            } else {
                engine.image_id(tag).await?
            },
            how: how.into(),
        });
    }
    Ok(out)
}

/// Builds every base image; returns (tag, image id) pairs.
pub async fn all(
    engine: &Engine,
    progress: &mut (dyn FnMut(&str) + Send),
) -> Result<Vec<(String, String)>, SandboxError> {
    progress(&format!("building {BUSYBOX_TAG}"));
    let busybox = busybox(engine).await?;
    progress(&format!("building {DEBIAN_PYTHON_TAG} (debootstrap, several minutes)"));
    let debian = debian_python(engine, progress).await?;
    Ok(vec![(BUSYBOX_TAG.to_string(), busybox), (DEBIAN_PYTHON_TAG.to_string(), debian)])
}

fn line_stream(reader: impl AsyncRead + Unpin + Send + 'static) -> stream::BoxStream<'static, String> {
    stream::unfold(BufReader::new(reader).lines(), |mut lines| async move {
        let line = lines.next_line().await.ok().flatten()?;
        Some((line, lines))
    })
    .boxed()
}

/// `docker import` of a directory, streamed through the host's `tar`.
async fn import_rootfs(engine: &Engine, rootfs: &Path, tag: &str, changes: &[String]) -> Result<(), SandboxError> {
    let mut tar = Command::new("tar")
        .args(["--numeric-owner", "-C"])
        .arg(rootfs)
        .args(["-cf", "-", "."])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let stdout = tar.stdout.take().expect("piped stdout");
    let body = stream::unfold(stdout, |mut out| async move {
        let mut buf = vec![0u8; 1 << 16];
        match out.read(&mut buf).await {
            Ok(0) => None,
            Ok(n) => {
                buf.truncate(n);
                Some((Ok(Bytes::from(buf)), out))
            }
            Err(e) => Some((Err(e), out)),
        }
    });
    let (repo, version) = tag.rsplit_once(':').unwrap_or((tag, "latest"));
    let options = CreateImageOptionsBuilder::default()
        .from_src("-")
        .repo(repo)
        .tag(version)
        .changes(
            [format!("LABEL {MANAGED_LABEL}=true"), format!("ENV {PATH_ENV}"), "CMD [\"bash\"]".to_string()]
                .into_iter()
                .chain(changes.iter().cloned())
                .collect(),
        )
        .build();
    let mut progress = engine.docker.create_image(Some(options), Some(bollard::body_try_stream(body)), None);
    while let Some(info) = progress.next().await {
        info.map_err(|e| SandboxError::ImageBuild(format!("{tag}: import failed: {e}")))?;
    }
    let status = tar.wait().await?;
    if !status.success() {
        return Err(SandboxError::ImageBuild(format!("{tag}: tar {status}")));
    }
    Ok(())
}
