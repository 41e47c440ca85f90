//! The Skillscope desktop app: opens the workspace, seeds the sample skills on first start, and
//! exposes the core through thin IPC commands (see `commands.rs`).
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod commands;
mod queue;

use skillscope_api::{import, jobs, workspace, AppError, Workspace};

/// The workspace, or why it could not be opened (shown by the UI instead of crashing).
pub struct AppState(pub Result<Workspace, AppError>);

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

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .init();
    let state = open_workspace();
    if let Err(e) = &state {
        tracing::error!("workspace unavailable: {e}");
    }
    let logs = queue::LiveLogs::default();
    let worker_ws = state.as_ref().ok().cloned();
    let worker_logs = logs.clone();
    tauri::Builder::default()
        .setup(move |app| {
            if let Some(ws) = worker_ws {
                queue::start(app.handle().clone(), ws, worker_logs);
            }
            Ok(())
        })
        .manage(AppState(state))
        .manage(logs)
        .invoke_handler(tauri::generate_handler![
            commands::workspace_info,
            commands::list_skills,
            commands::get_skill,
            commands::get_version,
            commands::read_file,
            commands::diff_versions,
            commands::start_import,
            commands::recent_jobs,
            commands::get_scan,
            commands::scan_pending,
            commands::export_scans,
            commands::queue_status,
            commands::list_runs,
            commands::list_trials,
            commands::trial_results,
            commands::trial_log,
            commands::set_queue_paused,
            commands::cancel_trial,
            commands::cancel_run,
            commands::start_sandbox_run,
            commands::start_agent_run,
            commands::list_providers,
            commands::save_provider,
            commands::delete_provider,
            commands::set_credential,
            commands::delete_credential,
            commands::test_credential,
            commands::list_agents,
            commands::save_agent,
            commands::delete_agent,
            commands::harness_status,
            commands::install_harness,
            commands::list_trajectories,
            commands::trajectory_summary,
            commands::trial_trajectories,
            commands::trajectory_window,
            commands::step_position,
            commands::align_pair,
            commands::import_trajectory,
            commands::create_experiment,
            commands::list_experiments,
            commands::experiment_pairs,
            commands::experiment_results,
            commands::record_decision,
            commands::list_decisions,
            commands::export_report,
            commands::experiment_charts,
        ])
        .run(tauri::generate_context!("../tauri.conf.json"))
        .expect("error while running Skillscope");
}
