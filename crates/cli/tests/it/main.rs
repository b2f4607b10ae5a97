//! errata's integration tests: the binary run as a user runs it.

mod corpora;
mod golden;
mod languages;
mod robustness;
mod util;
