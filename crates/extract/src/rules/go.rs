//! Go: `errors.New`, `fmt.Errorf`, sentinel errors, `panic`, `log.Fatal*`/`log.Panic*`,
//! structured error logging, `http.Error` and gRPC's `status.Error`.

use errata_model::{ErrorType, Severity, Template};
use tree_sitter::Node;

use super::{
    concatenation, enclosing, first_named, http_status, is_logger, is_message_name, last_segment,
    log_severity, named_children, returned_text, returns_of, top_level, Cx, Found, Rules, Splice,
    MIN_ERROR_TEXT,
};
use crate::text::{printf_template_with, strip_quotes, unescape};

pub(crate) struct Go;

const MAX_FOLLOW: u8 = 3;

/// The node kinds of a Go function.
const FUNCTIONS: &[&str] = &["function_declaration", "method_declaration", "func_literal"];

impl Rules for Go {
    fn site_kinds(&self) -> &'static [&'static str] {
        &[
            "call_expression",
            "return_statement",
            "composite_literal",
            "assignment_statement",
        ]
    }

    fn scope_kinds(&self) -> &'static [&'static str] {
        &["if_statement"]
    }

    /// `if debugFloat { panic(…) }` with `const debugFloat = false`: the compiler drops the
    /// branch, so nothing in it runs in any build.
    fn skip_subtree(&self, node: Node<'_>, cx: &Cx<'_>) -> bool {
        if node.kind() != "if_statement" || node.child_by_field_name("alternative").is_some() {
            return false;
        }
        let Some(cond) = node.child_by_field_name("condition") else {
            return false;
        };
        let mut operands = vec![cond];
        while let Some(e) = operands.pop() {
            match e.kind() {
                "parenthesized_expression" => operands.extend(named_children(e)),
                "binary_expression"
                    if e.child_by_field_name("operator")
                        .is_some_and(|o| cx.text(o) == "&&") =>
                {
                    operands.extend(e.child_by_field_name("left"));
                    operands.extend(e.child_by_field_name("right"));
                }
                "false" => return true,
                "identifier" => {
                    let constant_false = self
                        .local_value(e, cx.text(e), cx)
                        .is_some_and(|v| v.kind() == "false" && is_constant_value(v));
                    if constant_false {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }

    fn sites_within<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Vec<Node<'t>> {
        if !is_error_method(node, cx) {
            return Vec::new();
        }
        returns_of(node, &["func_literal"])
    }

    fn site<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        match node.kind() {
            "return_statement" => return self.error_text(node, cx),
            "composite_literal" => return self.error_literal(node, cx),
            "assignment_statement" => return self.result_message(node, cx),
            _ => {}
        }
        if node.kind() != "call_expression" {
            return None;
        }
        let func = node.child_by_field_name("function")?;
        let args = named_children(node.child_by_field_name("arguments")?);
        let fname = cx.text(func);
        if let Some((message, consumed)) = self.error_value(node, cx) {
            // A package-level `var ErrX = errors.New(..)` is a sentinel, compared with errors.Is.
            let sentinel = self.sentinel_name(node, cx);
            let ty = match panicked_with(node, cx) {
                true => ErrorType::Panic,
                false => ErrorType::ErrorReturn,
            };
            let mut f = Found::new(node, message, ty).class(sentinel);
            if let Some(code) = grpc_code(node, cx) {
                f = f.code(Some(code));
            }
            for c in consumed {
                f = f.consume(c);
            }
            return Some(f);
        }
        match fname {
            // `base.Fatalf(…)` then `panic("unreachable")`: the program has ended before.
            "panic" if after_exit(node, cx) => None,
            "panic" => {
                let arg = *args.first()?;
                if let Some((message, consumed)) = self.error_value(arg, cx) {
                    let mut f = Found::new(node, message, ErrorType::Panic);
                    for c in consumed {
                        f = f.consume(c);
                    }
                    return Some(f);
                }
                // `panic(plainError("send on closed channel"))`: a string converted to an
                // error type prints as the string.
                let arg = converted_string(arg, cx).unwrap_or(arg);
                let message = self.message(arg, cx, 0)?;
                Some(Found::new(node, message, ErrorType::Panic))
            }
            // The runtime's own fatal errors (`fatal("concurrent map writes")`), which print
            // `fatal error: ` and the text, and end the program: no recover() stops them.
            "throw" | "fatal" if in_package(node, "runtime", cx) => {
                let message = self.message(*args.first()?, cx, 0)?;
                Some(Found::new(node, message, ErrorType::Exit).severity(Severity::Fatal))
            }
            "http.Error" => {
                let message = self.message(*args.get(1)?, cx, 0)?;
                let status = status_of(*args.get(2)?, cx);
                Some(Found::new(node, message, ErrorType::Http).status(status))
            }
            _ => {
                if func.kind() != "selector_expression" {
                    return None;
                }
                let receiver = cx.text(func.child_by_field_name("operand")?);
                let method = cx.text(func.child_by_field_name("field")?);
                // `c.server.logf("http: superfluous response.WriteHeader call from %s", …)`: a
                // type's own printf to its error log, whatever the receiver is called.
                let own_logf = method == "logf";
                if !is_logger(receiver) && !own_logf {
                    return self.fatal(node, receiver, method, &args, cx);
                }
                let sev = if own_logf {
                    Severity::Warning
                } else {
                    log_severity(method)?
                };
                let message = self.printed(method, &args, cx)?;
                // log.Panic* panics after logging; log.Fatal* logs and exits the program, as
                // the Fatal level of Go's loggers does (logrus, zap, klog, glog).
                let ty = if method.starts_with("Panic") {
                    ErrorType::Panic
                } else if method.starts_with("Fatal") {
                    ErrorType::Exit
                } else {
                    ErrorType::Log
                };
                Some(Found::new(node, message, ty).severity(sev))
            }
        }
    }

    fn is_statement(&self, kind: &str) -> bool {
        kind.ends_with("_statement")
            || kind.ends_with("_declaration")
            || matches!(kind, "var_spec" | "const_spec")
    }

    fn is_function(&self, kind: &str) -> bool {
        FUNCTIONS.contains(&kind)
    }

    fn is_constant(&self, stmt: Node<'_>, _cx: &Cx<'_>) -> bool {
        stmt.kind() == "const_declaration"
    }

    fn assigned_value<'t>(&self, stmt: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
        let (left, right) = match stmt.kind() {
            "short_var_declaration" | "assignment_statement" => (
                stmt.child_by_field_name("left")?,
                stmt.child_by_field_name("right")?,
            ),
            "var_declaration" | "const_declaration" => {
                let spec = named_children(stmt).into_iter().find(|s| {
                    s.child_by_field_name("name")
                        .is_some_and(|n| cx.text(n) == name)
                })?;
                return spec
                    .child_by_field_name("value")
                    .and_then(|v| named_children(v).into_iter().next());
            }
            _ => return None,
        };
        let i = named_children(left)
            .iter()
            .position(|n| cx.text(*n) == name)?;
        named_children(right).get(i).copied()
    }
}

impl Go {
    /// `base.Fatalf("go: cannot find main module; …")`: a package's own function that prints
    /// its message and ends the program, called through the package's name. Short receivers
    /// (`t.Fatalf`, `b.Fatal` of a test, `f.Fatalf`) are values, not packages.
    fn fatal<'t>(
        &self,
        node: Node<'t>,
        receiver: &str,
        method: &str,
        args: &[Node<'t>],
        cx: &Cx<'_>,
    ) -> Option<Found<'t>> {
        if !matches!(method, "Fatalf" | "Fatal" | "Fatalln" | "Exitf")
            || receiver.len() < 3
            || !receiver
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            return None;
        }
        let message = self.printed(method, args, cx)?;
        Some(Found::new(node, message, ErrorType::Exit).severity(Severity::Fatal))
    }

    /// The message a print-like call writes: its format and arguments for a method ending in
    /// `f` (`Fatalf`, `Errorf`), its first argument otherwise (`Fatal`, `Println`).
    fn printed(&self, method: &str, args: &[Node<'_>], cx: &Cx<'_>) -> Option<Template> {
        let arg = *args.first()?;
        let message = self.message(arg, cx, 0)?;
        Some(if method.ends_with('f') {
            self.formatted(&message, &args[1..], cx)
        } else {
            message
        })
    }

    /// A `return` of an error type's `Error() string` method: the text the type's errors
    /// print, such as `"strconv." + e.Func + ": parsing " + Quote(e.Num) + ": " + e.Err.Error()`.
    /// A return with too little literal text to recognise (`e.Op + " " + e.Path`) is none.
    fn error_text<'t>(&self, ret: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let mut n = ret.parent();
        let method = loop {
            let p = n?;
            if p.kind() == "method_declaration" {
                break p;
            }
            if self.is_function(p.kind()) {
                return None;
            }
            n = p.parent();
        };
        if !is_error_method(method, cx) {
            return None;
        }
        let mut value = first_named(ret)?;
        if value.kind() == "expression_list" {
            match named_children(value)[..] {
                [one] => value = one,
                _ => return None,
            }
        }
        let message = self.message(value, cx, 0)?;
        returned_text(
            ret,
            message,
            ErrorType::ErrorReturn,
            receiver_type(method, cx),
        )
    }

    /// An error type's value built with its message: `&AddrError{Err: "missing port in
    /// address", Addr: host}`, `&SyntaxError{"invalid character " + quoteChar(c), off}`. The
    /// message is a field named like one (`Err`, `Msg`, `message`, `reason`…), or the first
    /// field given by position when its text has a space (`ValueError{"Value.Set", t}` names a
    /// method, not a message). The class is the type.
    fn error_literal<'t>(&self, lit: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let ty = lit.child_by_field_name("type")?;
        let class = last_segment(cx.text(ty));
        if !matches!(ty.kind(), "type_identifier" | "qualified_type") || !class.ends_with("Error") {
            return None;
        }
        let body = lit.child_by_field_name("body")?;
        let mut message = None;
        for (i, element) in named_children(body).into_iter().enumerate() {
            let value = match element.kind() {
                "keyed_element" => {
                    let key = cx.text(element.child_by_field_name("key")?);
                    if !is_message_name(key) {
                        continue;
                    }
                    element.child_by_field_name("value")?
                }
                "literal_element" if i == 0 => element,
                _ => continue,
            };
            let Some(t) = first_named(value).and_then(|v| self.message(v, cx, 0)) else {
                continue;
            };
            if element.kind() == "literal_element" && !t.message().contains(' ') {
                continue;
            }
            message = Some(t);
            break;
        }
        let message = message?;
        if message.literal_alnum() < MIN_ERROR_TEXT {
            return None;
        }
        // `panic(&ValueError{…})` panics with it; anywhere else it is returned or stored.
        let mut up = lit.parent();
        if up.is_some_and(|u| u.kind() == "unary_expression") {
            up = up.and_then(|u| u.parent());
        }
        let panics = up
            .filter(|u| u.kind() == "argument_list")
            .and_then(|u| u.parent())
            .and_then(|c| c.child_by_field_name("function"))
            .is_some_and(|f| cx.text(f) == "panic");
        let ty = if panics {
            ErrorType::Panic
        } else {
            ErrorType::ErrorReturn
        };
        // `var errTimeout error = &httpError{…}` at package level is a sentinel, one value
        // named by its variable, as `errors.New` makes one.
        let value = lit
            .parent()
            .filter(|u| u.kind() == "unary_expression")
            .unwrap_or(lit);
        let class = self
            .sentinel_name(value, cx)
            .unwrap_or_else(|| class.to_owned());
        Some(Found::new(lit, message, ty).class(Some(class)))
    }

    /// `err.Msg = msg` in a function whose named result is `err RecordHeaderError`: the
    /// error it returns carries the message. A helper's parameter says nothing of its own;
    /// each call that passes a message is a record (`c.newRecordHeaderError(c.conn, "first
    /// record does not look like a TLS handshake")`, see `raisers`).
    fn result_message<'t>(&self, stmt: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let [left] = named_children(stmt.child_by_field_name("left")?)[..] else {
            return None;
        };
        let [value] = named_children(stmt.child_by_field_name("right")?)[..] else {
            return None;
        };
        if left.kind() != "selector_expression" {
            return None;
        }
        let object = cx.text(left.child_by_field_name("operand")?);
        if !is_message_name(cx.text(left.child_by_field_name("field")?)) {
            return None;
        }
        let function = enclosing(stmt, FUNCTIONS)?;
        let results = function.child_by_field_name("result")?;
        let class = named_children(results).into_iter().find_map(|p| {
            let named = p.kind() == "parameter_declaration"
                && p.child_by_field_name("name").map(|n| cx.text(n)) == Some(object);
            let ty = cx
                .text(p.child_by_field_name("type")?)
                .trim_start_matches('*');
            let ty = last_segment(ty);
            (named && ty.ends_with("Error")).then(|| ty.to_owned())
        })?;
        let message = self.message(value, cx, 0)?;
        if message.literal_alnum() < MIN_ERROR_TEXT {
            return None;
        }
        Some(Found::new(stmt, message, ErrorType::ErrorReturn).class(Some(class)))
    }

    /// `errors.New(msg)`, `fmt.Errorf(format, ...)` and their kin: the message and the nodes
    /// used.
    fn error_value<'t>(&self, call: Node<'t>, cx: &Cx<'_>) -> Option<(Template, Vec<Node<'t>>)> {
        if call.kind() != "call_expression" {
            return None;
        }
        let fname = cx.text(call.child_by_field_name("function")?);
        let args = named_children(call.child_by_field_name("arguments")?);
        // Which argument is the message, and whether it is a format of the ones after it.
        let (at, formatted) = match fname {
            "errors.New" | "xerrors.New" => (0, false),
            "fmt.Errorf" | "xerrors.Errorf" | "errors.Errorf" => (0, true),
            "status.Error" | "grpc.Errorf" => (1, false),
            "status.Errorf" => (1, true),
            _ => return None,
        };
        let t = self.message(*args.get(at)?, cx, 0)?;
        let t = if formatted {
            self.formatted(&t, &args[at + 1..], cx)
        } else {
            t
        };
        Some((t, vec![call]))
    }

    fn sentinel_name(&self, call: Node<'_>, cx: &Cx<'_>) -> Option<String> {
        let list = call.parent()?;
        let spec = list.parent()?;
        if list.kind() != "expression_list" || spec.kind() != "var_spec" {
            return None;
        }
        let mut n = spec.parent();
        while let Some(p) = n {
            if self.is_function(p.kind()) {
                return None;
            }
            n = p.parent();
        }
        let name = cx.text(spec.child_by_field_name("name")?);
        errata_explain::is_go_sentinel_name(name).then(|| name.to_owned())
    }

    /// A printf format with its `values`: a `%s`, `%v` or `%d` of a constant (`const maxItems
    /// = 10`, `const unit = "items"`) is the constant's text, every other directive a
    /// placeholder.
    fn formatted(&self, format: &Template, values: &[Node<'_>], cx: &Cx<'_>) -> Template {
        let format = format.message();
        let explicit = format.contains("%[");
        printf_template_with(&format, |i, directive| {
            let name = values
                .get(i)
                .filter(|v| v.kind() == "identifier" && !explicit)?;
            let value = self.local_value(*name, cx.text(*name), cx)?;
            // A helper's parameter, read for a call (see `raisers`): the literal the call
            // passes. `format = fmt.Sprintf("template: %s:%d: %s", …, format)` of text/template's
            // `errorf(format string, args ...any)` is the call's format, formatted again after.
            if value.parent().is_some_and(|p| p.kind() == "argument_list")
                && matches!(directive, "%s" | "%v")
            {
                return match value.kind() {
                    "interpreted_string_literal" => {
                        Some(Template::literal(unescape(strip_quotes(cx.text(value)))))
                    }
                    "raw_string_literal" => Some(Template::literal(strip_quotes(cx.text(value)))),
                    _ => None,
                };
            }
            // Only a constant: a variable's value may have changed since it was given.
            let spec = value
                .parent()
                .filter(|l| l.kind() == "expression_list")?
                .parent()?;
            if spec.kind() != "const_spec" {
                return None;
            }
            let text = cx.text(value);
            match (value.kind(), directive) {
                ("interpreted_string_literal", "%s" | "%v") => {
                    Some(Template::literal(unescape(strip_quotes(text))))
                }
                ("raw_string_literal", "%s" | "%v") => Some(Template::literal(strip_quotes(text))),
                ("int_literal", "%d" | "%v") if text.bytes().all(|b| b.is_ascii_digit()) => {
                    Some(Template::literal(text))
                }
                _ => None,
            }
        })
    }

    fn message(&self, node: Node<'_>, cx: &Cx<'_>, depth: u8) -> Option<Template> {
        match node.kind() {
            "interpreted_string_literal" => {
                Some(Template::literal(unescape(strip_quotes(cx.text(node)))))
            }
            "raw_string_literal" => Some(Template::literal(strip_quotes(cx.text(node)))),
            "parenthesized_expression" => self.message(first_named(node)?, cx, depth),
            "binary_expression" => {
                concatenation(node, cx, Splice::Brace, |n| self.message(n, cx, depth))
            }
            "call_expression" => {
                let fname = cx.text(node.child_by_field_name("function")?);
                if fname != "fmt.Sprintf" && !self.formats_as_sprintf(node, fname, cx) {
                    return None;
                }
                let args = named_children(node.child_by_field_name("arguments")?);
                let t = self.message(*args.first()?, cx, depth)?;
                Some(self.formatted(&t, &args[1..], cx))
            }
            "identifier" if depth < MAX_FOLLOW => {
                self.local_message(node, cx, &|v| self.message(v, cx, depth + 1))
            }
            _ => None,
        }
    }
}

impl Go {
    /// Whether `fname`, called at `call`, is a function of this file that returns
    /// `fmt.Sprintf` of its own first two parameters (flag's `func (f *FlagSet) sprintf(format
    /// string, a ...any) string { msg := fmt.Sprintf(format, a...); …; return msg }`): its
    /// call formats as `fmt.Sprintf` does.
    fn formats_as_sprintf(&self, call: Node<'_>, fname: &str, cx: &Cx<'_>) -> bool {
        let name = last_segment(fname);
        top_level(call).into_iter().any(|f| {
            matches!(f.kind(), "function_declaration" | "method_declaration")
                && f.child_by_field_name("name").map(|n| cx.text(n)) == Some(name)
                && self.returns_sprintf_of_its_parameters(f, cx)
        })
    }

    fn returns_sprintf_of_its_parameters(&self, f: Node<'_>, cx: &Cx<'_>) -> bool {
        let params: Vec<&str> = f
            .child_by_field_name("parameters")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|p| p.child_by_field_name("name").map(|n| cx.text(n)))
            .collect();
        let [format, rest, ..] = params[..] else {
            return false;
        };
        let returns = returns_of(f, &["func_literal"]);
        let [ret] = returns[..] else {
            return false;
        };
        let Some(mut value) = first_named(ret).and_then(first_named) else {
            return false;
        };
        if value.kind() == "identifier" {
            match self.local_value(value, cx.text(value), cx) {
                Some(v) => value = v,
                None => return false,
            }
        }
        let is_sprintf = value.kind() == "call_expression"
            && value
                .child_by_field_name("function")
                .is_some_and(|n| cx.text(n) == "fmt.Sprintf");
        let args: Vec<&str> = value
            .child_by_field_name("arguments")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .map(|a| cx.text(a))
            .collect();
        is_sprintf
            && args.len() == 2
            && args[0] == format
            && args[1].trim_end_matches("...") == rest
    }
}

/// Whether a method declaration is `func (r T) Error() string`, which makes `T` an error type.
fn is_error_method(method: Node<'_>, cx: &Cx<'_>) -> bool {
    let named = |f: &str| method.child_by_field_name(f).map(|n| cx.text(n));
    method.kind() == "method_declaration"
        && named("name") == Some("Error")
        && named("result") == Some("string")
        && method
            .child_by_field_name("parameters")
            .is_some_and(|p| p.named_child_count() == 0)
}

/// The receiver's type, without a pointer: `NumError` of `func (e *NumError) Error() string`.
fn receiver_type(method: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let params = method.child_by_field_name("receiver")?;
    let param = first_named(params)?;
    let ty = cx.text(param.child_by_field_name("type")?);
    let ty = ty.trim_start_matches('*');
    // A generic receiver keeps its name only: `List[T]` -> `List`.
    let ty = ty.split('[').next().unwrap_or(ty);
    (!ty.is_empty()).then(|| ty.to_owned())
}

/// `codes.NotFound` in `status.Error(codes.NotFound, ..)`.
fn grpc_code(call: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let args = named_children(call.child_by_field_name("arguments")?);
    let first = cx.text(*args.first()?);
    first.strip_prefix("codes.").map(str::to_owned)
}

fn status_of(node: Node<'_>, cx: &Cx<'_>) -> Option<u16> {
    http_status(node, cx, "int_literal", "selector_expression")
}

/// Whether a value is that of a `const` (`const debug = false`): its spec's declaration,
/// through the expression list, is a `const_declaration`.
fn is_constant_value(value: Node<'_>) -> bool {
    std::iter::successors(value.parent(), |n| n.parent())
        .take(3)
        .any(|n| n.kind() == "const_declaration")
}

/// The string of a conversion to an error type, `plainError("…")` or `errorString("…")`.
fn converted_string<'t>(call: Node<'t>, cx: &Cx<'_>) -> Option<Node<'t>> {
    if call.kind() != "call_expression" {
        return None;
    }
    let func = call.child_by_field_name("function")?;
    let args = named_children(call.child_by_field_name("arguments")?);
    let is_error_type = func.kind() == "identifier" && cx.text(func).ends_with("Error")
        || cx.text(func) == "errorString";
    match args[..] {
        [s] if is_error_type => Some(s),
        _ => None,
    }
}

/// Whether the file `node` is in declares `package name`.
fn in_package(node: Node<'_>, name: &str, cx: &Cx<'_>) -> bool {
    top_level(node)
        .into_iter()
        .find(|c| c.kind() == "package_clause")
        .and_then(first_named)
        .is_some_and(|p| cx.text(p) == name)
}

/// Whether the statement before the call `node` ends the program: `os.Exit(…)`, `log.Fatal…`,
/// a `Fatalf` of the compiler's `base` or of a logger. What follows never runs.
fn after_exit(node: Node<'_>, cx: &Cx<'_>) -> bool {
    let Some(stmt) = node.parent().filter(|p| p.kind() == "expression_statement") else {
        return false;
    };
    let Some(prev) = stmt.prev_named_sibling() else {
        return false;
    };
    let call = match prev.kind() {
        "expression_statement" => prev.named_child(0),
        _ => None,
    };
    let Some(func) = call
        .filter(|c| c.kind() == "call_expression")
        .and_then(|c| c.child_by_field_name("function"))
    else {
        return false;
    };
    let name = cx.text(func);
    name == "os.Exit"
        || name
            .rsplit('.')
            .next()
            .is_some_and(|m| matches!(m, "Fatal" | "Fatalf" | "Fatalln" | "ErrorExit"))
            && name.contains('.')
}

/// Whether the error value `node` is what a `panic(…)` panics with, inside the value that
/// carries it (`panic(scanError{errors.New(err)})`).
fn panicked_with(node: Node<'_>, cx: &Cx<'_>) -> bool {
    let mut up = node.parent();
    while let Some(p) = up.filter(|p| {
        matches!(
            p.kind(),
            "literal_element"
                | "keyed_element"
                | "literal_value"
                | "composite_literal"
                | "unary_expression"
                | "parenthesized_expression"
        )
    }) {
        up = p.parent();
    }
    up.filter(|p| p.kind() == "argument_list")
        .and_then(|a| a.parent())
        .and_then(|c| c.child_by_field_name("function"))
        .is_some_and(|f| cx.text(f) == "panic")
}
