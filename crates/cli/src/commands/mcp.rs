//! `errata mcp`: a Model Context Protocol server on stdio for coding agents.

use std::sync::Arc;

use anyhow::{Context, Result};
use errata_api::http::Service;
use errata_api::mcp::ErrataMcp;

use crate::{db, Global};

pub(crate) fn run(g: &Global) -> Result<()> {
    let path = db::for_reading(g)?.path().to_path_buf();
    let service = Service::open(&path)?;
    tracing::info!(records = service.records(), db = %path.display(), "MCP server ready");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the MCP server's runtime")?;
    runtime
        .block_on(ErrataMcp::new(Arc::new(service)).serve_stdio())
        .context("the MCP session failed")?;
    Ok(())
}
