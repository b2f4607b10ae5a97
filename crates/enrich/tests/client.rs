//! The client against a local chat-completions server that answers scripted replies in order
//! and records the requests.

use std::time::{Duration, Instant};

use errata_enrich::{Client, Config, Error, Fields, HandlingStrategy, Input};
use serde_json::json;

mod server;

use server::{Reply, Server};

/// The seed record of `shared/`, beside the repository.
fn seed() -> errata_model::Record {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/seed/record.json");
    let text = std::fs::read_to_string(path).unwrap();
    let line: serde_json::Value = serde_json::from_str(&text).unwrap();
    serde_json::from_value(line["record"].clone()).unwrap()
}

/// What static analysis says of the seed; `onEnvironmentReleaseLease` is only here.
const FACTS: &str = "enclosing function: release(params, destroy)\n\
guard: unconfirmedCleanup.has(scope) && !destroy && config.reuseLease\n\
callers: onEnvironmentReleaseLease";

/// An answer for the seed that names only what the source and the facts name.
fn good_answer() -> serde_json::Value {
    json!({
        "documentation": "Thrown by `release` when `destroy` is false, `config.reuseLease` is set, and `unconfirmedCleanup` holds the lease's `scope`.",
        "triggerScenarios": "A release that reuses the lease after an earlier cleanup could not be confirmed.",
        "commonSituations": "Reuse pools whose sandbox was stopped from the host, reached from `onEnvironmentReleaseLease`.",
        "solutions": ["Release with `destroy` set: `client.destroySandbox(id)` runs and `unconfirmedCleanup` forgets the scope."],
        "exampleFix": "// before\nawait release(params, false);\n// after\nawait release(params, true);",
        "handlingStrategy": "fallback",
        "validationCode": "if (unconfirmedCleanup.has(scope)) {\n  await release(params, true);\n}",
        "typeGuard": "function isUnconfirmedCleanup(e: unknown): boolean {\n  return e instanceof Error && e.message.includes('cleanup is unconfirmed');\n}",
        "tryCatchPattern": "try {\n  await release(params, false);\n} catch (error) {\n  if (!isUnconfirmedCleanup(error)) throw error;\n  await release(params, true);\n}",
        "preventionTips": ["Turn `reuseLease` off where destroy-and-recreate is cheap."],
        "tags": ["sandbox", "lease-reuse"],
        "backgroundTag": "invalid-state-transition"
    })
}

fn good() -> Reply {
    Reply::completion(&good_answer().to_string())
}

/// Fast retries, and a timeout that a local answer meets with room to spare.
fn config(server: &Server) -> Config {
    let mut c = Config::new(server.url(), "qwen-test");
    c.api_key = Some("sk-test-123".into());
    c.timeout = Duration::from_secs(2);
    c.max_retries = 2;
    c.backoff = Duration::from_millis(5);
    c.max_backoff = Duration::from_millis(50);
    c
}

fn enrich(config: Config) -> Result<Fields, Error> {
    let record = seed();
    Client::new(config).unwrap().enrich(&Input {
        record: &record,
        facts: FACTS,
    })
}

#[test]
fn a_good_answer_is_parsed_and_the_request_carries_model_messages_and_key() {
    let server = Server::start(vec![good()]);
    let fields = enrich(config(&server)).unwrap();
    assert_eq!(fields.handling_strategy, HandlingStrategy::Fallback);
    assert_eq!(fields.tags, ["sandbox", "lease-reuse"]);
    assert_eq!(
        serde_json::to_value(&fields).unwrap(),
        good_answer(),
        "every field as answered"
    );

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.header("authorization"), Some("Bearer sk-test-123"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.body["model"], "qwen-test");
    assert_eq!(r.body["response_format"], json!({"type": "json_object"}));
    assert!((r.body["temperature"].as_f64().unwrap() - 0.2).abs() < 1e-6);
    let messages = r.body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "system");
    assert_eq!(messages[1]["role"], "user");
    let user = messages[1]["content"].as_str().unwrap();
    assert!(
        user.contains("Location: packages/plugins/sandbox-providers/createos/src/plugin.ts:119")
    );
    assert!(user.contains(">119 |         if (unconfirmedCleanup.has(scope)) throw new Error("));
    assert!(user.contains(FACTS));
}

#[test]
fn rate_limited_then_answered_is_retried_after_retry_after() {
    let server = Server::start(vec![
        Reply::status(429, r#"{"error":"slow down"}"#).header("Retry-After", "0"),
        good(),
    ]);
    let started = Instant::now();
    let fields = enrich(config(&server)).unwrap();
    assert_eq!(fields.background_tag.as_str(), "invalid-state-transition");
    assert_eq!(server.requests().len(), 2);
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[test]
fn server_errors_are_retried_until_an_answer() {
    let server = Server::start(vec![
        Reply::status(500, "boom"),
        Reply::status(503, ""),
        good(),
    ]);
    assert!(enrich(config(&server)).is_ok());
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn server_errors_past_the_retries_are_returned() {
    let server = Server::start(vec![Reply::status(500, "still down"); 3]);
    match enrich(config(&server)) {
        Err(e @ Error::Http { status: 500, .. }) => {
            assert!(e.to_string().contains("(still down)"), "{e}");
        }
        other => panic!("expected HTTP 500, got {other:?}"),
    }
    assert_eq!(
        server.requests().len(),
        3,
        "one try and max_retries retries"
    );
}

#[test]
fn a_slow_server_is_retried_after_the_timeout() {
    let server = Server::start(vec![good().after(Duration::from_secs(3)), good()]);
    let mut c = config(&server);
    c.timeout = Duration::from_millis(300);
    let started = Instant::now();
    assert!(enrich(c).is_ok());
    assert_eq!(server.requests().len(), 2);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "did not wait for the slow reply"
    );
}

#[test]
fn a_server_that_stays_slow_fails_with_timeout() {
    let server = Server::start(vec![good().after(Duration::from_secs(3)); 2]);
    let mut c = config(&server);
    c.timeout = Duration::from_millis(200);
    c.max_retries = 1;
    assert!(matches!(enrich(c), Err(Error::Timeout)));
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn malformed_content_is_asked_for_again_once_then_fails() {
    let server = Server::start(vec![
        Reply::completion("Here is the JSON: {\"documentation\": "),
        Reply::completion("{\"documentation\": \"x\"}"),
    ]);
    match enrich(config(&server)) {
        Err(Error::Malformed(why)) => assert!(why.contains("missing field"), "{why}"),
        other => panic!("expected Malformed, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn malformed_then_good_succeeds() {
    let server = Server::start(vec![Reply::completion("I can't."), good()]);
    assert!(enrich(config(&server)).is_ok());
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn an_invented_identifier_is_rejected_and_named() {
    let mut answer = good_answer();
    answer["validationCode"] = "if (isLeaseStale(scope)) await release(params, true);".into();
    answer["solutions"] = json!(["Set `config.allowStaleReuse` to true."]);
    let server = Server::start(vec![Reply::completion(&answer.to_string())]);
    match enrich(config(&server)) {
        Err(Error::UnknownIdentifiers(names)) => {
            assert_eq!(names, ["allowStaleReuse", "isLeaseStale"]);
        }
        other => panic!("expected UnknownIdentifiers, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 1, "not asked again");
}

#[test]
fn a_bad_request_is_not_retried() {
    let server = Server::start(vec![Reply::status(
        400,
        r#"{"error":"response_format not supported"}"#,
    )]);
    match enrich(config(&server)) {
        Err(e @ Error::Http { status: 400, .. }) => {
            assert!(!e.is_retryable());
            assert!(
                e.to_string().contains("response_format not supported"),
                "{e}"
            );
        }
        other => panic!("expected HTTP 400, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn an_answer_that_is_not_a_chat_completion_is_a_protocol_error() {
    let server = Server::start(vec![Reply::status(200, "<html>login</html>")]);
    assert!(matches!(enrich(config(&server)), Err(Error::Protocol(_))));
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_refused_connection_is_retried_then_returned() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut c = Config::new(format!("http://127.0.0.1:{port}/v1"), "m");
    c.max_retries = 1;
    c.backoff = Duration::from_millis(5);
    c.timeout = Duration::from_secs(2);
    let e = enrich(c).unwrap_err();
    assert!(matches!(e, Error::Transport(_)), "{e:?}");
    assert!(e.is_retryable());
}

#[test]
fn the_url_may_name_the_endpoint_and_no_key_sends_no_authorization() {
    let server = Server::start(vec![good()]);
    let mut c = config(&server);
    c.url = format!("{}/chat/completions/", server.url());
    c.api_key = None;
    assert!(enrich(c).is_ok());
    let requests = server.requests();
    assert_eq!(requests[0].path, "/v1/chat/completions");
    assert_eq!(requests[0].header("authorization"), None);
}

#[test]
fn one_client_serves_several_threads() {
    const THREADS: usize = 4;
    let server = Server::start(vec![good(); THREADS]);
    let client = Client::new(config(&server)).unwrap();
    let record = seed();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    client.enrich(&Input {
                        record: &record,
                        facts: FACTS,
                    })
                })
            })
            .collect();
        for h in handles {
            assert!(h.join().unwrap().is_ok());
        }
    });
    assert_eq!(server.requests().len(), THREADS);
}
