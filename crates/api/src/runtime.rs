//! A runtime for one blocking command or job that drives async engine or model code.

use crate::errors::{AppError, Result};
use tokio::runtime::{Builder, Runtime};

/// A current-thread runtime; `what` names the work in the error if it cannot start.
pub(crate) fn current_thread(what: &str) -> Result<Runtime> {
    Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| AppError::io(format!("starting the runtime of {what}"), e))
}
