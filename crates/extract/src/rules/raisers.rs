//! Raisers: functions that raise the message they are given. `fail(reason)` in the JDK's URI
//! parser throws `new URISyntaxException(input, reason)`; a Go parser's `p.errorf(format,
//! args...)` returns `fmt.Errorf(format, args...)`; `self._error(msg)` raises `ParseError(msg)`.
//! The raise inside says nothing of its own, so it is no record; each call that passes a
//! message is one, at the call, with the class, code and type of the raise inside.
//!
//! A call is read by reading the raise again with the raiser's parameters bound to the call's
//! arguments ([`Cx::bound`]): the rules follow a parameter as they follow a local, so whatever
//! they make of a message (a printf format, a concatenation, a translated literal) they make of
//! the argument. Only raisers and calls of the same file are read.

use std::cell::Cell;
use std::collections::HashMap;

use tree_sitter::Node;

use super::{last_segment, named_children, path_to, Collector, Cx, Rules, Site};

/// The parameters of the raiser a call is read for, bound to the call's arguments.
pub(crate) struct Call {
    /// The raiser's byte range: a parameter is bound only where the raiser's own body names it.
    raiser: (usize, usize),
    /// Each parameter, with the byte range of its argument.
    arguments: Vec<(String, (usize, usize))>,
    /// Whether a rule followed a parameter to its argument.
    used: Cell<bool>,
}

impl Call {
    /// The argument node passed for `name`, when `function` is the raiser.
    pub(super) fn argument<'t>(&self, name: &str, function: Node<'t>) -> Option<Node<'t>> {
        if (function.start_byte(), function.end_byte()) != self.raiser {
            return None;
        }
        let &(_, (start, end)) = self.arguments.iter().find(|(n, _)| n == name)?;
        let mut root = function;
        while let Some(p) = root.parent() {
            root = p;
        }
        let mut arg = root.descendant_for_byte_range(start, end)?;
        while let Some(p) = arg
            .parent()
            .filter(|p| p.start_byte() == start && p.end_byte() == end)
        {
            arg = p;
        }
        self.used.set(true);
        Some(arg)
    }
}

/// The node kinds of a call in the six languages.
const CALLS: &[&str] = &["call", "call_expression", "method_invocation"];

/// The receivers a call of a method of the same file goes through.
const SELF: &[&str] = &["", "self", "this", "cls", "Self", "super"];

/// The clauses that handle an error.
const HANDLERS: &[&str] = &["catch_clause", "except_clause", "except_group_clause"];

/// The fewest letters and digits an argument's literal needs to be taken as a message.
const MIN_MESSAGE: usize = 3;

impl<'t> Collector<'t, '_> {
    /// The calls of the file's raisers that pass a message, as sites at the call.
    pub(super) fn raiser_calls(&mut self, rules: &dyn Rules, cx: &Cx<'_>) {
        let reread = std::mem::take(&mut self.reread);
        // Each function holding a raise to read again, with its parameters and those raises.
        let mut raisers: Vec<(Node<'t>, Vec<String>, Vec<Node<'t>>)> = Vec::new();
        let mut index: HashMap<usize, usize> = HashMap::new();
        for node in reread {
            let path = path_to(self.root, node);
            let Some(at) = (0..path.len() - 1)
                .rev()
                .find(|&i| rules.is_function(path[i].kind()))
            else {
                continue;
            };
            // A raise in a handler is the raiser's own failure (a message missing from a
            // resource bundle), not what its callers ask for.
            if path[at..].iter().any(|p| HANDLERS.contains(&p.kind())) {
                continue;
            }
            let f = path[at];
            let i = *index.entry(f.id()).or_insert_with(|| {
                raisers.push((f, self.facts.parameter_names(f), Vec::new()));
                raisers.len() - 1
            });
            raisers[i].2.push(node);
        }
        for (raiser, params, raises) in raisers {
            if !params.iter().any(|p| is_message_name(p)) {
                continue;
            }
            let Some(name) = raiser.child_by_field_name("name").map(|n| cx.text(n)) else {
                continue;
            };
            for call in self.calls_of(name, raiser, cx) {
                if self.sites.len() >= super::MAX_SITES_PER_FILE {
                    return;
                }
                self.read_call(rules, cx, raiser, &params, &raises, call);
            }
        }
    }

    /// The calls of `name` in the file, outside the raiser itself, made as a call of the
    /// raiser would be: by its bare name, through `self`/`this`, or, for a Go method, through
    /// any variable.
    fn calls_of(&self, name: &str, raiser: Node<'t>, cx: &Cx<'_>) -> Vec<Node<'t>> {
        let src = cx.src.as_bytes();
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
        let go_method = raiser.kind() == "method_declaration"
            && raiser.child_by_field_name("receiver").is_some();
        let mut out = Vec::new();
        for start in memchr::memmem::find_iter(src, name.as_bytes()) {
            let end = start + name.len();
            if (start > 0 && ident(src[start - 1])) || src.get(end).is_some_and(|&b| ident(b)) {
                continue;
            }
            if (raiser.start_byte()..raiser.end_byte()).contains(&start) {
                continue;
            }
            let after = src[end..].iter().find(|b| !b.is_ascii_whitespace());
            if after != Some(&b'(') {
                continue;
            }
            let Some(word) = self.root.descendant_for_byte_range(start, end) else {
                continue;
            };
            let path = path_to(self.root, word);
            let Some(call) = path
                .iter()
                .rev()
                .take(3)
                .find(|n| CALLS.contains(&n.kind()))
                .copied()
            else {
                continue;
            };
            let Some((receiver, called)) = callee(call, cx) else {
                continue;
            };
            let through_self =
                SELF.contains(&receiver) || (go_method && receiver.bytes().all(ident));
            if called != name || !through_self || self.consumed.contains(&call.id()) {
                continue;
            }
            out.push(call);
        }
        out
    }

    /// Reads the raises of `raiser` with its parameters bound to the arguments of `call`, and
    /// keeps the first that makes a message of them.
    fn read_call(
        &mut self,
        rules: &dyn Rules,
        cx: &Cx<'_>,
        raiser: Node<'t>,
        params: &[String],
        raises: &[Node<'t>],
        call: Node<'t>,
    ) {
        let Some(args) = call.child_by_field_name("arguments") else {
            return;
        };
        let mut arguments = Vec::new();
        let mut literals = Vec::new();
        let mut positional = params.iter();
        for arg in named_children(args) {
            let (param, value) = if arg.kind() == "keyword_argument" {
                let (Some(k), Some(v)) = (
                    arg.child_by_field_name("name"),
                    arg.child_by_field_name("value"),
                ) else {
                    continue;
                };
                match params.iter().find(|p| *p == cx.text(k)) {
                    Some(p) => (p, v),
                    None => continue,
                }
            } else {
                match positional.next() {
                    Some(p) => (p, arg),
                    None => break,
                }
            };
            // A message the caller built in a local a few lines above counts as its own.
            let shown = match value.kind() {
                "identifier" => rules.local_value(value, cx.text(value), cx),
                _ => None,
            };
            if !is_message_name(param) {
                continue;
            }
            literal_runs(shown.unwrap_or(value), cx, &mut literals);
            arguments.push((param.clone(), (value.start_byte(), value.end_byte())));
        }
        if literals.is_empty() {
            return;
        }
        let bound = Cx {
            src: cx.src,
            include_tests: cx.include_tests,
            call: Some(Call {
                raiser: (raiser.start_byte(), raiser.end_byte()),
                arguments,
                used: Cell::new(false),
            }),
        };
        let used = |c: &Cx<'_>| c.call.as_ref().is_some_and(|c| c.used.get());
        for raise in raises {
            if let Some(c) = &bound.call {
                c.used.set(false);
            }
            let Some(found) = rules.site(*raise, &bound) else {
                continue;
            };
            let message = found.template.message();
            // The message must be made of the argument: a raise that only passes it on as a
            // detail of a message of its own is the raiser's, and already a record.
            if !used(&bound) || !literals.iter().any(|l| message.contains(l.as_str())) {
                continue;
            }
            let path = path_to(self.root, call);
            let line = rules.statement_of(&path).start_position().row as u32 + 1;
            if self
                .sites
                .iter()
                .any(|s| s.line == line && s.template == found.template)
            {
                return;
            }
            self.consumed.insert(call.id());
            self.sites.push(Site {
                line,
                template: found.template,
                error_type: found.error_type,
                class: found.class,
                code: found.code,
                status: found.status,
                severity: found.severity,
                function: rules.function_name(&path, cx),
                facts: self.facts.site(&path, rules, cx),
            });
            return;
        }
    }
}

/// The receiver and the name of the function a call calls: `("self", "error")` of
/// `self.error(…)`, `("", "fail")` of `fail(…)`.
fn callee<'a>(call: Node<'_>, cx: &Cx<'a>) -> Option<(&'a str, &'a str)> {
    if call.kind() == "method_invocation" {
        let name = crate::text::text(call.child_by_field_name("name")?, cx.src);
        let receiver = call
            .child_by_field_name("object")
            .map_or("", |o| crate::text::text(o, cx.src));
        return Some((receiver, name));
    }
    let func = crate::text::text(call.child_by_field_name("function")?, cx.src);
    let name = last_segment(func);
    let receiver = func[..func.len() - name.len()].trim_end_matches(['.', ':', '?']);
    Some((receiver, name))
}

/// The longest runs of letters, digits and spaces of the string literals in `node`, those with
/// at least [`MIN_MESSAGE`] letters or digits.
fn literal_runs(node: Node<'_>, cx: &Cx<'_>, out: &mut Vec<String>) {
    if node.kind().contains("string") {
        let text = cx.text(node);
        let best = text
            .split(|c: char| !(c.is_alphanumeric() || c == ' '))
            .map(str::trim)
            .max_by_key(|r| r.len())
            .unwrap_or("");
        if best.chars().filter(|c| c.is_alphanumeric()).count() >= MIN_MESSAGE {
            out.push(best.to_owned());
        }
        return;
    }
    let mut c = node.walk();
    for child in node.named_children(&mut c) {
        literal_runs(child, cx, out);
    }
}

/// Whether a parameter's name says it is a message: `msg`, `message`, `reason`, `format`,
/// `errorText`, `what`. A raiser of `name` or `key` (`raise KeyError(key)`,
/// `'invalid location: ' + where`) is a lookup that fails on a bad argument, and its callers
/// pass good ones.
fn is_message_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    const WORDS: &[&str] = &[
        "msg",
        "message",
        "reason",
        "format",
        "fmt",
        "text",
        "detail",
        "desc",
        "why",
        "what",
        "problem",
        "err",
        "explanation",
    ];
    WORDS.iter().any(|w| name.contains(w))
}
