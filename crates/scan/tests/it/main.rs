//! Integration tests of the scanner. One binary, one module per subject.

mod api;
mod common;
mod fixtures;
mod semantic;
mod spec;
mod walkarounds;
