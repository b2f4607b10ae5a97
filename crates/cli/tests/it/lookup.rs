//! `errata explain` and `errata scan`: runtime text in, the records that produced it out.

use serde_json::Value;

use crate::util::{errata_cmd, golden_indexed, seed, Scratch};

/// Runs errata with stdin fed from `input`.
/// errata with `args` on the scratch store, its standard streams piped.
fn spawn_piped(s: &Scratch, args: &[&str]) -> std::process::Child {
    errata_cmd()
        .args(args)
        .arg("--db")
        .arg(s.db())
        .current_dir(s.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

fn with_stdin(s: &Scratch, args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = spawn_piped(s, args);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn explain_json(s: &Scratch, text: &str) -> (i32, Value) {
    let out = with_stdin(s, &["explain", "--json", "-n", "5", "-"], text.as_bytes());
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "explain --json printed no JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), v)
}

/// The first match's record: (file, line).
fn first(v: &Value) -> (String, u64) {
    let r = &v["matches"][0]["record"];
    (
        r["filePath"].as_str().unwrap_or_default().to_owned(),
        r["lineNumber"].as_u64().unwrap_or_default(),
    )
}

/// A tree where every runtime has the same message raised in two files, so only stack frames
/// can tell them apart.
pub(crate) fn twin_tree() -> Scratch {
    let s = Scratch::new();
    let pad = "\n".repeat(10);
    s.write(
        "py/pkg/a.py",
        "def load(name):\n    raise ValueError(f\"no such lease: {name}\")\n",
    );
    s.write(
        "py/pkg/b.py",
        format!("{pad}def load(name):\n    raise ValueError(f\"no such lease: {{name}}\")\n"),
    );
    s.write(
        "js/src/a.js",
        "function get(id) {\n  throw new Error(`Sandbox ${id} not found`);\n}\n",
    );
    s.write(
        "js/src/b.js",
        format!("{pad}function get(id) {{\n  throw new Error(`Sandbox ${{id}} not found`);\n}}\n"),
    );
    for (file, pad) in [("A", ""), ("B", pad.as_str())] {
        s.write(
            &format!("java/src/main/java/com/acme/{file}.java"),
            format!(
                "package com.acme;\n{pad}class {file} {{\n  void push(String q) {{\n    throw new IllegalStateException(\"Queue \" + q + \" is full\");\n  }}\n  void write(String q) throws java.io.IOException {{\n    throw new java.io.IOException(\"disk quota exceeded for \" + q);\n  }}\n}}\n"
            ),
        );
        s.write(
            &format!("go/pool/{}.go", file.to_lowercase()),
            format!(
                "package pool\n{pad}import \"fmt\"\n\nfunc Release(id int) {{\n\tpanic(fmt.Sprintf(\"lease %d expired\", id))\n}}\n"
            ),
        );
        s.write(
            &format!("rs/src/{}.rs", file.to_lowercase()),
            format!("{pad}pub fn release(id: u32) {{\n    panic!(\"lease {{}} was already released\", id);\n}}\n"),
        );
    }
    s.ok(&["index", ".", "--repo", "acme/twins"]);
    s
}

fn line_of(s: &Scratch, rel: &str, needle: &str) -> u64 {
    let text = std::fs::read_to_string(s.path().join(rel)).unwrap();
    text.lines().position(|l| l.contains(needle)).unwrap() as u64 + 1
}

#[test]
fn stack_traces_pick_the_record_their_frames_point_to() {
    let s = twin_tree();
    let cases = [
        (
            "python",
            format!(
                "Traceback (most recent call last):\n  File \"/srv/app/main.py\", line 3, in <module>\n    load(\"x\")\n  File \"/srv/app/py/pkg/b.py\", line {}, in load\n    raise ValueError(f\"no such lease: {{name}}\")\nValueError: no such lease: x\n",
                line_of(&s, "py/pkg/b.py", "raise")
            ),
            "py/pkg/b.py",
        ),
        (
            "node",
            format!(
                "Error: Sandbox sb-1 not found\n    at get (/app/js/src/b.js:{}:9)\n    at async main (/app/js/src/index.js:4:3)\n    at new Promise (<anonymous>)\n",
                line_of(&s, "js/src/b.js", "throw")
            ),
            "js/src/b.js",
        ),
        (
            "java",
            format!(
                "Exception in thread \"main\" java.lang.IllegalStateException: Queue jobs is full\n\tat com.acme.B.push(B.java:{})\n\tat com.acme.Main.main(Main.java:7)\n",
                line_of(&s, "java/src/main/java/com/acme/B.java", "Queue")
            ),
            "java/src/main/java/com/acme/B.java",
        ),
        (
            "go",
            format!(
                "panic: lease 7 expired\n\ngoroutine 1 [running]:\nexample.com/pool.Release(0x7)\n\t/home/ci/src/go/pool/b.go:{} +0x1d\nmain.main()\n\t/home/ci/src/main.go:9 +0x25\nexit status 2\n",
                line_of(&s, "go/pool/b.go", "panic")
            ),
            "go/pool/b.go",
        ),
        (
            "rust",
            format!(
                "thread 'main' panicked at rs/src/b.rs:{}:5:\nlease 7 was already released\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
                line_of(&s, "rs/src/b.rs", "panic")
            ),
            "rs/src/b.rs",
        ),
    ];
    for (runtime, trace, want) in cases {
        let (code, v) = explain_json(&s, &trace);
        assert_eq!(code, 0, "{runtime}: {v}");
        assert_eq!(first(&v).0, want, "{runtime}: {v:#}");
        // Both twins match; the frames decide the order.
        assert!(v["matches"].as_array().unwrap().len() >= 2, "{runtime}");
        // The same message without its trace still matches, in file order.
        let message = trace
            .lines()
            .find(|l| {
                !l.starts_with(' ') && ["lease", "Sandbox", "Queue"].iter().any(|w| l.contains(w))
            })
            .unwrap();
        let (code, v) = explain_json(&s, message);
        assert_eq!(code, 0, "{runtime} message alone");
        assert!(
            v["matches"][0]["exact"].as_bool().unwrap(),
            "{runtime}: {v:#}"
        );
    }
}

#[test]
fn java_cause_chains_match_each_exception() {
    let s = twin_tree();
    let trace = format!(
        "com.acme.JobFailed: job 12 failed\n\tat com.acme.Main.run(Main.java:20)\nCaused by: java.io.IOException: disk quota exceeded for jobs\n\tat com.acme.A.write(A.java:{})\n\t... 3 more\n",
        line_of(&s, "java/src/main/java/com/acme/A.java", "disk quota")
    );
    let (code, v) = explain_json(&s, &trace);
    assert_eq!(code, 0);
    assert_eq!(first(&v).0, "java/src/main/java/com/acme/A.java");
    let captures = &v["matches"][0]["captures"];
    assert_eq!(captures[0]["value"], "jobs", "{v:#}");
}

#[test]
fn explain_fills_in_placeholder_values_and_names_them() {
    let s = twin_tree();
    let (code, v) = explain_json(
        &s,
        "2024-05-01T12:00:00.123Z ERROR [worker-3] pool: lease 42 was already released",
    );
    assert_eq!(code, 0, "{v}");
    let m = &v["matches"][0];
    assert_eq!(m["exact"], true);
    assert_eq!(m["captures"][0]["name"], "{}");
    assert_eq!(m["captures"][0]["value"], "42");
    assert_eq!(m["record"]["schemaVersion"], 2);
    assert!(m["score"].as_f64().unwrap() > 0.5);
}

#[test]
fn the_seed_message_finds_the_seed_record() {
    let s = golden_indexed();
    let seed = seed();
    let message = seed["errorMessage"].as_str().unwrap();
    let line = format!("[plugin:createos] Error: {message}\n    at release (/srv/paperclip/packages/plugins/sandbox-providers/createos/src/plugin.ts:119:45)");
    let (code, v) = explain_json(&s, &line);
    assert_eq!(code, 0);
    for field in ["errorMessage", "filePath", "lineNumber", "githubUrl"] {
        assert_eq!(v["matches"][0]["record"][field], seed[field], "{field}");
    }
    assert_eq!(v["matches"][0]["exact"], true);
    // On a terminal-less stdout the human form names the record and marks the raising line.
    let human = s.ok(&["explain", message]);
    assert!(human.contains("exact match"), "{human}");
    assert!(human.contains(">119 |"), "{human}");
}

#[test]
fn nothing_matching_exits_1_and_names_the_nearest() {
    let s = twin_tree();
    let out = s.errata(&["explain", "lease 7 was released already"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no record matches"), "{err}");
    assert!(
        err.contains("approximate") && err.contains("rs/src/"),
        "{err}"
    );
    let (code, v) = explain_json(&s, "lease 7 was released already");
    assert_eq!(code, 1);
    assert_eq!(v["matches"][0]["approximate"], true);
    assert!(v["matches"][0]["score"].as_f64().unwrap() < 0.5);
    // Ordinary log lines match nothing at all.
    let out = s.errata(&["explain", "2024-05-01 INFO GET /healthz 200 0.3ms"]);
    assert_eq!(out.status.code(), Some(1));
    // Empty text is a usage error.
    let out = with_stdin(&s, &["explain", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn scan_annotates_matched_lines_and_sums_them_up() {
    let s = twin_tree();
    let log = "2024-05-01 12:00:00 INFO starting\n\
               2024-05-01 12:00:01 ERROR lease 7 was already released\n\
               2024-05-01 12:00:02 INFO GET / 200\n\
               {\"level\":\"error\",\"msg\":\"Sandbox sb-9 not found\"}\n\
               Traceback (most recent call last):\n  File \"/x/py/pkg/a.py\", line 2, in load\nValueError: no such lease: q\n\
               2024-05-01 12:00:03 ERROR lease 8 was already released\n";
    s.write("app.log", log);
    let out = s.errata(&["scan", "--json", "app.log"]);
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let numbers: Vec<u64> = lines.iter().map(|l| l["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [2, 4, 7, 8]);
    assert_eq!(
        lines[0]["text"],
        "2024-05-01 12:00:01 ERROR lease 7 was already released"
    );
    for l in &lines {
        let m = &l["matches"][0];
        assert!(m["id"].as_str().unwrap().len() == 16 && m["slug"].is_string());
        assert!(m["score"].as_f64().unwrap() > 0.5);
    }
    // The Python traceback's frame picks a.py.
    let py = &lines[2]["matches"][0]["id"];
    let shown = s.ok(&["show", py.as_str().unwrap(), "--json"]);
    assert!(shown.contains("\"filePath\":\"py/pkg/a.py\""), "{shown}");
    let summary = String::from_utf8(out.stderr).unwrap();
    // Each line counts once, for its best record, though each names the twin record too.
    assert!(
        summary.contains("8 lines read, 4 matched, 3 distinct records"),
        "{summary}"
    );

    // Human form: every line echoed, matched ones annotated, then the summary.
    let human = s.ok(&["scan", "app.log"]);
    assert!(human.contains("INFO starting"));
    assert!(human.contains("↳ errata: line 2 is"), "{human}");
    // Each annotation is right under its line, or under the last line of its trace.
    let under = |line: &str, annotation: &str| {
        let echoed: Vec<&str> = human.lines().collect();
        let at = echoed.iter().position(|l| *l == line).expect("echoed");
        assert!(
            echoed[at + 1].trim_start().starts_with(annotation),
            "{annotation} under {line}:\n{human}"
        );
    };
    under(
        "2024-05-01 12:00:01 ERROR lease 7 was already released",
        "↳ errata: line 2 is",
    );
    under(
        "  File \"/x/py/pkg/a.py\", line 2, in load",
        "ValueError: no such lease: q",
    );
    under("ValueError: no such lease: q", "↳ errata: line 7 is");
    under(
        "2024-05-01 12:00:03 ERROR lease 8 was already released",
        "↳ errata: line 8 is",
    );
    assert!(human.contains("{}=\"7\""), "{human}");
    assert!(
        human
            .lines()
            .any(|l| l.trim_start().starts_with("2 ") && l.contains(" 2 ") && l.contains(" 8 ")),
        "{human}"
    );

    // --fail-on-match: 1 when anything matched, 0 when nothing did.
    assert_eq!(
        s.errata(&["scan", "--fail-on-match", "app.log"])
            .status
            .code(),
        Some(1)
    );
    s.write("clean.log", "all good\n");
    assert_eq!(
        s.errata(&["scan", "--fail-on-match", "clean.log"])
            .status
            .code(),
        Some(0)
    );
}

/// A live log (`tail -f app.log | errata scan --json`): each error is reported while the input
/// is still open, not when it ends or a batch fills. The input stays open until the report
/// has come, or the test gives up after a minute.
#[test]
fn scan_reports_a_live_log_before_it_ends() {
    use std::io::{BufRead, Write};
    let s = twin_tree();
    let mut child = spawn_piped(&s, &["scan", "--json"]);
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    stdin
        .write_all(b"2024-05-01 12:00:00 INFO starting\n2024-05-01 12:00:01 ERROR lease 7 was already released\n")
        .unwrap();
    stdin.flush().unwrap();
    let first = rx.recv_timeout(std::time::Duration::from_secs(60));
    // The writer is still there: the report came from a pause, not from the end.
    stdin
        .write_all(b"2024-05-01 12:00:02 ERROR lease 8 was already released\n")
        .unwrap();
    drop(stdin);
    let first = first.expect("no report while the input was open");
    let v: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["line"], 2, "{first}");
    let rest: Vec<String> = rx.iter().collect();
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert!(rest[0].contains("\"line\":3"), "{rest:?}");
}

#[test]
fn output_cut_short_by_a_closed_pipe_is_no_error() {
    // `errata show … | head -1`: the reader goes away after the first line.
    let s = twin_tree();
    let text = "pool: lease 42 was already released";
    let (_, v) = explain_json(&s, text);
    let id = v["matches"][0]["record"]["id"].as_str().unwrap().to_owned();
    for args in [&["explain", text][..], &["show", &id][..], &["stats"][..]] {
        let mut child = spawn_piped(&s, args);
        drop(child.stdin.take());
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    }
}

#[test]
fn scan_survives_bad_input() {
    let s = twin_tree();
    // Empty input, binary data, invalid UTF-8 and a 10 MB line, then a real match.
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"\x00\x01\x02\xff\xfe binary \x00\n");
    input.extend_from_slice(b"bad \xc3\x28 utf8: lease 3 was already released\n");
    input.extend(std::iter::repeat_n(b'a', 10 << 20));
    input.extend_from_slice(b" lease 4 was already released\n");
    input.extend_from_slice(b"lease 5 was already released\n");
    let out = with_stdin(&s, &["scan", "--json"], &input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let numbers: Vec<u64> = lines.iter().map(|l| l["line"].as_u64().unwrap()).collect();
    // The 10 MB line is cut before its message: only its start is read.
    assert_eq!(numbers, [2, 4]);
    let out = with_stdin(&s, &["scan", "--json"], b"");
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    // A missing file is reported and the others are still read.
    s.write("ok.log", "lease 5 was already released\n");
    let out = s.errata(&["scan", "--json", "missing.log", "ok.log"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read missing.log"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"file\":\"ok.log\""));
}

#[test]
fn an_untrusted_dataset_cannot_slow_matching_down() {
    // Patterns from elsewhere: catastrophic for backtracking engines, huge, or invalid.
    let s = twin_tree();
    let conn_path = s.db();
    let evil = [
        ("e1", r"timeout (a+)+b"),
        ("e2", r"(x+x+)+y waiting"),
        ("e3", r"error (.{1000}){1000}"),
        ("e4", r"broken (("),
    ];
    for (id, pattern) in evil {
        let status = std::process::Command::new("python3")
            .arg("-c")
            .arg(
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \
                 c.execute(\"INSERT INTO records (id, repo, file_path, lang, slug, error_type, message, line_number, content_hash, json, pattern) \
                 SELECT ?, repo, file_path, lang, ?, error_type, ?, line_number, content_hash, json, ? FROM records LIMIT 1\", (sys.argv[2], sys.argv[2], sys.argv[3], sys.argv[3])); c.commit()",
            )
            .args([conn_path.to_str().unwrap(), id, pattern, pattern])
            .status()
            .expect("python3 runs");
        assert!(status.success());
    }
    let line = format!("timeout {}", "a".repeat(200_000));
    let out = with_stdin(
        &s,
        &["scan", "--json"],
        format!("{line}\nlease 1 was already released\n").as_bytes(),
    );
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("errata cannot run"), "{err}");
}

/// A small deterministic generator, so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// A rendering of a `messagePattern`: each group replaced by a value, escapes undone.
fn render(pattern: &str, rng: &mut Rng) -> String {
    const VALUES: [&str; 12] = [
        "",
        "x",
        "two words",
        "a.*b(c)[d]+?",
        "$1 \\d {x}",
        "42",
        "/tmp/some path/file.txt",
        "ünïcødé",
        "'quoted'",
        "-1.5e3",
        "<None>",
        "ERR_X",
    ];
    let mut out = String::new();
    let mut rest = pattern;
    while let Some(c) = rest.chars().next() {
        if let Some(g) = ["(.*?)", "(.*)"].iter().find(|g| rest.starts_with(**g)) {
            out.push_str(rng.pick(&VALUES));
            rest = &rest[g.len()..];
        } else if c == '\\' {
            let e = rest[1..].chars().next().unwrap();
            out.push(e);
            rest = &rest[1 + e.len_utf8()..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Renders every record of a corpus into a log line, scans the log, and checks that the first
/// match of each line has the record's template.
fn round_trip(c: Option<&crate::corpora::Indexed>, name: &str) {
    let Some(c) = c else { return };
    let records = c.scratch.records();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut log = String::new();
    let mut expected: Vec<String> = Vec::new();
    let (mut vague, mut multiline) = (0, 0);
    let prefixes = [
        "2024-05-01T12:00:00.123Z ERROR ",
        "2024-05-01 12:00:00,123 - app.worker - ERROR - ",
        "[2024-05-01 12:00:00] [error] [req-7f3a] ",
        "May  1 12:00:00 host app[4242]: ",
        "E0501 12:00:00.123456   42 main.go:91] ",
        "12:00:00.001 [main] WARN com.acme.Service - ",
    ];
    for r in &records {
        let pattern = r["messagePattern"].as_str().unwrap();
        if errata_matcher::template::Shape::compile(pattern).is_err() {
            vague += 1;
            continue;
        }
        let message = render(pattern, &mut rng);
        if message.contains(['\n', '\r']) || message.trim().is_empty() {
            multiline += 1;
            continue;
        }
        log.push_str(rng.pick(&prefixes));
        log.push_str(&message);
        log.push('\n');
        expected.push(pattern.to_owned());
    }
    c.scratch.write("round-trip.log", &log);
    let out = c.scratch.errata(&["scan", "--json", "round-trip.log"]);
    assert!(out.status.success());
    let pattern_of: std::collections::HashMap<&str, &str> = records
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap(),
                r["messagePattern"].as_str().unwrap(),
            )
        })
        .collect();
    let mut first: Vec<Option<String>> = vec![None; expected.len()];
    for l in String::from_utf8(out.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(l).unwrap();
        let n = v["line"].as_u64().unwrap() as usize - 1;
        let id = v["matches"][0]["id"].as_str().unwrap();
        first[n] = Some(pattern_of[id].to_owned());
    }
    let right = expected
        .iter()
        .zip(&first)
        .filter(|(want, got)| got.as_deref() == Some(want.as_str()))
        .count();
    let share = right as f64 / expected.len() as f64;
    eprintln!(
        "round trip {name}: {right}/{} lines name their template first ({:.2}%); left out: {vague} templates too vague to match alone, {multiline} multi-line or empty renderings",
        expected.len(),
        100.0 * share
    );
    for (i, (want, got)) in expected.iter().zip(&first).enumerate() {
        if got.as_deref() != Some(want.as_str()) {
            eprintln!("  miss line {}: want {want:?} got {got:?}", i + 1);
        }
    }
    assert!(share >= 0.99, "{name}: only {:.2}% matched", 100.0 * share);
}

#[test]
fn every_cpython_message_rendered_into_a_log_is_matched_back() {
    round_trip(crate::corpora::cpython(), "cpython-stdlib");
}

#[test]
fn every_npm_message_rendered_into_a_log_is_matched_back() {
    round_trip(crate::corpora::npm_all(), "npm");
}

/// Runs `cmd` and returns what it printed to stdout and stderr, or None when it cannot run.
fn output_of(cmd: &mut std::process::Command) -> Option<String> {
    let out = cmd.output().ok()?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Some(text)
}

/// The first match of an error text, which must match something.
fn first_match(s: &Scratch, text: &str) -> Value {
    let (code, v) = explain_json(s, text);
    assert_eq!(code, 0, "nothing matched {text:?}: {v}");
    v["matches"][0].clone()
}

/// A string field of a record, empty when it is null.
fn field(record: &Value, key: &str) -> String {
    record[key].as_str().unwrap_or_default().to_owned()
}

/// The first match's record of an error text, a real match: (file, class, type).
fn explained(s: &Scratch, text: &str) -> (String, String, String) {
    let m = first_match(s, text);
    assert_eq!(m["approximate"], false, "{text:?}: {m}");
    let r = &m["record"];
    (
        field(r, "filePath"),
        field(r, "errorClass"),
        field(r, "errorType"),
    )
}

/// [`explained`], for a text that must come from a file ending in `file`: (class, type).
fn explained_from(s: &Scratch, text: &str, file: &str) -> (String, String) {
    let (found, class, ty) = explained(s, text);
    assert!(found.ends_with(file), "{text} -> {found}");
    (class, ty)
}

/// Errors that Python's standard library really prints are matched to the code that makes
/// them: argparse's messages are translated (`_('…')`) and reported with `parser.error`, an
/// exception class builds its message in `__init__`.
#[test]
fn real_python_errors_are_explained_by_the_code_that_made_them() {
    let Some(c) = crate::corpora::cpython() else {
        return;
    };
    let script = "import argparse, sys\n\
        p = argparse.ArgumentParser(prog='tool')\n\
        p.add_argument('--mode', choices=['a', 'b'])\n\
        p.add_argument('path')\n\
        p.parse_args(sys.argv[1:])\n";
    let run = |args: &[&str]| {
        output_of(
            std::process::Command::new("python3")
                .args(["-c", script])
                .args(args),
        )
    };
    let Some(missing) = run(&[]) else {
        eprintln!("python3 cannot run here; skipped");
        return;
    };
    let missing = missing.lines().last().unwrap_or_default().to_owned();
    assert!(
        missing.contains("the following arguments are required"),
        "{missing}"
    );
    let (_, ty) = explained_from(&c.scratch, &missing, "argparse.py");
    assert_eq!(ty, "exit", "{missing}");

    let choice = run(&["--mode", "z", "x"]).unwrap();
    let choice = choice.lines().last().unwrap_or_default().to_owned();
    let (class, _) = explained_from(&c.scratch, &choice, "argparse.py");
    assert_eq!(class, "ArgumentError", "{choice}");

    // tomllib raises what a factory returns: `raise suffixed_err(src, pos, "Invalid value")`.
    let toml = output_of(
        std::process::Command::new("python3").args(["-c", "import tomllib; tomllib.loads('a = ')"]),
    )
    .unwrap();
    let toml = toml.lines().last().unwrap_or_default().to_owned();
    assert!(toml.contains("Invalid value"), "{toml}");
    let (class, _) = explained_from(&c.scratch, &toml, "tomllib/_parser.py");
    assert_eq!(class, "TOMLDecodeError", "{toml}");
    // An exception class's `__str__` words what it prints: subprocess's CalledProcessError,
    // urllib's HTTPError. JSONDecodeError's constructor words the message its raise passes:
    // `raise JSONDecodeError("Expecting value", s, pos)` prints
    // "Expecting value: line 1 column 1 (char 0)".
    for (code, file, class, words) in [
        (
            "import json; json.loads('')",
            "json/decoder.py",
            "JSONDecodeError",
            "Expecting value: line 1 column 1 (char 0)",
        ),
        (
            "import subprocess; subprocess.run(['false'], check=True)",
            "subprocess.py",
            "CalledProcessError",
            "returned non-zero exit status 1.",
        ),
        (
            "import urllib.error as e; raise e.HTTPError('http://x', 404, 'Not Found', {}, None)",
            "urllib/error.py",
            "HTTPError",
            "HTTP Error 404: Not Found",
        ),
    ] {
        let out = output_of(std::process::Command::new("python3").args(["-c", code])).unwrap();
        let last = out.lines().last().unwrap_or_default().to_owned();
        assert!(last.contains(words), "{last}");
        let (got, _) = explained_from(&c.scratch, &last, file);
        assert_eq!(got, class, "{last}");
        assert_eq!(first_match(&c.scratch, &last)["exact"], true, "{last}");
    }
    // One word of a template, found inside a longer message, says nothing: locale's error
    // comes from C, and no `Error` raised in a test may claim it.
    let (code, v) = explain_json(&c.scratch, "locale.Error: unsupported locale setting");
    assert!(code == 1 || v["matches"][0]["approximate"] == true, "{v:#}");
}

/// Errors that Go's standard library really returns are matched to the type that words them:
/// `strconv.Atoi`'s comes from `(*NumError).Error`, `json.Unmarshal`'s from
/// `(*UnmarshalTypeError).Error`, or from the `&SyntaxError{…}` its scanner builds; a bad
/// host and port from the `&AddrError{…}` of the closure `net.SplitHostPort` calls.
#[test]
fn real_go_errors_are_explained_by_the_error_type_that_words_them() {
    let Some(c) = crate::corpora::go() else {
        return;
    };
    let program = r#"package main

import (
	"encoding/json"
	"fmt"
	"net"
	"strconv"
)

func main() {
	_, err := strconv.Atoi("x1")
	fmt.Println(err)
	var n int
	fmt.Println(json.Unmarshal([]byte(`"s"`), &n))
	_, _, err = net.SplitHostPort("x")
	fmt.Println(err)
	var v any
	fmt.Println(json.Unmarshal([]byte("{x"), &v))
}
"#;
    let main = c.scratch.write("real-go/main.go", program);
    let Some(out) = output_of(std::process::Command::new("go").arg("run").arg(&main)) else {
        eprintln!("go cannot run here; skipped");
        return;
    };
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "go run printed {out}");
    let (class, ty) = explained_from(&c.scratch, lines[0], "strconv/atoi.go");
    assert_eq!((class.as_str(), ty.as_str()), ("NumError", "error-return"));
    let (class, _) = explained_from(&c.scratch, lines[1], "encoding/json/decode.go");
    assert_eq!(class, "UnmarshalTypeError");
    // `addrErr(hostport, missingPort)`, a closure that returns `&AddrError{Err: why, …}`.
    let (class, _) = explained_from(&c.scratch, lines[2], "net/ipsock.go");
    assert_eq!(class, "AddrError");
    // `&SyntaxError{"invalid character " + quoteChar(c) + " " + context, s.bytes}`.
    let (class, _) = explained_from(&c.scratch, lines[3], "encoding/json/scanner.go");
    assert_eq!(class, "SyntaxError");
}

/// Errors that the JDK really throws through a parser's raiser are matched to the call that
/// passes their message: `new URI("://x")` fails in `failExpecting("scheme name", 0)`, which
/// calls `fail("Expected " + expected, p)`, which throws `URISyntaxException`; a bad regex
/// fails in `throw error("Unclosed counted closure")`.
#[test]
fn real_java_errors_are_explained_by_the_call_that_passes_the_message() {
    let Some(c) = crate::corpora::jdk() else {
        return;
    };
    let program = r#"public class Probe {
    public static void main(String[] a) {
        try { new java.net.URI("://x"); } catch (Exception e) { System.out.println(e); }
        try { java.util.regex.Pattern.compile("a{2"); } catch (Exception e) {
            System.out.println(e.toString().lines().findFirst().get());
        }
        try { String.format("%q", 1); } catch (Exception e) { System.out.println(e); }
        try {
            java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                .decode(java.nio.ByteBuffer.wrap(new byte[] {(byte) 0xff}));
        } catch (Exception e) { System.out.println(e); }
    }
}
"#;
    let main = c.scratch.write("real-java/Probe.java", program);
    let Some(out) = output_of(std::process::Command::new("java").arg(&main)) else {
        eprintln!("java cannot run here; skipped");
        return;
    };
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "java printed {out}");
    // (file, message, class) of the first record each line matches.
    let first = |line: &str| {
        let r = first_match(&c.scratch, line)["record"].clone();
        (
            field(&r, "filePath"),
            field(&r, "errorMessage"),
            field(&r, "errorClass"),
        )
    };
    let (file, message, class) = first(lines[0]);
    assert!(
        file.ends_with("java/net/URI.java"),
        "{} -> {file}",
        lines[0]
    );
    assert_eq!(
        (message.as_str(), class.as_str()),
        ("Expected scheme name", "URISyntaxException")
    );
    let (file, message, _) = first(lines[1]);
    assert!(
        file.ends_with("java/util/regex/Pattern.java"),
        "{} -> {file}",
        lines[1]
    );
    assert_eq!(message, "Unclosed counted closure");
    // Exception classes that word their message in `getMessage()`.
    for (line, file, class) in [
        (
            lines[2],
            "java/util/UnknownFormatConversionException.java",
            "UnknownFormatConversionException",
        ),
        (
            lines[3],
            "java/nio/charset/MalformedInputException.java",
            "MalformedInputException",
        ),
    ] {
        let (f, _, c) = first(line);
        assert!(f.ends_with(file), "{line} -> {f}");
        assert_eq!(c, class, "{line}");
    }
}

#[test]
fn formatted_messages_match_their_renderings_whatever_formats_them() {
    // Go's %q and %t, a Python logger given arguments and `.format_map`, `console.error` given
    // arguments, a Java class whose constructor formats its message: each directive is a
    // placeholder the rendering fills.
    let s = Scratch::new();
    s.write(
        "repo/lookup.go",
        "package repo\n\nimport \"fmt\"\n\nfunc Lookup(name string, strict bool) error {\n\treturn fmt.Errorf(\"unknown key %q (strict=%t)\", name, strict)\n}\n",
    );
    s.write(
        "repo/sock.py",
        "import logging\n\nlogger = logging.getLogger(__name__)\n\n\ndef clean(addr, err):\n    logger.error(\"cannot remove stale socket %r: %r\", addr, err)\n\n\ndef check(name):\n    raise ValueError(\"{field} is a required field\".format_map({\"field\": name}))\n",
    );
    s.write(
        "repo/open.js",
        "function open(path, err) {\n  console.error(\"cannot open %s: %s\", path, err);\n}\n",
    );
    s.write(
        "repo/Fields.java",
        "class Fields {\n    Object field(String f) {\n        throw new JVMCIError(\"unresolved field %s in %s\", f, this);\n    }\n}\n",
    );
    s.ok(&["index", "repo"]);
    for (text, file) in [
        (
            "2026-11-30T10:00:00Z ERROR unknown key \"color\" (strict=true)",
            "lookup.go",
        ),
        (
            "ERROR:asyncio:cannot remove stale socket '/tmp/s': PermissionError(13)",
            "sock.py",
        ),
        (
            "jdk.vm.ci.common.JVMCIError: unresolved field x in Fields@1f",
            "Fields.java",
        ),
        ("ValueError: 'version' is a required field", "sock.py"),
        ("cannot open /etc/app.json: EACCES", "open.js"),
    ] {
        let (code, v) = explain_json(&s, text);
        assert_eq!(code, 0, "{text}: {v}");
        assert_eq!(first(&v).0, file, "{text}: {v}");
        assert_eq!(v["matches"][0]["exact"], true, "{text}: {v}");
    }
}

/// A traceback prints the line that raised. An error whose message is made elsewhere (the
/// class's `__str__` of the arguments it was given) is found by that line, from another
/// release where the lines have moved, even when another record's text matches the message
/// (smtplib's `raise SMTPAuthenticationError(code, resp)`, pasted in
/// AlfredoSequeida/etext#5).
#[test]
fn a_quoted_raise_line_names_the_record_that_raised() {
    let s = Scratch::new();
    s.write(
        "mail/auth.py",
        "class AuthError(Exception):\n    pass\n\n\ndef login(code, resp):\n    if code != 235:\n        raise AuthError(code, resp)\n",
    );
    s.write(
        "mail/other.py",
        "def greet(code):\n    raise RuntimeError(\"(%d, b'denied')\" % code)\n",
    );
    s.ok(&["index", ".", "--repo", "acme/mail"]);
    let trace = "Traceback (most recent call last):\n  File \"/opt/app/run.py\", line 9, in <module>\n    login(535, b'denied')\n  File \"/usr/lib/python3/site-packages/mail/auth.py\", line 41, in login\n    raise AuthError(code, resp)\nmail.auth.AuthError: (535, b'denied')\n";
    let (code, v) = explain_json(&s, trace);
    assert_eq!(code, 0, "{v}");
    assert_eq!(first(&v), ("mail/auth.py".to_owned(), 7), "{v:#}");
    // The quoted line alone, with no frame, names it too: one record raises it.
    let bare = "    raise AuthError(code, resp)\nmail.auth.AuthError: (535, b'denied')\n";
    assert_eq!(first(&explain_json(&s, bare).1).0, "mail/auth.py");
    // A line raised in many places names none of them.
    let common = "    raise RuntimeError(msg)\nRuntimeError: (535, b'denied')\n";
    assert_ne!(first(&explain_json(&s, common).1).0, "mail/auth.py");
}

/// A traceback of another release, cut before its exception line (pwndbg/pwndbg#662): the
/// innermost frame's number has moved, but the line printed under it is a line of the raise
/// in that function, which names it. A frame of a module at the top of the standard library
/// (`/usr/lib/python3.7/configparser.py`) is the file of this release's folder
/// (`lib/python3.11/configparser.py`): its function and the exception's class name the raise
/// (jblance/mpp-solar#102).
#[test]
fn a_frame_of_another_release_names_its_raise_by_the_line_it_quotes() {
    let s = Scratch::new();
    s.write(
        "lib/python3.11/subprocess.py",
        "class CalledProcessError(Exception):\n    def __str__(self):\n        return \"Command '%s' returned non-zero exit status %d.\" % (self.cmd, self.returncode)\n\n\ndef run(*popenargs, check=False, **kwargs):\n    if kwargs.get('input') and kwargs.get('stdin'):\n        raise ValueError('stdin and input arguments may not both be used.')\n    retcode, stdout, stderr = _spawn(popenargs)\n    if check and retcode:\n        raise CalledProcessError(retcode, popenargs,\n                                 output=stdout, stderr=stderr)\n    return retcode\n",
    );
    s.write(
        "lib/python3.11/configparser.py",
        "class DuplicateSectionError(Exception):\n    def __init__(self, section, source=None, lineno=None):\n        msg = [repr(section), \" already exists\"]\n        Exception.__init__(self, \"\".join(msg))\n\n\nclass Parser:\n    def _read(self, fp, fpname):\n        for lineno, line in enumerate(fp):\n            if line in self._sections:\n                raise DuplicateSectionError(line, fpname, lineno)\n",
    );
    s.ok(&["index", ".", "--repo", "acme/py"]);
    let cut = "Traceback (most recent call last):\n  File \"/root/pwndbg/wrappers/__init__.py\", line 35, in call_cmd\n    return subprocess.check_output(cmd, stderr=STDOUT).decode('utf-8')\n  File \"/usr/lib/python3.7/subprocess.py\", line 487, in run\n    output=stdout, stderr=stderr)\n";
    let (code, v) = explain_json(&s, cut);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        first(&v),
        ("lib/python3.11/subprocess.py".to_owned(), 11),
        "{v:#}"
    );
    // A line the function's raise does not hold names nothing there.
    let other = cut.replace("output=stdout, stderr=stderr)", "retcode = process.poll()");
    let (_, v) = explain_json(&s, &other);
    assert_ne!(first(&v).0, "lib/python3.11/subprocess.py", "{v:#}");

    let trace = "Traceback (most recent call last):\n  File \"/usr/lib/python3.7/configparser.py\", line 1065, in _read\n    lineno)\nconfigparser.DuplicateSectionError: While reading from '/etc/app.conf' [line 38]: section 'Hass' already exists\n";
    let (code, v) = explain_json(&s, trace);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        first(&v),
        ("lib/python3.11/configparser.py".to_owned(), 11),
        "{v:#}"
    );
}

/// A Go helper that puts the message it is given into its named result (`err.Msg = msg` of
/// `newRecordHeaderError(conn, msg string) (err RecordHeaderError)`): each call that passes a
/// message is where the error is made, and a log line that wraps it finds that call
/// (percona/pmm-client#28).
#[test]
fn a_go_helper_that_words_its_named_result_makes_each_call_a_record() {
    let s = Scratch::new();
    s.write(
        "tls/conn.go",
        "package tls\n\nimport \"net\"\n\ntype RecordHeaderError struct {\n\tMsg  string\n\tConn net.Conn\n}\n\nfunc (e RecordHeaderError) Error() string { return \"tls: \" + e.Msg }\n\nfunc (c *Conn) newRecordHeaderError(conn net.Conn, msg string) (err RecordHeaderError) {\n\terr.Msg = msg\n\terr.Conn = conn\n\treturn err\n}\n\nfunc (c *Conn) readRecord() error {\n\tif c.first {\n\t\treturn c.in.setErrorLocked(c.newRecordHeaderError(c.conn, \"first record does not look like a TLS handshake\"))\n\t}\n\treturn nil\n}\n",
    );
    s.ok(&["index", ".", "--repo", "acme/tls"]);
    let line = "2017/02/28 16:33:47 http: TLS handshake error from 192.168.67.23:43970: tls: first record does not look like a TLS handshake";
    let (code, v) = explain_json(&s, line);
    assert_eq!(code, 0, "{v}");
    assert_eq!(first(&v), ("tls/conn.go".to_owned(), 20), "{v:#}");
    assert_eq!(v["matches"][0]["record"]["errorClass"], "RecordHeaderError");

    // A helper that formats the format it is given into its own (text/template's `errorf`):
    // each call's format is the message, inside the helper's words (hashicorp/consul-template#373).
    s.write(
        "parse/parse.go",
        "package parse\n\nimport \"fmt\"\n\nfunc (t *Tree) errorf(format string, args ...any) {\n\tt.Root = nil\n\tformat = fmt.Sprintf(\"template: %s:%d: %s\", t.ParseName, t.line, format)\n\tpanic(fmt.Errorf(format, args...))\n}\n\nfunc (t *Tree) term() Node {\n\tif !t.hasFunction(t.val) {\n\t\tt.errorf(\"function %q not defined\", t.val)\n\t}\n\treturn nil\n}\n",
    );
    s.ok(&["index", ".", "--repo", "acme/tls"]);
    let paste = "Consul Template returned errors:\ntemplate: template: redis.ctmpl:1: function \"node\" not defined";
    let (code, v) = explain_json(&s, paste);
    assert_eq!(code, 0, "{v}");
    assert_eq!(first(&v), ("parse/parse.go".to_owned(), 13), "{v:#}");
}

/// A Rust constant of another module of the crate (`panic!("{}",
/// crate::util::error::CONTEXT_MISSING_ERROR)`, `f.write_str(CONTEXT_MISSING_ERROR)` after
/// `use crate::util::error::{…}`) is the message, and a panic that prints it finds its raises
/// (naim94a/lumen#19).
#[test]
fn a_rust_constant_of_another_module_is_the_message() {
    let s = Scratch::new();
    s.write("tok/Cargo.toml", "[package]\nname = \"tok\"\n");
    s.write(
        "tok/src/util/error.rs",
        "/// Error string explaining that the context hasn't been instantiated.\npub(crate) const CONTEXT_MISSING_ERROR: &str =\n    \"there is no reactor running, must be called from the context of a Tokio 1.x runtime\";\n",
    );
    s.write(
        "tok/src/runtime/handle.rs",
        "use crate::util::error::{CONTEXT_MISSING_ERROR, THREAD_LOCAL_DESTROYED_ERROR};\nuse std::fmt;\n\nimpl fmt::Display for TryCurrentError {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        match self.kind {\n            E::NoContext => f.write_str(CONTEXT_MISSING_ERROR),\n            E::ThreadLocalDestroyed => f.write_str(THREAD_LOCAL_DESTROYED_ERROR),\n        }\n    }\n}\n",
    );
    s.write(
        "tok/src/runtime/time.rs",
        "pub(crate) fn handle() {\n    if none() {\n        panic!(\"{}\", crate::util::error::CONTEXT_MISSING_ERROR)\n    }\n}\n",
    );
    s.ok(&["index", ".", "--repo", "acme/tok"]);
    let records = s.records();
    let at: Vec<(String, u64)> = records
        .iter()
        .filter(|r| r["errorMessage"] == "there is no reactor running, must be called from the context of a Tokio 1.x runtime")
        .map(|r| (r["filePath"].as_str().unwrap().to_owned(), r["lineNumber"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        at,
        [
            ("tok/src/runtime/handle.rs".to_owned(), 7),
            ("tok/src/runtime/time.rs".to_owned(), 3)
        ]
    );
    let paste = "thread 'main' panicked at 'there is no reactor running, must be called from the context of a Tokio 1.x runtime', lumen/src/main.rs:297:9";
    let (code, v) = explain_json(&s, paste);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["matches"][0]["exact"], true, "{v:#}");
}

/// A Rust error type whose `Display` writes what a method's `match` returns (hyper's
/// `f.write_str(self.description())`): each arm's text is a record of the type, at the arm's
/// line after its `#[cfg(…)]` (hyperium/hyper#2136). A panic of the crate that ran, at
/// `src\lib.rs:124`, is no frame of a dependency's `src/lib.rs`.
#[test]
fn a_rust_display_of_a_described_kind_words_each_arm() {
    let s = Scratch::new();
    s.write(
        "hyper-1.12.0/src/error.rs",
        "use std::fmt;\n\npub struct Error {\n    inner: Box<ErrorImpl>,\n}\n\nimpl Error {\n    fn description(&self) -> &str {\n        match self.inner.kind {\n            Kind::Parse(Parse::Method) => \"invalid HTTP method parsed\",\n            #[cfg(feature = \"http1\")]\n            Kind::IncompleteMessage => \"connection closed before message completed\",\n            Kind::Canceled => \"operation was canceled\",\n        }\n    }\n}\n\nimpl fmt::Display for Error {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        f.write_str(self.description())\n    }\n}\n",
    );
    s.write(
        "httparse-1.10.1/src/lib.rs",
        format!(
            "{}pub fn parse() {{\n    panic!(\"invalid header value found here\");\n}}\n",
            "\n".repeat(122)
        ),
    );
    s.ok(&["index", ".", "--repo", "acme/deps"]);
    let (code, v) = explain_json(
        &s,
        "hyper::Error(IncompleteMessage): connection closed before message completed.",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        first(&v),
        ("hyper-1.12.0/src/error.rs".to_owned(), 12),
        "{v:#}"
    );
    assert_eq!(v["matches"][0]["approximate"], false, "{v:#}");
    let panic = "thread '<unnamed>' panicked at 'called `Result::unwrap()` on an `Err` value: operation was canceled', src\\lib.rs:124:23";
    let (code, v) = explain_json(&s, panic);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        first(&v),
        ("hyper-1.12.0/src/error.rs".to_owned(), 13),
        "{v:#}"
    );
}

/// One text raised twice in a function, once through a helper of the file (`zerror("zip END
/// header not found")`) and once by a `throw`: a trace whose innermost frame is the function,
/// not the helper, was raised by the `throw` (F6JO/RouteVulScan#45).
#[test]
fn a_trace_without_the_helper_s_frame_names_the_direct_raise() {
    let s = Scratch::new();
    s.write(
        "java/util/zip/ZipFile.java",
        "package java.util.zip;\n\npublic class ZipFile {\n    static class Source {\n        private static void zerror(String msg) throws ZipException {\n            throw new ZipException(msg);\n        }\n\n        private End findEND() throws IOException {\n            if (readFullyAt(buf) != len) {\n                zerror(\"zip END header not found\");\n            }\n            for (int i = 0; i < n; i++) {\n                if (found(i)) {\n                    return end;\n                }\n            }\n            throw new ZipException(\"zip END header not found\");\n        }\n    }\n}\n",
    );
    s.ok(&["index", ".", "--repo", "acme/jdk"]);
    let trace = "java.util.zip.ZipException: zip END header not found\n\tat java.base/java.util.zip.ZipFile$Source.findEND(ZipFile.java:1483)\n\tat java.base/java.util.zip.ZipFile$Source.initCEN(ZipFile.java:1491)\n";
    let (code, v) = explain_json(&s, trace);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        first(&v),
        ("java/util/zip/ZipFile.java".to_owned(), 18),
        "{v:#}"
    );
    // With the helper's frame on top, the direct raise is not preferred.
    let helper = trace.replace(
        "\tat java.base/java.util.zip.ZipFile$Source.findEND",
        "\tat java.base/java.util.zip.ZipFile$Source.zerror(ZipFile.java:1390)\n\tat java.base/java.util.zip.ZipFile$Source.findEND",
    );
    let (_, v) = explain_json(&s, &helper);
    assert_ne!(
        first(&v),
        ("java/util/zip/ZipFile.java".to_owned(), 18),
        "{v:#}"
    );
}

/// What a function that formats the error it is given pushes onto its text (clap's
/// `styled.push_str("the following required arguments were not provided:")`) is a text of
/// that error (jdx/usage#1360).
#[test]
fn a_text_pushed_by_an_error_formatter_is_a_record() {
    let s = Scratch::new();
    s.write(
        "clap/src/error/format.rs",
        "fn write_dynamic_context(error: &crate::error::Error, styled: &mut StyledStr) -> bool {\n    match error.kind() {\n        ErrorKind::MissingRequiredArgument => {\n            styled.push_str(\"the following required arguments were not provided:\");\n            true\n        }\n        _ => false,\n    }\n}\n",
    );
    s.ok(&["index", ".", "--repo", "acme/clap"]);
    let paste = "$ usage exec --help\nerror: the following required arguments were not provided:\n  <COMMAND>\n\nUsage: usage exec [-h] [--help] <ARGS>…\n";
    let (code, v) = explain_json(&s, paste);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        first(&v),
        ("clap/src/error/format.rs".to_owned(), 4),
        "{v:#}"
    );
    assert_eq!(v["matches"][0]["approximate"], false, "{v:#}");
}

/// `npm ERR! code EOVERRIDE` comes before the message; an approximate answer compares every
/// message of the paste, not only the first line (npm/cli#4767-like output, reworded since).
#[test]
fn an_approximate_answer_reads_past_the_first_line() {
    let s = Scratch::new();
    s.write(
        "lib/node.js",
        "function check (edge) {\n  throw Object.assign(new Error(`Override for ${edge.name}@${edge.rawSpec} conflicts with direct dependency`), { code: 'EOVERRIDE' })\n}\nmodule.exports = check\n",
    );
    s.ok(&["index", ".", "--repo", "acme/npm"]);
    let paste = "npm ERR! code EOVERRIDE\nnpm ERR! Override for ethers@^5.5.2 conflicts with the direct dependency\n";
    let (_, v) = explain_json(&s, paste);
    assert_eq!(first(&v).0, "lib/node.js", "{v:#}");
    assert!(v["matches"][0]["approximate"].as_bool().unwrap());
}

/// A Java error made of values, none of them text of the code (`new NoSuchFileException(file,
/// other, null)`, returned for the caller to throw), is a record: the trace's innermost frame
/// at the line of its `new` finds it, in a branch of a condition too, and its explanation
/// says what it was handed, not that it has no message. A message handed in by a helper's
/// caller (`error(String s)`) stays the callers' records.
#[test]
fn a_java_error_made_of_values_is_found_by_the_frame_at_its_new() {
    let s = Scratch::new();
    s.write(
        "src/sun/nio/fs/UnixException.java",
        "package sun.nio.fs;\n\
         class UnixException extends Exception {\n\
         \x20   private IOException translateToIOException(String file, String other) {\n\
         \x20       if (errno() == ENOENT)\n\
         \x20           return new NoSuchFileException(file, other, null);\n\
         \x20       return e == null\n\
         \x20           ? new FileSystemException(file, other, errorString()) : e;\n\
         \x20   }\n\
         \x20   private PatternError error(String s) {\n\
         \x20       return new PatternError(s, pattern, cursor - 1);\n\
         \x20   }\n\
         \x20   void expr() throws PatternError {\n\
         \x20       throw error(\"Dangling meta character\");\n\
         \x20   }\n\
         }\n",
    );
    s.ok(&["index", "src", "--repo", "acme/fs"]);
    let trace = "Exception in thread \"main\" java.nio.file.NoSuchFileException: /home/u/a.jar\n\
        \tat java.base/sun.nio.fs.UnixException.translateToIOException(UnixException.java:5)\n\
        \tat java.base/java.nio.file.Files.readAllBytes(Files.java:3152)\n";
    let (_, v) = explain_json(&s, trace);
    let r = &v["matches"][0]["record"];
    assert_eq!(r["lineNumber"], 5, "{v}");
    assert_eq!(r["errorClass"], "NoSuchFileException", "{v}");
    let doc = r["documentation"].as_str().unwrap();
    assert!(doc.contains("handed `file, other`"), "{doc}");
    assert!(!doc.contains("without a message"), "{doc}");
    let trace = "java.nio.file.FileSystemException: /home/u/a.jar: Too many open files\n\
        \tat sun.nio.fs.UnixException.translateToIOException(UnixException.java:7)\n";
    let (_, v) = explain_json(&s, trace);
    assert_eq!(v["matches"][0]["record"]["lineNumber"], 7, "{v}");
    let records = s.records();
    let lines: Vec<u64> = records
        .iter()
        .filter(|r| r["errorClass"] == "PatternError")
        .map(|r| r["lineNumber"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [13], "{records:?}");
}
