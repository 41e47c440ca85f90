//! Integration tests against the real Docker engine, as one test binary with one module per
//! subject. They need a running engine and `busybox-static`; `debootstrap` needs the
//! `debootstrap` package and the Debian mirror the first time.

mod common;
mod debootstrap;
mod limits;
mod run_once;
mod sandbox;
