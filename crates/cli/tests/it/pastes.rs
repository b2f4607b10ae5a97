//! Errors as users pasted them into issue threads (`tests/real/pastes.jsonl`, each with the
//! thread it was copied from and the line that raises it in the corpus installed here), given
//! to `errata explain` against the index of their corpus. Reports rank-1, top-3 and no-match,
//! and fails when they fall below the floors: the figures measured when the set was made, which
//! only go up (issue 20's targets are 95% rank-1, 98% top-3, no match 2% or less).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use serde_json::Value;

use crate::corpora::{self, Indexed};
use crate::util::errata_cmd;

/// The floors, in percent of the cases that are not reworded: rank-1, top-3, and at most this
/// many with no match.
const RANK1_FLOOR: f64 = 95.0;
const TOP3_FLOOR: f64 = 97.0;
const NO_MATCH_CEILING: f64 = 6.0;

struct Case {
    n: usize,
    corpus: String,
    kind: String,
    paste: String,
    sites: Vec<(String, u32, u32)>,
    reworded: bool,
}

fn cases() -> Vec<Case> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/real/pastes.jsonl");
    let text = std::fs::read_to_string(&file).expect("tests/real/pastes.jsonl");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let v: Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
            let site = |s: &Value| {
                let line = s["line"].as_u64().unwrap() as u32;
                let message = s["message_line"].as_u64().map_or(line, |m| m as u32);
                (
                    s["file"].as_str().unwrap().to_owned(),
                    line.min(message),
                    line.max(message),
                )
            };
            let mut sites = vec![site(&v)];
            if let Some(also) = v["also"].as_array() {
                sites.extend(also.iter().map(site));
            }
            Case {
                n: i + 1,
                corpus: v["corpus"].as_str().unwrap().to_owned(),
                kind: v["kind"].as_str().unwrap_or("").to_owned(),
                paste: v["paste"].as_str().unwrap().to_owned(),
                sites,
                reworded: v["reworded"].as_bool().unwrap_or(false),
            }
        })
        .collect()
}

fn corpus(name: &str) -> Option<&'static Indexed> {
    match name {
        "cpython" => corpora::cpython(),
        "npm" => corpora::npm_all(),
        "go" => corpora::go(),
        "jdk" => corpora::jdk(),
        "cargo" => corpora::cargo(),
        other => panic!("unknown corpus {other}"),
    }
}

/// The records `errata explain` answers with against the store `db`, best first.
fn explain(db: &Path, paste: &str) -> Vec<Value> {
    let mut child = errata_cmd()
        .args(["--json", "explain", "-", "-n", "3", "--db"])
        .arg(db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("errata runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(paste.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let Ok(answer) = serde_json::from_slice::<Value>(&out.stdout) else {
        return Vec::new();
    };
    answer["matches"].as_array().cloned().unwrap_or_default()
}

fn is_site(case: &Case, record: &Value) -> bool {
    let path = record["filePath"].as_str().unwrap_or("");
    let line = record["lineNumber"].as_u64().unwrap_or(0) as u32;
    case.sites.iter().any(|(file, lo, hi)| {
        (path == file || path.ends_with(&format!("/{file}"))) && (*lo..=*hi).contains(&line)
    })
}

#[derive(Default)]
struct Tally {
    cases: usize,
    rank1: usize,
    top3: usize,
    none: usize,
}

impl Tally {
    fn pct(&self, n: usize) -> f64 {
        100.0 * n as f64 / self.cases.max(1) as f64
    }
}

#[test]
fn real_pastes_find_the_line_that_raised_them() {
    let mut tallies: BTreeMap<(String, bool), Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    for case in cases() {
        let Some(c) = corpus(&case.corpus) else {
            continue;
        };
        let matches = explain(&c.scratch.db(), &case.paste);
        let rank = matches.iter().position(|m| is_site(&case, &m["record"]));
        let none = matches.iter().all(|m| m["approximate"] == true);
        let t = tallies
            .entry((case.corpus.clone(), case.reworded))
            .or_default();
        t.cases += 1;
        t.rank1 += usize::from(rank == Some(0));
        t.top3 += usize::from(rank.is_some());
        t.none += usize::from(none);
        if rank != Some(0) && !case.reworded {
            let got = matches.first().map_or("nothing".to_owned(), |m| {
                format!("{}:{}", m["record"]["filePath"], m["record"]["lineNumber"])
            });
            misses.push(format!(
                "  #{} {}/{} wants {}:{}, got {got}",
                case.n, case.corpus, case.kind, case.sites[0].0, case.sites[0].1
            ));
        }
    }
    if tallies.is_empty() {
        eprintln!("no corpus of tests/real/pastes.jsonl is installed here; skipped");
        return;
    }
    let mut all = Tally::default();
    eprintln!("corpus   reworded cases rank-1 top-3 no-match");
    for ((corpus, reworded), t) in &tallies {
        eprintln!(
            "{corpus:<8} {reworded:<8} {:>5} {:>5.0}% {:>4.0}% {:>6.0}%",
            t.cases,
            t.pct(t.rank1),
            t.pct(t.top3),
            t.pct(t.none)
        );
        if !reworded {
            all.cases += t.cases;
            all.rank1 += t.rank1;
            all.top3 += t.top3;
            all.none += t.none;
        }
    }
    eprintln!(
        "all      false    {:>5} {:>5.1}% {:>4.1}% {:>6.1}%\nmisses:\n{}",
        all.cases,
        all.pct(all.rank1),
        all.pct(all.top3),
        all.pct(all.none),
        misses.join("\n")
    );
    // The floors hold for the whole set; with a corpus missing, the others are reported only.
    if tallies.keys().filter(|k| !k.1).count() < 5 {
        return;
    }
    assert!(
        all.pct(all.rank1) >= RANK1_FLOOR,
        "rank-1 fell below {RANK1_FLOOR}%"
    );
    assert!(
        all.pct(all.top3) >= TOP3_FLOOR,
        "top-3 fell below {TOP3_FLOOR}%"
    );
    assert!(
        all.pct(all.none) <= NO_MATCH_CEILING,
        "no-match rose above {NO_MATCH_CEILING}%"
    );
}

/// The classes of paste the real set missed, each in a small project of its own.
#[test]
fn pastes_of_each_miss_class_find_their_site() {
    let s = crate::util::Scratch::new();
    s.write(
        "proj/mail.py",
        "class SMTPAuthenticationError(Exception):\n    pass\n\n\ndef login(code, resp):\n    if code != 235:\n        raise SMTPAuthenticationError(code, resp)\n",
    );
    s.write(
        "proj/Iter.java",
        "package acme;\n\nclass Iter {\n    void check(int a, int b) {\n        if (a != b)\n            throw new ConcurrentModificationException();\n    }\n}\n",
    );
    s.write(
        "proj/npa.js",
        "function invalidTagName (name, raw) {\n  const err = new Error(`Invalid tag name \"${name}\" of package \"${raw}\"`)\n  err.code = 'EINVALIDTAGNAME'\n  return err\n}\n\nfunction done (log) {\n  log.error('', 'Exit handler never called!')\n}\nmodule.exports = { invalidTagName, done }\n",
    );
    // A class of another file that words its own message, raised with what it needs.
    s.write(
        "proj/errors.py",
        "class HTTPError(Exception):\n    def __init__(self, url, code, msg):\n        self.code = code\n        self.msg = msg\n\n    def __str__(self):\n        return 'HTTP Error %s: %s' % (self.code, self.msg)\n",
    );
    s.write(
        "proj/handlers.py",
        "from errors import HTTPError\n\n\nclass DefaultHandler:\n    def http_error_default(self, req, code, msg):\n        raise HTTPError(req.full_url, code, msg)\n",
    );
    // An error a base class's builder makes with its code, thrown by a command of another file.
    s.write(
        "proj/base-cmd.js",
        "class BaseCommand {\n  usageError (prefix = '') {\n    return Object.assign(new Error(`\\n${prefix}${this.usage}`), {\n      code: 'EUSAGE',\n    })\n  }\n}\nmodule.exports = BaseCommand\n",
    );
    let stage = |extra: &str| {
        format!("const BaseCommand = require('./base-cmd.js')\nclass Stage extends BaseCommand {{\n  async exec (args) {{\n    if (!args[0]) {{\n      throw this.usageError('stage reject needs a stage id')\n    }}\n  }}\n}}\nmodule.exports = Stage{extra}\n")
    };
    s.write("proj/stage.js", stage(""));
    s.ok(&["index", "proj", "--repo", "acme/proj"]);
    let first = |paste: &str| -> Value {
        explain(&s.db(), paste)
            .into_iter()
            .next()
            .unwrap_or(Value::Null)
    };
    let at = |m: &Value| {
        format!(
            "{}:{}",
            m["record"]["filePath"].as_str().unwrap_or("?"),
            m["record"]["lineNumber"]
        )
    };
    // A dynamic message, found by the traceback's frame at the raise.
    let m = first("$ python send.py\nTraceback (most recent call last):\n  File \"send.py\", line 3, in <module>\n    login(535, b'no')\n  File \"/srv/app/proj/mail.py\", line 7, in login\n    raise SMTPAuthenticationError(code, resp)\nmail.SMTPAuthenticationError: (535, b'5.7.8 Username and Password not accepted')\n");
    assert_eq!(at(&m), "mail.py:7", "{m}");
    assert_eq!(m["by_frame"], true);
    // An exception without a message: the class and the frame.
    let m = first("Exception in thread \"main\" java.util.ConcurrentModificationException\n\tat acme.Iter.check(Iter.java:6)\n\tat acme.Main.main(Main.java:9)\n");
    assert_eq!(at(&m), "Iter.java:6", "{m}");
    // A prompt and a command before npm's lines; an error built in a local and returned, with
    // its code; a log line whose title is empty.
    let m = first("$ npm install listr@~0.4.1\nnpm ERR! code EINVALIDTAGNAME\nnpm ERR! Invalid tag name \"~0.4.1\" of package \"listr@~0.4.1\"\n");
    assert_eq!(at(&m), "npa.js:2", "{m}");
    assert_eq!(m["record"]["errorCode"], "EINVALIDTAGNAME");
    let m = first(
        "npm error Exit handler never called!\nnpm error This is an error with npm itself.\n",
    );
    assert_eq!(at(&m), "npa.js:8", "{m}");
    // The raise of a class that words its message elsewhere, by the innermost frame: at its
    // line, and in a trace of another release (line 4) by its function, IPython's form too.
    let trace = "Traceback (most recent call last):\n  File \"/usr/lib/python3.4/proj/handlers.py\", line 6, in http_error_default\n    raise HTTPError(req.full_url, code, msg)\nproj.errors.HTTPError: HTTP Error 403: Forbidden\n";
    let usage =
        "$ npm stage reject\nnpm ERR! code EUSAGE\nnpm ERR! stage reject needs a stage id\n";
    let m = first(usage);
    assert_eq!(at(&m), "stage.js:5", "{m}");
    assert_eq!(m["record"]["errorCode"], "EUSAGE", "{m}");
    // Indexed again with only the command changed, the builder's code still holds.
    s.write("proj/stage.js", stage("\n"));
    s.ok(&["index", "proj", "--repo", "acme/proj"]);
    assert_eq!(first(usage)["record"]["errorCode"], "EUSAGE");
    let m = first(trace);
    assert_eq!(at(&m), "handlers.py:6", "{m}");
    let m = first(&trace.replace("line 6", "line 4"));
    assert_eq!(at(&m), "handlers.py:6", "{m}");
    let m = first("File C:\\Python313\\Lib\\proj\\handlers.py:4, in DefaultHandler.http_error_default(self, req, code, msg)\n--> [4] raise HTTPError(req.full_url, code, msg)\n\nHTTPError: HTTP Error 403: Forbidden\n");
    assert_eq!(at(&m), "handlers.py:6", "{m}");
}

/// A message made of values alone (`${res.status} ${res.statusText} - …`) is found by the code
/// npm states above it, which a base class of its class gives every error it makes
/// (`this.code = `E${res.status}``); a code that is no record's changes nothing.
#[test]
fn a_stated_code_finds_a_message_of_values_alone() {
    let s = crate::util::Scratch::new();
    s.write(
        "proj/errors.js",
        "class HttpErrorBase extends Error {\n  constructor (method, res) {\n    super()\n    this.statusCode = res.status\n    this.code = `E${res.status}`\n    this.method = method\n  }\n}\n\nclass HttpErrorGeneral extends HttpErrorBase {\n  constructor (method, res) {\n    super(method, res)\n    this.message = `${res.status} ${res.statusText} - ${this.method.toUpperCase()} ${res.url}`\n  }\n}\n\nclass HttpErrorAuthOTP extends HttpErrorBase {\n  constructor (method, res) {\n    super(method, res)\n    this.message = 'OTP required for authentication'\n    this.code = 'EOTP'\n  }\n}\nmodule.exports = { HttpErrorGeneral, HttpErrorAuthOTP }\n",
    );
    s.ok(&["index", "proj", "--repo", "acme/proj"]);
    let records = s.records();
    let general = records
        .iter()
        .find(|r| r["errorClass"] == "HttpErrorGeneral")
        .expect("a record of HttpErrorGeneral");
    assert_eq!(general["errorCode"], "E${res.status}", "{general}");
    let otp = records
        .iter()
        .find(|r| r["errorClass"] == "HttpErrorAuthOTP")
        .expect("a record of HttpErrorAuthOTP");
    assert_eq!(otp["errorCode"], "EOTP", "{otp}");
    // npm/cli#1626, as pasted.
    let paste = "$ npm i @tuxc/long\nnpm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/@tuxc%2flong - Not found\nnpm ERR! 404\nnpm ERR! 404  '@tuxc/long@latest' is not in the npm registry.\n";
    let m = explain(&s.db(), paste);
    assert_eq!(m[0]["record"]["lineNumber"], 13, "{m:?}");
    assert_eq!(m[0]["by_code"], true);
    // npm 10 words its prefix otherwise.
    let m = explain(
        &s.db(),
        "npm error code E403\nnpm error 403 Forbidden - PUT https://registry.npmjs.org/acme - Forbidden\n",
    );
    assert_eq!(m[0]["record"]["lineNumber"], 13, "{m:?}");
    // Without the code, the line is no record's: its few literal characters are in any line.
    assert!(explain(
        &s.db(),
        "404 Not Found - GET https://registry.npmjs.org/x - Not found\n"
    )
    .iter()
    .all(|m| m["by_code"] != true));
    // A code that no record has, or that a value-made code does not fit, names nothing by it.
    for code in ["EOTHER", "X404"] {
        let m = explain(
            &s.db(),
            &format!("npm ERR! code {code}\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/x - Not found\n"),
        );
        assert!(m.iter().all(|m| m["by_code"] != true), "{code}: {m:?}");
    }
}

/// A message that matches the text a type words for itself (`__str__`) was raised where the
/// type is raised with what it words: with no trace, those raises come right after the text's
/// record (mattharrison/effective_xgboost_book#19).
#[test]
fn a_type_s_own_text_names_the_raises_that_pass_it_what_it_words() {
    let s = crate::util::Scratch::new();
    s.write(
        "proj/error.py",
        "class URLError(OSError):\n    def __init__(self, reason):\n        self.reason = reason\n\n    def __str__(self):\n        return '<urlopen error %s>' % self.reason\n",
    );
    s.write(
        "proj/request.py",
        "from error import URLError\n\n\ndef do_open(h, req):\n    try:\n        h.request(req)\n    except OSError as err:\n        raise URLError(err)\n",
    );
    s.ok(&["index", "proj", "--repo", "acme/proj"]);
    let m = explain(
        &s.db(),
        "URLError: <urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1007)>",
    );
    let at: Vec<String> = m
        .iter()
        .map(|m| {
            format!(
                "{}:{}",
                m["record"]["filePath"].as_str().unwrap_or("?"),
                m["record"]["lineNumber"]
            )
        })
        .collect();
    assert_eq!(at, ["error.py:6", "request.py:8"], "{m:?}");
}
