//! errata's knowledge base as a service. [`lookup`] answers "which record produced this
//! text?" the same way for every front end (`errata explain --json`, the HTTP API, the MCP
//! server); [`http`] is the HTTP JSON API, [`web`] its pages, [`mcp`] the Model Context
//! Protocol server for coding agents.

mod highlight;
pub mod http;
pub mod lookup;
pub mod mcp;
pub mod web;

/// The current time as records and dataset versions write it: UTC, milliseconds, `Z`.
pub fn now() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}
