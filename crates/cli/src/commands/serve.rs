//! `errata serve [--addr 127.0.0.1:8080]`: the HTTP JSON API over the knowledge base.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, Result};
use errata_api::http::{self, Limits, Service};

use crate::{db, Failure, Global};

#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// The address to listen on (port 0: any free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Requests handled at once; more wait.
    #[arg(long, default_value_t = 256)]
    concurrency: usize,
}

pub(crate) fn run(g: &Global, args: ServeArgs) -> Result<()> {
    let path = db::for_reading(g)?.path().to_path_buf();
    let service = Service::open(&path)?;
    if service.records() == 0 {
        return Err(super::lookup::empty(&path));
    }
    let records = service.records();
    let limits = Limits {
        concurrency: args.concurrency.max(1),
        ..Limits::default()
    };
    let router = http::router(Arc::new(service), limits);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| {
                Failure::Usage(format!(
                    "cannot listen on {}: {e}; is another server using it? Pass --addr HOST:PORT",
                    args.addr
                ))
            })?;
        let addr = listener.local_addr()?;
        eprintln!(
            "errata: serving {records} records of {} on http://{addr} (Ctrl-C stops)",
            path.display()
        );
        http::serve(listener, router).await?;
        eprintln!("errata: stopped");
        Ok(())
    })
}
