//! The fields written as code in the record's language: exampleFix, validationCode, typeGuard
//! and tryCatchPattern. Calls are built from the function's own signature; conditions are the
//! facts' own expressions.

use errata_lang::Lang;
use errata_model::{BackgroundTag, ErrorType, HandlingStrategy};

use crate::prose::{subject, Subject};
use crate::Site;

/// The enclosing function, when it has a name to call it by.
fn named_function<'a>(site: &Site<'a>) -> Option<&'a crate::Function> {
    site.facts.function.as_ref().filter(|f| !f.name.is_empty())
}

fn comment(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "#",
        _ => "//",
    }
}

pub(crate) fn bool_literal(lang: Lang, v: bool) -> &'static str {
    match (lang, v) {
        (Lang::Python, true) => "True",
        (Lang::Python, false) => "False",
        (_, true) => "true",
        (_, false) => "false",
    }
}

fn semi(lang: Lang) -> &'static str {
    match lang {
        Lang::Python | Lang::Go => "",
        _ => ";",
    }
}

/// The longest literal run of the message, to recognise it by: placeholders vary at run time,
/// and so does what they hold (`{e.Err.Error()}`, `${sandbox.id}`, `%(name)s`).
pub(crate) fn stable_fragment(message: &str) -> String {
    let b = message.as_bytes();
    let mut best = (0, 0);
    let (mut start, mut i) = (0, 0);
    while i < b.len() {
        match hole_end(b, i) {
            Some(end) => {
                if i - start > best.1 - best.0 {
                    best = (start, i);
                }
                (start, i) = (end, end);
            }
            None => i += 1,
        }
    }
    if b.len() - start > best.1 - best.0 {
        best = (start, b.len());
    }
    let whole = message[best.0..best.1].trim();
    let mut run = &message[best.0..best.1];
    // A run that a placeholder abuts inside a word (`{n}th item`, `%sing`) starts or ends
    // mid-word in the rendered text: it is cut to whole words.
    let word = |c: char| c.is_alphanumeric();
    if best.0 > 0 && run.starts_with(word) {
        run = run.split_once(char::is_whitespace).map_or("", |(_, r)| r);
    }
    if best.1 < b.len() && run.ends_with(word) {
        run = run.rsplit_once(char::is_whitespace).map_or("", |(l, _)| l);
    }
    let best = match run.trim() {
        "" if whole.is_empty() => message,
        "" => whole,
        r => r,
    };
    // At most 80 characters, cut where a word ends.
    if best.chars().count() <= 80 {
        return best.to_owned();
    }
    let cut: String = best.chars().take(80).collect();
    match cut.rsplit_once(char::is_whitespace) {
        Some((head, _)) if !head.trim().is_empty() => head.trim_end().to_owned(),
        _ => cut,
    }
}

/// Just past the placeholder that starts at `i` (`{name}`, `${id}`, `%s`), if one does; a `%`
/// that starts none is a hole of one byte.
fn hole_end(b: &[u8], i: usize) -> Option<usize> {
    match b[i] {
        b'{' => closing_brace(b, i),
        b'$' if b.get(i + 1) == Some(&b'{') => closing_brace(b, i + 1),
        b'%' => Some(printf_end(b, i)),
        _ => None,
    }
}

/// Whether the message has a placeholder (`{name}`, `${id}`, `%s`, `{}`): a value of the run.
/// `%%` is a literal `%`.
pub(crate) fn has_placeholder(message: &str) -> bool {
    let b = message.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match hole_end(b, i) {
            Some(end) if b[i..].starts_with(b"%%") => i = end,
            Some(end) if end > i + 1 => return true,
            _ => i += 1,
        }
    }
    false
}

/// Just past the `}` that closes the `{` at `open`, if one does.
fn closing_brace(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Just past the printf conversion starting at the `%` at `at`: `%s`, `%-08.3f`, `%(name)r`,
/// `%lld`; a `%` followed by none is one byte.
fn printf_end(b: &[u8], at: usize) -> usize {
    let mut j = at + 1;
    if b.get(j) == Some(&b'(') {
        match b[j..].iter().position(|&c| c == b')') {
            Some(k) => j += k + 1,
            None => return at + 1,
        }
    }
    while j < b.len() && b"-+ #0123456789.*hlLqjzt".contains(&b[j]) {
        j += 1;
    }
    match b.get(j) {
        Some(c) if c.is_ascii_alphabetic() || *c == b'%' => j + 1,
        _ => at + 1,
    }
}

/// The fragment on one line, to put in a comment.
pub(crate) fn fragment_line(message: &str) -> String {
    stable_fragment(message)
        .replace('\r', "")
        .replace('\n', "\\n")
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

/// Whether a caller outside the site's file can call its function by name: not private by
/// the language's rule or by convention (`_name`, `#name`, lowercase Go, no `pub`/`public`),
/// and not in an internal module (`_module.py`, Go's `internal/`, `jdk/internal`).
pub(crate) fn is_public(site: &Site<'_>) -> bool {
    let Some(f) = named_function(site) else {
        return false;
    };
    // A callback is called by what it was handed to; a function's inner function by it.
    if f.callback || f.nested {
        return false;
    }
    // A command's code is reached through the command, not called.
    if site.facts.command().is_some() {
        return false;
    }
    let path = site.file_path;
    let owner = f.owner.as_deref().unwrap_or("");
    let sig = f.signature.as_str();
    if internal_path(path) {
        return false;
    }
    match site.lang {
        Lang::Python => {
            let module_private = path.split('/').any(|p| {
                p.starts_with('_') && !p.starts_with("__init__") && !p.starts_with("__main__")
            });
            (!f.name.starts_with('_') || f.name == "__init__")
                && !owner.starts_with('_')
                && !module_private
        }
        Lang::Go => {
            let exported = |n: &str| {
                n.trim_start_matches('*')
                    .starts_with(|c: char| c.is_ascii_uppercase())
            };
            exported(&f.name) && (owner.is_empty() || exported(owner))
        }
        Lang::Java => f.exposed || sig.contains("public ") && !sig.contains("private "),
        Lang::Rust => {
            f.exposed || (sig.starts_with("pub ") || sig.contains(" pub ")) && !sig.contains("pub(")
        }
        Lang::TypeScript | Lang::JavaScript => {
            // `[_private]()` and `[SYMBOL]()` are computed names, not callable by name.
            !f.name.starts_with(['_', '#', '['])
                && !f.unexported
                && !sig.contains("private ")
                && !sig.contains("protected ")
                && !owner.starts_with('_')
        }
    }
}

/// Whether a file is of a module kept to its project: Go's `internal/` and commands, the
/// JDK's `jdk.internal` and `sun.*`, `impl` folders, test data.
pub(crate) fn internal_path(path: &str) -> bool {
    path.split('/')
        .any(|p| p == "internal" || p == "impl" || p == "testdata")
        || path.starts_with("cmd/")
        || path.contains("/cmd/")
        || path.contains("jdk/internal")
        || path.starts_with("sun/")
        || path.contains("/sun/")
}

/// Whether only the project's own code can call the site's function, by the language's rule,
/// and no way in from outside was found: a Rust function declared `pub(crate)` (or
/// `pub(super)`, `pub(in …)`), or one without `pub` that implements no trait. What such a
/// function is given comes from the crate's code, not from a user. (One in an `internal`
/// folder may implement a public interface: those are not taken to be.)
pub(crate) fn kept_inside(site: &Site<'_>) -> bool {
    if site.facts.entry.is_some() || site.facts.command().is_some() {
        return false;
    }
    let Some(f) = site.facts.function.as_ref().filter(|f| !f.callback) else {
        return false;
    };
    let sig = f.signature.as_str();
    match site.lang {
        Lang::Rust => {
            let public = sig.starts_with("pub ") || sig.contains(" pub ");
            sig.starts_with("pub(") || sig.contains(" pub(") || !public && !f.exposed
        }
        // A private Java method is often the parser its public caller hands the user's data
        // to: its arguments may well be the user's.
        _ => false,
    }
}

/// `MSVCCompiler` as a variable: `msvc_compiler` (Python, Rust) or `msvcCompiler`.
fn variable_for(lang: Lang, owner: &str) -> String {
    // `&'a mut Serializer<W>` is a `Serializer`.
    let head = owner.split(['<', '[']).next().unwrap_or(owner);
    let base = head
        .split_whitespace()
        .last()
        .unwrap_or(head)
        .trim_start_matches(['*', '&'])
        .rsplit(['.', ':'])
        .next()
        .unwrap_or(owner);
    let mut words: Vec<String> = Vec::new();
    let chars: Vec<char> = base.chars().collect();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
        let prev_lower = i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
        if c.is_uppercase() && !cur.is_empty() && (prev_lower || next_lower) {
            words.push(std::mem::take(&mut cur));
        }
        if c != '_' {
            cur.push(c);
        } else if !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let var = match lang {
        Lang::Python | Lang::Rust => words
            .iter()
            .map(|w| w.to_lowercase())
            .collect::<Vec<_>>()
            .join("_"),
        _ => words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                if i == 0 {
                    w.to_lowercase()
                } else {
                    let mut cs = w.to_lowercase();
                    if let Some(f) = cs.get_mut(0..1) {
                        f.make_ascii_uppercase();
                    }
                    cs
                }
            })
            .collect(),
    };
    match var.as_str() {
        "" => "obj".to_owned(),
        // A keyword or a builtin type's name is no variable.
        "type" | "class" | "object" | "str" | "list" | "dict" | "set" | "int" | "string"
        | "error" | "self" | "this" | "new" | "default" | "interface" | "package" | "match"
        | "ref" | "mod" | "fn" | "struct" | "enum" | "impl" | "trait" | "use" | "static"
        | "const" | "float" | "double" | "long" | "short" | "byte" | "char" | "boolean"
        | "void" | "final" | "var" | "let" | "function" | "import" | "return" => {
            format!("{var}_")
        }
        _ => var,
    }
}

/// A function a caller calls by name: the site's own, or the way in to it.
struct Callee<'a> {
    name: &'a str,
    owner: Option<&'a str>,
    parameters: std::borrow::Cow<'a, [crate::Parameter]>,
    file: &'a str,
    /// It takes a receiver (`self`, `&self`).
    method: bool,
    is_static: bool,
    is_async: bool,
    /// Go: the types of its results.
    results: Vec<String>,
    /// Its declaration up to the body.
    signature: &'a str,
    /// The site's own function: its guards decide which optional parameters are passed.
    own: bool,
    /// Optional parameters a call passes all the same: those a check before it reads.
    passes: Vec<String>,
    /// A property accessor is read, assigned or deleted, not called.
    accessor: Option<crate::Accessor>,
}

impl<'a> Callee<'a> {
    /// The site's own function, when a caller outside can call it.
    fn own(site: &Site<'a>) -> Option<Callee<'a>> {
        if !is_public(site) {
            return None;
        }
        let f = named_function(site)?;
        let sig = f.signature.as_str();
        let declared = crate::signature::read(site.lang, &f.name, sig);
        Some(Callee {
            name: &f.name,
            owner: f.owner.as_deref(),
            parameters: std::borrow::Cow::Borrowed(&f.parameters),
            file: site.file_path,
            method: match site.lang {
                Lang::Python => sig.contains("(self"),
                Lang::Rust => sig.contains("self"),
                _ => true,
            },
            is_static: match site.lang {
                Lang::Python => sig.contains("(cls"),
                _ => sig.starts_with("static ") || sig.contains(" static "),
            },
            is_async: declares_async(sig),
            results: declared.map(|d| d.results).unwrap_or_default(),
            signature: sig,
            own: true,
            passes: Vec::new(),
            accessor: f.accessor,
        })
    }

    /// The function of the way in to the site (the top of the entry's chain), when the error
    /// is proven to reach it: no handler of the error is on the way.
    fn way_in(site: &Site<'a>) -> Option<Callee<'a>> {
        if site.facts.command().is_some() {
            return None;
        }
        let entry = site.facts.entry.as_ref()?;
        let top = entry.chain.first()?;
        let caught_on_the_way = site.facts.handlers.iter().any(|h| {
            entry
                .chain
                .iter()
                .any(|s| s.file == h.file && h.function.as_deref() == Some(s.function.as_str()))
        });
        if caught_on_the_way {
            return None;
        }
        let sig = top.signature.as_str();
        let declared = crate::signature::read(site.lang, &top.function, sig)?;
        if (declared.method || site.lang == Lang::Java) && top.owner.is_none() {
            return None;
        }
        Some(Callee {
            name: &top.function,
            owner: top.owner.as_deref(),
            parameters: std::borrow::Cow::Owned(declared.parameters),
            file: &top.file,
            method: declared.method || site.lang == Lang::Go && top.owner.is_some(),
            is_static: declared.is_static,
            is_async: declares_async(sig),
            results: declared.results,
            signature: sig,
            own: false,
            passes: Vec::new(),
            accessor: None,
        })
    }
}

/// Whether a declaration is of an `async` function.
fn declares_async(sig: &str) -> bool {
    sig.starts_with("async ") || sig.contains(" async ")
}

/// A call of the site's public function as a caller writes it, with the arguments it must be
/// given by its parameters' names (`sock.makefile(mode)`, `canonicalize(xml_data)`,
/// `new Owner(a)`); those with a default, and variadic ones, left out. `set` gives one
/// parameter a value.
fn public_call(site: &Site<'_>, set: Option<(&str, &str)>) -> Option<String> {
    call_of(site, &Callee::own(site)?, set)
}

/// The call a caller makes that raises the error: of the site's own function, or else of the
/// function of the way in to it, in a form the error comes back from (a Go function whose last
/// result is an `error`, a Rust function that returns a `Result`).
struct Reaching {
    call: String,
    /// Go: what to assign the results to (`_, err`).
    assign: String,
    /// The way in, when the call is not of the site's own function: "`open()` reaches
    /// `_read()`".
    via: Option<String>,
}

fn reaching_call(site: &Site<'_>) -> Option<Reaching> {
    let callee = Callee::own(site).or_else(|| Callee::way_in(site))?;
    let panics = matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion);
    let assign = match site.lang {
        Lang::Go if !panics => {
            if callee.results.last().map(String::as_str) != Some("error") {
                return None;
            }
            let mut lhs = vec!["_"; callee.results.len() - 1];
            lhs.push("err");
            lhs.join(", ")
        }
        Lang::Rust if !panics => {
            let ret = callee.signature.rsplit_once("->").map_or("", |(_, r)| r);
            if !ret.contains("Result") {
                return None;
            }
            String::new()
        }
        _ => String::new(),
    };
    let call = call_of(site, &callee, None)?;
    // A generator's body runs as its result is iterated, not when it is called.
    let call = match named_function(site).filter(|f| f.generator && callee.own) {
        Some(_) if site.lang == Lang::Python => format!("list({call})"),
        Some(_) => format!("[...{call}]"),
        None => call,
    };
    let overridden = site
        .facts
        .entry
        .as_ref()
        .and_then(|e| e.chain.first())
        .is_some_and(|s| s.overridden);
    let via = (!callee.own).then(|| {
        let f = named_function(site).map_or("", |f| f.name.as_str());
        if overridden {
            return format!(
                "{}.{}() ({}) is implemented by {f}() ({}:{}), which raises it",
                callee.owner.unwrap_or_default(),
                callee.name,
                callee.file,
                site.file_path,
                site.line
            );
        }
        match callee.file == site.file_path {
            true => format!(
                "{}() reaches {f}() (line {}), which raises it",
                callee.name, site.line
            ),
            false => format!(
                "{}() ({}) reaches {f}() ({}:{}), which raises it",
                callee.name, callee.file, site.file_path, site.line
            ),
        }
    });
    Some(Reaching { call, assign, via })
}

fn call_of(site: &Site<'_>, f: &Callee<'_>, set: Option<(&str, &str)>) -> Option<String> {
    let args: Vec<String> = f
        .parameters
        .iter()
        .filter(|p| {
            let wanted = set.is_some_and(|(n, _)| n == p.name)
                || f.own && guard_reads(site, &p.name)
                || f.passes.contains(&p.name);
            !p.variadic && (!p.optional || wanted)
        })
        .map(|p| {
            let value = match set {
                Some((name, value)) if name == p.name => value.to_owned(),
                _ => p.name.clone(),
            };
            if site.lang == Lang::Python && (p.keyword_only || p.optional) {
                format!("{}={value}", p.name)
            } else {
                value
            }
        })
        .collect();
    let args = args.join(", ");
    let owner = f.owner.map(|o| {
        let o = o.trim_start_matches('*');
        o.split(['<', '[']).next().unwrap_or(o).to_owned()
    });
    let constructor = match (site.lang, owner.as_deref()) {
        (Lang::Python, Some(o)) if f.name == "__init__" => Some(format!("{o}({args})")),
        (Lang::TypeScript | Lang::JavaScript, Some(o)) if f.name == "constructor" => {
            Some(format!("new {o}({args})"))
        }
        (Lang::Java, Some(o)) if f.name == o.rsplit('.').next().unwrap_or(o) => {
            Some(format!("new {o}({args})"))
        }
        _ => None,
    };
    if let Some(c) = constructor {
        return Some(c);
    }
    if f.name.starts_with("__") {
        // Another dunder (`__getitem__`, `__init_subclass__`) is reached by syntax, not a call.
        return None;
    }
    let receiver = match (&owner, site.lang) {
        // A module's function is called through the module by a caller elsewhere.
        (None, Lang::Python) => module_of(f.file, true)
            .map(|m| format!("{m}."))
            .unwrap_or_default(),
        (None, Lang::Go) => module_of(f.file, false)
            .filter(|m| *m != "main")
            .map(|m| format!("{m}."))
            .unwrap_or_default(),
        (None, _) => String::new(),
        (Some(o), Lang::Python) if f.is_static => format!("{o}."),
        (Some(o), Lang::Python) if f.method => format!("{}.", variable_for(site.lang, o)),
        (Some(o), Lang::Python) => format!("{o}."),
        (Some(o), Lang::Rust) if f.method => format!("{}.", variable_for(site.lang, o)),
        (Some(o), Lang::Rust) => format!("{o}::"),
        (Some(o), Lang::Java | Lang::TypeScript | Lang::JavaScript) if f.is_static => {
            format!("{o}.")
        }
        (Some(o), _) => format!("{}.", variable_for(site.lang, o)),
    };
    if let Some(accessor) = f.accessor.filter(|_| !receiver.is_empty()) {
        let attribute = format!("{receiver}{}", f.name);
        let value = set
            .map(|(_, v)| v.to_owned())
            .or_else(|| f.parameters.first().map(|p| p.name.clone()))
            .unwrap_or_else(|| "value".to_owned());
        return Some(match accessor {
            crate::Accessor::Get => attribute,
            crate::Accessor::Set => format!("{attribute} = {value}"),
            crate::Accessor::Delete if site.lang == Lang::Python => format!("del {attribute}"),
            crate::Accessor::Delete => format!("delete {attribute}"),
        });
    }
    let call = format!("{receiver}{}({args})", f.name);
    Some(match site.lang {
        Lang::Rust if f.is_async => format!("{call}.await"),
        // An `unsafe fn` is called in an `unsafe` block: the caller vouches for its contract.
        Lang::Rust if f.signature.contains("unsafe fn") => format!("unsafe {{ {call} }}"),
        Lang::TypeScript | Lang::JavaScript | Lang::Python if f.is_async => format!("await {call}"),
        _ => call,
    })
}

/// Whether a guard of the site reads the name.
fn guard_reads(site: &Site<'_>, name: &str) -> bool {
    site.facts
        .guards()
        .any(|c| crate::prose::mentions(&c.expr, name))
}

/// The module a file is imported as: a Python file's stem (its folder's name for
/// `__init__.py`), a Go file's package folder.
fn module_of(path: &str, python: bool) -> Option<&str> {
    let mut parts = path.rsplit('/');
    let file = parts.next()?;
    let dir = parts.next();
    if !python {
        return dir;
    }
    match file.strip_suffix(".py")? {
        "__init__" => dir,
        stem => Some(stem),
    }
}

/// Words of a language that are no variable a guard reads.
pub(crate) fn is_keyword(lang: Lang, w: &str) -> bool {
    let common = [
        "true",
        "false",
        "null",
        "nil",
        "undefined",
        "None",
        "True",
        "False",
    ];
    let python = [
        "not",
        "and",
        "or",
        "in",
        "is",
        "if",
        "else",
        "for",
        "lambda",
        "int",
        "str",
        "float",
        "bool",
        "bytes",
        "bytearray",
        "list",
        "dict",
        "tuple",
        "set",
        "frozenset",
        "type",
        "object",
        "complex",
    ];
    let js = ["typeof", "instanceof", "in", "void", "new", "of"];
    let rust = ["as", "matches", "Some", "None", "Ok", "Err"];
    common.contains(&w)
        || match lang {
            Lang::Python => python.contains(&w),
            Lang::TypeScript | Lang::JavaScript => js.contains(&w),
            Lang::Rust => rust.contains(&w),
            Lang::Java => w == "instanceof",
            Lang::Go => false,
        }
}

/// The guards of the site as one condition, when every variable they read is a parameter of
/// its function: then a caller holds all it needs to test them, and the parameters they read.
fn caller_condition<'a>(site: &Site<'a>) -> Option<(String, Vec<&'a crate::Parameter>)> {
    // Raised in a handler, it needs its `try` to fail as well: the guards alone say too much.
    if crate::prose::handler_of(site).is_some() {
        return None;
    }
    let (cond, used, own) = guard_names(site)?;
    (own.is_empty() && !used.is_empty()).then_some((cond, used))
}

/// The guards of the site as one condition, the parameters they read, and the other names they
/// read (the function's locals, fields, globals).
#[allow(clippy::type_complexity)]
fn guard_names<'a>(site: &Site<'a>) -> Option<(String, Vec<&'a crate::Parameter>, Vec<String>)> {
    let f = named_function(site)?;
    let cond = conjunction(site)?;
    let mut used: Vec<&crate::Parameter> = Vec::new();
    let mut own: Vec<String> = Vec::new();
    let mut hidden = false;
    for n in errata_lang::names(&cond) {
        let word = n.text;
        let rest = cond[n.end..].trim_start();
        let called = rest.starts_with('(') || rest.starts_with('!') && site.lang == Lang::Rust;
        let path = rest.starts_with("::");
        if n.member || path || is_keyword(site.lang, word) {
            continue;
        }
        if let Some(p) = f
            .parameters
            .iter()
            .find(|p| p.name == word && !site.facts.reassigned(word))
        {
            if !used.iter().any(|u| u.name == p.name) {
                used.push(p);
            }
            continue;
        }
        // A builtin or a function called by name (`len(x)`, `isinstance(x, int)`) is fine;
        // any other name is the function's own.
        if called && matches!(site.lang, Lang::Python | Lang::Go) {
            continue;
        }
        let is_type = word.starts_with(|c: char| c.is_ascii_uppercase());
        if is_type
            && (rest.starts_with(')') || rest.starts_with(','))
            && cond.contains("isinstance")
        {
            continue;
        }
        // A receiver or a module (`self`, `this`, `filepath.Join`, `socket.isClosed()`)
        // is something a caller may hold as well: it keeps the guard from being the
        // caller's to check, but is not named as the function's own.
        let through = rest.starts_with('.') || matches!(word, "self" | "this");
        if through {
            hidden = true;
        } else if !own.iter().any(|o| o == word) {
            own.push(if called {
                format!("{word}()")
            } else {
                word.to_owned()
            });
        }
    }
    if hidden && own.is_empty() {
        // Nothing to name, but the guard is not the arguments' alone either.
        own.push(String::new());
    }
    Some((cond, used, own))
}

/// `if COND {BODY}` in the language, the body already indented.
fn if_block(lang: Lang, cond: &str, body: &[String]) -> String {
    match lang {
        Lang::Python => {
            let mut out = format!("if {cond}:\n");
            for l in body {
                out.push_str(&format!("    {l}\n"));
            }
            if body.iter().all(|l| l.starts_with('#')) {
                out.push_str("    pass\n");
            }
            out.trim_end().to_owned()
        }
        Lang::Go | Lang::Rust => {
            let indent = if lang == Lang::Go { "\t" } else { "    " };
            let mut out = format!("if {cond} {{\n");
            for l in body {
                out.push_str(&format!("{indent}{l}\n"));
            }
            out.push('}');
            out
        }
        _ => {
            let mut out = format!("if ({cond}) {{\n");
            for l in body {
                out.push_str(&format!("  {l}\n"));
            }
            out.push('}');
            out
        }
    }
}

/// The guards of the site as one condition, each wrapped when it is a disjunction.
fn conjunction(site: &Site<'_>) -> Option<String> {
    let py = site.lang == Lang::Python;
    let parts: Vec<String> = site
        .facts
        .guards()
        .map(|c| {
            if c.expr.contains("||") || c.expr.contains(" or ") {
                format!("({})", c.expr)
            } else {
                c.expr.clone()
            }
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    Some(parts.join(if py { " and " } else { " && " }))
}

/// The boolean parameter whose value decides a guard, and the value that avoids the error.
fn deciding_bool(site: &Site<'_>) -> Option<(String, bool)> {
    site.facts
        .guards()
        .flat_map(|c| c.conjuncts.iter())
        .find_map(|c| match subject(site, c) {
            Subject::BoolParam(p, holds) => Some((p.name.clone(), !holds)),
            _ => None,
        })
}

/// The fix of a method left for subclasses (see [`crate::prose::StubKind`]): a Python
/// subclass that defines it, or that stops calling the abstract one through `super()`.
fn subclass_fix(site: &Site<'_>) -> Option<String> {
    use crate::prose::StubKind;
    let stub = crate::prose::stub(site).filter(|s| s.kind != StubKind::Refused)?;
    let (method, owner) = (stub.method, stub.owner);
    let f = site.facts.function.as_ref()?;
    // `*args` and keyword-only parameters are passed on other than by name.
    if site.lang != Lang::Python
        || !f.signature.starts_with("def ")
        || f.signature.contains('*')
        || f.signature.contains('…')
    {
        return None;
    }
    let base = owner.rsplit('.').next().unwrap_or(&owner);
    let sub = format!("My{}", base.trim_start_matches('_'));
    let def = f.signature.trim_end_matches(':');
    let args: Vec<&str> = f
        .parameters
        .iter()
        .map(|p| p.name.as_str())
        .filter(|n| *n != "self")
        .collect();
    Some(if stub.kind == StubKind::Abstract {
        format!(
            "# before: the subclass calls the abstract {method}() of {base}, which only raises\nclass {sub}({base}):\n    {def}:\n        return super().{method}({})\n\n# after: it does its own work\nclass {sub}({base}):\n    {def}:\n        ...  # what {method}() must do for {sub}",
            args.join(", ")
        )
    } else {
        format!(
            "# before: the subclass leaves {method}() to {base}, which only raises\nclass {sub}({base}):\n    pass\n\n# after: it defines {method}()\nclass {sub}({base}):\n    {def}:\n        ...  # what {method}() must do for {sub}"
        )
    })
}

pub(crate) fn example_fix(
    site: &Site<'_>,
    strategy: HandlingStrategy,
    background: BackgroundTag,
    way_out: Option<&str>,
) -> String {
    let c = comment(site.lang);
    let s = semi(site.lang);
    let fragment = fragment_line(site.message);
    if let Some(class) = python_warning(site) {
        return format!(
            "# before: the {class} is hidden or printed by the warning filters, and the call goes on\n# after: it is recorded where it is raised and handled there\n{}",
            try_catch(site, strategy, background, way_out)
        );
    }
    if let Some(fix) = subclass_fix(site) {
        return fix;
    }
    if site.error_type == ErrorType::Log {
        return format!(
            "{c} before: \"{fragment}\" is logged and scrolls by unnoticed\n{c} after: the logs are searched for it\n{}",
            log_count(site)
        );
    }
    if let Some((class, _)) = crate::prose::own_text(site) {
        return format!(
            "{c} before: the error is told apart by its wording, \"{fragment}\", which only formats a `{class}`\n{c} after: by its type, and by this wording among its texts\n{}",
            type_guard(site)
        );
    }
    // An unexported sentinel, or one of an internal package, cannot be named outside its package:
    // tells it by its text (typeGuard).
    if let Some(name) = crate::prose::sentinel(site).filter(|n| crate::prose::nameable(site, n)) {
        return format!(
            "// before: the error is passed on without a look\nif err != nil {{\n\treturn err\n}}\n// after: {name} is told apart from other errors\nif errors.Is(err, {name}) {{\n\t// handle \"{fragment}\" here\n}} else if err != nil {{\n\treturn err\n}}"
        );
    }
    if let Some(fix) = crate::command::example_fix(site, &fragment) {
        return fix;
    }
    if let Some((name, avoid)) = deciding_bool(site) {
        let bad = bool_literal(site.lang, !avoid);
        let good = bool_literal(site.lang, avoid);
        if let (Some(before), Some(after)) = (
            public_call(site, Some((&name, bad))),
            public_call(site, Some((&name, good))),
        ) {
            return format!(
                "{c} before: raises \"{fragment}\"\n{before}{s}\n{c} after: `{name}` is {good}, so the guard does not hold\n{after}{s}"
            );
        }
    }
    // A value the guard finds missing that a public setter gives: the setter runs first.
    if let (Some((setter, value)), Some(call)) =
        (crate::prose::setter_first(site), public_call(site, None))
    {
        let name = named_function(site).map_or("", |f| f.name.as_str());
        if let Some(at) = call.find(&format!("{name}(")).filter(|_| !name.is_empty()) {
            let set = format!("{}{setter}({value}){s}", &call[..at]);
            return format!(
                "{c} before: `{name}()` runs before the value it tests is set, and raises \"{fragment}\"\n{call}{s}\n{c} after: `{setter}()` sets it first\n{set}\n{call}{s}"
            );
        }
    }
    let checked: Option<(String, Vec<String>)> =
        match (public_call(site, None), caller_condition(site)) {
            (Some(call), Some((_, params))) => {
                Some((call, params.iter().map(|p| p.name.clone()).collect()))
            }
            _ => way_in_condition(site).and_then(|(_, mut callee, params)| {
                let names: Vec<String> = params.into_iter().map(|p| p.name).collect();
                callee.passes = names.clone();
                Some((call_of(site, &callee, None)?, names))
            }),
        };
    if let Some((the_call, args)) = checked {
        let (check, helper) = match site.lang {
            Lang::Python => (
                format!("not would_raise({})", args.join(", ")),
                "would_raise",
            ),
            Lang::Rust => (format!("!would_raise({})", args.join(", ")), "would_raise"),
            _ => (format!("!wouldRaise({})", args.join(", ")), "wouldRaise"),
        };
        return format!(
            "{c} before: the arguments go in unchecked, and the call raises \"{fragment}\"\n{the_call}{s}\n{c} after: they are checked first ({helper} is in validationCode)\n{}",
            if_block(site.lang, &check, &[format!("{the_call}{s}")])
        );
    }
    format!(
        "{c} before: \"{fragment}\" is handled like any other error, or not at all\n{c} after: it is told apart (typeGuard) and handled on its own\n{}",
        try_catch(site, strategy, background, way_out)
    )
}

/// The guards of a site whose function a user cannot call, said of the arguments of its way
/// in: each parameter they read must be one of that function's parameters, passed unchanged.
/// For a method the way in implements, the parameter at the same place; for a way in that
/// calls the site's function, the argument of that call when it is a parameter of the way in
/// (`time(hour, minute, second)` calls `_check_time_fields(hour, minute, second)`). Returns
/// the condition, the way in, and the parameters of the way in that it reads.
fn way_in_condition<'a>(site: &Site<'a>) -> Option<(String, Callee<'a>, Vec<crate::Parameter>)> {
    let (cond, callee, map) = way_in_names(site)?;
    let renamed = rename_words(&cond, &map);
    let mut params: Vec<crate::Parameter> = Vec::new();
    for (_, theirs) in &map {
        if !params.iter().any(|q| &q.name == theirs) {
            params.push(
                callee
                    .parameters
                    .iter()
                    .find(|q| &q.name == theirs)?
                    .clone(),
            );
        }
    }
    Some((renamed, callee, params))
}

/// The way in of a private site function that passes its own parameters on unchanged,
/// where `way_in_condition` finds it: the guards of the site can be said of it.
pub(crate) fn way_in(site: &Site<'_>) -> Option<WayIn> {
    let (_, callee, map) = way_in_names(site)?;
    Some(WayIn {
        call: format!("`{}()`", callee.name),
        params: callee.parameters.iter().map(|p| p.name.clone()).collect(),
        map,
    })
}

/// See [`way_in`].
pub(crate) struct WayIn {
    /// How it is named in prose: `` `time()` ``.
    pub call: String,
    /// The names of its parameters.
    pub params: Vec<String>,
    /// Which of the site function's parameters is which of its.
    map: Vec<(String, String)>,
}

impl WayIn {
    /// A conjunct of the site's guards with the parameters renamed to the way in's, and the
    /// first parameter of the way in that it reads.
    pub(crate) fn said_of(&self, conjunct: &str) -> Option<(String, &str)> {
        let (_, theirs) = self
            .map
            .iter()
            .find(|(mine, _)| crate::prose::mentions(conjunct, mine))?;
        Some((rename_words(conjunct, &self.map), theirs))
    }
}

/// The guards of the site as one condition, the way in, and which of the site function's
/// parameters is which of the way in's.
#[allow(clippy::type_complexity)]
fn way_in_names<'a>(site: &Site<'a>) -> Option<(String, Callee<'a>, Vec<(String, String)>)> {
    if is_public(site) || crate::prose::own_text(site).is_some() {
        return None;
    }
    let (cond, used) = caller_condition(site)?;
    let callee = Callee::way_in(site)?;
    let [top] = site.facts.entry.as_ref()?.chain.as_slice() else {
        return None;
    };
    let f = named_function(site)?;
    let mut map: Vec<(String, String)> = Vec::new();
    for p in &used {
        if p.variadic {
            return None;
        }
        let i = f.parameters.iter().position(|q| q.name == p.name)?;
        let theirs = if top.overridden {
            callee.parameters.get(i)?.name.clone()
        } else {
            let call = site.facts.callers.iter().find(|r| {
                r.exact
                    && r.file == top.file
                    && r.function.as_deref() == Some(top.function.as_str())
            })?;
            let args = call_arguments(&call.text, &f.name)?;
            let keyword = format!("{}=", p.name);
            let arg = args
                .iter()
                .find_map(|a| a.strip_prefix(keyword.as_str()))
                .or_else(|| args.get(i).copied().filter(|a| !a.contains('=')))?
                .trim();
            callee
                .parameters
                .iter()
                .find(|q| q.name == arg && !q.variadic)?
                .name
                .clone()
        };
        map.push((p.name.clone(), theirs));
    }
    Some((cond, callee, map))
}

/// The arguments of the call of `name` in `text`, split at their top-level commas.
fn call_arguments<'t>(text: &'t str, name: &str) -> Option<Vec<&'t str>> {
    let at = text.find(&format!("{name}("))? + name.len() + 1;
    let rest = &text[at..];
    let (mut depth, mut start, mut out) = (0usize, 0usize, Vec::new());
    let mut quote: Option<char> = None;
    for (i, c) in rest.char_indices() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')') if depth == 0 => {
                let last = rest[start..i].trim();
                if !last.is_empty() {
                    out.push(last);
                }
                return Some(out);
            }
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                out.push(rest[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// `cond` with each whole name of `map` outside strings and member accesses replaced.
fn rename_words(cond: &str, map: &[(String, String)]) -> String {
    let mut out = String::new();
    let mut copied = 0;
    for n in errata_lang::names(cond).filter(|n| !n.member) {
        if let Some((_, to)) = map.iter().find(|(from, _)| from == n.text) {
            out.push_str(&cond[copied..n.start]);
            out.push_str(to);
            copied = n.end;
        }
    }
    out.push_str(&cond[copied..]);
    out
}

pub(crate) fn validation_code(site: &Site<'_>) -> String {
    let c = comment(site.lang);
    if let Some((class, _)) = crate::prose::own_text(site) {
        return format!(
            "{c} {}:{} only words a `{class}` once it exists: nothing is checked here.\n{c} Check the input where the `{class}` is created.",
            site.file_path, site.line
        );
    }
    let fname = named_function(site)
        .map(|f| format!("{}()", f.name))
        .unwrap_or_else(|| site.file_path.to_owned());
    let frag = fragment_line(site.message);
    let through = way_in_condition(site);
    let checked: Option<(String, Vec<&crate::Parameter>, String)> =
        match caller_condition(site).filter(|_| is_public(site)) {
            Some((cond, params)) => Some((cond, params, fname.clone())),
            None => through.as_ref().map(|(cond, callee, params)| {
                (
                    cond.clone(),
                    params.iter().collect(),
                    format!("{}() (through {fname})", callee.name),
                )
            }),
        };
    if let Some((cond, params, fname)) = checked {
        fn typed(p: &crate::Parameter) -> Option<&str> {
            p.ty.as_deref().map(str::trim).filter(|t| !t.is_empty())
        }
        let head =
            format!("{c} {fname} raises \"{frag}\" when this holds for the arguments it is given");
        let function = match site.lang {
            Lang::Python => Some(format!(
                "def would_raise({}) -> bool:\n    return {cond}",
                params
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Lang::JavaScript => Some(format!(
                "function wouldRaise({}) {{\n  return {cond};\n}}",
                params
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Lang::TypeScript => Some(format!(
                "function wouldRaise({}): boolean {{\n  return {cond};\n}}",
                params
                    .iter()
                    .map(|p| match typed(p) {
                        Some(t) => format!("{}: {t}", p.name),
                        None => format!("{}: unknown", p.name),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .filter(|_| params.iter().all(|p| typed(p).is_some())),
            Lang::Go => params
                .iter()
                .map(|p| typed(p).map(|t| format!("{} {t}", p.name)))
                .collect::<Option<Vec<_>>>()
                .map(|ps| {
                    format!(
                        "func wouldRaise({}) bool {{\n\treturn {cond}\n}}",
                        ps.join(", ")
                    )
                }),
            Lang::Java => params
                .iter()
                .map(|p| typed(p).map(|t| format!("{t} {}", p.name)))
                .collect::<Option<Vec<_>>>()
                .map(|ps| {
                    format!(
                        "static boolean wouldRaise({}) {{\n    return {cond};\n}}",
                        ps.join(", ")
                    )
                }),
            Lang::Rust => params
                .iter()
                .map(|p| typed(p).map(|t| format!("{}: {t}", p.name)))
                .collect::<Option<Vec<_>>>()
                .map(|ps| {
                    format!(
                        "fn would_raise({}) -> bool {{\n    {cond}\n}}",
                        ps.join(", ")
                    )
                }),
        };
        if let Some(function) = function {
            return format!("{head}\n{function}");
        }
    }
    // What the guard reads of the function's own, or a condition whose origin is not known,
    // gives no check that is sure to be right: none is offered.
    format!("{c} No check before the call is given here: recognise the error when it comes (see typeGuard).")
}

/// A logged message is not raised: nothing reaches a caller to catch. Its code fields find
/// the line in the logs instead.
fn log_guard(site: &Site<'_>, frag: &str) -> String {
    match site.lang {
        Lang::TypeScript => format!(
            "function isThisLog(line: string): boolean {{\n  return line.includes({frag});\n}}"
        ),
        Lang::JavaScript => {
            format!("function isThisLog(line) {{\n  return line.includes({frag});\n}}")
        }
        Lang::Python => format!("def is_this_log(line: str) -> bool:\n    return {frag} in line"),
        Lang::Go => format!(
            "func isThisLog(line string) bool {{\n\treturn strings.Contains(line, {frag})\n}}"
        ),
        Lang::Rust => {
            format!("fn is_this_log(line: &str) -> bool {{\n    line.contains({frag})\n}}")
        }
        Lang::Java => format!(
            "static boolean isThisLog(String line) {{\n    return line.contains({frag});\n}}"
        ),
    }
}

fn log_count(site: &Site<'_>) -> String {
    let c = comment(site.lang);
    let head = format!("{c} This text is a log line, not the value of an error: find it in the logs (isThisLog is the typeGuard).");
    let body = match site.lang {
        Lang::TypeScript => "function countThisLog(lines: string[]): number {\n  return lines.filter(isThisLog).length;\n}".to_owned(),
        Lang::JavaScript => "function countThisLog(lines) {\n  return lines.filter(isThisLog).length;\n}".to_owned(),
        Lang::Python => "def count_this_log(lines) -> int:\n    return sum(1 for line in lines if is_this_log(line))".to_owned(),
        Lang::Go => "func countThisLog(lines []string) int {\n\tn := 0\n\tfor _, l := range lines {\n\t\tif isThisLog(l) {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}".to_owned(),
        Lang::Rust => "fn count_this_log(lines: &[&str]) -> usize {\n    lines.iter().filter(|l| is_this_log(l)).count()\n}".to_owned(),
        Lang::Java => "static long countThisLog(java.util.List<String> lines) {\n    return lines.stream().filter(l -> isThisLog(l)).count();\n}".to_owned(),
    };
    format!("{head}\n{body}")
}

/// The class of a Python warning (`warnings.warn(…, DeprecationWarning)`): what the warning
/// filters decide on, and what `warnings.catch_warnings` records.
pub(crate) fn python_warning<'a>(site: &Site<'a>) -> Option<&'a str> {
    (site.lang == Lang::Python && site.error_type == ErrorType::Log)
        .then_some(site.class?)
        .filter(|c| c.ends_with("Warning"))
}

/// A warning class a caller can name without an import: Python's own.
pub(crate) fn builtin_warning(class: &str) -> &str {
    const BUILTIN: &[&str] = &[
        "UserWarning",
        "DeprecationWarning",
        "PendingDeprecationWarning",
        "SyntaxWarning",
        "RuntimeWarning",
        "FutureWarning",
        "ImportWarning",
        "UnicodeWarning",
        "BytesWarning",
        "ResourceWarning",
        "EncodingWarning",
    ];
    let name = class.rsplit('.').next().unwrap_or(class);
    if BUILTIN.contains(&name) {
        name
    } else {
        "Warning"
    }
}

pub(crate) fn type_guard(site: &Site<'_>) -> String {
    let fragment = stable_fragment(site.message);
    if let Some(class) = python_warning(site) {
        return format!(
            "def is_this_warning(w: warnings.WarningMessage) -> bool:\n    return issubclass(w.category, {}) and {} in str(w.message)",
            builtin_warning(class),
            quoted(&fragment)
        );
    }
    if site.error_type == ErrorType::Log {
        return log_guard(site, &quoted(&fragment));
    }
    // What a command prints is its output, whatever the class: the run's code reads that.
    if let Some(command) = command_of(site) {
        return output_guard(site, command);
    }
    // A message that is all placeholders (`%s: %v`, `{value}`) has no text to tell it by.
    let weak = literal_alphanumerics(&fragment) < 3;
    if site.messageless() || weak && site.class.is_some() {
        return class_guard(site);
    }
    if weak {
        return any_guard(site);
    }
    let frag = quoted(&fragment);
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
        // A literal panic value prints as itself: compared whole, a short text ("nil") does not
        // match every other panic that holds it.
        // The program prints it and exits: its output is what a caller sees.
        Lang::Go if site.error_type == ErrorType::Exit => format!(
            "// the program prints it (to stderr, unless a logger writes elsewhere) and exits\nfunc isThisExit(stderr string) bool {{\n\treturn strings.Contains(stderr, {})\n}}",
            quoted(&longest_line_fragment(site.message))
        ),
        // A panic its package recovers into the error it returns is told apart as that error.
        Lang::Go if recovered_to_error(site) => format!(
            "func isThisError(err error) bool {{\n\treturn err != nil && strings.Contains(err.Error(), {frag})\n}}"
        ),
        Lang::Go if site.error_type == ErrorType::Panic && !has_placeholder(site.message) => format!(
            "func isThisPanic(r any) bool {{\n\treturn r != nil && fmt.Sprint(r) == {}\n}}",
            quoted(site.message)
        ),
        Lang::Go if matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion) => format!(
            "func isThisPanic(r any) bool {{\n\treturn r != nil && strings.Contains(fmt.Sprint(r), {frag})\n}}"
        ),
        // An unexported sentinel, or one of an internal package, cannot be named outside its
        // package: its text can, inside the text of whatever wraps it (`sql: Scan error on
        // column index 0, name "id": destination pointer is nil`).
        Lang::Go if crate::prose::sentinel(site).is_some_and(|n| !crate::prose::nameable(site, n)) => format!(
            "func isThisError(err error) bool {{\n\treturn err != nil && strings.Contains(err.Error(), {})\n}}",
            quoted(site.message)
        ),
        Lang::Go => match site.class {
            Some(sentinel) if sentinel.starts_with("Err") || sentinel.contains(".Err") || crate::prose::sentinel(site).is_some() => format!("func isThisError(err error) bool {{\n\treturn errors.Is(err, {sentinel})\n}}"),
            // An unexported type (`parseAddrError`), or one of an internal package, cannot
            // be named outside its package: the text can.
            Some(ty) if (ty.starts_with('*') || ty.ends_with("Error"))
                && !crate::prose::nameable(site, ty.trim_start_matches('*').rsplit('.').next().unwrap_or(ty)) =>
            {
                format!("func isThisError(err error) bool {{\n\treturn err != nil && strings.Contains(err.Error(), {frag})\n}}")
            }
            Some(ty) if ty.starts_with('*') || ty.ends_with("Error") => {
                // The type's own `Error()` with a value receiver (`func (e DecodeError)
                // Error()`): its errors are made as values, and a pointer target never matches.
                let value_receiver = go_receiver(site).is_some_and(|r| !r.contains('*'))
                    || site.facts.made_as_value;
                let ty = go_qualified(site, ty);
                let ty = if ty.starts_with('*') || value_receiver { ty } else { format!("*{ty}") };
                format!("func isThisError(err error) bool {{\n\tvar target {ty}\n\treturn errors.As(err, &target) && strings.Contains(err.Error(), {frag})\n}}")
            }
            _ => format!("func isThisError(err error) bool {{\n\treturn err != nil && strings.Contains(err.Error(), {frag})\n}}"),
        },
        // A panic reaches `catch_unwind` as its payload: the message's `String` or `&str`.
        Lang::Rust if matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion) => format!(
            "fn is_this_panic(payload: &(dyn std::any::Any + Send)) -> bool {{\n    let text = payload\n        .downcast_ref::<String>()\n        .map(String::as_str)\n        .or_else(|| payload.downcast_ref::<&str>().copied())\n        .unwrap_or_default();\n    text.contains({frag})\n}}"
        ),
        Lang::Rust => match site.class.filter(|c| {
            // `Enum::Variant`, not a module path to a type (`io::Error`).
            c.rsplit_once("::").is_some_and(|(head, _)| {
                head.rsplit("::").next().is_some_and(|t| t.starts_with(|ch: char| ch.is_ascii_uppercase()))
            })
        }) {
            Some(variant) => format!("fn is_this_error(e: &{}) -> bool {{\n    matches!(e, {variant} {{ .. }})\n}}", variant.rsplit_once("::").map(|p| p.0).unwrap_or(variant)),
            None => format!("fn is_this_error(e: &dyn std::fmt::Display) -> bool {{\n    e.to_string().contains({frag})\n}}"),
        },
        Lang::Java => {
            let c = site.class.unwrap_or("Exception");
            format!("static boolean isThisError(Throwable e) {{\n    return e instanceof {c} && e.getMessage() != null && e.getMessage().contains({frag});\n}}")
        }
    }
}

/// The receiver of the Go method the site is in, as written: `e *NumError` of `func (e
/// *NumError) Error() string`.
/// A Go type as code of another package names it: `asn1.SyntaxError` for `SyntaxError` of
/// encoding/asn1 (a type of `package main`, or already qualified, as it is).
fn go_qualified(site: &Site<'_>, ty: &str) -> String {
    let (star, name) = match ty.strip_prefix('*') {
        Some(n) => ("*", n),
        None => ("", ty),
    };
    // Only a literal of the type is proof of where it is declared: `asn1.SyntaxError{…}` in
    // package x509 is asn1's.
    let Some(written) = site.facts.literal_type.as_deref() else {
        return ty.to_owned();
    };
    if written.contains('.') {
        return format!("{star}{written}");
    }
    let exported = name.starts_with(|c: char| c.is_ascii_uppercase());
    match module_of(site.file_path, false) {
        Some(pkg) if exported && written == name && pkg != "main" => {
            format!("{star}{pkg}.{name}")
        }
        _ => ty.to_owned(),
    }
}

fn go_receiver<'a>(site: &Site<'a>) -> Option<&'a str> {
    let sig = site.facts.function.as_ref()?.signature.as_str();
    let rest = sig.strip_prefix("func (")?;
    rest.split_once(')').map(|(r, _)| r)
}

/// The command of the project's program that the site runs under (`npm ci`), for an error that
/// its user sees as the command's output, not as a value to catch.
fn command_of<'a>(site: &Site<'a>) -> Option<&'a str> {
    let command = site.facts.command()?;
    // A Go program's error of any kind ends as its output: returned to its `main`, or a
    // panic or exit that stops it.
    (site.lang == Lang::Go
        || matches!(site.lang, Lang::JavaScript | Lang::TypeScript)
            && matches!(site.error_type, ErrorType::Exception | ErrorType::Exit))
    .then_some(command)
}

/// The longest literal run of one line of the message: a program's log prints each line of a
/// message with its own prefix (`npm error `).
fn longest_line_fragment(message: &str) -> String {
    message
        .lines()
        .map(stable_fragment)
        .max_by_key(|f| f.chars().filter(|c| c.is_alphanumeric()).count())
        .unwrap_or_default()
}

/// A test of a command's output for the error's text.
fn output_guard(site: &Site<'_>, command: &str) -> String {
    let fragment = longest_line_fragment(site.message);
    // No fixed text (`go: %s`): any failing run's output is taken for it, and the guard says so.
    if literal_alphanumerics(&fragment) < 3 {
        let why = format!(
            "{} {} has no fixed text to tell it apart: any output of a failing run is taken for it",
            comment(site.lang),
            quoted(site.message)
        );
        return match site.lang {
            Lang::Go => format!("func isThisError(output string) bool {{\n\t{why}\n\treturn output != \"\"\n}}"),
            Lang::TypeScript => format!("function isThisError(output: string): boolean {{\n  {why}\n  return output !== '';\n}}"),
            _ => format!("function isThisError(output) {{\n  {why}\n  return output !== '';\n}}"),
        };
    }
    let frag = quoted(&fragment);
    match site.lang {
        // A tool's output may go to stdout (the compiler prints its errors there, and `go
        // build` passes them on to stderr): both are read.
        Lang::Go => format!("// `{command}` prints it (to stdout or stderr) and exits non-zero\nfunc isThisError(output string) bool {{\n\treturn strings.Contains(output, {frag})\n}}"),
        Lang::TypeScript => format!("// `{command}` prints it to stderr and exits non-zero\nfunction isThisError(output: string): boolean {{\n  return output.includes({frag});\n}}"),
        _ => format!("// `{command}` prints it to stderr and exits non-zero\nfunction isThisError(output) {{\n  return output.includes({frag});\n}}"),
    }
}

/// The command run as a script runs it, its output tested by the typeGuard.
fn command_run(site: &Site<'_>, command: &str, handle: &str) -> String {
    let mut words = command.split_whitespace();
    let program = words.next().unwrap_or(command);
    let args = words.map(quoted).collect::<Vec<_>>().join(", ");
    if site.lang == Lang::Go {
        let args = if args.is_empty() {
            "extraArgs...".to_owned()
        } else {
            format!("append([]string{{{args}}}, extraArgs...)...")
        };
        return format!(
            "// Runs `{command}` with the rest of the arguments of the run that failed.\nfunc runCommand(extraArgs ...string) (string, error) {{\n\tout, err := exec.Command({}, {args}).CombinedOutput()\n\tif err != nil && isThisError(string(out)) {{\n\t\t{handle}\n\t}}\n\treturn string(out), err\n}}",
            quoted(program)
        );
    }
    let import = match site.lang {
        Lang::TypeScript => "import { spawnSync } from 'node:child_process';",
        _ => "const { spawnSync } = require('node:child_process');",
    };
    let (sig, ret) = match site.lang {
        Lang::TypeScript => ("extraArgs: string[]", ": string"),
        _ => ("extraArgs", ""),
    };
    format!(
        "{import}\n\n// Runs `{command}` with the rest of the arguments of the run that failed.\nfunction runCommand({sig}){ret} {{\n  const run = spawnSync({}, [{args}, ...extraArgs], {{ encoding: 'utf8' }});\n  if (run.status !== 0) {{\n    if (!isThisError(run.stderr)) throw new Error(run.stderr);\n    {handle}\n  }}\n  return run.stdout;\n}}",
        quoted(program)
    )
}

/// A test of the error by its class alone, for a message with no literal text to look for.
/// The letters and digits of `s` outside its placeholders.
fn literal_alphanumerics(s: &str) -> usize {
    let b = s.as_bytes();
    let (mut i, mut n) = (0, 0);
    while i < b.len() {
        match hole_end(b, i) {
            Some(end) => i = end.max(i + 1),
            None => {
                n += usize::from(b[i].is_ascii_alphanumeric() || b[i] >= 0x80);
                i += 1;
            }
        }
    }
    n
}

/// Whether the site is a Go panic that its package recovers and returns as an error.
fn recovered_to_error(site: &Site<'_>) -> bool {
    matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion)
        && site.facts.recovered.as_ref().is_some_and(|r| r.to_error)
}

/// The guard of an error without a class whose message has no fixed text: nothing tells it
/// apart from the other errors of the same call, and the guard says so.
fn any_guard(site: &Site<'_>) -> String {
    let c = comment(site.lang);
    let why = format!(
        "{c} {} has no fixed text to tell it apart: any error of the call is taken for it",
        quoted(site.message)
    );
    let panics = matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion)
        && !recovered_to_error(site);
    match site.lang {
        Lang::Go if site.error_type == ErrorType::Exit => format!("func isThisExit(stderr string) bool {{\n\t{why}\n\treturn stderr != \"\"\n}}"),
        Lang::Go if panics => format!("func isThisPanic(r any) bool {{\n\t{why}\n\treturn r != nil\n}}"),
        Lang::Go => format!("func isThisError(err error) bool {{\n\t{why}\n\treturn err != nil\n}}"),
        Lang::Rust if panics => format!("fn is_this_panic(_payload: &(dyn std::any::Any + Send)) -> bool {{\n    {why}\n    true\n}}"),
        Lang::Rust => format!("fn is_this_error(_e: &dyn std::fmt::Display) -> bool {{\n    {why}\n    true\n}}"),
        Lang::TypeScript => format!("function isThisError(e: unknown): e is Error {{\n  {why}\n  return e instanceof Error;\n}}"),
        Lang::JavaScript => format!("function isThisError(e) {{\n  {why}\n  return e instanceof Error;\n}}"),
        Lang::Python => format!("def is_this_error(e: BaseException) -> bool:\n    {why}\n    return isinstance(e, Exception)"),
        Lang::Java => format!("static boolean isThisError(Throwable e) {{\n    {why}\n    return e instanceof Exception;\n}}"),
    }
}

fn class_guard(site: &Site<'_>) -> String {
    let c = site.class.unwrap_or("Error");
    match site.lang {
        Lang::TypeScript => format!("function isThisError(e: unknown): e is {c} {{\n  return e instanceof {c};\n}}"),
        Lang::JavaScript => format!("function isThisError(e) {{\n  return e instanceof {c};\n}}"),
        Lang::Python => format!("def is_this_error(e: BaseException) -> bool:\n    return isinstance(e, {c})"),
        Lang::Java => format!("static boolean isThisError(Throwable e) {{\n    return e instanceof {c};\n}}"),
        Lang::Go if c.starts_with("Err") || crate::prose::sentinel(site).is_some() => format!("func isThisError(err error) bool {{\n\treturn errors.Is(err, {c})\n}}"),
        Lang::Go => {
            let q = go_qualified(site, c);
            let ty = if c.starts_with('*') || site.facts.made_as_value { q } else { format!("*{q}") };
            format!("func isThisError(err error) bool {{\n\tvar target {ty}\n\treturn errors.As(err, &target)\n}}")
        }
        Lang::Rust => match c.rsplit_once("::").filter(|(ty, _)| {
            ty.rsplit("::").next().is_some_and(|t| t.starts_with(|ch: char| ch.is_ascii_uppercase()))
        }) {
            Some((ty, _)) => format!("fn is_this_error(e: &{ty}) -> bool {{\n    matches!(e, {c} {{ .. }})\n}}"),
            None => format!("fn is_this_error(e: &(dyn std::error::Error + 'static)) -> bool {{\n    e.is::<{c}>()\n}}"),
        },
    }
}

/// The first of the solutions that names an argument or a call that avoids the error
/// ("Pass …", "Give …", "Call …"), said on one line: what a handler's comment says to do.
pub(crate) fn way_out(solutions: &[String]) -> Option<String> {
    solutions
        .iter()
        .find(|s| s.starts_with("Pass ") || s.starts_with("Give ") || s.starts_with("Call "))
        .filter(|s| !s.contains('\n'))
        .cloned()
}

/// What the handling strategy does, as a comment inside the handler: the way out (see
/// [`way_out`]) where there is one, else the strategy's own words.
fn action_comment(
    site: &Site<'_>,
    strategy: HandlingStrategy,
    background: BackgroundTag,
    way_out: Option<&str>,
) -> String {
    if let Some(avoid) = way_out {
        let mut chars = avoid.chars();
        let first = chars
            .next()
            .map(|c| c.to_ascii_lowercase())
            .unwrap_or_default();
        return format!("{}: {first}{}", strategy.as_str(), chars.as_str());
    }
    strategy_comment(site, strategy, background).to_owned()
}

fn strategy_comment(
    site: &Site<'_>,
    strategy: HandlingStrategy,
    background: BackgroundTag,
) -> &'static str {
    match strategy {
        HandlingStrategy::Retry => "retry: the failure is transient; try again after a delay",
        HandlingStrategy::Fallback => "fallback: take another path",
        HandlingStrategy::FailFast => "fail-fast: stop and report it",
        HandlingStrategy::FixInput => "fix-input: report the bad input back to where it came from",
        HandlingStrategy::FixConfiguration => "fix-configuration: report the setting to fix",
        HandlingStrategy::FixCode if background == BackgroundTag::InvalidStateTransition =>
        {
            "fix-code: call it only in a state that allows it; fix the order of the calls that got here"
        }
        HandlingStrategy::FixCode if has_placeholder(site.message) => {
            "fix-code: this is a bug; report it with the values in the message"
        }
        HandlingStrategy::FixCode => "fix-code: this is a bug; report it with how it was reached",
        HandlingStrategy::Propagate => "propagate: add context and pass it on",
        HandlingStrategy::Ignore => "ignore: nothing to do",
    }
}

pub(crate) fn try_catch(
    site: &Site<'_>,
    strategy: HandlingStrategy,
    background: BackgroundTag,
    way_out: Option<&str>,
) -> String {
    if site.error_type == ErrorType::Log && python_warning(site).is_none() {
        return log_count(site);
    }
    let c = comment(site.lang);
    let s = semi(site.lang);
    let action = action_comment(site, strategy, background, way_out);
    let fallback = match deciding_bool(site) {
        Some((name, avoid)) => public_call(site, Some((&name, bool_literal(site.lang, avoid))))
            .map(|call| format!("{call}{s}")),
        None => None,
    };
    // A handler that reports it passes it on: one that only says so would swallow it. (A
    // recovered panic is not raised again: a handler that recovers only to panic again does
    // nothing.)
    let passes_on = fallback.is_none()
        && matches!(
            strategy,
            HandlingStrategy::Propagate
                | HandlingStrategy::FixInput
                | HandlingStrategy::FixConfiguration
                | HandlingStrategy::FixCode
                | HandlingStrategy::FailFast
        );
    let handle = fallback.unwrap_or_else(|| format!("{c} {action}"));
    if let Some(command) = command_of(site) {
        return command_run(site, command, &handle);
    }
    // Its own function catches it first: no code around a call can.
    if let Some(caught) = crate::prose::caught_itself(site) {
        return format!(
            "{c} {}
{c} Code around the call cannot catch it before that handler does.",
            caught.replace('\n', " ")
        );
    }
    // Stored in a field, not returned: the field holds it after the call.
    if let (Lang::Go, Some(field)) = (site.lang, &site.facts.stored_in) {
        return format!(
            "// It is not returned: it is stored in {field}; test that field after the call.\nif err := {field}; err != nil && isThisError(err) {{\n\t{handle}\n}}"
        );
    }
    // Handed to a callback or emitted as an event: no `try` around a call sees it.
    if let Some(call) = crate::prose::handed_on(site).filter(|c| !c.ends_with("reject")) {
        return handed_on_handler(site, call, &handle);
    }
    // The call a caller makes, when it can make it; otherwise a placeholder for the code that
    // reaches the site (for an error type's own text, the first place that creates the type).
    // A method left for subclasses is reached through whichever subclass the object is: no
    // caller found by name is proven to reach this one.
    let hook = crate::prose::stub(site).is_some_and(|s| s.kind != crate::prose::StubKind::Refused);
    let reaching = if crate::prose::own_text(site).is_none() && !hook {
        reaching_call(site)
    } else {
        None
    };
    let (the_call, assign, via) = match reaching {
        Some(r) => (
            Some(r.call),
            r.assign,
            r.via.map(|v| format!("{c} {v}\n")).unwrap_or_default(),
        ),
        None => (None, String::new(), String::new()),
    };
    let reaches = || match site
        .facts
        .callers
        .first()
        .filter(|_| crate::prose::own_text(site).is_some())
    {
        Some(r) => match &r.function {
            Some(f) => format!("{f}() at {}:{}", r.file, r.line),
            None => format!("{}:{}", r.file, r.line),
        },
        None => match named_function(site) {
            Some(f) if is_public(site) => {
                format!("{}() ({}:{})", f.name, site.file_path, site.line)
            }
            _ => format!("{}:{}", site.file_path, site.line),
        },
    };
    // A warning is no exception: it is recorded, and the call goes on.
    if let Some(class) = python_warning(site) {
        let body =
            the_call.unwrap_or_else(|| format!("...  # the code that reaches {}", reaches()));
        // A block of a comment alone does not parse.
        let handle = match handle.strip_prefix('#') {
            _ if class.contains("Deprecat") => {
                "# move off the deprecated use before a release removes it\n        pass".to_owned()
            }
            Some(_) => format!("{handle}\n        pass"),
            None => handle,
        };
        return format!(
            "{via}import warnings\n\nwith warnings.catch_warnings(record=True) as caught:\n    warnings.simplefilter(\"always\")\n    {body}\nfor w in caught:\n    if is_this_warning(w):\n        {handle}"
        );
    }
    let class = site.class.unwrap_or(match site.lang {
        Lang::Python | Lang::Java => "Exception",
        _ => "Error",
    });
    // Bad input or a setting to fix is reported where the user sees it, and the program goes
    // on without the result: handled, not raised again.
    let reports = passes_on
        && matches!(
            strategy,
            HandlingStrategy::FixInput | HandlingStrategy::FixConfiguration
        );
    let what = if strategy == HandlingStrategy::FixInput {
        "bad input"
    } else {
        "setting to fix"
    };
    // The statement that passes it on after the handler's comment, at the handler's indent.
    let then = |indent: &str, statement: &str| -> String {
        if reports {
            let report = match site.lang {
                Lang::Python => format!("print(f\"{what}: {{e}}\", file=sys.stderr)"),
                Lang::Java => format!("System.err.println(\"{what}: \" + e.getMessage());"),
                _ => format!("console.error(`{what}: ${{e instanceof Error ? e.message : e}}`);"),
            };
            format!("{handle}\n{indent}{report}")
        } else if passes_on {
            format!("{handle}\n{indent}{statement}")
        } else {
            handle.clone()
        }
    };
    let code = match site.lang {
        Lang::Python => {
            let body = the_call.unwrap_or_else(|| format!("...  # the code that reaches {}", reaches()));
            let handle = then("    ", "raise");
            let import = if reports { "import sys\n\n" } else { "" };
            format!("{import}try:\n    {body}\nexcept {class} as e:\n    if not is_this_error(e):\n        raise\n    {handle}")
        }
        Lang::TypeScript | Lang::JavaScript => {
            let body = the_call.map(|c| format!("{c};")).unwrap_or_else(|| format!("// the code that reaches {}", reaches()));
            let handle = then("  ", "throw e;");
            format!("try {{\n  {body}\n}} catch (e) {{\n  if (!isThisError(e)) throw e;\n  {handle}\n}}")
        }
        Lang::Java => {
            let handle = then("    ", "throw e;");
            match the_call {
            Some(call) => format!("try {{\n    {call};\n}} catch ({class} e) {{\n    if (!isThisError(e)) throw e;\n    {handle}\n}}"),
            // No call of a caller's is known to raise it: an empty `try` would not compile for a
            // checked exception, so the handler is a method the catch block calls.
            None => format!("// Call from the catch block around the code that reaches {}\nstatic void handle({class} e) throws {class} {{\n    if (!isThisError(e)) throw e;\n    {handle}\n}}", reaches()),
            }
        }
        // An exit ends the process: only a parent that runs the program sees it.
        Lang::Go if site.error_type == ErrorType::Exit => format!(
            "// The program exits at {}: run it as a child process and read its stderr.\nvar stderr bytes.Buffer\ncmd := exec.Command(program, args...)\ncmd.Stderr = &stderr\nif err := cmd.Run(); err != nil {{\n\tif isThisExit(stderr.String()) {{\n\t\t{handle}\n\t}}\n\treturn err\n}}",
            reaches()
        ),
        // A panic the package turns into the error it returns is caught as that error.
        Lang::Go
            if matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion)
                && !site.facts.recovered.as_ref().is_some_and(|r| r.to_error) =>
        {
            let body = the_call.unwrap_or_else(|| format!("// the code that reaches {}", reaches()));
            format!("func() {{\n\tdefer func() {{\n\t\tif r := recover(); r != nil {{\n\t\t\tif !isThisPanic(r) {{\n\t\t\t\tpanic(r)\n\t\t\t}}\n\t\t\t{handle}\n\t\t}}\n\t}}()\n\t{body}\n}}()")
        }
        Lang::Go => match the_call {
            Some(call) => format!("if {assign} := {call}; err != nil {{\n\tif isThisError(err) {{\n\t\t{handle}\n\t}}\n\treturn err\n}}"),
            None => format!("// err: the error returned by the code that reaches {}\nif err != nil {{\n\tif isThisError(err) {{\n\t\t{handle}\n\t}}\n\treturn err\n}}", reaches()),
        },
        Lang::Rust => match site.error_type {
            ErrorType::Panic | ErrorType::Assertion => {
                let body = the_call.unwrap_or_else(|| format!("/* the code that reaches {} */", reaches()));
                format!("let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {{\n    {body}\n}}));\nif let Err(payload) = result {{\n    if !is_this_panic(&*payload) {{\n        std::panic::resume_unwind(payload);\n    }}\n    {handle}\n}}")
            }
            _ => match the_call {
                // As Go's: what is not handled here goes on up, this error included.
                Some(call) => format!("if let Err(e) = {call} {{\n    if is_this_error(&e) {{\n        {handle}\n    }}\n    return Err(e.into());\n}}"),
                None => format!("// result: the Result of the code that reaches {}\nif let Err(e) = &result {{\n    if is_this_error(e) {{\n        {handle}\n    }}\n}}", reaches()),
            },
        },
    };
    format!("{via}{code}")
}

/// Where a JavaScript error that is handed on arrives: an `'error'` listener on the emitter,
/// or the error argument of the callback it is handed to.
fn handed_on_handler(site: &Site<'_>, call: &str, handle: &str) -> String {
    if site.lang == Lang::Python {
        let class = site.class.unwrap_or("Exception");
        // A block of a comment alone does not parse: the comment, then the error passed on.
        let handle = if handle.contains('\n') {
            handle.replace('\n', "\n    ")
        } else {
            format!("{handle}\n    raise")
        };
        return if call.ends_with("set_exception") {
            format!(
                "# It is not raised here: it is set on a future, whose result() raises it.
try:
    result = future.result()
except {class} as e:
    if not is_this_error(e):
        raise
    {handle}"
            )
        } else {
            format!("# It is not raised here: it is handed to {call}(), and surfaces where that call reports it.")
        };
    }
    if let Some(emitter) = crate::prose::emitter(call) {
        let emitter = match (
            emitter,
            site.facts
                .function
                .as_ref()
                .and_then(|f| f.owner.as_deref()),
        ) {
            ("this", Some(owner)) => variable_for(site.lang, owner),
            ("this", None) => "emitter".to_owned(),
            (e, _) => e.to_owned(),
        };
        return format!(
            "// It is not thrown: it is emitted as an 'error' event, which a listener receives.
{emitter}.on('error', (e) => {{
  if (!isThisError(e)) return;
  {handle}
}});"
        );
    }
    format!(
        "// It is not thrown: it is handed to {call}(), whose error argument receives it.
(e) => {{
  if (e && isThisError(e)) {{
    {handle}
  }}
}}"
    )
}

#[cfg(test)]
mod tests {
    use super::stable_fragment;

    #[test]
    fn the_stable_fragment_is_literal_text_not_what_a_placeholder_holds() {
        assert_eq!(
            stable_fragment("strconv.{e.Func}: parsing {Quote(e.Num)}: {e.Err.Error()}"),
            ": parsing"
        );
        assert_eq!(
            stable_fragment("lease ${lease.id} of ${this.sandboxes[name].owner} expired"),
            "expired"
        );
        assert_eq!(
            stable_fragment("invalid %(type)s value given: %(value)r"),
            "value given:"
        );
        assert_eq!(stable_fragment("id %-08.3f longer than %d"), "longer than");
        assert_eq!(stable_fragment("100%! sure {unclosed"), "! sure {unclosed");
        assert_eq!(stable_fragment("{}"), "{}");
        // Cut to whole words where a placeholder abuts one, and at a word's end past 80.
        assert_eq!(stable_fragment("%s and mark it as %sing"), "and mark it as");
        let long = format!("{} end", "word ".repeat(20));
        assert_eq!(stable_fragment(&long), "word ".repeat(16).trim_end());
    }
}
