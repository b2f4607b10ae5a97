//! The web pages, through the router: search, a record, paste a stack trace, a repository, and
//! a message written to attack the page.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use errata_api::http::{router, Limits, Service};
use http_body_util::BodyExt;
use tower::ServiceExt;

use crate::lookup::twin_tree;
use crate::util::Scratch;

async fn fetch(app: &axum::Router, req: Request<Body>) -> (StatusCode, String) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

async fn get(app: &axum::Router, uri: &str) -> (StatusCode, String) {
    fetch(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

fn app_for(s: &Scratch) -> axum::Router {
    router(Arc::new(Service::open(&s.db()).unwrap()), Limits::default())
}

#[tokio::test]
async fn search_record_paste_and_repository_pages() {
    let s = twin_tree();
    let app = app_for(&s);
    let (status, html) = get(&app, "/?q=lease&type=panic").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<form class=search"), "{html}");
    assert!(html.contains("lease {} was already released"), "{html}");
    let id_start = html.find("href=\"/errors/").unwrap() + "href=\"/errors/".len();
    let id = &html[id_start..id_start + 16];

    let (status, html) = get(&app, &format!("/errors/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("class=raise"), "the raising line is marked");
    assert!(
        html.contains("<span class=\"hl-keyword\">"),
        "the source is highlighted: {html}"
    );
    assert!(html.contains("<h2>Solutions</h2>"));
    let (status, _) = get(&app, "/errors/nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, html) = get(&app, "/match").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<textarea name=text>"));
    let trace = "thread 'main' panicked at rs/src/b.rs:3:5:\nlease 7 was already released\n";
    let form = format!(
        "text={}",
        trace
            .replace(' ', "+")
            .replace('\n', "%0A")
            .replace('\'', "%27")
            .replace(':', "%3A")
            .replace('/', "%2F")
    );
    let req = Request::post("/match")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form))
        .unwrap();
    let (status, html) = fetch(&app, req).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("exact, score"), "{html}");
    assert!(html.contains("rs/src/b.rs"), "{html}");
    assert!(
        html.contains("<code>7</code>"),
        "the captured value is shown: {html}"
    );

    let (status, html) = get(&app, "/repo?name=acme/twins").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("By type") && html.contains("panic"), "{html}");
}

#[tokio::test]
async fn a_hostile_message_is_shown_not_run() {
    let s = Scratch::new();
    s.write(
        "app.js",
        "function f() {\n  throw new Error(\"</script><script>alert(1)</script><img src=x onerror=alert(2)>\");\n}\n",
    );
    s.ok(&["index", ".", "--repo", "evil/site"]);
    let app = app_for(&s);
    let (_, list) = get(&app, "/?q=script").await;
    let (_, paste) = fetch(
        &app,
        Request::post("/match")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(
                "text=Error%3A+%3C%2Fscript%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E%3Cimg+src%3Dx+onerror%3Dalert(2)%3E",
            ))
            .unwrap(),
    )
    .await;
    let id_start = list.find("href=\"/errors/").unwrap() + "href=\"/errors/".len();
    let (_, record) = get(&app, &format!("/errors/{}", &list[id_start..id_start + 16])).await;
    for html in [&list, &paste, &record] {
        assert!(
            html.contains("&lt;/script&gt;&lt;script&gt;alert(1)"),
            "{html}"
        );
        assert!(!html.contains("<script>"), "{html}");
        assert!(!html.contains("<img src=x"), "{html}");
    }
}
