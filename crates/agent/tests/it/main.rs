//! Integration tests of skillscope-agent. One binary, one module per subject.

mod claude_code;
