//! Answers to "which record produced this text?", the same for `errata explain --json`, the
//! HTTP API and the MCP server.

use errata_matcher::{Hit, MatchEntry, Matcher};
use errata_model::Record;
use errata_store::{MessageIndex, Store};
use serde::Serialize;
use serde_json::value::RawValue;

/// Candidates the full-text index gives the approximate search.
const SIMILAR_CANDIDATES: usize = 100;

/// The ranked records for a text: `{"matches": [...]}`.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    pub matches: Vec<Match>,
}

impl Answer {
    /// Whether a template matched (approximate answers do not count).
    pub fn matched(&self) -> bool {
        self.matches.iter().any(|m| !m.approximate)
    }
}

/// One record of an answer.
#[derive(Debug, Clone, Serialize)]
pub struct Match {
    pub score: f64,
    pub exact: bool,
    pub approximate: bool,
    /// Found by a frame of the trace at the record's line, not by the message.
    pub by_frame: bool,
    /// Found by the code the text states (`npm ERR! code E404`), which is the record's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_code: bool,
    pub captures: Vec<Capture>,
    /// The record as stored: passed through without being decoded and encoded again.
    pub record: Box<RawValue>,
}

impl Match {
    /// A record a trace's frame names, whatever its message.
    fn by_frame(record: Box<RawValue>) -> Match {
        Match {
            score: 0.5,
            exact: false,
            approximate: false,
            by_frame: true,
            by_code: false,
            captures: Vec::new(),
            record,
        }
    }

    /// The record, decoded.
    pub fn record(&self) -> serde_json::Result<Record> {
        serde_json::from_str(self.record.get())
    }
}

/// The value one placeholder took.
#[derive(Debug, Clone, Serialize)]
pub struct Capture {
    pub name: String,
    pub value: String,
}

/// Matches `text` against the records whose anchor word is in it, and those at the lines of
/// its stack frames, loading only those: the way for a process that answers once. When nothing
/// matches, the nearest messages by similarity, marked approximate.
pub fn explain(store: &Store, text: &str, limit: usize) -> errata_store::Result<Answer> {
    let words = words(text);
    let mut rows = store.match_rows_for_words(&words)?;
    let segments = errata_matcher::trace::segments(text);
    let frames = frame_lines(&segments);
    let at: Vec<(&str, u32, Option<&str>)> = frames
        .iter()
        .map(|(f, l, function)| (f.as_str(), *l, function.as_deref()))
        .collect();
    let framed = store.match_rows_at(&at)?;
    if !framed.is_empty() {
        let known: std::collections::HashSet<String> = rows.iter().map(|r| r.id.clone()).collect();
        rows.extend(framed.into_iter().filter(|r| !known.contains(&r.id)));
    }
    let (matcher, _) = Matcher::new(rows);
    let hits = matcher.explain_segments(&segments, candidates(text, limit));
    let a = if hits.is_empty() {
        approximate(store, text, &words, limit)?
    } else {
        answer(store, matcher.entries(), &hits)?
    };
    by_the_trace(store, a, text, &segments, limit)
}

/// Matches `text` with a matcher built once over every record, and the message index read
/// into memory once: the way for a server. A text that matches nothing reads only the records
/// it answers with.
pub fn explain_with(
    store: &Store,
    matcher: &Matcher,
    index: &MessageIndex,
    text: &str,
    limit: usize,
) -> errata_store::Result<Answer> {
    let segments = errata_matcher::trace::segments(text);
    let hits = matcher.explain_segments(&segments, candidates(text, limit));
    let a = if hits.is_empty() {
        let ids = index.similar_ids(&long_words(&words(text)), SIMILAR_CANDIDATES);
        let candidates: Vec<MatchEntry> = ids
            .into_iter()
            .filter_map(|id| matcher.entry(id).cloned())
            .collect();
        let hits = errata_matcher::nearest(&candidates, text, limit);
        answer(store, &candidates, &hits)?
    } else {
        answer(store, matcher.entries(), &hits)?
    };
    by_the_trace(store, a, text, &segments, limit)
}

/// What a pasted trace says beyond its messages, read the same way for every answer: the line
/// a frame quotes, the direct raise a helper's missing frame points to, a quoted `raise` line;
/// then the answer is cut to `limit`.
fn by_the_trace(
    store: &Store,
    a: Answer,
    text: &str,
    segments: &[errata_matcher::Segment],
    limit: usize,
) -> errata_store::Result<Answer> {
    let a = direct_raise_first(quoted_frame(store, a, segments)?, segments);
    let a = by_code(store, quoted_raise(store, a, text, segments)?, text)?;
    let a = raises_of_own_text(store, a, segments)?;
    quoted_first(a, text, limit)
}

/// How many raises of a type a text the type words for itself may have, to be named.
const MAX_OWN_TEXT_RAISES: usize = 8;

/// How many of them are named after the text's record.
const OWN_TEXT_RAISES_SHOWN: usize = 2;

/// A message that matched the text an error type words for itself (URLError's `__str__`,
/// `'<urlopen error %s>' % self.reason`) was raised where the type is raised with what it
/// words: with no trace to say where, the first raises of the type that pass no message of
/// their own (`raise URLError(err)`) come right after it, when the type has few.
fn raises_of_own_text(
    store: &Store,
    mut a: Answer,
    segments: &[errata_matcher::Segment],
) -> errata_store::Result<Answer> {
    if segments.iter().any(|s| !s.frames.is_empty()) {
        return Ok(a);
    }
    let Some(top) = a
        .matches
        .first()
        .filter(|m| !m.approximate && !m.by_frame && !m.by_code)
        .and_then(|m| head(m.record.get()))
    else {
        return Ok(a);
    };
    let raises = store.raises_of_own_text(&top.id, MAX_OWN_TEXT_RAISES + 1)?;
    if raises.is_empty() || raises.len() > MAX_OWN_TEXT_RAISES {
        return Ok(a);
    }
    let score = a.matches[0].score;
    let found: Vec<Match> = raises
        .into_iter()
        .take(OWN_TEXT_RAISES_SHOWN)
        .filter_map(|json| RawValue::from_string(json).ok())
        .map(|record| Match {
            score,
            exact: false,
            approximate: false,
            by_frame: false,
            by_code: false,
            captures: Vec::new(),
            record,
        })
        .collect();
    put_at(&mut a, 1, found, false);
    Ok(a)
}

/// Puts `found` at `at` among the answer's matches, leaving out the copies of them the answer
/// had and, with `drop_approximate`, its answers by similarity.
fn put_at(a: &mut Answer, at: usize, found: Vec<Match>, drop_approximate: bool) {
    let ids: Vec<String> = found
        .iter()
        .filter_map(|m| head(m.record.get()).map(|h| h.id))
        .collect();
    a.matches.retain(|m| {
        !(drop_approximate && m.approximate)
            && head(m.record.get()).is_none_or(|h| !ids.contains(&h.id))
    });
    let at = at.min(a.matches.len());
    a.matches.splice(at..at, found);
}

/// How many records a stated code is read against.
const CODE_RECORDS: usize = 256;

/// How many records a stated code may name, when no line of the text is their message, to
/// name them.
const MAX_CODE_ONLY: usize = 2;

/// The most a record's pattern may compile to, when a code calls on it: a pattern of an
/// imported dataset is not trusted.
const CODE_PATTERN_LIMIT: usize = 1 << 20;

/// A code the text states on a line of its own is evidence no message is: npm's `npm ERR!
/// code E404` above `404 Not Found - GET …`, a message made of values alone (`${res.status}
/// ${res.statusText} - …`) that no template search can tell from any other line. A record
/// whose code is that code, or made with a value that it fits (`E${res.status}`), and whose
/// pattern is a line of the text, comes first; one whose pattern is no line of it is named
/// when few records have the code and no message matched.
fn by_code(store: &Store, mut a: Answer, text: &str) -> errata_store::Result<Answer> {
    let codes = stated_codes(text);
    if codes.is_empty() {
        return Ok(a);
    }
    let has_code =
        |m: &Match| code_of(m.record.get()).is_some_and(|c| codes.iter().any(|s| code_fits(&c, s)));
    if a.matches
        .first()
        .is_some_and(|m| !m.approximate && has_code(m))
    {
        return Ok(a);
    }
    let lines: Vec<&str> = text.lines().map(message_of_log_line).collect();
    let mut found: Vec<(bool, Match)> = Vec::new();
    for (json, pattern, code) in store.records_of_codes(&codes, CODE_RECORDS)? {
        if !codes.iter().any(|c| code_fits(&code, c)) {
            continue;
        }
        let on_line = regex::RegexBuilder::new(&format!("^(?:{pattern})$"))
            .size_limit(CODE_PATTERN_LIMIT)
            .build()
            .is_ok_and(|re| lines.iter().any(|l| re.is_match(l)));
        let Ok(record) = RawValue::from_string(json) else {
            continue;
        };
        // A code alone, with no line of the text its message, is evidence of the record but
        // not of its text: the message may be reworded since.
        found.push((
            on_line,
            Match {
                score: if on_line { 0.75 } else { 0.5 },
                exact: false,
                approximate: !on_line,
                by_frame: false,
                by_code: true,
                captures: Vec::new(),
                record,
            },
        ));
    }
    let on_line = found.iter().any(|(on_line, _)| *on_line);
    if on_line {
        found.retain(|(on_line, _)| *on_line);
    } else if found.len() > MAX_CODE_ONLY || a.matched() {
        return Ok(a);
    }
    if found.is_empty() {
        return Ok(a);
    }
    // Beside a message found by its code, an answer by similarity is none.
    put_at(
        &mut a,
        0,
        found.into_iter().map(|(_, m)| m).collect(),
        on_line,
    );
    Ok(a)
}

/// The codes a text states on lines of their own: `npm ERR! code E404` (`npm error code
/// E404` since npm 10), and a Node error's `code: 'ENOENT'` or `"code": "ENOENT"`.
fn stated_codes(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            let l = message_of_log_line(l);
            let code = match l.strip_prefix("code ") {
                Some(rest) => rest.trim(),
                None => {
                    let rest = l
                        .strip_prefix("code:")
                        .or_else(|| l.strip_prefix("\"code\":"))?
                        .trim()
                        .trim_end_matches(',');
                    rest.strip_prefix(['\'', '"'])?.strip_suffix(['\'', '"'])?
                }
            };
            let is_code = code.len() >= 2
                && code.len() <= 64
                && code.starts_with(|c: char| c.is_ascii_uppercase())
                && code
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            is_code.then_some(code)
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A line of npm's log without its prefix (`npm ERR! `, `npm error `), trimmed.
fn message_of_log_line(line: &str) -> &str {
    let l = line.trim();
    ["npm ERR!", "npm error", "npm WARN", "npm warn"]
        .iter()
        .find_map(|p| l.strip_prefix(p))
        .map_or(l, str::trim)
}

/// Whether the stated code `stated` is the record's `code`, or fits it where the record's is
/// made with values (`E${res.status}` fits `E404`: each `${…}` stands for letters or digits,
/// digits alone where it is a status or a number).
fn code_fits(code: &str, stated: &str) -> bool {
    if !code.contains("${") {
        return code == stated;
    }
    let mut rest = stated;
    let mut parts = code.split("${");
    let first = parts.next().unwrap_or_default();
    let Some(r) = rest.strip_prefix(first) else {
        return false;
    };
    rest = r;
    for part in parts {
        let Some((expr, literal)) = part.split_once('}') else {
            return false;
        };
        // A status or a number fills it with digits (`E${res.status}` is `E404`, not `EOTHER`).
        let expr = expr.to_ascii_lowercase();
        let digits = ["status", "errno", "number"]
            .iter()
            .any(|w| expr.contains(w));
        // The value: the shortest run of letters and digits before the next literal.
        let value_end = if literal.is_empty() {
            rest.len()
        } else {
            match rest.find(literal) {
                Some(at) => at,
                None => return false,
            }
        };
        let fits = |c: char| {
            if digits {
                c.is_ascii_digit()
            } else {
                c.is_ascii_alphanumeric() || c == '_'
            }
        };
        if value_end == 0 || !rest[..value_end].chars().all(fits) {
            return false;
        }
        rest = &rest[value_end + literal.len()..];
    }
    rest.is_empty()
}

/// A stored record's `errorCode`.
fn code_of(json: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Code {
        error_code: Option<String>,
    }
    serde_json::from_str::<Code>(json).ok()?.error_code
}

fn approximate(
    store: &Store,
    text: &str,
    words: &[&str],
    limit: usize,
) -> errata_store::Result<Answer> {
    let candidates = store.similar_rows(&long_words(words), SIMILAR_CANDIDATES)?;
    let hits = errata_matcher::nearest(&candidates, text, limit);
    answer(store, &candidates, &hits)
}

/// The words the approximate search looks up: words of one or two letters are in most
/// messages and say little.
fn long_words<'a>(words: &[&'a str]) -> Vec<&'a str> {
    words
        .iter()
        .copied()
        .filter(|w| w.chars().count() > 2)
        .take(64)
        .collect()
}

/// How many of the best matches are read to find the one whose raising line the paste quotes.
const QUOTED_CANDIDATES: usize = 8;

/// How many matches to read: more for a text of several lines, which may quote source.
fn candidates(text: &str, limit: usize) -> usize {
    if text.contains('\n') {
        limit.max(QUOTED_CANDIDATES)
    } else {
        limit
    }
}

/// A traceback prints the source line of each frame (`raise JSONDecodeError("Expecting value",
/// s, err.value) from None`): among matches that rank alike, one whose raising line the paste
/// quotes comes first. Then the answer is cut to `limit`.
fn quoted_first(mut a: Answer, text: &str, limit: usize) -> errata_store::Result<Answer> {
    if a.matches.len() > 1 && text.contains('\n') {
        let lines: std::collections::HashSet<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| l.len() >= 12)
            .collect();
        let quoted =
            |m: &Match| raising_line(m.record.get()).is_some_and(|l| lines.contains(l.trim()));
        let top = &a.matches[0];
        if !lines.is_empty() && !quoted(top) {
            let alike = |m: &Match| {
                m.score == top.score && m.exact == top.exact && m.by_frame == top.by_frame
            };
            if let Some(i) = a.matches.iter().position(|m| alike(m) && quoted(m)) {
                let m = a.matches.remove(i);
                a.matches.insert(0, m);
            }
        }
    }
    a.matches.truncate(limit);
    Ok(a)
}

/// How many records of a quoted raise's class are read for the one whose line it is.
const QUOTED_CLASS_RECORDS: usize = 256;

/// How many records a quoted raise may be at, in files that no frame names, to name them.
const MAX_QUOTED_ELSEWHERE: usize = 2;

/// Python's tracebacks, and Node's report of an uncaught error, print the line that raised
/// (`raise SMTPAuthenticationError(code, resp)`). A record of the class it names whose raising
/// line is that line is where the error was raised, whatever its message says; it comes first
/// unless the best match is itself a quoted line. Records in a file the trace names come
/// before others.
fn quoted_raise(
    store: &Store,
    mut a: Answer,
    text: &str,
    segments: &[errata_matcher::Segment],
) -> errata_store::Result<Answer> {
    if !text.contains('\n') {
        return Ok(a);
    }
    let quoted: Vec<(&str, &str)> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.len() >= 12)
        .filter_map(|l| Some((l, raised_class(l)?)))
        .collect();
    if quoted.is_empty() {
        return Ok(a);
    }
    let is_quoted = |line: &str| quoted.iter().any(|(q, _)| *q == line.trim());
    if a.matches
        .first()
        .and_then(|m| raising_line(m.record.get()))
        .is_some_and(|l| is_quoted(&l))
    {
        return Ok(a);
    }
    let mut classes: Vec<&str> = quoted.iter().map(|(_, c)| *c).collect();
    classes.sort_unstable();
    classes.dedup();
    let frames = frame_lines(segments);
    // Whether the record is in a file the trace names, and its match.
    let mut found: Vec<(bool, Match)> = Vec::new();
    for (id, json) in store.records_of_classes(&classes, QUOTED_CLASS_RECORDS)? {
        if !raising_line(&json).is_some_and(|l| is_quoted(&l)) {
            continue;
        }
        let Ok(record) = RawValue::from_string(json) else {
            continue;
        };
        let path = head(record.get()).map(|h| h.file_path).unwrap_or_default();
        let on_stack = frames
            .iter()
            .any(|(f, _, _)| path == *f || path.ends_with(&format!("/{f}")));
        a.matches
            .retain(|m| head(m.record.get()).is_none_or(|h| h.id != id));
        found.push((on_stack, Match::by_frame(record)));
    }
    // A line raised in a file on the stack is where; a line found elsewhere is, when it is
    // rare (`raise ValueError(msg)` is in hundreds of places) and no frame named another.
    if found.iter().any(|(on_stack, _)| *on_stack) {
        found.retain(|(on_stack, _)| *on_stack);
    } else if found.len() > MAX_QUOTED_ELSEWHERE || a.matches.first().is_some_and(|m| m.by_frame) {
        return Ok(a);
    }
    if !found.is_empty() {
        // Approximate answers are no match beside a quoted raise.
        a.matches.retain(|m| !m.approximate);
    }
    a.matches.splice(0..0, found.into_iter().map(|(_, m)| m));
    Ok(a)
}

/// How many records of a frame's function are read for the one whose statement it quotes.
const FRAME_FUNCTION_RECORDS: usize = 64;

/// How many lines a raising statement is read for a frame's quoted line, from its first.
const STATEMENT_LINES: u32 = 4;

/// A Python traceback prints, under each frame, the line it was at: in another release
/// (Python 3.7's `subprocess.py`, line 487, in run: `output=stdout, stderr=stderr)`) the
/// number has moved but the line has not. When no message matched, the records of the
/// innermost frame's function whose raising statement holds that line are where it was
/// raised, whatever the message: a trace cut before its last line names its raise this way.
fn quoted_frame(
    store: &Store,
    mut a: Answer,
    segments: &[errata_matcher::Segment],
) -> errata_store::Result<Answer> {
    if a.matched() {
        return Ok(a);
    }
    let mut found = Vec::new();
    for f in segments.iter().filter_map(|s| s.frames.first()) {
        let (Some(function), Some(code)) = (&f.function, &f.code) else {
            continue;
        };
        if code.len() < 12 {
            continue;
        }
        let name = errata_matcher::trace::file_name(&f.file);
        let function = errata_matcher::trace::function_name(function);
        for json in store.records_in_function(name, function, FRAME_FUNCTION_RECORDS)? {
            let Some(h) = head(&json) else { continue };
            if !errata_matcher::trace::same_file(&f.file, &h.file_path)
                || !statement_lines(&json).iter().any(|l| l.trim() == code)
            {
                continue;
            }
            if let Ok(record) = RawValue::from_string(json) {
                found.push(Match::by_frame(record));
            }
        }
    }
    if !found.is_empty() {
        a.matches = found;
    }
    Ok(a)
}

/// Two raises of one text in one file, one direct (`throw new ZipException("zip END header
/// not found")`), one through a helper of the file (`zerror("zip END header not found")`):
/// a trace whose innermost frame is not that helper was raised by the direct one, since a
/// helper's own frame would be on top (F6JO/RouteVulScan#45).
fn direct_raise_first(mut a: Answer, segments: &[errata_matcher::Segment]) -> Answer {
    let Some(frame) = segments.iter().find_map(|s| s.frames.first()) else {
        return a;
    };
    let Some(function) = frame.function.as_deref() else {
        return a;
    };
    let function = errata_matcher::trace::function_name(function);
    let (Some(top), Some(top_line)) = (
        a.matches.first().and_then(|m| head(m.record.get())),
        a.matches.first().and_then(|m| raising_line(m.record.get())),
    ) else {
        return a;
    };
    let direct = |line: &str| {
        let line = line.trim_start();
        ["throw ", "raise ", "panic("]
            .iter()
            .any(|w| line.starts_with(w))
    };
    let callee = top_line.trim_start().split('(').next().unwrap_or_default();
    if direct(&top_line)
        || !errata_matcher::trace::same_file(&frame.file, &top.file_path)
        || errata_matcher::trace::function_name(callee) == function
    {
        return a;
    }
    let first = &a.matches[0];
    let alike = |m: &Match| {
        m.score == first.score
            && m.exact == first.exact
            && m.by_frame == first.by_frame
            && head(m.record.get()).is_some_and(|h| {
                h.file_path == top.file_path && h.error_message == top.error_message
            })
    };
    let at = a
        .matches
        .iter()
        .skip(1)
        .position(|m| alike(m) && raising_line(m.record.get()).is_some_and(|l| direct(&l)));
    if let Some(i) = at {
        let m = a.matches.remove(i + 1);
        a.matches.insert(0, m);
    }
    a
}

/// The class a quoted line raises, `SMTPAuthenticationError` of `raise
/// smtplib.SMTPAuthenticationError(code, resp)` or `throw new TypeError(msg)`: a name that
/// starts with a capital letter, without its module.
fn raised_class(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix("raise ")
        .or_else(|| line.strip_prefix("throw new "))
        .or_else(|| line.strip_prefix("throw "))?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '$')))
        .unwrap_or(rest.len());
    let name = rest[..end].rsplit('.').next()?;
    name.starts_with(|c: char| c.is_ascii_uppercase())
        .then_some(name)
}

/// A record's id and file.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Head {
    id: String,
    file_path: String,
    #[serde(default)]
    error_message: String,
}

fn head(json: &str) -> Option<Head> {
    serde_json::from_str(json).ok()
}

/// A record's source window, and the line it raises at.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Window {
    source_code: String,
    source_code_start: u32,
    line_number: u32,
}

/// The source line a record raises at, from its source window.
fn raising_line(json: &str) -> Option<String> {
    statement_lines(json).into_iter().next()
}

/// The lines of the statement a record raises at, from its source window: its line and
/// those its open brackets carry on to, at most [`STATEMENT_LINES`].
fn statement_lines(json: &str) -> Vec<String> {
    let Ok(w) = serde_json::from_str::<Window>(json) else {
        return Vec::new();
    };
    let Some(at) = w.line_number.checked_sub(w.source_code_start) else {
        return Vec::new();
    };
    let mut open = 0i32;
    let mut out = Vec::new();
    for line in w
        .source_code
        .lines()
        .skip(at as usize)
        .take(STATEMENT_LINES as usize)
    {
        out.push(line.to_owned());
        for c in line.chars() {
            match c {
                '(' | '[' | '{' => open += 1,
                ')' | ']' | '}' => open -= 1,
                _ => {}
            }
        }
        if open <= 0 {
            break;
        }
    }
    out
}

fn answer(store: &Store, entries: &[MatchEntry], hits: &[Hit]) -> errata_store::Result<Answer> {
    let mut matches = Vec::with_capacity(hits.len());
    for h in hits {
        let id = &entries[h.entry].id;
        // A record deleted since the matcher was built is left out.
        let Some(json) = store.record_json(id)? else {
            continue;
        };
        let Ok(record) = RawValue::from_string(json) else {
            tracing::warn!(id, "a stored record is not JSON; re-index its file");
            continue;
        };
        matches.push(Match {
            score: h.score,
            exact: h.exact,
            approximate: h.approximate,
            by_frame: h.by_frame,
            by_code: false,
            captures: h
                .captures
                .iter()
                .map(|c| Capture {
                    name: c.name.clone(),
                    value: c.value.clone(),
                })
                .collect(),
            record,
        });
    }
    Ok(Answer { matches })
}

/// The file names, lines and function names of the frames of a text's traces, at most 64.
fn frame_lines(segments: &[errata_matcher::Segment]) -> Vec<(String, u32, Option<String>)> {
    let mut out: Vec<(String, u32, Option<String>)> = Vec::new();
    for f in segments.iter().flat_map(|s| &s.frames) {
        let Some(line) = f.line else { continue };
        let name = errata_matcher::trace::file_name(&f.file).to_owned();
        if !out.iter().any(|(n, l, _)| *n == name && *l == line) {
            let function = f
                .function
                .as_deref()
                .map(|f| errata_matcher::trace::function_name(f).to_owned());
            out.push((name, line, function));
        }
        if out.len() == 64 {
            break;
        }
    }
    out
}

/// The distinct words of a text, as the store's anchors are cut; escapes of a JSON or logfmt
/// envelope (`\n`, `\"`) do not glue words together.
pub fn words(text: &str) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    errata_model::words(text)
        .flat_map(|w| {
            // `\nInvalid` reads as the word `nInvalid`; its tail is a word too.
            let tail = w
                .strip_prefix(['n', 't', 'r'])
                .filter(|t| t.starts_with(char::is_uppercase));
            std::iter::once(w).chain(tail)
        })
        .filter(|w| seen.insert(*w))
        .take(4096)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_see_through_escapes() {
        assert_eq!(
            words(r#"{"msg":"oops\nInvalid user \"bob\""} Invalid"#),
            ["msg", "oops", "nInvalid", "Invalid", "user", "bob"]
        );
    }

    #[test]
    fn a_code_is_stated_on_a_line_of_its_own_and_fits_a_code_made_with_values() {
        let text = "$ npm i x\nnpm ERR! code E404\nnpm error code EJSONPARSE\n  code: 'ENOENT',\n  \"code\": \"ERR_X\"\nthe code of x\ncode e404\n";
        assert_eq!(
            stated_codes(text),
            ["E404", "EJSONPARSE", "ENOENT", "ERR_X"]
        );
        assert!(code_fits("E${res.status}", "E404"));
        assert!(code_fits("ERR_${kind}_FAILED", "ERR_READ_FAILED"));
        assert!(code_fits("EOTP", "EOTP"));
        assert!(!code_fits("EOTP", "E404"));
        assert!(!code_fits("E${res.status}", "E"));
        assert!(!code_fits("E${res.status}", "X404"));
        assert!(!code_fits("E${res.status}", "EOTHER"));
        assert!(!code_fits("ERR_${kind}_FAILED", "ERR_READ_DONE"));
    }
}
