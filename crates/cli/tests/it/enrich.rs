//! `errata enrich` against a chat-completions server run by the test: answers are applied and
//! marked with the model's name, kept so that nothing is asked twice, and an answer that names
//! what the code does not have is rejected.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use crate::util::golden_indexed;

/// A chat-completions server on loopback; it answers each request with `answer(user prompt)`
/// and records the requests it got (headers and body).
struct FakeModel {
    url: String,
    requests: Arc<Mutex<Vec<(String, Value)>>>,
}

impl FakeModel {
    fn start(answer: fn(&str) -> Value) -> FakeModel {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        let requests: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
        let seen = Arc::clone(&requests);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut head = String::new();
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    head.push_str(&line);
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    continue;
                }
                let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let prompt = request["messages"][1]["content"]
                    .as_str()
                    .unwrap_or("")
                    .to_owned();
                seen.lock().unwrap().push((head, request));
                let content = answer(&prompt).to_string();
                let reply = json!({
                    "id": "x", "object": "chat.completion",
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]
                })
                .to_string();
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
                    reply.len()
                );
            }
        });
        FakeModel { url, requests }
    }

    fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

fn fields(documentation: &str, validation: &str) -> Value {
    json!({
        "documentation": documentation,
        "triggerScenarios": "Releasing a lease that is still in use.",
        "commonSituations": "Pools that reuse leases.",
        "solutions": ["Destroy the lease instead of reusing it."],
        "exampleFix": "await release(params, true);",
        "handlingStrategy": "fallback",
        "validationCode": validation,
        "typeGuard": "function isCleanupError(e: unknown): boolean {\n  return e instanceof Error;\n}",
        "tryCatchPattern": "try {\n  await release(params, false);\n} catch (e) {\n  if (!isCleanupError(e)) throw e;\n  await release(params, true);\n}",
        "preventionTips": ["Destroy leases whose cleanup was not confirmed."],
        "tags": ["lease", "cleanup"],
        "backgroundTag": "invalid-state-transition"
    })
}

const SEED_DOC: &str =
    "Thrown by `release()` when `unconfirmedCleanup.has(scope)` holds and the lease is reused.";

fn answer(prompt: &str) -> Value {
    let message = prompt.lines().next().unwrap_or("");
    if message.contains("CreateOS process cleanup is unconfirmed") {
        fields(
            SEED_DOC,
            "if (unconfirmedCleanup.has(scope)) {\n  await release(params, true);\n}",
        )
    } else if message.contains("does not belong to this environment") {
        // `isLeaseStale` is nowhere in the code: the answer must be rejected.
        fields(
            "Thrown when `isLeaseStale(params)` says so.",
            "if (isLeaseStale(params)) {\n  return;\n}",
        )
    } else {
        fields(
            "Thrown while a cleanup of the lease is already running.",
            "// nothing to check",
        )
    }
}

#[test]
fn enrich_applies_keeps_and_rejects_answers() {
    let s = golden_indexed();
    let model = FakeModel::start(answer);
    let run = |s: &crate::util::Scratch| {
        let out = crate::util::errata_cmd()
            .args([
                "--db",
                s.db().to_str().unwrap(),
                "--json",
                "enrich",
                "--llm-url",
                &model.url,
                "--model",
                "fake-model",
                "--retries",
                "0",
                "--timeout",
                "10",
            ])
            .env("ERRATA_LLM_API_KEY", "sk-test-secret")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        assert!(
            !stdout.contains("sk-test-secret") && !stderr.contains("sk-test-secret"),
            "the key is never printed"
        );
        serde_json::from_str::<Value>(&stdout).unwrap()
    };

    let first = run(&s);
    assert_eq!(first["enriched"], 2, "{first}");
    assert_eq!(first["failed"], 1, "{first}");
    assert_eq!(model.count(), 3);
    {
        let requests = model.requests.lock().unwrap();
        let (head, body) = &requests[0];
        assert!(
            head.contains("authorization: Bearer sk-test-secret")
                || head.contains("Authorization: Bearer sk-test-secret"),
            "{head}"
        );
        assert_eq!(body["model"], "fake-model");
        let prompt = body["messages"][1]["content"].as_str().unwrap();
        assert!(
            prompt.contains("conditions"),
            "the facts go with the prompt: {prompt}"
        );
    }

    let records = s.records();
    let seed = records.iter().find(|r| r["lineNumber"] == 119).unwrap();
    assert_eq!(seed["documentation"], SEED_DOC);
    assert_eq!(seed["tags"], json!(["lease", "cleanup"]));
    let rejected = records
        .iter()
        .find(|r| r["errorMessage"] == "CreateOS lease does not belong to this environment.")
        .unwrap();
    assert!(
        rejected["documentation"]
            .as_str()
            .unwrap()
            .contains("`release()`"),
        "a rejected answer leaves the static explanation: {}",
        rejected["documentation"]
    );
    let shown = s.ok(&["show", seed["id"].as_str().unwrap()]);
    assert!(shown.contains("by model fake-model"), "{shown}");

    // Nothing already answered is asked again; the rejected record is.
    let second = run(&s);
    assert_eq!(second["alreadyEnriched"], 2, "{second}");
    assert_eq!(model.count(), 4);

    // Indexing the unchanged tree again keeps what the model wrote.
    let tree = s.path().join("paperclip");
    s.ok(&[
        "index",
        tree.to_str().unwrap(),
        "--repo",
        "paperclipai/paperclip",
    ]);
    let seed = s
        .records()
        .into_iter()
        .find(|r| r["lineNumber"] == 119)
        .unwrap();
    assert_eq!(seed["documentation"], SEED_DOC);
}
