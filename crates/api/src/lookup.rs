//! Answers to "which record produced this text?", the same for `errata explain --json`, the
//! HTTP API and the MCP server.

use errata_matcher::{Hit, Matcher};
use errata_model::Record;
use errata_store::{Store, WordCounts};
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
    pub captures: Vec<Capture>,
    /// The record as stored: passed through without being decoded and encoded again.
    pub record: Box<RawValue>,
}

impl Match {
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
    let at: Vec<(&str, u32)> = frames.iter().map(|(f, l)| (f.as_str(), *l)).collect();
    let framed = store.match_rows_at(&at)?;
    if !framed.is_empty() {
        let known: std::collections::HashSet<String> = rows.iter().map(|r| r.id.clone()).collect();
        rows.extend(framed.into_iter().filter(|r| !known.contains(&r.id)));
    }
    let (matcher, _) = Matcher::new(rows);
    let hits = matcher.explain_segments(&segments, candidates(text, limit));
    if !hits.is_empty() {
        return quoted_first(answer(store, &matcher, &hits)?, text, limit);
    }
    approximate(store, None, text, &words, limit)
}

/// Matches `text` with a matcher built once over every record, and the word counts of the
/// message index read once: the way for a server.
pub fn explain_with(
    store: &Store,
    matcher: &Matcher,
    counts: &WordCounts,
    text: &str,
    limit: usize,
) -> errata_store::Result<Answer> {
    let hits = matcher.explain(text, candidates(text, limit));
    if !hits.is_empty() {
        return quoted_first(answer(store, matcher, &hits)?, text, limit);
    }
    approximate(store, Some(counts), text, &words(text), limit)
}

fn approximate(
    store: &Store,
    counts: Option<&WordCounts>,
    text: &str,
    words: &[&str],
    limit: usize,
) -> errata_store::Result<Answer> {
    // Words of one or two letters are in most messages and say little.
    let long: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| w.chars().count() > 2)
        .take(64)
        .collect();
    let candidates = store.similar_rows_counted(&long, SIMILAR_CANDIDATES, counts)?;
    let (matcher, _) = Matcher::new(candidates);
    let hits = matcher.similar(text, limit);
    answer(store, &matcher, &hits)
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
        let quoted = |m: &Match| raising_line(m).is_some_and(|l| lines.contains(l.trim()));
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

/// The source line a record raises at, from its source window.
fn raising_line(m: &Match) -> Option<String> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Window {
        source_code: String,
        source_code_start: u32,
        line_number: u32,
    }
    let w: Window = serde_json::from_str(m.record.get()).ok()?;
    let at = w.line_number.checked_sub(w.source_code_start)?;
    w.source_code.lines().nth(at as usize).map(str::to_owned)
}

fn answer(store: &Store, matcher: &Matcher, hits: &[Hit]) -> errata_store::Result<Answer> {
    let mut matches = Vec::with_capacity(hits.len());
    for h in hits {
        let id = &matcher.entries()[h.entry].id;
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

/// The file names and lines of the frames of a text's traces, at most 64.
fn frame_lines(segments: &[errata_matcher::Segment]) -> Vec<(String, u32)> {
    let mut out: Vec<(String, u32)> = Vec::new();
    for f in segments.iter().flat_map(|s| &s.frames) {
        let Some(line) = f.line else { continue };
        let name = errata_matcher::trace::file_name(&f.file).to_owned();
        if !out.iter().any(|(n, l)| *n == name && *l == line) {
            out.push((name, line));
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
}
