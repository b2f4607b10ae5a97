//! What kind of error a site raises: its background (the schema's closed list) and the handling
//! strategy that suits it, from the message, the class, the status and the facts.

use errata_lang::Lang;
use errata_model::{BackgroundTag, ErrorType, HandlingStrategy};

use crate::Site;

/// Keywords of a message and the background they indicate, most specific first.
const BACKGROUNDS: &[(&[&str], BackgroundTag)] = &[
    (
        &["not implemented", "unimplemented", "todo"],
        BackgroundTag::NotImplemented,
    ),
    (&["deprecated"], BackgroundTag::Deprecated),
    (
        &["timed out", "timeout", "deadline"],
        BackgroundTag::Timeout,
    ),
    (
        &["rate limit", "too many requests"],
        BackgroundTag::RateLimited,
    ),
    (
        &[
            "parse",
            "malformed",
            "corrupt",
            "decode",
            "unexpected token",
            "syntax",
            "json",
        ],
        BackgroundTag::MalformedData,
    ),
    (
        // What the code expects of itself: a bug if it fails, whatever else it names.
        &[
            "should have been",
            "should never",
            "should not happen",
            "should not be reached",
            "impossible",
        ],
        BackgroundTag::InternalInvariant,
    ),
    (
        // Not `token`: a lexer's tokens (Go's `go/token`) are no credentials.
        &[
            "unauthori",
            "authenticat",
            "credential",
            "access token",
            "bearer",
            "password",
            "login",
            "authorization required",
            "refresh token",
            "failed to verify",
            "verification failed",
            "verify failed",
            "unknown authority",
        ],
        BackgroundTag::AuthenticationFailed,
    ),
    (
        &["permission", "forbidden", "denied"],
        BackgroundTag::PermissionDenied,
    ),
    (
        &[
            "already exists",
            "duplicate",
            "already registered",
            "already defined",
        ],
        BackgroundTag::AlreadyExists,
    ),
    (
        // Not "unknown" or "missing": an unknown option, a missing field (see bad input).
        &["not found", "no such", "does not exist"],
        BackgroundTag::NotFound,
    ),
    (
        &[
            "unsupported",
            "not supported",
            "cannot be used",
            "can't be used",
        ],
        BackgroundTag::UnsupportedOperation,
    ),
    (
        &[
            "invalid",
            "must",
            "expected",
            "required",
            "should",
            "bad",
            "illegal",
            "wrong",
            "empty",
            "not allowed",
            // An argument that goes only with another ("… is only meaningful with ssl").
            "only meaningful",
            "only valid",
            // What was given is not what is known, misses a part, is past a bound or
            // disagrees with itself: no lookup that failed, no resource that ran out, no race.
            "unknown",
            "missing",
            "too large",
            "too long",
            "too big",
            "exceed",
            "overflow",
            "conflict",
        ],
        BackgroundTag::InvalidInput,
    ),
    (
        &["config", "environment variable", "setting", "option"],
        BackgroundTag::InvalidConfiguration,
    ),
    (
        &["connect", "network", "socket", "host", "dns"],
        BackgroundTag::NetworkFailure,
    ),
    (
        // Not "too large", "exceeds" or "overflow": a value past a bound (see bad input).
        &["out of memory", "exhausted", "no space left", "quota"],
        BackgroundTag::ResourceExhausted,
    ),
    (&["cancel", "abort", "interrupt"], BackgroundTag::Cancelled),
    (
        // A lock released by a thread that does not hold it: a misuse, no race to retry.
        &[
            "un-acquired",
            "unacquired",
            "not acquired",
            "not held",
            "not owned",
            "un-owned",
        ],
        BackgroundTag::InvalidStateTransition,
    ),
    (
        // Not "conflict": two values that disagree ("Conflict found: Field … differs").
        &["concurrent", "lock", "in progress"],
        BackgroundTag::ConcurrencyConflict,
    ),
    (
        &["read", "write", "file", "directory", "i/o", "disk"],
        BackgroundTag::IoFailure,
    ),
    (
        &[
            "state",
            "closed",
            "not started",
            "not initialized",
            "not initialised",
            "uninitialized",
            "uninitialised",
            "already",
            "before",
            "after",
        ],
        BackgroundTag::InvalidStateTransition,
    ),
];

pub(crate) fn background_tag(site: &Site<'_>) -> BackgroundTag {
    match site.status {
        Some(401) => return BackgroundTag::AuthenticationFailed,
        Some(403) => return BackgroundTag::PermissionDenied,
        Some(404) => return BackgroundTag::NotFound,
        Some(409) => return BackgroundTag::ConcurrencyConflict,
        Some(429) => return BackgroundTag::RateLimited,
        Some(400 | 422) => return BackgroundTag::InvalidInput,
        Some(501) => return BackgroundTag::NotImplemented,
        Some(502 | 503) => return BackgroundTag::DependencyFailure,
        Some(504) => return BackgroundTag::Timeout,
        _ => {}
    }
    // A command run without an argument it needs, or with an option it refuses: how it
    // was run, whatever words the message uses.
    if !crate::command::terms(site).is_empty() {
        return BackgroundTag::InvalidInput;
    }
    if compiler_internal(site) {
        return BackgroundTag::InternalInvariant;
    }
    let m = site.message.to_lowercase();
    if let Some(tag) = environment(site, &m) {
        return tag;
    }
    let class = site.class.unwrap_or_default().to_lowercase();
    if class.contains("notimplemented") || class.contains("unsupportedoperation") {
        return BackgroundTag::NotImplemented;
    }
    if class.contains("timeout") {
        return BackgroundTag::Timeout;
    }
    // `next()` past the end, `getLast()` of an empty list: the object is in no state for it.
    if class.ends_with("nosuchelementexception") {
        return BackgroundTag::InvalidStateTransition;
    }
    if class.contains("notfound") || class.contains("keyerror") || class.contains("filenotfound") {
        return BackgroundTag::NotFound;
    }
    if class.contains("permission") || class.contains("security") {
        return BackgroundTag::PermissionDenied;
    }
    if let Some(tag) = by_words(&m) {
        // "… should be smaller than …" in a panic of a function only the crate calls is the
        // code's claim about its own values, not a rule for a caller.
        let own_claim = own_claim(site);
        if tag == BackgroundTag::InvalidInput && own_claim {
            return BackgroundTag::InternalInvariant;
        }
        return tag;
    }
    // Java throws `IOException` for malformed data too: the class says less than the words.
    if class.contains("ioerror") || class.contains("ioexception") || class.contains("oserror") {
        return BackgroundTag::IoFailure;
    }
    if class.contains("value") || class.contains("argument") || class.contains("type") {
        return BackgroundTag::InvalidInput;
    }
    if class.contains("state") {
        return BackgroundTag::InvalidStateTransition;
    }
    // A raise in a handler turns the error it caught into this one: that error's kind is
    // its background (distutils' `except DistutilsExecError as msg: raise LinkError(msg)`
    // is a tool that failed, not a broken invariant).
    if let Some(tag) = site.facts.context.iter().rev().find_map(|c| match c {
        crate::Context::Handler { clause, .. } => caught_kind(clause),
        _ => None,
    }) {
        return tag;
    }
    // A parser's or decoder's error is about the text it was given (unless its doc comment
    // says what the case is: see below).
    let documented = crate::code::is_public(site) && crate::docs::of_site(site).is_some();
    if in_parser(site)
        && !documented
        && !matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion)
    {
        return BackgroundTag::MalformedData;
    }
    // No word says more: a guard on what the caller passes makes it bad input, and state
    // that outlives the call and decides the raise a state error.
    if reads_parameter(site) && !crate::code::kept_inside(site) && !own_claim(site) {
        return BackgroundTag::InvalidInput;
    }
    let state_guard = site
        .facts
        .state
        .iter()
        .any(|s| s.binding == crate::Binding::State && !s.writes.is_empty());
    if state_guard {
        return BackgroundTag::InvalidStateTransition;
    }
    // What a command tells the one who ran it is about how they ran it: its arguments, its
    // flags, the folder it ran in.
    if site.facts.command().is_some() && matches!(site.lang, Lang::JavaScript | Lang::TypeScript) {
        return BackgroundTag::InvalidInput;
    }
    // A case the public function's doc comment gives for the error is part of its contract
    // (`@throws NoSuchElementException if this list is empty`): a caller's to avoid, not a
    // broken invariant.
    // (A Go doc comment's sentence on errors is the function's, not this error's.)
    if crate::code::is_public(site) && site.lang != Lang::Go {
        if let Some(doc) = crate::docs::of_site(site) {
            return by_words(&doc.to_lowercase())
                .filter(|t| *t != BackgroundTag::InternalInvariant)
                .unwrap_or(BackgroundTag::InvalidInput);
        }
    }
    BackgroundTag::InternalInvariant
}

/// Whether the site is one of the Go compiler's checks of itself: `base.Fatalf` "reports a
/// fatal error - an internal problem" (its doc comment), and a `panic` in the compiler is an
/// internal compiler error. What a user wrote is reported through `base.ErrorfAt`, and a bad
/// flag through `log.Fatalf`, which are not.
fn compiler_internal(site: &Site<'_>) -> bool {
    site.lang == Lang::Go
        && (site.file_path.starts_with("cmd/compile/internal/")
            || site.file_path.contains("/cmd/compile/internal/"))
        && matches!(
            site.facts.raised_by.as_deref(),
            Some("base.Fatalf" | "Fatalf" | "panic")
        )
}

/// The background of a raise that an environment variable decides: how the program was set
/// up, missing or wrong.
fn environment(site: &Site<'_>, m: &str) -> Option<BackgroundTag> {
    // "Failed to get rustc version: missing RUSTC env": the message says what it read.
    let names_it =
        m.contains("environment variable") || m.contains("env var") || m.ends_with(" env");
    if !reads_environment(site) && !names_it {
        return None;
    }
    let missing = ["not set", "missing", "required", "unset", "must be set"]
        .iter()
        .any(|w| m.contains(w));
    Some(if missing {
        BackgroundTag::MissingConfiguration
    } else {
        BackgroundTag::InvalidConfiguration
    })
}

/// Whether a condition of the site reads an environment variable.
fn reads_environment(site: &Site<'_>) -> bool {
    site.facts
        .config
        .iter()
        .any(|c| c.source == crate::ConfigSource::Environment)
}

/// Whether the site's function, its class or its file is a parser or a decoder by its name
/// (`parse_value`, `ExpressionParser`, `tomllib/_parser.py`, `UnmarshalJSON`): what it reads
/// is the text it was given.
fn in_parser(site: &Site<'_>) -> bool {
    let stem = site
        .file_path
        .rsplit('/')
        .next()
        .and_then(|n| n.split('.').next())
        .unwrap_or("");
    let f = site.facts.function.as_ref();
    let names = [
        stem,
        f.map_or("", |f| f.name.as_str()),
        f.and_then(|f| f.owner.as_deref()).unwrap_or(""),
    ];
    names.iter().flat_map(|n| words(n)).any(|w| {
        [
            "parse",
            "decode",
            "lexer",
            "tokeniz",
            "unmarshal",
            "deserializ",
        ]
        .iter()
        .any(|p| w.starts_with(p))
    })
}

/// The words of a name, lower-case: `snake_case`, `camelCase` and `HTTPServer` split where
/// they change (`configparser` is one word, `ExpressionParser` two).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let upper_after_lower = c.is_uppercase() && i > 0 && chars[i - 1].is_lowercase();
        let end_of_caps = c.is_uppercase()
            && i > 0
            && chars[i - 1].is_uppercase()
            && chars.get(i + 1).is_some_and(|n| n.is_lowercase());
        if (!c.is_alphanumeric() || upper_after_lower || end_of_caps) && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The background of the error a `catch` / `except` clause catches, by the classes it names:
/// a process that failed, input or output, the network, a timeout, data that did not parse.
fn caught_kind(clause: &str) -> Option<BackgroundTag> {
    let c = clause.to_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| c.contains(w));
    if any(&["timeout"]) {
        Some(BackgroundTag::Timeout)
    } else if any(&[
        "execerror",
        "subprocess",
        "calledprocesserror",
        "processerror",
    ]) {
        Some(BackgroundTag::DependencyFailure)
    } else if any(&["socket", "connect", "urlerror", "httperror", "unknownhost"]) {
        Some(BackgroundTag::NetworkFailure)
    } else if any(&[
        "ioerror",
        "oserror",
        "ioexception",
        "io::error",
        "filenotfound",
    ]) {
        Some(BackgroundTag::IoFailure)
    } else if any(&[
        "decodeerror",
        "jsondecode",
        "parseerror",
        "parseexception",
        "numberformat",
        "syntaxerror",
    ]) {
        Some(BackgroundTag::MalformedData)
    } else {
        None
    }
}

/// The background the words of a (lower-case) message name, if any.
fn by_words(m: &str) -> Option<BackgroundTag> {
    // `unreachable!()`, "Unreachable: …": the code's own claim, not a host out of reach.
    if m.trim_start().starts_with("unreachable") || m.starts_with(errata_model::RUST_UNREACHABLE) {
        return Some(BackgroundTag::InternalInvariant);
    }
    BACKGROUNDS
        .iter()
        .filter(|(_, tag)| *tag != BackgroundTag::Timeout || !bounds_a_timeout(m))
        .find(|(words, _)| words.iter().any(|w| has_keyword(m, w)))
        .map(|(_, tag)| *tag)
}

/// Whether a message about a timeout is about the value given for it ("timeout too big",
/// "timeout must be positive"), not about time that ran out.
fn bounds_a_timeout(m: &str) -> bool {
    [
        "too big",
        "too large",
        "too small",
        "must",
        "negative",
        "invalid",
        "only meaningful",
    ]
    .iter()
    .any(|w| m.contains(w))
}

/// Whether `text` holds `keyword` where a word starts. A keyword of 6 letters or more may be
/// the start of a longer word (`authenticat` in `authentication`); a shorter one must be a
/// word of its own, or with an ending (`tokens`, `reading`), so that `lock` is not found in
/// `lockedfile`.
fn has_keyword(text: &str, keyword: &str) -> bool {
    const ENDINGS: &[&str] = &["", "s", "es", "d", "ed", "ing", "er", "ers"];
    let word = |c: char| c.is_alphanumeric();
    text.match_indices(keyword).any(|(at, _)| {
        // Not the end of a name (`ssl_handshake_timeout`).
        let starts = !text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| word(c) || c == '_');
        let rest = &text[at + keyword.len()..];
        let ending = &rest[..rest.find(|c: char| !word(c)).unwrap_or(rest.len())];
        starts && (keyword.len() >= 6 || ENDINGS.contains(&ending))
    })
}

/// Whether a panic or an assertion is the code's claim about its own values, not a rule for
/// a caller: in a function only its crate calls, in a package no program imports (Go's
/// `internal/`, the JDK's `jdk.internal`), or a Python or Java `assert` statement of a
/// function users do not call (an `assert` is one a run may switch off: `python -O`, Java
/// without `-ea`; in a public function it checks the caller's arguments).
fn own_claim(site: &Site<'_>) -> bool {
    matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion)
        && (crate::code::kept_inside(site)
            || crate::code::internal_path(site.file_path)
            || site.error_type == ErrorType::Assertion
                && matches!(site.lang, Lang::Python | Lang::Java)
                && !crate::code::is_public(site))
}

/// Whether a guard of the site reads a parameter of its function: what the caller passes
/// decides it.
fn reads_parameter(site: &Site<'_>) -> bool {
    site.facts
        .guards()
        .flat_map(|c| c.conjuncts.iter())
        .any(|c| {
            matches!(
                crate::prose::subject(site, c),
                crate::prose::Subject::Param(_) | crate::prose::Subject::BoolParam(..)
            )
        })
}

/// Whether the value a Rust `.expect(…)` unwraps is computed from a parameter of the function.
fn unwraps_parameter(site: &Site<'_>) -> bool {
    let (Some(u), Some(f)) = (&site.facts.unwrapped, &site.facts.function) else {
        return false;
    };
    u.value
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| f.parameters.iter().any(|p| p.name == w && w != "self"))
}

/// Whether the function's doc comment says when it panics: a condition its callers must meet.
fn documents_panics(site: &Site<'_>) -> bool {
    site.lang == errata_lang::Lang::Rust
        && !crate::code::kept_inside(site)
        && crate::docs::of_site(site).is_some()
}

/// Whether a network failure is one that passes: a timeout, a refused or reset connection, a
/// service that is unavailable for now.
pub(crate) fn is_transient(site: &Site<'_>) -> bool {
    let text = format!("{} {}", site.message, site.class.unwrap_or_default()).to_lowercase();
    // A check of an argument that names a timeout or a connection ("timeout can't be
    // negative", "invalid proxy address") fails the same way every time.
    let rejects_input = [
        "negative",
        "invalid",
        "illegal",
        "must be",
        "must not",
        "can't be",
        "cannot be",
        "out of range",
        "not allowed",
        "not supported",
        "unsupported",
        // A state the object is in ("Timeout has already been entered") stays.
        "already",
    ]
    .iter()
    .any(|w| text.contains(w));
    !rejects_input
        && [
            "timed out",
            "timeout",
            "refused",
            "connection reset",
            "reset by peer",
            "unavailable",
            "temporar",
            "try again",
            "econnreset",
            "econnrefused",
            "etimedout",
            "eagain",
            "unreachable",
            "broken pipe",
        ]
        .iter()
        .any(|w| text.contains(w))
}

pub(crate) fn handling_strategy(site: &Site<'_>, bg: BackgroundTag) -> HandlingStrategy {
    // A program set up wrong (`LIBSQLITE3_FLAGS` a build script does not understand) is
    // fixed where it is set up, a panic or not.
    if matches!(
        bg,
        BackgroundTag::InvalidConfiguration | BackgroundTag::MissingConfiguration
    ) && environment(site, &site.message.to_lowercase()).is_some()
    {
        return HandlingStrategy::FixConfiguration;
    }
    // A method that is no more than `raise NotImplementedError` / `throw new
    // UnsupportedOperationException()` is left for a subclass to write, or refuses the call
    // outright (an unmodifiable list's `add`): there is no other path to take, the code that
    // calls it or the subclass is what to fix.
    if matches!(
        bg,
        BackgroundTag::NotImplemented | BackgroundTag::UnsupportedOperation
    ) && site.messageless()
        && site
            .facts
            .function
            .as_ref()
            .is_some_and(|f| f.owner.is_some())
    {
        return HandlingStrategy::FixCode;
    }
    // A list changed behind an iterator's back changes the same way on a second try.
    if site
        .class
        .is_some_and(|c| c.ends_with("ConcurrentModificationException"))
    {
        return HandlingStrategy::FixCode;
    }
    if compiler_internal(site) && site.error_type == ErrorType::Panic {
        return HandlingStrategy::FixCode;
    }
    match site.error_type {
        // A panic the package recovers is what the recovering function makes of it.
        ErrorType::Panic if site.facts.recovered.is_some() => {}
        // The author's claim that no input gets there (`unreachable!`): if it does, the code is wrong.
        ErrorType::Panic if site.message.starts_with(errata_model::RUST_UNREACHABLE) => {
            return HandlingStrategy::FixCode
        }
        ErrorType::Panic | ErrorType::Assertion
            if (!own_claim(site) && (reads_parameter(site) || unwraps_parameter(site)))
                || documents_panics(site) =>
        {
            return HandlingStrategy::FixInput
        }
        ErrorType::Panic | ErrorType::Assertion => return HandlingStrategy::FixCode,
        ErrorType::Exit => return HandlingStrategy::FailFast,
        _ => {}
    }
    match bg {
        BackgroundTag::NetworkFailure | BackgroundTag::Timeout if !is_transient(site) => {
            HandlingStrategy::Propagate
        }
        BackgroundTag::Timeout
        | BackgroundTag::NetworkFailure
        | BackgroundTag::RateLimited
        | BackgroundTag::DependencyFailure
        | BackgroundTag::ConcurrencyConflict => HandlingStrategy::Retry,
        BackgroundTag::InvalidInput
        | BackgroundTag::MalformedData
        | BackgroundTag::NotFound
        | BackgroundTag::AlreadyExists => HandlingStrategy::FixInput,
        BackgroundTag::MissingConfiguration
        | BackgroundTag::InvalidConfiguration
        | BackgroundTag::AuthenticationFailed
        | BackgroundTag::PermissionDenied => HandlingStrategy::FixConfiguration,
        BackgroundTag::NotImplemented
        | BackgroundTag::UnsupportedOperation
        | BackgroundTag::Deprecated => HandlingStrategy::Fallback,
        // A check of the code's own that is no panic: its caller passes it on.
        BackgroundTag::InternalInvariant => HandlingStrategy::Propagate,
        // Called in a state that does not allow it (before a setup call, after `close()`):
        // the calling code's order is what to fix, there is no other path to take.
        BackgroundTag::InvalidStateTransition => HandlingStrategy::FixCode,
        BackgroundTag::Cancelled => HandlingStrategy::Ignore,
        BackgroundTag::IoFailure | BackgroundTag::ResourceExhausted => HandlingStrategy::Propagate,
    }
}

#[cfg(test)]
mod tests {
    use super::{by_words, has_keyword};
    use errata_model::BackgroundTag;

    #[test]
    fn words_that_name_something_else_name_no_background() {
        let tag = |m: &str| by_words(m);
        // A lexer's token is no credential; a restriction on an argument is no permission;
        // a value past a bound, an unknown name and two values that disagree are what was
        // given, not a resource that ran out, a lookup or a race.
        assert_eq!(
            tag("token.pos offset overflow"),
            Some(BackgroundTag::InvalidInput)
        );
        assert_eq!(
            tag("tls: nextprotos values too large"),
            Some(BackgroundTag::InvalidInput)
        );
        assert_eq!(tag("unknown ip version"), Some(BackgroundTag::InvalidInput));
        assert_eq!(
            tag("conflict found: field year differs from field year-of-era"),
            Some(BackgroundTag::InvalidInput)
        );
        assert_eq!(tag("no such file"), Some(BackgroundTag::NotFound));
        assert_eq!(tag("out of memory"), Some(BackgroundTag::ResourceExhausted));
        assert_eq!(
            tag("path-like args is not allowed when shell is true"),
            Some(BackgroundTag::InvalidInput)
        );
        assert_eq!(
            tag("access token expired"),
            Some(BackgroundTag::AuthenticationFailed)
        );
        assert_eq!(
            tag("tls: failed to verify client certificate: x"),
            Some(BackgroundTag::AuthenticationFailed)
        );
        // What the code expects of itself, and a host out of reach.
        assert_eq!(
            tag("socket should have been assigned a port number."),
            Some(BackgroundTag::InternalInvariant)
        );
        assert_eq!(tag("unreachable"), Some(BackgroundTag::InternalInvariant));
        assert_eq!(
            tag("network unreachable"),
            Some(BackgroundTag::NetworkFailure)
        );
    }

    #[test]
    fn an_uninitialised_api_is_a_state_not_an_invariant() {
        assert_eq!(
            by_words("sqlite api not initialized"),
            Some(BackgroundTag::InvalidStateTransition)
        );
        assert_eq!(
            by_words("the pool is uninitialised"),
            Some(BackgroundTag::InvalidStateTransition)
        );
    }

    #[test]
    fn a_timeout_given_wrong_or_a_lock_not_held_is_no_failure_that_passes() {
        assert_eq!(
            by_words("timeout too big"),
            Some(BackgroundTag::InvalidInput)
        );
        assert_eq!(
            by_words("ssl_handshake_timeout is only meaningful with ssl"),
            Some(BackgroundTag::InvalidInput)
        );
        assert_eq!(by_words("read timed out"), Some(BackgroundTag::Timeout));
        assert_eq!(
            by_words("cannot release un-acquired lock"),
            Some(BackgroundTag::InvalidStateTransition)
        );
        assert_eq!(
            by_words("database is locked"),
            Some(BackgroundTag::ConcurrencyConflict)
        );
    }

    #[test]
    fn names_split_into_words() {
        assert_eq!(super::words("ExpressionParser"), ["expression", "parser"]);
        assert_eq!(super::words("_parse_value"), ["parse", "value"]);
        assert_eq!(super::words("HTTPServer"), ["http", "server"]);
        assert_eq!(super::words("configparser"), ["configparser"]);
    }

    #[test]
    fn keywords_start_words() {
        assert!(has_keyword("account is locked", "lock"));
        assert!(!has_keyword(
            "lockedfile.mutexat: path must be non-empty",
            "lock"
        ));
        assert!(has_keyword("failed reading the file", "read"));
        assert!(has_keyword("authentication failed", "authenticat"));
        assert!(!has_keyword("unreadable", "read"));
    }
}
