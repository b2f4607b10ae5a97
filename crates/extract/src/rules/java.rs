//! Java: `throw` with a message (literal, concatenation, `String.format`, `MessageFormat`,
//! `.formatted`), exceptions handed on (`return Mono.error(new ..)`), Spring's
//! `ResponseStatusException`, and error/warn logging with `{}` placeholders.

use errata_model::{http_status_from_name, ErrorType, Severity, Template};
use tree_sitter::Node;

use super::{
    assignment_value, concatenation, declarator_value, enclosing, extended_class, first_named,
    is_error_class, is_logger, is_message_name, last_segment, log_severity, named_children,
    returned_text, returns_of, Cx, Found, Rules, Splice,
};
use crate::text::{
    brace_template, formatted_by_arguments, printf_template, strip_quotes, unescape,
};

pub(crate) struct Java;

const MAX_FOLLOW: u8 = 3;

impl Rules for Java {
    fn site_kinds(&self) -> &'static [&'static str] {
        &[
            "throw_statement",
            "object_creation_expression",
            "method_invocation",
            "explicit_constructor_invocation",
            "return_statement",
        ]
    }

    /// The `return`s of an exception class's `getMessage()`: its trigger word is in the
    /// method's name, above them.
    fn sites_within<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Vec<Node<'t>> {
        if !is_get_message(node, cx) {
            return Vec::new();
        }
        returns_of(node, &["lambda_expression", "class_body"])
    }

    fn site<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        match node.kind() {
            "throw_statement" => {
                let mut expr = first_named(node)?;
                for _ in 0..MAX_FOLLOW {
                    if expr.kind() != "identifier" {
                        break;
                    }
                    expr = self.local_value(expr, cx.text(expr), cx)?;
                }
                self.creation(node, expr, cx)
            }
            "object_creation_expression" => {
                // Handed on, or returned (`return e == null ? new X(…) : e`).
                let mut parent = node.parent()?;
                while matches!(
                    parent.kind(),
                    "ternary_expression" | "parenthesized_expression"
                ) {
                    parent = parent.parent()?;
                }
                if !matches!(parent.kind(), "argument_list" | "return_statement") {
                    return None;
                }
                let class = cx.text(node.child_by_field_name("type")?);
                let last = last_segment(class);
                if !is_error_class(last) || imports_other(last, cx) {
                    return None;
                }
                // A trace's frame is at the line of the `new`, which a branch of a condition
                // may put below the statement's first.
                Some(self.creation(node, node, cx)?.line_at(node))
            }
            // `super(msg)` in a constructor of an exception class: the message every
            // exception of the class carries.
            "explicit_constructor_invocation" => {
                if cx.text(node.child_by_field_name("constructor")?) != "super" {
                    return None;
                }
                let class = enclosing_exception_class(node, cx)?;
                let args = named_children(node.child_by_field_name("arguments")?);
                let message = self.message(*args.first()?, cx, 0)?;
                Some(Found::new(node, message, ErrorType::Exception).class(Some(class)))
            }
            "method_invocation" => {
                let object = node.child_by_field_name("object")?;
                let method = cx.text(node.child_by_field_name("name")?);
                if !is_logger(cx.text(object)) {
                    return None;
                }
                let sev = log_severity(method)?;
                let args = named_children(node.child_by_field_name("arguments")?);
                let message = self.message(*args.first()?, cx, 0)?;
                let message = if message.has_placeholders() {
                    message
                } else {
                    brace_template(&message.message())
                };
                let sev = if method == "fatal" {
                    Severity::Fatal
                } else {
                    sev
                };
                Some(Found::new(node, message, ErrorType::Log).severity(sev))
            }
            "return_statement" => {
                let method = enclosing(node, &["method_declaration", "lambda_expression"])?;
                if !is_get_message(method, cx) {
                    return None;
                }
                let class = enclosing_exception_class(method, cx)?;
                let message = self.message(first_named(node)?, cx, 0)?;
                returned_text(node, message, ErrorType::Exception, Some(class))
            }
            _ => None,
        }
    }

    fn is_function(&self, kind: &str) -> bool {
        matches!(
            kind,
            "method_declaration" | "constructor_declaration" | "lambda_expression"
        )
    }

    /// A `final` field, or an interface's field (always `static final`).
    fn is_constant(&self, stmt: Node<'_>, cx: &Cx<'_>) -> bool {
        match stmt.kind() {
            "constant_declaration" => true,
            "field_declaration" | "local_variable_declaration" => named_children(stmt)
                .into_iter()
                .find(|c| c.kind() == "modifiers")
                .is_some_and(|m| {
                    cx.text(m)
                        .split(|c: char| !c.is_ascii_alphabetic())
                        .any(|w| w == "final")
                }),
            _ => false,
        }
    }

    fn assigned_value<'t>(&self, stmt: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
        match stmt.kind() {
            "local_variable_declaration" | "field_declaration" | "constant_declaration" => {
                declarator_value(stmt, name, cx)
            }
            _ => assignment_value(stmt, name, cx, "assignment_expression"),
        }
    }
}

/// Whether the file imports a class of the simple name `class` from a package: it is not
/// `java.lang`'s. javac's `return new Error("compiler", "no.superclass", arg0)` makes a
/// `JCDiagnostic.Error`, a diagnostic's description that nothing throws. A thrown one is
/// an exception whatever its package.
fn imports_other(class: &str, cx: &Cx<'_>) -> bool {
    matches!(class, "Error" | "Exception")
        && cx.src.lines().any(|l| {
            l.strip_prefix("import ")
                .and_then(|l| l.trim_end().strip_suffix(';'))
                .and_then(|l| l.rsplit_once('.'))
                .is_some_and(|(package, name)| name == class && package != "java.lang")
        })
}

impl Java {
    /// `new X(msg, ...)` at `at`: the class, the message and an HTTP status among the arguments.
    fn creation<'t>(&self, at: Node<'t>, expr: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        if expr.kind() != "object_creation_expression" {
            return None;
        }
        let class = cx.text(expr.child_by_field_name("type")?);
        let args = named_children(expr.child_by_field_name("arguments")?);
        let mut status = None;
        let mut message = None;
        let mut after_message = 0;
        for a in args {
            let t = cx.text(a);
            if status.is_none()
                && (t.contains("HttpStatus") || t.contains("HttpServletResponse.SC_"))
            {
                status = http_status_from_name(t);
                continue;
            }
            if message.is_none() {
                message = self.message(a, cx, 0);
            } else {
                after_message += 1;
            }
        }
        // `new JVMCIError("unresolved field %s", field)`: a class whose constructor formats
        // its message with the arguments after it, as `String.format` does.
        let message = match message {
            Some(m) => formatted_by_arguments(m, after_message > 0),
            // `throw new ConcurrentModificationException()`: no message, and Java prints the
            // class alone. Too little to match by its text; a trace's frame at its line
            // finds it.
            None if after_message == 0 && status.is_none() && no_arguments(expr) => {
                Template::literal(last_segment(class))
            }
            // `return new NoSuchFileException(file, other, null)`, `throw new
            // UncheckedIOException(e)`: the values it is handed are its message, none of
            // them text of the code's own. Told by its class, and where a trace's frame is at
            // its line. A message handed in by the caller (`new X(msg)`, a `String`
            // parameter) is the callers' to word (see `raisers`).
            None if status.is_none() && !hands_on_a_message(expr, cx) => {
                Template::literal(last_segment(class))
            }
            None => return None,
        };
        let ty = if status.is_some() {
            ErrorType::Http
        } else {
            ErrorType::Exception
        };
        Some(
            Found::new(at, message, ty)
                .class(Some(class.to_owned()))
                .status(status)
                .consume(expr),
        )
    }

    fn message(&self, node: Node<'_>, cx: &Cx<'_>, depth: u8) -> Option<Template> {
        match node.kind() {
            "string_literal" => {
                let t = cx.text(node);
                let body = strip_quotes(t);
                let body = if t.starts_with("\"\"\"") {
                    text_block(body)
                } else {
                    body.to_owned()
                };
                Some(Template::literal(unescape(&body)))
            }
            "parenthesized_expression" => self.message(first_named(node)?, cx, depth),
            "ternary_expression" => cx.either(
                self.message(node.child_by_field_name("consequence")?, cx, depth),
                self.message(node.child_by_field_name("alternative")?, cx, depth),
            ),
            "binary_expression" => {
                concatenation(node, cx, Splice::Brace, |n| self.message(n, cx, depth))
            }
            "method_invocation" => {
                let name = cx.text(node.child_by_field_name("name")?);
                let object = node.child_by_field_name("object");
                let args = named_children(node.child_by_field_name("arguments")?);
                match (object.map(|o| cx.text(o)), name) {
                    (Some("String"), "format") => {
                        let fmt = args.iter().find_map(|a| self.message(*a, cx, depth))?;
                        Some(printf_template(&fmt.message()))
                    }
                    (Some("MessageFormat"), "format") => {
                        let fmt = self.message(*args.first()?, cx, depth)?;
                        Some(brace_template(&fmt.message()))
                    }
                    (Some(_), "formatted") => {
                        let fmt = self.message(object?, cx, depth)?;
                        Some(printf_template(&fmt.message()))
                    }
                    _ => None,
                }
            }
            "identifier" if depth < MAX_FOLLOW => {
                self.local_message(node, cx, &|v| self.message(v, cx, depth + 1))
            }
            _ => None,
        }
    }
}

/// Whether a method declaration is `String getMessage()`, which an exception class overrides
/// to word its message (`java.util.UnknownFormatConversionException`'s `Conversion = '%s'`).
fn is_get_message(method: Node<'_>, cx: &Cx<'_>) -> bool {
    let named = |f: &str| method.child_by_field_name(f).map(|n| cx.text(n));
    method.kind() == "method_declaration"
        && named("name") == Some("getMessage")
        && named("type") == Some("String")
        && method
            .child_by_field_name("parameters")
            .is_some_and(|p| p.named_child_count() == 0)
}

/// A text block's content: the first line break dropped and the common indentation removed.
fn text_block(body: &str) -> String {
    let body = body.strip_prefix('\n').unwrap_or(body);
    let indent = body
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    body.lines()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The name of the class a node is in, when that class extends an exception or error class.
fn enclosing_exception_class(node: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let class = enclosing(node, &["class_declaration"])?;
    let base = extended_class(cx.text(class.child_by_field_name("superclass")?))?;
    if !is_error_class(base) {
        return None;
    }
    Some(cx.text(class.child_by_field_name("name")?).to_owned())
}

/// Whether a constructor call passes nothing: `new X()`.
/// Whether an argument of `creation` is a message handed in: a name that says so (`msg`,
/// `reason`), or a `String` parameter of the function around it as the first argument.
fn hands_on_a_message(creation: Node<'_>, cx: &Cx<'_>) -> bool {
    let Some(args) = creation.child_by_field_name("arguments") else {
        return false;
    };
    let function = enclosing(
        creation,
        &[
            "method_declaration",
            "constructor_declaration",
            "lambda_expression",
        ],
    );
    let string_params: Vec<&str> = function
        .and_then(|f| f.child_by_field_name("parameters"))
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|p| {
            p.child_by_field_name("type")
                .is_some_and(|t| matches!(cx.text(t), "String" | "CharSequence"))
        })
        .filter_map(|p| p.child_by_field_name("name"))
        .map(|n| cx.text(n))
        .collect();
    // A `String` parameter first (`new PatternSyntaxException(s, pattern, index)`): its
    // message, as Java's error classes take it. Not a path or a name the class words its
    // message with (`new NoSuchFileException(file, other, null)`).
    let names_a_value = |t: &str| {
        let t = t.to_ascii_lowercase();
        [
            "file", "path", "dir", "name", "key", "host", "url", "uri", "other",
        ]
        .iter()
        .any(|w| t.contains(w))
    };
    named_children(args).into_iter().enumerate().any(|(i, a)| {
        let t = cx.text(a);
        a.kind() == "identifier"
            && (is_message_name(t) || i == 0 && string_params.contains(&t) && !names_a_value(t))
    })
}

fn no_arguments(creation: Node<'_>) -> bool {
    creation
        .child_by_field_name("arguments")
        .is_some_and(|a| a.named_child_count() == 0)
}
