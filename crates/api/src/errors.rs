//! Errors of the leaf engines as the closed `{code, message}` set the UI switches on.

use skillscope_sandbox::SandboxError;
use skillscope_store::error::{AppError, ErrorCode};

/// A fault of the container engine (unreachable, image build, lost container) is `engine`;
/// anything else the sandbox refuses is a bad request.
pub fn sandbox(e: SandboxError) -> AppError {
    let code = if e.is_infrastructure() { ErrorCode::Engine } else { ErrorCode::InvalidInput };
    AppError::new(code, e.to_string())
}
