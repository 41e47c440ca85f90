//! The IPC handlers, generated from the one command list (`skillscope_api::with_commands!`):
//! each forwards its arguments to the `Api` method of the same name. Errors reach the UI as
//! `{code, message}`.

use skillscope_api::ipc::*;
use skillscope_api::{Api, AppError};
use tauri::State;

macro_rules! handlers {
    ($( $(#[doc = $doc:literal])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty; )*) => {
        $(
            $(#[doc = $doc])*
            #[tauri::command(async)]
            pub(crate) fn $name(api: State<'_, Api>, $($arg: $ty),*) -> Result<$ret, AppError> {
                api.$name($($arg),*)
            }
        )*

        /// Registers every handler.
        pub(crate) fn register(builder: tauri::Builder<tauri::Wry>) -> tauri::Builder<tauri::Wry> {
            builder.invoke_handler(tauri::generate_handler![$($name),*])
        }
    };
}

skillscope_api::with_commands!(handlers);
