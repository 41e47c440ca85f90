//! Integration tests of the scanner. One binary, one module per subject.

mod api;
mod common;
mod fixtures;
mod spec;
mod walkarounds;
