//! A record's message as the matcher sees it: the literal fragments of its `messagePattern` with
//! holes between them, or, for a pattern that is not in that form, a size-limited regex.
//!
//! errata writes every `messagePattern` as escaped literal text and `(.*?)` / `(.*)` groups.
//! Such a pattern is matched without a regex engine: each literal is found in turn, leftmost
//! after the previous one, which is what the lazy groups would capture, and takes time linear in
//! the text. A pattern from elsewhere (an imported dataset) that is not in this form is compiled
//! by the `regex` crate, whose matching is linear too, under size limits; one that does not fit
//! is refused.

use std::ops::Range;

/// Below this many letters and digits of literal text, a template identifies nothing on its own:
/// `{}`, `{}: {}`, `{}={}` would match ordinary log lines.
pub const MIN_LITERAL_ALNUM: usize = 4;

/// The longest pattern accepted from a dataset.
pub const MAX_PATTERN_LEN: usize = 16 * 1024;

/// A compiled message pattern.
#[derive(Debug, Clone)]
pub enum Shape {
    /// Literal fragments in order, with a hole before the first (`lead`), between each pair and
    /// after the last (`trail`).
    Fragments {
        literals: Vec<Box<str>>,
        lead: bool,
        trail: bool,
    },
    /// Any other pattern, run by the `regex` crate.
    Regex(Box<regex::Regex>),
}

/// Why a pattern cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Too little literal text to identify anything.
    TooVague,
    /// Longer than [`MAX_PATTERN_LEN`] or too large once compiled.
    TooLarge,
    /// Not a valid regex.
    Invalid(String),
    /// A repetition of something that repeats (`(a+)+`): the regex crate runs it in linear
    /// time, but the backtracking engines that read a dataset's patterns (JavaScript's,
    /// Python's, Java's) take exponential time on a text that almost matches.
    NestedRepetition(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::TooVague => f.write_str("too little literal text to identify a message"),
            Refused::TooLarge => f.write_str("pattern too large"),
            Refused::Invalid(e) => write!(f, "invalid pattern: {e}"),
            Refused::NestedRepetition(part) => write!(
                f,
                "`{part}` repeats a repetition, which backtracking regex engines take exponential time on"
            ),
        }
    }
}

/// Where a shape matched in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The whole text is the message: nothing before or after the match.
    pub exact: bool,
    /// The text each hole took, in order.
    pub holes: Vec<Range<usize>>,
}

/// Checks a pattern that comes from outside (an imported dataset) before it is stored: its
/// size, that it is a valid regex, and that it holds no nested unbounded repetition. Returns
/// the pattern's compiled shape; one with too little literal text is
/// [`Refused::TooVague`], which a caller may keep (it matches nothing).
pub fn vet(pattern: &str) -> Result<Shape, Refused> {
    if pattern.len() > MAX_PATTERN_LEN {
        return Err(Refused::TooLarge);
    }
    let hir = regex_syntax::ParserBuilder::new()
        .nest_limit(64)
        .build()
        .parse(pattern)
        .map_err(|e| Refused::Invalid(e.to_string()))?;
    if let Some(span) = nested_repetition(&hir, false) {
        let part: String = span.chars().take(40).collect();
        return Err(Refused::NestedRepetition(part));
    }
    Shape::compile(pattern)
}

/// The first unbounded repetition inside another unbounded repetition, printed.
fn nested_repetition(hir: &regex_syntax::hir::Hir, inside: bool) -> Option<String> {
    use regex_syntax::hir::HirKind;
    match hir.kind() {
        HirKind::Repetition(r) => {
            let unbounded = r.max.is_none_or(|m| m > 16);
            if unbounded && inside {
                return Some(hir.to_string());
            }
            nested_repetition(&r.sub, inside || (unbounded && can_repeat(&r.sub)))
                .map(|_| hir.to_string())
        }
        HirKind::Capture(c) => nested_repetition(&c.sub, inside),
        HirKind::Concat(hs) | HirKind::Alternation(hs) => {
            hs.iter().find_map(|h| nested_repetition(h, inside))
        }
        _ => None,
    }
}

/// Whether a repeated part can match texts of more than one length, so that a repetition
/// around it has several ways to cut the same text.
fn can_repeat(hir: &regex_syntax::hir::Hir) -> bool {
    hir.properties().minimum_len() != hir.properties().maximum_len()
}

impl Shape {
    /// Compiles a `messagePattern`.
    pub fn compile(pattern: &str) -> Result<Shape, Refused> {
        if pattern.len() > MAX_PATTERN_LEN {
            return Err(Refused::TooLarge);
        }
        let shape = match errata_model::PatternParts::parse(pattern) {
            Some(p) => Shape::Fragments {
                literals: p.literals.into_iter().map(String::into_boxed_str).collect(),
                lead: p.lead,
                trail: p.trail,
            },
            None => {
                let re = regex::RegexBuilder::new(pattern)
                    .size_limit(1 << 20)
                    .dfa_size_limit(1 << 20)
                    .nest_limit(64)
                    .build()
                    .map_err(|e| match e {
                        regex::Error::CompiledTooBig(_) => Refused::TooLarge,
                        e => Refused::Invalid(e.to_string()),
                    })?;
                Shape::Regex(Box::new(re))
            }
        };
        if shape.literal_alnum() < MIN_LITERAL_ALNUM || only_generic_words(&shape) {
            return Err(Refused::TooVague);
        }
        Ok(shape)
    }

    /// The shape of a pattern that is literal fragments and holes, as [`Shape::compile`] makes
    /// it, or `None` for a pattern that needs the regex engine or that `compile` refuses. No
    /// regex is built: for candidates that are only compared by their literal text.
    pub fn fragments(pattern: &str) -> Option<Shape> {
        if pattern.len() > MAX_PATTERN_LEN {
            return None;
        }
        let p = errata_model::PatternParts::parse(pattern)?;
        let shape = Shape::Fragments {
            literals: p.literals.into_iter().map(String::into_boxed_str).collect(),
            lead: p.lead,
            trail: p.trail,
        };
        (shape.literal_alnum() >= MIN_LITERAL_ALNUM && !only_generic_words(&shape)).then_some(shape)
    }

    /// The literal fragments (none for a regex shape).
    pub fn literals(&self) -> &[Box<str>] {
        match self {
            Shape::Fragments { literals, .. } => literals,
            Shape::Regex(_) => &[],
        }
    }

    /// Bytes of literal text: how specific the template is.
    pub fn literal_len(&self) -> usize {
        match self {
            Shape::Fragments { literals, .. } => literals.iter().map(|l| l.len()).sum(),
            Shape::Regex(re) => regex_literal_text(re.as_str()).len(),
        }
    }

    /// The first line of a message of several lines, as a shape of its own whose trailing hole
    /// stands for the rest: a log writes each line apart, and a user pastes the first. None for
    /// a message of one line, or a first line that says too little to match on its own.
    pub fn first_line(&self) -> Option<Shape> {
        let Shape::Fragments { literals, lead, .. } = self else {
            return None;
        };
        let cut = literals.iter().position(|l| l.contains('\n'))?;
        let mut head: Vec<Box<str>> = literals[..cut].to_vec();
        let before = literals[cut].split('\n').next().unwrap_or("");
        if !before.is_empty() {
            head.push(before.into());
        }
        let shape = Shape::Fragments {
            literals: head,
            lead: *lead,
            trail: true,
        };
        let (alnum, words) = shape.letters_and_words();
        (alnum >= MIN_LITERAL_ALNUM && words >= 2).then_some(shape)
    }

    /// Words (runs of letters, digits and underscores) in the literal text.
    pub fn words(&self) -> usize {
        self.letters_and_words().1
    }

    fn literal_alnum(&self) -> usize {
        self.letters_and_words().0
    }

    /// The letters and digits of the literal text, and its words.
    fn letters_and_words(&self) -> (usize, usize) {
        let add = |(a, w): (usize, usize), s: &str| {
            let (b, x) = letters_and_words(s);
            (a + b, w + x)
        };
        match self {
            Shape::Fragments { literals, .. } => literals.iter().fold((0, 0), |n, l| add(n, l)),
            Shape::Regex(re) => add((0, 0), &regex_literal_text(re.as_str())),
        }
    }

    /// The fragment a prefilter looks for: the longest literal, those at the edges without
    /// their outer whitespace, which a log line may have cut off (`Invalid Version: ` with an
    /// empty value is printed `Invalid Version:`).
    pub fn key(&self) -> Option<&str> {
        let literals = self.literals();
        let last = literals.len().saturating_sub(1);
        literals
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let l: &str = l;
                let l = if i == 0 { l.trim_start() } else { l };
                if i == last {
                    l.trim_end()
                } else {
                    l
                }
            })
            .max_by_key(|l| l.len())
            .filter(|l| !l.is_empty())
            .or_else(|| literals.iter().max_by_key(|l| l.len()).map(|l| &**l))
    }

    /// The number of holes (capture groups).
    pub fn holes(&self) -> usize {
        match self {
            Shape::Fragments {
                literals,
                lead,
                trail,
            } => literals.len().saturating_sub(1) + usize::from(*lead) + usize::from(*trail),
            Shape::Regex(re) => re.captures_len() - 1,
        }
    }

    /// Whether the shape may be found in `text` or in a part of it: its literals occur in
    /// order, those at the edges without their outer whitespace. A part of a text (a log line's
    /// message) has no word before it to be glued to and may end where a literal's trailing
    /// whitespace was cut off, so [`Shape::find`] in the whole text would say less. Always true
    /// for a regex, which may be anchored.
    pub fn may_be_in(&self, text: &str) -> bool {
        let Shape::Fragments { literals, .. } = self else {
            return true;
        };
        let bytes = text.as_bytes();
        let last = literals.len().saturating_sub(1);
        let mut pos = 0;
        for (i, lit) in literals.iter().enumerate() {
            let mut lit: &str = lit;
            if i == 0 {
                lit = lit.trim_start();
            }
            if i == last {
                lit = lit.trim_end();
            }
            match find_bytes(&bytes[pos..], lit.as_bytes()) {
                Some(at) => pos += at + lit.len(),
                None => return false,
            }
        }
        true
    }

    /// Finds the shape in `text`.
    pub fn find(&self, text: &str) -> Option<Found> {
        match self {
            Shape::Fragments {
                literals,
                lead,
                trail,
            } => find_fragments(literals, *lead, *trail, text)
                .or_else(|| find_trimmed(literals, *lead, *trail, text)),
            Shape::Regex(re) => {
                let caps = re.captures(text)?;
                let whole = caps.get(0)?;
                Some(Found {
                    exact: whole.start() == 0 && whole.end() == text.len(),
                    holes: caps
                        .iter()
                        .skip(1)
                        .map(|m| m.map_or(0..0, |m| m.range()))
                        .collect(),
                })
            }
        }
    }
}

/// Words that every error line holds: a template whose literal text is only these (`{} error:
/// {}`, `Error: {}`, `fatal: {}`) says nothing of which error it is.
const GENERIC_WORDS: &[&str] = &[
    "error",
    "errors",
    "err",
    "failed",
    "failure",
    "fatal",
    "warning",
    "warn",
    "exception",
    "panic",
    "panicked",
    "caused",
    "by",
    // Words of every sentence: `{property} not in {cls}` or `{a} is {b}` says nothing of its
    // own, and matches lines of any program.
    "not",
    "no",
    "in",
    "is",
    "are",
    "was",
    "a",
    "an",
    "the",
    "of",
    "to",
    "for",
    "on",
    "at",
    "and",
    "or",
    "be",
    "with",
    "as",
    "from",
];

fn only_generic_words(shape: &Shape) -> bool {
    let Shape::Fragments { literals, .. } = shape else {
        return false;
    };
    literals
        .iter()
        .flat_map(|l| errata_model::words(l))
        .all(|w| GENERIC_WORDS.contains(&w.to_ascii_lowercase().as_str()))
}

/// The letters and digits of `s`, and its words (runs of letters, digits and underscores), in
/// one pass that reads ASCII as bytes.
fn letters_and_words(s: &str) -> (usize, usize) {
    if s.is_ascii() {
        // Bit 0: a letter or digit; bit 1: part of a word.
        const CLASS: [u8; 128] = {
            let mut t = [0u8; 128];
            let mut b = 0;
            while b < 128 {
                let c = b as u8;
                t[b] = if c.is_ascii_alphanumeric() {
                    3
                } else if c == b'_' {
                    2
                } else {
                    0
                };
                b += 1;
            }
            t
        };
        let (mut alnum, mut words, mut prev) = (0, 0, 0u8);
        for &b in s.as_bytes() {
            let class = CLASS[usize::from(b & 0x7f)];
            alnum += usize::from(class & 1);
            words += usize::from(class >> 1 & !prev >> 1 & 1);
            prev = class;
        }
        return (alnum, words);
    }
    let (mut alnum, mut words, mut in_word) = (0, 0, false);
    for c in s.chars() {
        let a = c.is_alphanumeric();
        let w = a || c == '_';
        alnum += usize::from(a);
        words += usize::from(w && !in_word);
        in_word = w;
    }
    (alnum, words)
}

/// A message that begins or ends with whitespace loses it in a log line (`getSelfCert: ` with an
/// empty value, an indented `    Directory: {}`): the edge literals are tried again without it,
/// and a hole at the edge then takes nothing or what follows the trimmed literal.
fn find_trimmed(literals: &[Box<str>], lead: bool, trail: bool, text: &str) -> Option<Found> {
    let first = literals.first()?.trim_start();
    let last = literals.last()?.trim_end();
    // Only where the text begins or ends with the literal: there its whitespace was cut off.
    let trim_start = first.len() < literals[0].len() && text.starts_with(first);
    let trim_end = last.len() < literals[literals.len() - 1].len() && text.ends_with(last);
    if !trim_start && !trim_end {
        return None;
    }
    let mut trimmed: Vec<Box<str>> = literals.to_vec();
    if trim_start {
        trimmed[0] = trimmed[0].trim_start().into();
    }
    if trim_end {
        let n = trimmed.len() - 1;
        trimmed[n] = trimmed[n].trim_end().into();
    }
    if trimmed.iter().any(|l| l.is_empty()) {
        return None;
    }
    find_fragments(&trimmed, lead, trail, text)
}

fn find_fragments(literals: &[Box<str>], lead: bool, trail: bool, text: &str) -> Option<Found> {
    let (first, rest) = literals.split_first()?;
    let bytes = text.as_bytes();
    // A message starts at a word boundary, and not inside a qualified name: `Exception: {}` is
    // not in `IllegalStateException: x`, nor `MalformedURLException: {}` (a wrapper's message
    // that names its cause's class) in `java.net.MalformedURLException: no protocol`.
    let glued = |at: usize| {
        let after_word = |i: usize| is_word(bytes[i]);
        !lead
            && first.as_bytes().first().is_some_and(|&b| is_word(b))
            && ((at > 0 && after_word(at - 1))
                || (at > 1 && bytes[at - 1] == b'.' && after_word(at - 2)))
    };
    let mut start = find_bytes(bytes, first.as_bytes())?;
    while glued(start) {
        start += 1 + find_bytes(&bytes[start + 1..], first.as_bytes())?;
    }
    // A template that is holes and then its one literal (`{}{}zzzz`) ends with it: placed at
    // the end of the text when it can be, as the last literal of a longer one is below.
    if rest.is_empty()
        && lead
        && !trail
        && text.len() >= start + first.len()
        && text.ends_with(&**first)
    {
        start = text.len() - first.len();
    }
    let mut holes = Vec::with_capacity(literals.len() + 1);
    if lead {
        holes.push(0..start);
    }
    let mut pos = start + first.len();
    for (i, lit) in rest.iter().enumerate() {
        let last = i + 1 == rest.len();
        // The last literal of a template that ends with it is placed at the end of the text
        // when it can be: that is the exact reading. Every other literal goes leftmost.
        let at = if last && !trail && text.len() >= pos + lit.len() && text.ends_with(&**lit) {
            text.len() - lit.len()
        } else {
            pos + find_bytes(&text.as_bytes()[pos..], lit.as_bytes())?
        };
        holes.push(pos..at);
        pos = at + lit.len();
    }
    if trail {
        holes.push(pos..text.len());
    }
    let exact = (lead || start == 0) && (trail || pos == text.len());
    // And ends at one.
    let last = literals.last().map_or(&[][..], |l| l.as_bytes());
    if !trail
        && pos < bytes.len()
        && is_word(bytes[pos])
        && last.last().is_some_and(|&b| is_word(b))
    {
        return None;
    }
    Some(Found { exact, holes })
}

/// Texts up to this long are searched by their needle's first byte: a log line is about 100
/// bytes, and building a substring searcher for it cost more than the search. Longer texts get
/// `memmem`, linear whatever the text.
const SHORT_TEXT: usize = 256;

/// Where `needle` first occurs in `hay`.
fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if hay.len() > SHORT_TEXT {
        return memchr::memmem::find(hay, needle);
    }
    let Some((&first, rest)) = needle.split_first() else {
        return Some(0);
    };
    memchr::memchr_iter(first, hay).find(|&i| hay[i + 1..].starts_with(rest))
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The literal characters of a regex that are outside any group, class or repetition: enough to
/// judge whether a foreign pattern says anything specific.
fn regex_literal_text(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(e) = chars.next() {
                    if depth == 0 && !e.is_alphanumeric() {
                        out.push(e);
                    }
                }
            }
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '.' | '^' | '$' | '|' | '?' | '*' | '+' | '{' | '}' => {}
            // A character followed by a repetition is optional.
            c if depth == 0 && !matches!(chars.peek(), Some('?' | '*' | '{')) => out.push(c),
            _ => {}
        }
    }
    out
}

/// The source form of each placeholder of `message`, found by aligning the shape's literals with
/// it: `{name}` for `Invalid user {name} from {ip}`. Holes that cannot be aligned are numbered.
pub fn placeholder_names(shape: &Shape, message: &str) -> Vec<String> {
    let numbered = || (1..=shape.holes()).map(|i| format!("{{{i}}}")).collect();
    let Shape::Fragments { .. } = shape else {
        return numbered();
    };
    match find_fragments_exact(shape, message) {
        Some(found) => found
            .holes
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let name = &message[r.clone()];
                if name.is_empty() {
                    format!("{{{}}}", i + 1)
                } else {
                    name.to_owned()
                }
            })
            .collect(),
        None => numbered(),
    }
}

fn find_fragments_exact(shape: &Shape, message: &str) -> Option<Found> {
    shape.find(message).filter(|f| f.exact)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(p: &str) -> Shape {
        Shape::compile(p).unwrap()
    }

    fn captures(p: &str, text: &str) -> Option<(bool, Vec<String>)> {
        let f = shape(p).find(text)?;
        Some((
            f.exact,
            f.holes.iter().map(|r| text[r.clone()].to_owned()).collect(),
        ))
    }

    #[test]
    fn a_last_literal_repeated_at_the_end_is_read_at_the_end() {
        // Found by the `template` fuzz target: the literal first occurs inside the text's run
        // of it, leaving word bytes after it.
        assert_eq!(
            captures("(.*?)(.*?)zzzz", "\u{1e}no zzzzzz"),
            Some((true, vec!["\u{1e}no zz".to_owned()]))
        );
        assert_eq!(
            captures("(.*?) seconds", "took 12 seconds seconds"),
            Some((true, vec!["took 12 seconds".to_owned()]))
        );
    }

    #[test]
    fn templates_of_generic_words_only_are_vague() {
        for p in [
            r"(.*?) error: (.*)",
            r"Error: (.*)",
            r"fatal: (.*?) failed",
            r"(.*?) panicked: (.*)",
            // node-gyp's `{property} not in {cls}` matched npm's "'x' is not in this registry".
            r"(.*?) not in (.*)",
            r"(.*?) is not a (.*)",
        ] {
            assert_eq!(Shape::compile(p).unwrap_err(), Refused::TooVague, "{p}");
        }
        assert!(Shape::compile(r"(.*?) is not in the npm registry").is_ok());
        assert!(Shape::compile(r"tls: handshake failure(.*)").is_ok());
        assert!(Shape::compile(r"error parsing glob (.*)").is_ok());
    }

    #[test]
    fn patterns_from_outside_are_vetted() {
        assert!(vet(r"Invalid user (.*?) from (.*)").is_ok());
        assert!(vet(r"Expected (\w+) at line (\d+), column (\d+)").is_ok());
        // Repetitions of a fixed-length part, or bounded ones, are safe in every engine.
        assert!(vet(r"bad (?:ab)+ token (\d{1,3}\.){3}\d+ here").is_ok());
        for p in [r"(a+)+$", r"^(\w+\s?)*: error$", r"error ((?:x|y+)*)z"] {
            assert!(
                matches!(vet(p), Err(Refused::NestedRepetition(_))),
                "{p} is refused"
            );
        }
        let alternation = (0..20_000)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join("|");
        assert_eq!(vet(&alternation).unwrap_err(), Refused::TooLarge);
        assert!(matches!(vet(r"unclosed (group"), Err(Refused::Invalid(_))));
    }

    #[test]
    fn errata_patterns_are_split_into_literals() {
        let s = shape(r"Invalid user (.*?) from (.*)");
        assert_eq!(
            s.literals(),
            &["Invalid user ".into(), " from ".into()] as &[Box<str>]
        );
        assert!(matches!(
            s,
            Shape::Fragments {
                lead: false,
                trail: true,
                ..
            }
        ));
        assert_eq!(s.key(), Some("Invalid user "));
        let s = shape(r"(.*?) is not a directory \(errno (.*?)\)");
        assert!(matches!(
            s,
            Shape::Fragments {
                lead: true,
                trail: false,
                ..
            }
        ));
        assert_eq!(s.literals()[1].as_ref(), ")");
    }

    #[test]
    fn a_message_matches_without_the_whitespace_a_log_line_trims_off_its_edges() {
        // `getSelfCert: {}` with an empty value, and an indented message.
        assert_eq!(
            captures(r"getSelfCert: (.*)", "getSelfCert:"),
            Some((true, vec!["".into()]))
        );
        assert_eq!(
            captures(r"    Directory: (.*)", "Directory: /tmp"),
            Some((true, vec!["/tmp".into()]))
        );
        assert_eq!(
            captures(r"NotSupported ", "NotSupported"),
            Some((true, vec![]))
        );
        // Only the edges: inner whitespace is still the template's.
        assert_eq!(captures(r"abc def: (.*)", "abcdef:"), None);
    }

    #[test]
    fn holes_take_what_the_lazy_groups_would() {
        assert_eq!(
            captures(
                r"Invalid user (.*?) from (.*)",
                "Invalid user bob from 10.0.0.1"
            ),
            Some((true, vec!["bob".into(), "10.0.0.1".into()]))
        );
        // Empty renderings, and values that contain the next literal's text.
        assert_eq!(
            captures(r"aa (.*?) bb (.*?) cc", "aa  bb  bb x cc"),
            Some((true, vec!["".into(), " bb x".into()]))
        );
        assert_eq!(
            captures(r"(.*?): not found", "x: y: not found"),
            Some((true, vec!["x: y".into()]))
        );
        // Text around the message makes the match partial.
        assert_eq!(
            captures(
                r"cannot open (.*?) for reading",
                "E cannot open /x for reading (retry)"
            ),
            Some((false, vec!["/x".into()]))
        );
        assert_eq!(
            captures(r"cannot open (.*?) for reading", "cannot open /x"),
            None
        );
        // A template starts a message, not the middle of a word or of a qualified name.
        assert_eq!(captures(r"Timeout: (.*)", "ReadTimeout: x"), None);
        assert_eq!(
            captures(
                r"MalformedURLException: (.*)",
                "java.net.MalformedURLException: no protocol: x"
            ),
            None
        );
        assert_eq!(
            captures(
                r"MalformedURLException: (.*)",
                "SerialException: MalformedURLException: no protocol: x"
            ),
            Some((false, vec!["no protocol: x".into()]))
        );
    }

    #[test]
    fn regex_metacharacters_in_messages_are_literal() {
        let p = regex::escape("expected [a-z]+ (got $x) {1}") + "(.*)";
        assert_eq!(
            captures(&p, "expected [a-z]+ (got $x) {1}: .*"),
            Some((true, vec![": .*".into()]))
        );
    }

    #[test]
    fn letters_and_words_are_counted_in_ascii_and_beyond() {
        assert_eq!(letters_and_words("Invalid user_name from "), (19, 3));
        assert_eq!(letters_and_words("héllo, wörld!"), (10, 2));
        assert_eq!(letters_and_words(": {} = "), (0, 0));
        assert_eq!(letters_and_words("__"), (0, 1));
    }

    #[test]
    fn vague_templates_are_refused() {
        for p in [
            r"(.*)",
            r"(.*?): (.*)",
            r"(.*?)=(.*)",
            r"\{\}",
            r"E(.*)",
            r"[a-z]+",
        ] {
            assert_eq!(Shape::compile(p).unwrap_err(), Refused::TooVague, "{p}");
        }
        assert!(Shape::compile(r"Invalid (.*)").is_ok());
    }

    #[test]
    fn foreign_patterns_run_in_bounded_time_or_are_refused() {
        // Catastrophic for a backtracking engine; linear for this one.
        let s = shape(r"timeout (a+)+b");
        assert!(matches!(s, Shape::Regex(_)));
        let text = format!("timeout {}", "a".repeat(100_000));
        assert_eq!(s.find(&text), None);
        assert_eq!(
            Shape::compile(r"error (.{1000}){1000}").unwrap_err(),
            Refused::TooLarge
        );
        assert!(matches!(
            Shape::compile(r"error ((").unwrap_err(),
            Refused::Invalid(_)
        ));
        let long = "x".repeat(MAX_PATTERN_LEN + 1);
        assert_eq!(Shape::compile(&long).unwrap_err(), Refused::TooLarge);
    }

    #[test]
    fn placeholder_names_come_from_the_message() {
        let s = shape(r"Invalid user (.*?) from (.*)");
        assert_eq!(
            placeholder_names(&s, "Invalid user {name} from {ip}"),
            ["{name}", "{ip}"]
        );
        let s = shape(r"Sandbox (.*?) not found");
        assert_eq!(
            placeholder_names(&s, "Sandbox ${sandbox.id} not found"),
            ["${sandbox.id}"]
        );
        assert_eq!(placeholder_names(&s, "something else"), ["{1}"]);
    }
}
