//! The record of one error site, serialised with the keys in the schema's order.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The `schemaVersion` of every record errata writes.
pub const SCHEMA_VERSION: u32 = 2;

/// The JSON Schema every exported line validates against (`error-record.v2.schema.json`).
pub const SCHEMA_V2: &str = include_str!("../schema/error-record.v2.schema.json");

/// How an error leaves the code that raises it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorType {
    Exception,
    ErrorReturn,
    Panic,
    Assertion,
    Http,
    Log,
    Exit,
}

impl ErrorType {
    pub const ALL: [ErrorType; 7] = [
        ErrorType::Exception,
        ErrorType::ErrorReturn,
        ErrorType::Panic,
        ErrorType::Assertion,
        ErrorType::Http,
        ErrorType::Log,
        ErrorType::Exit,
    ];

    /// What to say of a type name that is none of these.
    pub fn unknown(name: &str) -> String {
        let names: Vec<&str> = ErrorType::ALL.iter().map(|t| t.as_str()).collect();
        let (last, rest) = names.split_last().expect("seven types");
        format!("unknown type {name:?}: use {} or {last}", rest.join(", "))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::Exception => "exception",
            ErrorType::ErrorReturn => "error-return",
            ErrorType::Panic => "panic",
            ErrorType::Assertion => "assertion",
            ErrorType::Http => "http",
            ErrorType::Log => "log",
            ErrorType::Exit => "exit",
        }
    }

    pub fn parse(s: &str) -> Option<ErrorType> {
        ErrorType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Fatal,
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Fatal => "fatal",
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        [Severity::Fatal, Severity::Error, Severity::Warning]
            .into_iter()
            .find(|v| v.as_str() == s)
    }
}

/// The schema's closed list of handling strategies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandlingStrategy {
    Retry,
    Fallback,
    FailFast,
    FixInput,
    FixConfiguration,
    FixCode,
    Propagate,
    Ignore,
}

/// The schema's closed list of background tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackgroundTag {
    InvalidInput,
    InvalidStateTransition,
    NotFound,
    AlreadyExists,
    PermissionDenied,
    AuthenticationFailed,
    MissingConfiguration,
    InvalidConfiguration,
    UnsupportedOperation,
    NotImplemented,
    Timeout,
    NetworkFailure,
    RateLimited,
    ResourceExhausted,
    DependencyFailure,
    MalformedData,
    ConcurrencyConflict,
    IoFailure,
    Cancelled,
    Deprecated,
    InternalInvariant,
}

impl BackgroundTag {
    /// The schema's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            BackgroundTag::InvalidInput => "invalid-input",
            BackgroundTag::InvalidStateTransition => "invalid-state-transition",
            BackgroundTag::NotFound => "not-found",
            BackgroundTag::AlreadyExists => "already-exists",
            BackgroundTag::PermissionDenied => "permission-denied",
            BackgroundTag::AuthenticationFailed => "authentication-failed",
            BackgroundTag::MissingConfiguration => "missing-configuration",
            BackgroundTag::InvalidConfiguration => "invalid-configuration",
            BackgroundTag::UnsupportedOperation => "unsupported-operation",
            BackgroundTag::NotImplemented => "not-implemented",
            BackgroundTag::Timeout => "timeout",
            BackgroundTag::NetworkFailure => "network-failure",
            BackgroundTag::RateLimited => "rate-limited",
            BackgroundTag::ResourceExhausted => "resource-exhausted",
            BackgroundTag::DependencyFailure => "dependency-failure",
            BackgroundTag::MalformedData => "malformed-data",
            BackgroundTag::ConcurrencyConflict => "concurrency-conflict",
            BackgroundTag::IoFailure => "io-failure",
            BackgroundTag::Cancelled => "cancelled",
            BackgroundTag::Deprecated => "deprecated",
            BackgroundTag::InternalInvariant => "internal-invariant",
        }
    }
}

impl HandlingStrategy {
    /// The schema's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            HandlingStrategy::Retry => "retry",
            HandlingStrategy::Fallback => "fallback",
            HandlingStrategy::FailFast => "fail-fast",
            HandlingStrategy::FixInput => "fix-input",
            HandlingStrategy::FixConfiguration => "fix-configuration",
            HandlingStrategy::FixCode => "fix-code",
            HandlingStrategy::Propagate => "propagate",
            HandlingStrategy::Ignore => "ignore",
        }
    }
}

/// One error site, exactly as one exported line's `record` (schema v2). Field order is the
/// schema's key order; serde keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub id: String,
    pub repo: String,
    pub slug: String,
    pub error_code: Option<String>,
    pub error_message: String,
    pub message_pattern: String,
    pub error_type: ErrorType,
    pub error_class: Option<String>,
    pub http_status: Option<u16>,
    pub severity: Severity,
    pub file_path: String,
    pub line_number: u32,
    pub source_code: String,
    pub source_code_start: u32,
    pub source_code_end: u32,
    pub github_url: Option<String>,
    pub documentation: String,
    pub trigger_scenarios: String,
    pub common_situations: String,
    pub solutions: Vec<String>,
    pub example_fix: String,
    pub handling_strategy: HandlingStrategy,
    pub validation_code: String,
    pub type_guard: String,
    pub try_catch_pattern: String,
    pub prevention_tips: Vec<String>,
    pub tags: Vec<String>,
    pub background_tag: BackgroundTag,
    pub analyzed_sha: Option<String>,
    pub analyzed_at: String,
    pub content_changed_at: String,
    pub schema_version: u32,
}

/// One line of a JSON Lines export: `{"record": {...}, "datasetVersion": "..."}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportLine<'a> {
    pub record: std::borrow::Cow<'a, Record>,
    pub dataset_version: String,
}

/// The record id: 16 hex digits of SHA-256 over repo, file and message, plus the ordinal of this
/// message among equal messages of the same file (0 for the first), so that an id survives line
/// shifts and two sites with one message in one file still differ.
pub fn record_id(repo: &str, file_path: &str, message: &str, ordinal: u32) -> String {
    let mut h = Sha256::new();
    h.update(repo.as_bytes());
    h.update([0]);
    h.update(file_path.as_bytes());
    h.update([0]);
    h.update(message.as_bytes());
    if ordinal > 0 {
        h.update([0]);
        h.update(ordinal.to_le_bytes());
    }
    let digest = h.finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The slug of a message: lower-cased, every run of characters other than `a-z0-9` turned into
/// one `-`, trimmed, and cut at a word boundary to at most 60 characters. A message with no
/// letter or digit gets `error`.
pub fn slug(message: &str) -> String {
    const MAX: usize = 60;
    let mut out = String::with_capacity(message.len().min(MAX + 8));
    for c in message.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.len() > MAX {
        // Cut at the last word boundary that keeps the slug within MAX characters; a single
        // word longer than MAX is cut inside it.
        let cut = out[..=MAX].rfind('-').unwrap_or(MAX);
        out.truncate(cut);
        while out.ends_with('-') {
            out.pop();
        }
    }
    if out.is_empty() {
        out.push_str("error");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_types_are_told_the_known_ones() {
        assert_eq!(
            ErrorType::unknown("oops"),
            "unknown type \"oops\": use exception, error-return, panic, assertion, http, log or exit"
        );
    }

    #[test]
    fn slug_matches_the_seed() {
        assert_eq!(
            slug("CreateOS process cleanup is unconfirmed; destroy this lease before reusing it."),
            "createos-process-cleanup-is-unconfirmed-destroy-this-lease"
        );
    }

    #[test]
    fn slug_of_punctuation_only_is_still_valid() {
        assert_eq!(slug("{}: {}"), "error");
        assert_eq!(slug("%s"), "s");
        assert_eq!(slug("Ünïcode ü"), "n-code");
    }

    #[test]
    fn slug_cuts_a_long_word() {
        let s = slug(&"a".repeat(100));
        assert_eq!(s.len(), 60);
    }

    #[test]
    fn ids_are_stable_and_distinct() {
        let a = record_id("o/r", "a.ts", "boom", 0);
        assert_eq!(a.len(), 16);
        assert_eq!(a, record_id("o/r", "a.ts", "boom", 0));
        assert_ne!(a, record_id("o/r", "a.ts", "boom", 1));
        assert_ne!(a, record_id("o/r", "b.ts", "boom", 0));
    }
}

/// What matching runtime text needs of a record: read from the store without decoding the
/// record, and held by the matcher for every record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchEntry {
    pub id: String,
    pub slug: String,
    pub file_path: String,
    pub line_number: u32,
    /// `errorMessage`, whose placeholders name the captures.
    pub message: String,
    /// `messagePattern`.
    pub pattern: String,
    pub error_class: Option<String>,
    pub error_code: Option<String>,
    /// The function the record raises in (`raw_decode`, `nextNode`): a stack frame of another
    /// release, whose lines have moved, still names it.
    pub function: Option<String>,
    /// The class or type `function` is a method of (`Itr`, `decodeState`).
    pub owner: Option<String>,
}

/// What a reference found in a source file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// A call of a function or method, by its name.
    Call,
    /// The definition of a function or method.
    Definition,
    /// A place that catches or tests for an error class or sentinel.
    Handler,
    /// A place that returns a sentinel error value (Go's `return nil, ErrClosed`).
    Use,
    /// A test that expects an error of a class (`pytest.raises(X, match=…)`): its text is the
    /// pattern, [`EXPECT_SEPARATOR`], and the call that raises it.
    Expect,
    /// A function or method that makes an error with a fixed code (npm's `usageError(prefix) {
    /// return Object.assign(new Error(…), { code: 'EUSAGE' }) }`): its text is the code.
    Builds,
    /// A call inside a `try` of its function: named by the called name, its text is the
    /// clauses that catch around it, innermost first (`Catch::encode_all` of errata-explain).
    Catches,
    /// A definition that code outside its module may call though its head does not say so:
    /// a method of a Rust trait or of its `impl` for a type, of a public Java interface, an
    /// exported JavaScript function or a public method of an exported class. It follows the
    /// [`RefKind::Definition`] of the same name and line.
    Exposed,
}

/// Between the pattern and the call in the text of a [`RefKind::Expect`] reference.
pub const EXPECT_SEPARATOR: char = '\u{1f}';

impl RefKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Call => "call",
            RefKind::Definition => "def",
            RefKind::Handler => "handler",
            RefKind::Use => "use",
            RefKind::Expect => "expect",
            RefKind::Builds => "builds",
            RefKind::Catches => "catches",
            RefKind::Exposed => "exposed",
        }
    }

    /// The kind [`RefKind::as_str`] names.
    pub fn parse(s: &str) -> Option<RefKind> {
        [
            RefKind::Call,
            RefKind::Definition,
            RefKind::Handler,
            RefKind::Use,
            RefKind::Expect,
            RefKind::Builds,
            RefKind::Catches,
            RefKind::Exposed,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }
}

/// A call, definition or handler in a source file: what links a record to the rest of its
/// repository (the callers of its function, the handlers of its error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ref {
    pub kind: RefKind,
    /// The called or defined name (its last segment), or the handled class or sentinel.
    pub name: String,
    pub line: u32,
    /// The function the reference is in.
    pub function: Option<String>,
    /// The call or clause as written, on one line.
    pub text: String,
}

/// The explanation fields of a record, as the schema spells them, in its order.
pub const EXPLANATION_FIELDS: [&str; 12] = [
    "documentation",
    "triggerScenarios",
    "commonSituations",
    "solutions",
    "exampleFix",
    "handlingStrategy",
    "validationCode",
    "typeGuard",
    "tryCatchPattern",
    "preventionTips",
    "tags",
    "backgroundTag",
];
