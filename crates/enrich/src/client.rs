//! The blocking chat-completions client, its retries and its configuration.
//!
//! # Wire format
//!
//! One request per attempt, `POST {url}/chat/completions` with `Content-Type:
//! application/json`, `Authorization: Bearer {api_key}` when there is a key, and the body
//!
//! ```json
//! {"model": "…", "messages": [{"role": "system", "content": "…"}, {"role": "user", "content": "…"}],
//!  "temperature": 0.2, "response_format": {"type": "json_object"}}
//! ```
//!
//! The answer is `choices[0].message.content` of a 2xx response, which must hold one JSON
//! object with the [`Fields`].

use std::fmt;
use std::thread;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::{messages, parse_answer, unknown_identifiers, Error, Fields, Input, Message};

/// Where and how to ask the model.
#[derive(Clone)]
pub struct Config {
    /// The API's base URL, such as `http://localhost:11434/v1`; the client posts to
    /// `{url}/chat/completions`. A URL that already ends in `/chat/completions` is taken as
    /// it is.
    pub url: String,
    pub model: String,
    /// Sent as a bearer token. Never logged, and redacted from `Debug`.
    pub api_key: Option<String>,
    /// The longest one attempt may take, from connecting to reading the whole answer.
    pub timeout: Duration,
    /// How many times a transient failure (HTTP 408, 429, 5xx, a timeout, a dropped
    /// connection) is retried before it is returned.
    pub max_retries: u32,
    pub temperature: f32,
    /// The wait before the first retry; it doubles with each retry, and a random part of up to
    /// half of it spreads the retries of concurrent callers.
    pub backoff: Duration,
    /// The longest wait before a retry, whether from the backoff or from the server's
    /// `Retry-After`.
    pub max_backoff: Duration,
}

impl Config {
    /// A configuration with the defaults: no key, 120 s per attempt, 3 retries starting at
    /// 1 s and waiting at most 60 s, temperature 0.2.
    pub fn new(url: impl Into<String>, model: impl Into<String>) -> Config {
        Config {
            url: url.into(),
            model: model.into(),
            api_key: None,
            timeout: Duration::from_secs(120),
            max_retries: 3,
            temperature: 0.2,
            backoff: Duration::from_secs(1),
            max_backoff: Duration::from_secs(60),
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("url", &self.url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .field("temperature", &self.temperature)
            .field("backoff", &self.backoff)
            .field("max_backoff", &self.max_backoff)
            .finish()
    }
}

/// A chat-completions client. It is `Send + Sync` and keeps a pool of connections: share one
/// between threads (the caller bounds the concurrency).
pub struct Client {
    config: Config,
    endpoint: String,
    agent: ureq::Agent,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("endpoint", &self.endpoint)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client for `config`, which is checked here: an `http` or `https` URL, a model name,
    /// a non-zero timeout, a temperature between 0 and 2.
    pub fn new(config: Config) -> Result<Client, Error> {
        let endpoint = endpoint(&config.url)?;
        if config.model.trim().is_empty() {
            return Err(Error::Config(
                "no model given: name the model the server should run".into(),
            ));
        }
        if config.timeout.is_zero() {
            return Err(Error::Config(
                "the timeout is zero: give one of some seconds".into(),
            ));
        }
        if !(0.0..=2.0).contains(&config.temperature) {
            return Err(Error::Config(format!(
                "temperature {} is outside 0 to 2",
                config.temperature
            )));
        }
        if config
            .api_key
            .as_deref()
            .is_some_and(|k| k.is_empty() || k.chars().any(|c| c.is_control() || c.is_whitespace()))
        {
            return Err(Error::Config(
                "the API key is empty or holds whitespace: pass the key alone".into(),
            ));
        }
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            // Statuses are errors of ours, with their body and Retry-After.
            .http_status_as_error(false)
            .user_agent(concat!("errata/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Ok(Client {
            config,
            endpoint,
            agent,
        })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The URL requests are posted to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Asks the model for the explanation fields of one record, and checks them.
    ///
    /// Transient failures are retried up to [`Config::max_retries`] times each, with
    /// exponential backoff. An answer that is not valid fields is asked for once more, since
    /// models are stochastic, and is then [`Error::Malformed`]. A valid answer that names an
    /// identifier found neither in the record (source window, file path, message, class,
    /// code) nor in the facts is [`Error::UnknownIdentifiers`].
    pub fn enrich(&self, input: &Input<'_>) -> Result<Fields, Error> {
        let record = input.record;
        let messages = messages(input);
        let known = [
            record.source_code.as_str(),
            &record.file_path,
            &record.error_message,
            record.error_class.as_deref().unwrap_or(""),
            record.error_code.as_deref().unwrap_or(""),
        ]
        .join("\n");
        let mut asked_again = false;
        loop {
            let content = self.complete(&messages)?;
            match parse_answer(&content) {
                Ok(fields) => {
                    let unknown =
                        unknown_identifiers(&fields, &record.file_path, &known, input.facts);
                    if !unknown.is_empty() {
                        tracing::debug!(id = %record.id, ?unknown, "answer names unknown identifiers");
                        return Err(Error::UnknownIdentifiers(unknown));
                    }
                    return Ok(fields);
                }
                Err(Error::Malformed(why)) if !asked_again => {
                    tracing::debug!(id = %record.id, %why, "malformed answer, asking again");
                    asked_again = true;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// One chat completion: posts `messages` and returns the answer's content, retrying
    /// transient failures.
    pub fn complete(&self, messages: &[Message]) -> Result<String, Error> {
        let body = serde_json::to_string(&ChatRequest {
            model: &self.config.model,
            messages,
            temperature: self.config.temperature,
            response_format: ResponseFormat {
                kind: "json_object",
            },
        })
        .map_err(|e| Error::Config(format!("cannot serialise the request: {e}")))?;
        let mut retry = 0;
        loop {
            let started = Instant::now();
            let outcome = self.send(&body);
            let elapsed_ms = started.elapsed().as_millis() as u64;
            match outcome {
                Ok(content) => {
                    tracing::debug!(endpoint = %self.endpoint, model = %self.config.model, retry, elapsed_ms, "chat completion answered");
                    return Ok(content);
                }
                Err((error, retry_after))
                    if error.is_retryable() && retry < self.config.max_retries =>
                {
                    let wait = self.wait(retry, retry_after);
                    tracing::debug!(endpoint = %self.endpoint, retry, elapsed_ms, wait_ms = wait.as_millis() as u64, %error, "chat completion failed, retrying");
                    thread::sleep(wait);
                    retry += 1;
                }
                Err((error, _)) => {
                    tracing::debug!(endpoint = %self.endpoint, retry, elapsed_ms, %error, "chat completion failed");
                    return Err(error);
                }
            }
        }
    }

    /// One attempt; a failure comes with the server's `Retry-After`, if any.
    fn send(&self, body: &str) -> Result<String, (Error, Option<Duration>)> {
        let mut request = self
            .agent
            .post(&self.endpoint)
            .header("content-type", "application/json")
            .header("accept", "application/json");
        if let Some(key) = &self.config.api_key {
            request = request.header("authorization", format!("Bearer {key}"));
        }
        let mut response = request
            .send(body)
            .map_err(|e| (Error::from_ureq(e), None))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| (Error::from_ureq(e), None))?;
        if !(200..300).contains(&status) {
            return Err((Error::Http { status, body: text }, retry_after));
        }
        let answer: ChatResponse =
            serde_json::from_str(&text).map_err(|e| (Error::Protocol(format!("{e}")), None))?;
        let choice = answer
            .choices
            .into_iter()
            .next()
            .ok_or_else(|| (Error::Protocol("no choices".into()), None))?;
        choice.message.content.ok_or_else(|| {
            let why = format!(
                "the answer has no content (finish reason {})",
                choice.finish_reason.as_deref().unwrap_or("not given")
            );
            (Error::Malformed(why), None)
        })
    }

    /// The wait before retry number `retry` (0 for the first): the server's `Retry-After`
    /// when it gave one, else the backoff doubled `retry` times, of which a random half.
    fn wait(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        let cap = self.config.max_backoff;
        if let Some(after) = retry_after {
            return after.min(cap);
        }
        let full = self
            .config
            .backoff
            .saturating_mul(2u32.saturating_pow(retry))
            .min(cap);
        // "Equal jitter": half fixed so that the wait grows, half random so that concurrent
        // callers that failed together do not retry together.
        full / 2 + (full / 2).mul_f64(fastrand::f64())
    }
}

/// `{url}/chat/completions`, from a base URL or the full one.
fn endpoint(url: &str) -> Result<String, Error> {
    let url = url.trim().trim_end_matches('/');
    let endpoint = if url.ends_with("/chat/completions") {
        url.to_owned()
    } else {
        format!("{url}/chat/completions")
    };
    let uri: ureq::http::Uri = endpoint
        .parse()
        .map_err(|e| Error::Config(format!("the URL {url:?} is not valid: {e}")))?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) || uri.host().is_none() {
        return Err(Error::Config(format!(
            "the URL {url:?} is not http(s): give one like http://localhost:11434/v1"
        )));
    }
    Ok(endpoint)
}

#[derive(Serialize)]
struct ChatRequest<'a> {
    model: &'a str,
    messages: &'a [Message],
    temperature: f32,
    response_format: ResponseFormat,
}

#[derive(Serialize)]
struct ResponseFormat {
    #[serde(rename = "type")]
    kind: &'static str,
}

#[derive(Deserialize)]
struct ChatResponse {
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: ChoiceMessage,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ChoiceMessage {
    content: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_is_the_base_url_plus_the_path() {
        let e = |u| endpoint(u).unwrap();
        assert_eq!(
            e("http://localhost:11434/v1"),
            "http://localhost:11434/v1/chat/completions"
        );
        assert_eq!(
            e("https://api.example/v1/"),
            "https://api.example/v1/chat/completions"
        );
        assert_eq!(
            e("http://h/v1/chat/completions"),
            "http://h/v1/chat/completions"
        );
        assert!(matches!(endpoint("localhost:11434"), Err(Error::Config(_))));
        assert!(matches!(endpoint("ftp://h/v1"), Err(Error::Config(_))));
        assert!(matches!(endpoint(""), Err(Error::Config(_))));
    }

    #[test]
    fn the_key_is_redacted_from_debug() {
        let mut config = Config::new("http://h/v1", "m");
        config.api_key = Some("sk-secret".into());
        let client = Client::new(config.clone()).unwrap();
        assert!(!format!("{config:?}").contains("sk-secret"));
        assert!(!format!("{client:?}").contains("sk-secret"));
        assert!(format!("{config:?}").contains("<redacted>"));
    }

    #[test]
    fn bad_configurations_say_what_is_wrong() {
        let bad = |f: fn(&mut Config)| {
            let mut c = Config::new("http://h/v1", "m");
            f(&mut c);
            match Client::new(c) {
                Err(Error::Config(why)) => why,
                other => panic!("expected Config, got {other:?}"),
            }
        };
        assert!(bad(|c| c.model = " ".into()).contains("no model"));
        assert!(bad(|c| c.timeout = Duration::ZERO).contains("timeout"));
        assert!(bad(|c| c.temperature = 3.0).contains("temperature"));
        assert!(bad(|c| c.temperature = f32::NAN).contains("temperature"));
        assert!(bad(|c| c.api_key = Some("sk x".into())).contains("API key"));
    }

    #[test]
    fn waits_grow_are_jittered_and_capped() {
        let mut config = Config::new("http://h/v1", "m");
        config.backoff = Duration::from_millis(100);
        config.max_backoff = Duration::from_millis(1000);
        let client = Client::new(config).unwrap();
        for _ in 0..20 {
            let w0 = client.wait(0, None);
            assert!((Duration::from_millis(50)..=Duration::from_millis(100)).contains(&w0));
            let w2 = client.wait(2, None);
            assert!((Duration::from_millis(200)..=Duration::from_millis(400)).contains(&w2));
            assert!(client.wait(30, None) <= Duration::from_millis(1000));
        }
        assert_eq!(
            client.wait(0, Some(Duration::from_secs(2))),
            Duration::from_millis(1000)
        );
        assert_eq!(client.wait(3, Some(Duration::ZERO)), Duration::ZERO);
    }
}
