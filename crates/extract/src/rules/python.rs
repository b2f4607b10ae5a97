//! Python: `raise`, `assert`, Flask's `abort`, FastAPI's `HTTPException`, error-level logging,
//! `warnings.warn` and `sys.exit` with a message.

use errata_model::{ErrorType, Severity, Template};
use tree_sitter::Node;

use super::{
    assignment_value, concatenation, enclosing, first_named, http_status, is_capitals,
    is_class_name, is_error_class, is_logger, is_message_name, last_segment, log_severity,
    named_children, placeholder, returned_text, returns_of, top_level, Cx, Found, Rules, Splice,
};
use crate::text::{
    brace_template, compact, formatted_by_arguments, printf_template, printf_template_with,
    unescape,
};

pub(crate) struct Python;

const MAX_FOLLOW: u8 = 3;

/// The message, status and code found among a call's arguments.
#[derive(Default)]
struct Args {
    message: Option<Template>,
    status: Option<u16>,
    code: Option<String>,
    positional: usize,
}

impl Rules for Python {
    fn site_kinds(&self) -> &'static [&'static str] {
        &[
            "raise_statement",
            "assert_statement",
            "call",
            "return_statement",
        ]
    }

    /// The `return`s of a `__str__` method: its trigger word is in the method's name, above
    /// them.
    fn sites_within<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Vec<Node<'t>> {
        if !is_str_method(node, cx) {
            return Vec::new();
        }
        returns_of(node, &["function_definition", "lambda", "class_definition"])
    }

    fn site<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        match node.kind() {
            "raise_statement" => self.raise(node, cx),
            "assert_statement" => {
                let parts = named_children(node);
                let msg = self.message(*parts.get(1)?, cx, 0)?;
                Some(
                    Found::new(node, msg, ErrorType::Assertion)
                        .class(Some("AssertionError".to_owned())),
                )
            }
            "call" => self.call(node, cx),
            "return_statement" => self.str_text(node, cx),
            _ => None,
        }
    }

    fn is_function(&self, kind: &str) -> bool {
        matches!(kind, "function_definition" | "lambda")
    }

    fn assigned_value<'t>(&self, stmt: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
        assignment_value(stmt, name, cx, "assignment")
    }

    /// A name in capitals given a value (`MAX_SIZE = …`): a constant by convention.
    fn is_constant(&self, stmt: Node<'_>, cx: &Cx<'_>) -> bool {
        stmt.kind() == "expression_statement"
            && first_named(stmt)
                .filter(|a| a.kind() == "assignment")
                .and_then(|a| a.child_by_field_name("left"))
                .is_some_and(|l| l.kind() == "identifier" && is_capitals(cx.text(l)))
    }

    /// A class's attributes are `self.X` or `Cls.X` in its methods, never a bare `X`.
    fn names_reach_into(&self, scope: Node<'_>) -> bool {
        scope.kind() != "class_definition"
            && scope
                .parent()
                .is_none_or(|p| p.kind() != "class_definition")
    }
}

impl Python {
    /// A `return` of an exception class's `__str__`: the text its exceptions print, such as
    /// subprocess's `"Command '%s' returned non-zero exit status %d." % (self.cmd, …)`. A
    /// return with too little literal text to recognise (`f"{self.code}: {self.msg}"`) is none.
    fn str_text<'t>(&self, ret: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let method = enclosing(ret, &["function_definition", "lambda"])?;
        if !is_str_method(method, cx) {
            return None;
        }
        let class = enclosing_exception_class(method, cx)?;
        let message = self.message(first_named(ret)?, cx, 0)?;
        returned_text(ret, message, ErrorType::Exception, Some(class))
    }

    fn raise<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let mut exc = first_named(node)?;
        for _ in 0..MAX_FOLLOW {
            if exc.kind() != "identifier" {
                break;
            }
            match self.local_value(exc, cx.text(exc), cx) {
                Some(value) => exc = value,
                // `raise StopProcessing`: the class itself.
                None => return class_only(node, exc, None, cx),
            }
        }
        match exc.kind() {
            "call" => self.construction(node, exc, cx).or_else(|| {
                class_only(
                    node,
                    exc.child_by_field_name("function")?,
                    exc.child_by_field_name("arguments"),
                    cx,
                )
            }),
            "attribute" => class_only(node, exc, None, cx),
            _ => None,
        }
    }

    /// The error `exc`, a call of its class, builds, as a site at `node`.
    fn construction<'t>(&self, node: Node<'t>, exc: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let func = exc.child_by_field_name("function")?;
        // `raise error(msg)` of a parameter `error=ImportError`: the class is what the caller
        // passes, by default its default; a parameter without one names no class.
        let class = match parameter_default(exc, cx.text(func), cx) {
            Some(default) => default.filter(|d| is_class_name(last_segment(d))),
            None => Some(cx.text(func)),
        };
        // `raise self.abort(msg)` in a method of `IMAP4`: the class attribute `IMAP4.abort`,
        // as code outside the class names it.
        let class =
            class.map(
                |c| match c.strip_prefix("self.").or_else(|| c.strip_prefix("cls.")) {
                    Some(attr) => enclosing(exc, &["class_definition"])
                        .and_then(|k| k.child_by_field_name("name"))
                        .map_or_else(|| c.to_owned(), |k| format!("{}.{attr}", cx.text(k))),
                    None => c.to_owned(),
                },
            );
        let args = self.args(exc.child_by_field_name("arguments")?, cx);
        let message = args.message?;
        let ty = if args.status.is_some() {
            ErrorType::Http
        } else {
            ErrorType::Exception
        };
        Some(
            Found::new(node, message, ty)
                .class(class.filter(|c| c != "Exception"))
                .status(args.status)
                .code(args.code)
                .consume(exc),
        )
    }

    fn call<'t>(&self, call: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let func = call.child_by_field_name("function")?;
        let fname = cx.text(func);
        let arg_list = call.child_by_field_name("arguments")?;
        if arg_list.kind() != "argument_list" {
            return None;
        }
        let last = last_segment(fname);
        // A factory's `return TOMLDecodeError(f"{msg} …")`, read for a call that passes the
        // message (see `raisers`).
        if cx.call.is_some()
            && is_class_name(last)
            && call
                .parent()
                .is_some_and(|p| p.kind() == "return_statement")
        {
            return self.construction(call, call, cx);
        }
        // An error made in a local that is handed on, not raised: `exc =
        // ConnectionResetError('Connection lost')`, then `fut.set_exception(exc)`; or handed
        // straight to a call. A local that is raised is reported at its `raise`.
        if is_class_name(last) {
            let parent = call.parent()?;
            if parent.kind() == "assignment" && parent.child_by_field_name("right") == Some(call) {
                crate::facts::handed_by_name(parent, cx.src)?;
                return self.construction(call, call, cx);
            }
            // `raise Wrapper(Inner("…"))` is the raise's.
            let in_raise = parent
                .parent()
                .and_then(|c| c.parent())
                .is_some_and(|r| r.kind() == "raise_statement");
            if parent.kind() == "argument_list" && !in_raise {
                return self.construction(call, call, cx);
            }
        }
        // `future.set_exception(bpe)` of a local made of a class that is not named as an error
        // (`BrokenProcessPool`): the error is where the local is made.
        if fname.ends_with("set_exception") {
            let arg = first_named(arg_list).filter(|a| a.kind() == "identifier")?;
            let made = self
                .local_value(arg, cx.text(arg), cx)
                .filter(|v| v.kind() == "call")?;
            let class = made.child_by_field_name("function")?;
            let assignment = made.parent().filter(|p| p.kind() == "assignment")?;
            // A class named as an error is found where it is made (above).
            let class = last_segment(cx.text(class));
            if !class.starts_with(|c: char| c.is_ascii_uppercase()) || is_class_name(class) {
                return None;
            }
            crate::facts::handed_by_name(assignment, cx.src)?;
            return self.construction(made, made, cx);
        }
        // An HTTP error built outside a raise: `return HTTPException(404, "...")`.
        if last == "abort" || last == "HTTPException" {
            let args = self.args(arg_list, cx);
            let status = args.status?;
            return Some(
                Found::new(call, args.message?, ErrorType::Http)
                    .status(Some(status))
                    .class((last != "abort").then(|| fname.to_owned())),
            );
        }
        if fname == "warnings.warn" || fname == "warn" {
            let parts = named_children(arg_list);
            let message = self.message(*parts.first()?, cx, 0)?;
            let category = parts.iter().skip(1).find_map(|a| match a.kind() {
                "keyword_argument" => {
                    let k = cx.text(a.child_by_field_name("name")?);
                    if k != "category" {
                        return None;
                    }
                    Some(cx.text(a.child_by_field_name("value")?).to_owned())
                }
                "identifier" | "attribute" => Some(cx.text(*a).to_owned()),
                _ => None,
            });
            return Some(
                Found::new(call, message, ErrorType::Log)
                    .severity(Severity::Warning)
                    .class(category),
            );
        }
        if fname == "sys.exit" || fname == "exit" {
            let message = self.message(first_named(arg_list)?, cx, 0)?;
            return Some(Found::new(call, message, ErrorType::Exit));
        }
        if func.kind() == "attribute" {
            let receiver = cx.text(func.child_by_field_name("object")?);
            let method = cx.text(func.child_by_field_name("attribute")?);
            // `super().__init__(msg)` or `Base.__init__(self, msg)` in an exception class: the
            // message every exception of the class carries.
            if method == "__init__" {
                let class = enclosing_exception_class(call, cx)?;
                let mut parts = named_children(arg_list);
                if func.child_by_field_name("object")?.kind() != "call" {
                    // `Base.__init__(self, …)`: the first argument is the instance.
                    if parts.is_empty() {
                        return None;
                    }
                    parts.remove(0);
                }
                let message = self.message(*parts.first()?, cx, 0)?;
                return Some(Found::new(call, message, ErrorType::Exception).class(Some(class)));
            }
            // argparse's and optparse's `parser.error(msg)` prints the usage and the message,
            // and exits with status 2.
            if method == "error" && is_parser(receiver, call, cx) {
                let message = self.message(first_named(arg_list)?, cx, 0)?;
                return Some(Found::new(call, message, ErrorType::Exit));
            }
            if let Some(sev) = log_severity(method).filter(|_| is_logger(receiver)) {
                let message = self.message(first_named(arg_list)?, cx, 0)?;
                // `logger.error("socket %r: %r", addr, err)`: logging formats the message with
                // `%` when it is given arguments, and only then.
                let positional = named_children(arg_list)
                    .iter()
                    .filter(|a| a.kind() != "keyword_argument")
                    .count();
                let message = formatted_by_arguments(message, positional > 1);
                let sev = if method == "fatal" || method == "critical" {
                    Severity::Fatal
                } else {
                    sev
                };
                return Some(Found::new(call, message, ErrorType::Log).severity(sev));
            }
        }
        None
    }

    /// The message (first positional, or `msg=`/`message=`/`detail=`), an HTTP status
    /// (`status_code=`, or a leading integer) and an errno code of a call's arguments.
    fn args(&self, list: Node<'_>, cx: &Cx<'_>) -> Args {
        let mut a = Args::default();
        for arg in named_children(list) {
            match arg.kind() {
                "keyword_argument" => {
                    let (Some(k), Some(v)) = (
                        arg.child_by_field_name("name"),
                        arg.child_by_field_name("value"),
                    ) else {
                        continue;
                    };
                    match cx.text(k) {
                        "msg" | "message" | "detail" | "description" | "reason"
                            if a.message.is_none() =>
                        {
                            a.message = self.message(v, cx, 0);
                        }
                        "status_code" | "status" | "code" if a.status.is_none() => {
                            a.status = status_of(v, cx);
                        }
                        _ => {}
                    }
                }
                "list_splat" | "dictionary_splat" => a.positional += 1,
                _ => {
                    a.positional += 1;
                    if a.message.is_some() {
                        continue;
                    }
                    let t = cx.text(arg);
                    if let Some(code) = t.strip_prefix("errno.") {
                        a.code = Some(code.to_owned());
                        continue;
                    }
                    if a.positional == 1 {
                        if let Some(s) = status_of(arg, cx) {
                            a.status = Some(s);
                            continue;
                        }
                    }
                    a.message = self.message(arg, cx, 0);
                    // Only the first argument (after an errno or a status) is the message, or
                    // the second after the object the error is about: `ArgumentError(action,
                    // msg)`, `ParseError(self, "…")`.
                    if a.message.is_none() && !(a.positional == 1 && is_subject(arg)) {
                        break;
                    }
                }
            }
        }
        a
    }

    /// The message an expression builds: a literal, an f-string, `%`-formatting, `.format()`,
    /// concatenation, or a local holding one of those.
    fn message(&self, node: Node<'_>, cx: &Cx<'_>, depth: u8) -> Option<Template> {
        match node.kind() {
            "string" => Some(self.string(node, cx, depth)),
            "concatenated_string" => {
                let mut t = Template::default();
                for s in named_children(node) {
                    t.append(self.string(s, cx, depth));
                }
                Some(t)
            }
            "parenthesized_expression" => self.message(first_named(node)?, cx, depth),
            // `"a" if c else "b"`: the body, the condition, the alternative.
            "conditional_expression" => match named_children(node)[..] {
                [body, _, orelse] => cx.either(
                    self.message(body, cx, depth),
                    self.message(orelse, cx, depth),
                ),
                _ => None,
            },
            "binary_operator" => {
                let op = cx.text(node.child_by_field_name("operator")?);
                let left = node.child_by_field_name("left")?;
                match op {
                    "%" => {
                        let l = self.message(left, cx, depth)?;
                        if l.has_placeholders() {
                            return None;
                        }
                        if cx.call.is_none() {
                            return Some(printf_template(&l.message()));
                        }
                        // Read for a call of a raiser: a `%s` of a parameter is the message
                        // the call passes (`'%s: line %d column %d' % (msg, lineno, colno)`).
                        let right = node.child_by_field_name("right")?;
                        let values = match right.kind() {
                            "tuple" => named_children(right),
                            _ => vec![right],
                        };
                        Some(printf_template_with(&l.message(), |i, directive| {
                            let v = values.get(i).filter(|v| v.kind() == "identifier")?;
                            (directive == "%s")
                                .then(|| self.message(*v, cx, depth))
                                .flatten()
                        }))
                    }
                    "+" => concatenation(node, cx, Splice::Brace, |n| self.message(n, cx, depth)),
                    _ => None,
                }
            }
            "call" => {
                let func = node.child_by_field_name("function")?;
                if let Some(at) = gettext_message_arg(cx.text(func)) {
                    // A translated message: `_("…")`, `gettext("…")`, the singular of
                    // `ngettext("…", "…", n)`.
                    let args = node.child_by_field_name("arguments")?;
                    let arg = *named_children(args).get(at)?;
                    return self.message(arg, cx, depth);
                }
                // `.format(…)`, and `.format_map({…})` (packaging's `"{field} is a required
                // field"`).
                if func.kind() != "attribute"
                    || !matches!(
                        cx.text(func.child_by_field_name("attribute")?),
                        "format" | "format_map"
                    )
                {
                    return None;
                }
                let obj = self.message(func.child_by_field_name("object")?, cx, depth)?;
                if obj.has_placeholders() {
                    return None;
                }
                Some(brace_template(&obj.message()))
            }
            "identifier" if depth < MAX_FOLLOW => {
                self.local_message(node, cx, &|v| self.message(v, cx, depth + 1))
            }
            _ => None,
        }
    }
}

impl Python {
    /// A string literal. Read for a call of a raiser, an f-string's `{msg}` is the message the
    /// call passes (`f"{msg} (at {coord(src, pos)})"`).
    fn string(&self, node: Node<'_>, cx: &Cx<'_>, depth: u8) -> Template {
        string_template(node, cx, |part| {
            let mut c = part.walk();
            let inner: Vec<Node<'_>> = part.named_children(&mut c).collect();
            match inner[..] {
                [e] if e.kind() == "identifier" => {
                    // Read for a call of a raiser, a parameter is what the call passes.
                    if cx.call.is_some() {
                        if let Some(t) = self.message(e, cx, depth) {
                            return Some(t);
                        }
                    }
                    self.constant_text(e, cx)
                }
                _ => None,
            }
        })
    }

    /// The text of a constant named in capitals whose value is a literal: `{MAX_SIZE}` in an
    /// f-string is what `MAX_SIZE = 1024` gives it.
    fn constant_text(&self, name: Node<'_>, cx: &Cx<'_>) -> Option<Template> {
        let text = cx.text(name);
        if !is_capitals(text) {
            return None;
        }
        let value = self.local_value(name, text, cx)?;
        match value.kind() {
            "integer" | "float" => Some(Template::literal(cx.text(value))),
            "string" => {
                Some(string_template(value, cx, |_| None)).filter(|t| !t.has_placeholders())
            }
            _ => None,
        }
    }
}

/// A string literal: its text with escapes resolved (unless raw), and for an f-string each
/// interpolation a placeholder as written, or what `splice` makes of it.
fn string_template(
    node: Node<'_>,
    cx: &Cx<'_>,
    splice: impl Fn(Node<'_>) -> Option<Template>,
) -> Template {
    let mut t = Template::default();
    let mut raw = false;
    let mut fstring = false;
    let mut c = node.walk();
    for part in node.children(&mut c) {
        match part.kind() {
            "string_start" => {
                let prefix = cx.text(part).to_ascii_lowercase();
                raw = prefix.contains('r');
                fstring = prefix.contains('f');
            }
            "string_content" => {
                let mut text = cx.text(part).to_owned();
                if fstring {
                    text = text.replace("{{", "{").replace("}}", "}");
                }
                if !raw {
                    text = unescape(&text);
                }
                t.push_literal(&text);
            }
            "escape_sequence" if !raw => t.push_literal(&unescape(cx.text(part))),
            "interpolation" => match splice(part) {
                Some(inner) => t.append(inner),
                None => t.push_placeholder(compact(part, cx.src)),
            },
            _ => {}
        }
    }
    t
}

/// Whether a function is a `__str__` method, which words what an exception class prints.
fn is_str_method(function: Node<'_>, cx: &Cx<'_>) -> bool {
    function.kind() == "function_definition"
        && function
            .child_by_field_name("name")
            .is_some_and(|n| cx.text(n) == "__str__")
}

/// Whether `receiver` of an `error(…)` call is a command-line parser: a name ending in
/// `parser` (`parser`, `self.arg_parser`), or `self` in a class whose name ends in `Parser`.
fn is_parser(receiver: &str, call: Node<'_>, cx: &Cx<'_>) -> bool {
    if receiver == "self" {
        return enclosing(call, &["class_definition"])
            .and_then(|class| class.child_by_field_name("name"))
            .is_some_and(|name| cx.text(name).ends_with("Parser"));
    }
    last_segment(receiver)
        .to_ascii_lowercase()
        .ends_with("parser")
}

/// The name of the class a node is in, when one of its bases is an exception or warning class
/// (a name ending in `Error`, `Exception` or `Warning`).
fn enclosing_exception_class(node: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let class = enclosing(node, &["class_definition"])?;
    let bases = class.child_by_field_name("superclasses")?;
    let is_exception = named_children(bases).iter().any(|b| {
        let last = last_segment(cx.text(*b));
        is_error_class(last) || last.ends_with("Warning")
    });
    if !is_exception {
        return None;
    }
    Some(cx.text(class.child_by_field_name("name")?).to_owned())
}

/// Which argument of a gettext-style call is the message: `_`, `gettext`, `ngettext` and their
/// lazy and `N_` forms take it first; `pgettext` and `npgettext` after a context.
fn gettext_message_arg(func: &str) -> Option<usize> {
    match last_segment(func) {
        "_" | "N_" | "gettext" | "ugettext" | "gettext_lazy" | "ugettext_lazy" | "lazy_gettext"
        | "gettext_noop" | "ngettext" | "ungettext" | "ngettext_lazy" | "lazy_ngettext" => Some(0),
        "pgettext" | "pgettext_lazy" | "npgettext" | "npgettext_lazy" => Some(1),
        _ => None,
    }
}

/// Whether an argument names the object an error is about rather than saying anything: a
/// plain name or attribute (`self`, `action`, `self.node`), which an exception class such as
/// argparse's `ArgumentError(action, message)` takes before its message.
fn is_subject(arg: Node<'_>) -> bool {
    matches!(arg.kind(), "identifier" | "attribute" | "none")
}

fn status_of(node: Node<'_>, cx: &Cx<'_>) -> Option<u16> {
    http_status(node, cx, "integer", "attribute")
}

/// A raise of an error class without a message of its own: `raise SMTPServerDisconnected`,
/// `raise SMTPAuthenticationError(code, resp)`, `raise DuplicateSectionError(section, source,
/// lineno)`. Python prints the class, then its arguments: nothing for none, the one argument's
/// text, or the tuple of several. Such a record has too little literal text to be matched by
/// its message; a trace whose frame is at its line finds it. A raise that hands a message on
/// (`raise ValueError(msg)`) is left to the callers that pass the message (see `raisers`).
fn class_only<'t>(
    node: Node<'t>,
    class: Node<'t>,
    args: Option<Node<'t>>,
    cx: &Cx<'_>,
) -> Option<Found<'t>> {
    let name = cx.text(class);
    if !is_class_name(last_segment(name)) {
        return None;
    }
    let args: Vec<Node<'t>> = match args {
        Some(list) if list.kind() == "argument_list" => named_children(list),
        Some(_) => return None,
        None => Vec::new(),
    };
    // A keyword says what its value is: `stderr=stderr` is no message, `msg=text` is.
    let handed_on = |a: &Node<'t>| match a.kind() {
        "keyword_argument" => a.child_by_field_name("name").is_some_and(|k| {
            matches!(
                cx.text(k),
                "msg" | "message" | "detail" | "description" | "reason" | "text"
            )
        }),
        "identifier" | "attribute" => is_message_name(cx.text(*a)),
        _ => true,
    };
    if args.iter().any(handed_on) {
        // A builtin class prints what it is given: a message handed on is the callers' to
        // word (see `raisers`). A class of the project words its own (urllib's `HTTPError(url,
        // code, msg, hdrs, fp)` prints "HTTP Error 404: Not Found", by its `__str__` in
        // another file): the raise is told by its class, and a trace's frame finds it.
        // A class of this file is read with its `__init__` (see `raisers`): a message it is
        // handed is the callers' too.
        if is_builtin_exception(last_segment(name))
            || name.contains('(')
            || class_here(node, last_segment(name), cx).is_some()
        {
            return None;
        }
        let found = Found::new(
            node,
            Template::literal(last_segment(name)),
            ErrorType::Exception,
        );
        return Some(found.class(Some(name.to_owned())));
    }
    // A class of this file that words its own message (its `__init__` or `__str__`: configparser's
    // `DuplicateSectionError(section, source, lineno)` says "While reading from …") prints
    // neither the argument nor the tuple: the raise is told by its class alone.
    // A class given keywords has an `__init__` of its own to take them, which words it too.
    let own_words = args.iter().any(|a| a.kind() == "keyword_argument")
        || (!args.is_empty() && words_its_message(node, last_segment(name), cx));
    let message = match args.as_slice() {
        _ if own_words => Template::literal(last_segment(name)),
        [] => Template::literal(last_segment(name)),
        [one] => placeholder(*one, cx, Splice::Brace),
        several => {
            let mut t = Template::literal("(");
            for (i, a) in several.iter().enumerate() {
                if i > 0 {
                    t.push_literal(", ");
                }
                t.append(placeholder(*a, cx, Splice::Brace));
            }
            t.push_literal(")");
            t
        }
    };
    Some(Found::new(node, message, ErrorType::Exception).class(Some(name.to_owned())))
}

/// Whether `name` is one of Python's builtin exception or warning classes, which print the
/// arguments they are given.
fn is_builtin_exception(name: &str) -> bool {
    const BUILTIN: &[&str] = &[
        "ArithmeticError",
        "AssertionError",
        "AttributeError",
        "BaseException",
        "BaseExceptionGroup",
        "BlockingIOError",
        "BrokenPipeError",
        "BufferError",
        "BytesWarning",
        "ChildProcessError",
        "ConnectionAbortedError",
        "ConnectionError",
        "ConnectionRefusedError",
        "ConnectionResetError",
        "DeprecationWarning",
        "EOFError",
        "EncodingWarning",
        "EnvironmentError",
        "Exception",
        "ExceptionGroup",
        "FileExistsError",
        "FileNotFoundError",
        "FloatingPointError",
        "FutureWarning",
        "GeneratorExit",
        "IOError",
        "ImportError",
        "ImportWarning",
        "IndentationError",
        "IndexError",
        "InterruptedError",
        "IsADirectoryError",
        "KeyError",
        "KeyboardInterrupt",
        "LookupError",
        "MemoryError",
        "ModuleNotFoundError",
        "NameError",
        "NotADirectoryError",
        "NotImplementedError",
        "OSError",
        "OverflowError",
        "PendingDeprecationWarning",
        "PermissionError",
        "ProcessLookupError",
        "RecursionError",
        "ReferenceError",
        "ResourceWarning",
        "RuntimeError",
        "RuntimeWarning",
        "StopAsyncIteration",
        "StopIteration",
        "SyntaxError",
        "SyntaxWarning",
        "SystemError",
        "SystemExit",
        "TabError",
        "TimeoutError",
        "TypeError",
        "UnboundLocalError",
        "UnicodeDecodeError",
        "UnicodeEncodeError",
        "UnicodeError",
        "UnicodeTranslateError",
        "UnicodeWarning",
        "UserWarning",
        "ValueError",
        "Warning",
        "ZeroDivisionError",
    ];
    BUILTIN.contains(&name)
}

/// The class `name` defined at the top level of the file holding `node`.
fn class_here<'t>(node: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
    top_level(node).into_iter().find_map(|top| {
        undecorated(top).filter(|c| {
            c.kind() == "class_definition"
                && c.child_by_field_name("name").map(|n| cx.text(n)) == Some(name)
        })
    })
}

/// Whether the class `name`, defined at the top level of the file holding `node`, defines
/// `__init__` or `__str__`: its message is its own wording, not its arguments.
fn words_its_message(node: Node<'_>, name: &str, cx: &Cx<'_>) -> bool {
    class_here(node, name, cx)
        .and_then(|c| c.child_by_field_name("body"))
        .is_some_and(|body| {
            named_children(body).into_iter().any(|m| {
                undecorated(m).is_some_and(|m| {
                    m.kind() == "function_definition"
                        && m.child_by_field_name("name")
                            .is_some_and(|n| matches!(cx.text(n), "__init__" | "__str__"))
                })
            })
        })
}

/// A definition without its decorators (`@property def x`, `@dataclass class C`).
fn undecorated(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "decorated_definition" => node.child_by_field_name("definition"),
        _ => Some(node),
    }
}

/// When `name` is a parameter of the function around `node`: its default value's text, if it
/// has one (`error=ImportError`).
fn parameter_default<'s>(node: Node<'_>, name: &str, cx: &Cx<'s>) -> Option<Option<&'s str>> {
    let function = enclosing(node, &["function_definition", "lambda"])?;
    let params = function.child_by_field_name("parameters")?;
    named_children(params)
        .into_iter()
        .find_map(|p| match p.kind() {
            "identifier" if cx.text(p) == name => Some(None),
            "typed_parameter" => named_children(p)
                .first()
                .copied()
                .filter(|n| n.kind() == "identifier" && cx.text(*n) == name)
                .map(|_| None),
            "default_parameter" | "typed_default_parameter" => {
                let n = p.child_by_field_name("name")?;
                (cx.text(n) == name).then(|| p.child_by_field_name("value").map(|v| cx.text(v)))
            }
            _ => None,
        })
}
