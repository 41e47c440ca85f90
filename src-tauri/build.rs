fn main() {
    // tauri.conf.json lives at the workspace root; new files under ui/dist must retrigger the embed.
    println!("cargo:rerun-if-changed=../ui/dist");
    println!("cargo:rerun-if-changed=../icons");
    println!("cargo:rerun-if-changed=../tauri.conf.json");
    tauri_build::try_build(tauri_build::Attributes::new().config_path("../tauri.conf.json"))
        .expect("tauri-build failed");
}
