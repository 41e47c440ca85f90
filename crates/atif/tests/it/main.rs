//! Integration tests of the ATIF layer. One binary, one module per subject.

mod import;
mod recording;
mod redact;
mod reference;
mod rules;
