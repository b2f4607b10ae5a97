//! What kind of error a site raises: its background (the schema's closed list) and the handling
//! strategy that suits it, from the message, the class, the status and the facts.

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
            "unauthori",
            "authenticat",
            "credential",
            "token",
            "password",
            "login",
        ],
        BackgroundTag::AuthenticationFailed,
    ),
    (
        &["permission", "forbidden", "denied", "not allowed", "access"],
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
        &[
            "not found",
            "no such",
            "does not exist",
            "missing",
            "unknown",
        ],
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
        &["config", "environment variable", "setting", "option"],
        BackgroundTag::InvalidConfiguration,
    ),
    (
        &["connect", "network", "socket", "host", "dns"],
        BackgroundTag::NetworkFailure,
    ),
    (
        &[
            "out of memory",
            "too large",
            "too long",
            "limit",
            "exceed",
            "overflow",
            "exhausted",
        ],
        BackgroundTag::ResourceExhausted,
    ),
    (&["cancel", "abort", "interrupt"], BackgroundTag::Cancelled),
    (
        &["conflict", "concurrent", "lock", "in progress"],
        BackgroundTag::ConcurrencyConflict,
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
        &["read", "write", "file", "directory", "i/o", "disk"],
        BackgroundTag::IoFailure,
    ),
    (
        &[
            "invalid", "must", "expected", "required", "should", "bad", "illegal", "wrong", "empty",
        ],
        BackgroundTag::InvalidInput,
    ),
    (
        &[
            "state",
            "closed",
            "not started",
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
    let m = site.message.to_lowercase();
    let class = site.class.unwrap_or_default().to_lowercase();
    if class.contains("notimplemented") || class.contains("unsupportedoperation") {
        return BackgroundTag::NotImplemented;
    }
    if class.contains("timeout") {
        return BackgroundTag::Timeout;
    }
    if class.contains("notfound") || class.contains("keyerror") || class.contains("filenotfound") {
        return BackgroundTag::NotFound;
    }
    if class.contains("permission") || class.contains("security") {
        return BackgroundTag::PermissionDenied;
    }
    if class.contains("ioerror") || class.contains("ioexception") || class.contains("oserror") {
        return BackgroundTag::IoFailure;
    }
    for (words, tag) in BACKGROUNDS {
        if words.iter().any(|w| has_keyword(&m, w)) {
            return *tag;
        }
    }
    if class.contains("value") || class.contains("argument") || class.contains("type") {
        return BackgroundTag::InvalidInput;
    }
    if class.contains("state") {
        return BackgroundTag::InvalidStateTransition;
    }
    // No word says more: state that outlives the call and decides the raise makes it a
    // state error.
    let state_guard = site
        .facts
        .state
        .iter()
        .any(|s| s.binding == crate::Binding::State && !s.writes.is_empty());
    if state_guard {
        return BackgroundTag::InvalidStateTransition;
    }
    BackgroundTag::InternalInvariant
}

/// Whether `text` holds `keyword` where a word starts. A keyword of 6 letters or more may be
/// the start of a longer word (`authenticat` in `authentication`); a shorter one must be a
/// word of its own, or with an ending (`tokens`, `reading`), so that `lock` is not found in
/// `lockedfile`.
fn has_keyword(text: &str, keyword: &str) -> bool {
    const ENDINGS: &[&str] = &["", "s", "es", "d", "ed", "ing", "er", "ers"];
    let word = |c: char| c.is_alphanumeric();
    text.match_indices(keyword).any(|(at, _)| {
        let starts = !text[..at].chars().next_back().is_some_and(word);
        let rest = &text[at + keyword.len()..];
        let ending = &rest[..rest.find(|c: char| !word(c)).unwrap_or(rest.len())];
        starts && (keyword.len() >= 6 || ENDINGS.contains(&ending))
    })
}

pub(crate) fn handling_strategy(site: &Site<'_>, bg: BackgroundTag) -> HandlingStrategy {
    match site.error_type {
        ErrorType::Panic | ErrorType::Assertion => return HandlingStrategy::FixCode,
        ErrorType::Exit => return HandlingStrategy::FailFast,
        _ => {}
    }
    match bg {
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
        BackgroundTag::InternalInvariant => HandlingStrategy::FixCode,
        BackgroundTag::InvalidStateTransition => HandlingStrategy::Fallback,
        BackgroundTag::Cancelled => HandlingStrategy::Ignore,
        BackgroundTag::IoFailure | BackgroundTag::ResourceExhausted => HandlingStrategy::Propagate,
    }
}

pub(crate) fn situation(bg: BackgroundTag) -> &'static str {
    match bg {
        BackgroundTag::InvalidInput => {
            "An argument or input value does not meet what the code checks."
        }
        BackgroundTag::InvalidStateTransition => {
            "An operation is attempted in a state that does not allow it."
        }
        BackgroundTag::NotFound => "Something looked up by name, key or path does not exist.",
        BackgroundTag::AlreadyExists => "Something created or registered exists already.",
        BackgroundTag::PermissionDenied => "The caller lacks the permission the operation needs.",
        BackgroundTag::AuthenticationFailed => "Credentials are missing or rejected.",
        BackgroundTag::MissingConfiguration => "A required setting is absent.",
        BackgroundTag::InvalidConfiguration => "A setting has a value the code rejects.",
        BackgroundTag::UnsupportedOperation => {
            "The operation is not supported for these arguments or this platform."
        }
        BackgroundTag::NotImplemented => "The code path is not implemented.",
        BackgroundTag::Timeout => "An operation took longer than it is allowed to.",
        BackgroundTag::NetworkFailure => "A network operation failed.",
        BackgroundTag::RateLimited => "Too many requests were made.",
        BackgroundTag::ResourceExhausted => "A size or resource limit was reached.",
        BackgroundTag::DependencyFailure => "A service or component this code depends on failed.",
        BackgroundTag::MalformedData => "Data being parsed or decoded is not in the expected form.",
        BackgroundTag::ConcurrencyConflict => "Concurrent work conflicts with this operation.",
        BackgroundTag::IoFailure => "A file or stream operation failed.",
        BackgroundTag::Cancelled => "The operation was cancelled.",
        BackgroundTag::Deprecated => "A deprecated feature is used.",
        BackgroundTag::InternalInvariant => "An internal consistency check failed.",
    }
}

#[cfg(test)]
mod tests {
    use super::has_keyword;

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
