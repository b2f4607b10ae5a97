//! The HTTP API, through the router without a socket, and `errata serve` on a real socket.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use errata_api::http::{openapi, router, Limits, Service, ROUTES};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use crate::lookup::twin_tree;
use crate::util::{errata_cmd, Scratch};

struct Api {
    scratch: Scratch,
    app: axum::Router,
}

fn api_with(limits: Limits) -> Api {
    let scratch = twin_tree();
    let service = Service::open(&scratch.db()).expect("the store opens");
    Api {
        app: router(Arc::new(service), limits),
        scratch,
    }
}

fn api() -> Api {
    api_with(Limits::default())
}

impl Api {
    async fn call(&self, method: &str, uri: &str, body: impl Into<Body>) -> (StatusCode, Vec<u8>) {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .body(body.into())
            .unwrap();
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
        (status, bytes)
    }

    async fn json(&self, method: &str, uri: &str, body: impl Into<Body>) -> (StatusCode, Value) {
        let (status, bytes) = self.call(method, uri, body).await;
        let v = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            panic!(
                "{uri} answered no JSON ({e}): {}",
                String::from_utf8_lossy(&bytes)
            )
        });
        (status, v)
    }

    async fn get(&self, uri: &str) -> (StatusCode, Value) {
        self.json("GET", uri, Body::empty()).await
    }
}

fn assert_error(status: StatusCode, v: &Value, want: StatusCode) {
    assert_eq!(status, want, "{v}");
    assert_eq!(v["error"]["status"], want.as_u16());
    assert!(!v["error"]["message"].as_str().unwrap().is_empty());
}

#[tokio::test]
async fn health_stats_and_unknown_routes() {
    let a = api();
    let (status, v) = a.get("/healthz").await;
    assert_eq!(
        (status, v),
        (StatusCode::OK, serde_json::json!({"status": "ok"}))
    );
    let (status, v) = a.get("/api/v1/stats").await;
    assert_eq!(status, StatusCode::OK);
    let cli: Value = serde_json::from_str(&a.scratch.ok(&["stats", "--json"])).unwrap();
    assert_eq!(v, cli);
    assert!(v["records"].as_u64().unwrap() >= 10);
    let (status, v) = a.get("/api/v2/nothing").await;
    assert_error(status, &v, StatusCode::NOT_FOUND);
    let (status, v) = a.json("DELETE", "/api/v1/stats", Body::empty()).await;
    assert_error(status, &v, StatusCode::METHOD_NOT_ALLOWED);
}

/// What nobody vetted gets an error in the API's form, never a server error: a method no route
/// takes (found by the `http` fuzz target), a body over the limit, a body that is not UTF-8 or
/// not the JSON a client may think it sends, and a query string as long as a URI can be.
#[tokio::test]
async fn hostile_requests_get_json_errors() {
    let a = api_with(Limits {
        body_bytes: 1024,
        ..Limits::default()
    });
    let (status, v) = a.json("learGET", "/api/v1/errors", Body::empty()).await;
    assert_error(status, &v, StatusCode::METHOD_NOT_ALLOWED);
    let (status, v) = a.json("POST", "/api/v1/match", "x".repeat(4096)).await;
    assert_error(status, &v, StatusCode::PAYLOAD_TOO_LARGE);
    // A key whose percent-encoding is no UTF-8 (found by the `http` fuzz target).
    let (status, v) = a.get("/api/v1/errors/=Klease%c3%28Code").await;
    assert_error(status, &v, StatusCode::BAD_REQUEST);
    // Text that is not UTF-8 is read as far as it goes, and answered.
    let (status, v) = a
        .json("POST", "/api/v1/match", b"no such lease: \xff\xfe".to_vec())
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = a.json("POST", "/api/v1/match", "{\"text\": ").await;
    assert!(
        status.is_success() || status.is_client_error(),
        "{status}: {v}"
    );
    // The longest target a request can carry here; 10 MB ones are refused on the socket
    // (`serve_listens_answers_and_stops_on_sigterm`).
    let huge = "a".repeat(60_000);
    for uri in [
        format!("/api/v1/errors?q={huge}"),
        format!("/api/v1/errors?page={huge}"),
        format!("/api/v1/match?limit={huge}"),
    ] {
        let method = if uri.contains("match") { "POST" } else { "GET" };
        let (status, v) = a.json(method, &uri, "no such lease: x").await;
        assert!(!status.is_server_error(), "{status}: {v}");
    }
}

#[tokio::test]
async fn search_filters_and_pages() {
    let a = api();
    let (status, all) = a.get("/api/v1/errors?per_page=100").await;
    assert_eq!(status, StatusCode::OK);
    let total = all["total"].as_u64().unwrap();
    assert_eq!(all["results"].as_array().unwrap().len() as u64, total);
    let (_, v) = a.get("/api/v1/errors?q=LEASE&type=panic").await;
    assert!(v["total"].as_u64().unwrap() >= 2, "{v}");
    for r in v["results"].as_array().unwrap() {
        assert!(r["errorMessage"].as_str().unwrap().contains("lease"));
        assert_eq!(r["errorType"], "panic");
    }
    let (_, v) = a.get("/api/v1/errors?lang=java").await;
    assert!(v["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["filePath"].as_str().unwrap().ends_with(".java")));
    // Pages partition the results.
    let (_, p1) = a.get("/api/v1/errors?per_page=3&page=1").await;
    let (_, p2) = a.get("/api/v1/errors?per_page=3&page=2").await;
    assert_eq!(p1["total"], total);
    assert_eq!(p1["results"][0], all["results"][0]);
    assert_eq!(p2["results"][0], all["results"][3]);
    let (_, far) = a.get("/api/v1/errors?page=1000").await;
    assert_eq!(far["results"].as_array().unwrap().len(), 0);
    // A tag of one record finds it.
    let tag = all["results"][0]["tags"][0].as_str().unwrap().to_owned();
    let (_, v) = a.get(&format!("/api/v1/errors?tag={tag}")).await;
    assert!(v["total"].as_u64().unwrap() >= 1);
    for bad in [
        "/api/v1/errors?type=oops",
        "/api/v1/errors?page=0",
        "/api/v1/errors?page=x",
    ] {
        let (status, v) = a.get(bad).await;
        assert_error(status, &v, StatusCode::BAD_REQUEST);
    }
}

#[tokio::test]
async fn one_record_by_id_or_slug() {
    let a = api();
    let (_, all) = a.get("/api/v1/errors").await;
    let r = &all["results"][0];
    let (status, v) = a
        .get(&format!("/api/v1/errors/{}", r["id"].as_str().unwrap()))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(&v, r);
    let (status, v) = a
        .get(&format!("/api/v1/errors/{}", r["slug"].as_str().unwrap()))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["slug"], r["slug"]);
    let (status, v) = a.get("/api/v1/errors/ffffffffffffffff").await;
    assert_error(status, &v, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn match_answers_as_explain_does() {
    let a = api();
    let trace = "panic: lease 7 expired\n\ngoroutine 1 [running]:\nexample.com/pool.Release(0x7)\n\t/home/ci/src/go/pool/b.go:7 +0x1d\n";
    let (status, v) = a.json("POST", "/api/v1/match", trace).await;
    assert_eq!(status, StatusCode::OK);
    let cli = a.scratch.ok(&["explain", "--json", "-n", "5", trace]);
    let cli: Value = serde_json::from_str(&cli).unwrap();
    assert_eq!(v, cli);
    assert_eq!(v["matches"][0]["record"]["filePath"], "go/pool/b.go");
    // Nothing matching: approximate answers, or none, still 200.
    let (status, v) = a
        .json("POST", "/api/v1/match", "lease 7 was released already")
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["matches"][0]["approximate"], true);
    // The server counts the index's words once; explain looks each up: the same answer.
    let out = a.scratch.errata(&[
        "explain",
        "--json",
        "-n",
        "5",
        "lease 7 was released already",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v, cli);
    let (status, v) = a.json("POST", "/api/v1/match", "   ").await;
    assert_error(status, &v, StatusCode::BAD_REQUEST);
    let (status, v) = a
        .json("POST", "/api/v1/match?limit=1", "lease 7 expired")
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["matches"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn bodies_over_the_limit_are_refused() {
    let a = api_with(Limits {
        body_bytes: 1024,
        ..Limits::default()
    });
    let (status, _) = a.call("POST", "/api/v1/match", "x".repeat(4096)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn export_streams_the_dataset() {
    let a = api();
    let (status, bytes) = a.call("GET", "/api/v1/export", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    let strip = |text: &str| -> Vec<Value> {
        text.lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                assert!(v["datasetVersion"].is_string());
                v["datasetVersion"] = Value::Null;
                v
            })
            .collect()
    };
    let served = strip(std::str::from_utf8(&bytes).unwrap());
    let cli = strip(&a.scratch.ok(&["export"]));
    assert_eq!(served, cli);
    assert!(!served.is_empty());
}

#[tokio::test]
async fn the_openapi_document_lists_every_route_and_each_answers() {
    let a = api();
    let (status, doc) = a.get("/api/v1/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc, openapi());
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    assert_eq!(paths.len(), ROUTES.len());
    let (_, all) = a.get("/api/v1/errors").await;
    let id = all["results"][0]["id"].as_str().unwrap().to_owned();
    for (method, path, _) in ROUTES {
        let op = &paths[*path][*method];
        assert!(op["responses"]["200"].is_object(), "{method} {path}");
        assert!(op["operationId"].is_string());
        let uri = path.replace("{key}", &id);
        let body = if *method == "post" {
            "lease 7 expired"
        } else {
            ""
        };
        let (status, _) = a.call(&method.to_uppercase(), &uri, body).await;
        assert_eq!(status, StatusCode::OK, "{method} {uri}");
    }
    // Every $ref points at a schema the document defines.
    let text = doc.to_string();
    for r in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
        let name = &r[..r.find('"').unwrap()];
        assert!(doc["components"]["schemas"][name].is_object(), "{name}");
    }
}

/// The whole answer of `GET /healthz` on a connection of its own.
fn health(addr: &str) -> String {
    use std::io::{Read, Write};
    let mut conn = std::net::TcpStream::connect(addr).unwrap();
    write!(
        conn,
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    conn.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn serve_listens_answers_and_stops_on_sigterm() {
    use std::io::{BufRead, Read, Write};
    let s = twin_tree();
    let mut child = errata_cmd()
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(s.db())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    let answer = health(&addr);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.ends_with("{\"status\":\"ok\"}"), "{answer}");
    // A request line of 10 MB is refused with a 4xx before it is read to its end, and the
    // server goes on answering.
    let mut conn = std::net::TcpStream::connect(&addr).unwrap();
    let huge = format!(
        "GET /api/v1/errors?q={} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "a".repeat(10 << 20)
    );
    let _ = conn.write_all(huge.as_bytes());
    let mut answer = String::new();
    let _ = conn.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 4"), "{:.200}", answer);
    let answer = health(&addr);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("stopped"), "{rest}");
}
