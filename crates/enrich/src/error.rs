//! What can go wrong when a model rewrites a record.

/// A failure of one enrichment. [`Error::is_retryable`] tells the transient ones, which
/// [`Client::enrich`](crate::Client::enrich) has already retried when it returns them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The [`Config`](crate::Config) cannot work.
    #[error("invalid enrichment configuration: {0}")]
    Config(String),

    /// The server answered with a status other than 2xx.
    #[error("the model server answered HTTP {status}{}: {}", excerpt(body), http_hint(*status))]
    Http {
        status: u16,
        /// The start of the response body, which usually says why.
        body: String,
    },

    /// No complete answer within [`Config::timeout`](crate::Config::timeout).
    #[error("the model server did not answer within the timeout; raise the timeout, lower the concurrency, or check that the server is up")]
    Timeout,

    /// The connection failed or dropped: the server is down, the name does not resolve.
    #[error("cannot reach the model server: {0}; check the URL and that the server is running")]
    Transport(#[source] Box<dyn std::error::Error + Send + Sync>),

    /// The request cannot be sent as configured (TLS, proxy, redirects): trying again would
    /// fail the same way.
    #[error("cannot send the request to the model server: {0}; check the URL's scheme, the proxy settings and the server's certificate")]
    Request(String),

    /// The server answered 2xx with something other than a chat completion.
    #[error("the model server's answer is not a chat completion ({0}); check that the URL points at an OpenAI-compatible endpoint such as http://localhost:11434/v1")]
    Protocol(String),

    /// The model's answer is not one JSON object holding valid explanation fields.
    #[error("the model's answer is not valid explanation fields: {0}; try again, or use a model that follows JSON instructions")]
    Malformed(String),

    /// The answer names identifiers found neither in the source nor in the facts, so the model
    /// made them up.
    #[error("the model's answer names identifiers that are neither in the source nor in the facts: {}; the answer was rejected: try again, or give the model more facts", .0.join(", "))]
    UnknownIdentifiers(Vec<String>),
}

impl Error {
    /// Whether trying the same request again may succeed: HTTP 408, 429 and 5xx, timeouts and
    /// connection failures.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Http { status, .. } => matches!(status, 408 | 429 | 500..=599),
            Error::Timeout | Error::Transport(_) => true,
            Error::Config(_)
            | Error::Request(_)
            | Error::Protocol(_)
            | Error::Malformed(_)
            | Error::UnknownIdentifiers(_) => false,
        }
    }

    pub(crate) fn from_ureq(e: ureq::Error) -> Error {
        match e {
            ureq::Error::Timeout(_) => Error::Timeout,
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => Error::Timeout,
            ureq::Error::Io(_)
            | ureq::Error::ConnectionFailed
            | ureq::Error::HostNotFound
            | ureq::Error::Protocol(_) => Error::Transport(Box::new(e)),
            other => Error::Request(other.to_string()),
        }
    }
}

/// The longest part of a response body quoted in an error.
const EXCERPT: usize = 300;

fn excerpt(body: &str) -> String {
    let body = body.trim();
    if body.is_empty() {
        return String::new();
    }
    match body.char_indices().nth(EXCERPT) {
        Some((cut, _)) => format!(" ({}…)", &body[..cut]),
        None => format!(" ({body})"),
    }
}

fn http_hint(status: u16) -> &'static str {
    match status {
        400 | 422 => "the server rejected the request; check that the model supports JSON output (response_format json_object) and the temperature",
        401 | 403 => "check the API key",
        404 => "check the URL (it usually ends in /v1) and the model name",
        408 | 429 => "the server is busy or rate-limiting; lower the concurrency or raise the retries",
        500..=599 => "the server failed; try again later or check its logs",
        _ => "check the URL and the server's logs",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_errors_quote_the_body_and_say_what_to_do() {
        let e = Error::Http {
            status: 401,
            body: "{\"error\":\"bad key\"}".into(),
        };
        assert_eq!(
            e.to_string(),
            "the model server answered HTTP 401 ({\"error\":\"bad key\"}): check the API key"
        );
        let long = Error::Http {
            status: 500,
            body: "x".repeat(1000),
        };
        assert!(long.to_string().len() < 400);
    }

    #[test]
    fn transient_failures_are_retryable() {
        let http = |status| Error::Http {
            status,
            body: String::new(),
        };
        assert!(http(429).is_retryable());
        assert!(http(503).is_retryable());
        assert!(!http(400).is_retryable());
        assert!(!http(404).is_retryable());
        assert!(Error::Timeout.is_retryable());
        assert!(!Error::Malformed("x".into()).is_retryable());
    }

    #[test]
    fn unknown_identifiers_are_named() {
        let e = Error::UnknownIdentifiers(vec!["a".into(), "b".into()]);
        assert!(e.to_string().contains(": a, b;"), "{e}");
    }
}
