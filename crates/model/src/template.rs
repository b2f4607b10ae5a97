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

#[cfg(test)]
mod tests {
    use super::*;

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
