//! One fixture per language, with the expected records written inside it: every line that
//! carries an `expect:` comment is the first line of exactly one record, and no other line is.

use std::collections::BTreeSet;

use crate::util::{assert_valid, fixtures, Scratch};

/// One expectation or one record, in the same form, so that sets of them compare.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Site {
    line: u64,
    error_type: String,
    class: Option<String>,
    code: Option<String>,
    status: Option<u64>,
    severity: Option<String>,
    message: String,
}

fn expectations(src: &str) -> Vec<Site> {
    let mut out = Vec::new();
    for (i, line) in src.lines().enumerate() {
        let Some((_, spec)) = line.split_once(" expect: ") else {
            continue;
        };
        if spec.starts_with("TYPE") {
            continue; // the format's own description
        }
        let (head, message) = spec
            .split_once("msg=")
            .expect("an expectation names its msg=");
        let mut words = head.split_whitespace();
        let mut site = Site {
            line: i as u64 + 1,
            error_type: words.next().expect("a type").to_owned(),
            class: None,
            code: None,
            status: None,
            severity: None,
            // A message of several lines is written with `\n`.
            message: message.replace("\\n", "\n"),
        };
        for w in words {
            let (k, v) = w.split_once('=').expect("key=value");
            match k {
                "class" => site.class = Some(v.to_owned()),
                "code" => site.code = Some(v.to_owned()),
                "status" => site.status = Some(v.parse().unwrap()),
                "severity" => site.severity = Some(v.to_owned()),
                _ => panic!("unknown key {k}"),
            }
        }
        out.push(site);
    }
    out
}

fn check(file: &str) {
    let s = Scratch::new();
    let src = std::fs::read_to_string(fixtures().join("lang").join(file)).unwrap();
    s.write(&format!("repo/{file}"), &src);
    s.ok(&["index", "repo"]);
    let lines = s.export();
    assert_valid(&lines);
    let expected = expectations(&src);
    assert!(!expected.is_empty());
    let found: Vec<Site> = lines
        .iter()
        .map(|l| &l["record"])
        .map(|r| {
            let line = r["lineNumber"].as_u64().unwrap();
            // Severity is compared only where the fixture names it.
            let want_severity = expected
                .iter()
                .find(|e| e.line == line)
                .and_then(|e| e.severity.clone());
            Site {
                line,
                error_type: r["errorType"].as_str().unwrap().to_owned(),
                class: r["errorClass"].as_str().map(str::to_owned),
                code: r["errorCode"].as_str().map(str::to_owned),
                status: r["httpStatus"].as_u64(),
                severity: want_severity.and(r["severity"].as_str().map(str::to_owned)),
                message: r["errorMessage"].as_str().unwrap().to_owned(),
            }
        })
        .collect();
    let want: BTreeSet<_> = expected.iter().cloned().collect();
    let got: BTreeSet<_> = found.iter().cloned().collect();
    let missing: Vec<_> = want.difference(&got).collect();
    let extra: Vec<_> = got.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{file}:\nexpected but not found: {missing:#?}\nfound but not expected: {extra:#?}"
    );
    // No site is reported twice.
    assert_eq!(found.len(), expected.len(), "{file}: duplicate records");
    // Every record's pattern is a valid regex that matches its message with the placeholders
    // rendered as written (a placeholder group accepts any text).
    for l in &lines {
        let r = &l["record"];
        let re = regex::Regex::new(r["messagePattern"].as_str().unwrap()).unwrap();
        assert!(re.is_match(r["errorMessage"].as_str().unwrap()), "{r}");
    }
}

#[test]
fn typescript() {
    check("errors.ts");
}

#[test]
fn javascript() {
    check("errors.js");
}

#[test]
fn python() {
    check("errors.py");
}

#[test]
fn go() {
    check("errors.go");
}

#[test]
fn rust() {
    check("errors.rs");
}

#[test]
fn java() {
    check("Errors.java");
}

/// Go's own runtime: `throw` and `fatal` end the program with `fatal error: …`.
#[test]
fn go_runtime() {
    check("runtime.go");
}
