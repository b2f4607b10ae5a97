//! The explanation fields of a record (`documentation` ... `backgroundTag`), written from what
//! the extractor knows of the site: its language, kind, class, message, status and enclosing
//! function. Nothing is invented: each sentence restates a fact of the site.
//!
//! This is the baseline every record gets offline; the grounded analysis of conditions, state
//! writes and callers deepens it.
//!
//! ```
//! use errata_explain::{explain, Site};
//! use errata_lang::Lang;
//! use errata_model::{ErrorType, HandlingStrategy};
//!
//! let e = explain(&Site {
//!     lang: Lang::Python,
//!     error_type: ErrorType::Exception,
//!     class: Some("ValueError"),
//!     message: "invalid literal for int()",
//!     function: Some("parse"),
//!     file_path: "pkg/parse.py",
//!     line: 12,
//!     status: None,
//!     code: None,
//! });
//! assert!(e.documentation.contains("parse()"));
//! assert!(e.type_guard.contains("isinstance(e, ValueError)"));
//! assert_eq!(e.handling_strategy, HandlingStrategy::FixInput);
//! ```

use errata_lang::Lang;
use errata_model::{BackgroundTag, ErrorType, HandlingStrategy};

/// What is known of a site when it is explained.
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    pub lang: Lang,
    pub error_type: ErrorType,
    pub class: Option<&'a str>,
    pub message: &'a str,
    pub function: Option<&'a str>,
    pub file_path: &'a str,
    pub line: u32,
    pub status: Option<u16>,
    pub code: Option<&'a str>,
}

/// The explanation fields of one record.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
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
}

/// Writes the explanation of a site.
pub fn explain(site: &Site<'_>) -> Explanation {
    let background = background_tag(site);
    let strategy = handling_strategy(site, background);
    let what = what(site);
    let place = match site.function {
        Some(f) => format!("in {f}() ({}:{})", site.file_path, site.line),
        None => format!("at {}:{}", site.file_path, site.line),
    };
    let mut documentation = format!("{what} {place} with the message \"{}\".", site.message);
    if let Some(s) = site.status {
        documentation.push_str(&format!(" The response carries HTTP status {s}."));
    }
    if let Some(c) = site.code {
        documentation.push_str(&format!(" Its code is {c}."));
    }
    let caller = site
        .function
        .map(|f| format!("a call to {f}()"))
        .unwrap_or_else(|| format!("the code of {}", site.file_path));
    let trigger_scenarios = format!(
        "{caller} reaching line {} while the conditions guarding that line hold.",
        site.line
    );
    let common_situations = format!(
        "{} This is classified as {}.",
        situation(background),
        background.as_str()
    );
    let solutions = vec![
        format!(
            "Read the conditions above line {} of {} and make the input or state satisfy them before {caller}.",
            site.line, site.file_path
        ),
        match strategy {
            HandlingStrategy::Retry => "Retry the operation after a delay; the failure may be transient.".to_owned(),
            HandlingStrategy::FixConfiguration => "Check the configuration the code reads before this point.".to_owned(),
            HandlingStrategy::FixCode => "This marks a state the code does not expect: fix the caller that reaches it.".to_owned(),
            _ => format!("Catch it where {caller} is made and handle it ({}).", strategy.as_str()),
        },
    ];
    let recognise = recogniser(site);
    Explanation {
        documentation,
        trigger_scenarios,
        common_situations,
        solutions,
        example_fix: example_fix(site),
        handling_strategy: strategy,
        validation_code: validation_code(site),
        type_guard: recognise,
        try_catch_pattern: try_catch(site, strategy),
        prevention_tips: vec![format!(
            "Validate what {caller} is given before the call rather than after the error."
        )],
        tags: tags(site, background),
        background_tag: background,
    }
}

fn what(site: &Site<'_>) -> String {
    let class = site.class.unwrap_or(match site.lang {
        Lang::TypeScript | Lang::JavaScript => "Error",
        Lang::Python => "Exception",
        Lang::Go | Lang::Rust => "error",
        Lang::Java => "exception",
    });
    match site.error_type {
        ErrorType::Exception => format!("{class} is thrown"),
        ErrorType::ErrorReturn => format!("An {class} value is returned"),
        ErrorType::Panic => "The program panics".to_owned(),
        ErrorType::Assertion => "An assertion fails".to_owned(),
        ErrorType::Http => "An HTTP error response is sent".to_owned(),
        ErrorType::Log => "An error is logged".to_owned(),
        ErrorType::Exit => "The process exits".to_owned(),
    }
}

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

fn background_tag(site: &Site<'_>) -> BackgroundTag {
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
        if words.iter().any(|w| m.contains(w)) {
            return *tag;
        }
    }
    if class.contains("value") || class.contains("argument") || class.contains("type") {
        return BackgroundTag::InvalidInput;
    }
    if class.contains("state") {
        return BackgroundTag::InvalidStateTransition;
    }
    BackgroundTag::InternalInvariant
}

fn handling_strategy(site: &Site<'_>, bg: BackgroundTag) -> HandlingStrategy {
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

fn situation(bg: BackgroundTag) -> &'static str {
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

/// The longest literal run of the message, to recognise it by: placeholders vary at run time.
fn stable_fragment(message: &str) -> String {
    let mut best = "";
    for part in message.split(['{', '}', '%', '$']) {
        if part.len() > best.len() {
            best = part;
        }
    }
    let best = best.trim();
    let best = if best.is_empty() { message } else { best };
    best.chars().take(80).collect::<String>()
}

fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn recogniser(site: &Site<'_>) -> String {
    let frag = quoted(&stable_fragment(site.message));
    match site.lang {
        Lang::TypeScript => match site.class {
            Some(c) => format!("function isThisError(e: unknown): e is {c} {{\n  return e instanceof {c} && e.message.includes({frag});\n}}"),
            None => format!("function isThisError(e: unknown): e is Error {{\n  return e instanceof Error && e.message.includes({frag});\n}}"),
        },
        Lang::JavaScript => {
            let c = site.class.unwrap_or("Error");
            format!("function isThisError(e) {{\n  return e instanceof {c} && e.message.includes({frag});\n}}")
        }
        Lang::Python => {
            let c = site.class.unwrap_or("Exception");
            format!("def is_this_error(e: BaseException) -> bool:\n    return isinstance(e, {c}) and {frag} in str(e)")
        }
        Lang::Go => match site.class.filter(|c| c.starts_with("Err")) {
            Some(sentinel) => format!("func isThisError(err error) bool {{\n\treturn errors.Is(err, {sentinel})\n}}"),
            None => format!("func isThisError(err error) bool {{\n\treturn err != nil && strings.Contains(err.Error(), {frag})\n}}"),
        },
        Lang::Rust => match site.class.filter(|c| c.contains("::")) {
            Some(variant) => format!("fn is_this_error(e: &{}) -> bool {{\n    matches!(e, {variant} {{ .. }})\n}}", variant.rsplit_once("::").map(|p| p.0).unwrap_or(variant)),
            None => format!("fn is_this_error(e: &dyn std::fmt::Display) -> bool {{\n    e.to_string().contains({frag})\n}}"),
        },
        Lang::Java => {
            let c = site.class.unwrap_or("Exception");
            format!("static boolean isThisError(Throwable e) {{\n    return e instanceof {c} && e.getMessage() != null && e.getMessage().contains({frag});\n}}")
        }
    }
}

fn try_catch(site: &Site<'_>, strategy: HandlingStrategy) -> String {
    let call = site.function.unwrap_or("operation");
    let action = strategy.as_str();
    match site.lang {
        Lang::TypeScript | Lang::JavaScript => format!("try {{\n  {call}(/* ... */);\n}} catch (e) {{\n  if (isThisError(e)) {{\n    // {action}\n  }} else {{\n    throw e;\n  }}\n}}"),
        Lang::Python => format!("try:\n    {call}(...)\nexcept {} as e:\n    if not is_this_error(e):\n        raise\n    # {action}", site.class.unwrap_or("Exception")),
        Lang::Go => format!("if err := {call}(); err != nil {{\n\tif isThisError(err) {{\n\t\t// {action}\n\t}}\n\treturn err\n}}"),
        Lang::Rust => match site.error_type {
            ErrorType::Panic | ErrorType::Assertion => format!("let result = std::panic::catch_unwind(|| {call}());\nif result.is_err() {{\n    // {action}\n}}"),
            _ => format!("match {call}() {{\n    Ok(v) => v,\n    Err(e) if is_this_error(&e) => {{ /* {action} */ todo!() }}\n    Err(e) => return Err(e.into()),\n}}"),
        },
        Lang::Java => format!("try {{\n    {call}();\n}} catch ({} e) {{\n    if (!isThisError(e)) throw e;\n    // {action}\n}}", site.class.unwrap_or("Exception")),
    }
}

fn validation_code(site: &Site<'_>) -> String {
    let call = site.function.unwrap_or("operation");
    let comment = match site.lang {
        Lang::Python => "#",
        _ => "//",
    };
    format!(
        "{comment} Check the conditions that guard line {} of {} before calling {call}.",
        site.line, site.file_path
    )
}

fn example_fix(site: &Site<'_>) -> String {
    let call = site.function.unwrap_or("operation");
    let comment = match site.lang {
        Lang::Python => "#",
        _ => "//",
    };
    format!(
        "{comment} before: {call} is reached with values that make it fail with \"{}\"\n{comment} after: check those values first and only then call {call}",
        stable_fragment(site.message)
    )
}

fn tags(site: &Site<'_>, bg: BackgroundTag) -> Vec<String> {
    let mut tags = vec![
        site.lang.name().to_owned(),
        site.error_type.as_str().to_owned(),
    ];
    tags.push(bg.as_str().to_owned());
    if let Some(c) = site.class {
        let t = tag_of(errata_model::slug(c.rsplit(['.', ':']).next().unwrap_or(c)));
        if !tags.contains(&t) {
            tags.push(t);
        }
    }
    tags.truncate(8);
    tags
}

fn tag_of(s: String) -> String {
    s.chars()
        .take(40)
        .collect::<String>()
        .trim_end_matches('-')
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(lang: Lang, class: Option<&'static str>, message: &'static str) -> Site<'static> {
        Site {
            lang,
            error_type: ErrorType::Exception,
            class,
            message,
            function: Some("release"),
            file_path: "a/b.ts",
            line: 119,
            status: None,
            code: None,
        }
    }

    #[test]
    fn every_field_is_filled() {
        for lang in Lang::ALL {
            let e = explain(&site(lang, None, "{}"));
            assert!(!e.documentation.is_empty());
            assert!(!e.type_guard.is_empty());
            assert!(!e.tags.is_empty() && e.tags.len() <= 8);
            for t in &e.tags {
                assert_eq!(&errata_model::slug(t), t);
            }
        }
    }

    #[test]
    fn background_from_message() {
        let e = explain(&site(Lang::Go, None, "file %s not found"));
        assert_eq!(e.background_tag, BackgroundTag::NotFound);
        let e = explain(&site(Lang::Go, Some("ErrClosed"), "use of closed file"));
        assert!(e.type_guard.contains("errors.Is(err, ErrClosed)"));
    }
}
