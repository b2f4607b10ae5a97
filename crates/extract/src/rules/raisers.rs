//! Raisers: functions that raise the message they are given. `fail(reason)` in the JDK's URI
//! parser throws `new URISyntaxException(input, reason)`; a Go parser's `p.errorf(format,
//! args...)` returns `fmt.Errorf(format, args...)`; `self._error(msg)` raises `ParseError(msg)`.
//! The raise inside says nothing of its own, so it is no record; each call that passes a
//! message is one, at the call, with the class, code and type of the raise inside.
//!
//! A call is read by reading the raise again with the raiser's parameters bound to the call's
//! arguments ([`Cx::bound`]): the rules follow a parameter as they follow a local, so whatever
//! they make of a message (a printf format, a concatenation, a translated literal) they make of
//! the argument. A raiser that hands its message to another (`failExpecting(expected)` calling
//! `fail("Expected " + expected)`) is a raiser too, up to [`MAX_DEPTH`] calls deep. So is a
//! Python exception class whose `__init__` words the message it is given: a raise of the class
//! (`raise JSONDecodeError("Expecting value", s, pos)`) is read as a call of its `__init__`, and
//! its record is the message the class makes of it. Only raisers and calls of the same file are
//! read.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{
    is_class_name, is_message_name, last_segment, named_children, path_to, whole_word, Collector,
    Cx, Rules,
};

/// The parameters of the raiser a call is read for, bound to the call's arguments.
pub(crate) struct Call<'a> {
    /// The raiser's byte range: a parameter is bound only where the raiser's own body names it.
    raiser: (usize, usize),
    /// Each parameter, with the byte range of its argument.
    arguments: Vec<(String, (usize, usize))>,
    /// Whether a rule followed a parameter to its argument.
    used: Cell<bool>,
    /// The call being read of the raiser that made this call, whose arguments this one's
    /// arguments may name.
    outer: Option<&'a Call<'a>>,
}

impl Call<'_> {
    /// The argument node passed for `name`, when `function` is the raiser of this call or of
    /// an outer one.
    pub(super) fn argument<'t>(&self, name: &str, function: Node<'t>) -> Option<Node<'t>> {
        if (function.start_byte(), function.end_byte()) != self.raiser {
            return self.outer?.argument(name, function);
        }
        let &(_, (start, end)) = self.arguments.iter().find(|(n, _)| n == name)?;
        let mut arg = super::file_root(function).descendant_for_byte_range(start, end)?;
        while let Some(p) = arg
            .parent()
            .filter(|p| p.start_byte() == start && p.end_byte() == end)
        {
            arg = p;
        }
        // A raise is the call's when it follows the message; a type or code it also reads
        // does not make it so.
        if is_message_name(name) {
            self.used.set(true);
        }
        Some(arg)
    }
}

/// The most raises of one raiser read for each of its calls: a helper raises in a few places,
/// and a function with many raises is not one.
const MAX_RAISES: usize = 16;

/// How deep raisers that call raisers are followed.
const MAX_DEPTH: usize = 3;

/// A function that raises the message it is given.
struct Raiser<'t> {
    node: Node<'t>,
    params: Vec<String>,
    raises: Vec<Raise<'t>>,
}

/// Where a raiser's message goes.
enum Raise<'t> {
    /// A node a rule reads as a site.
    Site(Node<'t>),
    /// A call of another raiser (by its index).
    Via(Node<'t>, usize),
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
        let mut raisers: Vec<Raiser<'t>> = Vec::new();
        let mut index: HashMap<usize, usize> = HashMap::new();
        self.factories(&reread, cx, &mut raisers, &mut index);
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
            let i = self.raiser_of(path[at], &mut raisers, &mut index);
            if raisers[i].raises.len() < MAX_RAISES {
                raisers[i].raises.push(Raise::Site(node));
            }
        }
        raisers.retain(|r| r.params.iter().any(|p| is_message_name(p)));
        let mut first = 0;
        for _ in 0..MAX_DEPTH {
            let end = raisers.len();
            // The calls that hand a raiser a parameter of the function they are in: that
            // function is a raiser of the next depth.
            let mut next: Vec<(Node<'t>, Node<'t>, usize)> = Vec::new();
            for (r, path) in self.calls_of(&raisers[first..end], first, cx) {
                if self.sites.len() >= super::MAX_SITES_PER_FILE {
                    return;
                }
                let call = *path.last().expect("a path ends at its call");
                let args = arguments(call, &raisers[r].params, cx);
                self.read_call(rules, cx, &raisers, r, &path, &args);
                if let Some(f) = self.hands_on_parameter(rules, cx, &path, &args) {
                    next.push((f, call, r));
                }
            }
            first = end;
            let mut index: HashMap<usize, usize> = HashMap::new();
            for (f, call, r) in next {
                let i = self.raiser_of(f, &mut raisers, &mut index);
                if raisers[i].raises.len() < MAX_RAISES {
                    raisers[i].raises.push(Raise::Via(call, r));
                }
            }
            if raisers.len() == first {
                break;
            }
        }
    }

    /// Factories raised by name: `raise suffixed_err(src, pos, "Invalid value")`, where the
    /// function returns `TOMLDecodeError(f"{msg} (at …)")`. The raise says nothing of its own;
    /// the factory is a raiser whose raises are the error classes it returns.
    fn factories(
        &self,
        reread: &[Node<'t>],
        cx: &Cx<'_>,
        raisers: &mut Vec<Raiser<'t>>,
        index: &mut HashMap<usize, usize>,
    ) {
        let mut seen = HashSet::new();
        for node in reread {
            if node.kind() != "raise_statement" {
                continue;
            }
            let Some(func) = node
                .named_child(0)
                .filter(|c| c.kind() == "call")
                .and_then(|c| c.child_by_field_name("function"))
                .filter(|f| f.kind() == "identifier")
            else {
                continue;
            };
            let name = cx.text(func);
            if !seen.insert(name) {
                continue;
            }
            let Some(f) = self.definition(name, cx) else {
                continue;
            };
            let mut returns = Vec::new();
            crate::facts::preorder(f, |n| {
                if n.kind() == "return_statement" {
                    let built = n.named_child(0).filter(|c| c.kind() == "call");
                    let class = built
                        .and_then(|c| c.child_by_field_name("function"))
                        .map(|g| last_segment(cx.text(g)));
                    if let (Some(c), Some(class)) = (built, class) {
                        if is_class_name(class) {
                            returns.push(c);
                        }
                    }
                }
                returns.len() < MAX_RAISES
            });
            if returns.is_empty() {
                continue;
            }
            let i = self.raiser_of(f, raisers, index);
            raisers[i]
                .raises
                .extend(returns.into_iter().map(Raise::Site));
        }
    }

    /// The function of the file defined as `def name(`.
    fn definition(&self, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
        let at = memchr::memmem::find(cx.src.as_bytes(), format!("def {name}(").as_bytes())? + 4;
        let f = self
            .root
            .descendant_for_byte_range(at, at + name.len())?
            .parent()?;
        (f.kind() == "function_definition").then_some(f)
    }

    /// The index of the raiser of function `f` in `raisers`, added if it is not there.
    fn raiser_of(
        &self,
        f: Node<'t>,
        raisers: &mut Vec<Raiser<'t>>,
        index: &mut HashMap<usize, usize>,
    ) -> usize {
        *index.entry(f.id()).or_insert_with(|| {
            raisers.push(Raiser {
                node: f,
                params: self.facts.parameter_names(f),
                raises: Vec::new(),
            });
            raisers.len() - 1
        })
    }

    /// The function the call at the end of `path` is in, when the call passes one of that
    /// function's message parameters in `args` (the raiser's message arguments).
    fn hands_on_parameter(
        &self,
        rules: &dyn Rules,
        cx: &Cx<'_>,
        path: &[Node<'t>],
        args: &[(String, Node<'t>)],
    ) -> Option<Node<'t>> {
        let f = *path[..path.len() - 1]
            .iter()
            .rev()
            .find(|p| rules.is_function(p.kind()))?;
        let params = self.facts.parameter_names(f);
        args.iter()
            .any(|(_, value)| {
                let text = cx.text(*value);
                params
                    .iter()
                    .any(|p| is_message_name(p) && has_word(text, p))
            })
            .then_some(f)
    }

    /// The calls in the file of each of `raisers` (numbered from `first`), outside the raiser
    /// itself, made as a call of the raiser would be: by its bare name, through `self`/`this`,
    /// or, for a Go method, through any variable. One pass over the file finds every name.
    /// Each call comes with the path from the root down to it.
    fn calls_of(
        &self,
        raisers: &[Raiser<'t>],
        first: usize,
        cx: &Cx<'_>,
    ) -> Vec<(usize, Vec<Node<'t>>)> {
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, r) in raisers.iter().enumerate() {
            if let Some(name) = raiser_name(r.node, cx) {
                by_name.entry(name).or_default().push(first + i);
            }
        }
        let names: Vec<&str> = by_name.keys().copied().collect();
        let Ok(words) = aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .build(&names)
        else {
            return Vec::new();
        };
        let src = cx.src.as_bytes();
        let mut out = Vec::new();
        for m in words.find_iter(src) {
            let (start, end) = (m.start(), m.end());
            let name = names[m.pattern().as_usize()];
            if !whole_word(src, start, end) {
                continue;
            }
            let after = src[end..].iter().find(|b| !b.is_ascii_whitespace());
            if after != Some(&b'(') {
                continue;
            }
            let Some(word) = self.root.descendant_for_byte_range(start, end) else {
                continue;
            };
            let mut path = path_to(self.root, word);
            let Some(at) = (path.len().saturating_sub(3)..path.len())
                .rev()
                .find(|&i| CALLS.contains(&path[i].kind()))
            else {
                continue;
            };
            path.truncate(at + 1);
            let call = path[at];
            let Some((receiver, called)) = callee(call, cx) else {
                continue;
            };
            if called != name {
                continue;
            }
            for &r in &by_name[name] {
                let raiser = raisers[r - first].node;
                // A raise of the class is a site already; its constructor may word it anew.
                if self.consumed.contains(&call.id()) && !is_constructor(raiser, cx) {
                    continue;
                }
                let go_method = raiser.kind() == "method_declaration"
                    && raiser.child_by_field_name("receiver").is_some();
                // A Go method is called through any variable: `p.errorf(…)`.
                let plain = receiver
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$');
                let through_self = SELF.contains(&receiver) || (go_method && plain);
                if through_self && !(raiser.start_byte()..raiser.end_byte()).contains(&start) {
                    out.push((r, path.clone()));
                }
            }
        }
        out
    }

    /// Reads the raises of `raisers[r]` with its parameters bound to `args`, the arguments of
    /// the call at the end of `path`, and makes a site at the call of the first that makes a
    /// message of them.
    fn read_call(
        &mut self,
        rules: &dyn Rules,
        cx: &Cx<'_>,
        raisers: &[Raiser<'t>],
        r: usize,
        path: &[Node<'t>],
        args: &[(String, Node<'t>)],
    ) {
        let mut literals = Vec::new();
        for &(_, value) in args {
            // A message the caller built in a local a few lines above counts as its own.
            let shown = match value.kind() {
                "identifier" => rules.local_value(value, cx.text(value), cx),
                _ => None,
            };
            literal_runs(shown.unwrap_or(value), cx, &mut literals);
        }
        if literals.is_empty() {
            return;
        }
        let call = *path.last().expect("a path ends at its call");
        let every = every_argument(call, &raisers[r].params, cx);
        let top = bind(&raisers[r], &every, None);
        let Some(found) = self.read(rules, cx, raisers, r, &top, &top) else {
            return;
        };
        // The message must be made of the argument: a raise that only passes it on as a
        // detail of a message of its own is the raiser's, and already a record.
        let message = found.template.message();
        if !literals.iter().any(|l| message.contains(l.as_str())) {
            return;
        }
        let line = rules.statement_of(path).start_position().row as u32 + 1;
        if self
            .sites
            .iter()
            .any(|s| s.line == line && s.template == found.template)
        {
            return;
        }
        // `raise JSONDecodeError("Expecting value", s, pos)`, whose constructor makes
        // "Expecting value: line %d column %d (char %d)" of it: the raise's record is that.
        if is_constructor(raisers[r].node, cx) {
            self.sites.retain(|s| {
                !(s.line == line
                    && s.class == found.class
                    && message.contains(&s.template.message()))
            });
        }
        self.consumed.insert(path[path.len() - 1].id());
        // At the call: a line inside the raiser's body is not this site's.
        let found = super::Found {
            line_at: None,
            ..found
        };
        let site = self.site_of(found, path, rules, cx);
        self.sites.push(site);
    }

    /// The first raise of `raisers[r]`, read under `call`, that follows a parameter of `top`
    /// (the call a site is made at) to its argument.
    fn read(
        &self,
        rules: &dyn Rules,
        cx: &Cx<'_>,
        raisers: &[Raiser<'t>],
        r: usize,
        call: &Call<'_>,
        top: &Call<'_>,
    ) -> Option<super::Found<'t>> {
        for raise in &raisers[r].raises {
            match *raise {
                Raise::Site(node) => {
                    top.used.set(false);
                    let bound = Cx {
                        src: cx.src,
                        include_tests: cx.include_tests,
                        call: Some(call),
                        alternatives: Default::default(),
                        parts: Default::default(),
                        path: cx.path,
                    };
                    if let Some(found) = rules.site(node, &bound).filter(|_| top.used.get()) {
                        return Some(found);
                    }
                }
                Raise::Via(inner_call, inner) => {
                    let args = arguments(inner_call, &raisers[inner].params, cx);
                    let inner_bound = bind(&raisers[inner], &args, Some(call));
                    if let Some(found) = self.read(rules, cx, raisers, inner, &inner_bound, top) {
                        return Some(found);
                    }
                }
            }
        }
        None
    }
}

/// The name a function is called by: its own, or that of the variable a function literal is
/// given to (`addrErr := func(addr, why string) …`, `const fail = (msg) => …`).
fn raiser_name<'a>(f: Node<'_>, cx: &Cx<'a>) -> Option<&'a str> {
    // A Python class is called by its name to run its `__init__`.
    if is_constructor(f, cx) {
        let class = f.parent()?.parent()?;
        return Some(cx.text(class.child_by_field_name("name")?));
    }
    if let Some(name) = f.child_by_field_name("name") {
        return Some(cx.text(name));
    }
    let mut holder = f.parent()?;
    if holder.kind() == "expression_list" {
        holder = holder.parent()?;
    }
    if let Some(name) = holder.child_by_field_name("name") {
        return Some(cx.text(name));
    }
    let mut left = holder.child_by_field_name("left")?;
    if left.kind() == "expression_list" && left.named_child_count() == 1 {
        left = left.named_child(0)?;
    }
    (left.kind() == "identifier").then(|| cx.text(left))
}

/// Whether a function is a Python class's `__init__`, which a call of the class runs.
fn is_constructor(f: Node<'_>, cx: &Cx<'_>) -> bool {
    f.kind() == "function_definition"
        && f.child_by_field_name("name")
            .is_some_and(|n| cx.text(n) == "__init__")
        && f.parent()
            .and_then(|b| b.parent())
            .is_some_and(|c| c.kind() == "class_definition")
}

/// The message parameters of a raiser with the arguments `call` passes them: positional ones
/// in order, Python's keyword ones by name.
fn arguments<'t>(call: Node<'t>, params: &[String], cx: &Cx<'_>) -> Vec<(String, Node<'t>)> {
    let mut out = every_argument(call, params, cx);
    out.retain(|(p, _)| is_message_name(p));
    out
}

/// Every parameter of a raiser with the argument `call` passes it (see [`arguments`]): what
/// the raise reads besides the message, a warning's type or an error's code, is the call's
/// too.
fn every_argument<'t>(call: Node<'t>, params: &[String], cx: &Cx<'_>) -> Vec<(String, Node<'t>)> {
    let Some(args) = call.child_by_field_name("arguments") else {
        return Vec::new();
    };
    let mut out = Vec::new();
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
        out.push((param.clone(), value));
    }
    out
}

/// The parameters of `raiser` bound to `args`, the message arguments of a call of it.
fn bind<'a>(
    raiser: &Raiser<'_>,
    args: &[(String, Node<'_>)],
    outer: Option<&'a Call<'a>>,
) -> Call<'a> {
    Call {
        raiser: (raiser.node.start_byte(), raiser.node.end_byte()),
        arguments: args
            .iter()
            .map(|(p, v)| (p.clone(), (v.start_byte(), v.end_byte())))
            .collect(),
        used: Cell::new(false),
        outer,
    }
}

/// Whether `text` holds `word` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, word.as_bytes()).any(|i| whole_word(bytes, i, i + word.len()))
}

/// The receiver and the name of the function a call calls: `("self", "error")` of
/// `self.error(…)`, `("", "fail")` of `fail(…)`.
fn callee<'a>(call: Node<'_>, cx: &Cx<'a>) -> Option<(&'a str, &'a str)> {
    if call.kind() == "method_invocation" {
        let name = cx.text(call.child_by_field_name("name")?);
        let receiver = call
            .child_by_field_name("object")
            .map_or("", |o| cx.text(o));
        return Some((receiver, name));
    }
    let func = cx.text(call.child_by_field_name("function")?);
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
