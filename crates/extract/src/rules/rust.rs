//! Rust: the panicking macros, `.expect`, assertions, anyhow/eyre's `anyhow!`/`bail!`/`ensure!`,
//! `Err(..)` built from a literal or `format!`, `io::Error::new`, thiserror's `#[error(..)]`,
//! and `error!`/`warn!` of tracing and log.

use errata_model::{ErrorType, Severity, Template};
use tree_sitter::Node;

use super::{enclosing, last_segment, named_children, top_level, Cx, Found, Rules};
use crate::text::{brace_template, strip_quotes, unescape};

pub(crate) struct Rust;

impl Rules for Rust {
    fn site_kinds(&self) -> &'static [&'static str] {
        &[
            "macro_invocation",
            "call_expression",
            "attribute_item",
            "match_arm",
        ]
    }

    fn scope_kinds(&self) -> &'static [&'static str] {
        &[
            "mod_item",
            "function_item",
            "const_item",
            "static_item",
            "const_block",
        ]
    }

    fn sites_within<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        if node.kind() == "impl_item" && display_of_error(node, cx).is_some() {
            if let Some(body) = node.child_by_field_name("body") {
                writes_in(body, &mut out);
                // `f.write_str(self.description())`: the arms of the method's `match`.
                for method in described_by(body, cx) {
                    out.extend(text_arms(node, method, cx));
                }
            }
        }
        out
    }

    fn site<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        match node.kind() {
            "macro_invocation" => self.macro_site(node, cx),
            "call_expression" => self.call_site(node, cx),
            "attribute_item" => self.thiserror(node, cx),
            "match_arm" => self.described_arm(node, cx),
            _ => None,
        }
    }

    fn skip_subtree(&self, node: Node<'_>, cx: &Cx<'_>) -> bool {
        // A `const` or `static` initializer and a `const { … }` block are evaluated by the
        // compiler: a panic there stops the build, and no program ever raises it. A closure in
        // one (`static RE: LazyLock<Regex> = LazyLock::new(|| …)`) runs when the program does.
        if matches!(node.kind(), "const_item" | "static_item" | "const_block") {
            let mut closure = false;
            crate::facts::preorder(node, |n| {
                closure |= n.kind() == "closure_expression";
                !closure
            });
            return !closure;
        }
        if cx.include_tests || !matches!(node.kind(), "mod_item" | "function_item") {
            return false;
        }
        let mut prev = node.prev_named_sibling();
        while let Some(p) = prev.filter(|p| p.kind() == "attribute_item") {
            let t: String = cx.text(p).split_whitespace().collect();
            if t == "#[test]" || t.ends_with("::test]") || cfg_requires_test(&t) {
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
        let field = match stmt.kind() {
            "let_declaration" => "pattern",
            "const_item" | "static_item" => "name",
            _ => return None,
        };
        (cx.text(stmt.child_by_field_name(field)?) == name)
            .then(|| stmt.child_by_field_name("value"))
            .flatten()
    }

    /// `const` and `static` items; not a `static mut`.
    fn is_constant(&self, stmt: Node<'_>, _cx: &Cx<'_>) -> bool {
        match stmt.kind() {
            "const_item" => true,
            "static_item" => !named_children(stmt)
                .iter()
                .any(|c| c.kind() == "mutable_specifier"),
            _ => false,
        }
    }

    /// An `impl`'s or trait's constants are `Self::X`, never a bare `X`.
    fn names_reach_into(&self, scope: Node<'_>) -> bool {
        !(scope.kind() == "declaration_list"
            && scope
                .parent()
                .is_some_and(|p| matches!(p.kind(), "impl_item" | "trait_item")))
    }
}

impl Rust {
    /// An arm of the `match` of a method that words the errors of a type whose `Display`
    /// writes it (hyper's `fn description(&self) -> &str { match self.inner.kind {
    /// Kind::IncompleteMessage => "connection closed before message completed", … } }`, and
    /// `f.write_str(self.description())`): the text those errors print.
    fn described_arm<'t>(&self, arm: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let value = arm.child_by_field_name("value")?;
        let value = match value.kind() {
            "block" => {
                let [one] = named_children(value)[..] else {
                    return None;
                };
                one
            }
            _ => value,
        };
        if !matches!(value.kind(), "string_literal" | "raw_string_literal") {
            return None;
        }
        let method = enclosing(arm, &["function_item", "closure_expression"])
            .filter(|f| f.kind() == "function_item" && returns_str(*f, cx))?;
        let name = cx.text(method.child_by_field_name("name")?);
        let ty = top_level(method).into_iter().find_map(|item| {
            let ty = display_of_error(item, cx)?;
            let body = item.child_by_field_name("body")?;
            described_by(body, cx).contains(&name).then_some(ty)
        })?;
        let message = Template::literal(literal(value, cx));
        if message.literal_alnum() < MIN_DISPLAY_TEXT {
            return None;
        }
        let variant = arm
            .child_by_field_name("pattern")
            .and_then(|p| variant_of(cx.text(p), &ty));
        let class = variant.map_or_else(|| ty.clone(), |v| format!("{ty}::{v}"));
        // An arm's `#[cfg(…)]` comes first; the text is at its value's line.
        Some(
            Found::new(value, message, ErrorType::ErrorReturn)
                .class(Some(class))
                .line_at(value),
        )
    }

    /// `write!(f, "…")`, `writeln!` or `f.write_str("…")` in the `fmt` of an error type's
    /// `Display`: the text its errors print. The class is the type, or `Type::Variant` in a
    /// `match` arm on one of its variants.
    fn display_text<'t>(
        &self,
        node: Node<'t>,
        message: Template,
        cx: &Cx<'_>,
    ) -> Option<Found<'t>> {
        if message.literal_alnum() < MIN_DISPLAY_TEXT {
            return None;
        }
        let mut arm = None;
        let mut n = node.parent();
        let function = loop {
            let p = n?;
            match p.kind() {
                "function_item" => break p,
                "closure_expression" => return None,
                "match_arm" if arm.is_none() => arm = Some(p),
                _ => {}
            }
            n = p.parent();
        };
        let ty = if function.child_by_field_name("name").map(|n| cx.text(n)) == Some("fmt") {
            display_of_error(function.parent()?.parent()?, cx)?
        } else {
            // A function that formats an error it is given (clap's
            // `write_dynamic_context(error: &crate::error::Error, styled: &mut StyledStr)`):
            // what it writes is that error's text.
            formatted_error(function, cx)?
        };
        let variant = arm
            .and_then(|a| a.child_by_field_name("pattern"))
            .and_then(|p| variant_of(cx.text(p), &ty));
        let class = variant.map_or_else(|| ty.clone(), |v| format!("{ty}::{v}"));
        Some(Found::new(node, message, ErrorType::ErrorReturn).class(Some(class)))
    }

    fn macro_site<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>> {
        let name = last_segment(cx.text(node.child_by_field_name("macro")?));
        let tt = named_children(node)
            .into_iter()
            .find(|n| n.kind() == "token_tree")?;
        let args = macro_args(tt, cx);
        if matches!(name, "write" | "writeln") {
            let message = format_string(args.get(1)?, cx)?;
            return self.display_text(node, message, cx);
        }
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
        let mut message = match index {
            Some(i) => format_string(args.get(i)?, cx)?,
            // Logging macros take fields and a target before the message.
            None => args.iter().find_map(|a| format_string(a, cx))?,
        };
        // `panic!("{}", crate::util::error::CONTEXT_MISSING_ERROR)`: the constant's text.
        let value = index.and_then(|i| args.get(i + 1));
        if let (Some(value), "{}") = (value, message.message().as_str()) {
            // A macro's argument is tokens: `crate`, `::`, `util`, … .
            let text = match value.as_slice() {
                [one] => self.message(*one, cx),
                tokens => {
                    let path: String = tokens.iter().map(|t| cx.text(*t)).collect();
                    path_constant(cx, &path).map(Template::literal)
                }
            };
            if let Some(text) = text.filter(|t| !t.has_placeholders()) {
                message = text;
            }
        }
        // What the panic prints: these macros put their own words before the message.
        let unreachable = format!("{}: ", errata_model::RUST_UNREACHABLE);
        let prefix = match name {
            "unreachable" => Some(unreachable.as_str()),
            "unimplemented" => Some("not implemented: "),
            "todo" => Some("not yet implemented: "),
            _ => None,
        };
        if let Some(prefix) = prefix {
            let mut t = Template::literal(prefix);
            t.append(message);
            message = t;
        }
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
                let field = func.child_by_field_name("field")?;
                let method = cx.text(field);
                // clap's `styled.push_str("the following required arguments were not
                // provided:")` in a function that formats the error it is given.
                if matches!(method, "write_str" | "pad" | "push_str") && args.len() == 1 {
                    let message = self.message(args[0], cx)?;
                    return self.display_text(call, message, cx);
                }
                if !matches!(method, "expect" | "expect_err") || args.len() != 1 {
                    return None;
                }
                let message = self.message(args[0], cx)?;
                // A chain on several lines panics at the line of its `expect`.
                Some(Found::new(call, message, ErrorType::Panic).line_at(field))
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
                } else if last_segment(path) == "custom" && args.len() == 1 {
                    // serde's `de::Error::custom(format_args!("missing field `{}`", field))`:
                    // the error a format's `Deserializer` returns carries this text.
                    let message = self.message(args[0], cx)?;
                    return Some(Found::new(call, message, ErrorType::ErrorReturn));
                } else {
                    return None;
                };
                let message = self.message(message, cx)?;
                // `io::Error::new(io::ErrorKind::…)`, or `Error::new` where the file imports
                // std's: else the crate's own type (cc's `Error::new(ErrorKind::IOError, …)`).
                let ty = path.rsplit_once("::").map_or(path, |(t, _)| t);
                let class = if ty.ends_with("io::Error")
                    || cx.text(args[0]).contains("io::ErrorKind")
                    || IO_KINDS.contains(&kind.as_str())
                    || imports_io_error(cx.src)
                {
                    "io::Error".to_owned()
                } else {
                    ty.to_owned()
                };
                Some(
                    Found::new(call, message, ErrorType::ErrorReturn)
                        .class(Some(class))
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
            "identifier" => match self.local_value(node, cx.text(node), cx) {
                Some(value) => self.message(value, cx),
                // `use crate::util::error::CONTEXT_MISSING_ERROR;`: a constant of another
                // module of the crate.
                None => {
                    let name = cx.text(node);
                    let module = imported_from(cx.src, name)?;
                    crate_constant(cx, &module, name).map(Template::literal)
                }
            },
            // `Self::MESSAGE`: an associated constant of a type of this file.
            "scoped_identifier" => {
                let path = cx.text(node.child_by_field_name("path")?);
                if path.starts_with("crate::") {
                    return path_constant(cx, cx.text(node)).map(Template::literal);
                }
                if path != "Self" && !path.starts_with(char::is_uppercase) {
                    return None;
                }
                let name = cx.text(node.child_by_field_name("name")?);
                self.message(associated_const(node, name, cx)?, cx)
            }
            "macro_invocation" => {
                let name = last_segment(cx.text(node.child_by_field_name("macro")?));
                if !matches!(name, "format" | "format_args") {
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

/// The value of the one associated constant `name` declared in an `impl` block of the file
/// holding `node` (`const MESSAGE: &'static str = "…";`).
fn associated_const<'t>(node: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
    let mut root = node;
    while let Some(p) = root.parent() {
        root = p;
    }
    let mut values = named_children(root)
        .into_iter()
        .filter(|i| i.kind() == "impl_item")
        .filter_map(|i| i.child_by_field_name("body"))
        .flat_map(named_children)
        .filter(|c| c.kind() == "const_item")
        .filter(|c| c.child_by_field_name("name").map(|n| cx.text(n)) == Some(name))
        .filter_map(|c| c.child_by_field_name("value"));
    let value = values.next()?;
    values.next().is_none().then_some(value)
}

/// Letters and digits a `Display` text needs besides its placeholders (`write!(f, "{}", x)`
/// says nothing of its own).
const MIN_DISPLAY_TEXT: usize = 3;

/// The type of an `impl Display for T` (`fmt::Display`, `std::fmt::Display`) whose name says
/// it is an error (`ParseError`, serde_json's `ErrorCode`), without its generics.
fn display_of_error(item: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    if item.kind() != "impl_item" {
        return None;
    }
    let tr = cx.text(item.child_by_field_name("trait")?);
    if last_segment(tr) != "Display" {
        return None;
    }
    let ty = cx.text(item.child_by_field_name("type")?);
    let ty = last_segment(ty.split('<').next().unwrap_or(ty)).trim();
    ty.contains("Error").then(|| ty.to_owned())
}

/// The error type a function is given by reference to format (`error: &crate::error::Error`,
/// `err: &ParseError`): a parameter whose type's last segment is or ends with `Error`. Not a
/// `Display` impl's `fmt`, which [`display_of_error`] reads.
fn formatted_error(function: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let params = function.child_by_field_name("parameters")?;
    named_children(params)
        .into_iter()
        .filter(|p| p.kind() == "parameter")
        .find_map(|p| {
            let ty = cx.text(p.child_by_field_name("type")?);
            let ty = ty.strip_prefix('&')?.trim_start();
            let ty = ty.strip_prefix("mut ").unwrap_or(ty).trim();
            let ty = last_segment(ty.split('<').next().unwrap_or(ty)).trim();
            (ty.ends_with("Error") && ty.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .then(|| ty.to_owned())
        })
}

/// The variant a match arm's pattern names, `Invalid` of `ParseError::Invalid(c)` or
/// `Self::Invalid { .. }`, when it is a variant of `ty`.
fn variant_of(pattern: &str, ty: &str) -> Option<String> {
    let rest = pattern
        .strip_prefix("Self::")
        .or_else(|| pattern.strip_prefix(ty)?.strip_prefix("::"))?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| rest[..end].to_owned())
}

/// The `write!`/`writeln!` invocations and `.write_str(…)`/`.pad(…)` calls of an impl's body,
/// not those inside closures.
fn writes_in<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut c = node.walk();
    for child in node.named_children(&mut c) {
        match child.kind() {
            "macro_invocation" | "call_expression" => {
                out.push(child);
                writes_in(child, out);
            }
            "closure_expression" => {}
            _ => writes_in(child, out),
        }
    }
}

/// The module a `use crate::…` declaration of the file brings `name` in from: `["util",
/// "error"]` of `use crate::util::error::{CONTEXT_MISSING_ERROR, THREAD_LOCAL_DESTROYED_ERROR};`.
fn imported_from<'s>(src: &'s str, name: &str) -> Option<Vec<&'s str>> {
    let mut rest = src;
    while let Some(at) = rest.find("use crate::") {
        let decl = &rest[at + "use crate::".len()..];
        let end = decl.find(';')?;
        let decl = &decl[..end];
        rest = &rest[at + end..];
        let (module, names) = match decl.split_once("::{") {
            Some((module, names)) => (module, names.trim_end_matches('}')),
            None => match decl.rsplit_once("::") {
                Some((module, last)) => (module, last),
                None => continue,
            },
        };
        if names.contains('{') || module.contains(char::is_whitespace) {
            continue;
        }
        if names.split(',').any(|n| n.trim() == name) {
            return Some(module.split("::").collect());
        }
    }
    None
}

/// The text of the constant a path of the crate names: `crate::util::error::X`.
fn path_constant(cx: &Cx<'_>, path: &str) -> Option<String> {
    let (module, name) = path.strip_prefix("crate::")?.rsplit_once("::")?;
    let module: Vec<&str> = module.split("::").collect();
    crate_constant(cx, &module, name)
}

/// The most a module's file is read for a constant.
const MAX_MODULE_BYTES: u64 = 1 << 20;

/// The text of the string constant `name` of a module of the crate of the file being read
/// (`crate::util::error` is `src/util/error.rs` or `src/util/error/mod.rs`, beside the crate's
/// `Cargo.toml`): `pub(crate) const CONTEXT_MISSING_ERROR: &str = "there is no reactor
/// running, …";`.
fn crate_constant(cx: &Cx<'_>, module: &[&str], name: &str) -> Option<String> {
    let file = cx.path?;
    let root = file
        .ancestors()
        .skip(1)
        .find(|d| d.join("Cargo.toml").is_file())?
        .join("src");
    let mut path = root;
    for m in module {
        if m.is_empty() || !m.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        path.push(m);
    }
    let text = [path.with_extension("rs"), path.join("mod.rs")]
        .iter()
        .find_map(|p| crate::walk::read_capped(p, MAX_MODULE_BYTES).ok().flatten())?;
    let text = String::from_utf8(text).ok()?;
    const_text(&text, name)
}

/// The text of `const NAME: &str = "…";` in a file's source, found by reading it as text.
fn const_text(src: &str, name: &str) -> Option<String> {
    let needle = format!("const {name}");
    let mut from = 0;
    while let Some(at) = src[from..].find(&needle) {
        let after = &src[from + at + needle.len()..];
        from += at + needle.len();
        let after = after.trim_start();
        let Some(ty) = after.strip_prefix(':') else {
            continue;
        };
        let (ty, value) = ty.split_once('=')?;
        if ty
            .trim()
            .trim_start_matches('&')
            .trim_start_matches("'static")
            .trim()
            != "str"
        {
            return None;
        }
        let body = value.trim_start().strip_prefix('"')?;
        let mut end = None;
        let mut escaped = false;
        for (i, c) in body.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let body = &body[..end?];
        return body_after(body, value).then(|| unescape(body));
    }
    None
}

/// Whether the string literal `body` is the whole value: a `;` follows its closing quote.
fn body_after(body: &str, value: &str) -> bool {
    let start = value.find('"').map_or(0, |q| q + 1);
    value[start + body.len() + 1..]
        .trim_start()
        .starts_with(';')
}

/// The methods of `self` whose text a `Display` impl's body writes: `description` of
/// `f.write_str(self.description())` or `write!(f, "{}", self.as_str())`.
fn described_by<'s>(body: Node<'_>, cx: &Cx<'s>) -> Vec<&'s str> {
    let text = cx.text(body);
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("self.") {
        let after = &rest[at + "self.".len()..];
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        if after[end..].starts_with("()") && end > 0 {
            let name = &after[..end];
            let before = rest[..at].trim_end();
            if (before.ends_with("write_str(") || before.ends_with(',')) && !out.contains(&name) {
                out.push(name);
            }
        }
        rest = &after[end..];
    }
    out
}

/// The arms of the `match` that the method `name` of the file holding `item` returns, whose
/// value is a string literal: each is a text of the errors a `Display` writes with it.
fn text_arms<'t>(item: Node<'t>, name: &str, cx: &Cx<'_>) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    for i in top_level(item)
        .into_iter()
        .filter(|i| i.kind() == "impl_item")
    {
        let Some(body) = i.child_by_field_name("body") else {
            continue;
        };
        for f in named_children(body) {
            if f.kind() != "function_item"
                || f.child_by_field_name("name").map(|n| cx.text(n)) != Some(name)
                || !returns_str(f, cx)
            {
                continue;
            }
            crate::facts::preorder(f, |n| {
                if n.kind() == "match_arm" && out.len() < MAX_TEXT_ARMS {
                    out.push(n);
                }
                !matches!(n.kind(), "closure_expression")
            });
        }
    }
    out
}

/// Whether a function returns text: `-> &str`, `-> &'static str`.
fn returns_str(f: Node<'_>, cx: &Cx<'_>) -> bool {
    f.child_by_field_name("return_type")
        .is_some_and(|t| cx.text(t).ends_with("str"))
}

/// The most arms of a described method read as texts.
const MAX_TEXT_ARMS: usize = 256;

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

/// Whether a `#[cfg(…)]` attribute (its text without spaces) holds only in test builds:
/// `#[cfg(test)]`, `#[cfg(all(test, feature = "x"))]`.
fn cfg_requires_test(attr: &str) -> bool {
    let Some(pred) = attr
        .strip_prefix("#[cfg(")
        .and_then(|p| p.strip_suffix(")]"))
    else {
        return false;
    };
    if pred == "test" {
        return true;
    }
    let Some(args) = pred.strip_prefix("all(").and_then(|p| p.strip_suffix(')')) else {
        return false;
    };
    crate::facts::split_top_level(args).contains(&"test")
}

/// The variants of std's `io::ErrorKind` that code builds errors with.
const IO_KINDS: &[&str] = &[
    "NotFound",
    "PermissionDenied",
    "ConnectionRefused",
    "ConnectionReset",
    "ConnectionAborted",
    "NotConnected",
    "AddrInUse",
    "AddrNotAvailable",
    "BrokenPipe",
    "AlreadyExists",
    "WouldBlock",
    "InvalidInput",
    "InvalidData",
    "TimedOut",
    "WriteZero",
    "Interrupted",
    "Unsupported",
    "UnexpectedEof",
    "OutOfMemory",
    "Other",
];

/// Whether a Rust file brings std's `io::Error` in as `Error` (`use std::io::Error;`, `use
/// std::io::{self, Error, ErrorKind};`).
fn imports_io_error(src: &str) -> bool {
    src.lines().map(str::trim_start).any(|l| {
        l.starts_with("use ")
            && l.contains("io::")
            && l.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == "Error")
    })
}

#[cfg(test)]
mod tests {
    use super::cfg_requires_test;

    #[test]
    fn a_cfg_that_needs_test_is_told_from_one_that_does_not() {
        assert!(cfg_requires_test("#[cfg(test)]"));
        assert!(cfg_requires_test(
            r#"#[cfg(all(test,feature="magnus-tests"))]"#
        ));
        assert!(!cfg_requires_test(r#"#[cfg(any(test,feature="x"))]"#));
        assert!(!cfg_requires_test(r#"#[cfg(all(unix,not(test)))]"#));
        assert!(!cfg_requires_test(r#"#[cfg(feature="test")]"#));
    }
}
