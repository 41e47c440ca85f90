//! Compiles `forwarder/main.rs` with rustc into a fully static executable that the crate
//! embeds: it has to run inside any trial image, including busybox ones with no libc at all.

use std::env;
use std::path::PathBuf;
use std::process::Command;

const SOURCE: &str = "forwarder/main.rs";

fn main() {
    println!("cargo:rerun-if-changed={SOURCE}");
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR")).join("egress-forwarder");
    let target = env::var("TARGET").expect("TARGET");
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os != "linux" {
        // Containers are Linux; a forwarder for them would need a Linux cross toolchain.
        // The crate then embeds nothing and `write_forwarder` reports it.
        println!("cargo:warning=egress forwarder not built: target {target} is not Linux");
        std::fs::write(&out, b"").expect("write empty forwarder");
        return;
    }
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = Command::new(rustc)
        .args(["--edition", "2021", "--crate-type", "bin", "--crate-name", "egress_forwarder"])
        .args(["-C", "opt-level=s", "-C", "panic=abort", "-C", "target-feature=+crt-static"])
        .args(["-C", "strip=symbols", "-C", "codegen-units=1"])
        .args(["--target", &target])
        .arg("-o")
        .arg(&out)
        .arg(SOURCE)
        .output()
        .expect("run rustc for the egress forwarder");
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let hint = if target.contains("gnu") {
            "a static glibc is needed: install the glibc static libraries (Debian/Ubuntu: libc6-dev, \
             Fedora: glibc-static)"
        } else {
            "a static C library for the target is needed"
        };
        panic!("building the static egress forwarder ({SOURCE}) for {target} failed; {hint}.\nrustc said:\n{stderr}");
    }
}
