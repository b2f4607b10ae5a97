//! The HTTP JSON API, read-only over the store.
//!
//! | route | answers |
//! | --- | --- |
//! | `GET /api/v1/errors?q=&repo=&lang=&type=&tag=&page=&per_page=` | `{"total", "page", "perPage", "results": [record]}` |
//! | `GET /api/v1/errors/{id-or-slug}` | one record |
//! | `POST /api/v1/match` (the text as the body) | `{"matches": [...]}`, as `errata explain --json` |
//! | `GET /api/v1/export` | the dataset as JSON Lines, streamed |
//! | `GET /api/v1/stats` | counts by repository, language and type |
//! | `GET /api/v1/openapi.json` | the OpenAPI 3 document of these routes ([`openapi`]) |
//! | `GET /healthz` | `{"status": "ok"}` |
//!
//! Errors are JSON, `{"error": {"status": n, "message": "..."}}`, with a message that says what
//! to do; internal details go to the log only. Bodies are limited in size, requests in time and
//! in number at once.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use errata_matcher::Matcher;
use errata_model::{ErrorType, ExportLine};
use errata_store::{Filter, MessageIndex, Store};
use serde::Deserialize;
use serde_json::json;

use crate::lookup;

/// The routes, as (method, path, summary): the router and the OpenAPI document are both made
/// from this list.
pub const ROUTES: &[(&str, &str, &str)] = &[
    ("get", "/healthz", "Liveness: the server answers"),
    ("get", "/api/v1/errors", "Search the records"),
    ("get", "/api/v1/errors/{key}", "One record, by id or slug"),
    (
        "post",
        "/api/v1/match",
        "Match an error message, log excerpt or stack trace to its records",
    ),
    (
        "get",
        "/api/v1/export",
        "The dataset as JSON Lines (schema v2)",
    ),
    ("get", "/api/v1/stats", "Counts of the records"),
    ("get", "/api/v1/openapi.json", "This document"),
];

/// Limits on what one request may cost.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub body_bytes: usize,
    pub timeout: Duration,
    pub concurrency: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body_bytes: 1 << 20,
            timeout: Duration::from_secs(10),
            concurrency: 256,
        }
    }
}

/// What the handlers share: the matcher over every record, and connections to the store.
pub struct Service {
    db: PathBuf,
    matcher: Matcher,
    /// The message index, for the approximate search.
    message_index: MessageIndex,
    records: usize,
    pool: Mutex<Vec<Store>>,
}

/// Connections kept for reuse; more are opened under load and closed after.
const POOL: usize = 16;

impl Service {
    /// Opens the store at `db` and builds the matcher over its records.
    pub fn open(db: &Path) -> errata_store::Result<Service> {
        let store = Store::open_existing(db)?;
        let rows = store.match_rows()?;
        let records = rows.len();
        let (matcher, report) = Matcher::new(rows);
        if !report.refused.is_empty() {
            tracing::warn!(
                refused = report.refused.len(),
                "records with a messagePattern errata cannot run are left out of matching"
            );
        }
        let message_index = store.message_index()?;
        Ok(Service {
            db: db.to_path_buf(),
            matcher,
            message_index,
            records,
            pool: Mutex::new(vec![store]),
        })
    }

    /// The records that produced `text` (a message, log excerpt or stack trace), best first,
    /// as `errata explain --json` answers.
    pub fn explain(&self, text: &str, limit: usize) -> Result<lookup::Answer, ApiError> {
        self.with_store(|store| {
            Ok(lookup::explain_with(
                store,
                &self.matcher,
                &self.message_index,
                text,
                limit,
            )?)
        })
    }

    /// How many records the matcher was built over.
    pub fn records(&self) -> usize {
        self.records
    }

    pub(crate) fn with_store<T>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let pooled = self.pool.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let store = match pooled {
            Some(s) => s,
            None => Store::open_existing(&self.db)?,
        };
        let out = store.reading(f)?;
        let mut pool = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() < POOL {
            pool.push(store);
        }
        out
    }
}

/// The API's router.
pub fn router(service: Arc<Service>, limits: Limits) -> Router {
    let router = Router::new()
        .route("/healthz", get(healthz))
        .route("/api/v1/errors", get(search))
        .route("/api/v1/errors/{key}", get(get_error))
        .route("/api/v1/match", post(match_text))
        .route("/api/v1/export", get(export))
        .route("/api/v1/stats", get(stats))
        .route("/api/v1/openapi.json", get(openapi_json))
        .route("/", get(crate::web::search))
        .route("/errors/{key}", get(crate::web::record))
        .route(
            "/match",
            get(crate::web::match_form).post(crate::web::match_post),
        )
        .route("/repo", get(crate::web::repo))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(service);
    limited(router, limits)
}

/// `router` under the server's limits: the body size, the time of a request and how many are
/// handled at once.
pub fn limited(router: Router, limits: Limits) -> Router {
    router
        .layer(DefaultBodyLimit::max(limits.body_bytes))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            limits.timeout,
        ))
        .layer(tower::limit::ConcurrencyLimitLayer::new(limits.concurrency))
}

/// Serves `router` on `listener` until SIGINT or SIGTERM, then finishes the requests under way.
pub async fn serve(listener: tokio::net::TcpListener, router: Router) -> std::io::Result<()> {
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown())
        .await
}

async fn shutdown() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("shutting down: finishing the requests under way");
}

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<errata_store::Error> for ApiError {
    fn from(e: errata_store::Error) -> ApiError {
        tracing::error!(error = %e, "store error");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the knowledge base could not be read; the server log has the details",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"status": self.status.as_u16(), "message": self.message}});
        (self.status, Json(body)).into_response()
    }
}

type Shared = State<Arc<Service>>;

async fn healthz() -> Json<serde_json::Value> {
    Json(json!({"status": "ok"}))
}

async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} does not take {method}; GET /api/v1/openapi.json lists each route's methods",
            uri.path()
        ),
    )
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such route; GET /api/v1/openapi.json lists the routes",
    )
}

#[derive(Debug, Deserialize)]
struct SearchParams {
    q: Option<String>,
    repo: Option<String>,
    lang: Option<String>,
    #[serde(rename = "type")]
    error_type: Option<String>,
    tag: Option<String>,
    page: Option<u64>,
    per_page: Option<u64>,
}

const PER_PAGE: u64 = 20;
const MAX_PER_PAGE: u64 = 100;

async fn search(
    State(s): Shared,
    params: Result<Query<SearchParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Ok(Query(p)) = params else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad query: page and per_page are numbers; q, repo, lang, type and tag are text",
        ));
    };
    if let Some(t) = &p.error_type {
        if ErrorType::parse(t).is_none() {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                ErrorType::unknown(t),
            ));
        }
    }
    let page = p.page.unwrap_or(1);
    if page == 0 {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "pages count from 1"));
    }
    let per_page = p.per_page.unwrap_or(PER_PAGE).clamp(1, MAX_PER_PAGE);
    let filter = Filter {
        repo: p.repo,
        lang: p.lang,
        error_type: p.error_type,
        text: p.q.filter(|q| !q.is_empty()),
        tag: p.tag,
        limit: Some(per_page),
        offset: Some((page - 1).saturating_mul(per_page)),
    };
    s.with_store(|store| {
        let (total, results) = store.page(&filter)?;
        Ok(
            Json(json!({"total": total, "page": page, "perPage": per_page, "results": results}))
                .into_response(),
        )
    })
}

async fn get_error(
    State(s): Shared,
    key: Result<UrlPath<String>, axum::extract::rejection::PathRejection>,
) -> Result<Response, ApiError> {
    // A key that is no text (`%c3%28`, found by the `http` fuzz target) gets the API's error.
    let UrlPath(key) = key.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    s.with_store(|store| {
        let mut found = store.find(&key)?;
        if found.is_empty() {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!(
                    "no record has the id or slug {key:?}; GET /api/v1/errors?q=TEXT searches them"
                ),
            ));
        }
        Ok(Json(found.swap_remove(0)).into_response())
    })
}

#[derive(Debug, Deserialize)]
struct MatchParams {
    limit: Option<usize>,
}

async fn match_text(
    State(s): Shared,
    params: Result<Query<MatchParams>, QueryRejection>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    // A body over the limit is refused in the API's own form, with the limit to keep to.
    let body = body.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    let text = String::from_utf8_lossy(&body);
    if text.trim().is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "the body is empty: POST the error message, log excerpt or stack trace as the body",
        ));
    }
    let limit = params
        .ok()
        .and_then(|Query(p)| p.limit)
        .unwrap_or(5)
        .clamp(1, 50);
    let answer = s.explain(&text, limit)?;
    Ok(Json(answer).into_response())
}

async fn export(State(s): Shared) -> Response {
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    let db = s.db.clone();
    tokio::task::spawn_blocking(move || {
        let version = crate::now();
        let store = match Store::open_existing(&db) {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(error = %e, "export: cannot open the store");
                let _ = tx.blocking_send(Err(std::io::Error::other("the store cannot be read")));
                return;
            }
        };
        let mut buf = Vec::with_capacity(1 << 16);
        let result = store.for_each(&Filter::default(), |record| {
            let line = ExportLine {
                record: std::borrow::Cow::Owned(record),
                dataset_version: version.clone(),
            };
            serde_json::to_writer(&mut buf, &line)?;
            buf.push(b'\n');
            if buf.len() >= 1 << 16 {
                let chunk = Bytes::from(std::mem::take(&mut buf));
                // The client went away: stop reading.
                tx.blocking_send(Ok(chunk))
                    .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
            }
            Ok(())
        });
        match result {
            Ok(Ok(())) => {
                let _ = tx.blocking_send(Ok(Bytes::from(buf)));
            }
            Ok(Err(_)) => {}
            Err(e) => {
                tracing::error!(error = %e, "export failed");
                let _ = tx.blocking_send(Err(std::io::Error::other("the export failed")));
            }
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response()
}

async fn stats(State(s): Shared) -> Result<Response, ApiError> {
    s.with_store(|store| Ok(Json(store.stats()?.to_json()).into_response()))
}

async fn openapi_json() -> Json<serde_json::Value> {
    Json(openapi())
}

/// The OpenAPI 3 document of [`ROUTES`].
pub fn openapi() -> serde_json::Value {
    let error = json!({"description": "An error, with a message that says what to do",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}});
    let mut paths = serde_json::Map::new();
    for (method, path, summary) in ROUTES {
        let mut op = json!({
            "summary": summary,
            "operationId": operation_id(method, path),
            "responses": {"200": {"description": "OK"}, "default": error},
        });
        match *path {
            "/api/v1/errors" => {
                op["parameters"] = json!([
                    query_param("q", "string", "text the message contains, in any case"),
                    query_param("repo", "string", "OWNER/NAME"),
                    query_param(
                        "lang",
                        "string",
                        "typescript, javascript, python, go, rust or java"
                    ),
                    query_param(
                        "type",
                        "string",
                        "exception, error-return, panic, assertion, http, log or exit"
                    ),
                    query_param("tag", "string", "one of the record's tags"),
                    query_param("page", "integer", "from 1"),
                    query_param("per_page", "integer", "1 to 100, default 20"),
                ]);
                op["responses"]["200"]["content"] = json!({"application/json": {"schema": {
                    "type": "object", "required": ["total", "results"],
                    "properties": {"total": {"type": "integer"}, "page": {"type": "integer"},
                        "perPage": {"type": "integer"},
                        "results": {"type": "array", "items": {"$ref": "#/components/schemas/Record"}}}}}});
            }
            "/api/v1/errors/{key}" => {
                op["parameters"] = json!([{"name": "key", "in": "path", "required": true,
                    "description": "a record id (16 hex digits) or slug", "schema": {"type": "string"}}]);
                op["responses"]["200"]["content"] = json!({"application/json": {"schema": {"$ref": "#/components/schemas/Record"}}});
            }
            "/api/v1/match" => {
                op["parameters"] = json!([query_param(
                    "limit",
                    "integer",
                    "records to return, 1 to 50, default 5"
                )]);
                op["requestBody"] = json!({"required": true, "content": {"text/plain": {"schema": {"type": "string"}}}});
                op["responses"]["200"]["content"] = json!({"application/json": {"schema": {"$ref": "#/components/schemas/Answer"}}});
            }
            "/api/v1/export" => {
                op["responses"]["200"]["content"] =
                    json!({"application/x-ndjson": {"schema": {"type": "string"}}});
            }
            _ => {
                op["responses"]["200"]["content"] =
                    json!({"application/json": {"schema": {"type": "object"}}});
            }
        }
        let entry = paths.entry(path.to_string()).or_insert_with(|| json!({}));
        entry[*method] = op;
    }
    json!({
        "openapi": "3.0.3",
        "info": {"title": "errata", "version": env!("CARGO_PKG_VERSION"),
            "description": "The errors a codebase can raise, and the records that match runtime error text."},
        "paths": paths,
        "components": {"schemas": {
            "Error": {"type": "object", "required": ["error"], "properties": {"error": {
                "type": "object", "required": ["status", "message"],
                "properties": {"status": {"type": "integer"}, "message": {"type": "string"}}}}},
            "Record": {"type": "object", "description": "An error record, schema v2 (error-record.v2.schema.json)"},
            "Answer": {"type": "object", "required": ["matches"], "properties": {"matches": {
                "type": "array", "items": {"type": "object",
                    "required": ["score", "exact", "approximate", "captures", "record"],
                    "properties": {"score": {"type": "number"}, "exact": {"type": "boolean"},
                        "approximate": {"type": "boolean"},
                        "captures": {"type": "array", "items": {"type": "object",
                            "properties": {"name": {"type": "string"}, "value": {"type": "string"}}}},
                        "record": {"$ref": "#/components/schemas/Record"}}}}}}
        }}
    })
}

fn query_param(name: &str, ty: &str, description: &str) -> serde_json::Value {
    json!({"name": name, "in": "query", "required": false, "description": description,
        "schema": {"type": ty}})
}

fn operation_id(method: &str, path: &str) -> String {
    let mut id = method.to_owned();
    for part in path
        .split(['/', '.', '{', '}'])
        .filter(|p| !p.is_empty() && *p != "api" && *p != "v1")
    {
        id.push('_');
        id.push_str(part);
    }
    id
}
