//! Explanations written from facts: the facts found per language, the seed's explanation
//! reproduced from them, and on real code, no name in an explanation that the code does not
//! have.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::Value;

use crate::corpora::{self, Indexed};
use crate::util::{copy_dir, fixtures, golden_indexed, record_of, Scratch};

fn facts_fixture() -> Scratch {
    let s = Scratch::new();
    let tree = s.path().join("facts");
    copy_dir(&fixtures().join("facts"), &tree);
    s.ok(&["index", tree.to_str().unwrap(), "--repo", "acme/facts"]);
    s
}

/// The facts of the record whose message is `message`.
fn facts_of(s: &Scratch, records: &[Value], message: &str) -> Value {
    let r = record_of(records, message);
    let out = s.ok(&["show", r["id"].as_str().unwrap(), "--facts", "--json"]);
    serde_json::from_str(&out).unwrap()
}

/// The state a site's facts name `name`.
fn state_of<'a>(f: &'a Value, name: &str) -> &'a Value {
    f["state"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no state {name}: {f}"))
}

fn conditions(f: &Value) -> Vec<(String, String)> {
    f["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["expr"].as_str().unwrap().to_owned(),
                c["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// name -> the functions that write it.
fn writers(f: &Value) -> HashMap<String, Vec<String>> {
    f["state"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let w = s["writes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w["function"].as_str().unwrap_or("").to_owned())
                .collect();
            (s["name"].as_str().unwrap().to_owned(), w)
        })
        .collect()
}

fn refs(f: &Value, key: &str) -> Vec<(String, String)> {
    f[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["file"].as_str().unwrap().to_owned(),
                c["function"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// Indexes `dir` of `s` and returns the JSON summary.
fn index_json(s: &Scratch, dir: &str) -> Value {
    let out = s.ok(&["--json", "index", dir, "--repo", "acme/deferred"]);
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_file_without_a_trigger_word_is_parsed_only_when_it_names_what_a_record_needs() {
    let s = Scratch::new();
    let store = "def load(key):\n    if not key:\n        raise KeyError(f\"no key {key}\")\n    return key\n";
    s.write("src/store.py", store);
    // Neither file has a trigger word; only cli.py names a function that holds a record.
    s.write(
        "src/cli.py",
        "from store import load, save\n\ndef main(argv):\n    save(argv)\n    return load(argv[0])\n",
    );
    s.write("src/notes.py", "def render(x):\n    return str(x)\n");
    let first = index_json(&s, "src");
    assert_eq!(first["filesDeferred"], 2, "{first}");
    assert_eq!(first["deferredParsed"], 1, "{first}");
    let records = s.records();
    let f = facts_of(&s, &records, "no key {key}");
    assert_eq!(refs(&f, "callers"), pairs(&[("cli.py", "main")]));

    // cli.py is unchanged and already parsed; notes.py stays pending, and is parsed once a new
    // record's function is one it calls.
    s.write(
        "src/store.py",
        format!("{store}\ndef save(items):\n    if items is None:\n        raise ValueError(\"nothing to save\")\n\ndef str(x):\n    assert x, \"empty\"\n"),
    );
    let second = index_json(&s, "src");
    assert_eq!(second["filesDeferred"], 1, "{second}");
    assert_eq!(second["deferredParsed"], 1, "{second}");
    let records = s.records();
    let f = facts_of(&s, &records, "nothing to save");
    assert_eq!(refs(&f, "callers"), pairs(&[("cli.py", "main")]));
    let f = facts_of(&s, &records, "empty");
    assert_eq!(refs(&f, "callers"), pairs(&[("notes.py", "render")]));

    // Nothing changed: nothing is pending, nothing is parsed.
    let third = index_json(&s, "src");
    assert_eq!(third["filesDeferred"], 0, "{third}");
    assert_eq!(third["filesParsed"], 0, "{third}");
}

#[test]
fn facts_in_each_language() {
    let s = facts_fixture();
    let records = s.records();

    // TypeScript: an early return, nested guards combined with &&, module state written by
    // other functions (one of them under a condition), a caller in another file.
    let f = facts_of(&s, &records, "request ${id} is already pending");
    assert_eq!(f["function"]["name"], "send");
    assert_eq!(
        conditions(&f),
        pairs(&[
            ("id", "early-exit"),
            ("open && !retry", "if"),
            ("pending.has(id)", "if")
        ])
    );
    let w = writers(&f);
    assert_eq!(w["open"], ["start", "stop"]);
    assert_eq!(w["pending"], ["stop", "send"]);
    let pending = state_of(&f, "pending");
    assert_eq!(pending["writes"][0]["conditions"][0], "force");
    assert_eq!(pending["writes"][1]["conditions"][0], "!open || retry");
    assert_eq!(refs(&f, "callers"), pairs(&[("client.ts", "flush")]));
    // The default arm of a switch: none of the other values.
    let f = facts_of(&s, &records, "unknown priority ${kind}");
    assert_eq!(
        conditions(&f),
        pairs(&[("kind !== \"high\" && kind !== \"low\"", "case")])
    );

    // A callback's parameter is what calls the callback decides, not the caller of `edit()`.
    let r = record_of(&records, "the editor exited with code ${code}");
    let doc = r["documentation"].as_str().unwrap();
    assert!(
        doc.contains("`code` is a parameter of the callback `(code: number)`"),
        "{doc}"
    );
    assert!(!doc.contains("the caller decides"), "{doc}");

    // Cases without statements of their own fall through: each of their values leads here.
    let f = facts_of(&s, &records, "the ${kind} queue was removed");
    assert_eq!(
        conditions(&f),
        pairs(&[("kind === \"fifo\" || kind === \"lifo\"", "case")])
    );
    let f = facts_of(&s, &records, "a return before the super call");
    assert_eq!(
        conditions(&f),
        pairs(&[
            ("opcode == IRETURN || opcode == ARETURN", "case"),
            ("!called", "if")
        ])
    );

    // Python: the elif side of an `if`/`and`, negated by De Morgan; fields of self written in
    // other methods; a caller and a handler in another file.
    let f = facts_of(&s, &records, "unknown key {key}");
    assert_eq!(f["function"]["owner"], "Pool");
    assert_eq!(
        conditions(&f),
        pairs(&[
            ("key is not None", "early-exit"),
            ("not self.closed or not strict", "else"),
            ("key not in _cache", "if")
        ])
    );
    assert_eq!(f["otherBranch"]["condition"], "self.closed and strict");
    assert_eq!(writers(&f)["self.closed"], ["__init__", "close"]);
    assert_eq!(refs(&f, "callers"), pairs(&[("app.py", "lookup")]));
    assert_eq!(refs(&f, "handlers"), pairs(&[("app.py", "lookup")]));

    // A parameter given another value before the guard is that value, not the caller's.
    let f = facts_of(&s, &records, "the future is not done yet");
    let future = state_of(&f, "future");
    assert_eq!(future["binding"], "local", "{future}");
    assert_eq!(future["value"], "loop.ensure(future)", "{future}");
    let r = record_of(&records, "the future is not done yet");
    let doc = r["documentation"].as_str().unwrap();
    assert!(!doc.contains("parameter"), "{doc}");
    assert!(
        doc.contains("`future` comes from `loop.ensure(future)`"),
        "{doc}"
    );

    // Go: two early returns above the guard; a receiver field written by another method.
    let f = facts_of(&s, &records, "write of %d bytes exceeds the limit");
    assert_eq!(
        conditions(&f),
        pairs(&[
            ("len(b) != 0", "early-exit"),
            ("!c.closed", "early-exit"),
            ("len(b) > 1024 && !c.big", "if")
        ])
    );
    assert_eq!(writers(&f)["c.closed"], ["Close"]);
    // A named result is a local of each call: nothing outlives it or sets it in another call.
    let dial = facts_of(&s, &records, "dial %q failed: %w");
    let err = state_of(&dial, "err");
    assert_eq!(err["binding"], "local", "{err}");
    let r = record_of(&records, "dial %q failed: %w");
    assert!(
        !r.to_string().contains("in an earlier call"),
        "{}",
        r["triggerScenarios"]
    );
    assert_eq!(refs(&f, "callers"), pairs(&[("use.go", "Send")]));
    let sentinel = facts_of(&s, &records, "conn is closed");
    assert!(sentinel["function"].is_null());
    assert_eq!(refs(&sentinel, "callers"), pairs(&[("conn.go", "Write")]));
    let r = record_of(&records, "conn is closed");
    let trigger = r["triggerScenarios"].as_str().unwrap();
    assert!(
        trigger.starts_with("`ErrClosed` is returned by `Write()` at conn.go:25"),
        "{trigger}"
    );
    assert!(r["typeGuard"]
        .as_str()
        .unwrap()
        .contains("errors.Is(err, ErrClosed)"));
    let panic = record_of(&records, "zero is not a valid item");
    assert!(panic["tryCatchPattern"]
        .as_str()
        .unwrap()
        .contains("std::panic::catch_unwind"));

    // Rust: a match arm below an early return.
    let f = facts_of(&s, &records, "zero is not a valid item");
    assert_eq!(
        conditions(&f),
        pairs(&[("!self.frozen", "early-exit"), ("matches!(v, 0)", "case")])
    );
    assert_eq!(writers(&f)["self.frozen"], ["freeze"]);
    assert_eq!(
        f["function"]["signature"],
        "pub fn push(&mut self, v: u32) -> Result<(), String>"
    );
    // An arm that binds what is left (`other => …`) is taken when no arm above is.
    let f = facts_of(&s, &records, "no lane {}");
    assert_eq!(conditions(&f), pairs(&[("!matches!(n, 1 | 2)", "case")]));
    // A debug assertion is checked only in debug builds; a `#[cfg(unix)]` item is built only
    // there. The check of the arguments is named as validationCode defines it.
    let r = record(&records, "split point {} past the end");
    assert!(
        field(r, "triggerScenarios").contains("release builds skip it"),
        "{}",
        field(r, "triggerScenarios")
    );
    assert!(field(r, "validationCode").contains("fn would_raise("));
    assert!(
        field(r, "exampleFix").contains("!would_raise(at, items)")
            || field(r, "exampleFix").contains("!would_raise(items, at)"),
        "{}",
        field(r, "exampleFix")
    );
    let r = record(&records, "bad descriptor {}");
    assert!(
        field(r, "triggerScenarios").contains("compiled only where `cfg(unix)` holds"),
        "{}",
        field(r, "triggerScenarios")
    );

    // Java: an else-if chain; the caller and the catch in another file.
    let f = facts_of(&s, &records, "insufficient funds for {amount}");
    assert_eq!(
        conditions(&f),
        pairs(&[
            ("amount > 0", "early-exit"),
            ("!locked", "else"),
            ("amount > balance && !overdraft", "if")
        ])
    );
    assert_eq!(writers(&f)["locked"], ["lock"]);
    assert_eq!(refs(&f, "callers"), pairs(&[("Bank.java", "pay")]));
    assert_eq!(refs(&f, "handlers"), pairs(&[("Bank.java", "pay")]));
    // A loop variable is a local, and another method's local of the same name is not state.
    let f = facts_of(&s, &records, "table changed while it was walked");
    let entry = f["state"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "entry");
    assert!(
        entry.is_none_or(|e| e["binding"] == "local" && e["writes"] == serde_json::json!([])),
        "{entry:?}"
    );
    assert_eq!(writers(&f)["modCount"], ["put"]);

    // Python: `self._transport` of another class of the file is another object's.
    let f = facts_of(&s, &records, "writer is already closed");
    assert_eq!(writers(&f)["self._transport"], ["__init__", "close"]);

    // The explanation says what the facts say.
    let r = record_of(&records, "insufficient funds for {amount}");
    let doc = r["documentation"].as_str().unwrap();
    assert!(doc.contains("`withdraw()`"), "{doc}");
    assert!(doc.contains("`amount > balance && !overdraft`"), "{doc}");
    let solutions = r["solutions"].to_string();
    assert!(solutions.contains("`overdraft` set to true"), "{solutions}");
    assert!(solutions.contains("Bank.java:5"), "{solutions}");
    assert!(r["triggerScenarios"]
        .as_str()
        .unwrap()
        .contains("`pay()` at Bank.java:4"));
}

/// The text an error class words for itself (a constructor's `super(…)`, Python's `__str__`,
/// Java's `getMessage()`, Go's `Error()`) is linked to the places that create the class, in
/// another file, and the explanation names them: that is where the error happened.
#[test]
fn an_error_class_s_own_text_names_where_the_class_is_created() {
    let s = facts_fixture();
    let records = s.records();
    for (message, file, function, text) in [
        (
            "quota of ${limit} requests exceeded",
            "client.ts",
            "charge",
            "new QuotaError(limit)",
        ),
        (
            "limit of %d connections exceeded",
            "use.go",
            "Admit",
            "LimitError{Max: 10}",
        ),
        (
            "pool of {self.size} connections is full",
            "app.py",
            "reserve",
            "PoolFull(size)",
        ),
        (
            "limit of {max} transfers exceeded",
            "Bank.java",
            "transfer",
            "new LimitException(3)",
        ),
        // thiserror's `#[error(…)]` on a variant, created by a call or a struct expression.
        (
            "slot {0} is out of range",
            "queue.rs",
            "slot",
            "StoreError::OutOfRange(i)",
        ),
        (
            "store is read-only since {since}",
            "queue.rs",
            "slot",
            "crate::store::StoreError::ReadOnly { since: frozen_at }",
        ),
    ] {
        let f = facts_of(&s, &records, message);
        assert_eq!(refs(&f, "callers"), pairs(&[(file, function)]), "{message}");
        let r = records
            .iter()
            .find(|r| r["errorMessage"] == message)
            .unwrap();
        let when = r["triggerScenarios"].as_str().unwrap();
        assert!(
            when.contains(&format!("`{function}()` at {file}:")) && when.contains(text),
            "{when}"
        );
        assert!(
            r["solutions"].to_string().contains(text),
            "{}",
            r["solutions"]
        );
        // The handling example wraps the code that creates it (Go's and Rust's test the
        // returned error).
        let pattern = r["tryCatchPattern"].as_str().unwrap();
        assert!(
            file.ends_with(".go")
                || file.ends_with(".rs")
                || pattern.contains(&format!("reaches {function}() at {file}:")),
            "{pattern}"
        );
    }
    // A variant matched in a pattern is handled there, once.
    let f = facts_of(&s, &records, "slot {0} is out of range");
    assert_eq!(refs(&f, "handlers"), pairs(&[("queue.rs", "first_slot")]));
}

#[test]
fn the_seed_explanation_is_reproduced_from_facts() {
    let s = golden_indexed();
    let records = s.records();
    let r = records
        .iter()
        .find(|r| r["lineNumber"] == 119)
        .expect("the seed's record");
    let all = [
        "documentation",
        "triggerScenarios",
        "commonSituations",
        "solutions",
        "preventionTips",
    ]
    .iter()
    .map(|k| r[*k].to_string())
    .collect::<Vec<_>>()
    .join("\n");
    let doc = r["documentation"].as_str().unwrap();
    assert!(doc.contains("`release()`"), "{doc}");
    assert!(
        doc.contains("`!destroy && config.reuseLease`"),
        "the guard of the else side, simplified: {doc}"
    );
    assert!(doc.contains("`unconfirmedCleanup.has(scope)`"), "{doc}");
    assert!(
        doc.contains("`unconfirmedCleanup.delete(scope)` runs only on the other side")
            && doc.contains("the branch that runs `await client.destroySandbox(id);`"),
        "{doc}"
    );
    let solutions: Vec<&str> = r["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(
        solutions
            .iter()
            .any(|s| s.contains("`release()` with `destroy` set to true")),
        "{solutions:?}"
    );
    assert!(
        solutions
            .iter()
            .any(|s| s.contains("Turn off `config.reuseLease`")),
        "{solutions:?}"
    );
    assert!(all.contains("Take the other branch"), "{all}");
    let guard = r["typeGuard"].as_str().unwrap();
    assert!(
        guard.contains("e instanceof Error")
            && guard.contains("e.message.includes(\"CreateOS process cleanup is unconfirmed"),
        "the seed recognises it by class and message: {guard}"
    );
    let fix = r["exampleFix"].as_str().unwrap();
    assert!(
        fix.contains("await release(params, false);")
            && fix.contains("await release(params, true);"),
        "{fix}"
    );
    assert_eq!(r["backgroundTag"], "invalid-state-transition");
    // A guard that calls a one-expression function of the file says what it returns.
    let foreign = record_of(
        &records,
        "CreateOS lease does not belong to this environment.",
    );
    let doc = foreign["documentation"].as_str().unwrap();
    assert!(
        doc.contains("`!metadataMatches(params, params.leaseMetadata)`")
            && doc.contains("`metadataMatches()` (line 22) returns `metadata !== null && typeof metadata === \"object\" && params.environmentId !== undefined`"),
        "{doc}"
    );
    assert!(r["tags"]
        .as_array()
        .unwrap()
        .contains(&Value::from("unconfirmed-cleanup")));
}

/// Names an explanation may use that are not in the code: keywords of the conditions it
/// prints and of the code it writes.
const OURS: &[&str] = &[
    // Python's builtin through which a subclass calls its base class's method.
    "super",
    // Python's controls of a warning, which a warning's record names: the `-W error::Class`
    // option, `warnings.catch_warnings`, code run as `__main__`.
    "W",
    "error",
    "catch_warnings",
    "__main__",
    // The standard library's own test for a Go sentinel, which the explanation recommends:
    // `errors.Is(err, ErrX)`, on the caller's error variable.
    "errors",
    "Is",
    "err",
    "if",
    "else",
    "not",
    "and",
    "or",
    "is",
    "in",
    "pass",
    "matches",
    "true",
    "false",
    "True",
    "False",
    "None",
    "null",
    "nil",
    "undefined",
    "this",
    "self",
    "do",
    "call",
    "it",
    "here",
    "when",
    "return",
    // validationCode's check of the arguments, as a function of them.
    "def",
    "would_raise",
    "wouldRaise",
    "bool",
    "boolean",
    "function",
    "func",
    "fn",
    "static",
    "unknown",
    // A constructor named as it is called (`new Foo()`).
    "new",
];

/// Identifiers of a piece of code, without its comments and string literals.
fn identifiers(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in code.lines() {
        let t = line.trim_start();
        if t.starts_with("//") || t.starts_with('#') {
            continue;
        }
        let line = line.split(" //").next().unwrap_or(line);
        let mut in_str: Option<char> = None;
        let mut word = String::new();
        let mut prev = ' ';
        for c in line.chars().chain(std::iter::once(' ')) {
            if let Some(q) = in_str {
                if c == q && prev != '\\' {
                    in_str = None;
                }
                prev = c;
                continue;
            }
            if matches!(c, '"' | '\'' | '`') {
                in_str = Some(c);
            } else if c.is_alphanumeric() || c == '_' || c == '$' {
                word.push(c);
            } else {
                if word.chars().next().is_some_and(|c| !c.is_ascii_digit()) {
                    out.push(std::mem::take(&mut word));
                }
                word.clear();
            }
            prev = c;
        }
    }
    out
}

/// The code quoted in backticks in a sentence: `` `x` `` spans, and ``` `` x `` ``` spans for
/// code that holds a backtick.
fn quoted_code(text: &str) -> Vec<&str> {
    // A message quoted in a sentence has its backticks escaped.
    let text: &'static str = Box::leak(text.replace("\\`", "'").into_boxed_str());
    let mut out = Vec::new();
    let mut single = String::new();
    for (i, part) in text.split("``").enumerate() {
        if i % 2 == 1 {
            out.push(part);
        } else {
            single.push_str(part);
            single.push(' ');
        }
    }
    let single: &'static str = Box::leak(single.into_boxed_str());
    out.extend(single.split('`').skip(1).step_by(2));
    out
}

/// Every identifier of `text` (prose: its quoted code; code: all of it) that occurs neither in
/// the record's own file nor anywhere in the corpus.
fn unknown_names(
    text: &str,
    prose: bool,
    own: &HashSet<String>,
    corpus: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let code: Vec<String> = if prose {
        quoted_code(text)
            .into_iter()
            .flat_map(identifiers)
            .collect()
    } else {
        identifiers(text)
    };
    code.into_iter()
        .filter(|w| !OURS.contains(&w.as_str()) && !own.contains(w) && !corpus(w))
        .collect()
}

fn file_words(path: &Path) -> HashSet<String> {
    let src = std::fs::read_to_string(path).unwrap_or_default();
    src.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Samples every `step`-th record of a corpus and checks that every name its documentation,
/// solutions and validationCode use occurs in the repository.
fn check_grounded(c: Option<&Indexed>, step: usize) {
    let Some(c) = c else { return };
    let lines = c.scratch.export();
    let mut checked = 0;
    let mut seen_files: HashMap<String, HashSet<String>> = HashMap::new();
    let mut failures = Vec::new();
    // A command's program is named by the package's manifest (its `bin`).
    let mut manifest = file_words(&c.root.join("package.json"));
    // A Go program of the toolchain is named as the installed `go` runs it (`go build`,
    // `go tool cover`): the names that `go help` and `go tool` list.
    if c.root.join("cmd/go.mod").is_file() {
        for args in [&["help"][..], &["tool"]] {
            let Ok(out) = std::process::Command::new("go").args(args).output() else {
                continue;
            };
            let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
            manifest.extend(text.split_whitespace().map(str::to_owned));
        }
        manifest.insert("go".to_owned());
    }
    for line in lines.iter().step_by(step) {
        let r = &line["record"];
        let file = r["filePath"].as_str().unwrap();
        let own = seen_files
            .entry(file.to_owned())
            .or_insert_with(|| file_words(&c.root.join(file)));
        // A name from another file: a caller or handler the facts name. Looked up in the
        // files the record's fields mention.
        let others: HashSet<String> = format!(
            "{} {} {}",
            r["solutions"], r["triggerScenarios"], r["documentation"]
        )
        .split(|c: char| c.is_whitespace() || c == '(' || c == '"')
        .filter_map(|w| w.split(':').next())
        .map(|w| w.trim_end_matches(['.', ',', ';', ')']))
        .filter(|w| w.contains('.') && c.root.join(w).is_file())
        .flat_map(|w| file_words(&c.root.join(w)))
        .collect();
        let corpus = |w: &str| others.contains(w) || manifest.contains(w);
        for (field, prose) in [("documentation", true), ("validationCode", false)] {
            let bad = unknown_names(r[field].as_str().unwrap(), prose, own, &corpus);
            if !bad.is_empty() {
                failures.push(format!("{} {field}: {bad:?}", r["id"]));
            }
        }
        for s in r["solutions"].as_array().unwrap() {
            let bad = unknown_names(s.as_str().unwrap(), true, own, &corpus);
            if !bad.is_empty() {
                failures.push(format!("{} solutions: {bad:?} in {s}", r["id"]));
            }
        }
        checked += 1;
    }
    eprintln!(
        "{}: {checked} records checked, {} with a name not in the code",
        c.repo,
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}: names not in the code:\n{}",
        c.repo,
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn cpython_explanations_name_only_what_the_code_has() {
    check_grounded(corpora::cpython(), 7);
}

#[test]
fn npm_explanations_name_only_what_the_code_has() {
    check_grounded(corpora::npm_all(), 5);
}

#[test]
fn go_explanations_name_only_what_the_code_has() {
    check_grounded(corpora::go(), 7);
}

#[test]
fn jdk_explanations_name_only_what_the_code_has() {
    check_grounded(corpora::jdk(), 23);
}

#[test]
fn identifiers_skip_comments_and_strings() {
    assert_eq!(
        identifiers("// a comment\nif (!x && y.has(\"k v\")) {\n  # not this\n}"),
        ["if", "x", "y", "has"]
    );
    assert_eq!(quoted_code("a `b.c()` d `e`"), ["b.c()", "e"]);
    assert_eq!(quoted_code("a `` x == '`' `` and `y`"), [" x == '`' ", "y"]);
}

/// The record of `message` in an export.
fn record<'a>(records: &'a [Value], message: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["errorMessage"] == message)
        .unwrap_or_else(|| panic!("no record {message:?}"))
}

fn field<'a>(r: &'a Value, name: &str) -> &'a str {
    r[name].as_str().unwrap_or_default()
}

#[test]
fn explanations_say_what_the_code_and_its_docs_prove() {
    let s = Scratch::new();
    let tree = s.path().join("truth");
    copy_dir(&fixtures().join("truth"), &tree);
    s.ok(&["index", tree.to_str().unwrap(), "--repo", "acme/truth"]);
    let records = s.records();

    // A docstring's `Raises:` entry is the meaning; a set's order is not negated as a number's.
    let r = record(&records, "invalid mode %r (only r, w, b allowed)");
    let doc = field(r, "documentation");
    assert!(
        doc.contains("says of `ValueError`: \"if the mode has a letter other than r, w or b.\""),
        "{doc}"
    );
    assert!(
        doc.contains("`not (set(mode) <= {\"r\", \"w\", \"b\"})`"),
        "{doc}"
    );
    assert!(!doc.contains("set(mode) >"), "{doc}");
    // The code a caller can write: through the module, with the argument the guard reads.
    let fix = field(r, "exampleFix");
    assert!(fix.contains("sock.makefile(mode=mode)"), "{fix}");
    let check = field(r, "validationCode");
    assert!(check.contains("def would_raise(mode) -> bool:"), "{check}");

    // An assertion's condition is its guard.
    let r = record(&records, "lineno must be an int >= 0");
    let doc = field(r, "documentation");
    assert!(
        doc.contains("It is raised when `not isinstance(lineno, int) or lineno < 0` holds."),
        "{doc}"
    );
    assert!(!doc.contains("No condition"), "{doc}");

    // A method of the same name on another class is not a caller.
    let r = record(&records, "cannot save nothing here");
    let trig = field(r, "triggerScenarios");
    assert!(!trig.contains("editor.py"), "{trig}");

    // A name a comprehension binds is not state, nor is another function's local; the comment
    // above the `if` is the author's word.
    let r = record(&records, "Paths don't have the same drive");
    let doc = field(r, "documentation");
    assert!(!doc.contains("`p` outlives"), "{doc}");
    assert!(!doc.contains("split()"), "{doc}");
    assert!(
        doc.contains("The comment above the raise: \"Check that all drive letters match.\""),
        "{doc}"
    );

    // A parse error of an argument is bad input, never retried.
    let r = record(&records, "could not parse the host of the URL");
    assert_eq!(r["handlingStrategy"], "fix-input");
    assert!(
        r["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| !s.as_str().unwrap().contains("Retry")),
        "{}",
        r["solutions"]
    );

    // A private function is not called in code a caller would write.
    let r = record(&records, "bad descriptor for the read");
    for name in ["exampleFix", "tryCatchPattern"] {
        assert!(
            !field(r, name).contains("_read(fd)"),
            "{name}: {}",
            field(r, name)
        );
    }

    // A Javadoc `@throws` is the meaning, and the public static method is what a caller calls.
    let r = record(&records, "count must not be negative");
    let doc = field(r, "documentation");
    assert!(
        doc.contains("says of `IllegalArgumentException`: \"if the count is negative.\""),
        "{doc}"
    );
    assert!(
        field(r, "exampleFix").contains("Parser.count(n)"),
        "{}",
        field(r, "exampleFix")
    );
    assert!(
        field(r, "validationCode").contains("static boolean wouldRaise(int n)"),
        "{}",
        field(r, "validationCode")
    );

    // A case a public method documents for its error is its contract, not a broken invariant.
    let r = record(&records, "ArithmeticException");
    assert_eq!(r["backgroundTag"], "invalid-input", "{r}");

    // A call in a state that does not allow it is the calling code's to fix: no other path.
    let r = record(&records, "lid is down");
    assert_eq!(r["handlingStrategy"], "fix-code", "{r}");
    assert!(field(r, "tryCatchPattern").contains("call it only in a state that allows it"));

    // A handler of bad input reports it where the user sees it and goes on: it does not
    // throw the error again, which would handle nothing.
    let catch = field(
        record(&records, "count must not be negative"),
        "tryCatchPattern",
    );
    assert!(
        catch.ends_with("holds when calling `count()`.\n    System.err.println(\"bad input: \" + e.getMessage());\n}"),
        "{catch}"
    );
    let catch = field(
        record(&records, "could not parse the host of the URL"),
        "tryCatchPattern",
    );
    assert!(catch.starts_with("import sys\n"), "{catch}");
    assert!(
        catch.ends_with("\n    print(f\"bad input: {e}\", file=sys.stderr)"),
        "{catch}"
    );

    // Where no argument avoids it, the case the doc comment gives for its class is the way out.
    let s = record(&records, "the queue is empty")["solutions"].to_string();
    assert!(
        s.contains("Its doc comment says `last()` throws `IllegalStateException` if the queue is empty: make sure that is not so before the call"),
        "{s}"
    );
    assert!(!s.contains("width"), "{s}");

    // The way out of a guard on an argument is the argument that avoids it: the other side
    // of a comparison, a value that is not null; never the other side of a test that picks
    // a branch (`kind == 3`), which is no way out.
    let solutions = |message: &str| record(&records, message)["solutions"].to_string();
    let s = solutions("count must not be negative");
    assert!(
        s.contains("Pass an `n` for which `n >= 0` holds when calling `count()`."),
        "{s}"
    );
    let s = solutions("label is required");
    assert!(
        s.contains("Pass a `label` that is not `null` when calling `name()`."),
        "{s}"
    );
    let s = solutions("width out of range");
    assert!(
        s.contains("for which `width >= 1 && width <= 80` holds"),
        "{s}"
    );
    let s = solutions("kind three is taken");
    assert!(!s.contains("kind != 3"), "{s}");
}

/// A code field wrapped the way its language can parse a snippet of it: Go and Java statements
/// inside a function (declarations at the top level), Rust likewise.
fn as_unit(lang: &str, code: &str) -> String {
    let declares = |kw: &str| code.lines().any(|l| l.starts_with(kw));
    match lang {
        "go" if declares("func ") => format!("package p\n{code}\n"),
        "go" => format!("package p\nfunc _() {{\n{code}\n}}\n"),
        "java" if declares("static ") => format!("class P {{\n{code}\n}}\n"),
        "java" => format!("class P {{ void m() throws Exception {{\n{code}\n}} }}\n"),
        "rust" if declares("fn ") => code.to_owned(),
        "rust" => format!("fn _f() {{\n{code}\n}}\n"),
        "typescript" | "javascript" => format!("async function _f() {{\n{code}\n}}\n"),
        "python" => format!(
            "async def _f():\n{}\n",
            code.lines()
                .map(|l| format!("    {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
        _ => code.to_owned(),
    }
}

fn file_of(lang: &str) -> &'static str {
    match lang {
        "go" => "a.go",
        "java" => "P.java",
        "rust" => "a.rs",
        "typescript" => "a.ts",
        "javascript" => "a.js",
        _ => "a.py",
    }
}

/// Every code field of every record parses with its language's grammar.
fn check_snippets_parse(c: Option<&Indexed>) {
    let Some(c) = c else { return };
    let lines = c.scratch.export();
    let (mut checked, mut failures) = (0, Vec::new());
    for line in &lines {
        let r = &line["record"];
        let lang = r["tags"][0].as_str().unwrap_or_default();
        for name in [
            "exampleFix",
            "validationCode",
            "typeGuard",
            "tryCatchPattern",
        ] {
            let code = field(r, name);
            let file = file_of(lang);
            let lang_of = errata_lang::Lang::from_path(Path::new(file)).unwrap();
            let unit = as_unit(lang, code);
            let tree = errata_extract::parse(lang_of, Path::new(file), &unit).unwrap();
            checked += 1;
            if tree.root_node().has_error() {
                failures.push(format!("{} {name}:\n{code}", r["id"]));
            }
        }
    }
    eprintln!(
        "{}: {checked} snippets, {} do not parse",
        c.repo,
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}: {} of {checked} snippets do not parse:\n{}",
        c.repo,
        failures.len(),
        failures[..failures.len().min(8)].join("\n---\n")
    );
}

#[test]
fn cpython_snippets_parse() {
    check_snippets_parse(corpora::cpython());
}

#[test]
fn npm_snippets_parse() {
    check_snippets_parse(corpora::npm_all());
}

#[test]
fn go_snippets_parse() {
    check_snippets_parse(corpora::go());
}

#[test]
fn jdk_snippets_parse() {
    check_snippets_parse(corpora::jdk());
}

#[test]
fn cargo_registry_snippets_parse() {
    check_snippets_parse(corpora::cargo());
}

/// A way in that crosses from one crate of the registry to another goes through a `pub`
/// function: another crate cannot call one that is not (tokio's private `Context::run` was said
/// to be called by `ignore`'s `WalkParallel::visit`, whose `worker.run()` is its own type's).
#[test]
fn cargo_registry_ways_in_cross_crates_through_pub_functions() {
    let Some(c) = corpora::cargo() else { return };
    let hop = regex::Regex::new(
        r"It is reached from `[^`]+\(\)` \(([^:,]+):\d+, `[^`]*`\), which calls `[^`]+\(\)` \(([^:,)]+):(\d+)\)",
    )
    .unwrap();
    let crate_of = |path: &str| path.split('/').nth(1).map(str::to_owned);
    let mut crossing = 0;
    let mut failures = Vec::new();
    for r in c.scratch.records() {
        let doc = r["documentation"].as_str().unwrap_or_default();
        let Some(m) = hop.captures(doc) else { continue };
        let (from, to, line) = (&m[1], &m[2], m[3].parse::<usize>().unwrap());
        if crate_of(from) == crate_of(to) {
            continue;
        }
        crossing += 1;
        let text = std::fs::read_to_string(c.root.join(to)).unwrap_or_default();
        let head = text.lines().nth(line - 1).unwrap_or_default().trim_start();
        if !head.starts_with("pub ") {
            failures.push(format!(
                "{} {}:{}: {to}:{line} `{head}`",
                r["id"], r["filePath"], r["lineNumber"]
            ));
        }
    }
    eprintln!("{crossing} ways in cross crates");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The documentation of the record whose message is `message`.
fn documentation_of<'a>(records: &'a [Value], message: &str) -> &'a str {
    records
        .iter()
        .find(|r| r["errorMessage"] == message)
        .unwrap_or_else(|| panic!("no record {message:?}"))["documentation"]
        .as_str()
        .unwrap()
}

#[test]
fn the_way_in_from_outside_is_the_nearest_public_function_up_the_proven_calls() {
    let s = Scratch::new();
    // Python: `parse()` is the module's; `_check()` and `_inner()` are private to it. A call
    // through another object's method of the same name is no proof, nor is a test.
    s.write(
        "tree/pkg/codec.py",
        "def parse(text):\n    return _check(text)\n\n\ndef _check(text):\n    return _inner(text)\n\n\ndef _inner(text):\n    if not text:\n        raise ValueError(\"empty text for codec\")\n    return text\n\n\ndef _lonely(v):\n    if v < 0:\n        raise ValueError(\"negative lonely value\")\n",
    );
    s.write(
        "tree/pkg/other.py",
        "def run(obj):\n    return obj.holder._lonely(1)\n",
    );
    s.write(
        "tree/tests/test_codec.py",
        "from pkg import codec\n\n\ndef test_lonely():\n    codec._lonely(-1)\n",
    );
    // Go: an exported function of the package calls the unexported one bare.
    s.write(
        "tree/conf/load.go",
        "package conf\n\nimport \"errors\"\n\nfunc Load(path string) error {\n\treturn readFile(path)\n}\n",
    );
    s.write(
        "tree/conf/read.go",
        "package conf\n\nimport \"errors\"\n\nfunc readFile(path string) error {\n\tif path == \"\" {\n\t\treturn errors.New(\"conf: no path to read\")\n\t}\n\treturn nil\n}\n",
    );
    // Java: a public method calls a private one of its class.
    s.write(
        "tree/src/Host.java",
        "public class Host {\n    public static Host byName(String name) {\n        validate(name);\n        return new Host();\n    }\n\n    private static void validate(String name) {\n        if (name.indexOf('\\u0000') >= 0) {\n            throw new IllegalArgumentException(\"host name holds a NUL\");\n        }\n    }\n}\n",
    );
    // Rust: `pub fn` through a private helper.
    s.write(
        "tree/src/size.rs",
        "pub fn chunks(n: usize) -> usize {\n    checked(n)\n}\n\nfn checked(n: usize) -> usize {\n    assert!(n > 0, \"chunk size must be above zero\");\n    n\n}\n",
    );
    s.ok(&["index", "tree", "--repo", "acme/ways"]);
    let records = s.records();
    let doc = documentation_of(&records, "empty text for codec");
    assert!(
        doc.contains("It is reached from `parse()` (pkg/codec.py:1, `def parse(text)`), which calls `_check()`, which calls `_inner()`."),
        "{doc}"
    );
    let doc = documentation_of(&records, "negative lonely value");
    assert!(!doc.contains("reached from"), "{doc}");
    let doc = documentation_of(&records, "conf: no path to read");
    assert!(
        doc.contains("It is reached from `Load()` (conf/load.go:5"),
        "{doc}"
    );
    let doc = documentation_of(&records, "host name holds a NUL");
    assert!(
        doc.contains("It is reached from `Host.byName()` (src/Host.java:2, `public static Host byName(String name)`)"),
        "{doc}"
    );
    let doc = documentation_of(&records, "chunk size must be above zero");
    assert!(
        doc.contains("It is reached from `chunks()` (src/size.rs:1"),
        "{doc}"
    );
}

#[test]
fn a_site_in_a_command_s_file_names_the_command() {
    let s = Scratch::new();
    s.write(
        "tool/package.json",
        r#"{ "name": "tool", "bin": { "tool": "bin/tool.js" } }"#,
    );
    s.write(
        "tool/lib/commands/cache/clean.js",
        "const { parse } = require('../../utils/spec.js')\nclass Clean {\n  async exec (args) {\n    return parse(args[0])\n  }\n}\nmodule.exports = Clean\n",
    );
    s.write(
        "tool/lib/commands/publish.js",
        "class Publish {\n  async exec (args) {\n    if (!args.length) {\n      throw new Error('publish needs a folder to pack')\n    }\n  }\n}\nmodule.exports = Publish\n",
    );
    s.write(
        "tool/lib/utils/spec.js",
        "function parse (spec) {\n  return check(spec)\n}\nfunction check (spec) {\n  if (!spec) {\n    throw new Error('a package spec is required here')\n  }\n  return spec\n}\nmodule.exports = { parse }\n",
    );
    s.ok(&["index", "tool", "--repo", "acme/tool"]);
    let records = s.records();
    let doc = documentation_of(&records, "publish needs a folder to pack");
    assert!(
        doc.contains(
            "It runs under the `tool publish` command, whose code is in lib/commands/publish.js."
        ),
        "{doc}"
    );
    // `parse` is called bare from another file, and the repository defines one function of
    // that name: the call is of that function, and `check` is called in its own file.
    let doc = documentation_of(&records, "a package spec is required here");
    assert!(
        doc.contains("It runs under the `tool cache clean` command: `exec()` (lib/commands/cache/clean.js:3) calls `parse()` (lib/utils/spec.js:1), which calls `check()`."),
        "{doc}"
    );
    // A bare call in a file that imports another file's `parse` is not of this one.
    s.write(
        "tool/lib/utils/other.js",
        "function parse (text) {\n  return text\n}\nmodule.exports = { parse }\n",
    );
    s.write(
        "tool/lib/commands/cache/clean.js",
        "const { parse } = require('../../utils/other.js')\nclass Clean {\n  async exec (args) {\n    return parse(args[0])\n  }\n}\nmodule.exports = Clean\n",
    );
    s.ok(&["index", "tool", "--repo", "acme/tool"]);
    let records = s.records();
    let doc = documentation_of(&records, "a package spec is required here");
    assert!(!doc.contains("runs under"), "{doc}");
}

#[test]
fn folders_of_one_repository_outside_git_are_indexed_together() {
    let s = Scratch::new();
    s.write(
        "jdk/java.base/java/net/A.java",
        "class A {\n    void f() {\n        throw new IllegalStateException(\"a is closed now\");\n    }\n}\n",
    );
    s.write(
        "jdk/java.sql/java/sql/B.java",
        "class B {\n    void g() {\n        throw new IllegalStateException(\"b is closed now\");\n    }\n}\n",
    );
    s.ok(&[
        "index",
        "jdk/java.base",
        "jdk/java.sql",
        "--repo",
        "acme/jdk",
    ]);
    let mut paths: Vec<String> = s
        .records()
        .iter()
        .map(|r| r["filePath"].as_str().unwrap().to_owned())
        .collect();
    paths.sort();
    assert_eq!(
        paths,
        ["java.base/java/net/A.java", "java.sql/java/sql/B.java"]
    );
}

#[test]
fn an_expect_panics_only_when_its_value_fails() {
    let s = Scratch::new();
    s.write(
        "lib/src/lib.rs",
        "/// Reads the port.\n///\n/// # Panics\n///\n/// Panics if `text` is not a number.\npub fn port(text: &str) -> u16 {\n    text.parse().expect(\"the port is not a number\")\n}\n\npub fn compiler() -> std::ffi::OsString {\n    std::env::var_os(\"RUSTC\").expect(\"RUSTC is not set\")\n}\n\npub fn first(v: &Table) -> u8 {\n    v.head().expect(\"the table is empty\")\n}\n\npub fn dir(v: &Table) -> Result<u8, E> {\n    Ok(v.dir()?.expect(\"no dir\"))\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let r = records
        .iter()
        .find(|r| r["errorMessage"] == "the port is not a number")
        .expect("the expect's record");
    let when = r["triggerScenarios"].as_str().unwrap();
    assert!(
        when.contains("panics with it at line 7 when `text.parse()` is an `Err`"),
        "{when}"
    );
    // `var_os` returns an `Option`: never an `Err`. A method the standard library has not
    // is said both ways.
    let rustc = record_of(&records, "RUSTC is not set");
    let when = rustc["triggerScenarios"].as_str().unwrap();
    assert!(
        when.contains("`std::env::var_os(\"RUSTC\")` is `None`"),
        "{when}"
    );
    let head = record_of(&records, "the table is empty");
    let when = head["triggerScenarios"].as_str().unwrap();
    assert!(
        when.contains(
            "`v.head()` holds no value: `None` if it is an `Option`, an `Err` if it is a `Result`"
        ),
        "{when}"
    );
    // An `Err` is returned by the `?`: only a `None` reaches the `expect`.
    let dir = record_of(&records, "no dir");
    let when = dir["triggerScenarios"].as_str().unwrap();
    assert!(when.contains("`v.dir()?` is `None`"), "{when}");
    assert!(!when.contains("that gets to line"), "{when}");
    // The doc comment states when it panics: the caller meets it, with the doc's words.
    assert_eq!(r["handlingStrategy"], "fix-input");
    assert!(
        r["solutions"]
            .to_string()
            .contains("Panics if `text` is not a number."),
        "{}",
        r["solutions"]
    );
    // The guard reads catch_unwind's payload, and other panics go on.
    let guard = r["typeGuard"].as_str().unwrap();
    assert!(guard.contains("downcast_ref::<String>()"), "{guard}");
    let pattern = r["tryCatchPattern"].as_str().unwrap();
    assert!(
        pattern.contains("AssertUnwindSafe") && pattern.contains("resume_unwind(payload)"),
        "{pattern}"
    );
}

/// What a record says is only what holds: an exception raised bare has no message; a
/// private function's arguments are no user's to pass; a `Display` arm handles nothing; a
/// message without values says none; a branch compiled out is no site.
#[test]
fn an_explanation_says_only_what_holds() {
    let s = Scratch::new();
    s.write(
        "lib/pkg/reduction.py",
        "def _recv(sock, size):\n    msg = sock.recv(size)\n    if not msg:\n        raise EOFError\n    return msg\n\n\ndef _check(mode):\n    if mode not in ('r', 'w'):\n        raise ValueError('bad mode')\n",
    );
    s.write(
        "lib/src/lib.rs",
        "pub enum Error {\n    RedirectFailed,\n}\n\nimpl std::fmt::Display for Error {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        match self {\n            Error::RedirectFailed => write!(f, \"redirect failed\"),\n        }\n    }\n}\n\npub fn load(ptr: *const u8) {\n    assert!(!ptr.is_null(), \"the table is not loaded\");\n}\n\npub struct ParseError {\n    kind: Kind,\n}\n\nenum Kind {\n    Empty,\n    BadChar(char),\n}\n\nimpl std::fmt::Display for ParseError {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        match &self.kind {\n            Kind::Empty => f.write_str(\"empty string, expected a version\"),\n            Kind::BadChar(c) => write!(f, \"unexpected character {:?} in version\", c),\n        }\n    }\n}\n",
    );
    s.write(
        "lib/float/float.go",
        "package float\n\nconst debugFloat = false\n\nfunc fmtX(hm int) {\n\tif debugFloat {\n\t\tpanic(\"bad hm\")\n\t}\n\tif hm < 0 {\n\t\tpanic(\"negative hm\")\n\t}\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let by = |m: &str| record_of(&records, m);
    // `raise EOFError`: the class alone, recognised by its class.
    let eof = by("EOFError");
    let doc = eof["documentation"].as_str().unwrap();
    assert!(doc.contains("without a message"), "{doc}");
    assert!(!doc.contains("with the message"), "{doc}");
    let guard = eof["typeGuard"].as_str().unwrap();
    assert!(!guard.contains("str(e)"), "{guard}");
    // `_check()` is private: no "pass a mode" and no "check before calling".
    let bad = by("bad mode");
    let advice = format!("{} {}", bad["solutions"], bad["preventionTips"]);
    assert!(!advice.contains("Pass a `mode`"), "{advice}");
    assert!(!advice.contains("before calling `_check()`"), "{advice}");
    assert!(!advice.contains("values in the message"), "{advice}");
    // The `Display` arm words the variant; it handles nothing.
    let variant = by("redirect failed");
    let all = variant.to_string();
    assert!(!all.contains("already does"), "{all}");
    assert!(!all.contains("values the text shows"), "{all}");
    assert!(all.contains("every `Error::RedirectFailed`"), "{all}");
    // A text chosen by the arm of another enum's `match` words one case of the type: no
    // "every `ParseError`", and the case is named.
    let case = by("unexpected character {:?} in version");
    let all = case.to_string();
    assert!(!all.contains("every `ParseError`"), "{all}");
    assert!(!all.contains("Any `ParseError`"), "{all}");
    assert!(all.contains("Kind::BadChar(c)"), "{all}");
    // `assert!(!p.is_null())` fails when `p.is_null()`, said once.
    let assert = by("the table is not loaded");
    let doc = assert["documentation"].as_str().unwrap();
    assert!(doc.contains("`ptr.is_null()`"), "{doc}");
    assert!(!doc.contains("!(!"), "{doc}");
    // `if debugFloat` with `const debugFloat = false` never runs.
    assert!(records.iter().all(|r| r["errorMessage"] != "bad hm"));
    by("negative hm");
}

/// A generator raises as its result is iterated, and the code iterates it; a local given a
/// value only in a branch the site is not in has that value on no path to it; a method
/// defined under an `if` of its class exists only where that held.
#[test]
fn a_generator_raises_as_it_is_iterated_and_a_branch_not_taken_gives_no_value() {
    let s = Scratch::new();
    s.write(
        "lib/pkg/net.py",
        "def summarize(first, last):\n    if first.version != 4:\n        raise ValueError('unknown IP version')\n    while first <= last:\n        yield first\n        first += 1\n\n\nclass Compiler:\n    def fix_args(self, output_dir):\n        if output_dir is None:\n            output_dir = self.output_dir\n        elif not isinstance(output_dir, str):\n            raise TypeError(\"'output_dir' must be a string or None\")\n        return output_dir\n\n\nclass Popen:\n    if _mswindows:\n        def _wait(self, timeout):\n            if timeout < 0:\n                raise ValueError('timeout must not be negative on Windows')\n    else:\n        def _wait(self, timeout):\n            return 0\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let gen = record_of(&records, "unknown IP version");
    let doc = gen["documentation"].as_str().unwrap();
    assert!(doc.contains("`summarize()` is a generator"), "{doc}");
    let pattern = gen["tryCatchPattern"].as_str().unwrap();
    assert!(
        pattern.contains("list(net.summarize(first, last))"),
        "{pattern}"
    );
    let solutions = gen["solutions"].to_string();
    assert!(
        !solutions.contains("where `summarize()` is called"),
        "{solutions}"
    );
    let dir = record_of(&records, "'output_dir' must be a string or None");
    let doc = dir["documentation"].as_str().unwrap();
    assert!(!doc.contains("comes from `self.output_dir`"), "{doc}");
    assert!(doc.contains("`output_dir` is a parameter"), "{doc}");
    // A method defined under an `if` of its class exists only where that held.
    let windows = record_of(&records, "timeout must not be negative on Windows");
    let doc = windows["documentation"].as_str().unwrap();
    assert!(
        doc.contains("exists only when `_mswindows` (line 19) held"),
        "{doc}"
    );
}

/// A message that is all placeholders has no text to tell it by: the typeGuard checks the
/// class, or, without one, says that nothing tells it apart (it never looks for the
/// placeholder's own text, which no rendered message holds).
#[test]
fn a_message_without_fixed_text_is_told_by_its_class_or_said_to_be_untold() {
    let s = Scratch::new();
    s.write(
        "lib/pkg/table.py",
        "def lookup(table, value):\n    if value not in table:\n        raise KeyError(value)\n    return table[value]\n",
    );
    s.write(
        "lib/ssa/vals.go",
        "package ssa\n\nimport \"fmt\"\n\nfunc badVal(msg string, v int) error {\n\treturn fmt.Errorf(\"%s %d\", msg, v)\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let key = record_of(&records, "{value}");
    let guard = key["typeGuard"].as_str().unwrap();
    assert!(guard.contains("isinstance(e, KeyError)"), "{guard}");
    assert!(!guard.contains("\"{value}\""), "{guard}");
    let bad = record_of(&records, "%s %d");
    let guard = bad["typeGuard"].as_str().unwrap();
    assert!(guard.contains("no fixed text"), "{guard}");
    assert!(!guard.contains("strings.Contains"), "{guard}");
}

/// A Go package variable holding an error is a sentinel whatever its name's prefix; one
/// that is unexported is told apart by its text outside its package. An error value handed
/// to a call (a compiler's `p.error(syntax.Error{…})`) is reported there, not returned.
#[test]
fn go_error_values_are_said_as_the_code_uses_them() {
    let s = Scratch::new();
    s.write(
        "lib/ld/outbuf.go",
        "package ld\n\nimport \"errors\"\n\nvar viewCloseError = errors.New(\"cannot Close OutBuf from View\")\n\ntype OutBuf struct{ isView bool }\n\nfunc (out *OutBuf) Close() error {\n\tif out.isView {\n\t\treturn viewCloseError\n\t}\n\treturn nil\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let r = record_of(&records, "cannot Close OutBuf from View");
    let when = r["triggerScenarios"].as_str().unwrap();
    assert!(
        when.contains("returned by `Close()` at ld/outbuf.go:11"),
        "{when}"
    );
    let guard = r["typeGuard"].as_str().unwrap();
    assert!(
        guard.contains("strings.Contains(err.Error(), \"cannot Close OutBuf from View\")"),
        "{guard}"
    );
    let all = r.to_string();
    assert!(!all.contains("imports or runs"), "{all}");
    s.write(
        "lib/noder/lex.go",
        "package noder\n\ntype noder struct{}\n\nfunc (p *noder) error(err error) {}\n\nfunc (p *noder) pragcgo(pos Pos, f []string) {\n\tif len(f) > 3 {\n\t\tp.error(syntax.Error{Pos: pos, Msg: \"usage: //go:cgo_import_dynamic local\"})\n\t}\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let r = record_of(&records, "usage: //go:cgo_import_dynamic local");
    let doc = r["documentation"].as_str().unwrap();
    assert!(doc.contains("is made and handed to `p.error()`"), "{doc}");
    assert!(!doc.contains("is returned"), "{doc}");
    let when = r["triggerScenarios"].as_str().unwrap();
    assert!(when.contains("reports it when it gets to line 9"), "{when}");
}

/// The code of a Go program (`cmd/<tool>/…`) is no package a program imports: its errors
/// reach a user as what the tool prints. In Go's own tree (`cmd/go.mod` is `module cmd`) the
/// compiler is run by `go build`, and a package of `cmd/go/internal` that is a subcommand's is
/// that subcommand. The record runs the command and reads its output; it never calls the
/// tool's functions nor says to catch the error around them.
#[test]
fn a_go_program_s_errors_are_what_its_command_prints() {
    let s = Scratch::new();
    s.write("src/cmd/go.mod", "module cmd\n\ngo 1.19\n");
    s.write(
        "src/cmd/compile/internal/ssa/expand.go",
        "package ssa\n\nfunc badVal(msg string, v int) error {\n\treturn fmt.Errorf(\"bad value %d for %s\", v, msg)\n}\n\nfunc decompose(n int) {\n\tif n < 0 {\n\t\tpanic(\"decompose of a negative width\")\n\t}\n}\n",
    );
    s.write(
        "src/cmd/go/internal/modget/get.go",
        "package modget\n\nimport \"errors\"\n\nfunc parseArgs(args []string) error {\n\tif len(args) == 0 {\n\t\treturn errors.New(\"go get: no module path given to get\")\n\t}\n\treturn nil\n}\n\nfunc run(err error) {\n\tif err != nil {\n\t\tlog.Fatalf(\"go: %v\", err)\n\t}\n}\n",
    );
    s.write(
        "src/go/build/read.go",
        "package build\n\nimport \"errors\"\n\nfunc ReadHeader(b []byte) error {\n\tif len(b) == 0 {\n\t\treturn errors.New(\"build header is empty here\")\n\t}\n\treturn nil\n}\n",
    );
    s.write(
        "tool/cmd/lint/main.go",
        "package main\n\nimport \"log\"\n\nfunc main() {\n\tif len(os.Args) < 2 {\n\t\tlog.Fatalf(\"lint needs a folder to read\")\n\t}\n}\n",
    );
    s.write(
        "src/cmd/compile/internal/ssa/gen/rulegen.go",
        "//go:build gen\n\npackage main\n\nfunc node(kind int) {\n\tif kind > 9 {\n\t\tpanic(\"unknown node kind in the rules\")\n\t}\n}\n",
    );
    s.ok(&["index", "src", "--repo", "golang/go"]);
    let records = s.records();
    // A generator the compiler's developers run is no part of `go build`.
    let r = record_of(&records, "unknown node kind in the rules");
    assert!(!r.to_string().contains("go build"), "{r}");
    let panic = record_of(&records, "decompose of a negative width");
    let doc = panic["documentation"].as_str().unwrap();
    assert!(
        doc.contains("is code of `go build`, not of a package a program imports"),
        "{doc}"
    );
    let solutions = panic["solutions"].to_string();
    assert!(solutions.contains("It stops `go build`"), "{solutions}");
    assert!(!solutions.contains("Catch it"), "{solutions}");
    let code = panic["tryCatchPattern"].as_str().unwrap();
    assert!(
        code.contains("exec.Command(\"go\", append([]string{\"build\"}, extraArgs...)...)"),
        "{code}"
    );
    assert!(!code.contains("recover()"), "{code}");
    let guard = panic["typeGuard"].as_str().unwrap();
    assert!(
        guard.contains("strings.Contains(output, \"decompose of a negative width\")"),
        "{guard}"
    );
    let get = record_of(&records, "go get: no module path given to get");
    assert!(
        get["documentation"]
            .as_str()
            .unwrap()
            .contains("is code of `go get`"),
        "{}",
        get["documentation"]
    );
    assert!(!get["tryCatchPattern"]
        .as_str()
        .unwrap()
        .contains("the code that reaches"));
    // A message with no text of its own: the output test and the run that uses it agree.
    let fatal = record_of(&records, "go: %v");
    let guard = fatal["typeGuard"].as_str().unwrap();
    assert!(
        guard.contains("func isThisError(output string) bool") && guard.contains("output != \"\""),
        "{guard}"
    );
    assert!(fatal["tryCatchPattern"]
        .as_str()
        .unwrap()
        .contains("isThisError(string(out))"));
    // A package a program imports stays one.
    let lib = record_of(&records, "build header is empty here");
    assert!(!lib["documentation"]
        .as_str()
        .unwrap()
        .contains("is code of"));
    assert!(!lib["typeGuard"].as_str().unwrap().contains("output"));
    // Outside Go's tree, a program is named by its folder.
    s.ok(&["index", "tool", "--repo", "acme/tool"]);
    let records = s.records();
    let lint = record_of(&records, "lint needs a folder to read");
    assert!(
        lint["documentation"]
            .as_str()
            .unwrap()
            .contains("is code of `lint`"),
        "{}",
        lint["documentation"]
    );
    assert!(lint["tryCatchPattern"]
        .as_str()
        .unwrap()
        .contains("exec.Command(\"lint\", extraArgs...)"));
}

/// A public method of a class kept to the project (the JDK's `jdk.internal`) that implements
/// a public interface's is reached through that interface: the record names the method it
/// implements and calls it, and the interface is found through the class's import, in another
/// module's folder.
#[test]
fn a_java_method_is_reached_through_the_public_method_it_implements() {
    let s = Scratch::new();
    s.write(
        "src/java.net.http/java/net/http/HttpClient.java",
        "package java.net.http;\n\npublic abstract class HttpClient {\n    public interface Builder {\n        Builder priority(int priority);\n\n        Builder version(int a, int b);\n    }\n}\n",
    );
    s.write(
        "src/java.base/jdk/internal/http/BuilderImpl.java",
        "package jdk.internal.http;\n\nimport java.net.http.HttpClient;\n\npublic class BuilderImpl implements HttpClient.Builder {\n    @Override\n    public BuilderImpl priority(int priority) {\n        if (priority < 1 || priority > 256) {\n            throw new IllegalArgumentException(\"priority must be between 1 and 256\");\n        }\n        return this;\n    }\n\n    public BuilderImpl version(int a) {\n        if (a < 0) {\n            throw new IllegalArgumentException(\"version below zero given here\");\n        }\n        return this;\n    }\n}\n",
    );
    s.ok(&["index", "src", "--repo", "acme/jdk"]);
    let records = s.records();
    let r = record_of(&records, "priority must be between 1 and 256");
    let doc = r["documentation"].as_str().unwrap();
    assert!(
        doc.contains("`priority()` implements `HttpClient.Builder.priority()` (java.net.http/java/net/http/HttpClient.java:5): a call of that method on a `BuilderImpl` reaches it."),
        "{doc}"
    );
    let code = r["tryCatchPattern"].as_str().unwrap();
    assert!(code.contains("builder.priority(priority);"), "{code}");
    // A method with other parameters than the interface's overloads it: no way in.
    let r = record_of(&records, "version below zero given here");
    assert!(
        !r["documentation"].as_str().unwrap().contains("implements"),
        "{}",
        r["documentation"]
    );
}

/// What a module offers without saying so in a function's head is a way in too: a method of
/// a Rust trait `impl`, an exported JavaScript class's methods and its constructor (a library
/// that installs no program), a Java interface's methods, and a public method of a class kept
/// to the project that implements a public interface's, on the way up from a private helper.
#[test]
fn trait_impls_exports_and_interfaces_are_ways_in() {
    let s = Scratch::new();
    s.write(
        "tree/src/codec.rs",
        "pub struct Codec;\n\nimpl std::str::FromStr for Codec {\n    type Err = String;\n    fn from_str(s: &str) -> Result<Codec, String> {\n        check(s)?;\n        Ok(Codec)\n    }\n}\n\nfn check(s: &str) -> Result<(), String> {\n    if s.is_empty() {\n        return Err(\"empty codec name\".to_owned());\n    }\n    Ok(())\n}\n\ntrait Hidden {\n    fn go(&self);\n}\n\nimpl Hidden for Codec {\n    fn go(&self) {\n        inner();\n    }\n}\n\nfn inner() {\n    panic!(\"hidden trait reached\");\n}\n",
    );
    s.write(
        "tree/lib/pack.js",
        "'use strict'\n\nclass Pack {\n  constructor (opts) {\n    this.level = level(opts)\n  }\n\n  #drain () {\n    throw new Error('drained twice')\n  }\n}\n\nfunction level (opts) {\n  if (opts.level > 9) {\n    throw new RangeError('compression level above 9')\n  }\n  return opts.level\n}\n\nmodule.exports = Pack\n",
    );
    s.write(
        "tree/java.base/java/util/Source.java",
        "package java.util;\n\npublic interface Source {\n    default int next(int n) {\n        if (n < 0) {\n            throw new IllegalArgumentException(\"next below zero\");\n        }\n        return n;\n    }\n\n    int read(int n);\n}\n",
    );
    s.write(
        "tree/java.base/sun/util/FileSource.java",
        "package sun.util;\n\nimport java.util.Source;\n\npublic class FileSource implements Source {\n    public int read(int n) {\n        return fill(n);\n    }\n\n    private int fill(int n) {\n        if (n > 4096) {\n            throw new IllegalStateException(\"buffer overrun in fill\");\n        }\n        return n;\n    }\n}\n",
    );
    // A provider's `engine…` method is run by its service class's public method.
    s.write(
        "tree/java.base/java/security/SignatureSpi.java",
        "package java.security;\n\npublic abstract class SignatureSpi {\n    protected abstract byte[] engineSign() throws SignatureException;\n}\n",
    );
    s.write(
        "tree/java.base/java/security/Signature.java",
        "package java.security;\n\npublic abstract class Signature extends SignatureSpi {\n    public final byte[] sign() throws SignatureException {\n        return engineSign();\n    }\n}\n",
    );
    s.write(
        "tree/java.base/sun/security/rsa/RsaSigner.java",
        "package sun.security.rsa;\n\nimport java.security.SignatureSpi;\n\npublic class RsaSigner extends SignatureSpi {\n    @Override\n    protected byte[] engineSign() throws SignatureException {\n        if (key == null) {\n            throw new SignatureException(\"no private key to sign with\");\n        }\n        return new byte[0];\n    }\n}\n",
    );
    s.ok(&["index", "tree", "--repo", "acme/offers"]);
    let records = s.records();
    let doc = documentation_of(&records, "empty codec name");
    assert!(
        doc.contains("It is reached from `Codec::from_str()` (src/codec.rs:5,"),
        "{doc}"
    );
    // A trait the file keeps to the crate offers nothing outside it.
    let doc = documentation_of(&records, "hidden trait reached");
    assert!(!doc.contains("reached from"), "{doc}");
    let doc = documentation_of(&records, "compression level above 9");
    assert!(
        doc.contains("It is reached from `new Pack()` (lib/pack.js:4,"),
        "{doc}"
    );
    // A private method is no way in, nor a method of a class the module does not export.
    let doc = documentation_of(&records, "drained twice");
    assert!(!doc.contains("reached from"), "{doc}");
    // An interface's method is public without the word; nothing above it is looked for.
    let doc = documentation_of(&records, "next below zero");
    assert!(!doc.contains("reached from"), "{doc}");
    let doc = documentation_of(&records, "buffer overrun in fill");
    assert!(
        doc.contains("It is reached from `Source.read()` (java.base/java/util/Source.java:11): a call of it runs its implementation `read()` (java.base/sun/util/FileSource.java:6), which calls `fill()`."),
        "{doc}"
    );
    let doc = documentation_of(&records, "no private key to sign with");
    assert!(
        doc.contains("It is reached from `Signature.sign()` (java.base/java/security/Signature.java:4), which runs the provider's `engineSign()` when the `Signature` is `RsaSigner`'s."),
        "{doc}"
    );
}

/// A guard of a private function on its parameters is the caller's to check when the public
/// function that calls it passes its own parameters through: the check is said of the public
/// function's arguments (`sec`, not `second`), and the example passes them.
#[test]
fn a_guard_is_checked_through_the_public_function_that_passes_its_arguments() {
    let s = Scratch::new();
    s.write(
        "lib/clock.py",
        "def _check_time_fields(hour, minute, second):\n    if not 0 <= second <= 59:\n        raise ValueError('second must be in 0..59', second)\n    return hour, minute, second\n\n\ndef make_time(hour, minute, sec=0):\n    return _check_time_fields(hour, minute, sec)\n\n\ndef _check_day(day):\n    if day > 31:\n        raise ValueError('day is past the end of any month')\n\n\ndef make_date(day):\n    return _check_day(day + 1)\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let r = record_of(&records, "second must be in 0..59");
    let check = r["validationCode"].as_str().unwrap();
    assert!(
        check.contains("def would_raise(sec) -> bool:\n    return not (0 <= sec <= 59)"),
        "{check}"
    );
    let fix = r["exampleFix"].as_str().unwrap();
    assert!(
        fix.contains("if not would_raise(sec):\n    clock.make_time(hour, minute, sec=sec)"),
        "{fix}"
    );
    // An argument computed from the parameter is not the parameter: no check is said.
    let r = record_of(&records, "day is past the end of any month");
    assert!(
        !r["validationCode"]
            .as_str()
            .unwrap()
            .contains("would_raise"),
        "{}",
        r["validationCode"]
    );
}

/// A name the function assigns again between a condition and the site is not what the
/// condition tested, nor what its declaration gave it: the record leaves both out (email's
/// `get_parameter` tests `value[0] == '*'`, then `section, value = get_section(value)`, then
/// raises on `not value`; strconv's `e2` comes from `computeBounds` and is assigned again).
#[test]
fn a_name_assigned_again_before_the_site_is_not_said_to_keep_its_test_or_value() {
    let s = Scratch::new();
    s.write(
        "lib/params.py",
        "def get_parameter(value):\n    if value[0] == '*':\n        section, value = get_section(value)\n        if not value:\n            raise ValueError('Incomplete parameter here')\n    return value\n",
    );
    s.write(
        "lib/ryu/ryu.go",
        "package ryu\n\nfunc shortest(mant uint64, exp int) {\n\tml, e2 := computeBounds(mant, exp)\n\tdu, e2 := mult(ml, e2)\n\te2 = adjust(du, e2)\n\tif e2 >= 0 {\n\t\tpanic(\"not enough significant bits left here\")\n\t}\n}\n",
    );
    s.write(
        "lib/Glob.java",
        "class Glob {\n    static void scan(String p) {\n        int i = 0;\n        while (i < p.length()) {\n            char c = p.charAt(i++);\n            if (c == '/') {\n                throw new IllegalArgumentException(\"a separator in a glob class\");\n            }\n        }\n    }\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    // `i++` inside a call's arguments assigns `i` all the same.
    let r = record_of(&records, "a separator in a glob class");
    let doc = r["documentation"].as_str().unwrap();
    assert!(!doc.contains("i < p.length()"), "{doc}");
    assert!(doc.contains("c == '/'"), "{doc}");
    let r = record_of(&records, "Incomplete parameter here");
    let doc = r["documentation"].as_str().unwrap();
    assert!(
        doc.contains("It is raised when `not value` holds."),
        "{doc}"
    );
    assert!(!doc.contains("value[0]"), "{doc}");
    let r = record_of(&records, "not enough significant bits left here");
    let doc = r["documentation"].as_str().unwrap();
    assert!(doc.contains("`e2 >= 0`"), "{doc}");
    assert!(!doc.contains("comes from"), "{doc}");
}

/// An error its own function catches and does not raise again never reaches a caller as
/// raised: the record says which clause catches it and what that clause does, and offers no
/// code that catches it around the call (re's `_class_escape` raises a bare `ValueError` that
/// its `except ValueError: pass` takes; a JavaScript `catch` takes whatever is thrown).
#[test]
fn an_error_caught_in_its_own_function_is_said_to_be() {
    let s = Scratch::new();
    s.write(
        "lib/pkg/esc.py",
        "def class_escape(source, escape):\n    try:\n        c = escape[1:2]\n        if c in '89':\n            raise ValueError\n        if c == 'q':\n            raise KeyError('no such escape %s' % escape)\n        return c\n    except ValueError:\n        pass\n    except KeyError as e:\n        raise\n    raise source.error('bad escape %s' % escape)\n\n\ndef convert(text):\n    try:\n        if not text:\n            raise TypeError('empty text given to convert')\n        return int(text)\n    except (TypeError, OSError) as exc:\n        raise RuntimeError('cannot convert') from exc\n",
    );
    s.write(
        "lib/load.js",
        "function load(name) {\n  try {\n    if (!name) {\n      throw new Error('a name is required to load')\n    }\n    return require(name)\n  } catch (err) {\n    console.warn('skipping', name, err.message)\n    return null\n  }\n}\nmodule.exports = { load }\n",
    );
    s.write(
        "lib/src/Codec.java",
        "public class Codec {\n    public static int decode(String s) {\n        try {\n            if (s.isEmpty()) {\n                throw new IllegalArgumentException(\"empty input to decode\");\n            }\n            return Integer.parseInt(s);\n        } catch (IllegalStateException e) {\n            return -2;\n        } catch (IllegalArgumentException e) {\n            return -1;\n        }\n    }\n}\n",
    );
    s.write(
        "lib/pkg/warn.py",
        "import sys\n\nclass _OptionError(Exception):\n    pass\n\n\ndef _processoptions(args):\n    for arg in args:\n        try:\n            _setoption(arg)\n        except _OptionError as msg:\n            print('Invalid -W option ignored:', msg, file=sys.stderr)\n\n\ndef _setoption(arg):\n    parts = arg.split(':')\n    if len(parts) > 5:\n        raise _OptionError('too many fields (max 5): %r' % (arg,))\n    return parts\n\n\ndef simplefilter(arg):\n    try:\n        return _setoption(arg)\n    except ValueError:\n        return None\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    // A caller that catches it in a `try` around the call is named with what it does; one
    // whose `try` catches another class is not.
    let option = record_of(&records, "too many fields (max 5): %r");
    let when = option["triggerScenarios"].as_str().unwrap();
    assert!(
        when.contains("`_processoptions()` at pkg/warn.py:10 catches it: the `except _OptionError as msg` at line 11 runs `print("),
        "{when}"
    );
    assert!(
        !when.contains("`simplefilter()` at pkg/warn.py:24 catches"),
        "{when}"
    );
    for (message, says) in [
        ("ValueError", "the `except ValueError` at line 9 runs `pass`"),
        (
            "empty text given to convert",
            "the `except (TypeError, OSError) as exc` at line 21 raises `RuntimeError('cannot convert')` instead",
        ),
        (
            "a name is required to load",
            "the `catch (err)` at line 7 runs `console.warn('skipping', name, err.message)` and `return null`",
        ),
        (
            "empty input to decode",
            "the `catch (IllegalArgumentException e)` at line 10 runs `return -1;`",
        ),
    ] {
        let r = record_of(&records, message);
        let doc = r["documentation"].as_str().unwrap();
        assert!(doc.contains(&format!("catches it itself: {says}")), "{doc}");
        assert!(!doc.contains("a trace shows"), "{doc}");
        let pattern = r["tryCatchPattern"].as_str().unwrap();
        assert!(pattern.contains("cannot catch it"), "{pattern}");
        assert!(
            pattern
                .lines()
                .all(|l| l.starts_with("# ") || l.starts_with("// ")),
            "{pattern}"
        );
    }
    // A bare `raise` in the handler lets it go on to the caller.
    let again = record_of(&records, "no such escape %s");
    assert!(!again.to_string().contains("catches it itself"), "{again}");
    assert!(again["tryCatchPattern"]
        .as_str()
        .unwrap()
        .contains("except KeyError"));
}

/// The code fields call what a caller can reach: the public function on the way in (with
/// its own parameters), never a private one; a Go call that returns two values is assigned
/// two; a command's error is found in the command's output.
#[test]
fn the_code_calls_what_a_caller_reaches() {
    let s = Scratch::new();
    s.write(
        "lib/pkg/archive.py",
        "class Archive:\n    def extract(self, member, path=None):\n        return self._seek(member)\n\n    def _seek(self, member):\n        if member.offset < 0:\n            raise ValueError('seeking backwards is not allowed')\n        return member\n",
    );
    s.write(
        "lib/key/key.go",
        "package key\n\nimport \"errors\"\n\ntype Key struct{}\n\nfunc ParseKey(der []byte) (*Key, error) {\n\tif len(der) == 0 {\n\t\treturn nil, errors.New(\"key: empty input\")\n\t}\n\treturn &Key{}, nil\n}\n",
    );
    s.write(
        "lib/codec/Codec.java",
        "package codec;\n\nimport java.io.IOException;\n\nclass Codec {\n    private void check(int n) throws IOException {\n        if (n < 0) {\n            throw new IOException(\"negative length\");\n        }\n    }\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let by = |m: &str| record_of(&records, m);
    // No call of a caller's reaches it: no empty `try`, which would not compile for a
    // checked exception, but a handler for the catch block.
    let codec = by("negative length");
    let try_catch = codec["tryCatchPattern"].as_str().unwrap();
    assert!(!try_catch.contains("try {"), "{try_catch}");
    assert!(
        try_catch.contains("static void handle(IOException e)"),
        "{try_catch}"
    );
    let seek = by("seeking backwards is not allowed");
    let try_catch = seek["tryCatchPattern"].as_str().unwrap();
    assert!(try_catch.contains("archive.extract(member)"), "{try_catch}");
    assert!(!try_catch.contains("._seek("), "{try_catch}");
    let key = by("key: empty input");
    let try_catch = key["tryCatchPattern"].as_str().unwrap();
    assert!(
        try_catch.contains("if _, err := key.ParseKey(der); err != nil"),
        "{try_catch}"
    );

    let npm = Scratch::new();
    npm.write(
        "cli/package.json",
        r#"{"name": "tool", "bin": {"tool": "bin/tool.js"}}"#,
    );
    npm.write(
        "cli/lib/commands/ci.js",
        "class CI {\n  async exec(args) {\n    if (this.npm.global) {\n      throw Object.assign(new Error('`tool ci` does not work for global packages'), { code: 'ECIGLOBAL' })\n    }\n  }\n}\nmodule.exports = CI\n",
    );
    npm.ok(&["index", "cli", "--repo", "acme/tool"]);
    let records = npm.records();
    let ci = record_of(&records, "`tool ci` does not work for global packages");
    let try_catch = ci["tryCatchPattern"].as_str().unwrap();
    assert!(
        try_catch.contains("spawnSync(\"tool\", [\"ci\", ...extraArgs]"),
        "{try_catch}"
    );
    assert!(!try_catch.contains("exec("), "{try_catch}");
    let guard = ci["typeGuard"].as_str().unwrap();
    assert!(guard.contains("output.includes("), "{guard}");
    // What a command tells the one who ran it is about how they ran it.
    assert_eq!(ci["backgroundTag"], "invalid-input");
}

/// A command's guards are said as its user writes the command line: a missing argument by the
/// usage the command declares, an option by its flag; a method of the command that no usage
/// names is not read that way.
#[test]
fn a_command_error_says_how_the_command_was_run() {
    let s = Scratch::new();
    s.write(
        "cli/package.json",
        r#"{"name": "npm", "bin": {"npm": "bin/npm-cli.js"}}"#,
    );
    s.write(
        "cli/lib/commands/stage/reject.js",
        "class StageReject extends BaseCommand {\n  static name = 'reject'\n  static usage = ['<stage-id>']\n\n  async exec (args) {\n    if (!args[0]) {\n      throw new Error('Missing required <stage-id>')\n    }\n    if (this.npm.global) {\n      throw new Error('staging does not work for global packages')\n    }\n    await this.helper(args)\n  }\n\n  async helper (args) {\n    if (!args[0]) {\n      throw new Error('helper lost its argument')\n    }\n  }\n}\nmodule.exports = StageReject\n",
    );
    s.ok(&["index", "cli", "--repo", "acme/npm"]);
    let records = s.records();

    let missing = record_of(&records, "Missing required <stage-id>");
    let doc = missing["documentation"].as_str().unwrap();
    assert!(
        doc.contains("`npm stage reject` is run as `npm stage reject <stage-id>`"),
        "{doc}"
    );
    assert!(
        doc.contains("`npm stage reject` run without its first argument (<stage-id>)"),
        "{doc}"
    );
    let solutions = missing["solutions"].as_array().unwrap();
    assert_eq!(
        solutions[0],
        "Give `npm stage reject` its first argument, <stage-id>: `npm stage reject <stage-id>`."
    );
    let fix = missing["exampleFix"].as_str().unwrap();
    assert!(fix.contains("//   $ npm stage reject\n"), "{fix}");
    assert!(fix.contains("//   $ npm stage reject <stage-id>"), "{fix}");
    // `missing` is no lookup that failed: the command was run without what it needs.
    assert_eq!(missing["backgroundTag"], "invalid-input");

    let global = record_of(&records, "staging does not work for global packages");
    let doc = global["documentation"].as_str().unwrap();
    assert!(doc.contains("run with `--global`"), "{doc}");
    let first = global["solutions"][0].as_str().unwrap();
    assert!(
        first.starts_with("Run `npm stage reject` without `--global`")
            && first.contains("npm_config_global"),
        "{first}"
    );

    // `helper(args)` is no subcommand: its `args` are not the command line's.
    let helper = record_of(&records, "helper lost its argument");
    let doc = helper["documentation"].as_str().unwrap();
    assert!(!doc.contains("This is the error of"), "{doc}");
    assert!(!doc.contains("is run as"), "{doc}");
}

/// A `self` call in another class of the same file is that class's method: sunau's reader
/// and writer both call `self.getnchannels()` from `getparams()`, and only the writer's
/// raises. A subclass's `self` call reaches its base's method; a Java call through a
/// constant of another type (`UNSAFE.getInt(…)`) or through what a call returns is not a call
/// of the file's own method.
#[test]
fn a_same_named_method_of_another_class_in_the_file_is_no_caller() {
    let s = Scratch::new();
    s.write(
        "lib/audio.py",
        "class Reader:\n    def getnchannels(self):\n        return self._nchannels\n\n    def getparams(self):\n        return (self.getnchannels(), 1)\n\n\nclass Writer:\n    def getnchannels(self):\n        if not self._nchannels:\n            raise ValueError('number of channels not set')\n        return self._nchannels\n\n    def getparams(self):\n        return (self.getnchannels(), 2)\n\n\nclass StereoWriter(Writer):\n    def describe(self):\n        return 'channels: %d' % self.getnchannels()\n",
    );
    s.write(
        "lib/Access.java",
        "class Access {\n    private static final Unsafe UNSAFE = Unsafe.getUnsafe();\n\n    public int getIntAcquire(long offset) {\n        if (offset < 0) {\n            throw new IllegalStateException(\"the scope of this access is closed\");\n        }\n        return getIntAcquireInternal(offset);\n    }\n\n    private int getIntAcquireInternal(long offset) {\n        return UNSAFE.getIntAcquire(null, offset);\n    }\n\n    int twice(long offset) {\n        return getIntAcquire(offset) + this.getIntAcquire(offset + 4);\n    }\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let r = record_of(&records, "number of channels not set");
    let trigger = r["triggerScenarios"].as_str().unwrap();
    assert!(trigger.contains("audio.py:16"), "{trigger}");
    assert!(trigger.contains("audio.py:21"), "{trigger}");
    assert!(!trigger.contains("audio.py:6"), "{trigger}");
    let r = record_of(&records, "the scope of this access is closed");
    let trigger = r["triggerScenarios"].as_str().unwrap();
    assert!(trigger.contains("twice()"), "{trigger}");
    assert!(!trigger.contains("getIntAcquireInternal()"), "{trigger}");
}

/// The other side of an `if` is a way around the raise only when it does not fail itself:
/// distutils' `setup()` raises `SystemExit` on both sides of `if 'name' not in attrs`.
#[test]
fn a_branch_that_fails_too_is_no_way_around() {
    let s = Scratch::new();
    s.write(
        "lib/core.py",
        "def setup(attrs, strict):\n    if 'name' not in attrs:\n        raise SystemExit('error in setup command: no name given')\n    else:\n        raise SystemExit('error in %s setup command: bad attrs' % attrs['name'])\n\n\ndef load(path, strict: bool = False):\n    if strict:\n        return None\n    else:\n        raise ValueError('cannot load a lenient path here')\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let solutions = |m: &str| {
        let r = records
            .iter()
            .find(|r| r["errorMessage"].as_str().unwrap().contains(m))
            .unwrap_or_else(|| panic!("no record of {m:?}"));
        r["solutions"].to_string()
    };
    let both = solutions("setup command: bad attrs");
    assert!(!both.contains("Take the other branch"), "{both}");
    let one = solutions("cannot load a lenient path here");
    assert!(one.contains("Take the other branch"), "{one}");
}

/// A test for something missing (`not self._nchannels`, `sink == null`) names the public
/// method that assigns it from its argument as the way out; a private method, or one that
/// assigns something else than its argument, is none.
#[test]
fn the_setter_of_what_a_guard_finds_missing_is_the_way_out() {
    let s = Scratch::new();
    s.write(
        "lib/audio.py",
        "class Writer:\n    def __init__(self):\n        self._nchannels = 0\n\n    def setnchannels(self, nchannels):\n        self._nchannels = nchannels\n\n    def getnchannels(self):\n        if not self._nchannels:\n            raise ValueError('number of channels not set')\n        return self._nchannels\n",
    );
    s.write(
        "lib/Pipe.java",
        "public class Pipe {\n    private Sink sink;\n    private Sink spare;\n\n    public synchronized void connect(Sink snk) {\n        sink = snk;\n    }\n\n    private void attach(Sink s) {\n        spare = s;\n    }\n\n    public void write(int c) {\n        if (sink == null) {\n            throw new IllegalStateException(\"Pipe not connected\");\n        }\n        if (spare == null) {\n            throw new IllegalStateException(\"no spare sink attached\");\n        }\n    }\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let solutions = |m: &str| record_of(&records, m)["solutions"].to_string();
    let py = solutions("number of channels not set");
    assert!(py.contains("Call `setnchannels()` first"), "{py}");
    let fix = record_of(&records, "number of channels not set")["exampleFix"]
        .as_str()
        .unwrap();
    assert!(
        fix.contains("writer.setnchannels(nchannels)\nwriter.getnchannels()"),
        "{fix}"
    );
    let java = solutions("Pipe not connected");
    assert!(java.contains("Call `connect()` first"), "{java}");
    let private = solutions("no spare sink attached");
    assert!(!private.contains("attach()"), "{private}");
}

/// A Go panic whose value a deferred `recover()` of the same file names (regexp/syntax's
/// `parse`) does not stop the program: the record says which function recovers it, and the
/// way to catch it is the error that function returns. A panic it does not name still stops
/// the program.
#[test]
fn a_go_panic_the_package_recovers_is_no_crash() {
    let s = Scratch::new();
    s.write(
        "syntax/parse.go",
        "package syntax\n\ntype ErrorCode string\n\nconst ErrNestingDepth ErrorCode = \"expression nests too deeply\"\n\ntype parser struct{ depth int }\n\nfunc (p *parser) push() {\n\tp.depth++\n\tif p.depth > 1000 {\n\t\tpanic(ErrNestingDepth)\n\t}\n\tif p.depth < 0 {\n\t\tpanic(\"syntax: negative depth\")\n\t}\n}\n\nfunc Parse(s string) (_ *parser, err error) {\n\tdefer func() {\n\t\tswitch r := recover(); r {\n\t\tdefault:\n\t\t\tpanic(r)\n\t\tcase nil:\n\t\tcase ErrNestingDepth:\n\t\t\terr = ErrNestingDepth\n\t\t}\n\t}()\n\tp := &parser{}\n\tfor range s {\n\t\tp.push()\n\t}\n\treturn p, nil\n}\n",
    );
    s.ok(&["index", ".", "--repo", "acme/syntax"]);
    let records = s.records();
    let nested = records
        .iter()
        .find(|r| r["errorType"] == "panic" && r["lineNumber"] == 12)
        .expect("the panic of ErrNestingDepth is a record");
    let solutions = nested["solutions"].to_string();
    assert!(
        solutions.contains("It does not stop the program when reached through `Parse()`"),
        "{solutions}"
    );
    assert!(solutions.contains("an error value"), "{solutions}");
    let catch = nested["tryCatchPattern"].as_str().unwrap();
    assert!(!catch.contains("recover()"), "{catch}");
    let other = record_of(&records, "syntax: negative depth")["solutions"].to_string();
    assert!(!other.contains("does not stop the program"), "{other}");
}

/// A Python warning is no exception and no log line: the record says the call goes on and the
/// warning filters decide whether it shows, and its code records it with
/// `warnings.catch_warnings` and tells it by its category and text.
#[test]
fn a_python_warning_is_recorded_not_caught() {
    let s = Scratch::new();
    s.write(
        "lib/threads.py",
        "import warnings\n\n\nclass Worker:\n    def isDaemon(self):\n        warnings.warn('isDaemon() is deprecated, get the daemon attribute instead',\n                      DeprecationWarning, stacklevel=2)\n        return self._daemonic\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let r = record_of(
        &records,
        "isDaemon() is deprecated, get the daemon attribute instead",
    );
    let solutions = r["solutions"].to_string();
    assert!(
        solutions.contains("It is a warning, not an exception"),
        "{solutions}"
    );
    assert!(!solutions.contains("find it in the logs"), "{solutions}");
    let guard = r["typeGuard"].as_str().unwrap();
    assert!(
        guard.contains("issubclass(w.category, DeprecationWarning)"),
        "{guard}"
    );
    let catch = r["tryCatchPattern"].as_str().unwrap();
    assert!(
        catch.contains("with warnings.catch_warnings(record=True) as caught:"),
        "{catch}"
    );
    assert!(catch.contains("worker.isDaemon()"), "{catch}");
}

/// A property accessor is assigned or read, never called: the trigger says so and the code
/// assigns (`thread.daemon = daemonic`) or reads (`edge.spec`) the attribute.
#[test]
fn a_property_is_assigned_or_read_not_called() {
    let s = Scratch::new();
    s.write(
        "lib/threads.py",
        "class Thread:\n    @property\n    def daemon(self):\n        return self._daemonic\n\n    @daemon.setter\n    def daemon(self, daemonic):\n        if self._started:\n            raise RuntimeError('cannot set daemon status of active thread')\n        self._daemonic = daemonic\n",
    );
    s.write(
        "lib/edge.js",
        "class Edge {\n  get spec () {\n    if (this.overrides && this.overrides.value === '*') {\n      throw new Error('an override of * has no spec')\n    }\n    return this.rawSpec\n  }\n}\nmodule.exports = Edge\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let py = record_of(&records, "cannot set daemon status of active thread");
    let trigger = py["triggerScenarios"].as_str().unwrap();
    assert!(
        trigger.starts_with("Assigning the property `daemon` of a `Thread`"),
        "{trigger}"
    );
    let catch = py["tryCatchPattern"].as_str().unwrap();
    assert!(catch.contains("thread.daemon = daemonic"), "{catch}");
    assert!(!catch.contains("daemon(daemonic)"), "{catch}");
    let js = record_of(&records, "an override of * has no spec");
    let trigger = js["triggerScenarios"].as_str().unwrap();
    assert!(
        trigger.starts_with("Reading the property `spec` of an `Edge`"),
        "{trigger}"
    );
    let catch = js["tryCatchPattern"].as_str().unwrap();
    assert!(catch.contains("edge.spec;"), "{catch}");
}

/// A panic on an argument of a Rust function only its crate can call (`pub(crate)`) is the
/// crate's own invariant, to fix in its code; on an argument of a public function, the
/// caller's input.
#[test]
fn a_crate_private_argument_is_no_users_input() {
    let s = Scratch::new();
    s.write(
        "src/lib.rs",
        "pub struct Pool {\n    size: usize,\n}\n\nimpl Pool {\n    pub(crate) fn resize(&mut self, n: usize) {\n        assert!(n > 0, \"a pool is resized to no workers\");\n        self.size = n;\n    }\n\n    pub fn with_workers(n: usize) -> Pool {\n        if n > 64 {\n            panic!(\"a pool holds at most 64 workers, got {}\", n);\n        }\n        Pool { size: n }\n    }\n}\n",
    );
    s.ok(&["index", ".", "--repo", "acme/pool"]);
    let records = s.records();
    let strategy = |m: &str| record_of(&records, m)["handlingStrategy"].clone();
    assert_eq!(strategy("a pool is resized to no workers"), "fix-code");
    assert_eq!(
        strategy("a pool holds at most 64 workers, got {}"),
        "fix-input"
    );
}

/// Rust items inside an item-level macro's braces (tokio's `cfg_io_driver! { … }`) are read as
/// items: their sites are records, at their own lines.
#[test]
fn sites_inside_an_item_macro_are_records() {
    let s = Scratch::new();
    s.write(
        "src/lib.rs",
        "macro_rules! cfg_io {\n    ($($item:item)*) => { $($item)* }\n}\n\npub struct Handle {\n    io: Option<u32>,\n}\n\nimpl Handle {\n    cfg_io! {\n        pub(crate) fn io(&self) -> u32 {\n            self.io\n                .expect(\"A context was found, but IO is disabled. Call `enable_io` on the builder.\")\n        }\n    }\n}\n\ncfg_io! {\n    pub fn check(n: u32) {\n        if n == 0 {\n            panic!(\"n must not be zero\");\n        }\n    }\n}\n",
    );
    s.ok(&["index", ".", "--repo", "acme/io"]);
    let records = s.records();
    let io = record_of(
        &records,
        "A context was found, but IO is disabled. Call `enable_io` on the builder.",
    );
    assert_eq!(io["lineNumber"], 13);
    let check = record_of(&records, "n must not be zero");
    assert_eq!(check["lineNumber"], 21);
    let doc = check["documentation"].as_str().unwrap();
    assert!(doc.contains("`n == 0`"), "{doc}");
}

/// A `macro_rules!` whose rule writes items (serde's `declare_error_trait!` writes the
/// `de::Error` trait and its default methods) has its items' sites as records, at their own
/// lines, with the metavariables read as names; and a pasted error finds them.
#[test]
fn sites_in_items_a_macro_rules_writes_are_records() {
    let (s, records) = indexed(&[(
        "src/de.rs",
        "macro_rules! declare_error_trait {\n    (Error: Sized $(+ $($supertrait:ident)::+)*) => {\n        /// The error a `Deserializer` returns.\n        pub trait Error: Sized $(+ $($supertrait)::+)* {\n            fn custom<T: Display>(msg: T) -> Self;\n\n            fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {\n                if expected.is_empty() {\n                    Error::custom(format_args!(\"unknown variant `{}`, there are no variants\", variant))\n                } else {\n                    Error::custom(format_args!(\"unknown variant `{}`, expected {}\", variant, OneOf { names: expected }))\n                }\n            }\n        }\n    };\n}\n\ndeclare_error_trait!(Error: Sized + StdError);\n",
    )]);
    let variant = record_of(&records, "unknown variant `{}`, expected {}");
    assert_eq!(variant["lineNumber"], 11);
    assert_eq!(
        record_of(&records, "unknown variant `{}`, there are no variants")["lineNumber"],
        9
    );
    let out = s.ok(&["explain", "unknown variant `A`, expected one of `B`, `C`"]);
    assert!(out.contains("src/de.rs:11"), "{out}");
}

/// A message that is one of two (`const msg = forbidden ? A : B; throw new Error(msg)`,
/// `raise error("unknown flag" if c.isalpha() else "missing :")`) makes a record of each, at
/// the same line, and so does one inside a concatenation, each the whole text; a log's title
/// chosen by a condition is no message of its own. A value printed empty at the end of a line (`Invalid Version:`)
/// still finds its record.
#[test]
fn each_message_of_a_conditional_is_a_record() {
    let (s, records) = indexed(&[
        (
            "pick.js",
            "function pick(name, forbidden) {\n  const msg = !forbidden ? `No matching version found for ${name}.`\n    : `Could not download ${name} due to policy violations`\n  throw new Error(msg)\n}\nfunction parse(s, radix) {\n  throw new Error('For input string: ' + s + (radix === 10 ? '' : ' under radix ' + radix))\n}\nfunction inflate(log, ancient) {\n  const heading = ancient ? 'ancient lockfile' : 'old lockfile'\n  log.warn(heading, 'the lockfile is read again')\n}\nfunction version(v) {\n  throw new TypeError(`Invalid Version: ${v}`)\n}\nmodule.exports = { pick, parse, inflate, version }\n",
        ),
        (
            "sum.go",
            "package modload\n\nimport \"fmt\"\n\nfunc (e *ImportMissingSumError) Error() string {\n\tvar message string\n\tif e.found {\n\t\tmessage = fmt.Sprintf(\"missing go.sum entry needed to verify package %s is provided by exactly one module\", e.importPath)\n\t} else {\n\t\tmessage = fmt.Sprintf(\"missing go.sum entry for module providing package %s\", e.importPath)\n\t}\n\thint := e.hint()\n\treturn message + hint\n}\n\ntype ImportMissingSumError struct {\n\timportPath string\n\tfound      bool\n}\n",
        ),
        (
            "Access.java",
            "class Access {\n    static IllegalAccessException denied(String who, boolean exported) {\n        String msg = who + \" cannot access \";\n        if (exported) {\n            msg += \"a member\";\n        } else {\n            msg += \"a class\";\n        }\n        return new IllegalAccessException(msg);\n    }\n}\n",
        ),
        (
            "flags.py",
            "def flags(source, char):\n    if char not in 'imsx':\n        raise ValueError('unknown flag' if char.isalpha() else 'missing -, : or )')\n",
        ),
    ]);
    let at = |file: &str, line: u64| -> Vec<String> {
        let mut m: Vec<String> = records
            .iter()
            .filter(|r| r["filePath"] == file && r["lineNumber"] == line)
            .map(|r| r["errorMessage"].as_str().unwrap().to_owned())
            .collect();
        m.sort();
        m
    };
    assert_eq!(
        at("pick.js", 4),
        [
            "Could not download ${name} due to policy violations",
            "No matching version found for ${name}."
        ]
    );
    assert_eq!(at("flags.py", 3), ["missing -, : or )", "unknown flag"]);
    // A local given its message in both branches of an `if … else …`; one only added to
    // (`msg += …`) keeps the value it had before.
    assert_eq!(
        at("sum.go", 13),
        [
            "missing go.sum entry for module providing package %s{hint}",
            "missing go.sum entry needed to verify package %s is provided by exactly one module{hint}"
        ]
    );
    assert_eq!(at("Access.java", 9), ["{who} cannot access "]);
    // Inside a concatenation, each message is the whole text with that side.
    assert_eq!(
        at("pick.js", 7),
        [
            "For input string: ${s}",
            "For input string: ${s} under radix ${radix}"
        ]
    );
    assert!(
        !records
            .iter()
            .any(|r| r["errorMessage"] == "ancient lockfile"),
        "a log's title is no message of its own"
    );
    let out = s.ok(&[
        "explain",
        "npm error No matching version found for left-pad@9.9.9.",
    ]);
    assert!(out.contains("pick.js:4"), "{out}");
    let out = s.ok(&["explain", "TypeError: Invalid Version:"]);
    assert!(out.contains("pick.js:14"), "{out}");
}

/// A Go error made as a struct value is found by `errors.As` as a value, and a caller of
/// another package names its type with the package: `var target asn1.SyntaxError`, where
/// `&DNSError{…}` gives `*net.DNSError`. A `self.abort(…)` of a Python method is its class's
/// attribute, `IMAP4.abort`.
#[test]
fn error_types_as_a_caller_names_them() {
    let s = Scratch::new();
    s.write(
        "asn1/asn1.go",
        "package asn1\n\ntype SyntaxError struct{ Msg string }\n\nfunc (e SyntaxError) Error() string { return \"asn1: syntax error: \" + e.Msg }\n\nfunc parseTag(b []byte) (err error) {\n\tif len(b) < 2 {\n\t\terr = SyntaxError{\"truncated tag or length\"}\n\t}\n\treturn\n}\n",
    );
    s.write(
        "net/dns.go",
        "package net\n\ntype DNSError struct {\n\tErr  string\n\tName string\n}\n\nfunc (e *DNSError) Error() string { return \"lookup \" + e.Name + \": \" + e.Err }\n\nfunc lookup(name string) error {\n\tif name == \"\" {\n\t\treturn &DNSError{Err: \"no such host name given\", Name: name}\n\t}\n\treturn nil\n}\n",
    );
    s.write(
        "imap/imaplib.py",
        "class IMAP4:\n    class abort(Exception):\n        pass\n\n    def starttls(self):\n        if self._tls_established:\n            raise self.abort('TLS session already established')\n",
    );
    s.ok(&["index", ".", "--repo", "acme/net"]);
    let records = s.records();
    let guard = |m: &str| {
        record_of(&records, m)["typeGuard"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let asn1 = guard("truncated tag or length");
    assert!(asn1.contains("var target asn1.SyntaxError\n"), "{asn1}");
    let dns = guard("no such host name given");
    assert!(dns.contains("var target *net.DNSError\n"), "{dns}");
    let imap = record_of(&records, "TLS session already established");
    assert_eq!(imap["errorClass"], "IMAP4.abort");
}

/// A call of an `unsafe fn` in a record's code is made in an `unsafe` block, or it would not
/// compile.
#[test]
fn an_unsafe_fn_is_called_in_an_unsafe_block() {
    let s = Scratch::new();
    s.write(
        "src/lib.rs",
        "pub struct Buf {\n    len: usize,\n}\n\nimpl Buf {\n    pub unsafe fn set_len(&mut self, len: usize) {\n        assert!(len <= 64, \"a buffer holds at most 64 bytes\");\n        self.len = len;\n    }\n}\n",
    );
    s.ok(&["index", ".", "--repo", "acme/buf"]);
    let records = s.records();
    let catch = record_of(&records, "a buffer holds at most 64 bytes")["tryCatchPattern"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(catch.contains("unsafe { buf.set_len(len) }"), "{catch}");
}

/// A JavaScript error handed to a call (`cb(new Error(…))`, `reject(new Error(…))`) is made,
/// not thrown: the record says so, and does not offer a `try` around the call for a callback's.
#[test]
fn a_javascript_error_handed_to_a_callback_is_not_thrown() {
    let s = Scratch::new();
    s.write(
        "lib/config.js",
        "const fs = require('fs')\nfunction load (cb) {\n  fs.readFile('x', (err, data) => {\n    if (err) return cb(new Error('cannot read the config file'))\n    cb(null, data)\n  })\n}\nfunction lock () {\n  return new Promise((resolve, reject) => {\n    setTimeout(() => reject(new Error('gave up waiting for the lock')), 10)\n  })\n}\nmodule.exports = { load, lock }\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/config"]);
    let records = s.records();
    let read = record_of(&records, "cannot read the config file");
    let doc = read["documentation"].as_str().unwrap();
    assert!(
        doc.contains("is made (not thrown) and handed to `cb()`"),
        "{doc}"
    );
    let solutions = read["solutions"].to_string();
    assert!(solutions.contains("It is not thrown"), "{solutions}");
    assert!(!solutions.contains("Catch it"), "{solutions}");
    let lock = record_of(&records, "gave up waiting for the lock");
    let doc = lock["documentation"].as_str().unwrap();
    assert!(doc.contains("handed to `reject()`"), "{doc}");
}

/// Go: the comment above a raise is the one above its statement or its `if`, not the first
/// comment of the function; a parameter changed above the raise is no longer the caller's.
#[test]
fn a_go_raise_has_its_own_comment_and_a_changed_parameter_is_no_argument() {
    let s = Scratch::new();
    s.write(
        "pkg/set/set.go",
        "package set\n\nimport \"fmt\"\n\n// Add adds a file.\nfunc Add(base, size int) int {\n\t// Allocate outside the lock.\n\tx := 1\n\tif base < 0 {\n\t\tbase = 0\n\t}\n\tbase += size + 1\n\tif base < 0 {\n\t\tpanic(\"offset overflow\")\n\t}\n\tif size > 10 {\n\t\t// Too big for one file.\n\t\tpanic(fmt.Sprintf(\"size too big: %d\", size))\n\t}\n\treturn base + x\n}\n\n// Swapper returns a swap function.\nfunc Swapper(n int) func(i, j int) {\n\tif n == 0 {\n\t\treturn func(i, j int) { panic(\"empty swap\") }\n\t}\n\treturn func(i, j int) {}\n}\n",
    );
    s.ok(&["index", "pkg", "--repo", "acme/set"]);
    let records = s.records();
    let overflow = record_of(&records, "offset overflow");
    let doc = overflow["documentation"].as_str().unwrap();
    assert!(!doc.contains("Allocate outside the lock"), "{doc}");
    assert!(!doc.contains("`base` is a parameter"), "{doc}");
    let situations = overflow["commonSituations"].as_str().unwrap();
    assert!(!situations.contains("the caller passes"), "{situations}");
    // A function it returns panics when it is called, not `Swapper()`.
    let swap = record_of(&records, "empty swap");
    let doc = swap["documentation"].as_str().unwrap();
    assert!(!doc.contains("`Swapper()`"), "{doc}");
    assert!(doc.contains("anonymous function at line 26"), "{doc}");
    let big = record_of(&records, "size too big: %d");
    let doc = big["documentation"].as_str().unwrap();
    assert!(
        doc.contains("The comment above the raise: \"Too big for one file.\""),
        "{doc}"
    );
}

/// A JavaScript function its module does not export is not called in a record's code: code
/// outside the module cannot reach it by name.
#[test]
fn an_unexported_javascript_function_is_not_called_from_outside() {
    let s = Scratch::new();
    s.write(
        "lib/cookies.js",
        "'use strict'\n\nfunction checkDomain (domain) {\n  if (domain.startsWith('.')) {\n    throw new Error('Invalid cookie domain')\n  }\n}\n\nfunction setCookie (headers, cookie) {\n  checkDomain(cookie.domain)\n  if (!cookie.name) {\n    throw new Error('Invalid cookie name')\n  }\n}\n\nmodule.exports = { setCookie }\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/cookies"]);
    let records = s.records();
    // Its code calls the export that reaches it.
    let hidden = record_of(&records, "Invalid cookie domain");
    let code = hidden["tryCatchPattern"].as_str().unwrap();
    let calls = |name: &str| {
        code.lines()
            .any(|l| !l.trim_start().starts_with("//") && l.contains(name))
    };
    assert!(!calls("checkDomain("), "{code}");
    assert!(calls("setCookie(headers, cookie)"), "{code}");
    let shown = record_of(&records, "Invalid cookie name");
    let code = shown["tryCatchPattern"].as_str().unwrap();
    assert!(code.contains("setCookie("), "{code}");
}

/// A Python raise that hands its class a caught error (`raise LinkError(msg)`) has a message,
/// though not one written at the site: the record says what it prints, never "without a
/// message"; a raise of the class alone still says so.
#[test]
fn a_raise_that_hands_on_a_text_is_not_said_to_have_no_message() {
    let s = Scratch::new();
    s.write(
        "p/build.py",
        "def link(cmd):\n    try:\n        spawn(cmd)\n    except ExecError as msg:\n        raise LinkError(msg)\n\n\ndef stop():\n    raise HaltedError\n",
    );
    s.ok(&["index", "p", "--repo", "acme/build"]);
    let records = s.records();
    let doc = documentation_of(&records, "LinkError");
    assert!(!doc.contains("without a message"), "{doc}");
    assert!(
        doc.contains("handed `msg`: its message is made of that"),
        "{doc}"
    );
    let doc = documentation_of(&records, "HaltedError");
    assert!(doc.contains("without a message"), "{doc}");
}

/// A raise in a handler turns the error it caught into its own: the caught error's kind is
/// its background, not a broken invariant (a tool that failed, a file that could not be read).
#[test]
fn a_wrapped_error_is_of_the_kind_it_caught() {
    let s = Scratch::new();
    s.write(
        "p/build.py",
        "def link(cmd):\n    try:\n        spawn(cmd)\n    except DistutilsExecError as msg:\n        raise LinkError(msg)\n\n\ndef load(path):\n    try:\n        return read(path)\n    except OSError:\n        raise StoreError(\"cannot load the store\")\n",
    );
    s.ok(&["index", "p", "--repo", "acme/build"]);
    let records = s.records();
    let tag = |m: &str| {
        record_of(&records, m)["backgroundTag"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(tag("LinkError"), "dependency-failure");
    assert_eq!(tag("cannot load the store"), "io-failure");
}

/// A JavaScript helper held in a `const` that the module does not export is no caller's to
/// call: the advice names the module's export, as a caller writes it (`module.exports = (…)
/// => …` is `require('pkg')()`), not the helper.
#[test]
fn a_helper_the_module_keeps_is_not_what_the_caller_is_told_to_call() {
    let s = Scratch::new();
    s.write(
        "tree/node_modules/pick/lib/index.js",
        "'use strict'\n\nconst pick = (versions, wanted) => {\n  if (!versions.length) {\n    throw new Error(`No matching version found for ${wanted}`)\n  }\n  return versions[0]\n}\n\nmodule.exports = (packument, wanted) => pick(packument.versions, wanted)\n",
    );
    s.ok(&["index", "tree", "--repo", "acme/pick", "--vendored"]);
    let records = s.records();
    let r = record_of(&records, "No matching version found for ${wanted}");
    let said = format!("{} {}", r["solutions"], r["preventionTips"]);
    assert!(!said.contains("calling `pick()`"), "{said}");
    assert!(said.contains("`require('pick')()`"), "{said}");
}

#[test]
fn who_is_at_fault_follows_what_decides_the_raise() {
    let s = Scratch::new();
    // A parser's error is about the text it was given; an abstract hook is the subclass's to
    // write; an environment variable a build script does not understand is set up wrong; a
    // Go compiler's `base.Fatalf` is an internal problem, its `log.Fatalf` a bad flag.
    s.write(
        "tree/toml/_parser.py",
        "def parse_array(src, pos):\n    if src[pos] != ']':\n        raise TOMLDecodeError(f'Unclosed array at {pos}')\n    return pos\n",
    );
    s.write(
        "tree/loop.py",
        "class BaseLoop:\n    def _make_socket(self, sock):\n        raise NotImplementedError\n",
    );
    s.write(
        "tree/build.rs",
        "fn main() {\n    if let Ok(extras) = std::env::var(\"EXTRA_FLAGS\") {\n        for extra in extras.split_whitespace() {\n            if !extra.starts_with(\"-D\") {\n                panic!(\"Don't understand {} in EXTRA_FLAGS\", extra);\n            }\n        }\n    }\n}\n",
    );
    s.write(
        "tree/src/table.rs",
        "pub struct Table { ids: Vec<u32> }\n\nimpl Table {\n    fn set(&mut self, from: u32) {\n        assert!(from < 10, \"invalid 'from' state\");\n        self.ids.push(from);\n    }\n}\n",
    );
    s.write(
        "tree/cmd/compile/internal/walk/order.go",
        "package walk\n\nimport (\n\t\"log\"\n\n\t\"cmd/compile/internal/base\"\n)\n\nfunc mapAssign(op int) {\n\tif op != 1 {\n\t\tbase.Fatalf(\"order.mapAssign %v: invalid op\", op)\n\t}\n}\n\nfunc parseLang(lang string) {\n\tif lang == \"\" {\n\t\tlog.Fatalf(\"invalid value %q for -lang\", lang)\n\t}\n}\n",
    );
    s.ok(&["index", "tree", "--repo", "acme/tree"]);
    let records = s.records();
    let kind = |m: &str| {
        let r = record_of(&records, m);
        (
            r["backgroundTag"].as_str().unwrap().to_owned(),
            r["handlingStrategy"].as_str().unwrap().to_owned(),
        )
    };
    assert_eq!(kind("Unclosed array at {pos}").0, "malformed-data");
    assert_eq!(kind("NotImplementedError").1, "fix-code");
    assert_eq!(
        kind("Don't understand {} in EXTRA_FLAGS"),
        ("invalid-configuration".into(), "fix-configuration".into())
    );
    // An assert of a method only its crate calls, on an argument: the crate's own claim.
    assert_eq!(
        kind("invalid 'from' state"),
        ("internal-invariant".into(), "fix-code".into())
    );
    assert_eq!(
        kind("order.mapAssign %v: invalid op").0,
        "internal-invariant"
    );
    assert_eq!(kind("invalid value %q for -lang").0, "invalid-input");
}

#[test]
fn a_method_that_only_raises_is_explained_as_left_to_subclasses_or_refused() {
    let s = Scratch::new();
    s.write(
        "tree/watch.py",
        "import abc\n\nclass BaseWatcher:\n    def _do_wait(self, pid):\n        raise NotImplementedError\n\n    def add(self, pid):\n        self._do_wait(pid)\n\nclass SafeWatcher(BaseWatcher):\n    def _do_wait(self, pid):\n        return pid\n\nclass Policy(abc.ABC):\n    @abc.abstractmethod\n    def fold(self, name, value):\n        \"\"\"Fold a header.\"\"\"\n        raise NotImplementedError\n",
    );
    s.write(
        "tree/Head.java",
        "package p;\n\nclass Head {\n    void wrap(int flags) {\n        throw new UnsupportedOperationException();\n    }\n\n    void check(int flags) {\n        if (flags < 0) {\n            throw new UnsupportedOperationException();\n        }\n    }\n}\n",
    );
    s.ok(&["index", "tree", "--repo", "acme/tree"]);
    let records = s.records();
    let at = |file: &str, line: u64| {
        records
            .iter()
            .find(|r| r["filePath"] == file && r["lineNumber"] == line)
            .unwrap_or_else(|| panic!("no record at {file}:{line}"))
    };
    let hook = at("watch.py", 5);
    let doc = field(hook, "documentation");
    assert!(doc.contains("there for subclasses to define"), "{doc}");
    // `add()` calls `self._do_wait()`, which a subclass's own `_do_wait()` answers.
    assert!(!doc.contains("reached from"), "{doc}");
    assert!(!field(hook, "tryCatchPattern").contains("add("), "{hook}");
    assert!(
        field(hook, "exampleFix").contains("def _do_wait(self, pid):"),
        "{hook}"
    );
    assert_eq!(hook["handlingStrategy"], "fix-code");
    let abstract_one = at("watch.py", 18);
    assert!(
        field(abstract_one, "triggerScenarios").contains("super().fold()"),
        "{abstract_one}"
    );
    assert!(
        field(abstract_one, "exampleFix").contains("return super().fold(name, value)"),
        "{abstract_one}"
    );
    let refused = at("Head.java", 5);
    assert!(
        field(refused, "documentation").contains("`Head` does not support `wrap()`"),
        "{refused}"
    );
    // A guarded raise is no method that only raises.
    let guarded = at("Head.java", 10);
    assert!(
        !field(guarded, "documentation").contains("does nothing but"),
        "{guarded}"
    );
}

/// Writes `files` (paths under `tree/`) into a scratch folder, indexes `tree` as `acme/tree`
/// and gives the scratch folder with the exported records.
fn indexed(files: &[(&str, &str)]) -> (Scratch, Vec<Value>) {
    let s = Scratch::new();
    for (path, text) in files {
        s.write(&format!("tree/{path}"), text);
    }
    s.ok(&["index", "tree", "--repo", "acme/tree"]);
    let records = s.records();
    (s, records)
}

/// The record at `file:line`.
fn record_at<'a>(records: &'a [Value], file: &str, line: u64) -> &'a Value {
    records
        .iter()
        .find(|r| r["filePath"] == file && r["lineNumber"] == line)
        .unwrap_or_else(|| panic!("no record at {file}:{line}"))
}

/// A function declared inside another function's body is that function's local: no code
/// outside calls it, so the code fields call the function a user does call (or none). The
/// anonymous wrapper of a bundled module makes no function local.
#[test]
fn an_inner_function_is_not_called_by_the_code_fields() {
    let (_s, records) = indexed(&[
        ("package.json", "{\"name\": \"patchy\", \"main\": \"patch.js\"}\n"),
        ("patch.js", "(function (global, factory) {\n  factory(exports);\n})(this, function (exports) {\n  function parsePatch(text) {\n    function parseIndex(line) {\n      if (!line.startsWith('@@')) {\n        throw new Error('Unknown line ' + line);\n      }\n    }\n    return text.split('\\n').map(parseIndex);\n  }\n  function applyPatch(text) {\n    if (!text) {\n      throw new Error('Empty patch');\n    }\n  }\n  exports.parsePatch = parsePatch;\n  exports.applyPatch = applyPatch;\n});\n"),
        ("proxy.js", "function parseProxyResponse(socket) {\n  return new Promise((resolve, reject) => {\n    function onend() {\n      throw new Error('Proxy connection ended before receiving CONNECT response');\n    }\n    socket.on('end', onend);\n  });\n}\nmodule.exports = { parseProxyResponse };\n"),
        ("helpers.py", "def retrying(fn):\n    def wrapper(*args, count=3):\n        if count < 0:\n            raise ValueError('count must be positive')\n        return fn(*args)\n    return wrapper\n"),
    ]);
    let at = |file: &str, line: u64| record_at(&records, file, line);
    let inner = at("patch.js", 7);
    for key in ["exampleFix", "tryCatchPattern"] {
        let code = field(inner, key);
        assert!(!code.contains("parseIndex("), "{key}: {code}");
    }
    // The bundle's own functions are still called by their users.
    let outer = at("patch.js", 14);
    assert!(
        field(outer, "tryCatchPattern").contains("applyPatch(text)"),
        "{outer}"
    );
    let ended = at("proxy.js", 4);
    for key in ["exampleFix", "tryCatchPattern"] {
        let code = field(ended, key);
        assert!(!code.contains("onend("), "{key}: {code}");
    }
    let wrapper = at("helpers.py", 4);
    for key in ["exampleFix", "tryCatchPattern"] {
        let code = field(wrapper, key);
        assert!(!code.contains("wrapper("), "{key}: {code}");
    }
}

/// javac's diagnostic factories return a `JCDiagnostic.Error` (imported as `Error`), which
/// nothing throws: no record. A thrown `Error` is one.
#[test]
fn a_returned_class_imported_as_error_is_no_exception() {
    let (_s, records) = indexed(&[
        ("Props.java", "package p;\n\nimport com.acme.diag.Diagnostic.Error;\n\npublic class Props {\n    public static Error NoSuperclass(Object arg0) {\n        return new Error(\"compiler\", \"no.superclass\", arg0);\n    }\n\n    public static void fail() {\n        throw new Error(\"compiler\", \"fatal\");\n    }\n}\n"),
        ("Plain.java", "package p;\n\npublic class Plain {\n    public static Error broken(String what) {\n        return new Error(\"broken: \" + what);\n    }\n}\n"),
    ]);
    let lines: Vec<(String, u64)> = records
        .iter()
        .map(|r| {
            (
                r["filePath"].as_str().unwrap_or_default().to_owned(),
                r["lineNumber"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    assert!(!lines.contains(&("Props.java".into(), 7)), "{lines:?}");
    assert!(lines.contains(&("Props.java".into(), 11)), "{lines:?}");
    assert!(lines.contains(&("Plain.java".into(), 5)), "{lines:?}");
}

/// The writes of state that a guard reads are said by what each does to the guard, never as
/// a list that reads as every change of the state.
#[test]
fn a_write_of_state_is_said_by_what_it_does_to_the_guard() {
    let (_s, records) = indexed(&[
        ("builder.py", "class Builder:\n    def __init__(self):\n        self._data = []\n        self._last = None\n\n    def data(self, d):\n        self._data.append(d)\n\n    def start(self, tag):\n        self._last = tag\n\n    def flush(self):\n        if self._data and self._last is None:\n            raise ValueError('data before any element')\n        self._data = []\n"),
    ]);
    let r = records
        .iter()
        .find(|r| r["lineNumber"] == 14)
        .expect("the raise of flush()");
    let doc = field(r, "documentation");
    assert!(
        doc.contains("`self._data` holds after `self._data.append(d)` (in `data()`, line 7)"),
        "{doc}"
    );
    assert!(
        doc.contains("stops holding after `self._data = []`"),
        "{doc}"
    );
    assert!(
        doc.contains(
            "`self._last is None` holds after `self._last = None` (in `__init__()`, line 4)"
        ),
        "{doc}"
    );
    assert!(!doc.contains("This file changes"), "{doc}");
}

/// A call through `self` in a class that defines a method of the same name calls its own:
/// it is no way in to another class's.
#[test]
fn a_self_call_reaches_the_method_of_its_own_class() {
    let (_s, records) = indexed(&[
        ("builder.py", "class TreeBuilder:\n    def _flush(self):\n        if self._data:\n            raise ValueError('internal error (tail)')\n\n    def start(self, tag):\n        self._flush()\n\n\nclass Writer:\n    def _flush(self):\n        return None\n\n    def start_ns(self, prefix):\n        self._flush()\n\n\nclass Loose(TreeBuilder):\n    def end(self, tag):\n        self._flush()\n"),
    ]);
    let r = records
        .iter()
        .find(|r| r["lineNumber"] == 4)
        .expect("the raise of _flush()");
    let doc = field(r, "documentation");
    assert!(doc.contains("start()"), "{doc}");
    assert!(!doc.contains("start_ns()"), "{doc}");
    // A subclass that defines no `_flush()` of its own reaches the base class's.
    assert!(doc.contains("end()"), "{doc}");
}

/// The way in is found through up to six calls: `re.match()` reaches the regex parser's
/// `_class_escape()` through five.
#[test]
fn a_way_in_five_calls_up_is_found() {
    let (_s, records) = indexed(&[
        ("rx.py", "def match(pattern, string):\n    return _compile(pattern).run(string)\n\ndef _compile(pattern):\n    return _code(pattern)\n\ndef _code(pattern):\n    return _parse(pattern)\n\ndef _parse(pattern):\n    return _parse_sub(pattern)\n\ndef _parse_sub(pattern):\n    return _escape(pattern)\n\ndef _escape(pattern):\n    if pattern.endswith('\\\\'):\n        raise ValueError('bad escape (end of pattern)')\n    return pattern\n"),
    ]);
    let r = records
        .iter()
        .find(|r| r["lineNumber"] == 18)
        .expect("the raise of _escape()");
    let doc = field(r, "documentation");
    assert!(doc.contains("reached from `match()`"), "{doc}");
    assert!(
        field(r, "tryCatchPattern").contains("rx.match(pattern, string)"),
        "{r}"
    );
}

/// Code outside any function runs once: a Go sentinel is declared as its package starts and
/// seen where a call returns it; a module's top level raises as it is imported; a Java
/// `static` block as its class is first used. A sentinel of an internal package is told apart
/// by its text, which code outside can see.
#[test]
fn code_outside_functions_is_said_to_run_when_it_does() {
    let (_s, records) = indexed(&[
        ("go.mod", "module example.com/tree\n\ngo 1.19\n"),
        (
            "tarx/common.go",
            "package tarx\n\nimport \"errors\"\n\nvar ErrHeader = errors.New(\"tarx: invalid tar header\")\n\nfunc Next(b []byte) error {\n\tif len(b) < 512 {\n\t\treturn ErrHeader\n\t}\n\treturn nil\n}\n",
        ),
        (
            "internal/oserr/errors.go",
            "package oserr\n\nimport \"errors\"\n\nvar ErrExist = errors.New(\"file already exists\")\n",
        ),
        (
            "winonly.py",
            "import warnings\n\nwarnings.warn('winonly is deprecated', DeprecationWarning, 2)\n",
        ),
        (
            "Bits.java",
            "package p;\n\npublic class Bits {\n    static {\n        try {\n            Class.forName(\"p.Unsafe\");\n        } catch (ClassNotFoundException e) {\n            throw new InternalError(\"Can't lookup Bits.getXXX\");\n        }\n    }\n}\n",
        ),
    ]);
    let at = |file: &str, line: u64| record_at(&records, file, line);
    let situations = |r: &serde_json::Value| r["commonSituations"].to_string();
    let header = at("tarx/common.go", 5);
    assert!(
        situations(header)
            .contains("Seen where a call returns `ErrHeader` (it is returned by `Next()`)"),
        "{header}"
    );
    let exist = at("internal/oserr/errors.go", 5);
    assert!(
        field(exist, "documentation").contains("its package is internal"),
        "{exist}"
    );
    assert!(!field(exist, "typeGuard").contains("errors.Is"), "{exist}");
    assert!(
        field(exist, "typeGuard").contains("file already exists"),
        "{exist}"
    );
    let py = at("winonly.py", 3);
    assert!(situations(py).contains("winonly.py is imported"), "{py}");
    let java = at("Bits.java", 8);
    assert!(
        situations(java).contains("a `static` block runs once"),
        "{java}"
    );
}

/// A Rust `match` over a tuple keeps the tuple: `matches!((a, b), …)`, never
/// `matches!(a, b, …)`.
#[test]
fn a_match_over_a_tuple_is_said_with_the_tuple() {
    let (s, records) = indexed(&[
        ("Cargo.toml", "[package]\nname = \"probe\"\nversion = \"0.1.0\"\n"),
        ("src/lib.rs", "use std::env;\n\npub fn targets() -> (String, String) {\n    match (env::var(\"TARGET\"), env::var(\"HOST\")) {\n        (Ok(t), Ok(h)) => (t, h),\n        (Err(env::VarError::NotUnicode(s)), _) | (_, Err(env::VarError::NotUnicode(s))) => {\n            panic!(\"HOST or TARGET environment variable is not valid unicode: {:?}\", s)\n        }\n        _ => panic!(\"TARGET not set\"),\n    }\n}\n"),
    ]);
    let f = facts_of(
        &s,
        &records,
        "HOST or TARGET environment variable is not valid unicode: {:?}",
    );
    let exprs: Vec<String> = conditions(&f).into_iter().map(|(e, _)| e).collect();
    assert!(
        exprs
            .iter()
            .any(|e| e.starts_with("matches!((env::var(\"TARGET\"), env::var(\"HOST\")), ")),
        "{exprs:?}"
    );
}

/// Node's `emitWarning(msg, type, code)` names the warning and its code: the record has them,
/// and says the warning is emitted on stderr, not logged.
#[test]
fn a_node_warning_has_its_type_and_code() {
    let (_s, records) = indexed(&[
        ("cache.js", "const emitWarning = (msg, type, code, fn) => {\n  process.emitWarning(msg, type, code, fn);\n};\nclass Cache {\n  constructor(options) {\n    if (options.ttl && !options.max) {\n      const code = 'CACHE_UNBOUNDED';\n      const msg = 'TTL caching without max can result in unbounded memory consumption.';\n      emitWarning(msg, 'UnboundedCacheWarning', code, Cache);\n    }\n  }\n}\nmodule.exports = { Cache };\n"),
    ]);
    let r = records
        .iter()
        .find(|r| r["lineNumber"] == 9)
        .unwrap_or_else(|| panic!("no record at line 9: {records:?}"));
    assert_eq!(r["errorClass"], "UnboundedCacheWarning", "{r}");
    assert_eq!(r["errorCode"], "CACHE_UNBOUNDED", "{r}");
    let doc = field(r, "documentation");
    assert!(doc.contains("is emitted with `emitWarning`"), "{doc}");
    assert!(!doc.contains("logged"), "{doc}");
}

/// The `Display` of an error type with lifetimes (`impl Display for MaskedError<'_>`) is its
/// own text: shown when the error is displayed, not "returned in `fmt()`".
#[test]
fn the_display_of_a_type_with_lifetimes_is_its_own_text() {
    let (_s, records) = indexed(&[
        ("Cargo.toml", "[package]\nname = \"masked\"\nversion = \"0.1.0\"\n"),
        ("src/lib.rs", "use std::fmt;\n\n#[derive(Debug)]\npub struct MaskedError<'a> {\n    pub placeholder: &'a str,\n    pub multiple_of: f64,\n}\n\nimpl fmt::Display for MaskedError<'_> {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        write!(f, \"{} is not a multiple of {}\", self.placeholder, self.multiple_of)\n    }\n}\n\nimpl std::error::Error for MaskedError<'_> {}\n"),
    ]);
    let r = record_of(&records, "{} is not a multiple of {}");
    let doc = field(r, "documentation");
    assert!(doc.contains("when the error is displayed"), "{doc}");
    assert!(!doc.contains("is returned in"), "{doc}");
}

/// `Error::new(ErrorKind::…, msg)` is std's `io::Error` only where the path, the kind or the
/// imports say so: cc's own `Error::new(ErrorKind::IOError, …)` is cc's `Error`.
#[test]
fn an_error_new_is_io_error_only_where_the_code_says_so() {
    let (_s, records) = indexed(&[
        ("Cargo.toml", "[package]\nname = \"kinds\"\nversion = \"0.1.0\"\n"),
        ("src/lib.rs", "mod own;\nuse std::io;\n\npub fn open(p: &str) -> io::Result<()> {\n    if p.is_empty() {\n        return Err(io::Error::new(io::ErrorKind::InvalidInput, \"empty path given\"));\n    }\n    Ok(())\n}\n"),
        ("src/own.rs", "pub enum ErrorKind {\n    IOError,\n}\n\npub struct Error {\n    kind: ErrorKind,\n    message: String,\n}\n\nimpl Error {\n    fn new(kind: ErrorKind, message: &str) -> Error {\n        Error { kind, message: message.to_owned() }\n    }\n}\n\npub fn sdk_root(found: bool) -> Result<(), Error> {\n    if !found {\n        return Err(Error::new(ErrorKind::IOError, \"Unable to determine Apple SDK path.\"));\n    }\n    Ok(())\n}\n"),
    ]);
    assert_eq!(
        record_of(&records, "empty path given")["errorClass"],
        "io::Error"
    );
    let own = record_of(&records, "Unable to determine Apple SDK path.");
    assert_eq!(own["errorClass"], "Error", "{own}");
    assert!(!field(own, "documentation").contains("io::Error"), "{own}");
}

/// A JavaScript `#private` field is the object's own state, not configuration a user sets:
/// undici's `this.#options.serverMaxWindowBits` comes from the server's handshake.
#[test]
fn a_private_field_named_options_is_no_configuration() {
    let (_s, records) = indexed(&[
        ("deflate.js", "class PerMessageDeflate {\n  #options = {}\n\n  constructor(extensions) {\n    this.#options.serverMaxWindowBits = extensions.get('server_max_window_bits')\n  }\n\n  decompress(chunk) {\n    if (this.#options.serverMaxWindowBits) {\n      throw new Error('Invalid server_max_window_bits')\n    }\n    return chunk\n  }\n}\nmodule.exports = { PerMessageDeflate }\n"),
    ]);
    let r = record_of(&records, "Invalid server_max_window_bits");
    let text = r.to_string();
    assert!(!text.contains("configuration"), "{text}");
}

/// A handler in a caller guards the calls above it: a call in its own body (email's header
/// parser calls `get_obs_route()` in the `except` of another call) is not handled by it.
#[test]
fn a_call_in_a_handler_s_body_is_not_handled_by_it() {
    let (_s, records) = indexed(&[
        ("hdr.py", "class HeaderParseError(Exception):\n    pass\n\n\ndef get_obs_route(value):\n    if not value:\n        raise HeaderParseError('expected obs-route but found end of string')\n    return value\n\n\ndef get_addr_spec(value):\n    return value\n\n\ndef get_angle_addr(value):\n    try:\n        token = get_addr_spec(value)\n    except HeaderParseError:\n        token = get_obs_route(value)\n    return token\n\n\ndef parse_route(value):\n    try:\n        return get_obs_route(value)\n    except HeaderParseError:\n        return None\n"),
    ]);
    let r = record_of(&records, "expected obs-route but found end of string");
    let solutions = r["solutions"].to_string();
    assert!(!solutions.contains("hdr.py:18"), "{solutions}");
    assert!(solutions.contains("hdr.py:26"), "{solutions}");
}

/// A public function raises to its own callers whatever the repository's calls of it catch:
/// `MutableMapping.popitem()` on an empty mapping reaches the user who calls it.
#[test]
fn a_public_function_caught_by_every_caller_still_raises_to_its_users() {
    let (_s, records) = indexed(&[
        ("abc_map.py", "class MutableMapping:\n    def popitem(self):\n        try:\n            key = next(iter(self))\n        except StopIteration:\n            raise KeyError from None\n        return key\n\n    def clear(self):\n        try:\n            while True:\n                self.popitem()\n        except KeyError:\n            pass\n"),
    ]);
    let r = records
        .iter()
        .find(|r| r["lineNumber"] == 6)
        .unwrap_or_else(|| panic!("no record at line 6: {records:?}"));
    let solutions = r["solutions"].to_string();
    assert!(!solutions.contains("What reaches a user"), "{solutions}");
    assert!(
        solutions.contains("a call of your own is not"),
        "{solutions}"
    );
}

/// A `#[cfg(…)]` on a match arm is a guard of the arm's raise: ureq's "WebPki is disabled"
/// panics only in a build without the `rustls-webpki-roots` feature.
#[test]
fn a_cfg_on_a_match_arm_guards_its_raise() {
    let (_s, records) = indexed(&[
        ("Cargo.toml", "[package]\nname = \"roots\"\nversion = \"0.1.0\"\n"),
        ("src/lib.rs", "pub enum RootCerts {\n    WebPki,\n    Own,\n}\n\npub fn store(roots: RootCerts) -> u32 {\n    match roots {\n        RootCerts::Own => 1,\n        #[cfg(feature = \"rustls-webpki-roots\")]\n        RootCerts::WebPki => 2,\n        #[cfg(not(feature = \"rustls-webpki-roots\"))]\n        RootCerts::WebPki => {\n            panic!(\"WebPki is disabled. You need to explicitly configure root certs on Agent\");\n        }\n    }\n}\n"),
    ]);
    let r = record_of(
        &records,
        "WebPki is disabled. You need to explicitly configure root certs on Agent",
    );
    let doc = field(r, "documentation");
    assert!(doc.contains("rustls-webpki-roots"), "{doc}");
}

/// An error that is not thrown is not said to be: one kept in a local and handed to a
/// callback, or emitted as an `'error'` event, reaches the callback's error argument or a
/// listener, and its code says so; one made in a callback runs when that callback is called,
/// not when the function that hands it on does. A Go panic that its package recovers into
/// the error it returns reaches callers as that error, through the functions that recover it.
/// A function declared inside `module.exports = function () {…}` is that function's own.
#[test]
fn an_error_handed_on_or_recovered_is_said_so() {
    let s = Scratch::new();
    s.write(
        "lib/write.js",
        "class WriteStream extends Flush {\n  flush (cb) {\n    this.inputStream.end(() => {\n      if (!this.handleContentP) {\n        const e = new Error('Cache input stream was empty')\n        e.code = 'ENODATA'\n        return Promise.reject(e).catch(cb)\n      }\n    })\n  }\n\n  write (chunk) {\n    if (this.found > this.expect) {\n      const er = new Error('Bad data size: too much')\n      this.emit('error', er)\n    }\n  }\n}\nmodule.exports = WriteStream\n",
    );
    s.write(
        "lib/scan.js",
        "module.exports = function (source) {\n  function operator () {\n    if (source[0] === ' ') {\n      throw new Error('Space before `+`')\n    }\n  }\n  return operator()\n}\n",
    );
    s.write(
        "lib/fmt/scan.go",
        "package fmt\n\nimport \"errors\"\n\ntype scanError struct{ err error }\n\ntype ss struct{}\n\nfunc (s *ss) errorString(err string) {\n\tpanic(scanError{errors.New(err)})\n}\n\nfunc errorHandler(errp *error) {\n\tif e := recover(); e != nil {\n\t\tif se, ok := e.(scanError); ok {\n\t\t\t*errp = se.err\n\t\t}\n\t}\n}\n\nfunc (s *ss) advance(format string) int {\n\tif format == \"\\n\" {\n\t\ts.errorString(\"newline in format does not match input\")\n\t}\n\treturn 0\n}\n\nfunc (s *ss) doScanf(format string) (numProcessed int, err error) {\n\tdefer errorHandler(&err)\n\ts.advance(format)\n\treturn\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();

    // One record for the error in the local, at its declaration, handed to `cb`.
    let empty: Vec<&Value> = records
        .iter()
        .filter(|r| r["errorMessage"] == "Cache input stream was empty")
        .collect();
    assert_eq!(empty.len(), 1, "{empty:?}");
    let r = empty[0];
    let doc = field(r, "documentation");
    assert!(doc.contains("handed to `cb()`"), "{doc}");
    assert!(
        doc.contains("in the callback that `flush()`, a method of `WriteStream`, hands to `this.inputStream.end()`"),
        "{doc}"
    );
    assert!(!doc.contains("is thrown"), "{doc}");
    let when = field(r, "triggerScenarios");
    assert!(!when.starts_with("A call to `flush()`"), "{when}");
    let code = field(r, "tryCatchPattern");
    assert!(!code.contains("try {"), "{code}");
    assert!(code.contains("if (e && isThisError(e))"), "{code}");

    let r = record(&records, "Bad data size: too much");
    let doc = field(r, "documentation");
    assert!(doc.contains("emitted as an `'error'` event"), "{doc}");
    let code = field(r, "tryCatchPattern");
    assert!(code.contains("writeStream.on('error', (e) => {"), "{code}");

    // `operator()` is an inner function: the advice is about the way in, not about it.
    let r = record(&records, "Space before `+`");
    let advice = r["solutions"].to_string();
    assert!(!advice.contains("where `operator()` is called"), "{advice}");

    let r = record(&records, "newline in format does not match input");
    assert_eq!(field(r, "errorType"), "panic");
    let all = r.to_string();
    assert!(all.contains("reached through `doScanf()`"), "{all}");
    assert!(!all.contains("is returned"), "{all}");
    let guard = field(r, "typeGuard");
    assert!(
        guard.contains("func isThisError(err error) bool"),
        "{guard}"
    );

    // Kept in a local, then stored in a field: not returned.
    s.write(
        "lib/load/pkg.go",
        "package load\n\nimport \"fmt\"\n\ntype Package struct{ Error error }\n\nfunc Outside(pkgs []*Package, root string) ([]*Package, error) {\n\tfor _, pkg := range pkgs {\n\t\tvar pkgErr error\n\t\tif root == \"\" {\n\t\t\tpkgErr = fmt.Errorf(\"package %s not provided by module %s\", pkg, root)\n\t\t}\n\t\tif pkgErr != nil && pkg.Error == nil {\n\t\t\tpkg.Error = pkgErr\n\t\t}\n\t}\n\treturn pkgs, nil\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let r = record(&records, "package %s not provided by module %s");
    let doc = field(r, "documentation");
    assert!(doc.contains("is made and stored in `pkg.Error`"), "{doc}");
    assert!(!doc.contains("is returned"), "{doc}");
    let code = field(r, "tryCatchPattern");
    assert!(
        code.contains("if err := pkg.Error; err != nil && isThisError(err)"),
        "{code}"
    );

    // A Python error made and handed to a future is raised where the future's result is
    // read (concurrent.futures' `bpe = BrokenProcessPool("…")`, then `set_exception(bpe)`);
    // one handed straight to a call is a record too; one kept in a local and raised is the
    // raise's, and an error handed to the raise of another is the raise's.
    s.write(
        "lib/pool.py",
        "class BrokenProcessPool(RuntimeError):\n    pass\n\n\nclass Manager:\n    def terminate_broken(self, cause):\n        bpe = BrokenProcessPool(\"A process in the process pool was \"\n                                \"terminated abruptly\")\n        if cause is not None:\n            bpe.__cause__ = cause\n        for work_item in self.pending:\n            work_item.future.set_exception(bpe)\n\n    def lost(self, fut):\n        fut.set_exception(ConnectionResetError('Connection lost'))\n\n    def checked(self, x):\n        exc = ValueError('x must be positive')\n        if x < 0:\n            raise exc\n\n    def wrapped(self):\n        raise OSError(InnerError('the inner message'))\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    for m in [
        "A process in the process pool was terminated abruptly",
        "Connection lost",
    ] {
        let r = record(&records, m);
        let doc = field(r, "documentation");
        assert!(
            doc.contains("is made (not raised) and handed to `"),
            "{doc}"
        );
        assert!(doc.contains("set_exception()`"), "{doc}");
        let advice = r["solutions"].to_string();
        assert!(advice.contains("future's `result()`"), "{advice}");
        assert!(!advice.contains("Catch it where"), "{advice}");
        let code = field(r, "tryCatchPattern");
        assert!(code.contains("result = future.result()"), "{code}");
        assert!(
            code.trim_end().ends_with("raise") || code.contains("print("),
            "{code}"
        );
    }
    assert_eq!(
        records
            .iter()
            .filter(|r| r["errorMessage"] == "x must be positive")
            .count(),
        1
    );
    assert!(!records
        .iter()
        .any(|r| r["errorMessage"] == "the inner message"));
}

/// A panic in a package no program imports, or an `assert` of a function users do not call,
/// is the code's claim about its own values: a bug to report, not bad input to send back. An
/// `assert` of a public function checks its caller's arguments.
#[test]
fn an_assertion_the_code_makes_of_itself_is_no_bad_input() {
    let s = Scratch::new();
    s.write(
        "lib/internal/abi/abi.go",
        "package abi\n\nfunc IntRegArgAddr(reg int, argSize uintptr) uintptr {\n\tif argSize > 8 || argSize == 0 {\n\t\tpanic(\"invalid argSize\")\n\t}\n\treturn 0\n}\n",
    );
    s.write(
        "lib/pkg/cal.py",
        "def _days_before_month(year, month):\n    assert 1 <= month <= 12, 'month must be in 1..12'\n    return 0\n\n\ndef set_name(name):\n    assert isinstance(name, str), 'name must be a string'\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    for m in ["invalid argSize", "month must be in 1..12"] {
        let r = record(&records, m);
        assert_eq!(field(r, "handlingStrategy"), "fix-code", "{m}");
        assert_eq!(field(r, "backgroundTag"), "internal-invariant", "{m}");
        assert!(!field(r, "tryCatchPattern").contains("bad input"), "{m}");
    }
    let r = record(&records, "name must be a string");
    assert_eq!(field(r, "backgroundTag"), "invalid-input");
}

/// A name inside a string is no call: `new Error('write() after end()')` does not call the
/// `write` of another package that builds an error with a code (fs-minipass's error was given
/// minipass's `ERR_STREAM_DESTROYED`).
#[test]
fn a_builder_is_not_called_inside_a_string() {
    let s = Scratch::new();
    s.write(
        "p/node_modules/minipass/index.js",
        "class Minipass {\n  write (chunk) {\n    if (this.destroyed) {\n      this.emit('error', Object.assign(new Error('Cannot call write after a stream was destroyed'), { code: 'ERR_STREAM_DESTROYED' }))\n      return true\n    }\n    return false\n  }\n}\nmodule.exports = Minipass\n",
    );
    s.write(
        "p/node_modules/fs-minipass/index.js",
        "class WriteStream {\n  write (buf) {\n    if (this.ended) {\n      this.emit('error', new Error('write() after end()'))\n      return false\n    }\n    return true\n  }\n}\nmodule.exports = WriteStream\n",
    );
    s.ok(&["index", "p", "--all", "--repo", "acme/p"]);
    let records = s.records();
    assert_eq!(
        record(&records, "write() after end()")["errorCode"],
        Value::Null
    );
    assert_eq!(
        record(&records, "Cannot call write after a stream was destroyed")["errorCode"],
        "ERR_STREAM_DESTROYED"
    );
}

/// A throw in a `catch` block runs only when the `try` failed, and one in a handler nested in
/// another only when both did; with more conditions than are named, those named are needed but
/// not enough.
#[test]
fn a_throw_in_a_handler_needs_its_try_to_fail() {
    let s = Scratch::new();
    s.write(
        "lib/src/main/java/acme/Loader.java",
        "package acme;\n\npublic class Loader {\n    public Object load(Class<?> c, boolean api) {\n        if (api) {\n            try {\n                return c.getConstructor().newInstance();\n            } catch (ReflectiveOperationException exc) {\n                try {\n                    return Class.forName(c.getName() + \"Impl\");\n                } catch (ClassNotFoundException again) {\n                    throw new IllegalStateException(\"cannot make the loader's class\", exc);\n                }\n            }\n        }\n        return null;\n    }\n\n    public void check(int a, int b, int c, int d, int e) {\n        if (a > 0 && b > 0 && c > 0 && d > 0 && e > 0) {\n            throw new IllegalArgumentException(\"all of the counts are positive\");\n        }\n    }\n}\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let r = record(&records, "cannot make the loader's class");
    let common = field(r, "commonSituations");
    assert!(
        common.contains("the code of the `try` before `catch (ReflectiveOperationException exc)` (line 8) fails, and then the code of the `try` before `catch (ClassNotFoundException again)` (line 11) fails"),
        "{common}"
    );
    let when = field(r, "triggerScenarios");
    assert!(when.contains("(line 8) fails, and then"), "{when}");
    let r = record(&records, "all of the counts are positive");
    let common = field(r, "commonSituations");
    assert!(common.starts_with("It can happen only when"), "{common}");
    assert!(common.ends_with("among other conditions."), "{common}");
}

/// The guards around an `.expect()` lead to it; what fails is the value it unwraps, and a
/// serde format's function returns a `Result`. A loop's head is its code without the comment
/// under it; `assert False` is no condition.
#[test]
fn what_leads_to_a_raise_is_not_said_to_make_it() {
    let s = Scratch::new();
    s.write(
        "lib/src/lib.rs",
        "pub fn send(message: Option<String>) -> String {\n    if let Some(ref msg) = message {\n        return serde_json::to_string(msg).expect(\"valid message\");\n    }\n    String::new()\n}\n",
    );
    s.write(
        "lib/pkg/sorter.py",
        "def done(nodes, n2i):\n    for node in nodes:\n        # Check if we know about this node\n        stat = n2i.get(node)\n        if stat is None:\n            raise ValueError(f'node {node!r} was not added')\n        else:\n            assert False, f'node {node!r}: unknown status {stat}'\n",
    );
    s.ok(&["index", "lib", "--repo", "acme/lib"]);
    let records = s.records();
    let r = record(&records, "valid message");
    let doc = field(r, "documentation");
    assert!(
        doc.contains("It is reached only when `matches!(message, Some(ref msg))` holds."),
        "{doc}"
    );
    assert!(
        doc.contains("`serde_json::to_string(msg)` is an `Err`"),
        "{doc}"
    );
    assert!(!field(r, "commonSituations").starts_with("It happens when"));
    let r = record(&records, "node {node!r}: unknown status {stat}");
    let when = field(r, "triggerScenarios");
    assert!(
        when.contains("the loop `for node in nodes` (line 2)"),
        "{when}"
    );
    assert!(!when.contains("Check if we know"), "{when}");
    assert!(!r.to_string().contains("not False"), "{r}");
}
