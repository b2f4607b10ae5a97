//! The data errata produces: one [`Record`] per error site, in the shape of schema version 2.
//!
//! This crate is a leaf: plain types, no I/O. The extractor builds a [`Template`] from the
//! message expression it finds in the source, and everything derived from the message (the
//! `messagePattern` regex, the slug, the id) is computed here, so that every other crate agrees
//! on them.
//!
//! ```
//! use errata_model::{Segment, Template};
//!
//! let t = Template::new(vec![
//!     Segment::Literal("Invalid user ".into()),
//!     Segment::Placeholder { source: "{name}".into() },
//!     Segment::Literal(".".into()),
//! ]);
//! assert_eq!(t.message(), "Invalid user {name}.");
//! assert_eq!(t.pattern(), r"Invalid user (.*?)\.");
//! assert_eq!(errata_model::slug("Invalid user {name}."), "invalid-user-name");
//! ```

mod paths;
mod record;
mod status;
mod template;

pub use paths::is_test_path;

/// What Rust's `unreachable!` prints before its message: the message a user sees starts with it.
pub const RUST_UNREACHABLE: &str = "internal error: entered unreachable code";
pub use record::{
    record_id, slug, BackgroundTag, ErrorType, ExportLine, HandlingStrategy, MatchEntry, Record,
    Ref, RefKind, Severity, EXPECT_SEPARATOR, EXPLANATION_FIELDS, SCHEMA_V2, SCHEMA_VERSION,
};
pub use status::{http_status_from_name, http_status_from_number, is_http_status};
pub use template::{words, PatternParts, Segment, Template};
