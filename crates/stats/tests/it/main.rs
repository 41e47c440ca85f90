//! Integration tests of the statistics engine. One binary, one module per subject.

mod realistic;
mod reference;
mod report;
