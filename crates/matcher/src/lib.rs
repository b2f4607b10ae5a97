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

/// A regex compiled once, on first use (`LazyLock` and `Regex` must be in scope).
macro_rules! re {
    ($name:ident, $pat:expr) => {
        static $name: LazyLock<Regex> = LazyLock::new(|| Regex::new($pat).unwrap());
    };
}

pub mod input;
pub mod template;
pub mod trace;

mod matcher;
mod prefilter;
mod signature;
mod similar;

pub use errata_model::MatchEntry;
pub use matcher::{Capture, Hit, LoadReport, Matcher, Query, MAX_TEXT};
pub use trace::{Frame, Grouper, Segment};
