//! The Skillscope desktop app: opens the workspace, seeds the sample skills on first start, hosts
//! the trial queue, and serves the command list generated from `skillscope-api`.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod commands;
mod navigation;

use skillscope_api::events::{Event, EventSink};
use skillscope_api::{import, jobs, workspace, Api, AppError, Workspace};
use std::sync::Arc;
use tauri::ipc::CapabilityBuilder;
use tauri::{AppHandle, Emitter, Manager};

fn open_workspace() -> Result<Workspace, AppError> {
    let ws = skillscope_api::open(workspace::default_home()?)?;
    let interrupted = jobs::fail_interrupted(&ws)?;
    if interrupted > 0 {
        tracing::warn!("{interrupted} job(s) were interrupted by the last exit");
    }
    if let Some(o) = import::seed_samples_once(&ws)? {
        tracing::info!("imported {} sample skill(s) into a new workspace", o.skills.len());
    }
    // The demo is a convenience: a workspace that cannot take it still opens.
    match skillscope_api::demo::seed_once(&ws) {
        Ok(Some(id)) => tracing::info!("imported the demo experiment as #{id}"),
        Ok(None) => {}
        Err(e) => tracing::warn!("{e}"),
    }
    Ok(ws)
}

/// Forwards the back end's events to the window under their declared names.
struct Window(AppHandle);

impl EventSink for Window {
    fn emit(&self, event: Event) {
        if let Err(e) = self.0.emit(event.name(), &event) {
            tracing::warn!("could not emit {}: {e}", event.name());
        }
    }
}

/// The window may open, and show in their folder, the files the app exported; nothing else. The
/// grant is made at start because the workspace (and so the folder) is chosen at run time.
fn exports_capability(exports: &std::path::Path) -> CapabilityBuilder {
    let inside = serde_json::json!({ "path": format!("{}/**", exports.display()) });
    CapabilityBuilder::new("exports")
        .window("main")
        .permission_scoped("opener:allow-open-path", vec![inside], vec![])
        .permission("opener:allow-reveal-item-in-dir")
}

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .init();
    let ws = open_workspace();
    if let Err(e) = &ws {
        tracing::error!("workspace unavailable: {e}");
    }
    let exports = ws.as_ref().ok().map(Workspace::exports_dir);
    commands::register(tauri::Builder::default())
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_notification::init())
        .plugin(navigation::guard())
        .setup(move |app| {
            if let Some(exports) = exports {
                app.add_capability(exports_capability(&exports))?;
            }
            let api = Api::new(ws, Arc::new(Window(app.handle().clone())));
            app.manage(api);
            let handle = app.handle().clone();
            tauri::async_runtime::spawn(async move { handle.state::<Api>().host_queue().await });
            Ok(())
        })
        .run(tauri::generate_context!("../tauri.conf.json"))
        .expect("error while running Skillscope");
}
