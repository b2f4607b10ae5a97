//! Rust: the panicking macros, `.expect`, assertions, anyhow/eyre's `anyhow!`/`bail!`/`ensure!`,
//! `Err(..)` built from a literal or `format!`, `io::Error::new`, thiserror's `#[error(..)]`,
//! and `error!`/`warn!` of tracing and log.

use errata_model::{ErrorType, Severity, Template};
use tree_sitter::Node;

use super::{last_segment, named_children, Cx, Found, Rules};
use crate::text::{brace_template, strip_quotes, unescape};

pub(crate) struct Rust;

impl Rules for Rust {
    fn site_kinds(&self) -> &'static [&'static str] {
        &["macro_invocation", "call_expression", "attribute_item"]
    }

    fn scope_kinds(&self) -> &'static [&'static str] {
        &["mod_item", "function_item"]
    }

    fn site<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        match node.kind() {
            "macro_invocation" => self.macro_site(node, cx),
            "call_expression" => self.call_site(node, cx),
            "attribute_item" => self.thiserror(node, cx),
            _ => None,
        }
    }

    fn skip_subtree(&self, node: Node<'_>, cx: &Cx<'_>) -> bool {
        if cx.include_tests || !matches!(node.kind(), "mod_item" | "function_item") {
            return false;
        }
        let mut prev = node.prev_named_sibling();
        while let Some(p) = prev.filter(|p| p.kind() == "attribute_item") {
            let t: String = cx.text(p).split_whitespace().collect();
            if t == "#[cfg(test)]" || t == "#[test]" || t.ends_with("::test]") {
                return true;
            }
            prev = p.prev_named_sibling();
        }
        false
    }

    fn is_statement(&self, kind: &str) -> bool {
        kind.ends_with("_statement")
            || kind.ends_with("_declaration")
            || matches!(kind, "match_arm" | "attribute_item")
    }

    fn is_function(&self, kind: &str) -> bool {
        matches!(kind, "function_item" | "closure_expression")
    }

    fn assigned_value<'t>(&self, stmt: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
        if stmt.kind() != "let_declaration" {
            return None;
        }
        (cx.text(stmt.child_by_field_name("pattern")?) == name)
            .then(|| stmt.child_by_field_name("value"))
            .flatten()
    }
}

impl Rust {
    fn macro_site<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let name = last_segment(cx.text(node.child_by_field_name("macro")?));
        let tt = named_children(node)
            .into_iter()
            .find(|n| n.kind() == "token_tree")?;
        let args = macro_args(tt, cx);
        let (ty, index) = match name {
            "panic" | "unreachable" | "unimplemented" | "todo" => (ErrorType::Panic, Some(0)),
            "assert" | "debug_assert" => (ErrorType::Assertion, Some(1)),
            "assert_eq" | "assert_ne" | "debug_assert_eq" | "debug_assert_ne" => {
                (ErrorType::Assertion, Some(2))
            }
            "anyhow" | "bail" | "eyre" | "format_err" => (ErrorType::ErrorReturn, Some(0)),
            "ensure" => (ErrorType::ErrorReturn, Some(1)),
            "error" | "warn" => (ErrorType::Log, None),
            _ => return None,
        };
        let message = match index {
            Some(i) => format_string(args.get(i)?, cx)?,
            // Logging macros take fields and a target before the message.
            None => args.iter().find_map(|a| format_string(a, cx))?,
        };
        let found = Found::new(node, message, ty);
        Some(match (ty, name) {
            (ErrorType::Assertion, _) => found.severity(Severity::Fatal),
            (ErrorType::Log, "warn") => found.severity(Severity::Warning),
            _ => found,
        })
    }

    fn call_site<'t>(&self, call: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let func = call.child_by_field_name("function")?;
        let args = named_children(call.child_by_field_name("arguments")?);
        match func.kind() {
            "field_expression" => {
                let method = cx.text(func.child_by_field_name("field")?);
                if !matches!(method, "expect" | "expect_err") || args.len() != 1 {
                    return None;
                }
                let message = self.message(args[0], cx)?;
                Some(Found::new(call, message, ErrorType::Panic))
            }
            "identifier" if cx.text(func) == "Err" && args.len() == 1 => {
                let message = self.message(args[0], cx)?;
                Some(Found::new(call, message, ErrorType::ErrorReturn))
            }
            "scoped_identifier" => {
                let path = cx.text(func);
                let (kind, message) = if path.ends_with("Error::new") && args.len() == 2 {
                    let kind = cx.text(args[0]);
                    if !kind.contains("ErrorKind::") {
                        return None;
                    }
                    (last_segment(kind).to_owned(), args[1])
                } else if path.ends_with("Error::other") && args.len() == 1 {
                    ("Other".to_owned(), args[0])
                } else {
                    return None;
                };
                let message = self.message(message, cx)?;
                Some(
                    Found::new(call, message, ErrorType::ErrorReturn)
                        .class(Some("io::Error".to_owned()))
                        .code(Some(kind)),
                )
            }
            _ => None,
        }
    }

    /// `#[error("...")]` of thiserror on an enum variant (class `Enum::Variant`) or a struct.
    fn thiserror<'t>(&self, attr: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let a = named_children(attr)
            .into_iter()
            .find(|n| n.kind() == "attribute")?;
        let first = named_children(a).into_iter().next()?;
        if cx.text(first) != "error" {
            return None;
        }
        let tt = a.child_by_field_name("arguments")?;
        let args = macro_args(tt, cx);
        let message = format_string(args.first()?, cx)?;
        let mut item = attr.next_named_sibling();
        while let Some(i) =
            item.filter(|i| i.kind() == "attribute_item" || i.kind().contains("comment"))
        {
            item = i.next_named_sibling();
        }
        let item = item?;
        let class = match item.kind() {
            "enum_variant" => {
                let variant = cx.text(item.child_by_field_name("name")?);
                let mut e = item.parent();
                while let Some(p) = e.filter(|p| p.kind() != "enum_item") {
                    e = p.parent();
                }
                let enum_name = cx.text(e?.child_by_field_name("name")?);
                format!("{enum_name}::{variant}")
            }
            "struct_item" | "enum_item" => cx.text(item.child_by_field_name("name")?).to_owned(),
            _ => return None,
        };
        Some(Found::new(attr, message, ErrorType::ErrorReturn).class(Some(class)))
    }

    /// A message argument: a literal (`"..".into()`, `String::from("..")`, `.to_string()`), a
    /// `format!`, or `&format!`.
    fn message(&self, node: Node<'_>, cx: &Cx<'_>) -> Option<Template> {
        match node.kind() {
            "string_literal" | "raw_string_literal" => Some(Template::literal(literal(node, cx))),
            "reference_expression" => self.message(node.child_by_field_name("value")?, cx),
            "macro_invocation" => {
                let name = last_segment(cx.text(node.child_by_field_name("macro")?));
                if name != "format" {
                    return None;
                }
                let tt = named_children(node)
                    .into_iter()
                    .find(|n| n.kind() == "token_tree")?;
                format_string(macro_args(tt, cx).first()?, cx)
            }
            "call_expression" => {
                let func = node.child_by_field_name("function")?;
                let args = named_children(node.child_by_field_name("arguments")?);
                match func.kind() {
                    // "..".into(), "..".to_string(), "..".to_owned()
                    "field_expression" if args.is_empty() => {
                        let m = cx.text(func.child_by_field_name("field")?);
                        if !matches!(m, "into" | "to_string" | "to_owned") {
                            return None;
                        }
                        self.message(func.child_by_field_name("value")?, cx)
                    }
                    // String::from(".."), Box::from(".."), From::from("..")
                    _ if cx.text(func).ends_with("::from") && args.len() == 1 => {
                        self.message(args[0], cx)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The text of a string literal with its escapes resolved (raw strings as written).
fn literal(node: Node<'_>, cx: &Cx<'_>) -> String {
    let body = strip_quotes(cx.text(node));
    if node.kind() == "raw_string_literal" {
        body.to_owned()
    } else {
        unescape(body)
    }
}

/// A macro argument that is a format string: a single string literal.
fn format_string(arg: &[Node<'_>], cx: &Cx<'_>) -> Option<Template> {
    match arg {
        [s] if matches!(s.kind(), "string_literal" | "raw_string_literal") => {
            Some(brace_template(&literal(*s, cx)))
        }
        _ => None,
    }
}

/// The top-level arguments of a macro's token tree, split at commas.
fn macro_args<'t>(tt: Node<'t>, cx: &Cx<'_>) -> Vec<Vec<Node<'t>>> {
    let mut args = vec![Vec::new()];
    let mut c = tt.walk();
    let children: Vec<Node<'t>> = tt.children(&mut c).collect();
    let inner = children.len().saturating_sub(1);
    for child in children.into_iter().take(inner).skip(1) {
        if !child.is_named() && cx.text(child) == "," {
            args.push(Vec::new());
        } else if !child.kind().contains("comment") {
            args.last_mut().expect("never empty").push(child);
        }
    }
    if args.last().is_some_and(Vec::is_empty) {
        args.pop();
    }
    args
}
