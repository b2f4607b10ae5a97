//! The fields written as sentences: documentation, trigger scenarios, common situations,
//! solutions and prevention tips. Code is quoted in backticks, and comes from the facts.

use errata_lang::Lang;
use errata_model::{ErrorType, HandlingStrategy};

use crate::{
    code, docs, function_ref, Binding, ConfigSource, Context, Effect, Facts, Parameter, Site,
    State, Write,
};

/// Most callers and handlers named in prose.
const MAX_REFS: usize = 3;
/// Writes to one piece of state named in a sentence; the rest are counted.
const MAX_WRITES: usize = 3;

/// What one conjunct of a guard is about, which decides how it can be made false.
pub(crate) enum Subject<'a> {
    /// A boolean parameter that the conjunct holds `true` or `false`.
    BoolParam(&'a Parameter, bool),
    /// Another parameter: the caller decides it.
    Param(&'a Parameter),
    /// A configuration field, held set (`true`) or unset.
    Config(&'a str, bool),
    /// An environment read.
    Env(&'a str, Option<&'a str>),
    /// State that outlives the call and that the file writes.
    State(&'a State),
    Other,
}

impl Subject<'_> {
    /// Whether a user can make a conjunct about it false: the configuration, the environment,
    /// or an argument of a function they can call (`public`).
    fn up_to_the_user(&self, public: bool) -> bool {
        match self {
            Subject::Param(_) | Subject::BoolParam(..) => public,
            Subject::Config(..) | Subject::Env(..) => true,
            Subject::State(_) | Subject::Other => false,
        }
    }
}

pub(crate) fn subject<'a>(site: &Site<'a>, conjunct: &str) -> Subject<'a> {
    let facts = site.facts;
    let (positive, bare) = match conjunct
        .strip_prefix('!')
        .or_else(|| conjunct.strip_prefix("not "))
    {
        Some(rest) => (false, rest),
        None => (true, conjunct),
    };
    if let Some(f) = &facts.function {
        // A parameter the function changes above the site is its own by then.
        if let Some(p) = f
            .parameters
            .iter()
            .find(|p| p.name == bare && !facts.reassigned(&p.name))
        {
            return if p.is_bool() {
                Subject::BoolParam(p, positive)
            } else {
                Subject::Param(p)
            };
        }
    }
    if let Some(c) = facts
        .config
        .iter()
        .find(|c| c.source == ConfigSource::Config && c.text == bare)
    {
        return Subject::Config(&c.text, positive);
    }
    if let Some(c) = facts
        .config
        .iter()
        .find(|c| c.source == ConfigSource::Environment && conjunct.contains(c.text.as_str()))
    {
        return Subject::Env(&c.text, c.key.as_deref());
    }
    if let Some(s) = facts.state.iter().find(|s| {
        s.binding == Binding::State && !s.writes.is_empty() && mentions(conjunct, &s.name)
    }) {
        return Subject::State(s);
    }
    if let Some(f) = &facts.function {
        if let Some(p) = f.parameters.iter().find(|p| mentions(conjunct, &p.name)) {
            if facts.reassigned(&p.name) {
                return Subject::Other;
            }
            return Subject::Param(p);
        }
    }
    Subject::Other
}

/// Whether `text` uses `name` as a whole name (not as part of a longer one).
pub(crate) fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(|c| ident(c) || c == '.')
            && !after.is_some_and(ident)
            && !in_string(&text[..at])
    })
}

/// Whether the end of `before` is inside a string literal (`action != "module"` does not
/// read `module`): an odd number of unescaped quotes of one kind opened it.
fn in_string(before: &str) -> bool {
    let mut open: Option<char> = None;
    let mut escaped = false;
    for c in before.chars() {
        match open {
            _ if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => open = None,
            None if matches!(c, '"' | '\'' | '`') => open = Some(c),
            _ => {}
        }
    }
    open.is_some()
}

/// `` `x` `` and `` `y` ``, or `` `x`, `y` and `z` ``.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `` `x` `` or `` `y` ``, or `` `x`, `y` or `z` ``.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

fn ticked(s: &str) -> String {
    format!("`{s}`")
}

/// Code that holds a backtick itself (a template literal, a raw string) goes between double
/// backticks, as Markdown has it: the sentences quote every piece of code with single ones.
pub(crate) fn fence_backticks(text: String, facts: &crate::Facts) -> String {
    let mut codes: Vec<&str> = Vec::new();
    for c in &facts.conditions {
        codes.push(&c.expr);
        codes.extend(c.conjuncts.iter().map(String::as_str));
    }
    if let Some(b) = &facts.other_branch {
        codes.push(&b.condition);
        codes.extend(b.statements.iter().map(String::as_str));
    }
    for s in &facts.state {
        codes.push(&s.name);
        codes.extend(s.value.as_deref());
        for w in &s.writes {
            codes.push(w.text.trim_end_matches(';'));
            codes.extend(w.conditions.iter().map(String::as_str));
        }
    }
    codes.extend(facts.config.iter().map(|c| c.text.as_str()));
    codes.extend(facts.helpers.iter().map(|h| h.returns.as_str()));
    codes.extend(
        facts
            .callers
            .iter()
            .chain(&facts.handlers)
            .chain(&facts.tests)
            .map(|r| r.text.as_str()),
    );
    if let Some(f) = &facts.function {
        codes.push(&f.signature);
    }
    codes.retain(|c| c.contains('`'));
    codes.sort_by_key(|c| std::cmp::Reverse(c.len()));
    let mut text = text;
    for c in codes {
        text = text.replace(&format!("`{c}`"), &format!("`` {c} ``"));
    }
    text
}

fn what(site: &Site<'_>) -> String {
    let class = site.class.map(ticked).unwrap_or_else(|| {
        match site.lang {
            Lang::TypeScript | Lang::JavaScript => "An Error",
            Lang::Python => "An exception",
            Lang::Go | Lang::Rust => "An error",
            Lang::Java => "An exception",
        }
        .to_owned()
    });
    match site.error_type {
        // `cb(new Error(…))`, `reject(new Error(…))`: made, and handed on, not thrown.
        ErrorType::Exception => match &site.facts.handed_to {
            Some(call) if emitter(call).is_some() => {
                format!("{class} is made (not thrown) and emitted as an `'error'` event with `{call}()`")
            }
            Some(call) if site.lang == Lang::Python => {
                format!("{class} is made (not raised) and handed to `{call}()`")
            }
            Some(call) => format!("{class} is made (not thrown) and handed to `{call}()`"),
            None => format!("{class} is thrown"),
        },
        ErrorType::ErrorReturn if site.facts.stored_in.is_some() => format!(
            "{class} is made and stored in `{}` (not returned here)",
            site.facts.stored_in.as_deref().unwrap_or_default()
        ),
        ErrorType::ErrorReturn => match &site.facts.handed_to {
            Some(call) => format!("{class} is made and handed to `{call}()`"),
            None => format!("{class} is returned"),
        },
        ErrorType::Panic if site.facts.recovered.is_some() => "A panic is raised".to_owned(),
        ErrorType::Panic => "The program panics".to_owned(),
        ErrorType::Assertion => "An assertion fails".to_owned(),
        // An error object that carries a status is raised, not sent: the server that catches
        // it answers with the status.
        ErrorType::Http if site.class.is_some() => match site.status {
            Some(status) => format!("{class} with HTTP status {status} is raised"),
            None => format!("{class} for an HTTP error response is raised"),
        },
        ErrorType::Http => "An HTTP error response is sent".to_owned(),
        // `warnings.warn`: the warning filters decide whether it is shown at all.
        ErrorType::Log
            if site.lang == Lang::Python && site.class.is_some_and(|c| c.ends_with("Warning")) =>
        {
            format!("{class} is issued with `warnings.warn` (Python's warning filters decide whether it is shown)")
        }
        // Node's `process.emitWarning(msg, type, code)`: printed on stderr as
        // `(node:PID) Type: msg` unless the process silences warnings.
        ErrorType::Log if node_warning(site) => format!(
            "{class} is emitted with `emitWarning` (Node prints it on stderr after the process id, unless warnings are silenced)"
        ),
        ErrorType::Log => "A message is logged".to_owned(),
        ErrorType::Exit => "The process exits".to_owned(),
    }
}

/// Whether the site is a JavaScript warning that names its type (`emitWarning(msg,
/// 'UnboundedCacheWarning', code)`).
fn node_warning(site: &Site<'_>) -> bool {
    matches!(site.lang, Lang::JavaScript | Lang::TypeScript)
        && site.error_type == ErrorType::Log
        && site.class.is_some_and(|c| c.ends_with("Warning"))
}

/// The object a JavaScript error is emitted on as an `'error'` event, when the call it is
/// handed to is that object's `emit` (`this` of `this.emit`).
pub(crate) fn emitter(call: &str) -> Option<&str> {
    call.strip_suffix(".emit")
}

/// How the sentences say what the site does: "It is {raised} when …", "a call {raises} it".
/// A log line is logged and a response sent, not raised.
struct Verb {
    participle: String,
    present: String,
}

fn verb(site: &Site<'_>) -> Verb {
    if let (ErrorType::ErrorReturn | ErrorType::Exception, Some(call)) =
        (site.error_type, &site.facts.handed_to)
    {
        return Verb {
            participle: match emitter(call) {
                Some(_) => "emitted".to_owned(),
                None => format!("reported through `{call}()`"),
            },
            present: match emitter(call) {
                Some(_) => "emits",
                None => "reports",
            }
            .to_owned(),
        };
    }
    if let (ErrorType::ErrorReturn, Some(field)) = (site.error_type, &site.facts.stored_in) {
        return Verb {
            participle: format!("stored in `{field}`"),
            present: "stores".to_owned(),
        };
    }
    let (participle, present) = match site.error_type {
        ErrorType::ErrorReturn => ("returned", "returns"),
        ErrorType::Http if site.class.is_some() => ("raised", "raises"),
        ErrorType::Http => ("sent", "sends"),
        ErrorType::Log
            if site.lang == Lang::Python && site.class.is_some_and(|c| c.ends_with("Warning")) =>
        {
            ("issued", "issues")
        }
        ErrorType::Log if node_warning(site) => ("emitted", "emits"),
        ErrorType::Log => ("logged", "logs"),
        ErrorType::Exception | ErrorType::Panic | ErrorType::Assertion | ErrorType::Exit => {
            ("raised", "raises")
        }
    };
    Verb {
        participle: participle.to_owned(),
        present: present.to_owned(),
    }
}

/// The article in front of a name: "an `err`", "a `path`".
fn article(name: &str) -> &'static str {
    let name = name.trim_start_matches(['_', '$']);
    // A one-letter name is read as its letter: "an `n`", "a `k`".
    if name.len() == 1 {
        return match name.as_bytes()[0].to_ascii_lowercase() {
            b'a' | b'e' | b'f' | b'h' | b'i' | b'l' | b'm' | b'n' | b'o' | b'r' | b's' | b'x' => {
                "an"
            }
            _ => "a",
        };
    }
    match name.bytes().next() {
        Some(b'a' | b'e' | b'i' | b'o' | b'A' | b'E' | b'I' | b'O') => "an",
        _ => "a",
    }
}

/// Where a write is, and when it runs: `` `x.delete(k)` (in `f()`, line 9, when `a`) ``.
fn write_phrase(w: &Write) -> String {
    let mut s = format!("{} (", ticked(w.text.trim_end_matches(';')));
    if let Some(f) = &w.function {
        s.push_str(&format!("in `{f}()`, "));
    }
    s.push_str(&format!("line {}", w.line));
    if !w.conditions.is_empty() {
        let conds: Vec<String> = w.conditions.iter().map(|c| ticked(c)).collect();
        s.push_str(&format!(", only when {}", and_list(&conds)));
    }
    s.push(')');
    s
}

/// One sentence for names of one kind: " `a` is …." or " `a` and `b` are …."; nothing for
/// none.
fn named_together(names: &[String], one: &str, many: &str) -> String {
    match names {
        [] => String::new(),
        [name] => format!(" {name} {one}."),
        _ => format!(" {} {many}.", and_list(names)),
    }
}

/// Whether code outside can read the state `name` (`self._state` cannot, nor `this.#x`; a
/// Java or Rust field may be private, and the facts do not say): its last part is public by
/// the language's convention.
fn visible(lang: Lang, name: &str) -> bool {
    let last = name.rsplit(['.', ':']).next().unwrap_or(name);
    match lang {
        Lang::Python => !last.starts_with('_'),
        Lang::JavaScript | Lang::TypeScript => !last.starts_with('_') && !last.starts_with('#'),
        Lang::Go => last.starts_with(|c: char| c.is_uppercase()),
        Lang::Java | Lang::Rust => false,
    }
}

/// Whether a function of this name makes its object (`__init__`, `constructor`, `new`).
fn is_constructor(name: &str) -> bool {
    matches!(
        name,
        "__init__" | "__new__" | "constructor" | "new" | "<init>"
    )
}

/// Whether a function of this name is private by its language's convention: Python's and
/// JavaScript's leading `_` (not a dunder), JavaScript's `#`, Go's lowercase.
fn is_private_name(lang: Lang, name: &str) -> bool {
    match lang {
        Lang::Python => name.starts_with('_') && !name.ends_with("__"),
        Lang::JavaScript | Lang::TypeScript => name.starts_with('_') || name.starts_with('#'),
        Lang::Go => name.starts_with(|c: char| c.is_lowercase()),
        Lang::Java | Lang::Rust => false,
    }
}

/// The first [`MAX_WRITES`] writes as [`write_phrase`]s, and how many more there are.
fn writes_list<'a>(writes: impl IntoIterator<Item = &'a Write>) -> String {
    let mut writes = writes.into_iter();
    let mut shown: Vec<String> = writes.by_ref().take(MAX_WRITES).map(write_phrase).collect();
    match writes.count() {
        0 => {}
        1 => shown.push("1 more place".to_owned()),
        n => shown.push(format!("{n} more places")),
    }
    and_list(&shown)
}

fn guard_exprs(site: &Site<'_>) -> Vec<String> {
    site.facts.guards().map(|c| ticked(&c.expr)).collect()
}

/// The guards of an error type's own text that choose among the type's errors: those of a
/// `match` arm that only names the record's own variant (`Self::InvalidDigit(c)` of
/// `ParseError::InvalidDigit`) say nothing the class does not.
fn case_guards(site: &Site<'_>) -> Vec<String> {
    site.facts
        .guards()
        .filter(|c| {
            !site
                .class
                .is_some_and(|class| names_variant(&c.expr, class))
        })
        .map(|c| ticked(&c.expr))
        .collect()
}

/// Whether `guard` is `matches!(x, Enum::Variant(a, b))` (or `{ a, .. }`, or no fields) for
/// the variant that ends `class`, binding names only.
fn names_variant(guard: &str, class: &str) -> bool {
    let Some(args) = guard
        .strip_prefix("matches!(")
        .and_then(|g| g.strip_suffix(')'))
    else {
        return false;
    };
    let Some((_, pattern)) = split_top_comma(args) else {
        return false;
    };
    let pattern = pattern.trim().trim_start_matches('&');
    let path_end = pattern.find(['(', '{', ' ']).unwrap_or(pattern.len());
    let (path, fields) = pattern.split_at(path_end);
    let variant = class.rsplit("::").next().unwrap_or(class);
    if !class.contains("::") || path.rsplit("::").next() != Some(variant) {
        return false;
    }
    let fields = fields.trim();
    let inner = match (fields.chars().next(), fields.chars().last()) {
        (None, _) => return true,
        (Some('('), Some(')')) | (Some('{'), Some('}')) => &fields[1..fields.len() - 1],
        _ => return false,
    };
    inner.split(',').map(str::trim).all(|f| {
        let name = f.rsplit(':').next().unwrap_or(f).trim();
        f.is_empty()
            || f == ".."
            || (!name.is_empty()
                && name
                    .chars()
                    .all(|ch| ch == '_' || ch.is_ascii_lowercase() || ch.is_ascii_digit())
                && !f.contains("::"))
    })
}

/// `a, b` split at its first comma outside brackets.
fn split_top_comma(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => return Some((&s[..i], &s[i + 1..])),
            _ => {}
        }
    }
    None
}

/// The error type whose own text the site words, and how that text is produced, when the site
/// is one: Go's `Error()` method of the type, the `fmt` of a Rust type's `Display`, Python's
/// `__str__`, Java's `getMessage()`, or the constructor of an error class. Such a text is not
/// raised where it is written: every error of the type carries it, wherever the error is made.
pub(crate) fn own_text(site: &Site<'_>) -> Option<(String, &'static str)> {
    let (class, how) = own_text_of(site.lang, site.facts, site.class)?;
    Some((class.to_owned(), how))
}

/// [`own_text`] from what a stored record holds: the class, and how its text is produced.
pub(crate) fn own_text_of<'a>(
    lang: Lang,
    facts: &Facts,
    class: Option<&'a str>,
) -> Option<(&'a str, &'static str)> {
    let class = class?;
    // thiserror's `#[error("…")]` on a variant or a struct: outside any function, the only
    // Rust record that is.
    if lang == Lang::Rust && facts.function.is_none() {
        return Some((
            class,
            "when the error is displayed (formatted with `{}`, or turned into a string), whose `Display` its `#[error(…)]` attribute derives",
        ));
    }
    let f = facts.function.as_ref()?;
    let owner = f.owner.as_deref()?;
    let base = class.split("::").next().unwrap_or(class);
    if last_name(base) != last_name(owner) {
        return None;
    }
    let how = match (lang, f.name.as_str()) {
        (Lang::Go, "Error") => {
            "when the error is printed or its text is read, which calls this `Error()` method"
        }
        (Lang::Rust, "fmt") => {
            "when the error is displayed (formatted with `{}`, or turned into a string), which calls this `fmt`"
        }
        (Lang::Python, "__str__") => {
            "when the error is printed or turned into a string, which calls this `__str__`"
        }
        (Lang::Java, "getMessage") => {
            "when the exception's message is read (printed, logged, or `getMessage()` called)"
        }
        (Lang::TypeScript | Lang::JavaScript, "constructor") | (Lang::Python, "__init__") => {
            "when an error of the class is constructed, whatever its caller passes"
        }
        (Lang::Java, name) if name == last_name(owner) => {
            "when an exception of the class is constructed with this constructor, whatever its caller passes"
        }
        _ => return None,
    };
    Some((class, how))
}

/// The last segment of a path, without type arguments: `MaskedValidationError` of
/// `MaskedValidationError<'_, '_, '_>`, `Error` of `io::Error`.
fn last_name(s: &str) -> &str {
    let s = s.split('<').next().unwrap_or(s).trim_end();
    s.rsplit(['.', ':']).next().unwrap_or(s)
}

/// What the project says of the site in its own words, quoted: the doc comment's entry for
/// this error, the comment above the raise and the function's documented purpose.
fn own_words(site: &Site<'_>) -> String {
    let mut out = String::new();
    let f = site.facts.function.as_ref();
    let doc = f.and_then(|f| f.doc.as_deref());
    let fname = function_ref(site);
    if let Some(text) = docs::of_site(site) {
        let about = match (site.lang, site.error_type, site.class) {
            (Lang::Rust, ErrorType::Panic | ErrorType::Assertion, _) => "its panics".to_owned(),
            (Lang::Rust | Lang::Go, _, _) => "its errors".to_owned(),
            (_, _, Some(c)) => format!("`{}`", last_name(c)),
            (_, _, None) => "what it throws".to_owned(),
        };
        out.push_str(&format!(
            " The doc comment of {fname} says of {about}: \"{}\"",
            quote(&text)
        ));
    }
    if let Some(text) = site.facts.comment.as_deref().and_then(docs::comment) {
        out.push_str(&format!(
            " The comment above the raise: \"{}\"",
            quote(&text)
        ));
    }
    if let Some(text) = doc.and_then(docs::summary) {
        out.push_str(&format!(" {fname} is documented as: \"{}\"", quote(&text)));
    }
    out.push_str(&tested(site));
    out
}

/// The tests of the repository that expect the error, with the call that raises it: the
/// reproduction.
fn tested(site: &Site<'_>) -> String {
    let tests = &site.facts.tests;
    let Some(first) = tests.first() else {
        return String::new();
    };
    let name = first
        .function
        .as_deref()
        .map(|f| format!("`{f}`"))
        .unwrap_or_else(|| "a test".to_owned());
    let more = match tests.len() {
        1 => String::new(),
        2 => " (and 1 more test)".to_owned(),
        n => format!(" (and {} more tests)", n - 1),
    };
    format!(
        " The test {name} ({}:{}) expects it from `{}`{more}.",
        first.file, first.line, first.text
    )
}

/// A quote in a sentence: its inner double quotes made single, backticks kept.
fn quote(text: &str) -> String {
    let t = text.replace('"', "'");
    if t.ends_with(['.', '!', '?', '…']) {
        t
    } else {
        format!("{t}.")
    }
}

/// A literal value: a number, a string, `None`/`nil`/`null`, a boolean, an empty collection.
fn is_literal_value(v: &str) -> bool {
    let v = v.trim();
    v.parse::<f64>().is_ok()
        || v.starts_with(['"', '\'', '`'])
        || matches!(
            v,
            "None"
                | "nil"
                | "null"
                | "undefined"
                | "true"
                | "false"
                | "True"
                | "False"
                | "[]"
                | "{}"
                | "()"
                | "''"
                | "\"\""
                | "new ArrayList<>()"
                | "Vec::new()"
                | "String::new()"
                | "set()"
                | "dict()"
                | "list()"
        )
}

pub(crate) fn documentation(site: &Site<'_>) -> String {
    let facts = site.facts;
    if let Some((class, how)) = own_text(site) {
        let written = match &facts.function {
            Some(_) => function_ref(site),
            None => "its `#[error(…)]` attribute".to_owned(),
        };
        // A constructor words the errors built with it; a class may have others.
        let which = match site.facts.function.as_ref().map(|f| f.name.as_str()) {
            Some("constructor" | "__init__") => format!("a `{class}` built by this constructor"),
            Some(n) if site.lang == Lang::Java && n == last_name(&class) => {
                format!("a `{class}` built by this constructor")
            }
            // A text chosen by a `match` arm or an `if` words only the errors of that case.
            _ if !case_guards(site).is_empty() => format!("a `{class}` error"),
            _ => format!("every `{class}` error"),
        };
        let mut doc = format!(
            "This is the text of {which}, written in {written} ({}:{}): \"{}\". It is produced {how}, so the error itself is made elsewhere, where a `{class}` is created.",
            site.file_path,
            site.line,
            site.message.replace('`', "\\`")
        );
        let guards = case_guards(site);
        if !guards.is_empty() {
            doc.push_str(&format!(
                " This wording is used when {}.",
                and_list(&guards)
            ));
        }
        if !facts.callers.is_empty() {
            doc.push_str(&format!(
                " The repository creates one in {}.",
                places(&facts.callers)
            ));
        }
        doc.push_str(&tested(site));
        return doc;
    }
    let place = match &facts.function {
        Some(f) => {
            let owner = match f.owner.as_deref() {
                Some(o) if crate::constructor_call(site.lang, f).is_some() => {
                    format!(", the constructor of `{o}`")
                }
                Some(o) => format!(", a method of `{o}`"),
                None => String::new(),
            };
            match f
                .called_by
                .as_deref()
                .filter(|_| f.callback && !f.name.is_empty())
            {
                // It runs when the call it is handed to calls it, not when its function runs.
                Some(call) => format!(
                    "in the callback that {}{} hands to `{call}()` ({}:{})",
                    function_ref(site),
                    if owner.is_empty() {
                        String::new()
                    } else {
                        format!("{owner},")
                    },
                    site.file_path,
                    site.line
                ),
                None => format!(
                    "in {}{owner} ({}:{})",
                    function_ref(site),
                    site.file_path,
                    site.line
                ),
            }
        }
        None => format!("at the top level of {}:{}", site.file_path, site.line),
    };
    // A sentinel's declaration makes the value; the functions that return it are named below.
    let mut doc = if let Some(name) = sentinel(site).filter(|_| !site.messageless()) {
        format!(
            "`{name}` is an error value declared at {}:{} with the message \"{}\".",
            site.file_path,
            site.line,
            site.message.replace('`', "\\`")
        )
    } else if let Some(carried) = site.facts.carried.as_ref().filter(|_| site.messageless()) {
        format!(
            "{} {place}, handed `{carried}`: its message is made of that, which a trace shows after the class.",
            what(site)
        )
    } else if site.messageless() && site.caught_here().is_some() {
        format!("{} {place} without a message.", what(site))
    } else if site.messageless() {
        format!(
            "{} {place} without a message: a trace shows the class alone.",
            what(site)
        )
    } else {
        format!(
            "{} {place} with the message \"{}\".",
            what(site),
            site.message.replace('`', "\\`")
        )
    };
    if let Some(caught) = caught_itself(site) {
        doc.push(' ');
        doc.push_str(&caught);
    }
    doc.push_str(&how_it_runs(site));
    doc.push_str(&own_words(site));
    match stub(site) {
        Some(Stub { method, owner, kind: StubKind::Abstract }) => doc.push_str(&format!(
            " `{method}()` of `{owner}` is an abstract method (`@abstractmethod`) that does nothing but raise it: a subclass that does not define `{method}()` cannot be created, so this is raised only where a subclass's `{method}()` calls `super().{method}()`."
        )),
        Some(Stub { method, owner, kind: StubKind::Hook }) => doc.push_str(&format!(
            " `{method}()` of `{owner}` does nothing but raise it: it is there for subclasses to define, and a call of `{method}()` on an object whose class does not define its own raises this."
        )),
        Some(Stub { method, owner, kind: StubKind::Refused }) => {
            doc.push_str(&format!(
                " `{method}()` of `{owner}` does nothing but throw it: `{owner}` does not support `{method}()`."
            ));
            doc.push_str(&way_in(site));
        }
        None => doc.push_str(&way_in(site)),
    }
    doc.push_str(&crate::command::documentation(site));
    let guards = guard_exprs(site);
    let handler = handler_of(site);
    if let Some((clause, line)) = handler {
        doc.push_str(&format!(
            " It is {} when the `try` block before `{clause}` (line {line}) fails with what that clause catches: this site turns that error into this one.",
            verb(site).participle
        ));
    }
    if let Some(name) = sentinel(site) {
        doc.push_str(&format!(
            " `{name}` is a sentinel: one error value, declared once here{}; {}.",
            if facts.callers.is_empty() {
                ", with no `return` of it in this repository".to_owned()
            } else {
                format!(" and returned as it is by {}", and_list(&returners(site)))
            },
            if exported(name) && !nameable(site, name) {
                "its package is internal, so only code of this module names it: other code tells it apart through what returns it, or by its text".to_owned()
            } else if exported(name) {
                format!("callers tell it apart with `errors.Is(err, {name})`")
            } else {
                format!("`{name}` is unexported, so code outside its package tells it apart by its text, and code inside it with `errors.Is(err, {name})`")
            }
        ));
    } else if !guards.is_empty() && facts.unwrapped.is_some() {
        // The guards lead to the `.expect()`; the value it unwraps decides (said below).
        doc.push_str(&format!(
            " It is reached only when {} hold{}.",
            and_list(&guards),
            if guards.len() == 1 { "s" } else { "" }
        ));
    } else if !guards.is_empty() {
        doc.push_str(&format!(
            " It is {} when {} hold{}.",
            verb(site).participle,
            and_list(&guards),
            if guards.len() == 1 { "s" } else { "" }
        ));
    }
    // A `#[cfg(…)]` around it decides whether the build has it at all.
    let cfgs: Vec<String> = facts
        .context
        .iter()
        .filter_map(|c| match c {
            Context::Cfg { condition, .. } if condition != "debug_assertions" => {
                Some(format!("`cfg({condition})`"))
            }
            _ => None,
        })
        .collect();
    if !cfgs.is_empty() {
        doc.push_str(&format!(
            " Only a build where {} hold{} has it.",
            and_list(&cfgs),
            if cfgs.len() == 1 { "s" } else { "" }
        ));
    }
    if let Some(u) = &facts.unwrapped {
        doc.push_str(&format!(" It panics when {}.", unwrap_failure(u)));
    }
    let mut checks: Vec<&crate::Condition> = Vec::new();
    for c in facts.passed_checks() {
        if checks.len() < 3 && !checks.iter().any(|d| d.expr == c.expr) {
            checks.push(c);
        }
    }
    if !checks.is_empty() {
        let passed: Vec<String> = checks.iter().map(|c| ticked(&c.expr)).collect();
        let mut lines: Vec<u32> = checks.iter().map(|c| c.line).collect();
        lines.sort_unstable();
        lines.dedup();
        let ifs = if lines.len() == 1 { "" } else { "s" };
        doc.push_str(&format!(
            " By then {} hold{}: the `if`{ifs} at line{ifs} {} did not leave {}.",
            and_list(&passed),
            if passed.len() == 1 { "s" } else { "" },
            and_list(&lines.iter().map(u32::to_string).collect::<Vec<_>>()),
            function_ref(site),
        ));
    }
    // Parameters are named together: one sentence says what they mean. State this file never
    // writes is not named: whether it is an object's, a class's constant or configuration
    // is not known here.
    let mut parameters = Vec::new();
    let mut told: Vec<&str> = Vec::new();
    for s in &facts.state {
        match s.binding {
            Binding::Parameter => parameters.push(ticked(&s.name)),
            Binding::Local => {
                // A local given a literal (`i = 0`, `buf = []`) is changed before the raise:
                // its first value says nothing of the one the guard reads.
                if let Some(v) = s.value.as_deref().filter(|v| !is_literal_value(v)) {
                    // `argv.length` and `argv[2]` are one local.
                    let local = s.name.split(['.', '[']).next().unwrap_or(&s.name);
                    if !told.contains(&local) {
                        told.push(local);
                        doc.push_str(&format!(" `{local}` comes from `{v}`."));
                    }
                }
            }
            Binding::State if s.writes.is_empty() => {}
            Binding::State => doc.push_str(&state_sentence(site, s)),
        }
    }
    let callback = facts.function.as_ref().filter(|f| f.callback);
    let (one, many) = if let Some(f) = callback {
        (
            format!(
                "is a parameter of the callback `{}` (line {}) that {} hands on: what calls the callback decides it",
                f.signature,
                f.line,
                function_ref(site)
            ),
            format!(
                "are parameters of the callback `{}` (line {}) that {} hands on: what calls the callback decides them",
                f.signature,
                f.line,
                function_ref(site)
            ),
        )
    } else if code::is_public(site) {
        (
            "is a parameter: the caller decides it".to_owned(),
            "are parameters: the caller decides them".to_owned(),
        )
    } else {
        let f = function_ref(site);
        (
            format!("is a parameter of {f}"),
            format!("are parameters of {f}"),
        )
    };
    doc.push_str(&named_together(&parameters, &one, &many));
    for h in &facts.helpers {
        doc.push_str(&format!(
            " `{}()` (line {}) returns {}.",
            h.name,
            h.line,
            ticked(&h.returns)
        ));
    }
    for c in &facts.config {
        match c.source {
            ConfigSource::Environment => {
                doc.push_str(&format!(" It depends on the environment: `{}`.", c.text))
            }
            ConfigSource::Config => doc.push_str(&format!(
                " It depends on the configuration field `{}`.",
                c.text
            )),
        }
    }
    for c in &facts.context {
        if let Context::Try {
            finally: Some(f), ..
        } = c
        {
            doc.push_str(&format!(
                " It is {} inside a `try` whose `finally` runs `{f}`.",
                verb(site).participle
            ));
        }
    }
    if let Some(s) = site.status {
        doc.push_str(&format!(" The response carries HTTP status {s}."));
    }
    match (site.code, &facts.code_from) {
        (Some(c), Some(from)) => doc.push_str(&format!(
            " Its code is `{c}`, which {} ({}:{}) gives every error it makes.",
            from.function
                .as_deref()
                .map_or_else(|| "its builder".to_owned(), |f| format!("`{f}()`")),
            from.file,
            from.line
        )),
        (Some(c), None) => doc.push_str(&format!(" Its code is `{c}`.")),
        (None, _) => {}
    }
    doc
}

/// The writes of a piece of state that the file makes and that provably make a guard of the
/// site hold or stop holding ([`after_write`]), said as what each does to the guard ("`self._data`
/// holds after `self._data.append(data)` (…); it stops holding after `self._data = []` (…)"),
/// and how they meet the branch the site is on. Other writes are not named: that a write
/// changes the state says nothing of whether it leads to the raise, and a sentence that named
/// them all would read as the whole list.
fn state_sentence(site: &Site<'_>, s: &State) -> String {
    let conjuncts: Vec<&str> = site
        .facts
        .guards()
        .flat_map(|g| g.conjuncts.iter())
        .map(String::as_str)
        .filter(|c| mentions(c, &s.name))
        .collect();
    let mut out = String::new();
    for c in &conjuncts {
        let (mut holds, mut stops): (Vec<&Write>, Vec<&Write>) = (Vec::new(), Vec::new());
        for w in &s.writes {
            match after_write(c, &s.name, w) {
                Some(true) => holds.push(w),
                Some(false) => stops.push(w),
                None => {}
            }
        }
        let c = ticked(c.trim());
        match (holds.is_empty(), stops.is_empty()) {
            (true, true) => {}
            (false, true) => out.push_str(&format!(" {c} holds after {}.", writes_list(holds))),
            (true, false) => {
                out.push_str(&format!(" {c} stops holding after {}.", writes_list(stops)))
            }
            (false, false) => out.push_str(&format!(
                " {c} holds after {}; it stops holding after {}.",
                writes_list(holds),
                writes_list(stops)
            )),
        }
    }
    let relevant = s.writes.iter().filter(|w| {
        conjuncts
            .iter()
            .any(|c| after_write(c, &s.name, w).is_some())
    });
    if let Some(b) = &site.facts.other_branch {
        for w in relevant {
            if w.conditions.iter().any(|c| c == &b.condition) {
                let others: Vec<String> = b
                    .statements
                    .iter()
                    .filter(|t| t.trim_end_matches(';') != w.text.trim_end_matches(';'))
                    .map(|t| ticked(t))
                    .collect();
                out.push_str(&format!(
                    " `{}` runs only on the other side of the `if` at line {} (when `{}`){}.",
                    w.text.trim_end_matches(';'),
                    b.line,
                    b.condition,
                    if others.is_empty() {
                        String::new()
                    } else {
                        format!(", the branch that runs {}", and_list(&others))
                    }
                ));
            }
        }
    }
    out
}

/// How code outside reaches the site, from the facts' entry: "It runs under the `npm pkg`
/// command: `set()` (lib/commands/pkg.js:40) calls `setKeys()`." or "It is reached from
/// `match_hostname()` (ssl.py:350, `def match_hostname(cert, hostname)`), which calls
/// `_dnsname_match()`."
fn way_in(site: &Site<'_>) -> String {
    let Some(entry) = &site.facts.entry else {
        return String::new();
    };
    let Some(f) = &site.facts.function else {
        return String::new();
    };
    // Each function of another file than the one before it is shown with its place.
    let mut calls: Vec<String> = entry
        .chain
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, s)| {
            if s.file == entry.chain[i - 1].file {
                format!("`{}()`", s.function)
            } else {
                format!("`{}()` ({}:{})", s.function, s.file, s.line)
            }
        })
        .collect();
    calls.push(format!("`{}()`", f.name));
    let below = calls
        .iter()
        .map(|c| format!("calls {c}"))
        .collect::<Vec<_>>()
        .join(", which ");
    let mut also: Vec<String> = entry
        .also
        .iter()
        .map(|a| format!("{} ({})", ticked(&a.name), a.file))
        .collect();
    if entry.more > 0 {
        also.push(format!("{} more", entry.more));
    }
    let also = match also.len() {
        0 => String::new(),
        _ if entry.command.is_some() => format!(" It also runs under {}.", and_list(&also)),
        _ => format!(" It is reached from {} as well.", and_list(&also)),
    };
    let first = match (&entry.command, entry.chain.first()) {
        // A method of a public type that a method on the way implements: a call of it runs
        // that method, which calls on down to the site.
        (None, Some(top)) if top.overridden && entry.chain.len() > 1 => {
            let implementation = &calls[0];
            let rest = calls[1..]
                .iter()
                .map(|c| format!("calls {c}"))
                .collect::<Vec<_>>()
                .join(", which ");
            format!(
                " It is reached from `{}.{}()` ({}:{}): a call of it runs its implementation {implementation}, which {rest}.",
                top.owner.as_deref().unwrap_or_default(),
                top.function,
                top.file,
                top.line,
            )
        }
        // A service method that hands its call to the provider's implementation, the site's
        // method (`Signature.sign()` runs `engineSign()`).
        (None, Some(top)) if top.overridden && top.function != f.name => format!(
            " It is reached from `{}.{}()` ({}:{}), which runs the provider's `{}()` when the `{}` is {}'s.",
            top.owner.as_deref().unwrap_or_default(),
            top.function,
            top.file,
            top.line,
            f.name,
            top.owner.as_deref().unwrap_or_default(),
            f.owner
                .as_deref()
                .map(|o| format!("`{o}`"))
                .unwrap_or_else(|| "this class".to_owned())
        ),
        // A method of a public type that the site's method implements: a call of it reaches
        // the site by dispatch.
        (None, Some(top)) if top.overridden => format!(
            " `{}()` implements `{}.{}()` ({}:{}): a call of that method on {} reaches it.",
            f.name,
            top.owner.as_deref().unwrap_or_default(),
            top.function,
            top.file,
            top.line,
            f.owner
                .as_deref()
                .map(|o| format!("a `{o}`"))
                .unwrap_or_else(|| "this class".to_owned())
        ),
        // A Go program's package is no package a program imports: the tool prints its errors.
        (Some(command), None) if site.lang == Lang::Go => format!(
            " {} is code of `{command}`, not of a package a program imports: a user sees it in what `{command}` prints.",
            site.file_path
        ),
        (Some(command), None) => format!(
            " It runs under the `{command}` command, whose code is in {}.",
            site.file_path
        ),
        (Some(command), Some(top)) => format!(
            " It runs under the `{command}` command: `{}()` ({}:{}) {below}.",
            top.function, top.file, top.line
        ),
        (None, Some(top)) => {
            // A constructor is called as its class: `new Pack()`.
            let call = step_call(site.lang, top);
            format!(
                " It is reached from `{call}` ({}:{}, `{}`), which {below}.",
                top.file,
                top.line,
                top.signature.replace('`', "'")
            )
        }
        (None, None) => return String::new(),
    };
    first + &also
}

/// A step of the way in as a caller writes its call, with its type when it has one:
/// `Rows.Scan()`, `new Pack()`, `Codec::from_str()`.
fn step_call(lang: Lang, step: &crate::Step) -> String {
    match &step.owner {
        Some(owner) if step.function == "constructor" || step.function == *owner => {
            format!("new {owner}()")
        }
        Some(owner) if matches!(step.function.as_str(), "__init__" | "__new__") => {
            format!("{owner}()")
        }
        Some(owner) if lang == Lang::Rust => format!("{owner}::{}()", step.function),
        Some(owner) => format!("{owner}.{}()", step.function),
        // `module.exports = (child, requested) => …`: the module is the function.
        None if step.function == "exports"
            && matches!(lang, Lang::JavaScript | Lang::TypeScript) =>
        {
            format!("require('{}')()", module_of(&step.file))
        }
        None => format!("{}()", step.function),
    }
}

/// What `require` takes for a JavaScript file: its package's path inside `node_modules`
/// (`@npmcli/arborist/lib/dep-valid`), else the path from the project's root, without the
/// extension.
fn module_of(file: &str) -> String {
    let vendored = file.rsplit_once("node_modules/").map(|(_, rest)| rest);
    let inside = vendored.map_or_else(|| format!("./{file}"), str::to_owned);
    let stem = inside
        .strip_suffix(".js")
        .or_else(|| inside.strip_suffix(".cjs"))
        .or_else(|| inside.strip_suffix(".ts"))
        .unwrap_or(&inside);
    match stem.strip_suffix("/index") {
        // A package's `lib/index.js` is the main its `package.json` names, as a rule.
        Some(dir) if vendored.is_some() => {
            let package = if dir.starts_with('@') { 2 } else { 1 };
            match dir.strip_suffix("/lib") {
                Some(root) if root.split('/').count() == package => root.to_owned(),
                _ => dir.to_owned(),
            }
        }
        Some(dir) => dir.to_owned(),
        None => stem.to_owned(),
    }
}

/// The name of a Go sentinel error (`var ErrX = errors.New(…)` outside any function).
pub(crate) fn sentinel<'a>(site: &Site<'a>) -> Option<&'a str> {
    let class = site.class?;
    (site.lang == Lang::Go && site.facts.function.is_none() && crate::is_go_sentinel_name(class))
        .then_some(class)
}

/// Whether code outside the sentinel's package can name it: it is exported, and its package
/// is not internal (`internal/oserror.ErrExist` is named `fs.ErrExist` by everyone else).
pub(crate) fn nameable(site: &Site<'_>, name: &str) -> bool {
    exported(name) && !code::internal_path(site.file_path)
}

/// Whether a Go name is exported: code of other packages can name it.
fn exported(name: &str) -> bool {
    name.starts_with(|c: char| c.is_uppercase())
}

/// The functions that return a sentinel, each once, quoted: those of the places [`places`]
/// shows, so that the reader finds each named in the trigger scenarios.
fn returners(site: &Site<'_>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for c in site.facts.callers.iter().take(MAX_REFS) {
        if let Some(f) = &c.function {
            let f = format!("`{f}()`");
            if !names.contains(&f) {
                names.push(f);
            }
        }
    }
    names.truncate(MAX_REFS);
    names
}

/// The first few references, where each is and what it says, and how many more there are:
/// `` `f()` at a.ts:3 (`g(x)`) and 2 more places ``.
fn places(refs: &[crate::Reference]) -> String {
    let shown: Vec<String> = refs
        .iter()
        .take(MAX_REFS)
        .map(|c| {
            let from = c
                .function
                .as_deref()
                .map(|f| format!("`{f}()` at "))
                .unwrap_or_default();
            format!("{from}{}:{} (`{}`)", c.file, c.line, c.text)
        })
        .collect();
    let more = refs.len().saturating_sub(MAX_REFS);
    let more = match more {
        0 => String::new(),
        _ if refs.len() >= crate::MAX_LINKS => format!(" and at least {more} more places"),
        1 => " and 1 more place".to_owned(),
        n => format!(" and {n} more places"),
    };
    format!("{}{more}", and_list(&shown))
}

/// The innermost `catch` or `except` clause the site is in, and its line.
pub(crate) fn handler_of<'a>(site: &Site<'a>) -> Option<(&'a str, u32)> {
    handlers_of(site).pop()
}

/// Every `catch` or `except` clause the site is in, outermost first, each with its line: a
/// throw in a handler nested in another handler runs only when both `try`s failed.
fn handlers_of<'a>(site: &Site<'a>) -> Vec<(&'a str, u32)> {
    site.facts
        .context
        .iter()
        .filter_map(|c| match c {
            Context::Handler { clause, line } => Some((clause.as_str(), *line)),
            _ => None,
        })
        .collect()
}

/// "the code of the `try` before `catch (A e)` (line 3) fails, and then the code of the `try`
/// before `catch (B e)` (line 7) fails": what the handlers around the site need.
fn tries_failed(site: &Site<'_>) -> Option<String> {
    let handlers = handlers_of(site);
    let each: Vec<String> = handlers
        .iter()
        .map(|(clause, line)| {
            format!("the code of the `try` before `{clause}` (line {line}) fails")
        })
        .collect();
    (!each.is_empty()).then(|| each.join(", and then "))
}

/// " `f()` is a generator: …", when the site's function is one, and the `if`s of its module
/// or class it is defined under.
fn how_it_runs(site: &Site<'_>) -> String {
    let defined: Vec<String> = site
        .facts
        .context
        .iter()
        .filter_map(|c| match c {
            Context::Defined { condition, line } => Some(format!("`{condition}` (line {line})")),
            _ => None,
        })
        .collect();
    let mut out = String::new();
    if !defined.is_empty() {
        out.push_str(&format!(
            " This definition of {} exists only when {} held as its module or class was run.",
            function_ref(site),
            and_list(&defined)
        ));
    }
    if !site.facts.function.as_ref().is_some_and(|f| f.generator) {
        return out;
    }
    out.push_str(&format!(
        " {} is a generator: a call returns at once, and this line runs as its result is iterated (by a loop over it, or by making a list of it), so that is where the error appears.",
        function_ref(site)
    ));
    out
}

/// "`f()` catches it itself: the `except ValueError` at line 372 runs `pass`.": the handler of
/// the site's own function that catches its error ([`Site::caught_here`]), and what it does.
pub(crate) fn caught_itself(site: &Site<'_>) -> Option<String> {
    let c = site.caught_here()?;
    Some(format!(
        "{} catches it itself: {}.",
        function_ref(site),
        catch_phrase(site, c)
    ))
}

/// "the `except ValueError` at line 372 runs `pass`": a clause that catches the error, and
/// what its handler does.
fn catch_phrase(site: &Site<'_>, c: &crate::Catch) -> String {
    let action = match (&c.raises, c.statements.as_slice()) {
        (Some(r), _) => format!("raises {} instead", ticked(r)),
        (None, []) => "does nothing with it".to_owned(),
        (None, s) => format!(
            "runs {}",
            and_list(&s.iter().map(|x| ticked(x)).collect::<Vec<_>>())
        ),
    };
    let marker = if site.lang == Lang::Python { "#" } else { "//" };
    let clause = c.clause.split(marker).next().unwrap_or(&c.clause).trim();
    format!("the `{clause}` at line {} {action}", c.line)
}

/// The calls of the site's function that catch its error in a `try` around them: "`g()` at
/// f.py:12 catches it: the `except X` at line 14 runs `…`", and whether all the calls found do.
fn caught_by_callers(site: &Site<'_>) -> Option<(String, bool)> {
    let callers = &site.facts.callers;
    let caught: Vec<String> = callers
        .iter()
        .filter_map(|c| {
            let k = c.caught.as_ref()?;
            let who = c
                .function
                .as_deref()
                .map_or_else(|| "The call".to_owned(), |f| format!("`{f}()`"));
            Some(format!(
                "{who} at {}:{} catches it: {}",
                c.file,
                c.line,
                catch_phrase(site, k)
            ))
        })
        .collect();
    if caught.is_empty() {
        return None;
    }
    let all = caught.len() == callers.len();
    Some((format!("{}.", caught.join("; ")), all))
}

/// When the value a Rust `.expect(…)` unwraps fails it: "`env::var_os("RUSTC")` is `None`";
/// without a call that says which, both, as whichever its type has.
fn unwrap_failure(u: &crate::Unwrapped) -> String {
    let value = u.value.replace('`', "'");
    if u.ok_panics {
        return format!("`{value}` is an `Ok`");
    }
    match unwrapped_kind(&u.value) {
        Some(Unwrapping::Option) => format!("`{value}` is `None`"),
        Some(Unwrapping::Result) => format!("`{value}` is an `Err`"),
        // An `Err` of what `?` is applied to is returned before it gets here.
        None if value.trim_end().ends_with('?') => format!("`{value}` is `None`"),
        None => format!(
            "`{value}` holds no value: `None` if it is an `Option`, an `Err` if it is a `Result`"
        ),
    }
}

/// What a Rust `.expect(…)` unwraps, where the call that makes the value says: the standard
/// library's `Option` and `Result` methods of those names.
enum Unwrapping {
    Option,
    Result,
}

fn unwrapped_kind(value: &str) -> Option<Unwrapping> {
    const OPTIONS: &[&str] = &[
        "get",
        "get_mut",
        "first",
        "last",
        "next",
        "next_back",
        "pop",
        "peek",
        "parent",
        "file_name",
        "file_stem",
        "extension",
        "to_str",
        "host",
        "host_str",
        "port",
        "find",
        "position",
        "rposition",
        "max",
        "min",
        "strip_prefix",
        "strip_suffix",
        "split_once",
        "rsplit_once",
        "var_os",
        "checked_add",
        "checked_sub",
        "checked_mul",
        "checked_div",
        "take",
    ];
    const RESULTS: &[&str] = &[
        "parse",
        "from_str",
        "from_utf8",
        "try_from",
        "try_into",
        "read_to_string",
        "read_to_end",
        "read_dir",
        "read",
        "write",
        "write_all",
        "flush",
        "open",
        "create",
        "metadata",
        "canonicalize",
        "lock",
        "var",
        "join",
        "recv",
        "send",
        "bind",
        "connect",
        "spawn",
        "output",
        "wait",
        "current_dir",
        "build",
    ];
    let v = value.trim();
    let call = v.strip_suffix(')')?;
    let open = call.rfind('(')?;
    let name = call[..open].rsplit(['.', ':']).next()?.trim();
    // serde's formats return a `Result` from every function (`serde_json::to_string`).
    let serde = ["serde_json::", "serde_yaml::", "toml::", "bincode::"]
        .iter()
        .any(|m| call[..open].trim_start().starts_with(m));
    if name.starts_with("checked_") || OPTIONS.contains(&name) {
        Some(Unwrapping::Option)
    } else if serde || name.starts_with("try_") || RESULTS.contains(&name) {
        Some(Unwrapping::Result)
    } else {
        None
    }
}

/// Whether a statement, as written, raises, panics or returns an error of its own.
fn fails_itself(statement: &str) -> bool {
    let s = statement.trim_start();
    let returned = s.strip_prefix("return").map(str::trim_start);
    [
        "raise",
        "throw ",
        "panic!",
        "panic(",
        "unreachable!",
        "log.Fatal",
        "os.Exit(",
    ]
    .iter()
    .any(|p| s.starts_with(p))
        || returned.is_some_and(|r| {
            r.starts_with("Err(")
                || r.contains("errors.New(")
                || r.contains("fmt.Errorf(")
                || r.starts_with("Promise.reject(")
        })
}

pub(crate) fn trigger_scenarios(site: &Site<'_>) -> String {
    let facts = site.facts;
    if let Some((class, how)) = own_text(site) {
        let created = if facts.callers.is_empty() {
            String::new()
        } else {
            format!(": {}", places(&facts.callers))
        };
        let guards = case_guards(site);
        let which = if guards.is_empty() {
            format!("Any `{class}` error shows this text {how}.")
        } else {
            format!(
                "A `{class}` error shows this text {how}, when {}.",
                and_list(&guards)
            )
        };
        return format!(
            "{which} The failure itself happened where that `{class}` was created{created}."
        );
    }
    match stub(site) {
        Some(Stub { method, kind: StubKind::Abstract, .. }) => {
            return format!(
                "A subclass's `{method}()` that calls `super().{method}()` raises it."
            )
        }
        Some(Stub { method, owner, kind: StubKind::Hook }) => {
            return format!(
                "A call of `{method}()` on an object of `{owner}`, or of a subclass that does not define `{method}()`, raises it."
            )
        }
        _ => {}
    }
    let mut out = match &facts.function {
        Some(f) if f.accessor.is_some() => {
            let of = f
                .owner
                .as_deref()
                .map(|o| format!(" of {} `{o}`", article(o)))
                .unwrap_or_default();
            let how = match f.accessor {
                Some(crate::Accessor::Set) => "Assigning",
                Some(crate::Accessor::Delete) => "Deleting",
                _ => "Reading",
            };
            format!("{how} the property `{}`{of} (`{}`)", f.name, f.signature)
        }
        Some(f) if f.callback && f.called_by.is_some() && !f.name.is_empty() => format!(
            "The callback that {} hands to `{}()`",
            function_ref(site),
            f.called_by.as_deref().unwrap_or_default()
        ),
        Some(_) if !facts.callers.is_empty() => {
            format!(
                "{} is called from {}. A call",
                function_ref(site),
                places(&facts.callers)
            )
        }
        // A closure's head is its own parameters (`er =>`, `|error|`), not the call's.
        Some(f) if f.callback => format!("A call to {}", function_ref(site)),
        Some(f) => format!("A call to {} (`{}`)", function_ref(site), f.signature),
        None => match sentinel(site) {
            Some(name) if !facts.callers.is_empty() => {
                return format!(
                    "`{name}` is returned by {}. A call to one of them fails with it under the conditions of that `return`.",
                    places(&facts.callers)
                );
            }
            // A value no code returns: its declaration runs on loading, and is no failure.
            Some(name) => {
                return format!(
                    "No `return` of `{name}` is in this repository: code gets it some other way (as a panic's value, a field or an argument), or never."
                );
            }
            _ => format!("Loading or running {}", site.file_path),
        },
    };
    let guards = guard_exprs(site);
    if let Some(failed) = tries_failed(site) {
        out.push_str(&format!(
            " {} it when {failed}{}.",
            verb(site).present,
            if guards.is_empty() {
                String::new()
            } else {
                format!(" and {} hold", and_list(&guards))
            }
        ));
    } else if let Some(u) = &facts.unwrapped {
        out.push_str(&format!(
            " panics with it at line {} when {}{}.",
            site.line,
            unwrap_failure(u),
            if guards.is_empty() {
                String::new()
            } else {
                format!(" and {} hold", and_list(&guards))
            }
        ));
    } else if guards.is_empty() {
        out.push_str(&format!(
            " that gets to line {} {} it.",
            site.line,
            verb(site).present
        ));
    } else {
        out.push_str(&format!(
            " {} it when it gets to line {} with {} true.",
            verb(site).present,
            site.line,
            and_list(&guards)
        ));
    }
    if let Some(caught) = caught_itself(site) {
        out.push(' ');
        out.push_str(&caught);
    }
    out.push_str(&how_it_runs(site));
    if let Some((caught, _)) = caught_by_callers(site) {
        out.push(' ');
        out.push_str(&caught);
    }
    // A write in another function that provably makes a guard hold is how an earlier call
    // leads to this one raising.
    let here = facts.function.as_ref().map(|f| f.name.as_str());
    for s in facts.state.iter().filter(|s| s.binding == Binding::State) {
        let (from_start, earlier): (Vec<&Write>, Vec<&Write>) = s
            .writes
            .iter()
            .filter(|w| w.function.is_some() && w.function.as_deref() != here)
            .filter(|w| {
                facts
                    .guards()
                    .flat_map(|g| g.conjuncts.iter())
                    .any(|c| mentions(c, &s.name) && sets(c, &s.name, w))
            })
            .partition(|w| w.function.as_deref().is_some_and(is_constructor));
        // What a constructor sets is the value the object starts with, not an earlier call's.
        if !from_start.is_empty() {
            out.push_str(&format!(
                " `{}` starts that way: {}.",
                s.name,
                writes_list(from_start)
            ));
        }
        if !earlier.is_empty() {
            out.push_str(&format!(
                " `{}` gets that state from {}, in an earlier call.",
                s.name,
                writes_list(earlier)
            ));
        }
    }
    if facts
        .conditions
        .iter()
        .any(|c| c.kind == crate::ConditionKind::Assert)
    {
        match site.lang {
            Lang::Python => out.push_str(
                " It is an `assert` statement: `python -O` removes it, and the code goes on past the check.",
            ),
            Lang::Java => out.push_str(
                " It is an `assert` statement: Java checks it only with assertions enabled (`java -ea`).",
            ),
            _ => {}
        }
    }
    for c in &facts.context {
        match c {
            Context::Loop { header, line } => out.push_str(&format!(
                " It runs inside the loop `{header}` (line {line})."
            )),
            Context::Cfg { condition, .. } if condition == "debug_assertions" => out.push_str(
                " It is a debug assertion: only builds with debug assertions on (debug builds, by default) check it; release builds skip it.",
            ),
            Context::Cfg { condition, line } => out.push_str(&format!(
                " It is compiled only where `cfg({condition})` holds (line {line})."
            )),
            _ => {}
        }
    }
    if let Some(t) = facts.tests.first() {
        out.push_str(&format!(
            " A reproduction: `{}`, as {} ({}:{}) does.",
            t.text,
            t.function
                .as_deref()
                .map_or("a test".to_owned(), |f| format!("the test `{f}`")),
            t.file,
            t.line
        ));
    }
    out
}

/// How many conditions `commonSituations` names.
const MAX_CASES: usize = 4;

pub(crate) fn common_situations(site: &Site<'_>) -> String {
    if let Some((class, _)) = own_text(site) {
        let values = if code::has_placeholder(site.message) {
            " What went wrong is in the values the text shows."
        } else {
            ""
        };
        let case = if case_guards(site).is_empty() {
            ""
        } else {
            " of this case"
        };
        return format!(
            "Seen wherever a `{class}` error{case} is shown: in logs, in messages to users, in a wrapping error's text.{values}"
        );
    }
    // The background is a guess from words and types: it is the record's tag, but not said as
    // a fact of this site, which it is often not (an `IOException` thrown for a malformed
    // identifier, "access" in the name of a command).
    let mut out = String::new();
    let failed = tries_failed(site);
    let conjuncts: Vec<&String> = site
        .facts
        .guards()
        .flat_map(|c| c.conjuncts.iter())
        .collect();
    // The handler's `try` that failed is one of the conditions, where there are others.
    let mut cases: Vec<String> = match &failed {
        Some(f) if !conjuncts.is_empty() => vec![f.clone()],
        _ => Vec::new(),
    };
    // Four are said; with more, those said are needed but not enough.
    let more = conjuncts.len() > MAX_CASES;
    for c in conjuncts.into_iter().take(MAX_CASES) {
        cases.push(match subject(site, c) {
            Subject::BoolParam(p, v) => format!(
                "`{}` is passed as {}",
                p.name,
                code::bool_literal(site.lang, v)
            ),
            Subject::Config(field, true) => format!("the configuration sets `{field}`"),
            Subject::Config(field, false) => format!("the configuration leaves `{field}` unset"),
            Subject::Env(text, _) => {
                format!("the environment gives `{text}` a value that makes `{c}` hold")
            }
            Subject::State(_) => format!("`{c}` holds"),
            Subject::Param(p) if code::is_public(site) => {
                format!(
                    "the caller passes {} `{}` for which `{c}` holds",
                    article(&p.name),
                    p.name
                )
            }
            Subject::Param(_) => format!("`{c}` holds"),
            Subject::Other => format!("`{c}` holds"),
        });
    }
    if !cases.is_empty() && site.facts.unwrapped.is_some() {
        out.push_str(&format!(
            "It can happen only when {}, and the value it unwraps fails there.",
            and_list(&cases)
        ));
    } else if more {
        out.push_str(&format!(
            "It can happen only when {}, among other conditions.",
            and_list(&cases)
        ));
    } else if !cases.is_empty() {
        out.push_str(&format!("It happens when {}.", and_list(&cases)));
    }
    if out.is_empty() {
        out = when_reached(site);
        // The handler it is in runs only when its `try` failed.
        if let Some(failed) = failed {
            out.push_str(&format!(" It happens only when {failed}."));
        }
    }
    out.trim_start().to_owned()
}

/// When the site's line runs, where no guard says more: a sentinel is declared once, when its
/// package is initialised, and is seen where a call returns it; code outside any function runs
/// as its module is imported or its class initialised.
fn when_reached(site: &Site<'_>) -> String {
    if let Some(name) = sentinel(site) {
        let returners = returners(site);
        return if returners.is_empty() {
            format!("Seen where a call returns `{name}`, as it is or wrapped in another error.")
        } else {
            format!(
                "Seen where a call returns `{name}` (it is returned by {}), as it is or wrapped in another error.",
                and_list(&returners)
            )
        };
    }
    let (line, file) = (site.line, site.file_path);
    if site.facts.function.is_some() {
        return format!(
            "Seen when {} gets to line {line} of {file}.",
            function_ref(site)
        );
    }
    let as_script = site
        .facts
        .guards()
        .flat_map(|g| g.conjuncts.iter())
        .any(|c| c.contains("__main__"));
    match site.lang {
        Lang::Python if as_script => format!("Seen when {file} is run as a script."),
        Lang::Python => {
            format!("Seen when {file} is imported: the module's top level runs line {line}.")
        }
        Lang::Java => format!(
            "Seen when the code outside any method at line {line} of {file} runs: a `static` block runs once, when its class is first used."
        ),
        _ => format!("Seen when {file} is loaded and its top level gets to line {line}."),
    }
}

/// Whether the write `w` of `name` makes the conjunct `c` false: see [`after_write`].
fn clears(c: &str, name: &str, w: &Write) -> bool {
    after_write(c, name, w) == Some(false)
}

/// Whether the write `w` of `name` makes the conjunct `c` hold: see [`after_write`].
fn sets(c: &str, name: &str, w: &Write) -> bool {
    after_write(c, name, w) == Some(true)
}

/// The truth of the conjunct `c` right after the write `w` of `name`, where the texts prove
/// it: a plain assignment of a literal to a name the conjunct tests for truth or compares
/// with a literal (`self._closed = True` for `self._closed`, `state = None` for `state is
/// None`); an element put in, taken out of, or a clearing of a collection the conjunct tests
/// for that same element or for being empty (`pending.delete(scope)` for
/// `pending.has(scope)`). A compound assignment (`flags &^= f`), a value that is not a
/// literal, another element: not known.
fn after_write(c: &str, name: &str, w: &Write) -> Option<bool> {
    let c = c.trim();
    let negated = c.starts_with('!') || c.starts_with("not ");
    let bare = c.trim_start_matches('!').trim_start_matches("not ").trim();
    let text = w.text.trim().trim_end_matches(';').trim();
    match w.effect {
        Effect::Assign => {
            let value = plain_assignment(text, name)?;
            if bare == name {
                return literal_truth(value).map(|t| t != negated);
            }
            if negated || !is_literal_value(value) {
                return None;
            }
            for (op, equal) in [
                (" === ", true),
                (" !== ", false),
                (" == ", true),
                (" != ", false),
                (" is not ", false),
                (" is ", true),
            ] {
                if let Some((l, r)) = bare.split_once(op) {
                    if l.trim() == name && is_literal_value(r) {
                        return Some((r.trim() == value) == equal);
                    }
                }
            }
            None
        }
        Effect::Add | Effect::Remove | Effect::Clear => {
            let call = text.strip_prefix(name)?.strip_prefix('.')?;
            let (_, args) = call.split_once('(')?;
            let element = args.split([',', ')']).next().map(element_text);
            let now = w.effect == Effect::Add;
            if bare == name {
                // A collection tested for being non-empty: an addition makes it so, a
                // clearing empties it; a removal of one element need not.
                return (w.effect != Effect::Remove).then_some(now != negated);
            }
            let (tested, inverted) = membership(bare, name)?;
            match w.effect {
                Effect::Clear => Some(negated != inverted),
                _ if element.is_some_and(|e| !e.is_empty() && e == tested) => {
                    Some(now != (negated != inverted))
                }
                _ => None,
            }
        }
    }
}

/// The value of `text` when it is a plain assignment to `name` (`name = value`, not `+=`,
/// `&^=`, `==`).
fn plain_assignment<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(name)?.trim_start();
    let rest = rest.strip_prefix(":=").or_else(|| rest.strip_prefix('='))?;
    if rest.starts_with('=') {
        return None;
    }
    Some(rest.trim())
}

/// The public setter whose write of the state `s` makes the conjunct `c`, a test for it
/// being missing, stop holding once it is given a value that is set, and the name of its
/// parameter: `setnchannels()` and `nchannels` for `not self._nchannels`.
fn setter_of<'a>(site: &Site<'a>, c: &str, s: &'a State) -> Option<(&'a Write, &'a str)> {
    s.writes.iter().find_map(|w| {
        let f = w.function.as_deref()?;
        let user_calls = !is_constructor(f)
            && !is_private_name(site.lang, f)
            && !f.starts_with("__")
            && !w.hidden
            && w.from_parameter
            && Some(f) != site.facts.function.as_ref().map(|g| g.name.as_str());
        // In a class of its own family: another class's field of that name is another field.
        let blocks = site.facts.function.as_ref().map(|g| &g.owner_blocks);
        let in_class = blocks.is_none_or(|b| {
            b.is_empty() || b.iter().any(|&(from, to)| (from..=to).contains(&w.line))
        });
        let value = fills(c, &s.name, w)?;
        (user_calls && in_class).then_some((w, value))
    })
}

/// The first guard of the site that a public setter undoes: the setter's name and its
/// parameter's (see [`setter_of`]).
pub(crate) fn setter_first<'a>(site: &Site<'a>) -> Option<(&'a str, &'a str)> {
    site.facts
        .guards()
        .flat_map(|g| g.conjuncts.iter())
        .find_map(|c| {
            let Subject::State(state) = subject(site, c) else {
                return None;
            };
            let (w, value) = setter_of(site, c, state)?;
            Some((w.function.as_deref()?, value))
        })
}

/// The name a write assigns to `name` when the conjunct `c` tests `name` for being missing
/// (`not self._x`, `!this.x`, `x is None`, `x == null`, `x == nil`): a plain assignment of
/// another name (`self._x = nchannels`), whose value the caller of the writing function gives.
fn fills<'a>(c: &str, name: &str, w: &'a Write) -> Option<&'a str> {
    let c = c.trim();
    let missing = is_falsy_test(c, name)
        || [
            " is None",
            " == null",
            " === null",
            " === undefined",
            " == nil",
        ]
        .iter()
        .any(|t| c.strip_suffix(t).map(str::trim) == Some(name));
    if !missing || w.effect != Effect::Assign {
        return None;
    }
    let value = plain_assignment(w.text.trim().trim_end_matches(';').trim(), name)?;
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$')
        && !value.starts_with(|ch: char| ch.is_ascii_digit());
    (plain && !is_literal_value(value)).then_some(value)
}

/// The truth of a literal value: `true`, `True`, a number other than 0 are true; `false`,
/// `None`, `nil`, `null`, `undefined`, `0`, an empty string or collection are false.
fn literal_truth(value: &str) -> Option<bool> {
    match value {
        "true" | "True" => Some(true),
        "false" | "False" | "None" | "nil" | "null" | "undefined" | "0" | "\"\"" | "''" | "[]"
        | "{}" => Some(false),
        v => v.parse::<f64>().ok().map(|n| n != 0.0),
    }
}

/// The element a membership test of the collection `name` asks for, and whether the test is
/// the inverted form (`x not in name`): `x in name`, `name.has(x)`, `name.contains(&x)`,
/// `name.containsKey(x)`, `name.contains_key(&x)`.
fn membership<'a>(bare: &'a str, name: &str) -> Option<(&'a str, bool)> {
    if let Some(e) = bare.strip_suffix(name) {
        let e = e.trim_end();
        if let Some(e) = e.strip_suffix(" not in") {
            return Some((element_text(e), true));
        }
        if let Some(e) = e.strip_suffix(" in") {
            return Some((element_text(e), false));
        }
        return None;
    }
    let call = bare.strip_prefix(name)?.strip_prefix('.')?;
    let (method, args) = call.split_once('(')?;
    if !matches!(
        method,
        "has" | "contains" | "containsKey" | "contains_key" | "__contains__"
    ) {
        return None;
    }
    let args = args.strip_suffix(')')?;
    (!args.contains(',')).then(|| (element_text(args), false))
}

/// An element as written, without a borrow or spaces: `&scope` is `scope`.
fn element_text(e: &str) -> &str {
    e.trim().trim_start_matches('&').trim()
}

/// Whether the conjunct tests that `name` is falsy: `!name`, `not name`.
fn is_falsy_test(c: &str, name: &str) -> bool {
    let c = c.trim();
    c.strip_prefix('!')
        .or_else(|| c.strip_prefix("not "))
        .map(str::trim)
        == Some(name)
}

/// What a negated test negates, when the whole conjunct is one negation: `!(a <= b)` is
/// `a <= b`, `!x.is_empty()` is `x.is_empty()`, Python's `not a in b` is `a in b`. `!a == b`
/// negates only `a`, and is none.
fn positive_form(c: &str) -> Option<String> {
    let c = c.trim();
    if let Some(rest) = c.strip_prefix("not ") {
        let rest = rest.trim();
        let top = top_level(rest);
        return (!top.contains(" and ") && !top.contains(" or ") && !rest.is_empty())
            .then(|| rest.to_owned());
    }
    let rest = c.strip_prefix('!')?.trim();
    if rest.starts_with('(') && closing_paren(rest) == Some(rest.len() - 1) {
        return Some(rest[1..rest.len() - 1].trim().to_owned()).filter(|r| !r.is_empty());
    }
    let simple =
        !rest.is_empty() && !top_level(rest).contains(|ch: char| " <>=&|+-*/%?:^".contains(ch));
    simple.then(|| rest.to_owned())
}

/// A condition under which the conjunct `c` does not hold, where the language makes its
/// negation plain: a negated test's operand (`positive_form`), the other side of one
/// comparison (`x == null` is avoided by `x != null`, `n < 0` by `n >= 0`), each side of an
/// `||` avoided (`i < 0 || i > n` by `i >= 0 && i <= n`). An order test of Python or
/// JavaScript counts only against a number written out: `a <= b` is no order of sets.
pub(crate) fn avoiding(c: &str, lang: Lang) -> Option<String> {
    if let Some(p) = positive_form(c) {
        return Some(p);
    }
    let c = c.trim();
    if !c.is_ascii() {
        return None;
    }
    let c = match c.starts_with('(') && closing_paren(c) == Some(c.len() - 1) {
        true => c[1..c.len() - 1].trim(),
        false => c,
    };
    let py = lang == Lang::Python;
    let (or, and) = if py {
        (" or ", " and ")
    } else {
        ("||", " && ")
    };
    let top = top_level(c);
    if top.contains(if py { " and " } else { "&&" }) {
        return None;
    }
    let mut parts = Vec::new();
    let mut from = 0;
    for (at, _) in top.match_indices(or) {
        parts.push(&c[from..at]);
        from = at + or.len();
    }
    parts.push(&c[from..]);
    let avoided: Option<Vec<String>> = parts
        .iter()
        .map(|p| {
            let p = p.trim();
            positive_form(p).or_else(|| other_comparison(p, lang))
        })
        .collect();
    let avoided = avoided?;
    Some(match avoided.len() {
        1 => avoided.into_iter().next().unwrap_or_default(),
        _ => avoided
            .iter()
            .map(|a| match top_level(a).contains(or) {
                true => format!("({a})"),
                false => a.clone(),
            })
            .collect::<Vec<_>>()
            .join(and),
    })
}

/// The comparison that holds where the one comparison `c` does not: `a == b` for `a != b`,
/// `a >= b` for `a < b`, `x is not None` for `x is None`.
pub fn other_comparison(c: &str, lang: Lang) -> Option<String> {
    let top = top_level(c);
    if top.contains("&&")
        || top.contains("||")
        || top.contains(" and ")
        || top.contains(" or ")
        || top.contains(" if ")
        || top.contains(['?', ','])
        || top.contains("<<")
        || top.contains(">>")
        || top.contains("=>")
        || top.contains("->")
    {
        return None;
    }
    const OPS: [(&str, &str); 12] = [
        (" === ", " !== "),
        (" !== ", " === "),
        (" == ", " != "),
        (" != ", " == "),
        (" <= ", " > "),
        (" >= ", " < "),
        (" < ", " >= "),
        (" > ", " <= "),
        (" is not ", " is "),
        (" not in ", " in "),
        (" is ", " is not "),
        (" in ", " not in "),
    ];
    let python_only = |op: &str| matches!(op, " is not " | " not in " | " is " | " in ");
    let (op, other, at) = OPS.iter().find_map(|&(op, other)| {
        let at = top.find(op)?;
        Some((op, other, at))
    })?;
    if python_only(op) && lang != Lang::Python {
        return None;
    }
    // One comparison: no second operator at the top level (`a < b < c`, `a == b == c`),
    // and no bitwise operator, which binds looser than a comparison in C-like languages.
    let rest = format!("{} {}", &top[..at], &top[at + op.len()..]);
    if rest.contains(['<', '>', '=', '&', '|', '^'])
        || rest.contains("!=")
        || lang == Lang::Python && (rest.contains(" is ") || rest.contains(" in "))
    {
        return None;
    }
    let (left, right) = (c[..at].trim(), c[at + op.len()..].trim());
    if left.is_empty() || right.is_empty() {
        return None;
    }
    // A test that a value is one thing (`kind == "a"`, `typeof v === 'string'`) picks the
    // branch that handles that thing: other values go to other branches, which may fail in
    // their own way. Only a test for a missing value is turned round.
    let missing = |s: &str| MISSING.contains(&s);
    if matches!(op, " === " | " == " | " is " | " in ") && !missing(left) && !missing(right) {
        return None;
    }
    // Java's `!=` of a string is no test of its text.
    if lang == Lang::Java && (left.ends_with('"') || right.ends_with('"')) {
        return None;
    }
    let ordered = matches!(op, " <= " | " >= " | " < " | " > ");
    let number = |s: &str| {
        let s = s.trim_start_matches('-');
        s.starts_with(|ch: char| ch.is_ascii_digit())
            && s.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '.' || ch == '_')
    };
    let measured = |s: &str| s.starts_with("len(") || s.ends_with(".length");
    if ordered
        && matches!(lang, Lang::Python | Lang::JavaScript | Lang::TypeScript)
        && !(number(left) || number(right) || measured(left) || measured(right))
    {
        return None;
    }
    Some(format!("{left}{other}{right}"))
}

/// "Pass a `p` for which `x >= 0` holds when calling `f()`.", said plainly for a test of a
/// missing value ("Pass a `p` that is not null …"), and of all the arguments where the
/// condition reads several. None where it reads anything but the parameters (`params`): a
/// local or a field is no caller's to set, nor is a condition that runs code (`unsafe {…}`).
fn pass_avoiding(
    lang: Lang,
    params: &[&str],
    name: &str,
    conjunct: &str,
    avoided: &str,
    fname: &str,
) -> Option<String> {
    if avoided.contains(['{', ';']) || avoided.len() > 80 {
        return None;
    }
    let mut read: Vec<&str> = Vec::new();
    // What a negation negates reads as the code does; a comparison turned round must read
    // only what the caller gives.
    let turned = positive_form(conjunct).is_none();
    for n in errata_lang::names(avoided) {
        let rest = avoided[n.end..].trim_start();
        let constant = n.text.starts_with(|c: char| c.is_ascii_uppercase());
        if n.member
            || rest.starts_with('(')
            || rest.starts_with("::")
            || constant
            || n.text.starts_with(|c: char| c.is_ascii_digit())
            || crate::code::is_keyword(lang, n.text)
            || matches!(n.text, "typeof" | "instanceof" | "len")
        {
            continue;
        }
        // The receiver's own state is the caller's to see (`at <= self.len()`).
        if matches!(n.text, "self" | "this") && rest.starts_with('.') {
            continue;
        }
        if avoided[..n.start].trim_end().ends_with(" as") || n.text == "as" {
            continue;
        }
        if !turned {
            continue;
        }
        if !params.contains(&n.text) || matches!(n.text, "self" | "this" | "cls") {
            return None;
        }
        if !read.contains(&n.text) {
            read.push(n.text);
        }
    }
    if read.iter().any(|r| *r != name) {
        return Some(format!(
            "Call {fname} with arguments for which `{avoided}` holds."
        ));
    }
    // `name == null` or `name != null` (and the like): said in words.
    let tested = |ops: &[&str]| {
        let rest = avoided.strip_prefix(name)?;
        ops.iter()
            .find_map(|op| rest.strip_prefix(op))
            .filter(|v| MISSING.contains(v))
    };
    Some(if let Some(none) = tested(&[" == ", " === ", " is "]) {
        format!("Pass `{none}` for `{name}` (leave it out) when calling {fname}.")
    } else if let Some(none) = tested(&[" != ", " !== ", " is not "]) {
        format!(
            "Pass {} `{name}` that is not `{none}` when calling {fname}.",
            article(name)
        )
    } else {
        format!(
            "Pass {} `{name}` for which `{avoided}` holds when calling {fname}.",
            article(name)
        )
    })
}

/// The values of a missing value, by language: a test against one is a test that the
/// value is there.
const MISSING: [&str; 4] = ["null", "None", "nil", "undefined"];

/// The text with what is inside brackets and quotes blanked: what is left is its top level.
fn top_level(text: &str) -> String {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    text.chars()
        .map(|ch| {
            match (quote, ch) {
                (Some(q), _) if ch == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'' | '`') => quote = Some(ch),
                (None, '(' | '[' | '{') => depth += 1,
                (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth == 0 && quote.is_none() && !matches!(ch, ')' | ']' | '}' | '"' | '\'' | '`') {
                ch
            } else {
                '_'
            }
        })
        .collect()
}

/// The byte offset of the `)` that closes the `(` the text starts with.
fn closing_paren(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, ch) in text.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The handlers of the error that do something with it: not the method that words it
/// (`fmt`, `Error()`, `__str__`, `toString()`), whose `match` arm names the error only to
/// print it.
fn handlers(facts: &Facts) -> impl Iterator<Item = &crate::Reference> {
    facts.handlers.iter().filter(|h| {
        !matches!(
            h.function.as_deref(),
            Some(
                "fmt"
                    | "description"
                    | "to_string"
                    | "source"
                    | "Error"
                    | "String"
                    | "__str__"
                    | "__repr__"
                    | "toString"
                    | "getMessage"
            )
        )
    })
}

/// The first handlers of the error in the repository, as solutions.
fn handled_as(facts: &Facts) -> impl Iterator<Item = String> + '_ {
    handlers(facts).take(2).map(|h| {
        format!(
            "Handle it as {}:{} already does (`{}`).",
            h.file, h.line, h.text
        )
    })
}

/// The call a JavaScript or Python error is handed to instead of being thrown (`cb`,
/// `reject`, `fut.set_exception`).
pub(crate) fn handed_on<'a>(site: &Site<'a>) -> Option<&'a str> {
    (site.error_type == ErrorType::Exception
        && matches!(
            site.lang,
            Lang::JavaScript | Lang::TypeScript | Lang::Python
        ))
    .then_some(site.facts.handed_to.as_deref())
    .flatten()
}

/// A method whose body is nothing but its raise, and what it stands for.
pub(crate) struct Stub {
    pub(crate) method: String,
    pub(crate) owner: String,
    pub(crate) kind: StubKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum StubKind {
    /// Left for subclasses to define (`raise NotImplementedError`).
    Hook,
    /// A Python `@abstractmethod` that only raises: reached only through `super()`.
    Abstract,
    /// A call its class does not support (`throw new UnsupportedOperationException()`).
    Refused,
}

/// The site as a method that does nothing but raise (see [`Stub`]), when it is one.
pub(crate) fn stub(site: &Site<'_>) -> Option<Stub> {
    let f = site.facts.function.as_ref()?;
    if !site.facts.sole || f.callback || f.name.is_empty() || site.lang == Lang::Go {
        return None;
    }
    let owner = f.owner.clone()?;
    let method = f.name.clone();
    let class = site.class.unwrap_or_default();
    let m = site.message.to_lowercase();
    let named_hook = [
        "not implemented",
        "must be implemented",
        "abstract",
        "subclass",
    ]
    .iter()
    .any(|w| m.contains(w));
    let kind = if class.ends_with("NotImplementedError") || named_hook && site.lang != Lang::Rust {
        if f.abstract_method {
            StubKind::Abstract
        } else {
            StubKind::Hook
        }
    } else if class.ends_with("UnsupportedOperationException") {
        StubKind::Refused
    } else {
        return None;
    };
    Some(Stub {
        method,
        owner,
        kind,
    })
}

pub(crate) fn solutions(site: &Site<'_>, strategy: HandlingStrategy) -> Vec<String> {
    let facts = site.facts;
    let mut out: Vec<String> = Vec::new();
    match stub(site) {
        Some(Stub {
            method,
            kind: StubKind::Abstract,
            ..
        }) => {
            out.push(format!(
                "Remove the `super().{method}()` call from the subclass's `{method}()`: the base class's only raises. Write what the subclass needs there instead."
            ));
            return out;
        }
        Some(Stub {
            method,
            owner,
            kind: StubKind::Hook,
        }) => {
            out.push(format!(
                "Define `{method}()` in the subclass of `{owner}` whose object raised it (the trace shows the call), or use a subclass that defines it."
            ));
            return out;
        }
        Some(Stub {
            method,
            owner,
            kind: StubKind::Refused,
        }) => {
            // A method users cannot call is reached through the package's own code: what
            // they called asked for something this object does not support.
            out.push(match code::is_public(site) {
                true => format!(
                    "Do not call `{method}()` on a `{owner}`: it does not support it. Find the call in the trace, and use an object or a method that does what it needs."
                ),
                false => format!(
                    "`{method}()` of `{owner}` only raises it, and code outside its package does not call it: the public call that reached it (the trace shows it) asked for something this `{owner}` does not support."
                ),
            });
            return out;
        }
        None => {}
    }
    if let Some((class, _)) = own_text(site) {
        let values = if code::has_placeholder(site.message) {
            " The values in the message say which input or state made it."
        } else {
            ""
        };
        out.push(if facts.callers.is_empty() {
            format!("Find where the `{class}` is created: the text only words it.{values}")
        } else {
            format!(
                "Find which of the places that create a `{class}` ran: {}. The text only words the error.{values}",
                places(&facts.callers)
            )
        });
        let guards = case_guards(site);
        out.push(if guards.is_empty() {
            format!(
                "Recognise the error by its type rather than its text (see typeGuard): every `{class}` carries this wording."
            )
        } else {
            format!(
                "Recognise the error by its type rather than its text (see typeGuard): a `{class}` carries this wording when {}.",
                and_list(&guards)
            )
        });
        out.extend(handled_as(facts));
        return out;
    }
    let fname = function_ref(site);
    let public = code::is_public(site);
    if let Some(caught) = caught_itself(site) {
        out.push(format!(
            "{caught} Code around the call cannot catch it before that handler does."
        ));
    } else if let Some((caught, true)) = caught_by_callers(site) {
        // A function its users call themselves raises it to them whatever the repository's
        // own calls do.
        out.push(if public {
            format!("Every call of {fname} in the repository is inside a `try` that catches it ({}); a call of your own is not, unless you catch it too.", caught.trim_end_matches('.'))
        } else {
            format!("Every call of {fname} found is inside a `try` that catches it. {caught} What reaches a user is what those handlers do.")
        });
    }
    out.extend(crate::command::solutions(site));
    // Where a user catches it: around the call of the site's function when they can make
    // it, else around the way in.
    let catch_at = match (&facts.entry, public) {
        (Some(e), _) if e.command.is_some() => String::new(),
        // A generator's body runs as its result is iterated, not when it is called.
        (_, true) if facts.function.as_ref().is_some_and(|f| f.generator) => {
            format!("where the result of {fname} is iterated")
        }
        (_, true) => format!("where {fname} is called"),
        (Some(e), false) if e.command.is_none() && !e.chain.is_empty() => {
            format!("where `{}` is called", step_call(site.lang, &e.chain[0]))
        }
        _ => format!("around the code that reaches {fname}"),
    };
    // The other side of the `if`, when what decides it is the caller's to choose (an
    // argument, the configuration, the environment): a way around the raise.
    if let Some(b) = facts.other_branch.as_ref().filter(|b| {
        b.condition
            .split(['|', '&'])
            .flat_map(|p| p.split(" or ").flat_map(|q| q.split(" and ")))
            .map(|p| p.trim().trim_matches(['(', ')']).trim())
            .filter(|p| !p.is_empty())
            // A switch the caller sets (a flag, the configuration, the environment): taking
            // the other side of a test of a value (`mode in ("r", "r:*")`) is another call,
            // not a way to make this one.
            .all(|p| {
                let s = subject(site, p);
                s.up_to_the_user(public) && !matches!(s, Subject::Param(_))
            })
            // A side that fails too (`raise SystemExit(…)` on both sides) is no way around.
            && !b.statements.iter().any(|s| fails_itself(s))
    }) {
        let runs: Vec<String> = b.statements.iter().map(|s| ticked(s)).collect();
        if !runs.is_empty() {
            out.push(format!(
                "Take the other branch of the `if` at line {}: when `{}`, {fname} runs {} instead.",
                b.line,
                b.condition,
                and_list(&runs)
            ));
        }
    }
    // Found once, when a conjunct first needs it: what the way in passes on.
    let way_in = std::cell::OnceCell::new();
    let own: Vec<&str> = facts
        .function
        .iter()
        .flat_map(|f| f.parameters.iter().map(|q| q.name.as_str()))
        .collect();
    for c in facts.guards().flat_map(|c| c.conjuncts.iter()).take(4) {
        let s = match subject(site, c) {
            // An argument of a function only its own package calls is no user's to change,
            // unless the way in passes its own parameter on unchanged: then it is that one.
            Subject::BoolParam(..) if !public => continue,
            Subject::Param(_) if !public => {
                match way_in.get_or_init(|| crate::code::way_in(site)).as_ref().and_then(|w| {
                    let (theirs, name) = w.said_of(c)?;
                    let callee = &w.call;
                    if is_falsy_test(&theirs, name) {
                        return Some(format!(
                            "Give {callee} a `{name}` that is set and not empty: `{theirs}` holds for a missing, empty or zero value."
                        ));
                    }
                    let avoided = avoiding(&theirs, site.lang)?;
                    let params: Vec<&str> = w.params.iter().map(String::as_str).collect();
                    pass_avoiding(site.lang, &params, name, &theirs, &avoided, callee)
                }) {
                    Some(s) => s,
                    None => continue,
                }
            }
            Subject::BoolParam(p, v) => format!(
                "Call {fname} with `{}` set to {}, so that `{c}` no longer holds.",
                p.name,
                code::bool_literal(site.lang, !v)
            ),
            Subject::Config(field, v) => format!(
                "{} `{field}` in the configuration, so that `{c}` no longer holds.",
                if v { "Turn off" } else { "Set" }
            ),
            Subject::Env(text, key) => match key {
                Some(k) => format!("Change the environment variable `{k}` (read by `{text}`) so that `{c}` no longer holds."),
                None => format!("Change what `{text}` reads so that `{c}` no longer holds."),
            },
            Subject::State(s) => {
                // A write is a way out only in a function a user calls on the object: not
                // one that makes a new object, nor a private one.
                let clears: Vec<&Write> = s
                    .writes
                    .iter()
                    .filter(|w| clears(c, &s.name, w))
                    .filter(|w| {
                        w.function
                            .as_deref()
                            .is_some_and(|f| !is_constructor(f) && !is_private_name(site.lang, f))
                    })
                    .collect();
                if !clears.is_empty() {
                    format!("`{c}` stops holding after {}.", writes_list(clears))
                } else if let Some((w, value)) = setter_of(site, c, s).filter(|_| public) {
                    // A setter of what the test finds missing (`setnchannels()` for
                    // `not self._nchannels`): the way out, given a value that is set.
                    format!(
                        "Call `{}()` first: it assigns `{}` from `{value}` (`{}`, line {}), and once it has run with a value that is set, `{c}` no longer holds.",
                        w.function.as_deref().unwrap_or_default(),
                        s.name,
                        w.text.trim().trim_end_matches(';'),
                        w.line
                    )
                } else {
                    continue;
                }
            }
            Subject::Param(p) if is_falsy_test(c, &p.name) => format!(
                "Give {fname} a `{}` that is set and not empty: `{c}` holds for a missing, empty or zero value.",
                p.name
            ),
            // Only a negated test has a plain way to say what avoids it: its operand. Any
            // other negation is a guess (`not a <= b` is no `a > b` for sets).
            Subject::Param(p) => {
                match avoiding(c, site.lang)
                    .and_then(|pos| pass_avoiding(site.lang, &own, &p.name, c, &pos, &fname))
                {
                    Some(s) => s,
                    None => continue,
                }
            }
            // A local or an expression of the function's own: no caller can make it false,
            // and saying so would be no action.
            Subject::Other => continue,
        };
        if !out.contains(&s) {
            out.push(s);
        }
    }
    // Only the returners a user calls are where they test it (`convertAssignRows()` is
    // reached through `Rows.Scan()`).
    let called = |site: &Site<'_>| -> Vec<String> {
        returners(site)
            .into_iter()
            .filter(|f| {
                f.trim_start_matches('`')
                    .starts_with(|c: char| c.is_uppercase())
            })
            .collect()
    };
    if let Some(name) = sentinel(site).filter(|n| !nameable(site, n)) {
        let from = called(site);
        let of = if from.is_empty() {
            String::new()
        } else {
            format!(" of {}", and_list(&from))
        };
        out.push(format!(
            "Test the error{of} by its text, as typeGuard does (`{name}` is {}: code outside its package cannot name it), and handle this case there.",
            if exported(name) { "in an internal package" } else { "unexported" }
        ));
    }
    if let Some(name) = sentinel(site).filter(|n| nameable(site, n)) {
        let from = called(site);
        out.push(if from.is_empty() {
            format!("Test the error with `errors.Is(err, {name})` and handle this case where it is returned.")
        } else {
            format!(
                "Test the error of {} with `errors.Is(err, {name})` and handle this case there: the value is the same wherever it comes from.",
                and_list(&from)
            )
        });
    }
    if let Some((clause, line)) = handler_of(site) {
        out.push(format!(
            "Keep the code of the `try` before `{clause}` (line {line}) from failing: {fname} {} this only after that clause caught an error.",
            verb(site).present
        ));
    }
    out.extend(handled_as(facts));
    if let Some(class) = code::python_warning(site) {
        let class = code::builtin_warning(class);
        let shown = match class {
            "DeprecationWarning" => " (by default Python shows it only when the warning is attributed to code run as `__main__`)",
            "PendingDeprecationWarning" | "ImportWarning" | "ResourceWarning" => {
                " (by default Python does not show it)"
            }
            "Warning" => "",
            _ => " (by default Python prints it to stderr the first time each place raises it)",
        };
        out.push(format!(
            "It is a warning, not an exception: the call goes on, and the warning filters decide whether it is shown{shown}. Run with `-W error::{class}` to make it an exception whose traceback shows the call that raised it, or record it with `warnings.catch_warnings` (see tryCatchPattern)."
        ));
        return out;
    }
    if site.error_type == ErrorType::Log {
        out.push("It is logged: find it in the logs (see typeGuard).".to_owned());
        return out;
    }
    // The way a caller handles it, said only where the code shows it: a transient failure
    // its text names, a configuration the guard reads, a documented panic. A strategy guessed
    // from words is the record's tag, not a sentence.
    let tail = match strategy {
        HandlingStrategy::Retry if crate::classify::is_transient(site) => Some(format!(
            "Retry the call to {fname} after a delay: the message names a failure that passes."
        )),
        HandlingStrategy::FixConfiguration if !facts.config.is_empty() => Some(
            "Fix the configuration or environment the conditions read, then run again.".to_owned(),
        ),
        // A command's own words for it follow (what it prints is no value to catch).
        HandlingStrategy::FailFast if facts.command().is_none() => Some(
            "Let the program stop, and fix the cause the message names before running again."
                .to_owned(),
        ),
        // A panic the package recovers itself does not stop the program.
        _ if facts.recovered.is_some() => facts.recovered.as_ref().map(|r| {
            let outcome = match r.to_error {
                true => "sets the error it returns: its callers get an error value, not a crash",
                false => "its callers get what it makes of it",
            };
            if r.through.len() > 1 {
                let outcome = match r.to_error {
                    true => "set the error they return: their callers get an error value, not a crash",
                    false => "their callers get what they make of it",
                };
                let mut names: Vec<String> =
                    r.through.iter().take(6).map(|f| format!("`{f}()`")).collect();
                if r.through.len() > 6 {
                    names.push(format!("{} more", r.through.len() - 6));
                }
                return format!(
                    "It does not stop the program when reached through {} (of {}): these recover the panic (the recovering code names `{}`) and {outcome}.",
                    or_list(&names), site.file_path, r.value
                );
            }
            match r.through.first().filter(|f| **f != r.function) {
                Some(f) => format!(
                    "It does not stop the program when reached through `{f}()` (of {}): that function recovers the panic (the recovering code names `{}`) and {outcome}.",
                    site.file_path, r.value
                ),
                None => format!(
                    "It does not stop the program when reached through `{}()` ({}:{}): that function recovers the panic (its recovering code names `{}`) and {outcome}.",
                    r.function, site.file_path, r.line, r.value
                ),
            }
        }),
        // Only a Rust or Go panic stops the program; an assertion of the other languages is
        // an exception like any other.
        _ if matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion)
            && matches!(site.lang, Lang::Rust | Lang::Go) =>
        {
            match docs::of_site(site).filter(|_| site.lang == Lang::Rust) {
                Some(text) => Some(format!(
                    "The doc comment of {fname} says when it stops the program: \"{}\"",
                    quote(&text)
                )),
                None if strategy == HandlingStrategy::FixInput && public => {
                    let debug_only = facts.context.iter().any(|c| {
                        matches!(c, Context::Cfg { condition, .. } if condition == "debug_assertions")
                    });
                    Some(match debug_only {
                        true => format!(
                            "Give {fname} only arguments it accepts: on others a build with debug assertions stops the program; a release build does not check."
                        ),
                        false => format!(
                            "Give {fname} only arguments it accepts: on others it stops the program instead of returning an error."
                        ),
                    })
                }
                None => None,
            }
        }
        _ => None,
    };
    out.extend(tail);
    // What a command prints is no value a program catches.
    if let Some(command) = facts.command().filter(|_| out.is_empty()) {
        out.push(match site.error_type {
            ErrorType::Panic | ErrorType::Assertion | ErrorType::Exit => format!(
                "It stops `{command}` with this message: no program of yours gets it as a value to catch (to recognise it in what the command prints, see typeGuard)."
            ),
            _ => format!(
                "`{command}` reports it: no program of yours gets it as a value to catch (to recognise it in what the command prints, see typeGuard)."
            ),
        });
    }
    // What the doc comment says throws it, where that is a case (`if this list is empty`):
    // the caller's to rule out before the call.
    if out.is_empty() && public {
        if let Some(clause) = documented_case(site) {
            let class = site.class.map(last_name).unwrap_or("it");
            out.push(format!(
                "Its doc comment says {fname} {} `{class}` {clause}: make sure that is not so before the call, or catch it {catch_at} (see tryCatchPattern).",
                if site.lang == Lang::Python { "raises" } else { "throws" }
            ));
        }
    }
    if out.is_empty() {
        out.push(match site.error_type {
            ErrorType::Panic | ErrorType::Assertion if matches!(site.lang, Lang::Rust | Lang::Go) => format!(
                "It stops the program, as a panic, not an error to handle: find what reached {fname} (see triggerScenarios)."
            ),
            _ if site.facts.function.is_none() => format!(
                "Catch it around the code that imports or runs {} (see tryCatchPattern).",
                site.file_path
            ),
            _ if handed_on(site).is_some() || facts.stored_in.is_some() => String::new(),
            _ => format!("Catch it {catch_at} (see tryCatchPattern)."),
        });
        out.retain(|s| !s.is_empty());
    }
    if let Some(field) = &facts.stored_in {
        out.push(format!(
            "It is not returned: {fname} stores it in `{field}`. Test that field after the call (see tryCatchPattern), not the error the call returns."
        ));
    }
    // How a JavaScript error that is handed on reaches its user is said whatever else is.
    if let Some(call) = handed_on(site) {
        out.push(if site.lang == Lang::Python && call.ends_with("set_exception") {
            format!("It is not raised here: {fname} sets it on a future with `{call}()`; it is raised where that future's `result()` is called or the future is awaited (see tryCatchPattern).")
        } else if site.lang == Lang::Python {
            format!("It is not raised here: {fname} hands it to `{call}()`, and it surfaces where that call reports it, not in a try block around {fname}.")
        } else if call.ends_with("reject") {
            "It rejects the promise: await the call inside a try block, or chain a .catch() handler (see tryCatchPattern).".to_owned()
        } else if emitter(call).is_some() {
            format!("It is not thrown: {fname} emits it as an `'error'` event (`{call}('error', …)`); listen for it with `.on('error', …)` on that object (see tryCatchPattern). A try block around the call does not see it.")
        } else {
            format!("It is not thrown: {fname} hands it to `{call}()`; it reaches the code `{call}()` reports to (a callback's error argument, an `'error'` event), not a try block around the call.")
        });
    }
    out
}

/// The doc comment's entry for the site's error when it is a case a caller can see (`if this
/// list is empty`, `when the key is null`), as a clause without its final stop.
fn documented_case(site: &Site<'_>) -> Option<String> {
    if !matches!(
        site.lang,
        Lang::Java | Lang::Python | Lang::JavaScript | Lang::TypeScript
    ) || site.class.is_none()
    {
        return None;
    }
    let text = docs::of_site(site)?;
    let mut words = text.splitn(2, ' ');
    let head = words.next()?.to_lowercase();
    let rest = words.next()?.trim_end_matches(['.', ';', ' ']);
    // One case: a second sentence, or another entry of the class, may be about another raise.
    if !matches!(head.as_str(), "if" | "when")
        || rest.contains(". ")
        || rest.contains("; ")
        || rest.is_empty()
    {
        return None;
    }
    // And this raise's: it names what the guard reads or what the message says.
    let guards: Vec<&str> = site.facts.guards().map(|c| c.expr.as_str()).collect();
    if !docs::shares_a_name(rest, &format!("{} {}", guards.join(" "), site.message)) {
        return None;
    }
    Some(format!("{head} {rest}"))
}

pub(crate) fn prevention_tips(site: &Site<'_>) -> Vec<String> {
    let facts = site.facts;
    let mut out = Vec::new();
    let fname = function_ref(site);
    let public = code::is_public(site);
    // Only a condition on what a caller can see before the call (an argument, the
    // configuration, the environment, state the file sets) can be checked beforehand: `!ok`
    // of a type assertion inside the function cannot.
    let checkable: Vec<String> = facts
        .guards()
        .filter(|c| {
            c.conjuncts.iter().any(|j| {
                let s = subject(site, j);
                s.up_to_the_user(public)
                    || public && matches!(s, Subject::State(st) if visible(site.lang, &st.name))
            })
        })
        .map(|c| ticked(&c.expr))
        .collect();
    if !checkable.is_empty() {
        out.push(format!(
            "Check {} before calling {fname}.",
            and_list(&checkable)
        ));
    }
    // State a caller can read: a private field is no one's to keep track of outside.
    for s in facts.state.iter().filter(|s| {
        s.binding == Binding::State && !s.writes.is_empty() && visible(site.lang, &s.name)
    }) {
        let mut writes: Vec<String> = Vec::new();
        for w in &s.writes {
            let w = ticked(w.text.trim_end_matches(';'));
            if !writes.contains(&w) {
                writes.push(w);
            }
        }
        out.push(format!(
            "Keep track of `{}`: it is changed by {}.",
            s.name,
            and_list(&writes)
        ));
    }
    for c in &facts.config {
        out.push(match (c.source, &c.key) {
            (ConfigSource::Environment, Some(k)) => format!(
                "Set the environment variable `{k}` in every deployment, and check it at start-up."
            ),
            _ => format!(
                "Review `{}` in the configuration of each deployment.",
                c.text
            ),
        });
    }
    if let Some(h) = handlers(facts).next() {
        out.push(format!("Follow the handling at {}:{}.", h.file, h.line));
    }
    // A message whose longest literal part is a bracket or a colon (`[${code}] ${type}:
    // ${msg}`) gives logs nothing to search for: then its class does, or, when it is the
    // only tip, the message as a whole.
    let fragment = code::fragment_line(site.message);
    let telling =
        !site.messageless() && fragment.chars().filter(|c| c.is_alphanumeric()).count() >= 4;
    let alert = match (telling, site.class) {
        (true, class) => Some(format!(
            "the message \"{}\"{}",
            fragment.replace('`', "\\`"),
            class
                .map(|c| format!(" or the class `{c}`"))
                .unwrap_or_default()
        )),
        (false, Some(c)) => Some(format!("the class `{c}`")),
        (false, None) if out.is_empty() => Some(format!(
            "the message \"{}\"",
            site.message.replace('`', "\\`")
        )),
        (false, None) => None,
    };
    if let Some(alert) = alert {
        out.push(format!(
            "Alert on {alert} in logs to see how often it happens."
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{avoiding, mentions, names_variant, positive_form};
    use errata_lang::Lang;

    #[test]
    fn a_comparison_is_avoided_by_its_other_side() {
        let java = |c: &str| avoiding(c, Lang::Java);
        let py = |c: &str| avoiding(c, Lang::Python);
        let js = |c: &str| avoiding(c, Lang::JavaScript);
        assert_eq!(java("x == null").as_deref(), Some("x != null"));
        assert_eq!(java("n < 0").as_deref(), Some("n >= 0"));
        let rust = |c: &str| avoiding(c, Lang::Rust);
        assert_eq!(rust("name != '-'").as_deref(), Some("name == '-'"));
        assert_eq!(
            rust("a.len() < max(b, c)").as_deref(),
            Some("a.len() >= max(b, c)")
        );
        assert_eq!(
            java("i < 0 || i >= size").as_deref(),
            Some("i >= 0 && i < size")
        );
        assert_eq!(
            java("(off + len) > b.length").as_deref(),
            Some("(off + len) <= b.length")
        );
        assert_eq!(py("x is None").as_deref(), Some("x is not None"));
        assert_eq!(
            py("mode not in ('r', 'w')").as_deref(),
            Some("mode in ('r', 'w')")
        );
        assert_eq!(py("count <= 0").as_deref(), Some("count > 0"));
        assert_eq!(
            js("typeof cb !== 'function'").as_deref(),
            Some("typeof cb === 'function'")
        );
        // No order of sets, no chain, no `&&` inside, no bitwise operator.
        assert_eq!(py("set(mode) <= {'r', 'w'}"), None);
        assert_eq!(py("a < b"), None);
        assert_eq!(java("0 < i < n"), None);
        assert_eq!(java("a == 1 && b == 2"), None);
        assert_eq!(java("flags & MASK == 0"), None);
        // A test that a value is one thing picks a branch; its other side is no way out.
        assert_eq!(java("kind == 3"), None);
        assert_eq!(js("typeof v === 'string'"), None);
        assert_eq!(java("kind != 3").as_deref(), Some("kind == 3"));
        assert_eq!(java("x"), None);
    }

    #[test]
    fn a_match_arm_of_the_record_s_own_variant_chooses_nothing() {
        let class = "ParseError::InvalidDigit";
        assert!(names_variant(
            "matches!(self, Self::InvalidDigit(c))",
            class
        ));
        assert!(names_variant(
            "matches!(&self, ParseError::InvalidDigit)",
            class
        ));
        assert!(names_variant(
            "matches!(*self, ParseError::InvalidDigit { pos, .. })",
            class
        ));
        // A field's value chooses among the variant's errors (regex-automata's
        // `UnsupportedAnchored { mode: Anchored::Yes }`); another variant, or a kind of a
        // struct, chooses among the type's.
        assert!(!names_variant(
            "matches!(*self, StartError::UnsupportedAnchored { mode: Anchored::Yes })",
            "StartError::UnsupportedAnchored"
        ));
        assert!(!names_variant("matches!(self, Self::Other(s))", class));
        assert!(!names_variant(
            "matches!(&self.kind, ErrorKind::UnexpectedChar(pos, ch))",
            "Error"
        ));
        assert!(!names_variant("x > 0", class));
    }

    #[test]
    fn only_a_whole_negation_has_a_positive_form() {
        let pos = |c: &str| positive_form(c);
        assert_eq!(pos("!(x <= len)").as_deref(), Some("x <= len"));
        assert_eq!(pos("!x.is_empty()").as_deref(), Some("x.is_empty()"));
        assert_eq!(pos("not a in b").as_deref(), Some("a in b"));
        assert_eq!(
            pos("not set(mode) <= {'r', 'w'}").as_deref(),
            Some("set(mode) <= {'r', 'w'}")
        );
        // `!a == b` negates `a` alone; `!(a) && (b)` is no single negation.
        assert_eq!(pos("!a == b"), None);
        assert_eq!(pos("!(a) && (b)"), None);
        assert_eq!(pos("not a or b"), None);
        assert_eq!(pos("x < 0"), None);
        // A `)` in a string is no end of the parentheses.
        assert_eq!(pos("!(s == \")\")").as_deref(), Some("(s == \")\")"));
    }

    #[test]
    fn whole_names_only() {
        assert!(mentions(
            "unconfirmedCleanup.has(scope)",
            "unconfirmedCleanup"
        ));
        assert!(!mentions("this.unconfirmedCleanupX", "unconfirmedCleanup"));
        assert!(!mentions("a.destroy", "destroy"));
        assert!(mentions("!destroy", "destroy"));
        // A string's text names nothing.
        assert!(!mentions("action != \"module\"", "module"));
        assert!(!mentions("kind == 'a \\' module'", "module"));
        assert!(mentions("x == \"a\" and module", "module"));
    }
}
