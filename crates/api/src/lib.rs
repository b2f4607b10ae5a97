//! errata's knowledge base as a service. [`lookup`] answers "which record produced this
//! text?" the same way for every front end (`errata explain --json`, the HTTP API, the MCP
//! server); [`http`] is the HTTP JSON API.

pub mod http;
pub mod lookup;
