//! Reading one line of a log: what surrounds the message (timestamp, level, logger, thread,
//! request id, a JSON or logfmt envelope, a class prefix) and the message itself.
//!
//! The surroundings are peeled off one token at a time, and every intermediate text is kept: the
//! matcher tries the most stripped text first and falls back to less stripped ones, so a message
//! that happens to begin like a logger name (`config.yaml: not found`) is still matched whole.

use std::sync::{LazyLock, OnceLock};

use regex::Regex;
use regex_automata::{meta, Anchored, Input};

/// A line of input, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line<'a> {
    raw: &'a str,
    /// Candidate message texts, most stripped first; the last is the whole line. Each is a
    /// part of the line, or of the envelope's message when it has one.
    spans: Vec<Span>,
    /// The class named in front of the message (`ValueError`, `java.lang.IllegalStateException`).
    pub class: Option<String>,
    /// An error code named in front of the message (`ERR_INVALID_ARG_TYPE`, `ENOENT`).
    pub code: Option<String>,
    /// The message of a JSON or logfmt envelope, with its escapes decoded.
    pub envelope: Option<String>,
}

/// Where one of a line's texts is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    in_envelope: bool,
    start: u32,
    end: u32,
}

impl Line<'_> {
    /// The candidate message texts, most stripped first; the last is the whole line.
    pub fn texts(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.spans.iter().map(|s| self.span(*s))
    }

    /// The `i`th of [`Line::texts`].
    pub fn text(&self, i: usize) -> &str {
        self.span(self.spans[i])
    }

    /// The message as best understood.
    pub fn message(&self) -> &str {
        self.spans.first().map_or("", |s| self.span(*s))
    }

    fn span(&self, s: Span) -> &str {
        let base = match (&self.envelope, s.in_envelope) {
            (Some(m), true) => m.as_str(),
            _ => self.raw,
        };
        &base[s.start as usize..s.end as usize]
    }
}

const TIMESTAMP: &str = r"^[\[(]?(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2}| ?UTC)?|\d{4}/\d{2}/\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2}(?: [A-Z]{3}| [+-]\d{4})?|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}(?:\.\d+)?|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?|1\d{9}(?:\.\d+)?|\d{4}-\d{2}-\d{2})[\])]?(?:\s*[|,-]\s*|:\s+|\s+|$)";
const LEVEL_SRC: &str = r"^(?:[\[(<]\s*)?(?i:trace|debug|dbug|info|notice|warn|warning|error|eror|err|severe|fatal|critical|crit|panic|emerg|alert|[IWEF])(?:\s*[\])>])?(?::\s*|\s+-\s+|\s+|$)";
const PY_LOGGING: &str = r"^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]+:";
const GLOG: &str = r"^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+ [\w.-]+:\d+\] ";
const SYSLOG_HOST_SRC: &str = r"^[\w.-]+ [\w./-]+(?:\[\d+\])?: ";
const BRACKETED: &str = r"^\[[^\]\[]{1,100}\]:?\s*";
const PID: &str = r"^\d{1,7}\s+(?:---\s+)?";
// A command-line tool's name before the level of its own log lines: `npm error …`,
// `npm ERR! …`, `npm warn …`.
const TOOL_LEVEL: &str = r"^[a-z][a-z0-9_.-]{1,20} (?:ERR!|error|warn|WARN|notice|verbose|silly|http|timing)(?::\s*|\s+)";
// npm's debug log: the line's number and its level, `23 verbose stack TypeError: …`.
const NPM_DEBUG_LOG: &str =
    r"^\d{1,7} (?:verbose|silly|timing|http|error|warn|notice|info)(?: stack)?\s+";
// What a line may start with before its message, in order of preference: a glog header, a
// timestamp, Python logging's `LEVEL:logger:`, a bracketed token, npm's debug log, a process
// id, a tool's name and level (`npm error`).
const PREFIXES: [&str; 7] = [
    GLOG,
    TIMESTAMP,
    PY_LOGGING,
    BRACKETED,
    NPM_DEBUG_LOG,
    PID,
    TOOL_LEVEL,
];
const LOGGER_SRC: &str = r"^[A-Za-z_$][\w$-]*(?:[.:/][A-Za-z_$][\w$-]*)*(?:\s+-\s+|:\s+|\s+\|\s+)";
const KEY_VALUE_SRC: &str = r#"^[\w.@-]+=(?:"(?:[^"\\]|\\.)*"|\S*)\s*"#;

/// The kinds of token of surroundings [`peel`] knows, in its order of preference.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Prefix,
    Level,
    KeyValue,
    Logger,
    SyslogHost,
}

impl Stage {
    const ALL: [Stage; 5] = [
        Stage::Prefix,
        Stage::Level,
        Stage::KeyValue,
        Stage::Logger,
        Stage::SyslogHost,
    ];

    fn pattern(self) -> std::borrow::Cow<'static, str> {
        match self {
            Stage::Prefix => PREFIXES.map(|p| format!("(?:{p})")).join("|").into(),
            Stage::Level => LEVEL_SRC.into(),
            Stage::KeyValue => KEY_VALUE_SRC.into(),
            Stage::Logger => LOGGER_SRC.into(),
            Stage::SyslogHost => SYSLOG_HOST_SRC.into(),
        }
    }
}

/// The kinds from `first` on, as one regex of several patterns whose matches at the start of
/// a text are preferred in their order: one search finds the kind of a token, where a regex a
/// kind was tried in turn.
fn stages_from(first: usize) -> &'static meta::Regex {
    static ALL: [OnceLock<meta::Regex>; Stage::ALL.len()] = [const { OnceLock::new() }; 5];
    ALL[first].get_or_init(|| {
        let patterns: Vec<String> = Stage::ALL[first..]
            .iter()
            .map(|s| crate::ascii_classes(&s.pattern()))
            .collect();
        meta::Regex::new_many(&patterns).expect("the surroundings' patterns are valid")
    })
}

re!(
    CLASS,
    r"^(?:(?:Exception in thread|Exception in goroutine) (?:\x22[^\x22]*\x22 )?|Caused by: |Suppressed: |Uncaught (?:exception )?|Unhandled (?:promise )?(?:rejection|exception):? |\[?error\]: )?([A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)(?:\s*\[([A-Z][A-Z0-9_]{2,})\])?(?::\s|:$)"
);
// An error printed without a message: its class alone (`java.util.ConcurrentModificationException`,
// `Exception in thread "main" java.lang.IllegalMonitorStateException`).
re!(
    CLASS_ALONE,
    r"^(?:Exception in thread (?:\x22[^\x22]*\x22 )?)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*$"
);
re!(
    LOGFMT_MSG,
    r#"(?:^|\s)(?:msg|message|error|err)=(?:"((?:[^"\\]|\\.)*)"|(\S+))"#
);
re!(ERRNO, r"^(E[A-Z0-9]{2,}|ERR_[A-Z0-9_]+): ");

/// The JSON keys that hold a log record's message, in order of preference.
const MESSAGE_KEYS: [&str; 8] = [
    "error.message",
    "err",
    "error",
    "exception",
    "msg",
    "message",
    "@message",
    "text",
];

/// Reads one line.
pub fn read_line(line: &str) -> Line<'_> {
    let line = line.trim_end_matches(['\r', '\n']);
    let envelope = from_json(line).or_else(|| from_logfmt(line));
    let mut class = None;
    let mut code = None;
    // Every text but the whole line is a part of the envelope's message, when there is one.
    let base = envelope.as_deref().unwrap_or(line);
    let mut texts: Vec<&str> = Vec::with_capacity(8);
    if envelope.is_some() {
        texts.push(base);
    }
    // Peel the surroundings off, keeping each stage.
    let mut rest = base.trim();
    for _ in 0..12 {
        let Some(next) = peel(rest) else { break };
        if next.len() == rest.len() || next.is_empty() {
            break;
        }
        texts.push(rest);
        rest = next;
    }
    texts.push(rest);
    // `User a@b accessing /api/workers: java.util.ConcurrentModificationException`: prose
    // before the exception a Java log line ends with.
    if class_prefix(rest).is_none() && class_alone(rest).is_none() {
        if let Some(i) = inner_class(rest) {
            rest = &rest[i..];
            texts.push(rest);
        }
    }
    if let Some(c) = class_prefix(rest) {
        class = Some(c[1].to_owned());
        code = c.get(2).map(|m| m.as_str().to_owned());
        rest = rest[c.get(0).unwrap().end()..].trim_start();
        texts.push(rest);
    } else if let Some(c) = class_alone(rest) {
        class = Some(c.to_owned());
        rest = &rest[rest.len()..];
        texts.push(rest);
    }
    if let Some(c) = ERRNO.captures(rest) {
        code.get_or_insert_with(|| c[1].to_owned());
        texts.push(&rest[c.get(0).unwrap().end()..]);
    }
    texts.reverse();
    texts.dedup();
    let span_of = |t: &str| Span {
        in_envelope: envelope.is_some(),
        start: (t.as_ptr() as usize - base.as_ptr() as usize) as u32,
        end: (t.as_ptr() as usize - base.as_ptr() as usize + t.len()) as u32,
    };
    let mut spans: Vec<Span> = texts.into_iter().map(span_of).collect();
    let whole = Span {
        in_envelope: false,
        start: 0,
        end: line.len() as u32,
    };
    // The whole line is the last text (it is already there when the line is all message).
    if envelope.is_some() || spans.last() != Some(&whole) {
        spans.push(whole);
    }
    Line {
        raw: line,
        spans,
        class,
        code,
        envelope,
    }
}

/// One token of surroundings off the front of `s`, or `None` when `s` starts with the message.
fn peel(s: &str) -> Option<&str> {
    if class_prefix(s).is_some() {
        return None;
    }
    let mut first = 0;
    while first < Stage::ALL.len() {
        let input = Input::new(s).anchored(Anchored::Yes);
        let m = stages_from(first).search(&input)?;
        let at = first + m.pattern().as_usize();
        let token = &s[..m.end()];
        let kept = match Stage::ALL[at] {
            // A lone letter is a level only in front of a separator (`E: `, `[E]`), not in a
            // word.
            Stage::Level => token.trim().len() > 1 || token.contains([':', ']', ')', '>']),
            Stage::Logger => {
                let name = token.trim_end_matches([':', ' ', '-', '|']);
                !looks_like_class(name) && !ERRNO.is_match(s)
            }
            Stage::Prefix | Stage::KeyValue | Stage::SyslogHost => true,
        };
        if kept {
            return Some(&s[m.end()..]);
        }
        // Refused: the stages after it may still take the token.
        first = at + 1;
    }
    None
}

/// The class named at the start of `s` and the match, when there is one. The regex runs only
/// when some colon in `s` follows a name that [`looks_like_class`] could accept.
fn class_prefix(s: &str) -> Option<regex::Captures<'_>> {
    let before_colon = |i: usize| {
        let mut name = s[..i].trim_end();
        // `IOError [EACCES]: …`
        if name.ends_with(']') {
            name = name[..name.rfind('[').unwrap_or(0)].trim_end();
        }
        CLASS_SUFFIXES.iter().any(|w| name.ends_with(w))
            || name.ends_with("panic")
            || name.ends_with("error")
    };
    if !memchr::memchr_iter(b':', s.as_bytes()).any(before_colon) {
        return None;
    }
    CLASS.captures(s).filter(|c| looks_like_class(&c[1]))
}

/// The class of a line that is an error class and nothing else.
fn class_alone(s: &str) -> Option<&str> {
    let last = |c: &str| c.rsplit(['.', '$']).next().unwrap_or(c).to_owned();
    let name = CLASS_ALONE.captures(s)?.get(1)?.as_str();
    (CLASS_SUFFIXES.iter().any(|w| last(name).ends_with(w)) && looks_like_class(name))
        .then_some(name)
}

/// Where a qualified exception class begins behind prose (`…: java.lang.X`, `…, java.lang.Y:
/// null`): after `: `, `, ` or a space, a dotted name whose last part is an error class's, at
/// the end of the text or before `: `.
fn inner_class(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let name_char = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.');
    (1..bytes.len())
        .filter(|&i| bytes[i - 1] == b' ' && bytes[i].is_ascii_lowercase())
        .find(|&i| {
            let end = (i..bytes.len())
                .find(|&j| !name_char(bytes[j]))
                .unwrap_or(bytes.len());
            let name = s[i..end].trim_end_matches('.');
            let last = name.rsplit(['.', '$']).next().unwrap_or(name);
            let tail = &s[i + name.len()..];
            name.contains('.')
                && CLASS_SUFFIXES.iter().any(|w| last.ends_with(w))
                && last.starts_with(|c: char| c.is_ascii_uppercase())
                && (tail.trim().is_empty() || tail.starts_with(": "))
        })
}

/// How the last part of a class name ends (`ValueError`, `java.io.IOException`), unless it is
/// one of `panic`, `error`, `fatal error`.
const CLASS_SUFFIXES: [&str; 9] = [
    "Error",
    "Exception",
    "Warning",
    "Exit",
    "Interrupt",
    "Fault",
    "Failure",
    "Panic",
    "Throwable",
];

/// Whether a name in front of a colon names an error class rather than a logger.
fn looks_like_class(name: &str) -> bool {
    let last = name.rsplit(['.', ':']).next().unwrap_or(name);
    CLASS_SUFFIXES.iter().any(|s| last.ends_with(s))
        || matches!(last, "panic" | "error" | "fatal error")
}

fn from_json(line: &str) -> Option<String> {
    let t = line.trim();
    let start = t.find('{')?;
    if !t.ends_with('}') || start > 64 {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(&t[start..]).ok()?;
    let obj = v.as_object()?;
    for key in MESSAGE_KEYS {
        let mut cur = Some(&v);
        for part in key.split('.') {
            cur = cur.and_then(|c| c.get(part));
        }
        match cur {
            Some(serde_json::Value::String(s)) if !s.is_empty() => return Some(s.clone()),
            Some(serde_json::Value::Object(o)) => {
                if let Some(serde_json::Value::String(s)) = o.get("message") {
                    return Some(s.clone());
                }
            }
            _ => {}
        }
    }
    let _ = obj;
    None
}

fn from_logfmt(line: &str) -> Option<String> {
    if !line.contains('=') {
        return None;
    }
    let c = LOGFMT_MSG.captures(line)?;
    match (c.get(1), c.get(2)) {
        (Some(q), _) => Some(q.as_str().replace("\\\"", "\"").replace("\\\\", "\\")),
        (None, Some(w)) => Some(w.as_str().to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(line: &str) -> String {
        read_line(line).message().to_owned()
    }

    #[test]
    fn surroundings_are_stripped() {
        let cases = [
            (
                "2024-05-01T12:00:00.123Z ERROR Invalid user bob",
                "Invalid user bob",
            ),
            (
                "2024-05-01 12:00:00,123 - app.auth - ERROR - Invalid user bob",
                "Invalid user bob",
            ),
            (
                "[2024-05-01 12:00:00] [ERROR] [req-42] Invalid user bob",
                "Invalid user bob",
            ),
            ("2024/05/01 12:00:00 Invalid user bob", "Invalid user bob"),
            (
                "May  1 12:00:00 host sshd[123]: Invalid user bob",
                "Invalid user bob",
            ),
            ("ERROR:root:Invalid user bob", "Invalid user bob"),
            (
                "E0501 12:00:00.123456   42 server.go:91] Invalid user bob",
                "Invalid user bob",
            ),
            (
                "12:00:00.001 [main] ERROR com.acme.Auth - Invalid user bob",
                "Invalid user bob",
            ),
            (
                r#"{"level":"error","ts":1714564800,"msg":"Invalid user bob"}"#,
                "Invalid user bob",
            ),
            (
                r#"level=error ts=2024-05-01T12:00:00Z msg="Invalid user \"bob\"""#,
                "Invalid user \"bob\"",
            ),
            ("error: Invalid user bob", "Invalid user bob"),
            ("npm error Invalid user bob", "Invalid user bob"),
            ("npm ERR! Invalid user bob", "Invalid user bob"),
            // npm's debug log (npm-debug.log, `npm … --verbose`).
            ("23 verbose stack Invalid user bob", "Invalid user bob"),
            ("1284 error Invalid user bob", "Invalid user bob"),
            ("Invalid user bob", "Invalid user bob"),
        ];
        for (line, want) in cases {
            assert_eq!(message(line), want, "{line}");
        }
    }

    #[test]
    fn class_prefixes_are_read() {
        let l = read_line("ValueError: invalid literal for int() with base 10: 'x'");
        assert_eq!(l.class.as_deref(), Some("ValueError"));
        assert_eq!(l.message(), "invalid literal for int() with base 10: 'x'");
        let l =
            read_line("Exception in thread \"main\" java.lang.IllegalStateException: Queue full");
        assert_eq!(l.class.as_deref(), Some("java.lang.IllegalStateException"));
        assert_eq!(l.message(), "Queue full");
        for alone in [
            "java.util.ConcurrentModificationException",
            "Exception in thread \"main\" java.util.ConcurrentModificationException",
        ] {
            let l = read_line(alone);
            assert_eq!(
                l.class.as_deref(),
                Some("java.util.ConcurrentModificationException")
            );
            assert_eq!(l.message(), "");
        }
        let l = read_line("TypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be");
        assert_eq!(l.class.as_deref(), Some("TypeError"));
        assert_eq!(l.code.as_deref(), Some("ERR_INVALID_ARG_TYPE"));
        let l = read_line("Caused by: java.io.IOException: Stream closed");
        assert_eq!(l.class.as_deref(), Some("java.io.IOException"));
        assert_eq!(l.message(), "Stream closed");
        let l = read_line("Error: ENOENT: no such file or directory, open 'x'");
        assert_eq!(l.code.as_deref(), Some("ENOENT"));
        assert_eq!(l.message(), "no such file or directory, open 'x'");
        let l = read_line("panic: runtime error: index out of range [3] with length 2");
        assert_eq!(l.class.as_deref(), Some("panic"));
        // Behind a log line's prose (conveyal/r5#834, DvcLAB/dockerhub#112).
        let l = read_line(
            "User a@b.com of group c accessing /api/workers: java.util.ConcurrentModificationException",
        );
        assert_eq!(
            l.class.as_deref(),
            Some("java.util.ConcurrentModificationException")
        );
        assert_eq!(l.message(), "");
        let l = read_line(
            "lambda$static$5 - List Image error, uid[07fb], java.lang.UnsupportedOperationException: null",
        );
        assert_eq!(
            l.class.as_deref(),
            Some("java.lang.UnsupportedOperationException")
        );
        assert_eq!(l.message(), "null");
        // A dotted word that is no class, or one in the middle of prose, is left alone.
        let l = read_line("could not load config.yaml: file is gone");
        assert_eq!(l.class, None);
        let l = read_line("retrying after java.io.IOException was thrown by the pool");
        assert_eq!(l.class, None);
    }

    #[test]
    fn every_stage_is_kept_for_messages_that_look_like_surroundings() {
        let l = read_line("2024-05-01 ERROR config.yaml: not found");
        assert_eq!(l.message(), "not found");
        assert!(l.texts().any(|t| t == "config.yaml: not found"));
        assert_eq!(
            l.texts().last().unwrap(),
            "2024-05-01 ERROR config.yaml: not found"
        );
    }

    #[test]
    fn odd_input_does_not_panic() {
        for s in [
            "",
            " ",
            "{",
            "{}",
            "[",
            "\u{0}\u{1}\u{fffd}",
            "::::",
            "=",
            "Error:",
        ] {
            let _ = read_line(s);
        }
    }
}
