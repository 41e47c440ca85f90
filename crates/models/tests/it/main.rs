//! Integration tests of the provider clients against the scripted model server. One binary, one module per subject.

mod providers;
mod proxy;
