//! Message templates: the literal text of a message and its placeholders in source form.

/// One piece of a message: text that appears verbatim at run time, or a value filled in at run
/// time, kept in the form the source wrote it (`${id}`, `{name}`, `%s`, `{}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Literal(String),
    Placeholder { source: String },
}

/// A message as the source builds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Template {
    segments: Vec<Segment>,
}

impl Template {
    /// Builds a template, merging neighbouring literals and dropping empty ones.
    pub fn new(segments: impl IntoIterator<Item = Segment>) -> Template {
        let mut t = Template::default();
        for s in segments {
            t.push(s);
        }
        t
    }

    pub fn literal(text: impl Into<String>) -> Template {
        Template::new([Segment::Literal(text.into())])
    }

    pub fn placeholder(source: impl Into<String>) -> Template {
        Template::new([Segment::Placeholder {
            source: source.into(),
        }])
    }

    pub fn push(&mut self, segment: Segment) {
        match segment {
            Segment::Literal(text) if text.is_empty() => {}
            Segment::Literal(text) => match self.segments.last_mut() {
                Some(Segment::Literal(prev)) => prev.push_str(&text),
                _ => self.segments.push(Segment::Literal(text)),
            },
            p @ Segment::Placeholder { .. } => self.segments.push(p),
        }
    }

    pub fn push_literal(&mut self, text: &str) {
        self.push(Segment::Literal(text.to_owned()));
    }

    pub fn push_placeholder(&mut self, source: impl Into<String>) {
        self.push(Segment::Placeholder {
            source: source.into(),
        });
    }

    pub fn append(&mut self, other: Template) {
        for s in other.segments {
            self.push(s);
        }
    }

    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// The number of bytes of literal text.
    pub fn literal_len(&self) -> usize {
        self.segments
            .iter()
            .map(|s| match s {
                Segment::Literal(t) => t.len(),
                Segment::Placeholder { .. } => 0,
            })
            .sum()
    }

    /// The number of letters and digits of literal text: what a reader could recognise.
    pub fn literal_alnum(&self) -> usize {
        self.segments
            .iter()
            .map(|s| match s {
                Segment::Literal(t) => t.chars().filter(|c| c.is_alphanumeric()).count(),
                Segment::Placeholder { .. } => 0,
            })
            .sum()
    }

    pub fn has_placeholders(&self) -> bool {
        self.segments
            .iter()
            .any(|s| matches!(s, Segment::Placeholder { .. }))
    }

    /// The `errorMessage`: literal text with each placeholder in its source form.
    pub fn message(&self) -> String {
        let mut out = String::new();
        for s in &self.segments {
            match s {
                Segment::Literal(t) => out.push_str(t),
                Segment::Placeholder { source } => out.push_str(source),
            }
        }
        out
    }

    /// The `messagePattern`: an unanchored regex with the literal parts escaped as
    /// `regex::escape` does and each placeholder a group that also matches an empty rendering.
    /// A placeholder at the end takes the rest of the line; one in the middle takes as little
    /// as the next literal allows.
    pub fn pattern(&self) -> String {
        let mut out = String::new();
        let last = self.segments.len().saturating_sub(1);
        for (i, s) in self.segments.iter().enumerate() {
            match s {
                Segment::Literal(t) => out.push_str(&regex::escape(t)),
                Segment::Placeholder { .. } if i == last => out.push_str("(.*)"),
                Segment::Placeholder { .. } => out.push_str("(.*?)"),
            }
        }
        out
    }
}

/// A `messagePattern` read back: its literal fragments in order, with a hole before the first
/// (`lead`), between each pair, and after the last (`trail`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternParts {
    pub literals: Vec<String>,
    pub lead: bool,
    pub trail: bool,
}

impl PatternParts {
    /// Reads a pattern written as errata writes them (escaped literal text and `(.*?)` / `(.*)`
    /// groups); `None` when it uses any other regex syntax.
    pub fn parse(pattern: &str) -> Option<PatternParts> {
        const HOLES: [&str; 6] = ["(.*?)", "(.*)", "(.+?)", "(.+)", ".*?", ".*"];
        const SPECIAL: &[char] = &[
            '\\', '.', '^', '$', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}',
        ];
        let mut parts = PatternParts {
            literals: Vec::new(),
            lead: false,
            trail: false,
        };
        let mut current = String::new();
        let mut rest = pattern;
        while let Some(c) = rest.chars().next() {
            if !SPECIAL.contains(&c) {
                // A run of plain text, at once.
                let end = rest.find(SPECIAL).unwrap_or(rest.len());
                current.push_str(&rest[..end]);
                rest = &rest[end..];
                parts.trail = false;
                continue;
            }
            if let Some(h) = HOLES.iter().find(|h| rest.starts_with(**h)) {
                if current.is_empty() {
                    parts.lead |= parts.literals.is_empty();
                } else {
                    parts.literals.push(std::mem::take(&mut current));
                }
                parts.trail = true;
                rest = &rest[h.len()..];
                continue;
            }
            // Any other regex syntax than an escape makes the pattern not errata's form.
            if c != '\\' {
                return None;
            }
            parts.trail = false;
            let escaped = rest[1..].chars().next()?;
            // `\d`, `\w`, `\b` … are classes or assertions, not literal text.
            if escaped.is_alphanumeric() {
                return None;
            }
            current.push(escaped);
            rest = &rest[1 + escaped.len_utf8()..];
        }
        if !current.is_empty() {
            parts.literals.push(current);
        }
        Some(parts)
    }

    /// A word that every rendering of the pattern contains as a whole word: the longest word of
    /// the literal text that no placeholder can extend. Looking the words of a runtime message
    /// up among the anchors finds the few templates that could match it.
    pub fn anchor(&self) -> Option<&str> {
        let last = self.literals.len().saturating_sub(1);
        let mut best: Option<&str> = None;
        for (i, lit) in self.literals.iter().enumerate() {
            // A word touching a hole may be glued to the value: `id{n}` renders as `id42`.
            let open_start = i > 0 || self.lead;
            let open_end = i < last || self.trail;
            for (start, w) in word_spans(lit) {
                let end = start + w.len();
                if (start == 0 && open_start) || (end == lit.len() && open_end) {
                    continue;
                }
                if w.chars().count() >= 2 && best.is_none_or(|b| w.len() > b.len()) {
                    best = Some(w);
                }
            }
        }
        best
    }
}

/// The words of a text, as anchors are cut: runs of letters, digits and `_`.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    word_spans(text).map(|(_, w)| w)
}

fn word_spans(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut pos = 0;
    std::iter::from_fn(move || {
        let rest = &text[pos..];
        let start = pos + rest.find(is_word)?;
        let len = text[start..]
            .find(|c| !is_word(c))
            .unwrap_or(text.len() - start);
        pos = start + len;
        Some((start, &text[start..start + len]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_read_back_into_their_literals() {
        let p = PatternParts::parse(r"Invalid user (.*?) from (.*)").unwrap();
        assert_eq!(p.literals, ["Invalid user ", " from "]);
        assert!(!p.lead && p.trail);
        let p = PatternParts::parse(r"(.*?) is not a directory \(errno (.*?)\)").unwrap();
        assert!(p.lead && !p.trail);
        assert_eq!(p.literals[1], ")");
        assert_eq!(PatternParts::parse(r"\d+ items"), None);
        assert_eq!(PatternParts::parse(r"a|b"), None);
        let t = Template::new([
            Segment::Literal("expected [a-z]+ (got $x) {1}".into()),
            Segment::Placeholder {
                source: "{}".into(),
            },
        ]);
        let p = PatternParts::parse(&t.pattern()).unwrap();
        assert_eq!(p.literals, ["expected [a-z]+ (got $x) {1}"]);
    }

    #[test]
    fn anchors_are_whole_words_no_value_can_extend() {
        let anchor = |p: &str| PatternParts::parse(p).unwrap().anchor().map(str::to_owned);
        assert_eq!(
            anchor(r"Invalid user (.*?) from (.*)").as_deref(),
            Some("Invalid")
        );
        // `lease` touches the hole before it and `expiredx` could be `expired{n}`.
        assert_eq!(
            anchor(r"(.*?)lease was expired(.*)").as_deref(),
            Some("was")
        );
        assert_eq!(anchor(r"(.*?)x(.*)"), None);
        assert_eq!(
            anchor(r"CreateOS process cleanup").as_deref(),
            Some("CreateOS")
        );
        let words: Vec<&str> = words("Error: lease 7 (id=ab_c) ünï!").collect();
        assert_eq!(words, ["Error", "lease", "7", "id", "ab_c", "ünï"]);
    }

    #[test]
    fn literal_only_pattern_is_escaped() {
        let t = Template::literal(
            "CreateOS process cleanup is unconfirmed; destroy this lease before reusing it.",
        );
        assert_eq!(
            t.pattern(),
            r"CreateOS process cleanup is unconfirmed; destroy this lease before reusing it\."
        );
    }

    #[test]
    fn placeholders_match_empty_and_metacharacters() {
        let mut t = Template::literal("bad value ");
        t.push_placeholder("%s");
        t.push_literal(" (x)");
        t.push_placeholder("{}");
        let re = regex::Regex::new(&t.pattern()).unwrap();
        assert!(re.is_match("bad value  (x)"));
        let caps = re.captures("at: bad value a.*[b (x) tail").unwrap();
        assert_eq!(&caps[1], "a.*[b");
        assert_eq!(&caps[2], " tail");
        assert_eq!(t.message(), "bad value %s (x){}");
    }

    #[test]
    fn neighbouring_literals_merge() {
        let t = Template::new([
            Segment::Literal("a".into()),
            Segment::Literal(String::new()),
            Segment::Literal("b".into()),
        ]);
        assert_eq!(t.segments().len(), 1);
        assert_eq!(t.literal_len(), 2);
    }
}
