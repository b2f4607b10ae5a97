//! The matcher: every template, one automaton over their key fragments, and the ranking.

use std::sync::OnceLock;

use errata_model::MatchEntry;
use rayon::prelude::*;

use crate::input::{self, Line};
use crate::prefilter::Prefilter;
use crate::signature::Signature;
use crate::similar;
use crate::template::{self, Refused, Shape};
use crate::trace::{function_name, function_owner, same_dir, same_file, Frame};

/// Text beyond this many bytes of a line is not matched: no error message is that long, and
/// the bound keeps a 10 MB line from costing more than a normal one.
pub const MAX_TEXT: usize = 64 * 1024;

/// How many layers of a composed message are looked through ([`Matcher::inner_layer_first`]),
/// and the least literal text an inner layer's template has.
const MAX_LAYERS: usize = 3;
const MIN_INNER_LITERAL: usize = 8;

/// The literal text an inner layer of another package needs (see [`package_of`]).
const MIN_FOREIGN_LITERAL: usize = 24;

/// Up to this many candidate templates are searched for without first comparing their
/// literal windows with the line's ([`Signature`]).
const FEW_CANDIDATES: usize = 2;

/// The text one placeholder took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// The placeholder in source form (`{name}`, `${id}`, `%s`).
    pub name: String,
    pub value: String,
}

/// One record that matched.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Hit {
    /// The record's index in the entries the matcher was built from.
    pub entry: usize,
    /// 0.5 to 1 for a real match, growing with the share of the message that is the template's
    /// literal text (so a better ranked match never scores lower); below 0.5 for an approximate
    /// one.
    pub score: f64,
    /// The template accounts for the whole message.
    pub exact: bool,
    /// Found by similarity, not by the template.
    pub approximate: bool,
    pub captures: Vec<Capture>,
    /// How strongly the stack frames point at this record (0: not at all).
    pub frame_evidence: u32,
    /// The class or code in front of the message is this record's.
    pub class_matches: bool,
    /// Found by a stack frame alone: the innermost frame of the trace that is at a record's
    /// line, whatever the message says (a dynamic message, or none).
    pub by_frame: bool,
    /// The record is in test code, which a runtime error is less likely to come from than the
    /// code under test when both word it alike.
    in_tests: bool,
    literal_len: usize,
    /// The template that matched (none for a hit by frame or similarity).
    template: Option<u32>,
    /// Where the captures are until they are written out: the template, which of the line's
    /// texts it matched and the range each hole took.
    found: Option<(u32, u32, Vec<std::ops::Range<usize>>)>,
    /// Which part of the pasted text it was found in.
    segment: usize,
}

/// What loading the entries gave.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LoadReport {
    pub entries: usize,
    /// Distinct templates the matcher runs.
    pub templates: usize,
    /// Records whose template has too little literal text to be matched on its own.
    pub vague: usize,
    /// Records whose pattern is not errata's form and was compiled as a regex.
    pub regex: usize,
    /// Records whose pattern was refused (invalid or too large), with the reason.
    pub refused: Vec<(String, String)>,
}

/// A message to match.
#[derive(Debug, Clone, Copy)]
pub struct Query<'a> {
    /// The raw line or message.
    pub text: &'a str,
    /// Frames of its stack trace, innermost first.
    pub frames: &'a [Frame],
}

struct Template {
    shape: Shape,
    literal_len: usize,
    /// Its literal text is one word (`Error`, `index`, `error: {}`): found inside a longer
    /// message it says nothing, so it matches only a whole message or where the stack frames
    /// point at its record.
    one_word: bool,
    /// The first line of a record's message of several lines ([`Shape::first_line`]): never an
    /// exact match, and its last hole, the lines not seen, is no value.
    head: bool,
    /// Entries with this pattern.
    entries: Vec<u32>,
    /// The source form of each placeholder, read from the first entry's message when a match
    /// first needs them.
    names: OnceLock<Vec<String>>,
}

/// Every record's template, ready to match.
pub struct Matcher {
    entries: Vec<MatchEntry>,
    templates: Vec<Template>,
    prefilter: Prefilter,
    /// Each template's literal windows, apart from the templates so that rejecting one reads
    /// one line of cache.
    signatures: Vec<Signature>,
    /// Fragment id → templates whose key it is.
    by_key: Vec<Vec<u32>>,
    /// Templates without a literal key, tried on every text.
    unkeyed: Vec<u32>,
    /// Whether each entry is in test code ([`errata_model::is_test_path`]), read once.
    in_tests: Vec<bool>,
    /// Line → the entries there, for the frames of a trace.
    by_line: foldhash::HashMap<u32, Vec<u32>>,
    /// Function name → the entries raising in a function of that name, for the frames of a
    /// trace from another release.
    by_function: foldhash::HashMap<Box<str>, Vec<u32>>,
    /// Record id → its entry, made the first time one is asked for.
    by_id: OnceLock<foldhash::HashMap<Box<str>, u32>>,
}

impl Template {
    fn new(shape: Shape, entries: Vec<u32>, head: bool) -> Template {
        Template {
            literal_len: shape.literal_len(),
            one_word: shape.words() <= 1,
            head,
            shape,
            entries,
            names: OnceLock::new(),
        }
    }
}

impl Matcher {
    /// Builds the matcher. Entries whose pattern cannot be used are counted in the report and
    /// left out.
    pub fn new(entries: Vec<MatchEntry>) -> (Matcher, LoadReport) {
        let mut report = LoadReport {
            entries: entries.len(),
            ..LoadReport::default()
        };
        // Records that share a pattern share its template: the first of them compiles it.
        let mut sharing: Vec<Vec<u32>> = Vec::new();
        let mut by_pattern: foldhash::HashMap<&str, u32> = foldhash::HashMap::default();
        for (i, e) in entries.iter().enumerate() {
            let t = *by_pattern.entry(e.pattern.as_str()).or_insert_with(|| {
                sharing.push(Vec::new());
                (sharing.len() - 1) as u32
            });
            sharing[t as usize].push(i as u32);
        }
        drop(by_pattern);
        // Compiled on every core: at 50,000 records this is most of the time a scan takes to
        // start.
        let compiled: Vec<Result<Shape, Refused>> = sharing
            .par_iter()
            .map(|with| Shape::compile(&entries[with[0] as usize].pattern))
            .collect();
        let mut shapes = Vec::with_capacity(compiled.len());
        for (result, with) in compiled.into_iter().zip(sharing) {
            match result {
                Ok(shape) => {
                    if matches!(shape, Shape::Regex(_)) {
                        report.regex += 1;
                    }
                    shapes.push((shape, with));
                }
                Err(Refused::TooVague) => report.vague += with.len(),
                Err(r) => {
                    let reason = r.to_string();
                    report.refused.extend(
                        with.iter()
                            .map(|&e| (entries[e as usize].id.clone(), reason.clone())),
                    );
                }
            }
        }
        let mut templates: Vec<Template> = shapes
            .into_par_iter()
            .map(|(shape, with)| Template::new(shape, with, false))
            .collect();
        report.templates = templates.len();
        // The first line of each message of several lines, with the same records.
        let heads: Vec<Template> = templates
            .par_iter()
            .filter_map(|t| {
                Some(Template::new(
                    t.shape.first_line()?,
                    t.entries.clone(),
                    true,
                ))
            })
            .collect();
        templates.extend(heads);
        let mut keys: Vec<&str> = Vec::new();
        let mut key_ids: foldhash::HashMap<&str, u32> = foldhash::HashMap::default();
        let mut by_key: Vec<Vec<u32>> = Vec::new();
        let mut unkeyed = Vec::new();
        for (t, template) in templates.iter().enumerate() {
            match template.shape.key() {
                Some(k) => {
                    let id = *key_ids.entry(k).or_insert_with(|| {
                        keys.push(k);
                        by_key.push(Vec::new());
                        (keys.len() - 1) as u32
                    });
                    by_key[id as usize].push(t as u32);
                }
                None => unkeyed.push(t as u32),
            }
        }
        let prefilter = Prefilter::new(keys.iter().map(|k| k.as_bytes().into()).collect());
        let signatures = templates
            .par_iter()
            .map(|t| Signature::of_literals(t.shape.literals().iter().map(|l| &**l)))
            .collect();
        drop(key_ids);
        // A file's records are next to each other in store order: its path is read once.
        let mut last: Option<(&str, bool)> = None;
        let in_tests = entries
            .iter()
            .map(|e| match last {
                Some((path, test)) if path == e.file_path => test,
                _ => {
                    let test = errata_model::is_test_path(&e.file_path);
                    last = Some((&e.file_path, test));
                    test
                }
            })
            .collect();
        let mut by_line: foldhash::HashMap<u32, Vec<u32>> = foldhash::HashMap::default();
        let mut by_function: foldhash::HashMap<Box<str>, Vec<u32>> = foldhash::HashMap::default();
        for (i, e) in entries.iter().enumerate() {
            by_line.entry(e.line_number).or_default().push(i as u32);
            if let Some(f) = &e.function {
                match by_function.get_mut(f.as_str()) {
                    Some(list) => list.push(i as u32),
                    None => {
                        by_function.insert(f.as_str().into(), vec![i as u32]);
                    }
                }
            }
        }
        let matcher = Matcher {
            by_line,
            by_function,
            by_id: OnceLock::new(),
            entries,
            templates,
            prefilter,
            signatures,
            by_key,
            unkeyed,
            in_tests,
        };
        (matcher, report)
    }

    pub fn entries(&self) -> &[MatchEntry] {
        &self.entries
    }

    /// The entry of the record `id`, if the matcher was built over it.
    pub fn entry(&self, id: &str) -> Option<&MatchEntry> {
        let by_id = self.by_id.get_or_init(|| {
            self.entries
                .iter()
                .enumerate()
                .map(|(i, e)| (e.id.as_str().into(), i as u32))
                .collect()
        });
        by_id.get(id).map(|&i| &self.entries[i as usize])
    }

    /// Whether the automaton finds any template's key in `text`: a cheap first look.
    pub fn may_match(&self, text: &str) -> bool {
        let text = clip(text);
        !self.unkeyed.is_empty() || self.prefilter.is_match(text.as_bytes())
    }

    /// The records whose template matches the query, best first, at most `limit`, with the
    /// values their placeholders took.
    pub fn find(&self, query: Query<'_>, limit: usize) -> Vec<Hit> {
        self.find_with(query, limit, true)
    }

    /// As [`Matcher::find`], without the placeholders' values (`captures` stays empty): for a
    /// caller that does not show them, such as `scan --json`.
    pub fn find_ranked(&self, query: Query<'_>, limit: usize) -> Vec<Hit> {
        self.find_with(query, limit, false)
    }

    fn find_with(&self, query: Query<'_>, limit: usize, captures: bool) -> Vec<Hit> {
        let raw = clip(query.text);
        let mut candidates = self.candidates(raw);
        candidates.sort_unstable();
        candidates.dedup();
        // Without a backslash no envelope escapes anything, so every text the line is read
        // into is a part of it: a template whose literals are not in the whole line is found
        // in none, and the envelope's message has no key the line has not.
        let plain = memchr::memchr(b'\\', raw.as_bytes()).is_none();
        if plain {
            self.keep_found(&mut candidates, raw);
            // A one-word template matches a whole message or where a frame points (see
            // `verify`): without frames, one that cannot end the line's message is not read
            // for. Most lines that hold `start`, `index` or `flush` say more after it.
            if query.frames.is_empty() {
                candidates.retain(|&t| self.may_end_a_message(t as usize, raw));
            }
            if candidates.is_empty() {
                return Vec::new();
            }
        }
        let line = input::read_line(raw);
        // A JSON or logfmt envelope decodes escapes, so its message is searched too.
        if !plain {
            if let Some(m) = &line.envelope {
                candidates.extend(self.candidates(m));
                candidates.sort_unstable();
                candidates.dedup();
            }
        }
        let mut hits = Vec::new();
        for t in candidates {
            self.verify(t as usize, &line, query.frames, &mut hits);
        }
        rank(&mut hits, &self.entries);
        // A record whose message has several lines matches by its head too: keep the better.
        if hits.len() > 1 {
            let mut seen = foldhash::HashSet::default();
            hits.retain(|h| seen.insert(h.entry));
        }
        hits.truncate(limit);
        for h in &mut hits {
            if captures {
                self.write_captures(h, &line);
            } else {
                h.found = None;
            }
        }
        hits
    }

    /// Matches a pasted text: a message, a log excerpt or a stack trace, of one or many lines.
    /// Each message in it is matched with the frames of its trace; the best records come first,
    /// at most `limit`. When nothing matches, [`Matcher::similar`] finds the nearest.
    pub fn explain(&self, text: &str, limit: usize) -> Vec<Hit> {
        self.explain_segments(&crate::trace::segments(text), limit)
    }

    /// [`Matcher::explain`] of a text already grouped ([`crate::trace::segments`]).
    pub fn explain_segments(&self, segments: &[crate::trace::Segment], limit: usize) -> Vec<Hit> {
        let mut hits: Vec<Hit> = Vec::new();
        for (i, seg) in segments.iter().enumerate() {
            let mut found = self.find(
                Query {
                    text: &seg.text,
                    frames: &seg.frames,
                },
                usize::MAX,
            );
            let class = seg
                .text
                .lines()
                .next()
                .and_then(|first| input::read_line(first).class);
            let mut framed = self.at_innermost_frame(&seg.frames, class.as_deref(), &found);
            for h in found.iter_mut().chain(framed.iter_mut()) {
                h.segment = i;
            }
            hits.extend(found);
            hits.extend(framed);
        }
        rank(&mut hits, &self.entries);
        let mut seen = std::collections::HashSet::new();
        hits.retain(|h| seen.insert(h.entry));
        self.head_of_the_block_first(&mut hits);
        self.inner_layer_first(&mut hits);
        self.raise_around_text_first(&mut hits, segments);
        hits.truncate(limit);
        hits
    }

    /// Messages the code writes one after another, pasted as the lines they are (npm's
    /// `log.error` of "Exit handler never called!", then of "This is an error with npm
    /// itself…"): the first the code writes says what happened, the others are its words
    /// around it, however long. It comes first when the best match is one of the block.
    fn head_of_the_block_first(&self, hits: &mut Vec<Hit>) {
        const BLOCK_LINES: u32 = 4;
        let Some(top) = hits.first() else { return };
        if !top.exact || top.template.is_none() {
            return;
        }
        let at = &self.entries[top.entry];
        let head = hits
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, h)| {
                let e = &self.entries[h.entry];
                h.exact
                    && h.template.is_some()
                    && h.segment != top.segment
                    && trace_tier(h) == trace_tier(top)
                    && e.file_path == at.file_path
                    && e.line_number < at.line_number
                    && at.line_number - e.line_number <= BLOCK_LINES
            })
            .min_by_key(|(_, h)| self.entries[h.entry].line_number)
            .map(|(i, _)| i);
        if let Some(i) = head {
            let h = hits.remove(i);
            hits.insert(0, h);
        }
    }

    /// A message made of layers (`Failed to parse page JSON data: expected value at line 1
    /// column 1`, each written by another `Display`): when what a placeholder of the best
    /// match took is itself the message of another record, that record is where the error
    /// began, and comes first. Layer by layer, down to the innermost errata has a record of.
    fn inner_layer_first(&self, hits: &mut Vec<Hit>) {
        // The layers already on top: an inner layer's last placeholder may take the text of
        // the layer around it (`invalid type: {}, expected {}` took "a string at line 1
        // column 40"), which is not a layer inside it.
        let mut outer = Vec::with_capacity(MAX_LAYERS);
        for _ in 0..MAX_LAYERS {
            let Some(top) = hits.first() else { return };
            if top.template.is_none() || top.captures.is_empty() {
                return;
            }
            outer.push(top.template);
            let mine = package_of(&self.entries[top.entry].file_path);
            let inner = hits.iter().skip(1).position(|h| {
                let Some(t) = h.template.filter(|&t| !outer.contains(&Some(t))) else {
                    return false;
                };
                // All that a placeholder took, or all after a `: ` in it: the words of a
                // layer between (`Event loop broke: invalid type: …`). A short template of
                // another package installed beside it (cargo-platform's `expected {}, found
                // {}`, after the `invalid character: ` of uuid's `UUID parsing failed: {}`) is
                // no layer found between others; it is when it is all a placeholder took
                // (serde's `missing field` inside serde_json's position).
                let its = package_of(&self.entries[h.entry].file_path);
                let foreign = mine.is_some() && its.is_some() && mine != its;
                let between = !foreign || h.literal_len >= MIN_FOREIGN_LITERAL;
                let inside = |outer: &Hit, inner: &Hit, t: u32| {
                    let shape = &self.templates[t as usize].shape;
                    outer.captures.iter().any(|c| {
                        c.value.len() >= inner.literal_len
                            && std::iter::once(c.value.as_str())
                                .chain(
                                    c.value
                                        .match_indices(": ")
                                        .map(|(i, _)| &c.value[i + 2..])
                                        .filter(|_| between),
                                )
                                .take(MAX_LAYERS + 1)
                                .any(|v| shape.find(v).is_some_and(|f| f.exact))
                    })
                };
                // A wrapper that begins with what it wraps (`{} at line {} column {}`) and a
                // message that begins with words of its own, each found in the other's
                // placeholders (`invalid type: {}, expected {}`'s last one took "a string at
                // line 1 column 40"): the message is the inner layer.
                let starts_open = |h: &Hit| self.entries[h.entry].message.starts_with('{');
                let around = |a: &Hit, b: &Hit| {
                    starts_open(a) && !starts_open(b) && a.template.is_some_and(|o| inside(b, a, o))
                };
                h.literal_len >= MIN_INNER_LITERAL
                    && !is_sentinel(&self.entries[h.entry])
                    && trace_tier(h) >= trace_tier(top)
                    && ((inside(top, h, t) && !around(h, top)) || around(top, h))
            });
            match inner {
                Some(i) => {
                    let h = hits.remove(i + 1);
                    hits.insert(0, h);
                }
                None => return,
            }
        }
    }

    /// A type's own text (its `Display`, `Error()`, `__str__`) found inside the value a
    /// Rust panic printed after its message (`failed to set global default subscriber:
    /// SetGlobalDefaultError("a global default trace dispatcher has already been set")`, what
    /// `.expect(…)` prints of an `Err`): the type's text only words the value the panic was
    /// handed; the panic around it is where the program stopped, and comes first.
    fn raise_around_text_first(&self, hits: &mut Vec<Hit>, segments: &[crate::trace::Segment]) {
        let Some(top) = hits.first() else { return };
        let Some(t) = top.template else { return };
        if !is_text_of_type(&self.entries[top.entry]) {
            return;
        }
        let shape = &self.templates[t as usize].shape;
        let around = hits.iter().skip(1).position(|h| {
            let e = &self.entries[h.entry];
            let Some(text) = segments.get(h.segment).map(|s| s.text.as_str()) else {
                return false;
            };
            h.template.is_some_and(|o| o != t)
                && e.file_path.ends_with(".rs")
                && !is_text_of_type(e)
                && trace_tier(h) >= trace_tier(top)
                && h.literal_len >= MIN_INNER_LITERAL
                && !e.message.contains('{')
                && text
                    .match_indices(&format!("{}: ", e.message))
                    .any(|(at, m)| {
                        let value = text[at + m.len()..].trim_start();
                        debug_of_a_type(value) && shape.find(value).is_some()
                    })
        });
        if let Some(i) = around {
            let h = hits.remove(i + 1);
            hits.insert(0, h);
        }
    }

    /// The records at the line of the innermost frame that is at one (a frame of the code
    /// the records are of, where its error was raised), other than those already `found`. The
    /// innermost frame of all, where the error was made, names by its function when it is of
    /// another release, whose lines have moved: the records of the trace's `class` that raise
    /// in the frame's function of that file. An outer frame's function only called on.
    fn at_innermost_frame(&self, frames: &[Frame], class: Option<&str>, found: &[Hit]) -> Vec<Hit> {
        let class = class.filter(|c| is_specific_class(c)).map(last_segment);
        for (i, f) in frames.iter().take(32).enumerate() {
            let in_file = |e: &u32| same_file(&f.file, &self.entries[*e as usize].file_path);
            let mut here: Vec<u32> = f
                .line
                .and_then(|line| self.by_line.get(&line))
                .map(|at| at.iter().copied().filter(in_file).collect())
                .unwrap_or_default();
            if here.is_empty() && i == 0 {
                let (Some(class), Some(function)) = (class, &f.function) else {
                    continue;
                };
                here = self
                    .by_function
                    .get(function_name(function))
                    .map(|at| {
                        at.iter()
                            .copied()
                            .filter(in_file)
                            .filter(|&e| in_function(function, &self.entries[e as usize]))
                            .filter(|&e| {
                                self.entries[e as usize]
                                    .error_class
                                    .as_deref()
                                    .is_some_and(|c| last_segment(c) == class)
                            })
                            .collect()
                    })
                    .unwrap_or_default();
            }
            if here.is_empty() {
                continue;
            }
            return here
                .into_iter()
                .filter(|&e| found.iter().all(|h| h.entry != e as usize))
                .map(|e| Hit {
                    entry: e as usize,
                    score: 0.5,
                    frame_evidence: frame_evidence(&self.entries[e as usize], frames),
                    by_frame: true,
                    in_tests: self.in_tests[e as usize],
                    ..Hit::default()
                })
                .collect();
        }
        Vec::new()
    }

    /// Records whose message resembles the text's, for when nothing matches: approximate,
    /// scored below every real match. For a multi-line text, each of its first messages is
    /// compared (`npm ERR! code EOVERRIDE` comes before the message it names), and a template
    /// scores as the message it resembles most.
    pub fn similar(&self, text: &str, limit: usize) -> Vec<Hit> {
        similar_hits(
            text,
            || self.templates.iter().map(|t| t.shape.literals()),
            |t| &self.templates[t].entries,
            limit,
        )
    }

    /// Keeps the candidate templates that may be found in `text` or in a part of it.
    fn keep_found(&self, candidates: &mut Vec<u32>, text: &str) {
        // With a few candidates, the text's windows cost more than they save.
        let windows =
            (candidates.len() > FEW_CANDIDATES).then(|| Signature::of_text(text.as_bytes()));
        candidates.retain(|&t| {
            windows
                .as_ref()
                .is_none_or(|w| w.covers(&self.signatures[t as usize]))
                && self.templates[t as usize].shape.may_be_in(text)
        });
    }

    /// Whether template `t` may be found as a whole message in the line `raw` (that has no
    /// backslash): true but for a one-word template without a hole after its word, whose word
    /// must then stand at the end of the line's message somewhere in it: not glued to a word
    /// before it (unless a hole is there), and followed by nothing but the line's end, a
    /// quote (a JSON or quoted value), a colon (`X: null`, a class alone) or logfmt's next
    /// `key=`.
    fn may_end_a_message(&self, t: usize, raw: &str) -> bool {
        let template = &self.templates[t];
        let Shape::Fragments {
            literals,
            lead,
            trail: false,
        } = &template.shape
        else {
            return true;
        };
        let [word] = &literals[..] else {
            return true;
        };
        if !template.one_word || template.head {
            return true;
        }
        let (word, bytes) = (word.trim(), raw.as_bytes());
        if word.is_empty() {
            return true;
        }
        let glued = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        memchr::memmem::find_iter(bytes, word.as_bytes()).any(|at| {
            if !lead && at > 0 && glued(bytes[at - 1]) {
                return false;
            }
            let after = &raw[at + word.len()..];
            let next = after.trim_start();
            match next.as_bytes().first() {
                None | Some(b'"' | b'\'' | b':') => true,
                Some(_) if next.len() < after.len() => {
                    let key_end = next
                        .find(|c: char| {
                            !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
                        })
                        .unwrap_or(next.len());
                    key_end > 0 && next[key_end..].starts_with('=')
                }
                Some(_) => false,
            }
        })
    }

    fn candidates(&self, text: &str) -> Vec<u32> {
        let mut out: Vec<u32> = self.unkeyed.clone();
        self.prefilter.for_each(text.as_bytes(), |k| {
            out.extend_from_slice(&self.by_key[k as usize]);
        });
        out
    }

    fn verify(&self, t: usize, line: &Line, frames: &[Frame], hits: &mut Vec<Hit>) {
        let template = &self.templates[t];
        // The most stripped text where the template is exact; else the most stripped where it
        // is found at all.
        let mut best: Option<(usize, template::Found)> = None;
        for (i, text) in line.texts().enumerate() {
            if let Some(found) = template.shape.find(text) {
                let exact = found.exact;
                if best.is_none() || exact {
                    best = Some((i, found));
                }
                if exact {
                    break;
                }
            }
        }
        // `java.util.ConcurrentModificationException` (or `…: null`): an error without a
        // message prints its class alone, which is the whole of a record made of the class.
        if best.is_none() && template.one_word && is_class_alone(line, template) {
            let whole = line.texts().len() - 1;
            best = Some((
                whole,
                template::Found {
                    exact: true,
                    holes: Vec::new(),
                },
            ));
        }
        let Some((text, mut found)) = best else {
            return;
        };
        found.exact &= !template.head;
        let weak = template.one_word && !found.exact;
        // Measured against the same text for every template, so that the score orders matches
        // as their literal text does, whichever text each was found in.
        let message = line.message().len();
        let coverage =
            template.literal_len as f64 / message.max(template.literal_len).max(1) as f64;
        let score = round(0.5 + 0.5 * coverage);
        // A one-word message (`null`, `closed`) is no evidence against the class the line names
        // in front of it: `UnsupportedOperationException: null` is not an
        // `AttributeNotFoundException("null")`, and `ValueError: invalid literal for int()…`
        // is not Go's classless `fmt.Errorf("invalid %s: %v", …)`. (A template that words the
        // class itself, `"SQLException: " + e.getMessage()`, matches the text that holds it;
        // a generic `Error:` or `panic:` may stand in front of an error of any class.)
        let outside = line
            .class
            .as_deref()
            .filter(|c| template.one_word && !line.text(text).contains(c));
        let (class_outside, named_class) =
            (outside.is_some(), outside.is_some_and(is_specific_class));
        for &e in &template.entries {
            let entry = &self.entries[e as usize];
            let frame_evidence = frame_evidence(entry, frames);
            let class_matches = class_matches(entry, line);
            let other_class =
                class_outside && !class_matches && (entry.error_class.is_some() || named_class);
            if (weak || other_class) && frame_evidence == 0 {
                continue;
            }
            hits.push(Hit {
                entry: e as usize,
                score,
                exact: found.exact,
                approximate: false,
                captures: Vec::new(),
                frame_evidence,
                class_matches,
                by_frame: false,
                in_tests: self.in_tests[e as usize],
                literal_len: template.literal_len,
                template: Some(t as u32),
                found: Some((t as u32, text as u32, found.holes.clone())),
                segment: 0,
            });
        }
    }

    /// Names and values of the placeholders of a hit that is kept (naming them costs more than
    /// matching, so it is done once a template, and not for the hits ranked out).
    fn write_captures(&self, hit: &mut Hit, line: &Line) {
        let Some((t, text, mut holes)) = hit.found.take() else {
            return;
        };
        let template = &self.templates[t as usize];
        if template.head {
            holes.pop();
        }
        let text = line.text(text as usize);
        // Records that share a pattern may name its holes apart (`Expected {expected}` and
        // `Expected {token}`): each hit's names are its own record's. The first record's are
        // kept, the others worked out when asked for.
        let first = &self.entries[template.entries[0] as usize];
        let own = &self.entries[hit.entry];
        let named_apart;
        let names = if own.message == first.message {
            template
                .names
                .get_or_init(|| template::placeholder_names(&template.shape, &first.message))
        } else {
            named_apart = template::placeholder_names(&template.shape, &own.message);
            &named_apart
        };
        hit.captures = holes
            .iter()
            .enumerate()
            .map(|(i, r)| Capture {
                name: names
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("{{{}}}", i + 1)),
                value: text[r.clone()].to_owned(),
            })
            .collect();
    }
}

/// Whether the line names a class and no message (`X`, `X: null`), and the template is that
/// class's name.
fn is_class_alone(line: &Line, template: &Template) -> bool {
    line.class.as_deref().is_some_and(|c| {
        matches!(line.message().trim(), "" | "null")
            && template.shape.literals() == [c.rsplit(['.', '$']).next().unwrap_or(c).into()]
    })
}

/// How many messages of a pasted text are compared for an approximate match.
const SIMILAR_MESSAGES: usize = 8;

/// The messages among `entries` nearest to `text` by similarity, marked approximate: what
/// [`Matcher::similar`] answers over them, without building a matcher (no prefilter, no
/// regex) for candidates that are compared once. Hits index `entries`.
pub fn nearest(entries: &[MatchEntry], text: &str, limit: usize) -> Vec<Hit> {
    let mut by_pattern: foldhash::HashMap<&str, usize> = foldhash::HashMap::default();
    let mut shapes: Vec<(Shape, Vec<u32>)> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if let Some(&t) = by_pattern.get(e.pattern.as_str()) {
            shapes[t].1.push(i as u32);
        } else if let Some(shape) = Shape::fragments(&e.pattern) {
            by_pattern.insert(&e.pattern, shapes.len());
            shapes.push((shape, vec![i as u32]));
        }
    }
    // The first line of each message of several lines, as the matcher keeps it.
    let heads: Vec<(Shape, Vec<u32>)> = shapes
        .iter()
        .filter_map(|(s, with)| Some((s.first_line()?, with.clone())))
        .collect();
    shapes.extend(heads);
    similar_hits(
        text,
        || shapes.iter().map(|(s, _)| s.literals()),
        |t| &shapes[t].1,
        limit,
    )
}

/// The approximate hits for `text`: up to [`SIMILAR_MESSAGES`] messages of it (a paste may
/// hold several) compared with the literal text of each template, the best similarity of any
/// message counting for a template, then every record of each template in that order.
fn similar_hits<'a, I: Iterator<Item = &'a [Box<str>]>>(
    text: &str,
    templates: impl Fn() -> I,
    entries_of: impl Fn(usize) -> &'a [u32],
    limit: usize,
) -> Vec<Hit> {
    let mut grouper = crate::trace::Grouper::new();
    let mut messages: Vec<String> = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| grouper.push(i as u64 + 1, l))
        .take(SIMILAR_MESSAGES)
        .map(|s| s.text)
        .collect();
    if messages.len() < SIMILAR_MESSAGES {
        messages.extend(grouper.finish().map(|s| s.text));
    }
    if messages.is_empty() {
        messages.push(text.to_owned());
    }
    let mut scored: Vec<(usize, f64)> = Vec::new();
    for m in &messages {
        let line = input::read_line(clip(m));
        for (t, sim) in similar::best(line.message(), templates(), limit) {
            match scored.iter_mut().find(|(u, _)| *u == t) {
                Some(s) => s.1 = s.1.max(sim),
                None => scored.push((t, sim)),
            }
        }
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut hits = Vec::new();
    for (t, sim) in scored {
        for &e in entries_of(t) {
            hits.push(Hit {
                entry: e as usize,
                score: round(0.5 * sim),
                approximate: true,
                ..Hit::default()
            });
        }
    }
    hits.truncate(limit);
    hits
}

/// A Go sentinel (`var ErrSyntax = errors.New("invalid syntax")`): one value that many errors
/// wrap as their cause, so the layer around it (`strconv.Atoi: parsing "x": invalid syntax`,
/// from `&NumError{…}`) is where the error was made.
fn is_sentinel(e: &MatchEntry) -> bool {
    // A package-level `var` of Go is one, whatever its name (`http2errRequestCanceled`).
    if e.function.is_none() && e.file_path.ends_with(".go") {
        return true;
    }
    e.error_class.as_deref().is_some_and(|c| {
        let rest = c.strip_prefix("Err").or_else(|| c.strip_prefix("err"));
        rest.is_some_and(|r| r.starts_with(|ch: char| ch.is_ascii_uppercase()))
    })
}

/// A record that is a type's own text, not a raise: the `Display` (`fmt`) of a Rust type or
/// the text its `#[error(…)]` attribute derives, Go's `Error()`, Python's `__str__`, Java's
/// `getMessage()`, JavaScript's `toString()`.
fn is_text_of_type(e: &MatchEntry) -> bool {
    match e.function.as_deref() {
        Some(f) => matches!(
            f,
            "fmt"
                | "Error"
                | "__str__"
                | "__repr__"
                | "getMessage"
                | "getLocalizedMessage"
                | "toString"
        ),
        None => e.file_path.ends_with(".rs") && e.error_class.is_some(),
    }
}

/// Whether a text begins as Rust's `Debug` of a value of a type: `SetGlobalDefaultError("…")`,
/// `Os { code: 2, … }`, `reqwest::Error { … }`.
fn debug_of_a_type(text: &str) -> bool {
    let name_end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    let name = &text[..name_end];
    name.starts_with(|c: char| c.is_ascii_uppercase() || c.is_ascii_lowercase())
        && name
            .rsplit("::")
            .next()
            .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
        && matches!(
            text[name_end..].trim_start().as_bytes().first(),
            Some(b'(' | b'{')
        )
}

/// How much a trace says for a hit: its template matched near a frame's line or in a
/// frame's function (4); the innermost frame at its line (3); its template matched elsewhere
/// in a file on the stack (2); the innermost frame near it (1); nothing (0). A trace is
/// evidence a message is not: the same words are raised in many places, a trace's frames in
/// one. A frame at a record's line says more than a message matched 250 lines away in that
/// file (clap's `panic!("Command {}: Short option names must be unique …")` at the frame's
/// line, beside a `"Command {}: {}"` elsewhere that matches the first line of it).
fn trace_tier(h: &Hit) -> u8 {
    // What `frame_evidence` counts in 64s: 1 the file, 2 or 3 near the line, 4 and more the
    // function.
    let level = h.frame_evidence / 64;
    match (h.by_frame, level) {
        (false, 0) => 0,
        (false, 1) => 2,
        (false, _) => 4,
        (true, 3..) => 3,
        (true, _) => 1,
    }
}

fn rank(hits: &mut [Hit], entries: &[MatchEntry]) {
    // Records equal in all else, one in an internal package (Go's `internal/reflectlite`
    // beside `reflect`, `cmd/go/internal/cmdflag` beside `flag`, the JDK's `jdk/internal/`):
    // the public one, which code outside calls, first.
    let internal = |h: &Hit| {
        entries[h.entry]
            .file_path
            .split('/')
            .any(|segment| segment == "internal")
    };
    // Records equal in all else: the same file of several releases of one package installed
    // side by side (`serde_json-1.0.150/src/error.rs`, `…-1.0.154/…`) rank newest first.
    let release = |h: &Hit| {
        let (path, version) = release_of(&entries[h.entry].file_path);
        (path, std::cmp::Reverse(version))
    };
    hits.sort_by(|a, b| {
        trace_tier(b)
            .cmp(&trace_tier(a))
            .then(b.literal_len.cmp(&a.literal_len))
            .then(b.exact.cmp(&a.exact))
            .then(b.frame_evidence.cmp(&a.frame_evidence))
            .then(b.class_matches.cmp(&a.class_matches))
            .then(a.in_tests.cmp(&b.in_tests))
            .then_with(|| internal(a).cmp(&internal(b)))
            .then_with(|| release(a).cmp(&release(b)))
            .then(a.entry.cmp(&b.entry))
    });
}

/// The folder of one release of a package a record's path is in: `uuid-1.29.3` of
/// `index.crates.io-…/uuid-1.29.3/src/error.rs`, `lodash@4.17.21`; none in a tree of one
/// project.
fn package_of(path: &str) -> Option<&str> {
    path.split('/')
        .find(|part| crate::trace::release_folder(part))
}

/// A path with the release in its folder names taken out, and that release: the numbers of
/// `serde_json-1.0.154/` or `lodash@4.17.21/`.
fn release_of(path: &str) -> (String, Vec<u64>) {
    let mut version = Vec::new();
    let mut rest = String::with_capacity(path.len());
    for (i, part) in path.split('/').enumerate() {
        if i > 0 {
            rest.push('/');
        }
        let split = part
            .rfind(['-', '@'])
            .map(|at| (&part[..at], &part[at + 1..]))
            .filter(|(name, v)| {
                !name.is_empty() && v.starts_with(|c: char| c.is_ascii_digit()) && v.contains('.')
            });
        match split {
            Some((name, v)) if version.is_empty() => {
                version = v
                    .split(|c: char| !c.is_ascii_digit())
                    .map(|n| n.parse().unwrap_or(0))
                    .collect();
                rest.push_str(name);
            }
            _ => rest.push_str(part),
        }
    }
    (rest, version)
}

/// How strongly the frames point at the record: a frame in its file counts, more so at or
/// near its line, and more so the nearer the frame is to the top of the stack.
fn frame_evidence(entry: &MatchEntry, frames: &[Frame]) -> u32 {
    frames
        .iter()
        .take(32)
        .enumerate()
        .filter_map(|(i, f)| {
            // The frame is in the record's function: where it raises, in whatever release
            // the trace comes from.
            let same_function = f
                .function
                .as_deref()
                .is_some_and(|frame| in_function(frame, entry));
            if !same_file(&f.file, &entry.file_path) {
                // A file of another release renamed in the same package (Go's
                // `runtime/hashmap_fast.go`, now `runtime/map_faststr.go`): its function
                // still names the record.
                return (same_function && same_dir(&f.file, &entry.file_path))
                    .then_some(64 + (32 - i as u32));
            }
            let near = match f.line.map(|l| l.abs_diff(entry.line_number)) {
                Some(0..=3) => 3,
                Some(4..=18) => 2,
                _ => 1,
            };
            let near = if same_function { near.max(2) + 2 } else { near };
            Some(near * 64 + (32 - i as u32))
        })
        .max()
        .unwrap_or(0)
}

/// Whether a frame's function is the one `entry` raises in: the same name, and for Java and
/// Go, whose frames name the class or receiver type that declares the method, the same one
/// (`ArrayList$Itr.checkForComodification` is not `ArrayList.checkForComodification`).
fn in_function(frame: &str, entry: &MatchEntry) -> bool {
    if entry.function.as_deref() != Some(function_name(frame)) {
        return false;
    }
    let declared = entry.file_path.ends_with(".java") || entry.file_path.ends_with(".go");
    match (function_owner(frame), &entry.owner) {
        (Some(frame), Some(record)) if declared => frame == record,
        _ => true,
    }
}

/// Whether a class named in front of a message says which error it is: not one that a runtime
/// or a wrapper puts in front of errors of every kind (`Error:`, `Exception:`, `panic:`).
fn is_specific_class(class: &str) -> bool {
    !matches!(
        class,
        "Error" | "error" | "Exception" | "panic" | "fatal error" | "Throwable"
    )
}

/// A class without its package or module: `NoSuchFileException` of
/// `java.nio.file.NoSuchFileException`, `JSONDecodeError` of `json.decoder.JSONDecodeError`.
fn last_segment(class: &str) -> &str {
    class.rsplit(['.', ':']).next().unwrap_or(class)
}

fn class_matches(entry: &MatchEntry, line: &Line) -> bool {
    let class = match (&entry.error_class, &line.class) {
        (Some(a), Some(b)) => last_segment(a) == last_segment(b),
        _ => false,
    };
    let code = match (&entry.error_code, &line.code) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    };
    class || code
}

fn clip(text: &str) -> &str {
    if text.len() <= MAX_TEXT {
        return text;
    }
    let mut end = MAX_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, message: &str, pattern: &str, file: &str, line: u32) -> MatchEntry {
        MatchEntry {
            id: id.into(),
            slug: id.into(),
            file_path: file.into(),
            line_number: line,
            message: message.into(),
            pattern: pattern.into(),
            ..MatchEntry::default()
        }
    }

    fn frame(file: &str, line: u32) -> Frame {
        Frame {
            file: file.into(),
            line: Some(line),
            function: None,
            code: None,
        }
    }

    fn matcher(entries: Vec<MatchEntry>) -> Matcher {
        Matcher::new(entries).0
    }

    #[test]
    fn the_newest_release_of_one_file_ranks_first() {
        let p = "EOF while parsing a value";
        let m = matcher(vec![
            entry("a", p, p, "reg/serde_json-1.0.99/src/error.rs", 357),
            entry("b", p, p, "reg/serde_json-1.0.154/src/error.rs", 357),
            entry("c", p, p, "reg/serde_json-1.0.150/src/error.rs", 357),
        ]);
        let hits = m.explain("Error: EOF while parsing a value at line 1 column 0", 3);
        let ids: Vec<&str> = hits
            .iter()
            .map(|h| m.entries[h.entry].id.as_str())
            .collect();
        assert_eq!(ids, ["b", "c", "a"]);
        assert_eq!(
            release_of("reg/lodash@4.17.21/index.js"),
            ("reg/lodash/index.js".to_owned(), vec![4, 17, 21])
        );
        assert_eq!(release_of("src/go-1/a.go").1, Vec::<u64>::new());
    }

    #[test]
    fn a_public_package_ranks_before_an_internal_copy() {
        let p = "flag provided but not defined: -(.*)";
        let m = matcher(vec![
            entry(
                "cmdflag",
                "flag provided but not defined: -%s",
                p,
                "cmd/go/internal/cmdflag/flag.go",
                34,
            ),
            entry(
                "flag",
                "flag provided but not defined: -%s",
                p,
                "flag/flag.go",
                1064,
            ),
        ]);
        let hits = m.explain("2018/06/20 11:37:11 flag provided but not defined: -m", 2);
        let ids: Vec<&str> = hits
            .iter()
            .map(|h| m.entries[h.entry].id.as_str())
            .collect();
        assert_eq!(ids, ["flag", "cmdflag"]);
    }

    fn ids(m: &Matcher, text: &str, frames: &[Frame]) -> Vec<String> {
        m.find(Query { text, frames }, 10)
            .iter()
            .map(|h| m.entries()[h.entry].id.clone())
            .collect()
    }

    fn explained(m: &Matcher, text: &str) -> Vec<(String, bool)> {
        m.explain(text, 5)
            .iter()
            .map(|h| (m.entries()[h.entry].id.clone(), h.by_frame))
            .collect()
    }

    #[test]
    fn a_frame_at_a_raise_names_it_whatever_the_message() {
        // `raise SMTPAuthenticationError(code, resp)`: nothing of the message is literal.
        let m = matcher(vec![
            entry(
                "auth",
                "({code}, {resp})",
                r"\((.*?), (.*?)\)",
                "lib/python3.11/smtplib.py",
                662,
            ),
            entry(
                "other",
                "SMTP AUTH extension not supported by server.",
                r"SMTP AUTH extension not supported by server\.",
                "lib/python3.11/smtplib.py",
                600,
            ),
        ]);
        let trace = "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    s.login(u, p)\n  File \"/usr/lib/python3.11/smtplib.py\", line 662, in login\n    raise SMTPAuthenticationError(code, resp)\nsmtplib.SMTPAuthenticationError: (535, b'5.7.8 Username and Password not accepted')";
        assert_eq!(explained(&m, trace), [("auth".to_owned(), true)]);
        // At another line of the file, the frame names nothing.
        assert!(explained(&m, &trace.replace("line 662", "line 640")).is_empty());
    }

    #[test]
    fn the_innermost_frame_of_another_release_names_its_function_s_raise_of_the_class() {
        // `return new NoSuchFileException(file, other, null)` in `translateToIOException`:
        // nothing of the message is literal, and the trace is of a release where the line
        // was 86.
        let mut raise = entry(
            "nsfe",
            "{file}",
            "(.*)",
            "java.base/sun/nio/fs/UnixException.java",
            92,
        );
        raise.error_class = Some("NoSuchFileException".into());
        raise.function = Some("translateToIOException".into());
        let mut other = entry(
            "denied",
            "{file}",
            "(.*)",
            "java.base/sun/nio/fs/UnixException.java",
            90,
        );
        other.error_class = Some("AccessDeniedException".into());
        other.function = Some("translateToIOException".into());
        let m = matcher(vec![raise, other]);
        let trace = "java.nio.file.NoSuchFileException: /home/user/1.jar\n    at sun.nio.fs.UnixException.translateToIOException(UnixException.java:86)\n    at sun.nio.fs.UnixException.rethrowAsIOException(UnixException.java:102)\n    at java.nio.file.Files.readAllBytes(Files.java:3152)";
        assert_eq!(explained(&m, trace), [("nsfe".to_owned(), true)]);
        // Another class of exception made there: not this raise.
        assert!(explained(&m, &trace.replace("NoSuchFile", "FileSystem")).is_empty());
        // A caller's frame only called on: its function's raises are not this error.
        let called = trace.replace(
            "    at sun.nio.fs.UnixException.translateToIOException(UnixException.java:86)\n",
            "    at app.Main.load(Main.java:3)\n    at sun.nio.fs.UnixException.translateToIOException(UnixException.java:86)\n",
        );
        assert!(explained(&m, &called).is_empty());
    }

    #[test]
    fn a_match_in_a_file_on_the_stack_beats_a_longer_one_elsewhere() {
        let m = matcher(vec![
            entry(
                "elsewhere",
                "Expecting value: line {} column {} (char {}) here",
                r"Expecting value: line (.*?) column (.*?) \(char (.*?)\)(.*)",
                "a/other.py",
                9,
            ),
            entry(
                "decoder",
                "Expecting value: {}",
                r"Expecting value: (.*)",
                "json/decoder.py",
                355,
            ),
        ]);
        let trace = "Traceback (most recent call last):\n  File \"/usr/lib/python3.9/json/decoder.py\", line 357, in raw_decode\n    raise JSONDecodeError(\"Expecting value\", s, err.value) from None\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)";
        assert_eq!(explained(&m, trace)[0].0, "decoder");
        assert_eq!(
            explained(&m, "Expecting value: line 1 column 1 (char 0) here")[0].0,
            "elsewhere"
        );
    }

    #[test]
    fn a_panic_around_a_type_s_own_text_comes_before_the_text() {
        // https://github.com/cucumber-rs/cucumber/issues/295: `.expect(…)` of an `Err` prints
        // the value's Debug, which holds the text its Display words.
        let mut text = entry(
            "display",
            "a global default trace dispatcher has already been set",
            r"a global default trace dispatcher has already been set",
            "tracing-core/src/dispatcher.rs",
            359,
        );
        text.function = Some("fmt".into());
        text.error_class = Some("SetGlobalDefaultError".into());
        let mut expect = entry(
            "expect",
            "failed to set global default subscriber",
            r"failed to set global default subscriber",
            "tracing-subscriber/src/util.rs",
            94,
        );
        expect.function = Some("init".into());
        let m = matcher(vec![text, expect]);
        let first = |t: &str| explained(&m, t)[0].0.clone();
        // Wrapped by the terminal after the colon.
        assert_eq!(
            first("thread 'main' panicked at 'failed to set global default subscriber: \nSetGlobalDefaultError(\"a global default trace dispatcher has already been set\")'"),
            "expect"
        );
        // The text alone, or said after other words than the panic's: the type's text.
        assert_eq!(
            first("a global default trace dispatcher has already been set"),
            "display"
        );
        assert_eq!(
            first("failed to set global default subscriber: a global default trace dispatcher has already been set"),
            "display"
        );
    }

    #[test]
    fn a_go_package_variable_is_a_cause_not_the_layer_that_was_made() {
        // https://github.com/prometheus/blackbox_exporter/issues/68
        let m = matcher(vec![
            entry(
                "canceled",
                "net/http: request canceled",
                r"net/http: request canceled",
                "net/http/omithttp2.go",
                21,
            ),
            {
                let mut e = entry(
                    "timeout",
                    "{err.Error()} (Client.Timeout exceeded while awaiting headers)",
                    r"(.*?) \(Client\.Timeout exceeded while awaiting headers\)",
                    "net/http/client.go",
                    719,
                );
                e.function = Some("send".into());
                e
            },
        ]);
        assert_eq!(
            explained(&m, "Get http://x/home: net/http: request canceled (Client.Timeout exceeded while awaiting headers)")[0].0,
            "timeout"
        );
    }

    #[test]
    fn a_frame_of_a_file_renamed_in_its_package_names_the_record_by_its_function() {
        // https://github.com/albus01/ibenchmark/pull/2: Go 1.9's `runtime/hashmap_fast.go`
        // is `runtime/map_faststr.go` since.
        let at = |id: &str, file: &str, line: u32, function: &str| {
            let mut e = entry(
                id,
                "concurrent map writes",
                "concurrent map writes",
                file,
                line,
            );
            e.function = Some(function.into());
            e
        };
        let m = matcher(vec![
            at("assign", "runtime/map.go", 595, "mapassign"),
            at(
                "faststr",
                "runtime/map_faststr.go",
                212,
                "mapassign_faststr",
            ),
            at("other", "cmd/x/map_faststr.go", 212, "mapassign_faststr"),
        ]);
        let trace = "fatal error: concurrent map writes\n\ngoroutine 122 [running]:\nruntime.throw(0x6df750, 0x15)\n\t/usr/local/go/src/runtime/panic.go:605 +0x95\nruntime.mapassign_faststr(0x685f40, 0xc420078ea0)\n\t/usr/local/go/src/runtime/hashmap_fast.go:685 +0x4da\nmain.handle_request(0xc42012fb00)\n\t/tmp/ibenchmark/iBench.go:142 +0xdd\n";
        assert_eq!(explained(&m, trace)[0].0, "faststr");
        // Another package's function of the same name is no evidence.
        assert_eq!(
            explained(
                &m,
                &trace.replace("src/runtime/hashmap", "src/other/hashmap")
            ),
            explained(&m, "fatal error: concurrent map writes")
        );
    }

    #[test]
    fn the_innermost_layer_of_a_composed_message_comes_first() {
        let m = matcher(vec![
            entry(
                "position",
                "{} at line {} column {}",
                r"(.*?) at line (.*?) column (.*)",
                "serde_json/src/error.rs",
                410,
            ),
            entry(
                "code",
                "expected value",
                r"expected value",
                "serde_json/src/error.rs",
                362,
            ),
            entry(
                "type",
                "invalid type: {}, expected {}",
                r"invalid type: (.*?), expected (.*)",
                "serde_json/src/error.rs",
                441,
            ),
            entry(
                "field",
                "missing field `{}`",
                r"missing field `(.*?)`",
                "serde/src/de/mod.rs",
                290,
            ),
        ]);
        let first = |t: &str| explained(&m, t)[0].0.clone();
        assert_eq!(
            first("Failed to parse page JSON data: expected value at line 1 column 1"),
            "code"
        );
        assert_eq!(
            first("error: missing field `headersSize` at line 1 column 1"),
            "field"
        );
        assert_eq!(
            first("Event loop broke: invalid type: integer `30`, expected a string at line 1 column 40"),
            "type"
        );
        assert_eq!(
            first("invalid type: integer `30`, expected a string at line 1 column 40"),
            "type"
        );
        // A placeholder's text that is no record's message leaves the outer layer first.
        assert_eq!(first("unexpected token at line 3 column 9"), "position");
    }

    #[test]
    fn a_frame_of_another_release_points_by_its_function() {
        let cme = |id: &str, line: u32, function: &str| MatchEntry {
            function: Some(function.into()),
            ..entry(
                id,
                "ConcurrentModificationException",
                "ConcurrentModificationException",
                "java.base/java/util/HashMap.java",
                line,
            )
        };
        let m = matcher(vec![
            cme("forEach", 1441, "forEach"),
            cme("nextNode", 1597, "nextNode"),
        ]);
        // JDK 8's line 1445 is near JDK 17's forEach, but the frame names nextNode.
        let trace = "java.util.ConcurrentModificationException\n\tat java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)\n\tat java.util.HashMap$KeyIterator.next(HashMap.java:1469)";
        assert_eq!(explained(&m, trace)[0].0, "nextNode");
        assert_eq!(
            function_name("encoding/json.(*decodeState).object"),
            "object"
        );
        assert_eq!(function_name("tokio::runtime::context::enter"), "enter");
        assert_eq!(
            function_name("HTTPDefaultErrorHandler.http_error_default(self, req, fp, code)"),
            "http_error_default"
        );
        assert_eq!(function_name("main.run(0xc000012345, 0x1)"), "run");
    }

    #[test]
    fn a_java_frame_s_class_tells_apart_methods_of_one_name() {
        let cme = |id: &str, line: u32, owner: &str| MatchEntry {
            function: Some("checkForComodification".into()),
            owner: Some(owner.into()),
            ..entry(
                id,
                "ConcurrentModificationException",
                "ConcurrentModificationException",
                "java.base/java/util/ArrayList.java",
                line,
            )
        };
        let m = matcher(vec![cme("list", 573, "ArrayList"), cme("itr", 1013, "Itr")]);
        // JDK 8's lines: neither is at one of JDK 17's; the frame's class is the iterator.
        let trace = "Exception in thread \"main\" java.util.ConcurrentModificationException\n\tat java.util.ArrayList$Itr.checkForComodification(ArrayList.java:901)\n\tat java.util.ArrayList$Itr.next(ArrayList.java:851)\n\tat demo.Main.main(Main.java:16)";
        assert_eq!(explained(&m, trace)[0].0, "itr");
        assert_eq!(
            function_owner("java.util.ArrayList$SubList$1.next"),
            Some("SubList")
        );
        assert_eq!(
            function_owner("encoding/json.(*decodeState).object"),
            Some("decodeState")
        );
        assert_eq!(function_owner("tokio::runtime::context::enter"), None);
        assert_eq!(function_owner("main"), None);
    }

    #[test]
    fn an_error_without_a_message_is_its_class() {
        let m = matcher(vec![
            entry(
                "hashmap",
                "ConcurrentModificationException",
                "ConcurrentModificationException",
                "java.base/java/util/HashMap.java",
                1597,
            ),
            entry(
                "arraylist",
                "ConcurrentModificationException",
                "ConcurrentModificationException",
                "java.base/java/util/ArrayList.java",
                1013,
            ),
        ]);
        let trace = "Exception in thread \"main\" java.util.ConcurrentModificationException\n\tat java.base/java.util.ArrayList$Itr.checkForComodification(ArrayList.java:1013)\n\tat Main.main(Main.java:5)";
        assert_eq!(explained(&m, trace)[0].0, "arraylist");
        let null = "java.util.ConcurrentModificationException: null\n\tat java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)";
        assert_eq!(explained(&m, null)[0].0, "hashmap");
    }

    /// A vague template and a specific one that both match `Invalid user bob from …`.
    fn invalid_user() -> Matcher {
        matcher(vec![
            entry("vague", "Invalid {x}", "Invalid (.*)", "a.py", 1),
            entry(
                "specific",
                "Invalid user {name} from {ip}",
                "Invalid user (.*?) from (.*)",
                "b.py",
                1,
            ),
        ])
    }

    #[test]
    fn records_sharing_a_pattern_name_its_values_each_their_own_way() {
        // Two records whose messages render to one pattern, with other placeholder names.
        let m = matcher(vec![
            entry(
                "peek",
                "Expected {expected} but was {peek()}",
                "Expected (.*?) but was (.*)",
                "a.java",
                1,
            ),
            entry(
                "token",
                "Expected {Token.STRING} but was {token}",
                "Expected (.*?) but was (.*)",
                "a.java",
                9,
            ),
        ]);
        let hits = m.explain("Expected a name but was NUMBER", 10);
        assert_eq!(hits.len(), 2);
        for h in &hits {
            let names: Vec<&str> = h.captures.iter().map(|c| c.name.as_str()).collect();
            let values: Vec<&str> = h.captures.iter().map(|c| c.value.as_str()).collect();
            assert_eq!(values, ["a name", "NUMBER"]);
            match m.entries()[h.entry].id.as_str() {
                "peek" => assert_eq!(names, ["{expected}", "{peek()}"]),
                _ => assert_eq!(names, ["{Token.STRING}", "{token}"]),
            }
        }
    }

    #[test]
    fn the_most_specific_template_wins() {
        let m = invalid_user();
        let hits = m.find(
            Query {
                text: "2024-05-01 12:00:00 ERROR Invalid user bob from 10.0.0.1",
                frames: &[],
            },
            10,
        );
        assert_eq!(m.entries()[hits[0].entry].id, "specific");
        assert!(hits[0].exact);
        assert_eq!(
            hits[0].captures,
            [
                Capture {
                    name: "{name}".into(),
                    value: "bob".into()
                },
                Capture {
                    name: "{ip}".into(),
                    value: "10.0.0.1".into()
                }
            ]
        );
        assert_eq!(m.entries()[hits[1].entry].id, "vague");
        assert!(hits[0].score > hits[1].score);
        // A partial match of a longer template ranks, and scores, above an exact match of a
        // shorter one.
        let m = matcher(vec![
            entry(
                "short",
                "lease {n} expired",
                "lease (.*?) expired",
                "a.rs",
                1,
            ),
            entry(
                "long",
                "pool: lease {n} expired early",
                "pool: lease (.*?) expired early",
                "b.rs",
                1,
            ),
        ]);
        let hits = m.find(
            Query {
                text: "lease 7 expired",
                frames: &[],
            },
            10,
        );
        assert_eq!(hits.len(), 1);
        let hits = m.find(
            Query {
                text: "E pool: lease 7 expired early (retry 2)",
                frames: &[],
            },
            10,
        );
        assert_eq!(m.entries()[hits[0].entry].id, "long");
        assert!(!hits[0].exact);
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn the_first_of_messages_written_one_after_another_comes_first() {
        // npm's exit handler logs three lines in a row; a paste of all three is the first.
        let m = matcher(vec![
            entry(
                "head",
                "Exit handler never called!",
                "Exit handler never called!",
                "lib/cli/exit-handler.js",
                95,
            ),
            entry(
                "words",
                "This is an error with npm itself. Please report this error at:",
                "This is an error with npm itself\\. Please report this error at:",
                "lib/cli/exit-handler.js",
                96,
            ),
            entry(
                "far",
                "npm itself is fine",
                "npm itself is fine",
                "lib/cli/exit-handler.js",
                40,
            ),
        ]);
        let paste = "npm ERR! Exit handler never called!\n\nnpm ERR! This is an error with npm itself. Please report this error at:\n";
        let hits = m.explain(paste, 10);
        assert_eq!(m.entries()[hits[0].entry].id, "head");
        // Alone, the longer message is still what the line says.
        let hits = m.explain(
            "npm ERR! This is an error with npm itself. Please report this error at:",
            10,
        );
        assert_eq!(m.entries()[hits[0].entry].id, "words");
    }

    #[test]
    fn ranked_matches_are_those_of_find_without_the_values() {
        let m = invalid_user();
        let query = Query {
            text: "ERROR Invalid user bob from 10.0.0.1",
            frames: &[],
        };
        let full = m.find(query, 10);
        let ranked = m.find_ranked(query, 10);
        assert_eq!(full.len(), 2);
        assert!(!full[0].captures.is_empty());
        assert!(ranked.iter().all(|h| h.captures.is_empty()));
        let key = |h: &Hit| (h.entry, h.score.to_bits(), h.exact);
        assert_eq!(
            full.iter().map(key).collect::<Vec<_>>(),
            ranked.iter().map(key).collect::<Vec<_>>()
        );
    }

    #[test]
    fn ordinary_lines_match_nothing() {
        let m = matcher(vec![
            entry("a", "{}: {}", "(.*?): (.*)", "a.rs", 1),
            entry("b", "{}={}", "(.*?)=(.*)", "a.rs", 2),
            entry("c", "{}", "(.*)", "a.rs", 3),
            entry("d", "lease {} expired", "lease (.*?) expired", "a.rs", 4),
        ]);
        assert!(ids(&m, "2024-05-01 INFO GET /health 200: ok user=bob", &[]).is_empty());
        assert_eq!(ids(&m, "lease 7 expired", &[]), ["d"]);
    }

    #[test]
    fn frames_pick_between_records_with_the_same_template() {
        let m = matcher(vec![
            entry("one", "not found", "not found", "src/a.py", 10),
            entry("two", "not found", "not found", "src/b.py", 40),
        ]);
        let frames = [frame("/srv/app/src/b.py", 41)];
        assert_eq!(ids(&m, "KeyError: not found", &frames), ["two", "one"]);
        assert_eq!(ids(&m, "KeyError: not found", &[]), ["one", "two"]);
    }

    /// The panic's own line names its raise (`panicked at …/debug_asserts.rs:125:17:`), though
    /// a shorter template 250 lines away in that file matches the first line of a message the
    /// terminal wrapped (ROCm/spur#696).
    #[test]
    fn a_frame_at_a_raise_outranks_a_message_matched_far_from_it() {
        let m = matcher(vec![
            entry(
                "short",
                "Command {}: Short option names must be unique for each argument, but '-{}' is in use by both '{}' and '{}'{}",
                "Command (.*?): Short option names must be unique for each argument, but '\\-(.*?)' is in use by both '(.*?)' and '(.*?)'(.*)",
                "clap_builder-4.6.7/src/builder/debug_asserts.rs",
                125,
            ),
            entry(
                "generic",
                "Command {}: {}",
                "Command (.*?): (.*)",
                "clap_builder-4.6.7/src/builder/debug_asserts.rs",
                374,
            ),
        ]);
        let paste = "thread 'main' panicked at clap_builder-4.6.6/src/builder/debug_asserts.rs:125:17:\nCommand sprio: Short option names must be unique for each argument, but '-h' is in\nuse by both 'noheader' and 'help'";
        assert_eq!(
            explained(&m, paste).first(),
            Some(&("short".to_owned(), true))
        );
        // Without the frame, the message is all there is.
        let bare =
            "Command sprio: Short option names must be unique for each argument, but '-h' is in";
        assert_eq!(
            explained(&m, bare).first().map(|h| h.0.as_str()),
            Some("generic")
        );
    }

    /// A short template of another package is no layer found after a `: ` inside another's
    /// placeholder (uuid-rs/uuid#655); it is a layer when it is all the placeholder took.
    #[test]
    fn a_short_layer_of_another_package_is_whole_or_none() {
        let m = matcher(vec![
            entry(
                "uuid",
                "UUID parsing failed: {}",
                "UUID parsing failed: (.*)",
                "reg/uuid-1.29.3/src/external/serde_support.rs",
                261,
            ),
            entry(
                "platform",
                "expected {}, found {}",
                "expected (.*?), found (.*)",
                "reg/cargo-platform-0.3.3/src/error.rs",
                45,
            ),
            entry(
                "position",
                "{} at line {} column {}",
                "(.*?) at line (.*?) column (.*)",
                "reg/serde_json-1.0.154/src/error.rs",
                410,
            ),
            entry(
                "missing",
                "missing field `{}`",
                "missing field `(.*?)`",
                "reg/serde-1.0.229/src/core/de/mod.rs",
                290,
            ),
        ]);
        let uuid = "UUID parsing failed: invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-zA-Z], found `h` at 1";
        assert_eq!(explained(&m, uuid)[0].0, "uuid");
        let serde = "Error: missing field `headersSize` at line 1 column 1";
        assert_eq!(explained(&m, serde)[0].0, "missing");
    }

    #[test]
    fn class_prefix_breaks_ties() {
        let mut a = entry("a", "bad value", "bad value", "x.py", 1);
        a.error_class = Some("TypeError".into());
        let mut b = entry("b", "bad value", "bad value", "y.py", 1);
        b.error_class = Some("ValueError".into());
        let m = matcher(vec![a, b]);
        assert_eq!(ids(&m, "ValueError: bad value", &[]), ["b", "a"]);
        assert_eq!(ids(&m, "TypeError: bad value", &[]), ["a", "b"]);
    }

    #[test]
    fn a_one_word_template_matches_only_a_whole_message_or_where_the_frames_point() {
        let m = matcher(vec![
            entry("error", "Error", "Error", "test_x.py", 9),
            entry("index", "index", "index", "a.py", 3),
            entry("prefix", "error: %s", "error: (.*)", "core.py", 5),
        ]);
        // Inside a longer message a single word identifies nothing.
        assert_eq!(
            ids(&m, "Error: unsupported locale setting", &[]),
            Vec::<String>::new()
        );
        assert_eq!(
            ids(&m, "IndexError: Replacement index 1 out of range", &[]),
            Vec::<String>::new()
        );
        // The whole message still matches; a template of generic words only (`error: %s`)
        // names no error, whatever its holes take.
        assert_eq!(ids(&m, "Error: index", &[]), ["index"]);
        assert_eq!(ids(&m, "error: no input files", &[]), Vec::<String>::new());
        // And so does a partial match that the stack trace points at.
        let frames = [frame("/usr/lib/python3/a.py", 3)];
        assert_eq!(ids(&m, "RuntimeError: bad index 4", &frames), ["index"]);
    }

    #[test]
    fn a_one_word_template_is_read_for_only_where_it_may_end_the_message() {
        let m = matcher(vec![
            entry("start", "start", "start", "a.py", 3),
            entry(
                "sax",
                "SAXNotSupportedException",
                "SAXNotSupportedException",
                "b.py",
                9,
            ),
        ]);
        for (line, want) in [
            ("2026-11-30T03:37:46Z ERROR start", &["start"][..]),
            ("{\"level\":\"error\",\"msg\":\"start\"}", &["start"]),
            ("level=error msg=start ts=2026-11-30T03:37:46Z", &["start"]),
            (
                "{\"level\": \"error\", \"msg\": \"SAXNotSupportedException \"}",
                &["sax"],
            ),
            // The word is followed by more of the message, or glued to another word.
            ("2026-11-30T03:37:46Z INFO start of the day", &[]),
            ("2026-11-30T03:37:46Z ERROR restart", &[]),
        ] {
            assert_eq!(ids(&m, line, &[]), want, "{line}");
        }
    }

    #[test]
    fn a_one_word_message_of_another_class_is_not_a_match() {
        let null = MatchEntry {
            error_class: Some("AttributeNotFoundException".into()),
            ..entry("null", "null", "null", "Delegate.java", 146)
        };
        let m = matcher(vec![null]);
        assert_eq!(
            ids(&m, "java.lang.UnsupportedOperationException: null", &[]),
            Vec::<String>::new()
        );
        assert_eq!(
            ids(&m, "javax.management.AttributeNotFoundException: null", &[]),
            ["null"]
        );
        // Without a class in front, the message alone still finds it.
        assert_eq!(ids(&m, "null", &[]), ["null"]);
        // A record of no class (Go's `fmt.Errorf`) is not what a line of a named class
        // reports, but may be what a generic `Error:` or `panic:` is put in front of.
        let m = matcher(vec![entry(
            "go",
            "invalid %s: %v",
            "invalid (.*?): (.*?)",
            "cmd/go/internal/envcmd/env.go",
            497,
        )]);
        let python = "ValueError: invalid literal for int() with base 10: 'abc'";
        assert_eq!(ids(&m, python, &[]), Vec::<String>::new());
        assert_eq!(ids(&m, "panic: invalid GOOS: plan10", &[]), ["go"]);
        assert_eq!(ids(&m, "invalid GOOS: plan10", &[]), ["go"]);
        // Where the frames point at it, the record stands whatever the class.
        let frames = [frame("/usr/lib/go/src/cmd/go/internal/envcmd/env.go", 497)];
        assert_eq!(ids(&m, python, &frames), ["go"]);
    }

    #[test]
    fn the_code_under_test_wins_over_its_tests_when_both_word_an_error_alike() {
        let m = matcher(vec![
            entry(
                "test",
                "unexpected end of input",
                "unexpected end of input",
                "json/decode_test.go",
                9,
            ),
            entry(
                "code",
                "unexpected end of input",
                "unexpected end of input",
                "json/scanner.go",
                3,
            ),
        ]);
        assert_eq!(ids(&m, "unexpected end of input", &[]), ["code", "test"]);
    }

    #[test]
    fn the_first_line_of_a_message_of_several_lines_finds_its_record() {
        let m = matcher(vec![entry(
            "script",
            "Missing script: \"${event}\"${suggestions}\n\nTo see a list of scripts, run:\n  npm run",
            "Missing script: \"(.*?)\"(.*?)\n\nTo see a list of scripts, run:\n  npm run",
            "lib/commands/run.js",
            116,
        )]);
        let hits = m.find(
            Query {
                text: "npm error Missing script: \"build\"",
                frames: &[],
            },
            5,
        );
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert!(!hits[0].exact);
        assert_eq!(
            hits[0].captures,
            [Capture {
                name: "${event}".into(),
                value: "build".into()
            }]
        );
        // The whole message is an exact match of the whole template.
        let whole = "Missing script: \"build\"\n\nTo see a list of scripts, run:\n  npm run";
        let hits = m.find(
            Query {
                text: whole,
                frames: &[],
            },
            5,
        );
        assert!(hits[0].exact, "{hits:?}");
        assert_eq!(hits.len(), 1, "the head is the same record: {hits:?}");
    }

    #[test]
    fn exact_beats_partial_for_equally_specific_templates() {
        let m = matcher(vec![
            entry(
                "p",
                "cannot read {} here",
                "cannot read (.*?) here",
                "a.js",
                1,
            ),
            entry(
                "e",
                "{} cannot read here",
                "(.*?) cannot read here",
                "b.js",
                1,
            ),
        ]);
        assert_eq!(ids(&m, "x cannot read here", &[])[0], "e");
    }

    #[test]
    fn json_envelopes_are_decoded() {
        let m = matcher(vec![entry(
            "q",
            "bad \"{}\" value",
            "bad \"(.*?)\" value",
            "a.go",
            1,
        )]);
        let hits = m.find(
            Query {
                text: r#"{"level":"error","msg":"bad \"x\" value"}"#,
                frames: &[],
            },
            10,
        );
        assert_eq!(hits.len(), 1);
        assert!(hits[0].exact);
        assert_eq!(hits[0].captures[0].value, "x");
    }

    #[test]
    fn a_message_in_an_envelope_matches_what_it_would_alone() {
        // The message ends where the template's trailing `: ` lost its space, which only the
        // message, not the whole JSON line, ends with.
        let m = matcher(vec![
            entry("csv", "error writing csv:", "error writing csv:", "a.go", 1),
            entry(
                "writing",
                "writing %s: %v",
                r"writing (.*?): (.*)",
                "b.go",
                2,
            ),
        ]);
        let alone = ids(&m, "2026-11-30T06:04:49Z WARN error writing csv:", &[]);
        assert_eq!(alone, ["csv", "writing"]);
        let line =
            r#"{"ts": "2026-11-30T06:04:49Z", "level": "warn", "msg": "error writing csv:"}"#;
        assert_eq!(ids(&m, line, &[]), alone);
    }

    #[test]
    fn similar_messages_are_approximate_and_below_real_matches() {
        let m = matcher(vec![entry(
            "r",
            "Connection to the database was refused",
            "Connection to the database was refused",
            "db.py",
            1,
        )]);
        assert!(ids(&m, "Connection to database refused", &[]).is_empty());
        let hits = m.similar("Connection to database refused", 5);
        assert_eq!(hits.len(), 1);
        assert!(hits[0].approximate && hits[0].score < 0.5);
        assert!(m.similar("completely unrelated words", 5).is_empty());
    }

    #[test]
    fn long_lines_are_bounded() {
        let m = matcher(vec![entry(
            "l",
            "lease {} expired",
            "lease (.*?) expired",
            "a.rs",
            1,
        )]);
        let text = format!("lease 1 expired {}", "lease ".repeat(2_000_000));
        let hits = m.find(
            Query {
                text: &text,
                frames: &[],
            },
            10,
        );
        assert_eq!(hits.len(), 1);
        assert!(!hits[0].exact);
    }
}
