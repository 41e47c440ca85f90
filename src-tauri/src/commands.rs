//! The IPC handlers, generated from the one command list (`skillscope_api::with_commands!`):
//! each forwards its arguments to the `Api` method of the same name on tokio's blocking pool,
//! since `Api` methods block (and some drive a runtime of their own, which cannot start on an
//! async worker). Errors reach the UI as `{code, message}`.

use skillscope_api::ipc::*;
use skillscope_api::{Api, AppError, ErrorCode};
use tauri::{AppHandle, Manager};

macro_rules! handlers {
    ($( $(#[doc = $doc:literal])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty; )*) => {
        $(
            $(#[doc = $doc])*
            #[tauri::command]
            pub(crate) async fn $name(app: AppHandle, $($arg: $ty),*) -> Result<$ret, AppError> {
                tauri::async_runtime::spawn_blocking(move || app.state::<Api>().$name($($arg),*))
                    .await
                    .map_err(|e| AppError::new(ErrorCode::Internal, format!("command {} panicked: {e}", stringify!($name))))?
            }
        )*

        /// Registers every handler.
        pub(crate) fn register(builder: tauri::Builder<tauri::Wry>) -> tauri::Builder<tauri::Wry> {
            builder.invoke_handler(tauri::generate_handler![$($name),*])
        }
    };
}

skillscope_api::with_commands!(handlers);
