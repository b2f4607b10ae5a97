//! The references of a file that link its records to the rest of the repository: the calls it
//! makes (by the called name), the functions it defines, and the places where it catches or
//! tests for an error class or sentinel.

use std::collections::HashMap;

use errata_explain::Catch;
use errata_lang::Lang;
use errata_model::{Ref, RefKind};
use tree_sitter::{Node, Tree};

use super::{named, FileFacts, Syntax};
use crate::rules::rules_of;

/// Most references kept from one file.
const MAX_REFS_PER_FILE: usize = 50_000;
/// Most `catch` clauses kept around one call.
const MAX_CLAUSES: usize = 6;

/// Longest text kept for a reference.
const MAX_REF_TEXT: usize = 120;

/// Every call, definition and handler of a parsed file, in document order.
pub fn find_refs(lang: Lang, tree: &Tree, src: &str) -> Vec<Ref> {
    scan(lang, tree, src, None)
}

/// The references of a file, and in the same walk its writes, handed to `facts`.
pub(crate) fn find_refs_and_writes<'t>(
    lang: Lang,
    tree: &'t Tree,
    src: &str,
    facts: &FileFacts<'t, '_>,
) -> Vec<Ref> {
    scan(lang, tree, src, Some(facts))
}

const FUNCTION: u8 = 1;
const CALL: u8 = 2;
const ASSIGNMENT: u8 = 4;
const HANDLER: u8 = 8;
const RETURN: u8 = 16;
const HELPER: u8 = 32;
const CREATION: u8 = 64;
const TRY: u8 = 128;

/// Node kinds that may handle an error class, by language.
fn handler_kind(lang: Lang, kind: &str) -> bool {
    match lang {
        Lang::Python => kind == "except_clause",
        Lang::Java => matches!(kind, "catch_type" | "instanceof_expression"),
        Lang::TypeScript | Lang::JavaScript | Lang::Go => kind == "binary_expression",
        Lang::Rust => matches!(
            kind,
            "tuple_struct_pattern" | "struct_pattern" | "scoped_identifier"
        ),
    }
}

/// Node kinds that create a value of a named type: `new X(…)`, Go's `X{…}`. Python creates
/// by calling the class, which is a call already.
fn creation_kind(lang: Lang, kind: &str) -> bool {
    match lang {
        Lang::TypeScript | Lang::JavaScript => kind == "new_expression",
        Lang::Java => kind == "object_creation_expression",
        Lang::Go => kind == "composite_literal",
        Lang::Rust => kind == "struct_expression",
        Lang::Python => false,
    }
}

/// The error class a creation makes, by its last name: `SandboxNotFoundError` of
/// `new errors.SandboxNotFoundError(id)`, `NumError` of `&strconv.NumError{…}`. Only names of
/// error classes are kept (`Error`, `Exception` or Go's `error` in them): `new Map()` and
/// `Point{1, 2}` create nothing an error record is linked to.
fn created_class(lang: Lang, node: Node<'_>, src: &str) -> Option<String> {
    let field = match lang {
        Lang::TypeScript | Lang::JavaScript => "constructor",
        Lang::Rust => "name",
        _ => "type",
    };
    let ty = node.child_by_field_name(field)?;
    if lang == Lang::Go && !matches!(ty.kind(), "type_identifier" | "qualified_type") {
        return None;
    }
    let text = crate::text::text(ty, src);
    let text = text.split(['<', '[']).next().unwrap_or(text);
    // A Rust variant is named as its records' classes are: `StoreError::ReadOnly`.
    if lang == Lang::Rust && text.contains("::") {
        return variant_created(text);
    }
    let name = text.rsplit('.').next().unwrap_or(text).trim();
    (is_name(name)
        && (name.contains("Error") || name.contains("Exception") || name.contains("error")))
    .then(|| name.to_owned())
}

/// The `Enum::Variant` a Rust path creates, when both are type names: `StoreError::NotFound`
/// of `StoreError::NotFound(key)` or `crate::StoreError::NotFound { .. }`, not `String::from`.
fn variant_created(path: &str) -> Option<String> {
    // Looked at before `variant` allocates: most Rust paths called are `String::from`.
    let mut parts = path.rsplit("::");
    let (v, e) = (parts.next()?, parts.next()?);
    let typed = |p: &str| p.starts_with(|c: char| c.is_ascii_uppercase());
    (typed(v) && typed(e)).then(|| variant(path)).flatten()
}

/// The variant a Rust call or bare path creates, as the argument of `Err(…)` or as a call of a
/// tuple variant: `Err(StoreError::Closed)`, `StoreError::NotFound(key)`.
fn rust_creation(node: Node<'_>, src: &str) -> Option<String> {
    let text = |n: Node<'_>| crate::text::text(n, src);
    match node.kind() {
        "call_expression" => {
            let f = node.child_by_field_name("function")?;
            (f.kind() == "scoped_identifier")
                .then(|| variant_created(text(f)))
                .flatten()
        }
        "scoped_identifier" => {
            let args = node.parent().filter(|p| p.kind() == "arguments")?;
            let call = args.parent()?;
            let f = call.child_by_field_name("function")?;
            (text(f) == "Err")
                .then(|| variant_created(text(node)))
                .flatten()
        }
        _ => None,
    }
}

/// Role tables by language and grammar (TSX and TypeScript differ).
type RoleTables = HashMap<(Lang, usize), std::rc::Rc<Vec<u8>>>;

/// What each node kind of the tree's grammar may be, by kind id: most nodes are none of
/// these. Built once per grammar and thread.
fn roles(lang: Lang, tree: &Tree) -> std::rc::Rc<Vec<u8>> {
    thread_local! {
        static ROLES: std::cell::RefCell<RoleTables> = Default::default();
    }
    let key = (lang, tree.language().node_kind_count());
    ROLES.with(|r| {
        r.borrow_mut()
            .entry(key)
            .or_insert_with(|| std::rc::Rc::new(role_table(lang, tree)))
            .clone()
    })
}

fn role_table(lang: Lang, tree: &Tree) -> Vec<u8> {
    let rules = rules_of(lang);
    let syn = Syntax::of(lang);
    let grammar = tree.language();
    (0..grammar.node_kind_count() as u16)
        .map(|id| {
            let Some(kind) = grammar.node_kind_for_id(id) else {
                return 0;
            };
            let mut r = 0;
            if rules.is_function(kind) {
                r |= FUNCTION;
            }
            if syn.calls.contains(&kind) {
                r |= CALL;
            }
            if syn.assignments.contains(&kind) {
                r |= ASSIGNMENT;
            }
            if handler_kind(lang, kind) {
                r |= HANDLER;
            }
            if syn.tries.contains(&kind) {
                r |= TRY;
            }
            if lang == Lang::Go && kind == "return_statement" {
                r |= RETURN;
            }
            if super::is_helper_kind(kind) {
                r |= HELPER;
            }
            if creation_kind(lang, kind) {
                r |= CREATION;
            }
            r
        })
        .collect()
}

fn scan<'t>(lang: Lang, tree: &'t Tree, src: &str, facts: Option<&FileFacts<'t, '_>>) -> Vec<Ref> {
    let roles = roles(lang, tree);
    let expecting = super::expect::may_expect(src.as_bytes());
    let mut out = Vec::new();
    let mut writes = Vec::new();
    let mut helpers = Vec::new();
    // The functions the walk is in: (end byte, name).
    let mut functions: Vec<(usize, Option<String>)> = Vec::new();
    // The bodies of the `try`s the walk is in: (start and end byte, the function depth it is
    // at, its clauses).
    let mut tries: Vec<(usize, usize, usize, Vec<Catch>)> = Vec::new();
    let python = lang == Lang::Python;
    let syn = Syntax::of(lang);
    let offers = Offers::new(src);
    super::preorder(tree.root_node(), |node| {
        let role = roles.get(node.kind_id() as usize).copied().unwrap_or(0);
        if role == 0 {
            return true;
        }
        while functions
            .last()
            .is_some_and(|(end, _)| *end <= node.start_byte())
        {
            functions.pop();
        }
        while tries
            .last()
            .is_some_and(|(_, end, ..)| *end <= node.start_byte())
        {
            tries.pop();
        }
        let enclosing = || functions.iter().rev().find_map(|(_, n)| n.clone());
        if let Some(f) = facts.filter(|_| role & (CALL | ASSIGNMENT) != 0) {
            writes.extend(f.write_at(node));
        }
        if facts.is_some() && role & HELPER != 0 {
            helpers.push(node);
        }
        // A Rust variant is also created by a call of it or as the argument of `Err(…)`.
        if lang == Lang::Rust && role & (CALL | HANDLER) != 0 {
            if let Some(v) = rust_creation(node, src) {
                out.push(reference(RefKind::Call, &v, node, enclosing(), src));
            }
        }
        if expecting && role & (CALL | FUNCTION) != 0 {
            out.extend(super::expect::expectation(lang, node, src));
        }
        if role & FUNCTION != 0 {
            let name = function_name(node, src);
            if let Some(n) = &name {
                out.push(reference(RefKind::Definition, n, node, enclosing(), src));
                if exposed(lang, node, n, src, &offers) {
                    out.push(Ref {
                        kind: RefKind::Exposed,
                        name: n.clone(),
                        line: node.start_position().row as u32 + 1,
                        function: enclosing(),
                        text: String::new(),
                    });
                }
                if matches!(lang, Lang::JavaScript | Lang::TypeScript) {
                    if let Some(code) = built_code(node, src) {
                        out.push(Ref {
                            kind: RefKind::Builds,
                            name: n.clone(),
                            line: node.start_position().row as u32 + 1,
                            function: enclosing(),
                            text: code,
                        });
                    }
                }
            }
            functions.push((node.end_byte(), name.or_else(enclosing)));
        } else if role & TRY != 0 {
            if let Some(body) = node.child_by_field_name("body") {
                let clauses: Vec<Catch> = named(node)
                    .into_iter()
                    .filter(|c| syn.catches.contains(&c.kind()))
                    .map(|c| super::catch_clause(c, src, python))
                    .collect();
                if !clauses.is_empty() {
                    tries.push((body.start_byte(), body.end_byte(), functions.len(), clauses));
                }
            }
        } else if role & CALL != 0 {
            if let Some(name) = callee_name(node, src) {
                out.push(reference(RefKind::Call, name, node, enclosing(), src));
                // The clauses that catch around the call in its own function, innermost first.
                let depth = functions.len();
                let around: Vec<Catch> = tries
                    .iter()
                    .rev()
                    .take_while(|(.., d, _)| *d == depth)
                    .filter(|(start, ..)| *start <= node.start_byte())
                    .flat_map(|(.., clauses)| clauses.iter().cloned())
                    .take(MAX_CLAUSES)
                    .collect();
                if !around.is_empty() {
                    out.push(Ref {
                        kind: RefKind::Catches,
                        name: name.to_owned(),
                        line: node.start_position().row as u32 + 1,
                        function: enclosing(),
                        text: Catch::encode_all(&around),
                    });
                }
            }
            if let Some(h) = call_handler(lang, node, src) {
                out.push(reference(RefKind::Handler, &h, node, enclosing(), src));
            }
        } else if role & HANDLER != 0 {
            for h in handled(lang, node, src) {
                out.push(reference(RefKind::Handler, &h, node, enclosing(), src));
            }
        } else if role & CREATION != 0 {
            // A creation of an error class is a call of it, as Python writes one.
            if let Some(name) = created_class(lang, node, src) {
                out.push(reference(RefKind::Call, &name, node, enclosing(), src));
            }
        }
        if role & RETURN != 0 {
            let function = functions.iter().rev().find_map(|(_, n)| n.clone());
            for s in returned_sentinels(node, src) {
                out.push(reference(RefKind::Use, s, node, function.clone(), src));
            }
        }
        out.len() < MAX_REFS_PER_FILE
    });
    if let Some(f) = facts {
        f.set_writes(writes);
        f.set_helper_nodes(helpers);
    }
    out
}

/// What a module offers outside it, read from its text once, when a function first asks: the
/// names a JavaScript module exports, the traits a Rust file keeps to its crate.
pub(crate) struct Offers<'s> {
    src: &'s str,
    exports: std::cell::OnceCell<std::collections::HashSet<&'s str>>,
    private_traits: std::cell::OnceCell<std::collections::HashSet<&'s str>>,
}

impl<'s> Offers<'s> {
    pub(crate) fn new(src: &'s str) -> Offers<'s> {
        Offers {
            src,
            exports: Default::default(),
            private_traits: Default::default(),
        }
    }

    /// The names the module exports (see [`errata_lang::js_exports`]).
    pub(crate) fn exports(&self) -> &std::collections::HashSet<&'s str> {
        self.exports
            .get_or_init(|| errata_lang::js_exports(self.src))
    }

    /// The traits the file declares without `pub` (or `pub(crate)`, `pub(super)`).
    fn private_traits(&self) -> &std::collections::HashSet<&'s str> {
        self.private_traits.get_or_init(|| {
            self.src
                .lines()
                .filter_map(|l| {
                    let l = l.trim_start();
                    let l = l.strip_prefix("unsafe ").unwrap_or(l);
                    ["trait ", "pub(crate) trait ", "pub(super) trait "]
                        .iter()
                        .find_map(|p| l.strip_prefix(p))
                })
                .map(|rest| {
                    let end = rest
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    &rest[..end]
                })
                .filter(|t| !t.is_empty())
                .collect()
        })
    }
}

/// Whether code outside its module may call the function `node`, named `name`, though its
/// head does not say so (see [`RefKind::Exposed`]).
pub(crate) fn exposed(
    lang: Lang,
    node: Node<'_>,
    name: &str,
    src: &str,
    offers: &Offers<'_>,
) -> bool {
    let Some(body) = node.parent() else {
        return false;
    };
    let holder = body.parent();
    match lang {
        // A method of a trait, or of an `impl` of a trait for a type: callable wherever the
        // trait is, unless the file declares the trait for the crate alone.
        Lang::Rust => match holder.filter(|_| body.kind() == "declaration_list") {
            Some(h) if h.kind() == "trait_item" => named(h)
                .into_iter()
                .any(|c| c.kind() == "visibility_modifier" && crate::text::text(c, src) == "pub"),
            Some(h) if h.kind() == "impl_item" => {
                let Some(t) = h.child_by_field_name("trait") else {
                    return false;
                };
                let t = crate::text::text(t, src);
                let t = t.split('<').next().unwrap_or(t);
                let t = t.rsplit("::").next().unwrap_or(t).trim();
                !t.is_empty() && !offers.private_traits().contains(t)
            }
            _ => false,
        },
        // A method of a public interface, not declared private.
        Lang::Java => {
            let Some(h) = holder.filter(|_| body.kind() == "interface_body") else {
                return false;
            };
            let head_of = |n: Node<'_>| {
                let end = n
                    .child_by_field_name("body")
                    .map_or(n.end_byte(), |b| b.start_byte());
                src[n.start_byte()..end].to_owned()
            };
            let words = |t: &str| {
                t.split(|c: char| !c.is_alphanumeric())
                    .any(|w| w == "private")
            };
            let public = head_of(h)
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == "public")
                || h.parent().is_some_and(|p| p.kind() == "interface_body");
            public && !words(&head_of(node))
        }
        Lang::JavaScript | Lang::TypeScript => {
            let exported = |n: &str| offers.exports().contains(n);
            let assigned_to_exports = |n: Node<'_>| {
                n.parent().is_some_and(|p| {
                    p.kind() == "assignment_expression"
                        && p.child_by_field_name("left").is_some_and(|l| {
                            let l = crate::text::text(l, src);
                            l.starts_with("exports.") || l.starts_with("module.exports")
                        })
                })
            };
            match node.kind() {
                "function_declaration" | "generator_function_declaration" => {
                    body.kind() == "export_statement" || body.kind() == "program" && exported(name)
                }
                "function_expression" | "arrow_function" | "function" => assigned_to_exports(node),
                "method_definition" => {
                    let Some(class) = holder.filter(|_| body.kind() == "class_body") else {
                        return false;
                    };
                    // `#private`, `_internal` and computed names (`[kDispatch]`) are no
                    // caller's to call by name.
                    let hidden = name.starts_with(['#', '_', '['])
                        || named(node).into_iter().any(|c| {
                            c.kind() == "accessibility_modifier"
                                && crate::text::text(c, src) != "public"
                        });
                    let class_exported = class
                        .parent()
                        .is_some_and(|p| p.kind() == "export_statement")
                        || assigned_to_exports(class)
                        || class
                            .child_by_field_name("name")
                            .is_some_and(|n| exported(crate::text::text(n, src)));
                    !hidden && class_exported
                }
                _ => false,
            }
        }
        Lang::Python | Lang::Go => false,
    }
}

/// The code a JavaScript function gives the error it makes, when it makes one with a fixed
/// code: `return Object.assign(new Error(msg), { code: 'EUSAGE' })`, or `const e = new
/// Error(msg); e.code = 'EUSAGE'; return e`. Nested functions are not its body.
fn built_code(function: Node<'_>, src: &str) -> Option<String> {
    let body = function.child_by_field_name("body")?;
    let text = |n: Node<'_>| &src[n.byte_range()];
    let string =
        |n: Node<'_>| (n.kind() == "string").then(|| text(n).trim_matches(['\'', '"']).to_owned());
    let mut codes: Vec<String> = Vec::new();
    let (mut makes, mut returns) = (false, false);
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "function_declaration"
            | "function_expression"
            | "arrow_function"
            | "method_definition"
            | "class_body" => continue,
            "new_expression" => {
                makes |= n
                    .child_by_field_name("constructor")
                    .is_some_and(|c| text(c).ends_with("Error"));
            }
            "return_statement" => returns = true,
            "pair" => {
                let key = n
                    .child_by_field_name("key")
                    .map(|k| text(k).trim_matches(['\'', '"']));
                if key == Some("code") {
                    codes.extend(n.child_by_field_name("value").and_then(string));
                }
            }
            "assignment_expression" => {
                let left = n.child_by_field_name("left");
                if left.is_some_and(|l| {
                    l.kind() == "member_expression"
                        && l.child_by_field_name("property")
                            .is_some_and(|p| text(p) == "code")
                }) {
                    codes.extend(n.child_by_field_name("right").and_then(string));
                }
            }
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    codes.dedup();
    let code = match codes.as_slice() {
        [one] if makes && returns => one.clone(),
        _ => return None,
    };
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    (!code.is_empty() && code.len() <= 40 && code.chars().all(word)).then_some(code)
}

fn reference(kind: RefKind, name: &str, at: Node<'_>, function: Option<String>, src: &str) -> Ref {
    let text_of = at;
    // A clause or definition is named by its head, without its body.
    let body = (kind != RefKind::Call)
        .then(|| {
            text_of
                .child_by_field_name("body")
                .or_else(|| named(text_of).into_iter().find(|n| n.kind() == "block"))
        })
        .flatten();
    let end = body.map_or(text_of.end_byte(), |b| b.start_byte());
    let head = &src[text_of.start_byte()..end.max(text_of.start_byte())];
    // Only the start is kept: a call with a long literal argument is not read whole.
    let mut cut = head.len().min(4 * MAX_REF_TEXT);
    while !head.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut_short = cut < head.len();
    let head = strip_comments(&head[..cut]);
    let head = head.trim_end_matches([':', '{', ' ']).to_owned();
    let mut text = super::clip_to(head, MAX_REF_TEXT);
    if cut_short && !text.ends_with('…') {
        text.push_str(" …");
    }
    Ref {
        kind,
        name: name.to_owned(),
        line: at.start_position().row as u32 + 1,
        function,
        text,
    }
}

/// A clause head without its comments (`#` and `//` to the end of the line, `/* */`).
fn strip_comments(head: &str) -> String {
    let mut out = String::with_capacity(head.len());
    for line in head.lines() {
        let line = match line.find("//").or_else(|| line.find(" #")) {
            Some(i) if !line[..i].contains(['"', '\'']) => &line[..i],
            _ => line,
        };
        out.push_str(line);
        out.push(' ');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A function's own name, or the name it is assigned to (`const f = () => …`).
fn function_name(node: Node<'_>, src: &str) -> Option<String> {
    if let Some(n) = node.child_by_field_name("name") {
        return Some(crate::text::text(n, src).to_owned());
    }
    let parent = node.parent()?;
    if matches!(
        parent.kind(),
        "variable_declarator" | "pair" | "assignment_expression"
    ) {
        let n = parent
            .child_by_field_name("name")
            .or_else(|| parent.child_by_field_name("key"))
            .or_else(|| parent.child_by_field_name("left"))?;
        let t = crate::text::text(n, src);
        return Some(t.rsplit('.').next().unwrap_or(t).to_owned());
    }
    None
}

/// The last segment of the called name: `release` of `this.release(…)`.
fn callee_name<'s>(call: Node<'_>, src: &'s str) -> Option<&'s str> {
    callee(call, src).map(|(_, name)| name)
}

/// The text of a call before its arguments (`this.release`) and the called name in it
/// (`release`). The arguments are the last child of a call in every grammar, so no field is
/// looked up by name: on a walk over every call of a tree, that lookup is what costs.
pub(crate) fn callee<'s>(call: Node<'_>, src: &'s str) -> Option<(&'s str, &'s str)> {
    let args = call.child(call.child_count().checked_sub(1)?)?;
    let kind = args.kind();
    if !(kind.ends_with("arguments") || kind == "argument_list") {
        return None;
    }
    let head = src[call.start_byte()..args.start_byte()].trim_end();
    let name = head
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .next()?;
    is_name(name).then_some((head, name))
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The class or sentinel a call tests for: `isinstance(e, KeyError)`, `errors.Is(err, ErrX)`.
fn call_handler(lang: Lang, call: Node<'_>, src: &str) -> Option<String> {
    let (f, _) = callee(call, src)?;
    let wanted = match lang {
        Lang::Python => f == "isinstance",
        Lang::Go => f == "errors.Is",
        _ => false,
    };
    if !wanted {
        return None;
    }
    let args = named(call.child_by_field_name("arguments")?);
    let second = args.get(1)?;
    last_name(crate::text::text(*second, src))
}

/// The classes or sentinels a node tests for, when it is a handler: `except (A, B)`,
/// `catch (IOException | X e)`, `e instanceof X`, `err == ErrX`, `Err(Error::NotFound)`.
fn handled(lang: Lang, node: Node<'_>, src: &str) -> Vec<String> {
    let text = |n: Node<'_>| crate::text::text(n, src);
    match (lang, node.kind()) {
        (Lang::Python, "except_clause") => {
            let Some(v) = node
                .child_by_field_name("value")
                .or_else(|| named(node).into_iter().next())
            else {
                return Vec::new();
            };
            let v = text(v);
            let v = v.split(" as ").next().unwrap_or(v);
            v.trim_matches(['(', ')'])
                .split(',')
                .filter_map(|c| last_name(c.trim()))
                .collect()
        }
        (Lang::Java, "catch_type") => text(node)
            .split('|')
            .filter_map(|c| last_name(c.trim()))
            .collect(),
        (Lang::TypeScript | Lang::JavaScript, "binary_expression")
        | (Lang::Java, "instanceof_expression") => {
            let t = text(node);
            match t.split_once(" instanceof ") {
                Some((_, right)) => last_name(right.split_whitespace().next().unwrap_or(""))
                    .into_iter()
                    .collect(),
                None => Vec::new(),
            }
        }
        (Lang::Go, "binary_expression") => {
            let (Some(l), Some(r)) = (
                node.child_by_field_name("left"),
                node.child_by_field_name("right"),
            ) else {
                return Vec::new();
            };
            let op = &src[l.end_byte()..r.start_byte()];
            if !matches!(op.trim(), "==" | "!=") {
                return Vec::new();
            }
            [l, r]
                .into_iter()
                .filter_map(|n| last_name(text(n)))
                .filter(|n| n.starts_with("Err"))
                .collect()
        }
        (Lang::Rust, "tuple_struct_pattern" | "struct_pattern") => node
            .child_by_field_name("type")
            .and_then(|t| variant(text(t)))
            .into_iter()
            .collect(),
        // The type of a pattern (`StoreError::NotFound` of `StoreError::NotFound(k)`) is
        // that pattern's handler already.
        (Lang::Rust, "scoped_identifier")
            if node.parent().is_some_and(|p| {
                p.kind().ends_with("pattern") && p.child_by_field_name("type") != Some(node)
            }) =>
        {
            variant(text(node)).into_iter().collect()
        }
        _ => Vec::new(),
    }
}

/// The sentinel errors a Go `return` gives back: `ErrClosed` of `return nil, fs.ErrClosed`.
fn returned_sentinels<'s>(ret: Node<'_>, src: &'s str) -> Vec<&'s str> {
    let Some(list) = named(ret).into_iter().next() else {
        return Vec::new();
    };
    let values = if list.kind() == "expression_list" {
        named(list)
    } else {
        vec![list]
    };
    values
        .into_iter()
        .filter(|v| matches!(v.kind(), "identifier" | "selector_expression"))
        .filter_map(|v| {
            let t = crate::text::text(v, src);
            let last = t.rsplit('.').next()?;
            (last.len() > 3 && is_name(last) && errata_explain::is_go_sentinel_name(last))
                .then_some(last)
        })
        .collect()
}

/// The last segment of a dotted name: `KeyError` of `builtins.KeyError`.
fn last_name(s: &str) -> Option<String> {
    let last = s.rsplit(['.', ':']).next()?.trim();
    is_name(last).then(|| last.to_owned())
}

/// `Enum::Variant`, the last two segments of a Rust path with at least two.
fn variant(path: &str) -> Option<String> {
    let mut parts = path.rsplit("::");
    let v = parts.next()?;
    let e = parts.next()?;
    (is_name(v) && is_name(e)).then(|| format!("{e}::{v}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(lang: Lang, file: &str, src: &str) -> Vec<(RefKind, String, Option<String>)> {
        let tree = crate::parse(lang, std::path::Path::new(file), src).unwrap();
        find_refs(lang, &tree, src)
            .into_iter()
            .map(|r| (r.kind, r.name, r.function))
            .collect()
    }

    #[test]
    fn creations_of_error_classes_are_calls_of_them() {
        let calls = |lang, file, src| -> Vec<String> {
            refs(lang, file, src)
                .into_iter()
                .filter(|r| r.0 == RefKind::Call)
                .map(|r| r.1)
                .collect()
        };
        assert_eq!(
            calls(
                Lang::TypeScript,
                "a.ts",
                "function f() { const m = new Map(); throw new errors.QuotaError(m.size); }"
            ),
            ["QuotaError"]
        );
        assert_eq!(
            calls(
                Lang::Go,
                "a.go",
                "package a\nfunc F() error { p := Point{1, 2}; return &fs.PathError{Op: \"open\"} }\n"
            ),
            ["PathError"]
        );
        assert_eq!(
            calls(
                Lang::Java,
                "A.java",
                "class A { void f() { var l = new ArrayList<String>(); throw new java.io.UncheckedIOException(null); } }"
            ),
            ["UncheckedIOException"]
        );
        // Rust: a tuple variant called, a struct variant, a unit variant in `Err(…)`; not
        // `String::from`. A variant matched in a pattern is one handler, not two.
        let r = refs(
            Lang::Rust,
            "a.rs",
            "fn f(k: &str) -> Result<(), E> {\n    let s = String::from(k);\n    if s.is_empty() { return Err(E::Missing(s)); }\n    if k == \"x\" { return Err(E::Locked { by: 1 }); }\n    match g() { Err(E::Missing(_)) => Err(E::Closed), _ => Ok(()) }\n}\n",
        );
        let created: Vec<&str> = r
            .iter()
            .filter(|r| r.0 == RefKind::Call && r.1.contains("::"))
            .map(|r| r.1.as_str())
            .collect();
        assert_eq!(created, ["E::Missing", "E::Locked", "E::Closed"]);
        let handled = r.iter().filter(|r| r.0 == RefKind::Handler).count();
        assert_eq!(handled, 1, "{r:?}");
    }

    #[test]
    fn calls_definitions_and_handlers() {
        let r = refs(
            Lang::TypeScript,
            "a.ts",
            "async function onRelease(p) { try { await release(p, false); } catch (e) { if (e instanceof LeaseError) {} } }\nconst g = () => this.release(1);\n",
        );
        assert!(r.contains(&(RefKind::Definition, "onRelease".into(), None)));
        assert!(r.contains(&(RefKind::Call, "release".into(), Some("onRelease".into()))));
        assert!(r.contains(&(
            RefKind::Handler,
            "LeaseError".into(),
            Some("onRelease".into())
        )));
        assert!(r.contains(&(RefKind::Call, "release".into(), Some("g".into()))));
        let r = refs(
            Lang::Python,
            "a.py",
            "def f():\n    try:\n        g()\n    except (KeyError, mod.Bad) as e:\n        pass\n",
        );
        assert!(r.contains(&(RefKind::Handler, "KeyError".into(), Some("f".into()))));
        assert!(r.contains(&(RefKind::Handler, "Bad".into(), Some("f".into()))));
        let r = refs(
            Lang::Go,
            "a.go",
            "package a\nfunc F() { if errors.Is(err, fs.ErrNotExist) || err == ErrClosed { G() } }\n",
        );
        assert!(r.contains(&(RefKind::Handler, "ErrNotExist".into(), Some("F".into()))));
        assert!(r.contains(&(RefKind::Handler, "ErrClosed".into(), Some("F".into()))));
        let r = refs(
            Lang::Go,
            "a.go",
            "package a\nfunc Open() (int, error) { return 0, fs.ErrNotExist }\n",
        );
        assert!(r.contains(&(RefKind::Use, "ErrNotExist".into(), Some("Open".into()))));
        let r = refs(
            Lang::Rust,
            "a.rs",
            "fn f() { match g() { Err(Error::NotFound(p)) => {}, _ => {} } }\n",
        );
        assert!(r.contains(&(RefKind::Handler, "Error::NotFound".into(), Some("f".into()))));
        let r = refs(
            Lang::Java,
            "A.java",
            "class A { void f() { try { g(); } catch (IOException | java.io.UncheckedIOException e) {} } }\n",
        );
        assert!(r.contains(&(RefKind::Handler, "IOException".into(), Some("f".into()))));
        assert!(r.contains(&(
            RefKind::Handler,
            "UncheckedIOException".into(),
            Some("f".into())
        )));
        assert!(r.contains(&(RefKind::Call, "g".into(), Some("f".into()))));
    }
}
