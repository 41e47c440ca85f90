//! The container engine as the user meets it: which one answers (or why none does), and the base
//! images it holds. The app's Runs and Settings pages and `skillscope engine` show the same.

use crate::errors::Result;
use crate::ipc::{BaseImage, EngineStatus};
use skillscope_sandbox::{bootstrap, discovery, Engine};

pub fn status() -> Result<EngineStatus> {
    let runtime = crate::runtime::current_thread("the engine check")?;
    Ok(runtime.block_on(discovery::engine_status(&discovery::Environment::from_process())))
}

pub fn base_images() -> Result<Vec<BaseImage>> {
    let runtime = crate::runtime::current_thread("the image check")?;
    Ok(runtime.block_on(async { bootstrap::base_images(&Engine::connect().await?).await })?)
}
