//! errata's integration tests: the binary run as a user runs it.
#![allow(clippy::print_stderr, clippy::print_stdout)]

mod api;
mod browser;
mod corpora;
mod enrich;
mod explanations;
mod golden;
mod import;
mod languages;
mod lookup;
mod mcp;
mod pastes;
mod robustness;
mod util;
mod web;
