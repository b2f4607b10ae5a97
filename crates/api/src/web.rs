//! The web pages: server-rendered HTML that works without JavaScript.
//!
//! | page | shows |
//! | --- | --- |
//! | `GET /?q=&lang=&type=&repo=&page=` | a search box with filters and the matching records |
//! | `GET /errors/{id-or-slug}` | one record: message, kind, where, the source with the raising line marked, the explanation |
//! | `GET /match[?text=]`, `POST /match` | paste an error or a stack trace; the records that match and the values captured |
//! | `GET /repo?name=OWNER/NAME` | a repository's records counted by type, class and tag |
//!
//! Every value that comes from the code or the request is escaped ([`esc`]): a message such as
//! `</script><script>alert(1)</script>` is shown, never run.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Form, Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use errata_model::{ErrorType, Record};
use errata_store::Filter;
use serde::Deserialize;

use crate::http::Service;
use crate::lookup;

const PER_PAGE: u64 = 25;

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;max-width:72rem;margin:1.5rem auto;padding:0 1rem;color:#1b1b1b}\
a{color:#0b57d0}header a{margin-right:1rem}form.search input[name=q]{width:30rem}\
.msg{font-family:ui-monospace,monospace;background:#f4f4f4;padding:.1rem .3rem}\
p code,li code{font-size:.92em;background:#f1f3f5;padding:0 .2rem;border-radius:3px}\
pre{background:#f6f8fa;padding:.6rem;overflow:auto}table{border-collapse:collapse}\
td,th{padding:.15rem .6rem;text-align:left;vertical-align:top}tr.raise{background:#fff3c4}\
.code td.n{color:#888;text-align:right;user-select:none}.kind{color:#555}.approx{color:#a15c00}\
textarea{width:100%;height:12rem;font-family:ui-monospace,monospace}";

/// Escapes text for HTML, in content and in quoted attributes.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Percent-encodes a query-string value.
fn url(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

fn page(title: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport content=\"width=device-width\">\
         <title>{} · errata</title><style>{STYLE}{}</style></head><body>\
         <header><a href=\"/\"><b>errata</b></a><a href=\"/\">search</a><a href=\"/match\">paste an error</a></header>\
         <main>{body}</main></body></html>",
        esc(title),
        crate::highlight::CSS
    ))
}

fn error_page(status: StatusCode, message: &str) -> Response {
    (
        status,
        page(
            "error",
            &format!("<h1>{}</h1><p>{}</p>", status, esc(message)),
        ),
    )
        .into_response()
}

type Shared = State<Arc<Service>>;

#[derive(Debug, Default, Deserialize)]
pub(crate) struct SearchForm {
    q: Option<String>,
    lang: Option<String>,
    #[serde(rename = "type")]
    error_type: Option<String>,
    repo: Option<String>,
    page: Option<u64>,
}

pub(crate) async fn search(
    State(s): Shared,
    form: Result<Query<SearchForm>, QueryRejection>,
) -> Response {
    let f = form.map(|Query(f)| f).unwrap_or_default();
    let nonempty = |v: &Option<String>| v.clone().filter(|x| !x.trim().is_empty());
    let page_no = f.page.unwrap_or(1).max(1);
    let error_type = nonempty(&f.error_type).filter(|t| ErrorType::parse(t).is_some());
    let filter = Filter {
        repo: nonempty(&f.repo),
        lang: nonempty(&f.lang),
        error_type: error_type.clone(),
        text: nonempty(&f.q),
        limit: Some(PER_PAGE),
        offset: Some((page_no - 1) * PER_PAGE),
        ..Filter::default()
    };
    let found = s.with_store(|store| Ok(store.page(&filter)?));
    let (total, rows) = match found {
        Ok(x) => x,
        Err(e) => return e.into_response(),
    };
    let mut body = String::from("<h1>Errors</h1><form class=search method=get action=\"/\">");
    let _ = write!(
        body,
        "<input name=q placeholder=\"text of the message\" value=\"{}\"> ",
        esc(f.q.as_deref().unwrap_or(""))
    );
    body.push_str("<select name=lang><option value=\"\">any language</option>");
    for l in ["typescript", "javascript", "python", "go", "rust", "java"] {
        let sel = if f.lang.as_deref() == Some(l) {
            " selected"
        } else {
            ""
        };
        let _ = write!(body, "<option{sel}>{l}</option>");
    }
    body.push_str("</select> <select name=type><option value=\"\">any type</option>");
    for t in ErrorType::ALL {
        let t = t.as_str();
        let sel = if error_type.as_deref() == Some(t) {
            " selected"
        } else {
            ""
        };
        let _ = write!(body, "<option{sel}>{t}</option>");
    }
    let _ = write!(
        body,
        "</select> <input name=repo placeholder=\"owner/name\" value=\"{}\"> <button>Search</button></form>",
        esc(f.repo.as_deref().unwrap_or(""))
    );
    let _ = write!(body, "<p>{total} records</p><table class=results>");
    for r in &rows {
        let _ = write!(
            body,
            "<tr><td><a href=\"/errors/{}\"><span class=msg>{}</span></a></td><td class=kind>{}{}</td><td>{}:{}</td></tr>",
            esc(&r.id),
            esc(&r.error_message),
            esc(r.error_type.as_str()),
            r.error_class
                .as_deref()
                .map(|c| format!(" · {}", esc(c)))
                .unwrap_or_default(),
            esc(&r.file_path),
            r.line_number
        );
    }
    body.push_str("</table>");
    let pages = total.div_ceil(PER_PAGE);
    if pages > 1 {
        let link = |p: u64| {
            format!(
                "/?q={}&lang={}&type={}&repo={}&page={p}",
                url(f.q.as_deref().unwrap_or("")),
                url(f.lang.as_deref().unwrap_or("")),
                url(error_type.as_deref().unwrap_or("")),
                url(f.repo.as_deref().unwrap_or(""))
            )
        };
        body.push_str("<p>");
        if page_no > 1 {
            let _ = write!(
                body,
                "<a href=\"{}\">previous</a> ",
                esc(&link(page_no - 1))
            );
        }
        let _ = write!(body, "page {page_no} of {pages}");
        if page_no < pages {
            let _ = write!(body, " <a href=\"{}\">next</a>", esc(&link(page_no + 1)));
        }
        body.push_str("</p>");
    }
    page("Errors", &body).into_response()
}

pub(crate) async fn record(State(s): Shared, UrlPath(key): UrlPath<String>) -> Response {
    let found = s.with_store(|store| {
        let mut rs = store.find(&key)?;
        if rs.is_empty() {
            return Ok(None);
        }
        let r = rs.swap_remove(0);
        let sources = store.explained_one(&r.id)?.and_then(|e| e.sources);
        Ok(Some((r, sources)))
    });
    match found {
        Ok(Some((r, sources))) => {
            page(&r.error_message, &record_html(&r, sources.as_deref())).into_response()
        }
        Ok(None) => error_page(
            StatusCode::NOT_FOUND,
            &format!("No record has the id or slug {key:?}. Search for its message instead."),
        ),
        Err(e) => e.into_response(),
    }
}

/// Prose of an explanation: escaped, with its `code` spans (and ``code with a ` in it``
/// spans) set as code.
fn prose_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    let mut rest = text;
    while let Some(at) = rest.find('`') {
        let (before, after) = rest.split_at(at);
        out.push_str(&esc(before));
        let (fence, body) = match after.strip_prefix("``") {
            Some(body) => ("``", body),
            None => ("`", &after[1..]),
        };
        match body.find(fence) {
            Some(end) => {
                let _ = write!(out, "<code>{}</code>", esc(body[..end].trim()));
                rest = &body[end + fence.len()..];
            }
            None => {
                out.push_str(&esc(after));
                rest = "";
            }
        }
    }
    out.push_str(&esc(rest));
    out
}

/// Who wrote the explanation: static analysis, or a model for the fields `sources` names.
fn written_by(sources: Option<&str>) -> String {
    let by_model = errata_store::written_by_model(sources);
    let mut models: Vec<&str> = by_model.values().map(String::as_str).collect();
    models.sort_unstable();
    models.dedup();
    if models.is_empty() {
        "Explanation written by static analysis of the code.".to_owned()
    } else {
        format!(
            "Explanation rewritten by the model {} from the code and the facts static analysis found.",
            models.join(", ")
        )
    }
}

fn record_html(r: &Record, sources: Option<&str>) -> String {
    let mut b = String::new();
    let _ = write!(b, "<h1 class=msg>{}</h1>", esc(&r.error_message));
    let mut kind = format!("{} ({})", r.error_type.as_str(), r.severity.as_str());
    if let Some(c) = &r.error_class {
        let _ = write!(kind, " · class {c}");
    }
    if let Some(c) = &r.error_code {
        let _ = write!(kind, " · code {c}");
    }
    if let Some(h) = r.http_status {
        let _ = write!(kind, " · HTTP {h}");
    }
    let _ = write!(b, "<p class=kind>{}</p>", esc(&kind));
    let _ = write!(
        b,
        "<p>In <a href=\"/repo?name={}\">{}</a>, <code>{}:{}</code>",
        esc(&url(&r.repo)),
        esc(&r.repo),
        esc(&r.file_path),
        r.line_number
    );
    if let Some(u) = r
        .github_url
        .as_deref()
        .filter(|u| u.starts_with("https://"))
    {
        let _ = write!(b, " · <a href=\"{}\">permalink</a>", esc(u));
    }
    let _ = write!(
        b,
        "</p><p>Pattern: <code>{}</code></p>",
        esc(&r.message_pattern)
    );
    b.push_str("<table class=code>");
    let highlighted = crate::highlight::lines(&r.file_path, &r.source_code);
    for (i, line) in r.source_code.split('\n').enumerate() {
        let n = r.source_code_start + i as u32;
        let class = if n == r.line_number {
            " class=raise"
        } else {
            ""
        };
        let html = highlighted
            .as_ref()
            .and_then(|h| h.get(i).cloned())
            .unwrap_or_else(|| esc(line));
        let _ = write!(
            b,
            "<tr{class}><td class=n>{n}</td><td><pre style=\"margin:0;padding:0;background:none\">{html}</pre></td></tr>"
        );
    }
    b.push_str("</table>");
    let section = |b: &mut String, title: &str, text: &str| {
        if !text.is_empty() {
            let _ = write!(b, "<h2>{}</h2><p>{}</p>", esc(title), prose_html(text));
        }
    };
    let code = |b: &mut String, title: &str, text: &str| {
        if !text.is_empty() {
            let _ = write!(
                b,
                "<h2>{}</h2><pre><code>{}</code></pre>",
                esc(title),
                esc(text)
            );
        }
    };
    let list = |b: &mut String, title: &str, items: &[String]| {
        if !items.is_empty() {
            let _ = write!(b, "<h2>{}</h2><ul>", esc(title));
            for i in items {
                let _ = write!(b, "<li>{}</li>", prose_html(i));
            }
            b.push_str("</ul>");
        }
    };
    let _ = write!(b, "<p class=kind>{}</p>", esc(&written_by(sources)));
    section(&mut b, "What it means", &r.documentation);
    section(&mut b, "When it happens", &r.trigger_scenarios);
    section(&mut b, "Common situations", &r.common_situations);
    list(&mut b, "Solutions", &r.solutions);
    code(&mut b, "Example fix", &r.example_fix);
    code(&mut b, "Check before the call", &r.validation_code);
    code(&mut b, "Recognise it", &r.type_guard);
    code(
        &mut b,
        &format!("Handle it ({})", r.handling_strategy.as_str()),
        &r.try_catch_pattern,
    );
    list(&mut b, "Prevention", &r.prevention_tips);
    let _ = write!(
        b,
        "<p class=kind>tags: {} · {} · id {} · analysed at {}</p>",
        esc(&r.tags.join(", ")),
        esc(r.background_tag.as_str()),
        esc(&r.id),
        esc(&r.analyzed_at)
    );
    b
}

#[derive(Debug, Deserialize)]
pub(crate) struct MatchForm {
    text: String,
}

/// The paste page; with `?text=`, the matches too (so that a match can be linked to).
pub(crate) async fn match_form(
    state: Shared,
    q: Result<Query<MatchForm>, QueryRejection>,
) -> Response {
    match q {
        Ok(Query(f)) => match_post(state, Form(f)).await,
        Err(_) => page("Paste an error", &match_body("", None)).into_response(),
    }
}

pub(crate) async fn match_post(State(s): Shared, Form(f): Form<MatchForm>) -> Response {
    if f.text.trim().is_empty() {
        return page("Paste an error", &match_body("", None)).into_response();
    }
    let answer = s.explain(&f.text, 5);
    match answer {
        Ok(a) => page("Matches", &match_body(&f.text, Some(&a))).into_response(),
        Err(e) => e.into_response(),
    }
}

fn match_body(text: &str, answer: Option<&lookup::Answer>) -> String {
    let mut b = String::from(
        "<h1>Paste an error</h1><p>A message, a log line or a whole stack trace.</p>\
         <form method=post action=\"/match\">",
    );
    let _ = write!(
        b,
        "<textarea name=text>{}</textarea><p><button>Find its source</button></p></form>",
        esc(text)
    );
    let Some(answer) = answer else { return b };
    if answer.matches.is_empty() {
        b.push_str("<p>No record matches this text, and no stored message resembles it.</p>");
        return b;
    }
    if !answer.matched() {
        b.push_str("<p class=approx>No record matches this text. The nearest messages by similarity (approximate):</p>");
    }
    b.push_str("<ol class=matches>");
    for m in &answer.matches {
        let Ok(r) = m.record() else { continue };
        let how = if m.approximate {
            "approximate"
        } else if m.exact {
            "exact"
        } else {
            "partial"
        };
        let _ = write!(
            b,
            "<li><a href=\"/errors/{}\"><span class=msg>{}</span></a> <span class=kind>{how}, score {:.2} · {}:{}</span>",
            esc(&r.id),
            esc(&r.error_message),
            m.score,
            esc(&r.file_path),
            r.line_number
        );
        if !m.captures.is_empty() {
            b.push_str("<table class=captures>");
            for c in &m.captures {
                let _ = write!(
                    b,
                    "<tr><td><code>{}</code></td><td><code>{}</code></td></tr>",
                    esc(&c.name),
                    esc(&c.value)
                );
            }
            b.push_str("</table>");
        }
        b.push_str("</li>");
    }
    b.push_str("</ol>");
    b
}

#[derive(Debug, Deserialize)]
pub(crate) struct RepoQuery {
    name: String,
}

pub(crate) async fn repo(
    State(s): Shared,
    q: Result<Query<RepoQuery>, QueryRejection>,
) -> Response {
    let Ok(Query(q)) = q else {
        return error_page(
            StatusCode::BAD_REQUEST,
            "Name the repository: /repo?name=OWNER/NAME",
        );
    };
    let overview = match s.with_store(|store| Ok(store.overview(&q.name)?)) {
        Ok(o) => o,
        Err(e) => return e.into_response(),
    };
    if overview.records == 0 {
        return error_page(
            StatusCode::NOT_FOUND,
            &format!("No records of {:?} are stored.", q.name),
        );
    }
    let mut b = format!(
        "<h1>{}</h1><p><a href=\"/?repo={}\">{} records</a></p>",
        esc(&q.name),
        esc(&url(&q.name)),
        overview.records
    );
    for (title, rows) in [
        ("By type", &overview.by_type),
        ("By class", &overview.by_class),
        ("By tag", &overview.by_tag),
    ] {
        let _ = write!(b, "<h2>{title}</h2><table>");
        for (k, n) in rows {
            let _ = write!(b, "<tr><td>{}</td><td>{n}</td></tr>", esc(k));
        }
        b.push_str("</table>");
    }
    page(&q.name, &b).into_response()
}

#[cfg(test)]
mod tests {
    use super::{prose_html, written_by};

    #[test]
    fn prose_sets_code_and_escapes_everything() {
        assert_eq!(
            prose_html("Call `release()` when `a < b` holds."),
            "Call <code>release()</code> when <code>a &lt; b</code> holds."
        );
        assert_eq!(
            prose_html("`` x == '`' `` and \"</script>\""),
            "<code>x == &#39;`&#39;</code> and &quot;&lt;/script&gt;&quot;"
        );
        assert_eq!(prose_html("an odd ` alone"), "an odd ` alone");
    }

    #[test]
    fn who_wrote_it() {
        assert!(written_by(None).contains("static analysis"));
        assert!(written_by(Some(r#"{"documentation":"qwen"}"#)).contains("model qwen"));
    }
}
