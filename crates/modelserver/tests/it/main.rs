//! Integration tests of the scripted model server over real HTTP, and of its binary. One binary, one module per subject.

mod apis;
mod binary;
mod common;
mod control;
mod faults;
