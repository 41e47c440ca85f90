//! `skillscope engine`: which container engine answers, or why none does and the fix; with an
//! engine, the base images it holds.

use skillscope_api::sandbox::EngineState;
use skillscope_api::AppError;

/// Exit status: success when an engine answers.
pub(crate) fn run(json: bool) -> Result<bool, AppError> {
    let status = skillscope_api::engine::status()?;
    let running = status.state == EngineState::Running;
    let images = if running { Some(skillscope_api::engine::base_images()?) } else { None };
    if json {
        println!("{}", serde_json::json!({ "engine": status, "images": images }));
        return Ok(running);
    }
    match (&status.endpoint, &status.version) {
        (Some(endpoint), version) => {
            println!("running: {} at {} ({})", version.as_deref().unwrap_or("engine"), endpoint.host, endpoint.source)
        }
        (None, _) => println!("{}", status.state.label()),
    }
    for check in status.checked.iter().filter(|c| c.problem.is_some()) {
        println!(
            "  {} ({}): {}",
            check.endpoint.host,
            check.endpoint.source,
            check.problem.as_deref().unwrap_or_default()
        );
    }
    if let Some(fix) = &status.fix {
        println!("fix: {fix}");
    }
    for image in images.iter().flatten() {
        match &image.id {
            Some(id) => println!("image {}: {id}", image.tag),
            None => println!(
                "image {}: missing ({}); `skillscope image bootstrap` builds it {}",
                image.tag, image.used_by, image.how
            ),
        }
    }
    Ok(running)
}
