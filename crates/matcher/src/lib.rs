//! Matching runtime error text to errata's records.
//!
//! A [`Matcher`] holds every record's message pattern. Given a message (a line of a log, a
//! pasted error, a segment of a stack trace) it answers with the records whose template renders
//! to it, best first, with the text each placeholder took.
//!
//! How it is fast: each template is reduced to its literal fragments, and a prefilter over the
//! longest fragment of every template finds, in one pass over the text, the few templates that
//! could match; only those are verified ([`template::Shape::find`]). A text
//! that contains no fragment costs one automaton pass.
//!
//! How matches are ranked, in order: the template with more literal text wins (a rendering of
//! `Invalid user {name} from {ip}` does not lose to `Invalid {x}`); then an exact match (the
//! template accounts for the whole message) over a partial one; then evidence from stack
//! frames (a frame in the record's file, at or near its line); then the class and code named in
//! front of the message.

/// A regex compiled once, on first use (`LazyLock` and `Regex` must be in scope), with ASCII
/// classes ([`ascii_classes`]).
macro_rules! re {
    ($name:ident, $pat:expr) => {
        static $name: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(&crate::ascii_classes($pat)).unwrap());
    };
}

/// `pattern` with its `\d`, `\s` and `\w` classes ASCII's. The surroundings of a log line
/// (timestamps, levels, logger and host names, stack frames) are ASCII, and Unicode's classes
/// made compiling the regexes that read them most of what an `errata explain` costs.
pub(crate) fn ascii_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 32);
    let mut in_class = false;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('d' | 's' | 'w')) => {
                    let set = match e {
                        'd' => "0-9",
                        's' => r"\t\n\x0B\x0C\r ",
                        _ => "0-9A-Za-z_",
                    };
                    if in_class {
                        out.push_str(set);
                    } else {
                        out.push('[');
                        out.push_str(set);
                        out.push(']');
                    }
                }
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            },
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // A `]` or `^]` right after the opening bracket is a literal.
                let rest = chars.as_str();
                for lit in ["^]", "]", "^"] {
                    if let Some(after) = rest.strip_prefix(lit) {
                        out.push_str(lit);
                        chars = after.chars();
                        break;
                    }
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

pub mod input;
pub mod template;
pub mod trace;

mod matcher;
mod prefilter;
mod signature;
mod similar;

pub use errata_model::MatchEntry;
pub use matcher::{nearest, Capture, Hit, LoadReport, Matcher, Query, MAX_TEXT};
pub use trace::{Frame, Grouper, Segment};

#[cfg(test)]
mod tests {
    use super::ascii_classes;

    #[test]
    fn classes_become_ascii_in_and_out_of_brackets() {
        assert_eq!(
            ascii_classes(r"^\d{4}\s+\w"),
            r"^[0-9]{4}[\t\n\x0B\x0C\r ]+[0-9A-Za-z_]"
        );
        assert_eq!(ascii_classes(r"[\w.-]+[ \d]"), r"[0-9A-Za-z_.-]+[ 0-9]");
        // Other escapes, brackets as literals and negated classes are kept.
        assert_eq!(
            ascii_classes(r"\x22\S\[[^\]\[]{1,100}\]"),
            r"\x22\S\[[^\]\[]{1,100}\]"
        );
        assert_eq!(ascii_classes(r"[]\d]"), r"[]0-9]");
    }
}
