//! The HTTP stack's own limit, for `bench/serve.sh`: the server `errata serve` runs (the same
//! runtime, layers and graceful shutdown), answering `POST /api/v1/match` with a fixed JSON
//! body of the given size instead of looking anything up.
//!
//! Usage: `cargo run --release --example fixed_body -- ADDR BYTES`

#![allow(clippy::print_stderr)] // a bench tool: it prints.

use std::sync::Arc;

use axum::body::Bytes;
use axum::http::header;
use axum::routing::post;
use axum::Router;
use errata_api::http::{self, Limits};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(addr), Some(bytes)) = (args.next(), args.next()) else {
        eprintln!("usage: fixed_body ADDR BYTES");
        std::process::exit(2);
    };
    let bytes: usize = bytes.parse().unwrap_or_else(|_| {
        eprintln!("fixed_body: BYTES must be a number, not {bytes}");
        std::process::exit(2);
    });
    // A JSON string of `bytes` bytes in all, as an answer of that size is.
    let body: Arc<Bytes> = Arc::new(format!("\"{}\"", "x".repeat(bytes.saturating_sub(2))).into());
    let router = Router::new().route(
        "/api/v1/match",
        post(move |_body: Bytes| {
            let body = Bytes::clone(&body);
            async move { ([(header::CONTENT_TYPE, "application/json")], body) }
        }),
    );
    let router = http::limited(router, Limits::default());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&addr).await?;
        eprintln!("fixed_body: serving {bytes} bytes on http://{addr}");
        http::serve(listener, router).await
    })
}
