//! An arbitrary HTTP request to `errata serve`'s router: the first line is the method and the
//! target (`POST /api/v1/match?x=1`), the rest is the body. No request is a server error, and
//! every answer under `/api/` (but to `HEAD`, which has no body) is JSON.
#![no_main]

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use tower::ServiceExt;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|b| *b == b'\n').unwrap_or(data.len());
    let (head, body) = data.split_at(split);
    let head = String::from_utf8_lossy(head);
    let (method, target) = head.split_once(' ').unwrap_or(("GET", &head));
    let target = if target.starts_with('/') {
        target.to_owned()
    } else {
        format!("/api/v1/{target}")
    };
    let Ok(req) = Request::builder()
        .method(method)
        .uri(&target)
        .header("content-type", "application/json")
        .body(Body::from(body.get(1..).unwrap_or_default().to_vec()))
    else {
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let res = errata_fuzz::router()
            .oneshot(req)
            .await
            .expect("the router answers");
        let status = res.status();
        let is_api = target.starts_with("/api/") && method != "HEAD";
        let bytes = res.into_body().collect().await.expect("a body").to_bytes();
        assert!(!status.is_server_error(), "{status} for {target}");
        // The export is JSON Lines, whatever query or fragment follows its path.
        let path = target.split(['?', '#']).next().unwrap_or_default();
        if is_api && path != "/api/v1/export" {
            assert!(
                serde_json::from_slice::<serde_json::Value>(&bytes).is_ok(),
                "{status} for {target} is no JSON: {}",
                String::from_utf8_lossy(&bytes)
            );
        }
    });
});
