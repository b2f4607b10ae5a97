//! The error-site rules of each language, and what they share: the walk over a syntax tree,
//! the statement a site belongs to, and following a name to the local value it was given.

mod go;
mod java;
mod js;
mod python;
mod raisers;
mod rust;

use std::collections::HashSet;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use errata_lang::Lang;
use errata_model::{ErrorType, Severity, Template};
use tree_sitter::{Node, Tree};

/// An error site found in one file, before it becomes a record.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    /// 1-based line of the raising statement's first line.
    pub line: u32,
    pub template: Template,
    pub error_type: ErrorType,
    pub class: Option<String>,
    pub code: Option<String>,
    pub status: Option<u16>,
    pub severity: Severity,
    /// The enclosing function or method, if any.
    pub function: Option<String>,
    /// What static analysis found out about the site.
    pub facts: errata_explain::Facts,
}

/// What a rule says about one node: an error site, with the nodes it used up so that no other
/// rule reports them again.
pub(crate) struct Found<'t> {
    pub(crate) at: Node<'t>,
    pub(crate) template: Template,
    pub(crate) error_type: ErrorType,
    pub(crate) class: Option<String>,
    pub(crate) code: Option<String>,
    pub(crate) status: Option<u16>,
    pub(crate) severity: Severity,
    pub(crate) consumed: Vec<Node<'t>>,
    /// The node whose line the site is at, where it is not the start of its statement: the
    /// `expect` of `self.try_init()\n    .expect("…")`, where the panic is reported.
    pub(crate) line_at: Option<Node<'t>>,
}

impl<'t> Found<'t> {
    pub(crate) fn new(at: Node<'t>, template: Template, error_type: ErrorType) -> Found<'t> {
        let severity = match error_type {
            ErrorType::Panic | ErrorType::Exit => Severity::Fatal,
            _ => Severity::Error,
        };
        Found {
            at,
            template,
            error_type,
            class: None,
            code: None,
            status: None,
            severity,
            consumed: Vec::new(),
            line_at: None,
        }
    }

    /// The site is at the line of `node`, not at its statement's first line.
    pub(crate) fn line_at(mut self, node: Node<'t>) -> Self {
        self.line_at = Some(node);
        self
    }

    pub(crate) fn class(mut self, class: Option<String>) -> Self {
        self.class = class.map(|c| without_module_alias(&c).to_owned());
        self
    }

    pub(crate) fn code(mut self, code: Option<String>) -> Self {
        if code.is_some() {
            self.code = code;
        }
        self
    }

    pub(crate) fn status(mut self, status: Option<u16>) -> Self {
        if status.is_some() {
            self.status = status;
        }
        self
    }

    pub(crate) fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub(crate) fn consume(mut self, node: Node<'t>) -> Self {
        self.consumed.push(node);
        self
    }
}

/// The context every rule reads: the source, and the options of the run.
pub(crate) struct Cx<'s> {
    pub(crate) src: &'s str,
    pub(crate) include_tests: bool,
    /// While a call of a raiser is read (see [`raisers`]): the raiser's parameters, bound to the
    /// arguments of the call.
    call: Option<&'s raisers::Call<'s>>,
    /// The other messages of the site being read, where its message is one of two
    /// (`const msg = forbidden ? `Could not download ${p}` : `No matching version found for
    /// ${p}.`; throw new Error(msg)`): each becomes a record at the same site.
    alternatives: std::cell::RefCell<Vec<(Template, Template)>>,
    /// Above zero while the message being read is a part of a longer text that no conditional
    /// of it can change alone (a log's arguments, joined): a conditional there is no message.
    parts: std::cell::Cell<u32>,
    /// The file being read, on disk: where a constant of another module of its crate is
    /// looked up (`crate::util::error::CONTEXT_MISSING_ERROR`).
    pub(crate) path: Option<&'s std::path::Path>,
}

impl<'s> Cx<'s> {
    pub(crate) fn new(src: &'s str, include_tests: bool) -> Cx<'s> {
        Cx {
            src,
            include_tests,
            call: None,
            alternatives: std::cell::RefCell::new(Vec::new()),
            parts: std::cell::Cell::new(0),
            path: None,
        }
    }

    /// `read` with what it reads taken as a part of a longer text (see `parts`).
    pub(crate) fn as_part<T>(&self, read: impl FnOnce() -> T) -> T {
        self.parts.set(self.parts.get() + 1);
        let out = read();
        self.parts.set(self.parts.get() - 1);
        out
    }

    /// The message of a conditional whose branches are both messages: the first, with the
    /// second kept as the site's other message (a concatenation around it makes both whole,
    /// see [`concatenation`]). None inside a log's arguments, or when a branch is no message.
    pub(crate) fn either(
        &self,
        first: Option<Template>,
        second: Option<Template>,
    ) -> Option<Template> {
        match (first, second) {
            _ if self.parts.get() > 0 => None,
            (Some(a), Some(b)) => {
                if a != b && self.call.is_none() {
                    self.alternatives.borrow_mut().push((a.clone(), b));
                }
                Some(a)
            }
            _ => None,
        }
    }

    pub(crate) fn text(&self, node: Node<'_>) -> &'s str {
        crate::text::text(node, self.src)
    }

    /// The argument the call being read passes for the parameter `name` of `function`, when
    /// `function` is the raiser it calls.
    fn bound<'t>(&self, name: &str, function: Node<'t>) -> Option<Node<'t>> {
        self.call?.argument(name, function)
    }
}

/// The most other messages one site has (see [`Cx::either`]).
const MAX_ALTERNATIVES: usize = 4;

/// The most sites kept from one file: past it a file is machine-written, and its records would
/// only cost memory.
pub(crate) const MAX_SITES_PER_FILE: usize = 10_000;

pub(crate) fn rules_of(lang: Lang) -> &'static dyn Rules {
    match lang {
        Lang::TypeScript | Lang::JavaScript => &js::Js,
        Lang::Python => &python::Python,
        Lang::Go => &go::Go,
        Lang::Rust => &rust::Rust,
        Lang::Java => &java::Java,
    }
}

/// Which rules look at a node, by kind id: most nodes are of kinds no rule looks at.
fn kind_table(rules: &dyn Rules, grammar: &tree_sitter::Language) -> Vec<u8> {
    let mut wanted = vec![0u8; grammar.node_kind_count() + 1];
    for id in 0..grammar.node_kind_count() as u16 {
        let Some(kind) = grammar.node_kind_for_id(id) else {
            continue;
        };
        if rules.site_kinds().contains(&kind) {
            wanted[id as usize] |= SITE;
        }
        if rules.scope_kinds().contains(&kind) {
            wanted[id as usize] |= SCOPE;
        }
    }
    wanted
}

/// How far above a trigger word the node of its site can be.
const TRIGGER_REACH: usize = 8;

/// Finds every error site of a parsed file (at most [`MAX_SITES_PER_FILE`]).
///
/// Rather than visiting every node, it starts from the trigger words of the language (see
/// [`triggers`]) and looks at the few nodes above each: every rule's construct holds one of them
/// within [`TRIGGER_REACH`] levels. The candidates are then taken in document order, outer before
/// inner, as a full walk would visit them.
pub fn find_sites(lang: Lang, tree: &Tree, src: &str, include_tests: bool) -> Vec<Site> {
    let facts = crate::facts::FileFacts::new(lang, tree.root_node(), src);
    find_sites_with(lang, tree, src, include_tests, facts, None)
}

/// [`find_sites`], with the file's fact analysis made by the caller.
pub(crate) fn find_sites_with<'t>(
    lang: Lang,
    tree: &'t Tree,
    src: &str,
    include_tests: bool,
    facts: crate::facts::FileFacts<'t, '_>,
    path: Option<&std::path::Path>,
) -> Vec<Site> {
    let rules = rules_of(lang);
    let wanted = kind_table(rules, &tree.language());
    let want = |n: Node<'_>| wanted.get(n.kind_id() as usize).copied().unwrap_or(0);
    let cx = Cx {
        path,
        ..Cx::new(src, include_tests)
    };
    let mut seen: HashSet<usize> = HashSet::new();
    let mut candidates: Vec<Node<'_>> = Vec::new();
    let mut path: Vec<Node<'_>> = Vec::new();
    let mut cursor = tree.walk();
    for (start, end) in trigger_matches(lang, src.as_bytes()) {
        // The nodes from the root down to the smallest one holding the word. A cursor keeps
        // the path; asking each node for its parent would search from the root every time.
        cursor.reset(tree.root_node());
        path.clear();
        path.push(cursor.node());
        while cursor.goto_first_child_for_byte(start).is_some() {
            let n = cursor.node();
            if n.start_byte() > start || n.end_byte() < end {
                break;
            }
            path.push(n);
        }
        // Nothing inside a skipped scope (a test module) is a site.
        let first_kept = path
            .iter()
            .position(|n| want(*n) & SCOPE != 0 && rules.skip_subtree(*n, &cx))
            .unwrap_or(path.len());
        let reach_start = path.len().saturating_sub(TRIGGER_REACH + 1);
        for n in &path[reach_start..first_kept.max(reach_start)] {
            if want(*n) & SITE != 0 && seen.insert(n.id()) {
                candidates.push(*n);
            }
            for inner in rules.sites_within(*n, &cx) {
                if want(inner) & SITE != 0 && seen.insert(inner.id()) {
                    candidates.push(inner);
                }
            }
        }
    }
    candidates.sort_by_key(|n| (n.start_byte(), std::cmp::Reverse(n.end_byte())));
    let mut collector = Collector::new(tree.root_node(), facts);
    for node in candidates {
        if !collector.offer(rules, node, &cx) {
            break;
        }
    }
    collector.finish(rules, &cx)
}

/// The same sites as [`find_sites`], found by visiting every node: the reference it is tested
/// against.
#[doc(hidden)]
pub fn find_sites_by_walk(lang: Lang, tree: &Tree, src: &str, include_tests: bool) -> Vec<Site> {
    let rules = rules_of(lang);
    let wanted = kind_table(rules, &tree.language());
    let cx = Cx::new(src, include_tests);
    let facts = crate::facts::FileFacts::new(lang, tree.root_node(), src);
    let mut collector = Collector::new(tree.root_node(), facts);
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        let want = wanted.get(node.kind_id() as usize).copied().unwrap_or(0);
        let mut descend = true;
        if want & SCOPE != 0 && rules.skip_subtree(node, &cx) {
            descend = false;
        } else if want & SITE != 0 && !collector.offer(rules, node, &cx) {
            return collector.finish(rules, &cx);
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return collector.finish(rules, &cx);
            }
        }
    }
}

/// The nodes from the root down to `node`, found with a cursor: asking each node for its
/// parent would search down from the root every time.
pub(crate) fn path_to<'t>(root: Node<'t>, node: Node<'t>) -> Vec<Node<'t>> {
    let mut path = vec![root];
    let mut cursor = root.walk();
    while cursor.node().id() != node.id() {
        if cursor
            .goto_first_child_for_byte(node.start_byte())
            .is_none()
        {
            break;
        }
        loop {
            let c = cursor.node();
            if c.start_byte() <= node.start_byte() && c.end_byte() >= node.end_byte() {
                break;
            }
            if !cursor.goto_next_sibling() {
                return path;
            }
        }
        path.push(cursor.node());
    }
    path
}

/// Sites as they are found, in document order, outer nodes before inner ones.
struct Collector<'t, 's> {
    root: Node<'t>,
    facts: crate::facts::FileFacts<'t, 's>,
    consumed: HashSet<usize>,
    sites: Vec<Site>,
    /// Nodes to read again for the calls of their function (see [`raisers`]): those of a
    /// site's kind that no rule read as a site (a raise of a parameter), and the sites with
    /// placeholders (a parameter spliced into a message).
    reread: Vec<Node<'t>>,
}

impl<'t, 's> Collector<'t, 's> {
    fn new(root: Node<'t>, facts: crate::facts::FileFacts<'t, 's>) -> Collector<'t, 's> {
        Collector {
            root,
            facts,
            consumed: HashSet::new(),
            sites: Vec::new(),
            reread: Vec::new(),
        }
    }

    /// Runs the rules on `node`; false once the file has given [`MAX_SITES_PER_FILE`] sites.
    fn offer(&mut self, rules: &dyn Rules, node: Node<'t>, cx: &Cx<'_>) -> bool {
        if self.consumed.contains(&node.id()) {
            return true;
        }
        cx.alternatives.borrow_mut().clear();
        let Some(found) = rules.site(node, cx) else {
            self.reread.push(node);
            return true;
        };
        let alternatives = std::mem::take(&mut *cx.alternatives.borrow_mut());
        self.consumed.insert(found.at.id());
        self.consumed.extend(found.consumed.iter().map(|n| n.id()));
        if self.sites.len() >= MAX_SITES_PER_FILE {
            tracing::warn!(
                "more than {MAX_SITES_PER_FILE} error sites in one file; the rest are not recorded"
            );
            return false;
        }
        if !found.template.is_empty() && !found.template.message().trim().is_empty() {
            if found.template.has_placeholders() {
                self.reread.push(node);
            }
            let path = path_to(self.root, found.at);
            let site = self.site_of(found, &path, rules, cx);
            // A conditional that was only a part of the message (a log's title) is no other
            // message of the site.
            let whole = |first: &Template| *first == site.template;
            for (_, template) in alternatives
                .into_iter()
                .filter(|(first, _)| whole(first))
                .take(MAX_ALTERNATIVES)
            {
                if !template.is_empty() && !template.message().trim().is_empty() {
                    self.sites.push(Site {
                        template,
                        ..site.clone()
                    });
                }
            }
            self.sites.push(site);
        }
        true
    }

    /// The site of `found`, at the statement of the node `path` leads to.
    fn site_of(&self, found: Found<'t>, path: &[Node<'t>], rules: &dyn Rules, cx: &Cx<'_>) -> Site {
        let mut facts = self.facts.site(path, rules, cx);
        facts.raised_by = callee(found.at, cx.src);
        Site {
            line: found
                .line_at
                .unwrap_or_else(|| rules.statement_of(path))
                .start_position()
                .row as u32
                + 1,
            template: found.template,
            error_type: found.error_type,
            class: found.class,
            code: found.code,
            status: found.status,
            severity: found.severity,
            function: rules.function_name(path, cx),
            facts,
        }
    }

    fn finish(mut self, rules: &dyn Rules, cx: &Cx<'_>) -> Vec<Site> {
        self.raiser_calls(rules, cx);
        self.sites.sort_by_key(|s| s.line);
        self.sites
    }
}

/// The function or macro a call node calls, as written (`base.Fatalf`, `panic`, `assert!`),
/// when it is short enough to be a name.
fn callee(at: Node<'_>, src: &str) -> Option<String> {
    let f = match at.kind() {
        "call_expression" | "call" | "method_invocation" | "new_expression" => at
            .child_by_field_name("function")
            .or_else(|| at.child_by_field_name("name")),
        "macro_invocation" => at.child_by_field_name("macro"),
        _ => None,
    }?;
    let text = crate::text::text(f, src);
    let name = match (at.kind(), at.child_by_field_name("object")) {
        ("method_invocation", Some(o)) => format!("{}.{text}", crate::text::text(o, src)),
        ("macro_invocation", _) => format!("{text}!"),
        _ => text.to_owned(),
    };
    (name.len() <= 60 && !name.contains('\n')).then_some(name)
}

/// A logging call needs a receiver that `is_logger` accepts; each of those contains one of
/// these (case-insensitively).
const LOGGERS: &[&str] = &["log", "console", "zap", "sugar", "tracing"];

/// Words without which a file of `lang` cannot hold an error site: `(case-sensitive,
/// case-insensitive)`. A file with none of them is not parsed. Every rule's construct must
/// contain one of these words; the fixtures and the recall tests on real code hold them to it.
pub(crate) fn triggers(lang: Lang) -> (&'static [&'static str], &'static [&'static str]) {
    // A constructed error's class is named `…Error` or `…Exception` (case matters: the words
    // in comments and prose do not count); the rest are keywords and method names.
    const JS: &[&str] = &[
        "throw",
        // `super(msg)` and `this.message = msg` in an error class's constructor.
        "super",
        "this.message",
        "reject",
        "Error",
        "Exception",
        "status",
        "code",
        "json",
        // `process.emitWarning(…)`, npm's `this.queueWarning(key, …)`.
        "Warning",
    ];
    const PY: &[&str] = &[
        "raise",
        "assert",
        "abort",
        "httpexception",
        "warn",
        "exit",
        "log",
        "console",
        "zap",
        "sugar",
        "tracing",
        // `parser.error(…)` of argparse and optparse.
        "parser.error",
        "self.error",
        // `super().__init__(msg)` in an exception class, and the text its `__str__` returns.
        "__init__",
        "__str__",
        // An error made and handed on rather than raised: `callback(ValueError("…"))`,
        // `fut.set_exception(exc)` (a call of a name ending so).
        "error",
        "exception",
    ];
    const JAVA: &[&str] = &["throw", "Exception", "Error", "super", "getMessage"];
    match lang {
        Lang::TypeScript | Lang::JavaScript => (JS, LOGGERS),
        Lang::Python => (&[], PY),
        Lang::Go => (
            &[
                "errors.New",
                "Errorf",
                "status.Error",
                "http.Error",
                "panic",
                "Error() string",
                // `&AddrError{Err: "…"}`: an error type's value built with its message.
                "Error{",
                // The runtime's `throw("…")` and `fatal("…")`.
                "throw(",
                "fatal(",
                // A package's own `base.Fatalf("go: …")`.
                ".Fatal",
                ".Exitf(",
                // `err.Msg = msg` of a function whose named result is an error type.
                ".Msg =",
                ".msg =",
            ],
            LOGGERS,
        ),
        Lang::Rust => (
            &[
                "panic",
                "unreachable",
                "unimplemented",
                "todo",
                "assert",
                "anyhow",
                "bail",
                "eyre",
                "format_err",
                "ensure",
                "error",
                "warn",
                "expect",
                "Err",
                // `impl fmt::Display for SomeError`: the text of an error type.
                "Display for",
                // `write!(out, "…")` in a function that formats an error it is given.
                "write",
                "writeln",
                // serde's `de::Error::custom(format_args!("…"))`.
                "custom",
                // `styled.push_str("…")` in a function that formats an error it is given.
                "push_str",
            ],
            &[],
        ),
        Lang::Java => (JAVA, LOGGERS),
    }
}

/// The trigger automata of a language: case-sensitive words, and case-insensitive ones.
fn automata(lang: Lang) -> &'static (Option<AhoCorasick>, Option<AhoCorasick>) {
    static ALL: OnceLock<Vec<(Option<AhoCorasick>, Option<AhoCorasick>)>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        Lang::ALL
            .into_iter()
            .map(|l| {
                let (exact, folded) = triggers(l);
                let build = |words: &[&str], fold: bool| {
                    (!words.is_empty()).then(|| {
                        AhoCorasick::builder()
                            .ascii_case_insensitive(fold)
                            .build(words)
                            .expect("the trigger words are valid patterns")
                    })
                };
                (build(exact, false), build(folded, true))
            })
            .collect()
    });
    let i = Lang::ALL
        .iter()
        .position(|l| *l == lang)
        .expect("every language has automata");
    &all[i]
}

/// Whether `src` holds any trigger word of `lang` (see [`triggers`]) where a site could use
/// it: a file without one is not parsed, as ripgrep skips what a literal cannot match.
///
/// A word counts only in the shape the rules need (see [`in_site_shape`]): `raise` and
/// `throw` as keywords, `panic(` and `Error(` as calls, `assert_eq!` as a macro, a logger
/// word before a call at warning level or above. "log" is in `catalog`, "Err" in every Rust
/// `Error`, "panic" in comments: most files that only mention them hold no site.
pub(crate) fn may_have_sites(lang: Lang, src: &[u8]) -> bool {
    let (exact, folded) = automata(lang);
    let (exact_words, folded_words) = triggers(lang);
    let found = |a: &Option<AhoCorasick>, words: &[&str]| {
        a.as_ref().is_some_and(|a| {
            a.find_overlapping_iter(src).any(|m| {
                in_site_shape(lang, words[m.pattern().as_usize()], src, m.start(), m.end())
            })
        })
    };
    found(exact, exact_words) || found(folded, folded_words)
}

/// Whether the trigger `word`, found at `start..end` of `src`, is in a shape some rule of
/// `lang` reads as a site.
fn in_site_shape(lang: Lang, word: &str, src: &[u8], start: usize, end: usize) -> bool {
    let ident = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$';
    let rest = &src[end..];
    let skip_ws = |r: &[u8]| -> usize { r.iter().take_while(|b| b.is_ascii_whitespace()).count() };
    let next_after_ws = |r: &[u8]| r.get(skip_ws(r)).copied();
    // The word, then more of its name, then `c`: `assert_eq!`, `expect_err(`.
    let name_then = |c: u8| {
        let r = &rest[rest.iter().take_while(|b| ident(b)).count()..];
        next_after_ws(r) == Some(c)
    };
    let called = || next_after_ws(rest) == Some(b'(');
    let keyword = || whole_word(src, start, end);
    if LOGGERS.contains(&word) {
        return logs_at_warning(src, end);
    }
    match (lang, word) {
        (Lang::Python, "raise" | "assert") | (_, "throw") => keyword(),
        (Lang::Rust, "expect") => name_then(b'('),
        // `Err(…)`, and `io::Error::new(…)` / `io::Error::other(…)`.
        (Lang::Rust, "Err") => {
            called() || rest.starts_with(b"or::new") || rest.starts_with(b"or::other")
        }
        // `error!(…)`, or thiserror's `#[error("…")]`.
        (Lang::Rust, "error") => {
            let before = src[..start].iter().rev().find(|b| !b.is_ascii_whitespace());
            name_then(b'!') || (before == Some(&b'[') && called())
        }
        (Lang::Rust, "Display for") => true,
        (Lang::Rust, "push_str") => called(),
        // `E::custom(…)`.
        (Lang::Rust, "custom") => {
            called() && src[..start].ends_with(b"::") && whole_word(src, start, end)
        }
        // `super(…)` and `__init__(…)` count in an error class only.
        (Lang::Java | Lang::JavaScript | Lang::TypeScript, "super") => {
            called() && in_error_class(src, start, b"extends")
        }
        (Lang::Python, "__init__" | "__str__") => called() && in_error_class(src, start, b"class "),
        (Lang::Rust, _) => name_then(b'!'),
        // A method `Error() string`: the text of an error type.
        (Lang::Go, "Error() string" | "Error{") => true,
        // `.Fatalf(`, `.Fatal(`, `.Fatalln(`.
        (Lang::Go, ".Fatal") => name_then(b'('),
        (Lang::Go, ".Msg =" | ".msg =") => true,
        _ => called(),
    }
}

/// Whether `src[start..end]` is a whole identifier: no letter, digit, `_` or `$` on either side.
pub(crate) fn whole_word(src: &[u8], start: usize, end: usize) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    !start.checked_sub(1).is_some_and(|i| ident(src[i])) && !src.get(end).is_some_and(|&b| ident(b))
}

/// Whether the class declaration nearest above `at` (its last `header` word: `extends`, or
/// Python's `class `) names a base that is an error class: `extends IOException`,
/// `class ConfigError(errors.BaseError):`. A cheap look at the text, so that a file whose only
/// `super(` is in some other class is not parsed for it.
fn in_error_class(src: &[u8], at: usize, header: &[u8]) -> bool {
    let before = &src[..at];
    let Some(h) = memchr::memmem::rfind(before, header) else {
        return false;
    };
    let decl = &before[h..];
    let decl = &decl[..decl
        .iter()
        .position(|&b| b == b'{' || b == b'\n' || b == b':')
        .unwrap_or(decl.len())];
    [&b"Error"[..], b"Exception", b"Warning"]
        .iter()
        .any(|w| memchr::memmem::find(decl, w).is_some())
}

/// Whether the logger word ending at `end` is followed by the rest of its name and a call of
/// a method [`log_severity`] knows (`log.Fatalf(`, `this.logger?.error(`).
fn logs_at_warning(src: &[u8], end: usize) -> bool {
    let ident = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    let rest = &src[end..];
    let rest = &rest[rest.iter().take_while(|b| ident(b)).count()..];
    let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let rest = rest.strip_prefix(b"?").unwrap_or(rest);
    let Some(rest) = rest.strip_prefix(b".") else {
        return false;
    };
    let method_len = rest.iter().take_while(|b| ident(b)).count();
    std::str::from_utf8(&rest[..method_len]).is_ok_and(|m| log_severity(m).is_some())
}

/// Byte ranges of every trigger word in `src`, overlapping ones included.
fn trigger_matches(lang: Lang, src: &[u8]) -> Vec<(usize, usize)> {
    let (exact, folded) = automata(lang);
    let mut out = Vec::new();
    for a in [exact, folded].into_iter().flatten() {
        out.extend(a.find_overlapping_iter(src).map(|m| (m.start(), m.end())));
    }
    out
}

const SITE: u8 = 1;
const SCOPE: u8 = 2;

/// The rules of one language.
pub(crate) trait Rules {
    /// The node kinds [`Rules::site`] looks at; it is called for no other node.
    fn site_kinds(&self) -> &'static [&'static str];

    /// The node kinds [`Rules::skip_subtree`] looks at.
    fn scope_kinds(&self) -> &'static [&'static str] {
        &[]
    }

    /// The error site at `node`, if `node` raises or reports one.
    fn site<'t>(&self, node: Node<'t>, cx: &Cx<'_>) -> Option<Found<'t>>;

    /// The site nodes inside `node`, a construct whose trigger word is above its sites rather
    /// than inside them (a Go `Error() string` method and its `return`s). Each is offered to
    /// [`Rules::site`], as a walk over every node would offer it.
    fn sites_within<'t>(&self, _node: Node<'t>, _cx: &Cx<'_>) -> Vec<Node<'t>> {
        Vec::new()
    }

    /// Whether nothing under `node` should be reported (test modules, unless tests are wanted).
    fn skip_subtree(&self, _node: Node<'_>, _cx: &Cx<'_>) -> bool {
        false
    }

    /// Whether a node of this kind is a statement, whose first line is a site's line.
    fn is_statement(&self, kind: &str) -> bool {
        kind.ends_with("_statement") || kind.ends_with("_declaration")
    }

    /// Whether a node of this kind is a function, whose body bounds the search for a local.
    fn is_function(&self, kind: &str) -> bool;

    /// The name of the function a node is in; `path` runs from the root to the node.
    fn function_name(&self, path: &[Node<'_>], cx: &Cx<'_>) -> Option<String> {
        let above = &path[..path.len().saturating_sub(1)];
        for (i, p) in above.iter().enumerate().rev() {
            if !self.is_function(p.kind()) {
                continue;
            }
            if let Some(name) = p.child_by_field_name("name") {
                return Some(cx.text(name).to_owned());
            }
            // An anonymous function assigned to a name: `const f = () => ...`.
            if let Some(name) = i
                .checked_sub(1)
                .and_then(|j| above[j].child_by_field_name("name"))
            {
                return Some(cx.text(name).to_owned());
            }
            // One the function returns (`return func(i, j int) { panic(…) }`) runs when what
            // it is given to calls it, not when the function around it does: it has no name.
            let returned = |j: usize| {
                above
                    .get(j)
                    .is_some_and(|n| matches!(n.kind(), "return_statement" | "return_expression"))
            };
            if i.checked_sub(1).is_some_and(|j| {
                returned(j) || above[j].kind() == "expression_list" && j > 0 && returned(j - 1)
            }) {
                return None;
            }
        }
        None
    }

    /// The value `stmt` gives to `name`, if `stmt` declares or assigns it.
    fn assigned_value<'t>(&self, stmt: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>>;

    /// The statement a site belongs to; `path` runs from the root to the site's node.
    fn statement_of<'t>(&self, path: &[Node<'t>]) -> Node<'t> {
        let mut i = path.len() - 1;
        loop {
            let n = path[i];
            if self.is_statement(n.kind()) || i == 0 {
                return n;
            }
            let p = path[i - 1];
            if self.is_function(p.kind()) || is_block(p.kind()) {
                return n;
            }
            i -= 1;
        }
    }

    /// Whether a statement declares constants (Go's `const`, JavaScript's `const`).
    fn is_constant(&self, _stmt: Node<'_>, _cx: &Cx<'_>) -> bool {
        false
    }

    /// Whether a bare name in a function inside `scope` can mean a constant declared in it:
    /// not a Python class's attribute, nor a Rust `impl`'s associated constant (both need a
    /// `self.` or `Self::`).
    fn names_reach_into(&self, _scope: Node<'_>) -> bool {
        true
    }

    /// The value last given to the local `name` before `use_site`, within the enclosing function
    /// and at most [`LOCAL_REACH`] lines above it (any distance for a constant); past the
    /// function, the value of a constant of that name declared around it, wherever it is in its
    /// class or file ([`Rules::outer_constant`]).
    fn local_value<'t>(&self, use_site: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
        match self.local_values(use_site, name, cx)? {
            (v, None) => Some(v),
            // Which of two it holds depends on a condition: no one value.
            (_, Some(_)) => None,
        }
    }

    /// [`Rules::local_value`], or the two values an `if … else …` above the use gives `name`
    /// in its two branches (`if e.found { message = fmt.Sprintf(…) } else { message = … }`).
    fn local_values<'t>(
        &self,
        use_site: Node<'t>,
        name: &str,
        cx: &Cx<'_>,
    ) -> Option<(Node<'t>, Option<Node<'t>>)> {
        let line = use_site.start_position().row;
        let mut inner = use_site;
        while let Some(parent) = inner.parent() {
            if self.is_function(parent.kind()) {
                // A parameter: while a raiser's call is read, the argument the call passes.
                if let Some(v) = cx.bound(name, parent) {
                    return Some((v, None));
                }
                if declares_parameter(parent, name, cx) {
                    return None;
                }
                return self.outer_constant(parent, name, cx).map(|v| (v, None));
            }
            // Statements of this block that come before the one holding the use, nearest first.
            let mut sib = inner.prev_named_sibling();
            while let Some(s) = sib {
                // Past the reach only a constant is followed: its value is the same however
                // far above it is declared.
                let far = line.saturating_sub(s.start_position().row) > LOCAL_REACH;
                if !far || self.is_constant(s, cx) {
                    if let Some(v) = self.assigned_value(s, name, cx) {
                        return Some((v, None));
                    }
                }
                if !far {
                    if let Some((a, b)) = self.branch_values(s, name, cx) {
                        return Some((a, Some(b)));
                    }
                }
                sib = s.prev_named_sibling();
            }
            inner = parent;
        }
        None
    }

    /// The message a local holds where it is used, read by `read` from its value; of both
    /// values where an `if … else …` gives it one in each branch (see [`Cx::either`]).
    fn local_message<'t>(
        &self,
        node: Node<'t>,
        cx: &Cx<'_>,
        read: &dyn Fn(Node<'t>) -> Option<Template>,
    ) -> Option<Template> {
        match self.local_values(node, cx.text(node), cx)? {
            (v, None) => read(v),
            (a, Some(b)) => cx.either(read(a), read(b)),
        }
    }

    /// The values the two branches of an `if … else …` statement last give `name`, when both
    /// give it one.
    fn branch_values<'t>(
        &self,
        stmt: Node<'t>,
        name: &str,
        cx: &Cx<'_>,
    ) -> Option<(Node<'t>, Node<'t>)> {
        if stmt.kind() != "if_statement" {
            return None;
        }
        let last = |block: Node<'t>| -> Option<Node<'t>> {
            if !is_block(block.kind()) {
                return None;
            }
            let mut statements = named_children(block);
            // Go's block holds its statements in a `statement_list`.
            if let [list] = statements[..] {
                if list.kind() == "statement_list" {
                    statements = named_children(list);
                }
            }
            let (s, v) = statements
                .into_iter()
                .rev()
                .find_map(|s| Some((s, self.assigned_value(s, name, cx)?)))?;
            // `msg += …` adds to the value before, and `format = fmt.Sprintf(…, format)` is made
            // of it: neither is the whole value.
            let head = &cx.src[s.start_byte()..v.start_byte()];
            let compound = [
                "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>=", "?=",
            ]
            .iter()
            .any(|op| head.contains(op));
            let reads_itself = errata_lang::names(cx.text(v)).any(|n| n.text == name);
            (!compound && !reads_itself).then_some(v)
        };
        let then = last(stmt.child_by_field_name("consequence")?)?;
        let alternative = stmt.child_by_field_name("alternative")?;
        let alternative = if alternative.kind() == "else_clause" {
            first_named(alternative)?
        } else {
            alternative
        };
        Some((then, last(alternative)?))
    }

    /// The value of the constant `name` declared in a scope around `function` (an enclosing
    /// function's body, a class, the file), before or after it: Go's and JavaScript's `const`,
    /// Java's `final` fields, Rust's `const` and `static`, Python's upper-case module names.
    fn outer_constant<'t>(&self, function: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
        let mut scope = function.parent();
        while let Some(s) = scope {
            scope = s.parent();
            if !self.names_reach_into(s) {
                continue;
            }
            let mut cursor = s.walk();
            for child in s.named_children(&mut cursor) {
                // `export const X = …`
                let decl = match child.kind() {
                    "export_statement" => match child.child_by_field_name("declaration") {
                        Some(d) => d,
                        None => continue,
                    },
                    _ => child,
                };
                if self.is_constant(decl, cx) {
                    if let Some(v) = self.assigned_value(decl, name, cx) {
                        return Some(v);
                    }
                }
            }
        }
        None
    }
}

/// Whether a name is written in capitals (`MAX_SIZE`, `PREFIX`), as constants are: only such a
/// name interpolated in an f-string or a template literal is replaced by its value, where a
/// local's value could change between its assignment and the raise.
pub(crate) fn is_capitals(name: &str) -> bool {
    name.bytes().any(|b| b.is_ascii_uppercase()) && !name.bytes().any(|b| b.is_ascii_lowercase())
}

/// Whether `function` takes a parameter (or a Go receiver) named `name`, which hides any
/// constant of that name around it.
fn declares_parameter(function: Node<'_>, name: &str, cx: &Cx<'_>) -> bool {
    ["parameters", "parameter", "receiver"].iter().any(|field| {
        function.child_by_field_name(field).is_some_and(|p| {
            let text = cx.text(p).as_bytes();
            memchr::memmem::find_iter(text, name.as_bytes())
                .any(|at| whole_word(text, at, at + name.len()))
        })
    })
}

/// Whether a node of this kind holds a sequence of statements: a child of it is a statement
/// (or a tail expression) even when its kind does not say so.
fn is_block(kind: &str) -> bool {
    matches!(
        kind,
        "block" | "program" | "module" | "source_file" | "statement_list" | "declaration_list"
    ) || kind.ends_with("_block")
        || kind.ends_with("_body")
}

/// The value a declaration gives `name`: the `value` of its `variable_declarator` child of that
/// name (`const x = …` in JavaScript, `String x = …;` in Java).
pub(crate) fn declarator_value<'t>(stmt: Node<'t>, name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
    named_children(stmt).into_iter().find_map(|d| {
        (d.kind() == "variable_declarator" && cx.text(d.child_by_field_name("name")?) == name)
            .then(|| d.child_by_field_name("value"))
            .flatten()
    })
}

/// The value an expression statement `name = value` gives `name`; `kind` is the language's
/// assignment node.
pub(crate) fn assignment_value<'t>(
    stmt: Node<'t>,
    name: &str,
    cx: &Cx<'_>,
    kind: &str,
) -> Option<Node<'t>> {
    if stmt.kind() != "expression_statement" {
        return None;
    }
    let a = first_named(stmt)?;
    (a.kind() == kind && cx.text(a.child_by_field_name("left")?) == name)
        .then(|| a.child_by_field_name("right"))
        .flatten()
}

/// An HTTP status written as a number (`404`) or a framework constant
/// (`http.StatusNotFound`, `status.HTTP_404_NOT_FOUND`); `number` and `constant` are the node
/// kinds the language writes each with.
pub(crate) fn http_status(
    node: Node<'_>,
    cx: &Cx<'_>,
    number: &str,
    constant: &str,
) -> Option<u16> {
    let kind = node.kind();
    if kind == number {
        errata_model::http_status_from_number(cx.text(node))
    } else if kind == constant {
        errata_model::http_status_from_name(cx.text(node))
    } else {
        None
    }
}

/// How a language writes an expression spliced into a message: `${x}` in JavaScript and
/// TypeScript, `{x}` in the others.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Splice {
    Dollar,
    Brace,
}

/// A placeholder for the expression at `node`, as the language would splice it.
pub(crate) fn placeholder(node: Node<'_>, cx: &Cx<'_>, splice: Splice) -> Template {
    let expr = crate::text::compact(node, cx.src);
    Template::placeholder(match splice {
        Splice::Dollar => format!("${{{expr}}}"),
        Splice::Brace => format!("{{{expr}}}"),
    })
}

/// `left + right` where at least one side is a message: the other side becomes a placeholder.
pub(crate) fn concatenation<'t>(
    node: Node<'t>,
    cx: &Cx<'_>,
    splice: Splice,
    message: impl Fn(Node<'t>) -> Option<Template>,
) -> Option<Template> {
    if cx.text(node.child_by_field_name("operator")?) != "+" {
        return None;
    }
    let left = node.child_by_field_name("left")?;
    let right = node.child_by_field_name("right")?;
    let before_left = cx.alternatives.borrow().len();
    let l = message(left);
    let before_right = cx.alternatives.borrow().len();
    let r = message(right);
    if l.is_none() && r.is_none() {
        cx.alternatives.borrow_mut().truncate(before_left);
        return None;
    }
    let l = l.unwrap_or_else(|| placeholder(left, cx, splice));
    let r = r.unwrap_or_else(|| placeholder(right, cx, splice));
    let mut t = l.clone();
    t.append(r.clone());
    // A conditional that was all of one side (`"For input string: " + s + (radix == 10 ? "" :
    // " under radix " + radix)`): its other message is the whole with that side changed.
    let mut alternatives = cx.alternatives.borrow_mut();
    let found = alternatives.split_off(before_left);
    for (i, (first, second)) in found.into_iter().enumerate() {
        let on_left = before_left + i < before_right;
        let side = if on_left { &l } else { &r };
        if first != *side {
            continue;
        }
        let other = if on_left {
            let mut o = second;
            o.append(r.clone());
            o
        } else {
            let mut o = l.clone();
            o.append(second);
            o
        };
        alternatives.push((t.clone(), other));
    }
    Some(t)
}

/// How many lines above a raise a message built in a local is followed.
pub(crate) const LOCAL_REACH: usize = 30;

/// The first named child, skipping comments.
pub(crate) fn first_named(node: Node<'_>) -> Option<Node<'_>> {
    let mut c = node.walk();
    let found = node
        .named_children(&mut c)
        .find(|n| !n.kind().contains("comment"));
    found
}

/// The named children, skipping comments.
/// The statements and declarations at the top level of the file `node` is in.
pub(crate) fn top_level(node: Node<'_>) -> Vec<Node<'_>> {
    named_children(file_root(node))
}

/// The root of the syntax tree `node` is in: the file.
pub(crate) fn file_root(node: Node<'_>) -> Node<'_> {
    let mut root = node;
    while let Some(p) = root.parent() {
        root = p;
    }
    root
}

pub(crate) fn named_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut c = node.walk();
    node.named_children(&mut c)
        .filter(|n| !n.kind().contains("comment"))
        .collect()
}

/// The nearest ancestor of `node` of one of `kinds`.
pub(crate) fn enclosing<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut n = node.parent();
    while let Some(p) = n {
        if kinds.contains(&p.kind()) {
            return Some(p);
        }
        n = p.parent();
    }
    None
}

/// Letters and digits an error type's text (what its method returns, its message field) needs
/// besides its placeholders: `"Input length = " + inputLength`, not `e.Op + " " + e.Path`.
pub(crate) const MIN_ERROR_TEXT: usize = 3;

/// The text an error type's method returns (`ret`), as a site of the type's errors; none when
/// it has too little literal text to be recognised.
pub(crate) fn returned_text<'t>(
    ret: Node<'t>,
    message: Template,
    ty: ErrorType,
    class: Option<String>,
) -> Option<Found<'t>> {
    (message.literal_alnum() >= MIN_ERROR_TEXT).then(|| Found::new(ret, message, ty).class(class))
}

/// The `return` statements of `method`'s body, not those of the `nested` functions and classes
/// in it: the texts an error type's `Error()`, `__str__` or `getMessage()` method returns.
pub(crate) fn returns_of<'t>(method: Node<'t>, nested: &[&str]) -> Vec<Node<'t>> {
    fn walk<'t>(node: Node<'t>, nested: &[&str], out: &mut Vec<Node<'t>>) {
        for child in named_children(node) {
            match child.kind() {
                "return_statement" => out.push(child),
                k if nested.contains(&k) => {}
                _ => walk(child, nested, out),
            }
        }
    }
    let mut out = Vec::new();
    if let Some(body) = method.child_by_field_name("body") {
        walk(body, nested, &mut out);
    }
    out
}

/// Whether a class name is an error class's: `…Error` or `…Exception`.
pub(crate) fn is_error_class(name: &str) -> bool {
    name.ends_with("Error") || name.ends_with("Exception")
}

/// An error class's name, in CapWords: `TOMLDecodeError`, not `self.assertCleanError`.
pub(crate) fn is_class_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase()) && is_error_class(name)
}

/// Whether a name says it holds a message: `msg`, `message`, `reason`, `format`, `errorText`,
/// `expected`, or a string's usual short name (`s` of `error(String s)`). A parameter so named
/// makes its function a raiser (see [`raisers`]); a Go error type's field so named holds its
/// message. A raiser of `name` or `key` (`raise KeyError(key)`, `'invalid location: ' +
/// where`) is a lookup that fails on a bad argument, and its callers pass good ones.
pub(crate) fn is_message_name(name: &str) -> bool {
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
        "expect",
    ];
    WORDS.iter().any(|w| name.contains(w)) || matches!(name.as_str(), "s" | "m" | "str")
}

/// The last segment of the class named after `extends` in a class's heritage text:
/// `extends errors.BaseError<T> implements X` -> `BaseError`.
pub(crate) fn extended_class(heritage: &str) -> Option<&str> {
    let (_, rest) = heritage.split_once("extends")?;
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.'))
        .unwrap_or(rest.len());
    let name = last_segment(&rest[..end]);
    (!name.is_empty()).then_some(name)
}

/// The last segment of a dotted or path name: `errors.New` -> `New`, `a::b::c` -> `c`.
pub(crate) fn last_segment(name: &str) -> &str {
    name.rsplit(['.', ':']).next().unwrap_or(name)
}

/// Whether a receiver looks like a logger: `log`, `logger`, `LOG`, `this.logger`, `ctx.log`.
pub(crate) fn is_logger(receiver: &str) -> bool {
    let last = last_segment(receiver)
        .trim_start_matches('_')
        .to_ascii_lowercase();
    matches!(
        last.as_str(),
        "log"
            | "logger"
            | "logging"
            | "console"
            | "slog"
            | "klog"
            | "glog"
            | "zap"
            | "sugar"
            | "logrus"
            | "tracing"
            | "log4j"
            | "syslog"
    ) || last.ends_with("logger")
        || last.ends_with("_log")
}

/// The severity of a logging method, if it logs at warning level or above.
pub(crate) fn log_severity(method: &str) -> Option<Severity> {
    let m = method.to_ascii_lowercase();
    let m = m.trim_end_matches(['f', 'w']).trim_end_matches("ln");
    match m {
        "error" | "err" | "exception" | "critical" | "crit" | "severe" | "alert" | "emerg" => {
            Some(Severity::Error)
        }
        "warn" | "warning" => Some(Severity::Warning),
        "fatal" | "panic" | "dpanic" => Some(Severity::Fatal),
        _ => None,
    }
}

/// A class as its users name it, without the alias TypeScript's CommonJS output gives the
/// module it comes from (`error_1.VerificationError` is `VerificationError` of `../error`): no
/// code outside the compiled file can name `error_1`.
fn without_module_alias(class: &str) -> &str {
    match class.split_once('.') {
        Some((module, name))
            if !name.contains('.')
                && module.rsplit_once('_').is_some_and(|(head, n)| {
                    !head.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
                }) =>
        {
            name
        }
        _ => class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compiled_module_alias_is_no_part_of_the_class() {
        assert_eq!(
            without_module_alias("error_1.VerificationError"),
            "VerificationError"
        );
        assert_eq!(
            without_module_alias("errors.VerificationError"),
            "errors.VerificationError"
        );
        assert_eq!(
            without_module_alias("java.io.IOException"),
            "java.io.IOException"
        );
        assert_eq!(
            without_module_alias("VerificationError"),
            "VerificationError"
        );
    }

    /// `raise error(msg)` of a parameter names the class the parameter defaults to, or none:
    /// the parameter's own name is no class (runpy's `_get_main_module_details(error=ImportError)`).
    #[test]
    fn a_raised_parameter_is_its_default_class() {
        let src = "def details(error=ImportError):\n    raise error(\"can't find %r module\" % name)\n\ndef other(error):\n    raise error(\"no module named %r\" % name)\n\ndef plain():\n    raise LookupError(\"no key %r\" % key)\n";
        let path = std::path::Path::new("pkg/run.py");
        let tree = crate::parse(Lang::Python, path, src).unwrap();
        let sites = find_sites(Lang::Python, &tree, src, false);
        let class_at = |line: u32| {
            sites
                .iter()
                .find(|s| s.line == line)
                .unwrap_or_else(|| panic!("no site at line {line}: {sites:?}"))
                .class
                .clone()
        };
        assert_eq!(class_at(2).as_deref(), Some("ImportError"));
        assert_eq!(class_at(5), None);
        assert_eq!(class_at(8).as_deref(), Some("LookupError"));
    }

    /// A chain of calls on several lines panics at its `expect`, where Rust reports the panic
    /// (tracing-subscriber's `self.try_init()\n.expect("failed to set global default subscriber")`).
    #[test]
    fn a_chained_expect_is_at_its_own_line() {
        let src = "fn init(self) {\n    self.try_init()\n        .expect(\"failed to set global default subscriber\")\n}\n\nfn one() {\n    try_init().expect(\"Unable to install global subscriber\")\n}\n";
        let path = std::path::Path::new("src/util.rs");
        let tree = crate::parse(Lang::Rust, path, src).unwrap();
        let sites = find_sites(Lang::Rust, &tree, src, false);
        let lines: Vec<(u32, String)> = sites
            .iter()
            .map(|s| (s.line, s.template.message()))
            .collect();
        assert_eq!(
            lines,
            [
                (3, "failed to set global default subscriber".to_owned()),
                (7, "Unable to install global subscriber".to_owned())
            ]
        );
    }

    /// A Go panic after a call that ends the program never runs; a struct literal that a
    /// package-level variable holds is a sentinel named by the variable.
    #[test]
    fn go_sites_after_an_exit_and_sentinels_of_a_struct() {
        let src = "package p\n\nvar errTimeout error = &httpError{err: \"net/http: timeout awaiting response headers\", timeout: true}\n\nfunc typePos(t *Type) int {\n\tif t == nil {\n\t\tbase.Fatalf(\"bad type: %v\", t)\n\t\tpanic(\"unreachable\")\n\t}\n\tif t.width < 0 {\n\t\tpanic(\"a type of negative width\")\n\t}\n\treturn 0\n}\n";
        let path = std::path::Path::new("p/size.go");
        let tree = crate::parse(Lang::Go, path, src).unwrap();
        let sites: Vec<(String, Option<String>)> = find_sites(Lang::Go, &tree, src, false)
            .iter()
            .filter(|s| s.error_type != ErrorType::Log)
            .map(|s| (s.template.message(), s.class.clone()))
            .collect();
        assert_eq!(
            sites,
            [
                (
                    "net/http: timeout awaiting response headers".to_owned(),
                    Some("errTimeout".to_owned())
                ),
                ("bad type: %v".to_owned(), None),
                ("a type of negative width".to_owned(), None)
            ]
        );
    }

    /// A `const` initializer's panic stops the build; a lazy `static`'s closure runs when the
    /// program does.
    #[test]
    fn a_panic_the_compiler_evaluates_is_no_site() {
        let src = "const MASK: u32 = match 8u32.checked_shl(2) {\n    Some(v) => v,\n    None => panic!(\"mask does not fit a u32\"),\n};\n\nstatic RE: LazyLock<Regex> = LazyLock::new(|| {\n    Regex::new(\"a+\").expect(\"the built-in pattern compiles\")\n});\n\nconst fn mask(n: u32) -> u32 {\n    if n > 31 {\n        panic!(\"a shift past the width of a u32\")\n    }\n    1 << n\n}\n";
        let path = std::path::Path::new("src/bits.rs");
        let tree = crate::parse(Lang::Rust, path, src).unwrap();
        let messages: Vec<String> = find_sites(Lang::Rust, &tree, src, false)
            .iter()
            .map(|s| s.template.message())
            .collect();
        assert_eq!(
            messages,
            [
                "the built-in pattern compiles".to_owned(),
                "a shift past the width of a u32".to_owned()
            ]
        );
    }

    #[test]
    fn log_methods() {
        assert_eq!(log_severity("Errorf"), Some(Severity::Error));
        assert_eq!(log_severity("warn"), Some(Severity::Warning));
        assert_eq!(log_severity("Fatalln"), Some(Severity::Fatal));
        assert_eq!(log_severity("info"), None);
        assert!(is_logger("this.logger"));
        assert!(is_logger("LOG"));
        assert!(!is_logger("catalog"));
    }

    #[test]
    fn a_logger_word_triggers_only_before_a_call_at_warning_level() {
        let go = |src: &str| may_have_sites(Lang::Go, src.as_bytes());
        assert!(go("log.Fatalf(\"no config: %v\", err)"));
        assert!(go("s.logger\n\t.Error(\"closed\")"));
        assert!(go("klog.Warningf(\"slow\")"));
        assert!(!go("// see the catalog\nlog.Printf(\"started\")"));
        assert!(!go("func Login(u User) bool { return u.ok }"));
        assert!(go("panic(\"unreachable\")"));
        let js = |src: &str| may_have_sites(Lang::JavaScript, src.as_bytes());
        assert!(js("this.logger?.warn(`slow ${ms}`)"));
        assert!(!js("console.log('hi')"));
    }

    #[test]
    fn a_trigger_word_counts_only_in_the_shape_of_a_site() {
        let rs = |src: &str| may_have_sites(Lang::Rust, src.as_bytes());
        assert!(rs("debug_assert_eq!(a, b, \"differ\")"));
        assert!(rs("let f = File::open(p).expect (\"no file\");"));
        assert!(rs("return Err(format!(\"bad {x}\"));"));
        assert!(rs("io::Error::new(ErrorKind::Other, \"boom\")"));
        assert!(rs("#[error(\"not found: {0}\")]"));
        assert!(rs("tracing::error!(%id, \"lost\")"));
        assert!(!rs(
            "fn f() -> Result<(), Error> { Ok(()) } // may panic, errors"
        ));
        let py = |src: &str| may_have_sites(Lang::Python, src.as_bytes());
        assert!(py("    raise ValueError(f\"bad {x}\")"));
        assert!(py("assert x, 'no x'"));
        assert!(!py(
            "def f():\n    \"\"\"Raises ValueError when asserted.\"\"\"\n    return reraise(x)"
        ));
        let java = |src: &str| may_have_sites(Lang::Java, src.as_bytes());
        assert!(java("throw new IllegalStateException(\"closed\");"));
        assert!(java(
            "return Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND, m));"
        ));
        assert!(!java(
            "void close() throws IOException { try { f(); } catch (IOException e) {} }"
        ));
    }

    #[test]
    fn an_error_class_constructor_is_a_trigger_and_another_class_constructor_is_not() {
        let cases = [
            (Lang::Java, "class QuotaException extends java.io.IOException {\n  QuotaException(long n) {\n    super(\"quota \" + n);\n  }\n}", true),
            (Lang::Java, "class Registry extends HashMap<String, String> {\n  Registry() {\n    super(16);\n  }\n}", false),
            (Lang::TypeScript, "export class QuotaError extends errors.BaseError<D> implements S {\n  constructor(u: string) { super(`quota ${u}`) }\n}", true),
            (Lang::TypeScript, "class Store extends Map {\n  constructor() { super() }\n}", false),
            (Lang::Python, "class ConfigError(errors.BaseError):\n    def __init__(self, k):\n        super().__init__(f\"bad {k}\")", true),
            (Lang::Python, "class Settings(dict):\n    def __init__(self, k):\n        super().__init__(k)", false),
            (Lang::Go, "func (e *NumError) Error() string { return \"strconv.\" + e.Func }", true),
            (Lang::Rust, "impl fmt::Display for ParseError {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { f.write_str(\"bad\") }\n}", true),
        ];
        for (lang, src, want) in cases {
            assert_eq!(
                may_have_sites(lang, src.as_bytes()),
                want,
                "{lang:?}: {src}"
            );
        }
    }
}
