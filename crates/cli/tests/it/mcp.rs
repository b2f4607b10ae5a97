//! `errata mcp`: a client speaks JSON-RPC over the server's stdio (the MCP stdio transport:
//! one message a line), completes the handshake, lists the tools and calls them.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::util::{errata_cmd, golden_indexed, seed, Scratch};

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Client {
    fn start(s: &Scratch) -> Client {
        let mut child = errata_cmd()
            .args(["mcp", "--db"])
            .arg(s.db())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Client {
            child,
            stdin,
            stdout,
            next: 1,
        }
    }

    fn send(&mut self, msg: Value) {
        writeln!(self.stdin, "{msg}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and reads lines until its response.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server closed stdout"
            );
            let v: Value = serde_json::from_str(&line).expect("each line is JSON-RPC");
            if v["id"] == id {
                return v;
            }
        }
    }
}

#[test]
fn an_agent_explains_the_seed_error_over_mcp() {
    let s = golden_indexed();
    let seed = seed();
    let message = seed["errorMessage"].as_str().unwrap();

    let mut c = Client::start(&s);
    let init = c.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "errata-test", "version": "0"}}),
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "errata", "{init}");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    let tools = c.request("tools/list", json!({}));
    let mut names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["explain_error", "get_error", "search_errors"]);

    let started = Instant::now();
    let r = c.request(
        "tools/call",
        json!({"name": "explain_error", "arguments": {"text": format!("Error: {message}")}}),
    );
    let took = started.elapsed();
    let m = &r["result"]["structuredContent"]["matches"][0];
    assert_eq!(m["record"]["errorMessage"], message, "{r}");
    assert_eq!(m["exact"], true);
    // Milliseconds, not seconds: far below any agent's tool-call time limit.
    assert!(took < Duration::from_secs(2), "{took:?}");

    let id = m["record"]["id"].as_str().unwrap().to_owned();
    let r = c.request(
        "tools/call",
        json!({"name": "get_error", "arguments": {"key": id}}),
    );
    assert_eq!(r["result"]["structuredContent"]["errorMessage"], message);
    // With its facts: what the explanation was written from.
    let r = c.request(
        "tools/call",
        json!({"name": "get_error", "arguments": {"key": id, "facts": true}}),
    );
    let answer = &r["result"]["structuredContent"];
    assert_eq!(answer["record"]["errorMessage"], message);
    assert_eq!(answer["facts"]["function"]["name"], "release", "{r}");
    let r = c.request(
        "tools/call",
        json!({"name": "search_errors", "arguments": {"query": "lease", "limit": 3}}),
    );
    let results = r["result"]["structuredContent"]["results"]
        .as_array()
        .unwrap();
    assert!(!results.is_empty() && results.len() <= 3, "{r}");

    // Mistakes come back as tool errors the agent can read.
    let r = c.request(
        "tools/call",
        json!({"name": "get_error", "arguments": {"key": "nope"}}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(r["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("search_errors"));
    let r = c.request(
        "tools/call",
        json!({"name": "explain_error", "arguments": {}}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    let r = c.request(
        "tools/call",
        json!({"name": "no_such_tool", "arguments": {}}),
    );
    assert!(r["error"].is_object(), "{r}");

    // Closing stdin ends the session cleanly.
    drop(c.stdin);
    let status = c.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

/// What a broken client sends gets a JSON-RPC error, and the session goes on: a line that is no
/// JSON (parse error, -32700), a request whose params are no object, a call of an unknown tool,
/// and a text of 10 MB to explain.
#[test]
fn malformed_messages_get_errors_and_the_session_goes_on() {
    let s = golden_indexed();
    let message = seed()["errorMessage"].as_str().unwrap().to_owned();
    let mut c = Client::start(&s);
    c.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "errata-test", "version": "0"}}),
    );
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    writeln!(c.stdin, "this is not JSON {{").unwrap();
    c.stdin.flush().unwrap();
    let mut line = String::new();
    c.stdout.read_line(&mut line).unwrap();
    let v: Value = serde_json::from_str(&line).expect("a JSON-RPC answer");
    assert_eq!(v["error"]["code"], -32700, "{v}");
    assert!(v["id"].is_null(), "{v}");

    let explain = |c: &mut Client, text: &str| {
        c.request(
            "tools/call",
            json!({"name": "explain_error", "arguments": {"text": text}}),
        )
    };
    let r = explain(&mut c, &format!("Error: {message}"));
    assert_eq!(
        r["result"]["structuredContent"]["matches"][0]["record"]["errorMessage"], message,
        "{r}"
    );
    // An invalid request is answered without its id: read the next line.
    c.send(json!({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": "no object"}));
    let mut line = String::new();
    c.stdout.read_line(&mut line).unwrap();
    let v: Value = serde_json::from_str(&line).expect("a JSON-RPC answer");
    assert!(v["error"]["code"].is_i64(), "{v}");
    let r = c.request(
        "tools/call",
        json!({"name": "no_such_tool", "arguments": {}}),
    );
    assert!(r["error"].is_object(), "{r}");
    let r = explain(&mut c, &"x".repeat(10 << 20));
    assert!(
        r["result"].is_object() || r["error"].is_object(),
        "{r:.200}"
    );
    let r = explain(&mut c, &format!("Error: {message}"));
    assert_eq!(
        r["result"]["structuredContent"]["matches"][0]["record"]["errorMessage"], message,
        "{r}"
    );
    drop(c.stdin);
    assert!(c.child.wait().unwrap().success());
}

/// The rmcp client, as an agent built on it would connect: the handshake, the tool list, and
/// the seed's record from `explain_error`.
#[test]
fn the_rmcp_client_gets_the_seed_record_from_explain_error() {
    use rmcp::model::CallToolRequestParams;
    use rmcp::ServiceExt;

    let s = golden_indexed();
    let seed = seed();
    let message = seed["errorMessage"].as_str().unwrap().to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_errata"))
            .args(["mcp", "--db"])
            .arg(s.db())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
        let client = ().serve(transport).await.expect("the handshake completes");
        let server = client.peer_info().expect("the server introduced itself");
        let name = server.server_info.as_ref().map(|i| i.name.as_str());
        assert_eq!(name, Some("errata"));

        let mut tools: Vec<String> = client
            .list_all_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name.into_owned())
            .collect();
        tools.sort();
        assert_eq!(tools, ["explain_error", "get_error", "search_errors"]);

        let args = json!({"text": format!("Error: {message}")});
        let result = client
            .call_tool(
                CallToolRequestParams::new("explain_error")
                    .with_arguments(args.as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        let answer = result.structured_content.expect("a structured answer");
        assert_eq!(answer["matches"][0]["record"]["errorMessage"], message);
        assert_eq!(answer["matches"][0]["exact"], true);

        client.cancel().await.unwrap();
        let status = child.wait().await.unwrap();
        assert!(status.success(), "{status:?}");
    });
}
