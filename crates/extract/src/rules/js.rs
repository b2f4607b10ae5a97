//! TypeScript and JavaScript: `throw`, `Promise.reject`, errors handed to callbacks, HTTP
//! responses of Express, Fastify and Hono, and error-level logging.

use errata_model::{http_status_from_name, http_status_from_number, ErrorType, Severity, Template};
use tree_sitter::Node;

use super::{
    assignment_value, concatenation, declarator_value, enclosing, extended_class, first_named,
    http_status, is_capitals, is_error_class, is_logger, last_segment, log_severity,
    named_children, placeholder, top_level, Cx, Found, Rules, Splice, LOCAL_REACH,
};
use crate::text::{compact, formatted_by_arguments, strip_quotes, unescape};

pub(crate) struct Js;

/// The arguments after a log's title that its message is made of.
const MAX_LOG_ARGUMENTS: usize = 6;

/// How many times a message is followed through locals before giving up.
const MAX_FOLLOW: u8 = 3;

/// What an expression that builds an error carries.
struct ErrorValue<'t> {
    class: Option<String>,
    template: Template,
    code: Option<String>,
    status: Option<u16>,
    consumed: Vec<Node<'t>>,
}

impl Rules for Js {
    fn site_kinds(&self) -> &'static [&'static str] {
        &[
            "throw_statement",
            "call_expression",
            "new_expression",
            "assignment_expression",
        ]
    }

    fn site<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        match node.kind() {
            "throw_statement" => {
                let expr = first_named(node)?;
                let v = match self.error_value(expr, cx, 0) {
                    // `err.code = 'ELOCKED'` between building the error and throwing it.
                    Some(mut v) if v.code.is_none() && expr.kind() == "identifier" => {
                        v.code = code_set_before(node, cx.text(expr), cx);
                        v
                    }
                    Some(v) => v,
                    // `throw "message"` and `` throw `message ${x}` ``; or an error whose
                    // message was rewritten above: `err.message = `Could not read: ${err}``.
                    None => ErrorValue {
                        class: None,
                        template: self
                            .literal_template(expr, cx)
                            .or_else(|| self.message_set_before(node, expr, cx))?,
                        code: (expr.kind() == "identifier")
                            .then(|| code_set_before(node, cx.text(expr), cx))
                            .flatten(),
                        status: None,
                        consumed: Vec::new(),
                    },
                };
                Some(self.found(node, v, ErrorType::Exception))
            }
            "call_expression" => self.call_site(node, cx),
            // `this.message = 'OTP required for authentication'` in the constructor of an error
            // class: the message every error of the class carries, as with `super(msg)`.
            "assignment_expression" => {
                let left = node.child_by_field_name("left")?;
                if cx.text(left) != "this.message" {
                    return None;
                }
                let class = enclosing_error_class(node, cx)?;
                let message = self.message(node.child_by_field_name("right")?, cx, 0)?;
                let code = constructor_code(node, cx)
                    .or_else(|| code_set_before(node.parent()?, "this", cx))
                    .or_else(|| inherited_code(node, cx));
                Some(
                    Found::new(node, message, ErrorType::Exception)
                        .class(Some(class))
                        .code(code),
                )
            }
            "new_expression" => {
                // An error built and handed on rather than thrown: `reject(new Error(..))`,
                // `callback(new Error(..))`, `next(new HttpError(404, ..))`, `return new Error(..)`.
                let ctor = cx.text(node.child_by_field_name("constructor")?);
                let last = last_segment(ctor);
                if !is_error_class(last) {
                    return None;
                }
                // `Object.assign(new Error(..), {code})` is the error that is handed on, with
                // its code; kept in a local, it is reported where the local is thrown.
                let mut value = node;
                let mut parent = node.parent()?;
                if parent.kind() == "arguments" {
                    let call = parent.parent()?;
                    let callee = call.child_by_field_name("function").map(|f| cx.text(f));
                    if callee == Some("Object.assign") {
                        value = call;
                        parent = call.parent()?;
                    }
                }
                // `const err = new Error(..); err.code = 'EX'; return err`: an error built in
                // a local that is handed on, not thrown (a thrown local is reported at its
                // `throw`).
                if parent.kind() == "variable_declarator" {
                    let name = cx.text(parent.child_by_field_name("name")?);
                    let stmt = parent.parent()?;
                    if thrown_by_name(stmt, name, cx) {
                        return None;
                    }
                    let mut v = self.error_value(value, cx, 0)?;
                    if v.code.is_none() {
                        let after = std::iter::successors(stmt.next_named_sibling(), |s| {
                            s.next_named_sibling()
                        })
                        .take(LOCAL_REACH);
                        v.code = code_assigned(after, &format!("{name}.code"), cx);
                    }
                    return Some(self.found(value, v, ErrorType::Exception));
                }
                if !matches!(
                    parent.kind(),
                    "arguments" | "return_statement" | "arrow_function"
                ) {
                    return None;
                }
                let v = self.error_value(value, cx, 0)?;
                Some(self.found(value, v, ErrorType::Exception))
            }
            _ => None,
        }
    }

    fn is_function(&self, kind: &str) -> bool {
        matches!(
            kind,
            "function_declaration"
                | "function_expression"
                | "function"
                | "arrow_function"
                | "method_definition"
                | "generator_function_declaration"
                | "generator_function"
        )
    }

    fn is_constant(&self, stmt: Node<'_>, cx: &Cx<'_>) -> bool {
        stmt.kind() == "lexical_declaration"
            && stmt
                .child_by_field_name("kind")
                .is_some_and(|k| cx.text(k) == "const")
    }

    fn assigned_value<'t>(&self, stmt: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
        match stmt.kind() {
            "lexical_declaration" | "variable_declaration" => declarator_value(stmt, name, cx),
            _ => assignment_value(stmt, name, cx, "assignment_expression"),
        }
    }
}

impl Js {
    fn found<'t>(&self, at: Node<'t>, v: ErrorValue<'t>, ty: ErrorType) -> Found<'t> {
        let ty = if v.status.is_some() {
            ErrorType::Http
        } else {
            ty
        };
        let mut f = Found::new(at, v.template, ty)
            .class(v.class)
            .code(v.code)
            .status(v.status);
        for n in v.consumed {
            f = f.consume(n);
        }
        f
    }

    /// An expression that evaluates to an error with a message of its own.
    fn error_value<'t>(&self, expr: Node<'t>, cx: &Cx<'_>, depth: u8) -> Option<ErrorValue<'t>> {
        let expr = unwrap(expr);
        match expr.kind() {
            "new_expression" => {
                let ctor = cx.text(expr.child_by_field_name("constructor")?);
                let args = expr.child_by_field_name("arguments");
                let mut v = self.args_value(args, cx)?;
                if last_segment(ctor).starts_with("ERR_") {
                    v.code.get_or_insert_with(|| last_segment(ctor).to_owned());
                }
                v.class = (ctor != "Error").then(|| ctor.to_owned());
                v.consumed.push(expr);
                Some(v)
            }
            "call_expression" => {
                let func = expr.child_by_field_name("function")?;
                let fname = cx.text(func);
                let args = expr.child_by_field_name("arguments");
                if fname == "Object.assign" {
                    let args = named_children(args?);
                    let mut v = self.error_value(*args.first()?, cx, depth)?;
                    for extra in &args[1..] {
                        if extra.kind() == "object" {
                            let (_, code, status) = self.object_props(*extra, cx);
                            v.code = v.code.or(code);
                            v.status = v.status.or(status);
                        }
                    }
                    v.consumed.push(expr);
                    return Some(v);
                }
                if fname.starts_with("Promise.") || matches!(func.kind(), "call_expression") {
                    return None;
                }
                // A factory: `createError(404, msg)`, `this.usageError(msg)`, `TypeError(msg)`.
                let mut v = self.args_value(args, cx)?;
                if v.code.is_none() && func.kind() == "identifier" {
                    v.code = args.and_then(|a| builder_code(expr, fname, a, cx));
                }
                let last = last_segment(fname);
                let is_class = last.starts_with(|c: char| c.is_ascii_uppercase())
                    && (last.ends_with("Error") || last.ends_with("Exception"));
                v.class = (is_class && last != "Error").then(|| fname.to_owned());
                if last.starts_with("ERR_") {
                    v.code.get_or_insert_with(|| last.to_owned());
                }
                v.consumed.push(expr);
                Some(v)
            }
            "identifier" if depth < MAX_FOLLOW => {
                let value = self.local_value(expr, cx.text(expr), cx)?;
                self.error_value(value, cx, depth + 1)
            }
            _ => None,
        }
    }

    /// The message, status and code among a constructor's or factory's arguments.
    fn args_value<'t>(&self, args: Option<Node<'t>>, cx: &Cx<'_>) -> Option<ErrorValue<'t>> {
        let mut template = None;
        let mut status = None;
        let mut code = None;
        for arg in named_children(args?) {
            let arg = unwrap(arg);
            match arg.kind() {
                "number" => status = status.or_else(|| http_status_from_number(cx.text(arg))),
                "member_expression" if status.is_none() => {
                    let t = cx.text(arg);
                    if t.to_ascii_lowercase().contains("status") {
                        status = http_status_from_name(t);
                    }
                }
                "object" => {
                    let (m, c, s) = self.object_props(arg, cx);
                    if template.is_none() {
                        template = m;
                    }
                    code = code.or(c);
                    status = status.or(s);
                }
                _ if template.is_none() => template = self.message(arg, cx, 0),
                _ => {}
            }
        }
        Some(ErrorValue {
            class: None,
            template: template?,
            code,
            status,
            consumed: Vec::new(),
        })
    }

    /// `message`/`error`/`detail`, `code` and `status` of an object literal.
    fn object_props(
        &self,
        obj: Node<'_>,
        cx: &Cx<'_>,
    ) -> (Option<Template>, Option<String>, Option<u16>) {
        let (mut msg, mut code, mut status) = (None, None, None);
        for pair in named_children(obj) {
            if pair.kind() != "pair" {
                continue;
            }
            let (Some(k), Some(v)) = (
                pair.child_by_field_name("key"),
                pair.child_by_field_name("value"),
            ) else {
                continue;
            };
            let key = strip_quotes(cx.text(k));
            let v = unwrap(v);
            match key {
                "message" | "error" | "detail" | "msg" | "reason" | "description" | "title"
                    if msg.is_none() =>
                {
                    msg = if v.kind() == "object" {
                        self.object_props(v, cx).0
                    } else {
                        self.message(v, cx, 0)
                    };
                }
                "code" | "errno" | "errorCode" if code.is_none() => {
                    if matches!(v.kind(), "string" | "number") {
                        code = Some(unescape(strip_quotes(cx.text(v))));
                    }
                }
                "status" | "statusCode" | "httpStatus" if status.is_none() => {
                    status = http_status_from_number(cx.text(v))
                        .or_else(|| http_status_from_name(cx.text(v)));
                }
                _ => {}
            }
        }
        (msg, code, status)
    }

    /// A string literal or template, ignoring concatenation and locals.
    fn literal_template(&self, node: Node<'_>, cx: &Cx<'_>) -> Option<Template> {
        let node = unwrap(node);
        match node.kind() {
            "string" => Some(Template::literal(unescape(strip_quotes(cx.text(node))))),
            "template_string" => {
                let mut t = Template::default();
                let mut c = node.walk();
                for part in node.children(&mut c) {
                    match part.kind() {
                        "string_fragment" => t.push_literal(cx.text(part)),
                        "escape_sequence" => t.push_literal(&unescape(cx.text(part))),
                        "template_substitution" => match self.constant_text(part, cx) {
                            Some(text) => t.push_literal(&text),
                            None => t.push_placeholder(compact(part, cx.src)),
                        },
                        _ => {}
                    }
                }
                Some(t)
            }
            _ => None,
        }
    }

    /// The text of `${NAME}` when `NAME`, in capitals, is a constant whose value is a string
    /// without substitutions or a number: `const LIMIT = 'ten'` makes `${LIMIT}` read `ten`.
    fn constant_text(&self, substitution: Node<'_>, cx: &Cx<'_>) -> Option<String> {
        let name = first_named(substitution).filter(|e| e.kind() == "identifier")?;
        let text = cx.text(name);
        if !is_capitals(text) {
            return None;
        }
        let value = unwrap(self.local_value(name, text, cx)?);
        match value.kind() {
            "number" => Some(cx.text(value).to_owned()),
            "string" => Some(unescape(strip_quotes(cx.text(value)))),
            _ => None,
        }
    }

    /// The message an expression builds: a literal, a template, a concatenation, or a local
    /// holding one of those.
    fn message(&self, node: Node<'_>, cx: &Cx<'_>, depth: u8) -> Option<Template> {
        let node = unwrap(node);
        match node.kind() {
            "string" | "template_string" => self.literal_template(node, cx),
            "binary_expression" => {
                concatenation(node, cx, Splice::Dollar, |n| self.message(n, cx, depth))
            }
            "identifier" if depth < MAX_FOLLOW => {
                self.local_message(node, cx, &|v| self.message(v, cx, depth + 1))
            }
            "call_expression" => self.joined(node, cx, depth),
            "ternary_expression" => cx.either(
                self.message(node.child_by_field_name("consequence")?, cx, depth),
                self.message(node.child_by_field_name("alternative")?, cx, depth),
            ),
            _ => None,
        }
    }

    /// The message given to the error `expr` (a name) by `name.message = …` within the few
    /// statements above `stmt`.
    fn message_set_before(&self, stmt: Node<'_>, expr: Node<'_>, cx: &Cx<'_>) -> Option<Template> {
        if expr.kind() != "identifier" {
            return None;
        }
        let target = format!("{}.message", cx.text(expr));
        statements_before(stmt)
            .find_map(|s| assignment_value(s, &target, cx, "assignment_expression"))
            .and_then(|value| self.message(value, cx, 0))
    }

    /// `[`Missing script: "${event}"`, '', 'To see a list of scripts, run:'].join('\n')`: the
    /// lines of a message given as an array and joined. The first must be a message; another
    /// that is not becomes a placeholder.
    fn joined(&self, call: Node<'_>, cx: &Cx<'_>, depth: u8) -> Option<Template> {
        let func = call.child_by_field_name("function")?;
        if func.kind() != "member_expression"
            || cx.text(func.child_by_field_name("property")?) != "join"
        {
            return None;
        }
        let array = unwrap(func.child_by_field_name("object")?);
        if array.kind() != "array" {
            return None;
        }
        let separator = match named_children(call.child_by_field_name("arguments")?)[..] {
            [] => ",".to_owned(),
            [sep] => {
                let t = self.literal_template(sep, cx)?;
                if t.has_placeholders() {
                    return None;
                }
                t.message()
            }
            _ => return None,
        };
        let items = named_children(array);
        let mut t = self.message(*items.first()?, cx, depth)?;
        for item in &items[1..] {
            t.push_literal(&separator);
            t.append(
                self.message(*item, cx, depth)
                    .unwrap_or_else(|| placeholder(*item, cx, Splice::Dollar)),
            );
        }
        Some(t)
    }

    /// `super(msg)` in the constructor of an error class (`class ConfigError extends Error`):
    /// the message every error of the class carries, whatever its callers pass.
    fn error_class_message<'t>(&self, call: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let class = enclosing_error_class(call, cx)?;
        let arg = first_named(call.child_by_field_name("arguments")?)?;
        let message = self.message(arg, cx, 0)?;
        Some(
            Found::new(call, message, ErrorType::Exception)
                .class(Some(class))
                .code(constructor_code(call, cx)),
        )
    }

    fn call_site<'t>(&self, call: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let func = call.child_by_field_name("function")?;
        let args = call.child_by_field_name("arguments");
        let fname = cx.text(func);
        if func.kind() == "super" {
            return self.error_class_message(call, cx);
        }
        if fname == "Promise.reject" {
            let arg = first_named(args?)?;
            // `const er = new Error(…); …; return Promise.reject(er)`: the declaration is
            // the site, and says where the error goes.
            if arg.kind() == "identifier"
                && self
                    .local_value(arg, cx.text(arg), cx)
                    .is_some_and(|v| v.kind() == "new_expression")
            {
                return None;
            }
            let v = self.error_value(arg, cx, 0)?;
            return Some(self.found(call, v, ErrorType::Exception));
        }
        if func.kind() != "member_expression" {
            return None;
        }
        let object = func.child_by_field_name("object")?;
        let method = cx.text(func.child_by_field_name("property")?);
        let arg_list = args.map(named_children).unwrap_or_default();

        // res.status(404).json({..}), reply.code(500).send(..)
        if matches!(method, "json" | "send" | "jsonp" | "end") && object.kind() == "call_expression"
        {
            if let Some(status) = self.status_call(object, cx) {
                let template = self.response_message(arg_list.first().copied(), cx)?;
                return Some(
                    Found::new(call, template, ErrorType::Http)
                        .status(Some(status))
                        .consume(object),
                );
            }
        }
        // c.json({ error: ".." }, 404)
        if method == "json" && arg_list.len() >= 2 {
            if let Some(status) = status_of(arg_list[1], cx).filter(|s| *s >= 400) {
                let template = self.response_message(arg_list.first().copied(), cx)?;
                return Some(Found::new(call, template, ErrorType::Http).status(Some(status)));
            }
        }
        // `process.emitWarning(msg)`, `this.queueWarning(key, msg)`: a warning the program
        // prints, worded by the first argument with text of its own.
        if method.len() > "Warning".len() && method.ends_with("Warning") {
            let worded = |a: Node<'_>| self.message(a, cx, 0).filter(|t| t.literal_alnum() >= 3);
            let first = arg_list.first().and_then(|a| worded(*a));
            let by_first = first.is_some();
            let template = first.or_else(|| arg_list.get(1).and_then(|a| worded(*a)))?;
            let mut found = Found::new(call, template, ErrorType::Log).severity(Severity::Warning);
            // Node's `emitWarning(msg, type, code)`: the type names the warning
            // (`UnboundedCacheWarning`), and the code is its `code`.
            if method == "emitWarning" && by_first {
                // A literal, or a name bound to one: a local, or a parameter of the
                // helper whose call is read (lru-cache's `emitWarning(msg, type, code)`).
                let text = |i: usize| {
                    let mut a = *arg_list.get(i)?;
                    for _ in 0..3 {
                        if a.kind() != "identifier" {
                            break;
                        }
                        a = self.local_value(a, cx.text(a), cx)?;
                    }
                    (a.kind() == "string").then(|| strip_quotes(cx.text(a)).to_owned())
                };
                let word = |t: &String| t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                let class = text(1).filter(|t| t.ends_with("Warning") && word(t));
                let code = text(2).filter(|t| {
                    word(t) && t.chars().all(|c| !c.is_ascii_lowercase()) && t.len() > 2
                });
                found = found.class(class).code(code);
            }
            return Some(found);
        }
        // console.error(..), logger.warn(..), this.logger.fatal(..)
        if let Some(severity) = log_severity(method).filter(|_| is_logger(cx.text(object))) {
            // A log's arguments are joined into its line: a conditional among them is a part.
            let template = cx.as_part(|| self.log_line(&arg_list, cx))?;
            let severity = if method.eq_ignore_ascii_case("fatal") {
                Severity::Fatal
            } else {
                severity
            };
            return Some(Found::new(call, template, ErrorType::Log).severity(severity));
        }
        None
    }

    /// The line a log call writes of its arguments.
    fn log_line(&self, arg_list: &[Node<'_>], cx: &Cx<'_>) -> Option<Template> {
        let (at, template) = arg_list
            .iter()
            .take(3)
            .enumerate()
            // `log.error('', 'Exit handler never called!')`: an empty title prints nothing.
            .find_map(|(i, a)| {
                Some((i, self.message(*a, cx, 0)?)).filter(|(_, t)| !t.message().is_empty())
            })?;
        let followed = at + 1 < arg_list.len();
        let template = match log_title(&template).filter(|_| followed) {
            // npm's logs (proc-log, npmlog) take a title first: `log.warn('config',
            // `ignoring ${path}`)` prints `config ignoring …`, and `log.error('stack',
            // err.stack)` `stack ` and the stack, as util.format joins its arguments.
            Some(title) => {
                let mut joined = Template::literal(title);
                for &next in arg_list.iter().skip(at + 1).take(MAX_LOG_ARGUMENTS) {
                    joined.push_literal(" ");
                    joined.append(
                        self.message(next, cx, 0)
                            .unwrap_or_else(|| placeholder(next, cx, Splice::Dollar)),
                    );
                }
                joined
            }
            // `console.error("cannot open %s: %s", path, err)`: console (util.format),
            // pino and winston format the message with the arguments after it.
            None => formatted_by_arguments(template, followed),
        };
        Some(template)
    }

    /// The status of `res.status(404)` / `reply.code(500)`, when it is an error status.
    fn status_call(&self, call: Node<'_>, cx: &Cx<'_>) -> Option<u16> {
        let func = call.child_by_field_name("function")?;
        if func.kind() != "member_expression" {
            return None;
        }
        let m = cx.text(func.child_by_field_name("property")?);
        if !matches!(m, "status" | "code") {
            return None;
        }
        let arg = first_named(call.child_by_field_name("arguments")?)?;
        status_of(arg, cx).filter(|s| *s >= 400)
    }

    fn response_message(&self, body: Option<Node<'_>>, cx: &Cx<'_>) -> Option<Template> {
        let body = unwrap(body?);
        if body.kind() == "object" {
            self.object_props(body, cx).0
        } else {
            self.message(body, cx, 0)
        }
    }
}

/// A logger's first argument that is a title rather than a message: one short word of
/// literal text (`'config'`, `'deprecated'`, `'stack'`), with no placeholder nor directive.
/// (`console.error('Error:', err)` is a message and a value, not a title.)
fn log_title(template: &Template) -> Option<String> {
    let text = template.message();
    let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    (!template.has_placeholders() && (1..=30).contains(&text.len()) && text.chars().all(word))
        .then_some(text)
}

/// Looks through parentheses, `await`, and TypeScript's `as`, `!` and `satisfies`.
/// The code a builder of this file gives the error it makes from one of its parameters: for
/// `errCode(msg, 'EFUNDGLOBAL')` of `const errCode = (msg, code) => Object.assign(new
/// Error(msg), { code })` (or `{ code: code }`, or `function errCode (msg, code) {…}`), the
/// string the call passes for `code`.
fn builder_code(call: Node<'_>, name: &str, args: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    // The builder, declared at the top level of the file.
    let builder = top_level(call).into_iter().find_map(|top| {
        let top = if top.kind() == "export_statement" {
            top.child_by_field_name("declaration")?
        } else {
            top
        };
        match top.kind() {
            "function_declaration" => {
                (top.child_by_field_name("name").map(|n| cx.text(n)) == Some(name)).then_some(top)
            }
            "lexical_declaration" | "variable_declaration" => {
                named_children(top).into_iter().find_map(|d| {
                    let value = d.child_by_field_name("value")?;
                    (d.kind() == "variable_declarator"
                        && d.child_by_field_name("name").map(|n| cx.text(n)) == Some(name)
                        && matches!(value.kind(), "arrow_function" | "function_expression"))
                    .then_some(value)
                })
            }
            _ => None,
        }
    })?;
    let params: Vec<&str> = builder
        .child_by_field_name("parameters")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .map(|p| p.child_by_field_name("pattern").unwrap_or(p))
        .filter(|p| p.kind() == "identifier")
        .map(|p| cx.text(p))
        .collect();
    // Where the body sets `code` from a parameter.
    let body = builder.child_by_field_name("body")?;
    let mut stack = vec![body];
    let mut from = None;
    while let Some(n) = stack.pop() {
        match n.kind() {
            "shorthand_property_identifier" if cx.text(n) == "code" => from = Some("code"),
            "pair" => {
                let key = n
                    .child_by_field_name("key")
                    .map(|k| strip_quotes(cx.text(k)));
                let value = n.child_by_field_name("value");
                if key == Some("code") && value.is_some_and(|v| v.kind() == "identifier") {
                    from = value.map(|v| cx.text(v));
                }
            }
            "function_declaration" | "arrow_function" | "function_expression" | "class_body" => {
                continue
            }
            _ => {}
        }
        if from.is_some() {
            break;
        }
        stack.extend(named_children(n));
    }
    let at = params.iter().position(|p| Some(*p) == from)?;
    let arg = unwrap(*named_children(args).get(at)?);
    (arg.kind() == "string").then(|| unescape(strip_quotes(cx.text(arg))))
}

fn unwrap(mut node: Node<'_>) -> Node<'_> {
    while matches!(
        node.kind(),
        "parenthesized_expression"
            | "await_expression"
            | "as_expression"
            | "non_null_expression"
            | "satisfies_expression"
            | "type_assertion"
    ) {
        match first_named(node) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

fn status_of(node: Node<'_>, cx: &Cx<'_>) -> Option<u16> {
    http_status(node, cx, "number", "member_expression")
}

/// The name of the class a node is in, when that class extends an error class (a name ending
/// in `Error` or `Exception`).
fn enclosing_error_class(node: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let class = enclosing(
        node,
        &["class_declaration", "class", "abstract_class_declaration"],
    )?;
    let mut base = heritage_of(class, cx)?;
    // A base class of the same file that extends an error class: `class HttpErrorAuthOTP
    // extends HttpErrorBase`, `class HttpErrorBase extends Error`.
    for _ in 0..MAX_FOLLOW {
        if is_error_class(base) {
            return Some(cx.text(class.child_by_field_name("name")?).to_owned());
        }
        base = heritage_of(class_named(class, base, cx)?, cx)?;
    }
    None
}

/// The code a base class of the same file gives the errors of its subclasses in its
/// constructor: `this.code = `E${res.status}`` of `HttpErrorBase`, which `HttpErrorGeneral`
/// extends. A code made with a value keeps its placeholder (`E${res.status}`), which a stated
/// code (`E404`) fits.
fn inherited_code(node: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let mut class = enclosing(
        node,
        &["class_declaration", "class", "abstract_class_declaration"],
    )?;
    for _ in 0..MAX_FOLLOW {
        class = class_named(class, heritage_of(class, cx)?, cx)?;
        let body = class.child_by_field_name("body")?;
        let constructor = named_children(body).into_iter().find(|m| {
            m.kind() == "method_definition"
                && m.child_by_field_name("name")
                    .is_some_and(|n| cx.text(n) == "constructor")
        });
        let Some(block) = constructor.and_then(|c| c.child_by_field_name("body")) else {
            continue;
        };
        let code = named_children(block).into_iter().find_map(|stmt| {
            let value = assignment_value(stmt, "this.code", cx, "assignment_expression")?;
            match value.kind() {
                "string" => Some(strip_quotes(cx.text(value)).to_owned()),
                "template_string" => Some(cx.text(value).trim_matches('`').to_owned()),
                _ => None,
            }
        });
        if code.is_some() {
            return code;
        }
    }
    None
}

/// The class `class` extends.
fn heritage_of<'a>(class: Node<'_>, cx: &Cx<'a>) -> Option<&'a str> {
    let mut c = class.walk();
    let heritage = class
        .named_children(&mut c)
        .find(|h| h.kind() == "class_heritage")?;
    extended_class(cx.text(heritage))
}

/// The declaration of the class `name` among the top-level statements of the file `node` is in.
fn class_named<'t>(node: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
    top_level(node).into_iter().find_map(|stmt| {
        let class = match stmt.kind() {
            "export_statement" => stmt.child_by_field_name("declaration")?,
            _ => stmt,
        };
        (matches!(
            class.kind(),
            "class_declaration" | "abstract_class_declaration"
        ) && class
            .child_by_field_name("name")
            .is_some_and(|n| cx.text(n) == name))
        .then_some(class)
    })
}

/// Whether the block of `stmt` throws the local `name` (`throw err`), where that `throw` is
/// the error's record.
fn thrown_by_name(stmt: Node<'_>, name: &str, cx: &Cx<'_>) -> bool {
    let Some(block) = stmt.parent() else {
        return false;
    };
    let text = cx.text(block);
    let needle = format!("throw {name}");
    text.match_indices(&needle).any(|(i, _)| {
        !text[i + needle.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
    })
}

/// The code a constructor gives its error after `super(…)`: `this.code = 'ERR_INVALID_AUTH'`.
fn constructor_code(call: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let mut stmt = call.parent()?;
    if stmt.kind() == "await_expression" {
        stmt = stmt.parent()?;
    }
    let after = std::iter::successors(stmt.next_named_sibling(), |s| s.next_named_sibling());
    code_assigned(after, "this.code", cx)
}

/// The code given to the error `name` by a statement `name.code = '…'` above `stmt`, within
/// the few statements before it.
fn code_set_before(stmt: Node<'_>, name: &str, cx: &Cx<'_>) -> Option<String> {
    code_assigned(statements_before(stmt), &format!("{name}.code"), cx)
}

/// The statements above `stmt`, nearest first, within [`LOCAL_REACH`].
fn statements_before(stmt: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    std::iter::successors(stmt.prev_named_sibling(), |s| s.prev_named_sibling()).take(LOCAL_REACH)
}

/// The string the first of `statements` that assigns one to `target` gives it.
fn code_assigned<'t>(
    mut statements: impl Iterator<Item = Node<'t>>,
    target: &str,
    cx: &Cx<'_>,
) -> Option<String> {
    statements.find_map(|s| {
        let value = assignment_value(s, target, cx, "assignment_expression")?;
        (value.kind() == "string").then(|| strip_quotes(cx.text(value)).to_owned())
    })
}
