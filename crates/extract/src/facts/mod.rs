//! The facts of an error site, read from the syntax tree of its file: the enclosing function,
//! the conditions on the way to the site, the state those conditions read and where the file
//! writes it, and the configuration they depend on. See [`errata_explain::Facts`].

mod cond;
mod docs;
mod expect;
mod refs;
mod syntax;

pub(crate) use expect::{find_expectations, may_expect};
pub use refs::find_refs;
pub(crate) use refs::find_refs_and_writes;

use std::cell::OnceCell;
use std::collections::HashMap;

use errata_explain::{
    Binding, Branch, Catch, Condition, ConditionKind, ConfigRead, ConfigSource, Context, Effect,
    Facts, Function, Parameter, Recovery, State, Unwrapped, Write,
};
use errata_lang::Lang;
use tree_sitter::Node;

use crate::rules::{path_to, Cx, Rules};
use cond::Expr;
pub(crate) use syntax::Syntax;

/// Longest piece of source text kept in a fact.
const MAX_TEXT: usize = 160;
/// Most names of the conditions followed to their writes.
const MAX_STATE: usize = 8;
/// Most writes kept per name.
const MAX_WRITES: usize = 6;
/// How many statements above the site's are looked at for early exits, per block.
const EARLY_EXIT_REACH: usize = 12;

/// Method names that put something in a collection, take something out of it, or empty it.
const MUTATORS: &[(&str, Effect)] = &[
    ("add", Effect::Add),
    ("set", Effect::Add),
    ("put", Effect::Add),
    ("push", Effect::Add),
    ("append", Effect::Add),
    ("insert", Effect::Add),
    ("extend", Effect::Add),
    ("unshift", Effect::Add),
    ("setdefault", Effect::Add),
    ("update", Effect::Add),
    ("addAll", Effect::Add),
    ("putIfAbsent", Effect::Add),
    ("push_back", Effect::Add),
    ("push_front", Effect::Add),
    ("Store", Effect::Add),
    ("delete", Effect::Remove),
    ("remove", Effect::Remove),
    ("discard", Effect::Remove),
    ("pop", Effect::Remove),
    ("popitem", Effect::Remove),
    ("shift", Effect::Remove),
    ("splice", Effect::Remove),
    ("removeIf", Effect::Remove),
    ("removeAll", Effect::Remove),
    ("take", Effect::Remove),
    ("Delete", Effect::Remove),
    ("clear", Effect::Clear),
];

thread_local! {
    /// Time this thread spent finding facts and writing explanations since it last asked.
    static SPENT: std::cell::Cell<std::time::Duration> = const { std::cell::Cell::new(std::time::Duration::ZERO) };
}

/// Adds to the time this thread spent explaining.
pub(crate) fn spent(d: std::time::Duration) {
    SPENT.with(|s| s.set(s.get() + d));
}

/// The time this thread spent explaining since the last call, which resets it.
pub(crate) fn take_spent() -> std::time::Duration {
    SPENT.with(|s| s.replace(std::time::Duration::ZERO))
}

/// Whether `expr` reads the variable `name` itself: as a whole word, not a member
/// (`x.name`), outside string literals.
fn reads_name(expr: &str, name: &str) -> bool {
    errata_lang::names(expr).any(|n| n.text == name && !n.member)
}

/// The fact analysis of one parsed file. The file's writes are gathered once, when a site
/// first asks for them.
pub(crate) struct FileFacts<'t, 's> {
    lang: Lang,
    syn: &'static Syntax,
    src: &'s str,
    root: Node<'t>,
    /// What the module offers outside it, read once for all its functions.
    offers: refs::Offers<'s>,
    writes: OnceCell<Vec<WriteSite<'t>>>,
    /// The one-expression functions of the file, found when a guard first calls one.
    functions: OnceCell<Vec<(String, u32, String)>>,
    /// The functions of the file that may be helpers, found by a walk the caller made anyway.
    helper_nodes: OnceCell<Vec<Node<'t>>>,
    /// The local declarations of each function (by node id) a guard reads a name of, with
    /// their lines: gathered once per function, not once per name and site.
    locals: std::cell::RefCell<HashMap<usize, Vec<(u32, Node<'t>)>>>,
    /// The names each function (by node id) assigns, with the line of each assignment.
    assigned: std::cell::RefCell<HashMap<usize, Vec<(u32, String)>>>,
    /// The classes of the file, found when a method's owner is first asked for.
    classes: OnceCell<Vec<ClassBlock>>,
    /// Go: the code of the file that recovers panics, found when a panic is first met.
    recovering: OnceCell<Vec<Recovering<'s>>>,
}

/// Go code that recovers panics: a deferred function literal that calls `recover()`, or a
/// function that calls it itself (deferred by name, as `defer errRecover(&err)`).
struct Recovering<'s> {
    /// The function that defers the literal, or the recovering function.
    function: &'s str,
    line: u32,
    /// The literal's or the function's code.
    code: &'s str,
    /// Whether the function recovers in its own body: it is a recovering function that
    /// others defer (`defer errorHandler(&err)`).
    whole: bool,
}

/// A class (or interface, enum) of the file: its name, the names it extends or implements,
/// and its lines.
struct ClassBlock {
    name: String,
    bases: Vec<String>,
    lines: (u32, u32),
}

/// A write found in the file.
pub(crate) struct WriteSite<'t> {
    target: String,
    effect: Effect,
    node: Node<'t>,
}

impl<'t, 's> FileFacts<'t, 's> {
    pub(crate) fn new(lang: Lang, root: Node<'t>, src: &'s str) -> FileFacts<'t, 's> {
        FileFacts {
            lang,
            syn: Syntax::of(lang),
            src,
            root,
            offers: refs::Offers::new(src),
            writes: OnceCell::new(),
            functions: OnceCell::new(),
            helper_nodes: OnceCell::new(),
            locals: Default::default(),
            assigned: Default::default(),
            classes: OnceCell::new(),
            recovering: OnceCell::new(),
        }
    }

    /// The lines of the class `owner` and of the classes of the file it extends or that
    /// extend it, directly or not: where a call through `self`/`this` may reach its method.
    /// Unrelated classes of the file (sunau's reader and writer) are left out.
    fn related_blocks(&self, owner: &str) -> Vec<(u32, u32)> {
        let classes = self.classes.get_or_init(|| {
            let mut out = Vec::new();
            preorder(self.root, |n| {
                if self.syn.classes.contains(&n.kind()) {
                    if let Some(name) = n.child_by_field_name("name") {
                        out.push(ClassBlock {
                            name: self.text(name),
                            bases: class_bases(n, self.src),
                            lines: (
                                n.start_position().row as u32 + 1,
                                n.end_position().row as u32 + 1,
                            ),
                        });
                    }
                }
                true
            });
            out
        });
        let mut related: Vec<&str> = vec![owner];
        // Ancestors, then descendants, each to a fixed point over the file's few classes.
        let mut grew = true;
        while grew {
            grew = false;
            for c in classes {
                let up = related.contains(&c.name.as_str())
                    && c.bases.iter().any(|b| !related.contains(&b.as_str()));
                if up {
                    for b in &c.bases {
                        if !related.contains(&b.as_str()) {
                            related.push(b);
                        }
                    }
                    grew = true;
                }
            }
        }
        let ancestors = related.clone();
        let mut family: Vec<&str> = vec![owner];
        grew = true;
        while grew {
            grew = false;
            for c in classes {
                if !family.contains(&c.name.as_str())
                    && c.bases.iter().any(|b| family.contains(&b.as_str()))
                {
                    family.push(&c.name);
                    grew = true;
                }
            }
        }
        classes
            .iter()
            .filter(|c| ancestors.contains(&c.name.as_str()) || family.contains(&c.name.as_str()))
            .map(|c| c.lines)
            .collect()
    }

    /// The names `scope` assigns (`x = …`, `a, x = …`, `x += …`, `let x = …`), each with the
    /// line of the assignment; nested functions' own assignments left out.
    fn assignments(&self, scope: Node<'t>) -> Vec<(u32, String)> {
        let mut cache = self.assigned.borrow_mut();
        cache
            .entry(scope.id())
            .or_insert_with(|| {
                let mut out = Vec::new();
                let mut stack: Vec<Node<'t>> = {
                    let mut c = scope.walk();
                    scope.named_children(&mut c).collect()
                };
                while let Some(n) = stack.pop() {
                    // A nested function or class assigns its own names.
                    if matches!(
                        n.kind(),
                        "function_definition"
                            | "function_declaration"
                            | "function_expression"
                            | "generator_function"
                            | "generator_function_declaration"
                            | "arrow_function"
                            | "lambda"
                            | "lambda_expression"
                            | "closure_expression"
                            | "function_item"
                            | "func_literal"
                            | "method_declaration"
                            | "method_definition"
                            | "constructor_declaration"
                            | "class_definition"
                            | "class_declaration"
                            | "class_body"
                    ) {
                        continue;
                    }
                    let assigns = matches!(
                        n.kind(),
                        "assignment"
                            | "augmented_assignment"
                            | "assignment_expression"
                            | "augmented_assignment_expression"
                            | "compound_assignment_expr"
                            | "assignment_statement"
                            | "short_var_declaration"
                            | "let_declaration"
                            | "variable_declarator"
                            | "inc_statement"
                            | "dec_statement"
                            | "update_expression"
                    );
                    if assigns {
                        let target = n
                            .child_by_field_name("left")
                            .or_else(|| n.child_by_field_name("name"))
                            .or_else(|| n.child_by_field_name("pattern"))
                            .or_else(|| n.child_by_field_name("argument"))
                            .or_else(|| n.named_child(0));
                        if let Some(t) = target {
                            let row = n.start_position().row as u32 + 1;
                            let text = self.text(t);
                            for name in text.trim_matches(['(', ')', '[', ']']).split(',') {
                                let name = name.trim().trim_start_matches("mut ").trim();
                                let plain = !name.is_empty()
                                    && name
                                        .chars()
                                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
                                if plain {
                                    out.push((row, name.to_owned()));
                                }
                            }
                        }
                    }
                    let mut c = n.walk();
                    stack.extend(n.named_children(&mut c));
                }
                out
            })
            .clone()
    }

    /// The facts of the site at the end of `path` (which runs from the root to it).
    pub(crate) fn site(&self, path: &[Node<'t>], rules: &dyn Rules, cx: &Cx<'_>) -> Facts {
        let started = std::time::Instant::now();
        let facts = self.site_facts(path, rules, cx);
        spent(started.elapsed());
        facts
    }

    fn site_facts(&self, path: &[Node<'t>], rules: &dyn Rules, cx: &Cx<'_>) -> Facts {
        let mut facts = Facts::default();
        let last = path.len() - 1;
        let fidx = (0..last).rev().find(|&i| rules.is_function(path[i].kind()));
        if let Some(f) = fidx {
            facts.function = Some(self.function(path, f, rules, cx));
        }
        let walk = self.walk(path, fidx.map_or(0, |f| f + 1), true);
        facts.conditions = walk.conditions;
        // A condition on a name the function assigns again before the site (`value` of
        // `if value[0] == '*':` given `section, value = get_section(value)` below it) says
        // nothing of the name at the site: it is left out.
        if let Some(f) = fidx {
            let at = path[last].start_position().row as u32 + 1;
            let assigned = self.assignments(path[f]);
            facts.conditions.retain(|c| {
                !assigned
                    .iter()
                    .any(|(row, name)| c.line < *row && *row < at && reads_name(&c.expr, name))
            });
        }
        facts.context = walk.context;
        facts.other_branch = walk.other_branch;
        facts.comment = docs::comment_above_site(path[last], self.src);
        facts.sole = fidx.is_some_and(|f| sole_statement(path[f], path[last]));
        if matches!(self.lang, Lang::Python | Lang::Java) {
            facts.carried = carried(path[last], self.src);
        }
        let made = match self.lang {
            Lang::Go => true,
            Lang::JavaScript | Lang::TypeScript => path[last].kind() == "new_expression",
            // `exc = ConnectionResetError(…)`, `fut.set_exception(TimeoutError(…))`.
            Lang::Python => path[last].kind() == "call",
            _ => false,
        };
        if made {
            facts.handed_to = handed_to(path[last], self.src);
        }
        if self.lang == Lang::Go {
            facts.stored_in = stored_in(path[last], self.src);
            facts.recovered = self.recovered(*path.last().unwrap());
            if path[last].kind() == "composite_literal" {
                let literal = path[last];
                facts.literal_type = literal.child_by_field_name("type").map(|t| self.text(t));
                facts.made_as_value = literal
                    .parent()
                    .is_none_or(|p| p.kind() != "unary_expression");
            }
        }
        if let Some(c) = self.assertion(path[last]) {
            facts.conditions.push(c);
        }
        if self.lang == Lang::Rust {
            merge_let_bindings(&mut facts.conditions);
        }
        // Python defines a function where an `if` of its module or class says to.
        if let Some(f) = fidx.filter(|_| self.syn.python) {
            let around = self.walk(&path[..=f], 0, false);
            facts
                .context
                .extend(around.conditions.into_iter().map(|c| Context::Defined {
                    condition: c.expr,
                    line: c.line,
                }));
        }
        if self.lang == Lang::Rust {
            facts.context.extend(self.cfgs(path));
        }
        facts.unwrapped = self.unwrapped(path[last]);
        let line = path[last].start_position().row as u32 + 1;
        let params: Vec<&str> = facts
            .function
            .iter()
            .flat_map(|f| f.parameters.iter().map(|p| p.name.as_str()))
            .collect();
        let scope = fidx.map(|f| path[f]).unwrap_or(self.root);
        let results = fidx.map(|f| self.result_names(path[f])).unwrap_or_default();
        // The names of the guards first, then those of the checks passed above the site.
        let mut names: Vec<(String, bool)> = Vec::new();
        for guard in [true, false] {
            let mut found = Vec::new();
            for (n, kind) in &walk.nodes {
                if (*kind != ConditionKind::EarlyExit) == guard {
                    self.names(*n, &mut found);
                }
            }
            for f in found {
                if !names.iter().any(|(n, _)| *n == f) {
                    names.push((f, guard));
                }
            }
        }
        // Names a guard binds itself (`for d, p in …` of a comprehension, a lambda's
        // parameters) are neither state nor the caller's.
        let mut bound: Vec<String> = Vec::new();
        for (n, _) in &walk.nodes {
            preorder(*n, |c| {
                let binder = match c.kind() {
                    "for_in_clause" => c.child_by_field_name("left"),
                    "lambda" | "arrow_function" | "closure_expression" | "lambda_expression" => c
                        .child_by_field_name("parameters")
                        .or_else(|| c.child_by_field_name("parameter")),
                    _ => None,
                };
                if let Some(b) = binder {
                    preorder(b, |i| {
                        if self.syn.identifiers.contains(&i.kind()) {
                            bound.push(self.text(i));
                        }
                        true
                    });
                }
                true
            });
        }
        names.retain(|(n, _)| !bound.iter().any(|b| b == root_of(n)));
        let mut config_texts: Vec<String> = walk
            .nodes
            .iter()
            .filter(|(_, k)| *k != ConditionKind::EarlyExit)
            .map(|(n, _)| self.text(*n))
            .collect();
        for (name, guard) in names {
            if facts.state.len() >= MAX_STATE {
                break;
            }
            let root = root_of(&name);
            if root != name && params.contains(&root) {
                // `params.x` of a parameter `params`: the parameter says it.
                continue;
            }
            if let Some(cfg) = config_field(&name).filter(|_| guard) {
                push_config(
                    &mut facts.config,
                    cfg.to_owned(),
                    None,
                    ConfigSource::Config,
                );
            }
            // Declared above the site, and the value it has on the way to it (none when
            // only a branch the site is not in gives it one).
            let here = self.local_value(scope, root, line, Some(path[last]));
            let local = self
                .local_value(scope, root, line, None)
                .map(|_| here.clone().flatten());
            let (binding, value) = if params.contains(&root) && here.is_none() {
                // A parameter changed above the site (`base += size + 1`) is no longer what
                // the caller passed.
                match self.assigned_above(scope, root, line) {
                    true => (Binding::Local, None),
                    false => (Binding::Parameter, None),
                }
            } else if results.iter().any(|r| r == root) {
                // A named result of a Go function is a local of each call.
                (Binding::Local, None)
            } else if let Some(v) = local {
                // A parameter given another value above the site (`future =
                // ensure_future(future)`) is that value now, not what the caller passed.
                if let Some(v) = v.as_ref().filter(|_| guard) {
                    config_texts.push(v.clone());
                }
                // A local written again, or handed out by reference (`&len` to a syscall),
                // holds something else by the time the guard reads it.
                let value = v.filter(|_| !self.written_again(scope, root));
                (Binding::Local, value)
            } else {
                (Binding::State, None)
            };
            let writes = if binding == Binding::State {
                self.writes_of(&name, scope, rules, cx)
            } else {
                Vec::new()
            };
            if binding == Binding::State && writes.is_empty() && !is_field(&name) {
                // A module or a global the file never changes: nothing to say about it.
                continue;
            }
            if !guard && binding != Binding::State {
                // The parameters and locals of the checks passed above are not what decides
                // this raise.
                continue;
            }
            if facts.state.iter().any(|s| s.name == name) {
                continue;
            }
            facts.state.push(State {
                name,
                binding,
                value,
                writes,
            });
        }
        for text in &config_texts {
            env_reads(text, &mut facts.config);
        }
        for (n, kind) in &walk.nodes {
            if *kind != ConditionKind::EarlyExit {
                self.helpers(*n, &mut facts.helpers);
            }
        }
        facts
    }

    /// The one-expression functions of this file that `cond` calls by a plain name (or
    /// through `this.` / `self.`).
    fn helpers(&self, cond: Node<'_>, out: &mut Vec<errata_explain::Helper>) {
        const MAX_HELPERS: usize = 4;
        let mut calls = Vec::new();
        preorder(cond, |n| {
            if self.syn.calls.contains(&n.kind()) {
                calls.push(n);
            }
            true
        });
        for call in calls {
            if out.len() >= MAX_HELPERS {
                return;
            }
            let Some((head, name)) = refs::callee(call, self.src) else {
                continue;
            };
            let plain = head == name
                || head
                    .strip_suffix(name)
                    .is_some_and(|r| matches!(r, "this." | "self." | "self::" | "Self::"));
            if !plain || out.iter().any(|h| h.name == name) {
                continue;
            }
            let definitions = self
                .functions
                .get_or_init(|| self.one_expression_functions());
            if let Some((line, returns)) = definitions
                .iter()
                .find(|(n, _, _)| n == name)
                .map(|(_, l, r)| (*l, r.clone()))
            {
                out.push(errata_explain::Helper {
                    name: name.to_owned(),
                    line,
                    returns,
                });
            }
        }
    }

    /// The functions of the file whose body is one `return` of an expression (or an arrow's
    /// expression body): name, line and the expression.
    fn one_expression_functions(&self) -> Vec<(String, u32, String)> {
        let helpers = self.helper_nodes.get_or_init(|| {
            let mut out = Vec::new();
            preorder(self.root, |n| {
                if is_helper_kind(n.kind()) {
                    out.push(n);
                }
                true
            });
            out
        });
        helpers
            .iter()
            .filter_map(|n| self.one_expression(*n))
            .collect()
    }

    /// Gives the functions that may be helpers, found by a walk the caller made anyway.
    pub(crate) fn set_helper_nodes(&self, nodes: Vec<Node<'t>>) {
        let _ = self.helper_nodes.set(nodes);
    }

    fn one_expression(&self, f: Node<'_>) -> Option<(String, u32, String)> {
        let name = match f.child_by_field_name("name") {
            Some(n) => crate::text::text(n, self.src).to_owned(),
            None => {
                let p = f.parent()?;
                (p.kind() == "variable_declarator")
                    .then(|| p.child_by_field_name("name"))
                    .flatten()
                    .map(|n| crate::text::text(n, self.src).to_owned())?
            }
        };
        let body = f.child_by_field_name("body")?;
        let line = f.start_position().row as u32 + 1;
        if f.kind() == "arrow_function" && body.kind() != "statement_block" {
            return Some((name, line, self.text(body)));
        }
        // The statements, without a docstring.
        let stmts: Vec<Node<'_>> = named(body)
            .into_iter()
            .filter(|s| {
                !(s.kind() == "expression_statement"
                    && named(*s).first().is_some_and(|e| e.kind() == "string"))
            })
            .collect();
        let [only] = stmts.as_slice() else {
            return None;
        };
        let expr = match only.kind() {
            "return_statement" | "return_expression" => named(*only).into_iter().next()?,
            // A Rust tail expression.
            k if f.kind() == "function_item"
                && !k.ends_with("statement")
                && !k.ends_with("declaration") =>
            {
                *only
            }
            _ => return None,
        };
        let expr = if expr.kind() == "expression_list" {
            let items = named(expr);
            if items.len() != 1 {
                return None;
            }
            items[0]
        } else {
            expr
        };
        Some((name, line, self.text(expr)))
    }

    fn text(&self, node: Node<'_>) -> String {
        clip(crate::text::compact_code(node, self.src))
    }

    fn function(&self, path: &[Node<'t>], f: usize, rules: &dyn Rules, cx: &Cx<'_>) -> Function {
        let node = path[f];
        let name = rules
            .function_name(&path[..=f + 1], cx)
            .or_else(|| {
                node.child_by_field_name("name")
                    .map(|n| crate::text::text(n, self.src).to_owned())
            })
            .unwrap_or_default();
        // Python's block starts at its first statement, after any comment below the `def`
        // line: the head ends with the return type or the parameters.
        let python_head = (self.syn.python && node.kind() == "function_definition")
            .then(|| {
                node.child_by_field_name("return_type")
                    .or_else(|| node.child_by_field_name("parameters"))
            })
            .flatten()
            .map(|n| n.end_byte());
        let body_start = python_head.unwrap_or_else(|| {
            node.child_by_field_name("body")
                .map_or(node.end_byte(), |b| b.start_byte())
        });
        let head = &self.src[node.start_byte()..body_start.max(node.start_byte())];
        let head = squash(head);
        let head = head.trim_end();
        let head = head
            .strip_suffix("=>")
            .or_else(|| head.strip_suffix(':'))
            .or_else(|| head.strip_suffix('{'))
            .unwrap_or(head);
        let signature = clip(head.trim_end().to_owned());
        let mut owner = None;
        let mut owner_blocks = Vec::new();
        if let Some(recv) = node.child_by_field_name("receiver") {
            // Go: `func (c *Client) Do()`.
            owner = first_of_kind(recv, "parameter_declaration")
                .and_then(|p| p.child_by_field_name("type"))
                .map(|t| self.text(t).trim_start_matches('*').to_owned());
        }
        if owner.is_none() {
            owner = path[..f]
                .iter()
                .rev()
                .find(|n| self.syn.classes.contains(&n.kind()))
                .and_then(|c| {
                    c.child_by_field_name("name")
                        .or_else(|| c.child_by_field_name("type"))
                })
                .map(|n| self.text(n));
            // Rust's `impl` blocks of one type are many: no block bounds its methods' calls.
            if self.lang != Lang::Rust {
                owner_blocks = owner
                    .as_deref()
                    .map(|o| self.related_blocks(o))
                    .unwrap_or_default();
            }
        }
        let callback = matches!(
            node.kind(),
            "arrow_function"
                | "function_expression"
                | "function"
                | "lambda"
                | "lambda_expression"
                | "closure_expression"
                | "func_literal"
        ) && node
            .parent()
            .is_some_and(|p| matches!(p.kind(), "arguments" | "argument_list"));
        let called_by = node
            .parent()
            .and_then(|args| args.parent())
            .filter(|_| callback)
            .and_then(|call| call.child_by_field_name("function"))
            .map(|f| squash(crate::text::text(f, self.src)))
            .filter(|f| f.len() <= 60);
        let unexported = self.unexported(node, &name);
        let nested = self.nested(&path[..f], node);
        // JavaScript's exports are read once a file, by the references' walk.
        let exposed = matches!(self.lang, Lang::Rust | Lang::Java)
            && refs::exposed(self.lang, node, &name, self.src, &self.offers);
        Function {
            name,
            owner,
            owner_blocks,
            signature,
            parameters: self.parameters(node),
            line: node.start_position().row as u32 + 1,
            doc: docs::doc_of(node, self.src, self.syn.python),
            callback,
            called_by,
            generator: is_generator(node, self.src),
            unexported,
            nested,
            exposed,
            accessor: accessor(node, self.src),
            abstract_method: self.syn.python
                && node.parent().is_some_and(|p| {
                    p.kind() == "decorated_definition"
                        && self.src[p.start_byte()..node.start_byte()].contains("abstractmethod")
                }),
        }
    }

    /// Whether `node` declares a function whose name is a local of another named function
    /// (`above` holds its ancestors): Python's inner `def`, a JavaScript `function parseIndex()`
    /// or `const f = () => …` in a function's body or in a callback there (`function onend()`
    /// in a `Promise` executor), a Rust `fn` in a `fn`. No code outside can call it by name. A
    /// class in between makes it a method; the anonymous function that wraps a bundled module
    /// (UMD, an IIFE) names nothing; a JavaScript factory that returns an object
    /// (`return definePlugin({ … })`) hands its inner functions out.
    fn nested(&self, above: &[Node<'_>], node: Node<'_>) -> bool {
        // Function values: named only by the `const` they are bound to.
        const VALUES: &[&str] = &["arrow_function", "function_expression", "function"];
        let js = matches!(self.lang, Lang::JavaScript | Lang::TypeScript);
        let bound = |n: Node<'_>| {
            VALUES.contains(&n.kind())
                && n.parent()
                    .is_some_and(|d| d.kind() == "variable_declarator")
        };
        let local = match node.kind() {
            "function_declaration" | "generator_function_declaration" => js,
            "function_definition" | "function_item" => true,
            _ => bound(node),
        };
        if !local {
            return false;
        }
        let mut through_callback = false;
        for n in above
            .iter()
            .rev()
            .take_while(|n| !self.syn.classes.contains(&n.kind()))
        {
            let named = matches!(
                n.kind(),
                "function_declaration"
                    | "generator_function_declaration"
                    | "function_definition"
                    | "method_definition"
                    | "method_declaration"
                    | "constructor_declaration"
                    | "function_item"
            ) || bound(*n)
                // `module.exports = function (source) {…}`, `proto.write = function () {…}`.
                || VALUES.contains(&n.kind())
                    && n.parent()
                        .is_some_and(|a| a.kind() == "assignment_expression");
            if named {
                return !js || through_callback || !returns_an_object(*n);
            }
            through_callback |= VALUES.contains(&n.kind());
        }
        false
    }

    /// Whether `node` is a JavaScript or TypeScript function declared at the top level of
    /// its module (or the function value of a top-level `const`), under the name `name`,
    /// that the module does not export by any of the forms a reader can see: `export
    /// function f`, `export { f }`, `export default f`, `exports.f = …`, `module.exports =
    /// f`, `module.exports = { f, … }`.
    fn unexported(&self, node: Node<'_>, name: &str) -> bool {
        if !matches!(self.lang, Lang::JavaScript | Lang::TypeScript) || name.is_empty() {
            return false;
        }
        let statement = match node.kind() {
            "function_declaration" | "generator_function_declaration" => Some(node),
            // `const deleteSubKey = (pkg, …) => {…}`
            "arrow_function" | "function_expression" | "function" => node
                .parent()
                .filter(|d| d.kind() == "variable_declarator")
                .and_then(|d| d.parent())
                .filter(|l| matches!(l.kind(), "lexical_declaration" | "variable_declaration")),
            _ => None,
        };
        let Some(parent) = statement.and_then(|s| s.parent()) else {
            return false;
        };
        if parent.kind() != "program" {
            return false;
        }
        !self.offers.exports().contains(name)
    }

    /// The names of a function's parameters, without the receiver (`self`).
    /// The names of a Go function's named results (`func f() (n int, err error)`).
    fn result_names(&self, function: Node<'_>) -> Vec<String> {
        let Some(list) = function
            .child_by_field_name("result")
            .filter(|r| r.kind() == "parameter_list")
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for p in named(list) {
            let mut c = p.walk();
            for n in p.children_by_field_name("name", &mut c) {
                out.push(self.text(n));
            }
        }
        out
    }

    pub(crate) fn parameter_names(&self, function: Node<'_>) -> Vec<String> {
        self.parameters(function)
            .into_iter()
            .map(|p| p.name)
            .collect()
    }

    fn parameters(&self, function: Node<'_>) -> Vec<Parameter> {
        let Some(list) = function
            .child_by_field_name("parameters")
            .or_else(|| function.child_by_field_name("parameter"))
        else {
            return Vec::new();
        };
        if self.syn.identifiers.contains(&list.kind()) {
            return vec![Parameter {
                name: self.text(list),
                ..Parameter::default()
            }];
        }
        let mut out = Vec::new();
        let mut keyword_only = false;
        for p in named(list) {
            let kind = p.kind();
            if kind == "keyword_separator" {
                keyword_only = true;
                continue;
            }
            let variadic = matches!(
                kind,
                "list_splat_pattern"
                    | "dictionary_splat_pattern"
                    | "rest_pattern"
                    | "spread_parameter"
                    | "variadic_parameter"
                    | "variadic_parameter_declaration"
            ) || self.text(p).starts_with("...");
            let optional = kind.contains("default")
                || kind == "optional_parameter"
                || p.child_by_field_name("value").is_some()
                || self.text(p).contains('?');
            let ty = p
                .child_by_field_name("type")
                .map(|t| self.text(t).trim_start_matches(':').trim().to_owned());
            let mut names: Vec<Node<'_>> = {
                let mut c = p.walk();
                p.children_by_field_name("name", &mut c).collect()
            };
            if names.is_empty() {
                let n = p
                    .child_by_field_name("pattern")
                    .or_else(|| p.child_by_field_name("left"))
                    .or_else(|| (p.kind() == "identifier").then_some(p))
                    .or_else(|| named(p).into_iter().find(|n| n.kind() == "identifier"));
                names.extend(n);
            }
            for n in names {
                let name = self.text(n);
                let name = name.trim_start_matches("mut ").to_owned();
                if is_identifier(&name) && !self.syn.constants.contains(&name.as_str()) {
                    out.push(Parameter {
                        name,
                        ty: ty.clone(),
                        optional,
                        keyword_only: keyword_only && !variadic,
                        variadic,
                    });
                }
            }
            // Python: what follows `*args` is passed by name only.
            if self.syn.python && kind == "list_splat_pattern" {
                keyword_only = true;
            }
        }
        out
    }

    /// The conditions, contexts and other branch on the way down `path` from `from`.
    fn walk(&self, path: &[Node<'t>], from: usize, early_exits: bool) -> Walk<'t> {
        let mut w = Walk::default();
        let py = self.syn.python;
        for i in from..path.len().saturating_sub(1) {
            let node = path[i];
            let child = path[i + 1];
            let kind = node.kind();
            let line = node.start_position().row as u32 + 1;
            if early_exits && is_block(kind) {
                self.early_exits(child, &mut w);
            }
            if self.syn.ifs.contains(&kind) || self.syn.ternaries.contains(&kind) {
                let Some(c) = node.child_by_field_name("condition") else {
                    continue;
                };
                let e = Expr::from_node(c, self.src, self.syn);
                let consequence = node.child_by_field_name("consequence");
                if consequence.is_some_and(|n| n.id() == child.id()) {
                    w.push(e, ConditionKind::If, line, c, py);
                } else if child.id() != c.id() && child.start_byte() >= c.end_byte() {
                    // The `else` side (or an `elif`): this condition and every earlier `elif`'s
                    // are false.
                    let mut negated = vec![e.clone().not()];
                    let mut nodes = vec![c];
                    let mut cur = node.walk();
                    for alt in node.children_by_field_name("alternative", &mut cur) {
                        if alt.start_byte() >= child.start_byte() {
                            break;
                        }
                        if let Some(ec) = alt.child_by_field_name("condition") {
                            negated.push(Expr::from_node(ec, self.src, self.syn).not());
                            nodes.push(ec);
                        }
                    }
                    let holds = Expr::And(negated).simplify(py);
                    if let Some(cons) = consequence {
                        w.other_branch = Some(Branch {
                            condition: e.simplify(py).render(py),
                            statements: self.statements(cons),
                            line,
                        });
                    }
                    w.push(holds, ConditionKind::Else, line, c, py);
                    w.nodes
                        .extend(nodes.into_iter().skip(1).map(|n| (n, ConditionKind::Else)));
                }
            } else if kind == "elif_clause" {
                if let (Some(c), Some(cons)) = (
                    node.child_by_field_name("condition"),
                    node.child_by_field_name("consequence"),
                ) {
                    if cons.id() == child.id() {
                        let e = Expr::from_node(c, self.src, self.syn);
                        w.push(e, ConditionKind::If, line, c, py);
                    }
                }
            } else if self.syn.whiles.contains(&kind) {
                if let (Some(c), Some(body)) = (
                    node.child_by_field_name("condition"),
                    node.child_by_field_name("body"),
                ) {
                    if body.id() == child.id() {
                        let e = Expr::from_node(c, self.src, self.syn);
                        w.push(e, ConditionKind::Loop, line, c, py);
                    }
                }
            } else if self.syn.loops.contains(&kind) {
                if let Some(body) = node.child_by_field_name("body") {
                    if body.id() == child.id() {
                        // Up to the head's last token: a comment between it and the body
                        // (`for node in nodes:` then `# Check …`) is no part of it.
                        let mut cursor = node.walk();
                        let end = node
                            .children(&mut cursor)
                            .take_while(|c| c.id() != body.id())
                            .filter(|c| !c.kind().contains("comment"))
                            .last()
                            .map_or(body.start_byte(), |c| c.end_byte());
                        let head = &self.src[node.start_byte()..end];
                        w.context.push(Context::Loop {
                            header: clip(squash(head).trim_end_matches(':').trim().to_owned()),
                            line,
                        });
                    }
                }
            } else if self.syn.tries.contains(&kind) {
                if node
                    .child_by_field_name("body")
                    .is_some_and(|b| b.id() == child.id())
                {
                    let mut catches = Vec::new();
                    let mut caught = Vec::new();
                    let mut finally = None;
                    for c in named(node) {
                        if self.syn.catches.contains(&c.kind()) {
                            let k = self.catch(c);
                            catches.push(k.clause.clone());
                            caught.push(k);
                        } else if self.syn.finallies.contains(&c.kind()) {
                            let body = named(c).into_iter().last().unwrap_or(c);
                            finally = Some(self.statements(body).join(" "));
                        }
                    }
                    w.context.push(Context::Try {
                        line,
                        catches,
                        finally,
                        caught,
                    });
                }
            } else if self.syn.catches.contains(&kind) {
                w.context.push(Context::Handler {
                    clause: self.clause_head(node),
                    line,
                });
            } else if self.syn.cases.contains(&kind) {
                if let Some((e, n)) = self.case_condition(&path[..i], node, child) {
                    w.push(e, ConditionKind::Case, line, n, py);
                }
            }
        }
        w
    }

    /// Early exits among the statements of a block above `child`: `if (x) return;` means that
    /// `!x` holds below it.
    fn early_exits(&self, child: Node<'t>, w: &mut Walk<'t>) {
        let mut found = Vec::new();
        let mut sib = child.prev_named_sibling();
        let mut seen = 0;
        while let Some(s) = sib {
            seen += 1;
            if seen > EARLY_EXIT_REACH {
                break;
            }
            let stmt = if s.kind() == "expression_statement" {
                named(s).into_iter().next().unwrap_or(s)
            } else {
                s
            };
            if self.syn.ifs.contains(&stmt.kind())
                && stmt.child_by_field_name("alternative").is_none()
            {
                if let (Some(c), Some(cons)) = (
                    stmt.child_by_field_name("condition"),
                    stmt.child_by_field_name("consequence"),
                ) {
                    if self.exits(cons) {
                        found.push((c, stmt.start_position().row as u32 + 1));
                    }
                }
            }
            sib = s.prev_named_sibling();
        }
        for (c, line) in found.into_iter().rev() {
            let e = Expr::from_node(c, self.src, self.syn).not();
            w.push(e, ConditionKind::EarlyExit, line, c, self.syn.python);
        }
    }

    /// Whether running `node` always leaves the block: a return, throw, raise, continue or
    /// break, or a block that ends in one.
    fn exits(&self, node: Node<'_>) -> bool {
        let kind = node.kind();
        if self.syn.exits.contains(&kind) {
            return true;
        }
        if kind == "macro_invocation" {
            let name = node
                .child_by_field_name("macro")
                .map(|m| crate::text::text(m, self.src))
                .unwrap_or_default();
            return matches!(
                name,
                "panic" | "bail" | "unreachable" | "todo" | "unimplemented"
            );
        }
        if kind == "expression_statement" || is_block(kind) || kind == "block" {
            return named(node).last().is_some_and(|n| self.exits(*n));
        }
        false
    }

    /// The condition of a `case` or `match` arm the site is in, unless it is the default arm.
    fn case_condition(
        &self,
        above: &[Node<'t>],
        case: Node<'t>,
        child: Node<'t>,
    ) -> Option<(Expr, Node<'t>)> {
        let switch = above
            .iter()
            .rev()
            .find(|n| self.syn.switches.contains(&n.kind()))?;
        let subject = switch
            .child_by_field_name("value")
            .or_else(|| switch.child_by_field_name("subject"))
            .or_else(|| switch.child_by_field_name("condition"))?;
        // A C-like `switch (x)` writes its subject in parentheses; a Rust tuple `(a, b)` is one.
        let subject_text = self.text(subject);
        let subject_text = match subject.kind() {
            "tuple_expression" => subject_text,
            _ => subject_text
                .strip_prefix('(')
                .and_then(|s| s.strip_suffix(')'))
                .unwrap_or(&subject_text)
                .to_owned(),
        };
        let Some((value, v)) = self.case_value(case) else {
            // `default:` has no value.
            return self.default_condition(case, &subject_text);
        };
        if value.id() == child.id() || case.kind() == "type_case" {
            return None;
        }
        // A Rust arm whose pattern is a lone binding (`bound => …`) matches whatever is left,
        // as `_` does: it tests nothing.
        let binding = case.kind() == "match_arm"
            && value.child_by_field_name("condition").is_none()
            && v.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
            && v.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && !matches!(v.as_str(), "true" | "false");
        if v == "_" || v == "default" || binding {
            return self.default_condition(case, &subject_text);
        }
        let text = match case.kind() {
            "match_arm" => {
                let guard = value.child_by_field_name("condition");
                let pattern = match guard {
                    Some(g) => self.src[value.start_byte()..g.start_byte()]
                        .trim()
                        .trim_end_matches("if")
                        .trim()
                        .to_owned(),
                    None => v.clone(),
                };
                let m = format!("matches!({subject_text}, {pattern})");
                match guard {
                    Some(g) => format!("{m} && {}", self.text(g)),
                    None => m,
                }
            }
            "switch_case" => v
                .split(", ")
                .map(|alt| format!("{subject_text} === {alt}"))
                .collect::<Vec<_>>()
                .join(" || "),
            "case_clause" if !is_identifier(&v.replace('.', "")) && !is_literal(&v) => return None,
            _ if v.contains(',') => v
                .split(',')
                .map(|alt| format!("{subject_text} == {}", alt.trim()))
                .collect::<Vec<_>>()
                .join(" || "),
            _ => format!("{subject_text} == {v}"),
        };
        Some((Expr::atom(text, false), value))
    }

    /// The value (or pattern) node of a `case` or `match` arm, and its text without `case`.
    fn case_value(&self, case: Node<'t>) -> Option<(Node<'t>, String)> {
        let value = case
            .child_by_field_name("pattern")
            .or_else(|| case.child_by_field_name("value"))
            .or_else(|| {
                named(case)
                    .into_iter()
                    .find(|n| matches!(n.kind(), "case_pattern" | "switch_label"))
            })?;
        let v = self.text(value);
        let v = v.strip_prefix("case ").unwrap_or(&v).trim().to_owned();
        if v.is_empty() {
            return None;
        }
        // The labels of a C-like `switch` that share the statements: Java's `case A: case B:`
        // of one group, and the empty cases that fall through into this one.
        let mut alts = Vec::new();
        if matches!(case.kind(), "switch_case" | "switch_block_statement_group") {
            let mut prev = case.prev_named_sibling();
            while let Some(p) = prev.filter(|p| p.kind() == case.kind() && self.is_empty_case(*p)) {
                alts.extend(self.labels(p));
                prev = p.prev_named_sibling();
            }
            alts.reverse();
            alts.extend(self.labels(case));
        }
        if alts.len() > 1 && !alts.iter().any(|a| a == "default" || a.contains(',')) {
            return Some((value, alts.join(", ")));
        }
        Some((value, v))
    }

    /// The values of a C-like case's labels, each without `case` (`A`, `B` of Java's `case A:
    /// case B:`); `default` for a default label.
    fn labels(&self, case: Node<'_>) -> Vec<String> {
        let strip = |t: String| t.strip_prefix("case ").unwrap_or(&t).trim().to_owned();
        match case.kind() {
            "switch_block_statement_group" => named(case)
                .into_iter()
                .filter(|n| n.kind() == "switch_label")
                .map(|n| match strip(self.text(n)) {
                    t if t.is_empty() => "default".to_owned(),
                    t => t,
                })
                .collect(),
            _ => vec![case
                .child_by_field_name("value")
                .map_or_else(|| "default".to_owned(), |v| strip(self.text(v)))],
        }
    }

    /// Whether a C-like case has no statements of its own: it falls through to the next.
    fn is_empty_case(&self, case: Node<'_>) -> bool {
        match case.kind() {
            "switch_block_statement_group" => named(case)
                .into_iter()
                .all(|n| n.kind() == "switch_label" || n.kind().contains("comment")),
            _ => {
                let mut c = case.walk();
                let empty = case.children_by_field_name("body", &mut c).next().is_none();
                empty
            }
        }
    }

    /// The condition of the default arm: the subject is none of the other arms' values.
    fn default_condition(&self, case: Node<'t>, subject: &str) -> Option<(Expr, Node<'t>)> {
        const MAX_ARMS: usize = 8;
        let parent = case.parent()?;
        let mut values = Vec::new();
        for arm in named(parent) {
            if arm.id() == case.id() || !self.syn.cases.contains(&arm.kind()) {
                continue;
            }
            let Some((value, v)) = self.case_value(arm) else {
                continue;
            };
            if v == "_" || v == "default" {
                continue;
            }
            if arm.kind() == "match_arm" && value.child_by_field_name("condition").is_some() {
                // A guarded arm: its pattern alone does not say when it is taken.
                return None;
            }
            if arm.kind() == "case_clause" && !is_identifier(&v.replace('.', "")) && !is_literal(&v)
            {
                return None;
            }
            values.extend(v.split(',').map(|p| p.trim().to_owned()));
        }
        if values.is_empty() || values.len() > MAX_ARMS || case.kind() == "type_case" {
            return None;
        }
        let expr = match case.kind() {
            "match_arm" => {
                Expr::atom(format!("matches!({subject}, {})", values.join(" | ")), true).not()
            }
            kind => {
                let op = if matches!(kind, "switch_case" | "switch_default") {
                    "!=="
                } else {
                    "!="
                };
                Expr::And(
                    values
                        .iter()
                        .map(|v| Expr::atom(format!("{subject} {op} {v}"), false))
                        .collect(),
                )
            }
        };
        Some((expr, case))
    }

    /// The head of a `catch` or `except` clause: `catch (error)`, `except KeyError as e`.
    fn catch(&self, clause: Node<'_>) -> Catch {
        catch_clause(clause, self.src, self.syn.python)
    }

    fn clause_head(&self, clause: Node<'_>) -> String {
        clause_parts(clause, self.src).0
    }

    /// The first statements of a block (or the one statement that is not a block).
    fn statements(&self, node: Node<'_>) -> Vec<String> {
        let inner = if node.kind() == "else_clause" {
            named(node).into_iter().next().unwrap_or(node)
        } else {
            node
        };
        let stmts = if is_block(inner.kind()) || inner.kind() == "block" {
            named(inner)
        } else {
            vec![inner]
        };
        stmts.into_iter().take(3).map(|s| self.text(s)).collect()
    }

    /// The names a condition reads: plain names and field paths, and the receivers of the
    /// methods it calls (`unconfirmedCleanup` of `unconfirmedCleanup.has(scope)`).
    fn names(&self, node: Node<'_>, out: &mut Vec<String>) {
        let kind = node.kind();
        if self.syn.calls.contains(&kind) {
            let callee = node
                .child_by_field_name("function")
                .or_else(|| node.child_by_field_name("object"));
            if let Some(callee) = callee {
                if node.kind() == "method_invocation" {
                    if self.is_chain(callee) {
                        self.push_name(callee, out);
                    }
                } else if let Some(obj) = member_object(callee) {
                    if self.is_chain(obj) {
                        self.push_name(obj, out);
                    }
                }
            }
            if let Some(args) = node.child_by_field_name("arguments") {
                self.names(args, out);
            }
            return;
        }
        if (self.syn.members.contains(&kind) || self.syn.identifiers.contains(&kind))
            && self.is_chain(node)
        {
            self.push_name(node, out);
            return;
        }
        for c in named(node) {
            self.names(c, out);
        }
    }

    fn push_name(&self, node: Node<'_>, out: &mut Vec<String>) {
        let text = self.text(node);
        if self.syn.constants.contains(&text.as_str()) || out.contains(&text) {
            return;
        }
        out.push(text);
    }

    /// Whether `node` is a name or a path of fields (`a`, `this.x`, `self.a.b`).
    fn is_chain(&self, node: Node<'_>) -> bool {
        let kind = node.kind();
        if self.syn.identifiers.contains(&kind) || kind == "self" {
            return true;
        }
        if matches!(
            kind,
            "member_expression"
                | "attribute"
                | "selector_expression"
                | "field_expression"
                | "field_access"
        ) {
            return member_object(node).is_some_and(|o| self.is_chain(o));
        }
        false
    }

    /// The value the local `name` was last given above `line` in `scope`, when it is declared
    /// there: `Some(None)` for a declaration without one (Java's `int n, i;`, `let x;`). With
    /// `site`, only a declaration on the way to it counts: one in a branch the site is not in
    /// (`if x is None: x = self.x` above an `elif` that raises) gave another call its value.
    fn local_value(
        &self,
        scope: Node<'t>,
        name: &str,
        line: u32,
        site: Option<Node<'t>>,
    ) -> Option<Option<String>> {
        let on_the_way = |decl: Node<'_>| {
            let Some(site) = site else { return true };
            std::iter::successors(decl.parent(), |p| p.parent())
                .take_while(|p| p.id() != scope.id())
                .filter(|p| is_block(p.kind()))
                .all(|b| b.start_byte() <= site.start_byte() && site.end_byte() <= b.end_byte())
        };
        let mut locals = self.locals.borrow_mut();
        let decls = locals.entry(scope.id()).or_insert_with(|| {
            let mut out = Vec::new();
            let mut stack = vec![scope];
            while let Some(n) = stack.pop() {
                if self.syn.locals.contains(&n.kind()) {
                    out.push((n.start_position().row as u32 + 1, n));
                }
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
            }
            out
        });
        decls
            .iter()
            .filter(|(row, n)| *row <= line && on_the_way(*n))
            .filter_map(|(row, n)| Some((*row, self.declared_value(*n, name)?)))
            .fold(
                None,
                |best: Option<(u32, Option<String>)>, (row, v)| match best {
                    Some((l, _)) if row < l => best,
                    _ => Some((row, v)),
                },
            )
            .map(|(row, v)| {
                // Assigned again on the way (`du, e2, du0 = mult128bitPow10(…)`): the
                // declaration's value is not the one at the site.
                let again = self
                    .assignments(scope)
                    .iter()
                    .any(|(r, n)| n == name && row < *r && *r <= line);
                if again {
                    None
                } else {
                    v
                }
            })
    }

    fn declared_value(&self, decl: Node<'_>, name: &str) -> Option<Option<String>> {
        let target = decl
            .child_by_field_name("name")
            .or_else(|| decl.child_by_field_name("left"))
            .or_else(|| decl.child_by_field_name("pattern"))?;
        let t = self.text(target);
        let t = t.trim_start_matches("mut ");
        let t = t.trim_start_matches('(').trim_end_matches(')');
        let hit = t == name || t.split(',').any(|p| p.trim() == name);
        if !hit {
            return None;
        }
        if !matches!(
            decl.kind(),
            "variable_declarator"
                | "assignment"
                | "short_var_declaration"
                | "var_spec"
                | "let_declaration"
        ) {
            // A loop variable or a caught exception: bound to each element, or to what was
            // raised, not to the expression beside it.
            return Some(None);
        }
        let value = decl
            .child_by_field_name("value")
            .or_else(|| decl.child_by_field_name("right"));
        Some(value.map(|v| self.text(v)))
    }

    /// The function of the file that recovers the Go panic `site`: recovering code (see
    /// [`Recovering`]) that names the panic's value (`case ErrInternalError:`,
    /// `r.(jsonError)`). A value the code does not name (a string, a bare `error`) is not
    /// taken to be recovered.
    fn recovered(&self, site: Node<'_>) -> Option<Recovery> {
        let func = site.child_by_field_name("function")?;
        if site.kind() != "call_expression" {
            return None;
        }
        let callee = crate::text::text(func, self.src);
        if callee != "panic" {
            // A helper of the file that panics for its caller (`s.errorString(msg)`, whose body
            // is `panic(scanError{errors.New(msg)})`): its panic is the site's. Only a file that
            // recovers panics is looked through for it.
            if self
                .recovering
                .get_or_init(|| recovering_code(self.root, self.src))
                .is_empty()
            {
                return None;
            }
            let inner = self.helper_panic(callee)?;
            return self.recovered(inner);
        }
        let arg = named(site.child_by_field_name("arguments")?)
            .into_iter()
            .next()?;
        let value = panic_value(arg, self.src)?;
        let all: Vec<&Recovering<'_>> = self
            .recovering
            .get_or_init(|| recovering_code(self.root, self.src))
            .iter()
            .filter(|r| errata_lang::names(r.code).any(|n| n.text == value))
            .collect();
        let r = all.first()?;
        // The functions through which it is recovered: those that defer a recovering
        // function (`Fscanf` defers `errorHandler`), and those that defer their own literal.
        let mut through = Vec::new();
        for r in &all {
            if r.whole {
                through.extend(self.deferring(r.function));
            } else {
                through.push(r.function.to_owned());
            }
        }
        through.dedup();
        Some(Recovery {
            function: r.function.to_owned(),
            line: r.line,
            value: value.to_owned(),
            to_error: r.code.contains("err = ") || r.code.contains("errp = "),
            through,
        })
    }

    /// The functions and methods of the file that `defer name(…)`.
    fn deferring(&self, name: &str) -> Vec<String> {
        let needle = format!("defer {name}(");
        named(self.root)
            .into_iter()
            .filter(|d| matches!(d.kind(), "function_declaration" | "method_declaration"))
            .filter(|d| crate::text::text(*d, self.src).contains(&needle))
            .filter_map(|d| d.child_by_field_name("name"))
            .map(|n| crate::text::text(n, self.src).to_owned())
            .collect()
    }

    /// The `panic(…)` call of what `callee` calls, when the file declares it: a method for
    /// `s.errorString`, a function for a bare `fail`.
    fn helper_panic(&self, callee: &str) -> Option<Node<'t>> {
        let (kind, name) = match callee.rsplit_once('.') {
            Some((_, name)) => ("method_declaration", name),
            None => ("function_declaration", callee),
        };
        let decl = named(self.root).into_iter().find(|d| {
            d.kind() == kind
                && d.child_by_field_name("name")
                    .is_some_and(|n| crate::text::text(n, self.src) == name)
        })?;
        let mut stack = vec![decl.child_by_field_name("body")?];
        while let Some(n) = stack.pop() {
            if n.kind() == "call_expression"
                && n.child_by_field_name("function")
                    .is_some_and(|f| crate::text::text(f, self.src) == "panic")
            {
                return Some(n);
            }
            if n.kind() != "func_literal" {
                stack.extend(named(n).into_iter().rev());
            }
        }
        None
    }

    /// Whether a method's declaration keeps it from code outside its class: Java without
    /// `public` or `protected`, TypeScript `private`.
    fn declared_hidden(&self, function: Node<'_>) -> bool {
        let mut c = function.walk();
        let modifiers: Vec<String> = function
            .children(&mut c)
            .filter(|n| matches!(n.kind(), "modifiers" | "accessibility_modifier"))
            .map(|n| crate::text::text(n, self.src).to_owned())
            .collect();
        match self.lang {
            Lang::Java => {
                function.kind() == "method_declaration"
                    && !modifiers
                        .iter()
                        .any(|m| m.contains("public") || m.contains("protected"))
            }
            Lang::TypeScript => modifiers.iter().any(|m| m.contains("private")),
            _ => false,
        }
    }

    /// Where the file writes `name`, with the conditions of each write.
    fn writes_of(&self, name: &str, scope: Node<'t>, rules: &dyn Rules, cx: &Cx<'_>) -> Vec<Write> {
        let all = self.writes.get_or_init(|| self.all_writes());
        let bare = is_identifier(name);
        // `self.x` and `this.x` are the fields of the class the guard is in: another class of
        // the file that writes its own `self.x` changes another object.
        let class_of = |n: Node<'_>| {
            std::iter::successors(n.parent(), |p| p.parent())
                .find(|p| self.syn.classes.contains(&p.kind()))
                .map(|c| c.id())
        };
        let home = matches!(root_of(name), "self" | "this")
            .then(|| class_of(scope))
            .flatten();
        all.iter()
            .filter(|w| w.target == name)
            .filter(|w| home.is_none() || class_of(w.node) == home)
            .filter_map(|w| {
                let path = path_to(self.root, w.node);
                let fidx = (0..path.len().saturating_sub(1))
                    .rev()
                    .find(|&i| rules.is_function(path[i].kind()));
                // An assignment outside any function initialises a module's constant or
                // global: it does not change state between calls.
                if fidx.is_none() && w.effect == Effect::Assign {
                    return None;
                }
                // A bare name written in another function is that function's own variable
                // when it declares it there (a parameter, `let`, `:=`, or any assignment in
                // Python or Rust without `global`): not the state the guard reads.
                if let Some(f) = fidx.map(|f| path[f]) {
                    if bare && f.id() != scope.id() && self.declares(f, name) {
                        return None;
                    }
                }
                let walk = self.walk(&path, fidx.map_or(0, |f| f + 1), false);
                let text = self.text(w.node);
                let function = fidx.map(|f| path[f]);
                // `self._x = x` where `x` is the writing function's one parameter (a setter):
                // its caller gives the value.
                let value = text
                    .split_once('=')
                    .map(|(_, v)| v.trim().trim_end_matches(';').trim());
                let from_parameter = w.effect == Effect::Assign
                    && value.is_some_and(|v| {
                        function.is_some_and(
                            |f| matches!(self.parameters(f).as_slice(), [p] if p.name == v),
                        )
                    });
                Some(Write {
                    text,
                    effect: w.effect,
                    line: w.node.start_position().row as u32 + 1,
                    function: fidx.and_then(|f| rules.function_name(&path[..=f + 1], cx)),
                    conditions: walk.conditions.into_iter().map(|c| c.expr).collect(),
                    from_parameter,
                    hidden: function.is_some_and(|f| self.declared_hidden(f)),
                })
            })
            .take(MAX_WRITES)
            .collect()
    }

    /// The value a Rust `x.expect("…")` site unwraps.
    fn unwrapped(&self, site: Node<'_>) -> Option<Unwrapped> {
        if site.kind() != "call_expression" {
            return None;
        }
        let func = site.child_by_field_name("function")?;
        if func.kind() != "field_expression" {
            return None;
        }
        let method = crate::text::text(func.child_by_field_name("field")?, self.src);
        if !matches!(method, "expect" | "expect_err") {
            return None;
        }
        let value = func.child_by_field_name("value")?;
        Some(Unwrapped {
            value: clip(squash(crate::text::text(value, self.src).trim())),
            ok_panics: method == "expect_err",
        })
    }

    /// What makes an assertion fail, as the condition under which the site runs: `not (x)`
    /// of Python's and Java's `assert x`, `!(x)` of Rust's `assert!(x, …)`, `a != b` of
    /// `assert_eq!(a, b)`.
    fn assertion(&self, site: Node<'_>) -> Option<Condition> {
        let py = self.syn.python;
        let line = site.start_position().row as u32 + 1;
        let e = match site.kind() {
            "assert_statement" => {
                let cond = named(site).into_iter().next()?;
                // `assert False, …` fails wherever it is reached: no condition of its own.
                if matches!(crate::text::text(cond, self.src), "False" | "0") {
                    return None;
                }
                Expr::from_node(cond, self.src, self.syn).not()
            }
            "macro_invocation" => {
                let name = crate::text::text(site.child_by_field_name("macro")?, self.src);
                let name = name.rsplit("::").next().unwrap_or(name);
                let tt = named(site).into_iter().find(|n| n.kind() == "token_tree")?;
                let inner = crate::text::text(tt, self.src);
                let inner = inner.get(1..inner.len().saturating_sub(1))?;
                let args = split_top_level(inner);
                let arg = |i: usize| args.get(i).map(|a| squash(a.trim()));
                match name {
                    // `assert!(!p.is_null())` fails when `p.is_null()`; `assert!(ok)` when `!ok`.
                    "assert" | "debug_assert" => {
                        let a = arg(0)?;
                        match a.strip_prefix('!').map(str::trim) {
                            Some(inner) if is_simple_operand(inner) => {
                                Expr::atom(inner.to_owned(), true)
                            }
                            _ if is_simple_operand(&a) => Expr::atom(a, true).not(),
                            // `assert!(name != '-')` fails when `name == '-'`.
                            _ => match errata_explain::other_comparison(&a, Lang::Rust) {
                                Some(n) => Expr::atom(n, false),
                                None => Expr::atom(a, false).not(),
                            },
                        }
                    }
                    "assert_eq" | "debug_assert_eq" => {
                        Expr::atom(format!("{} != {}", arg(0)?, arg(1)?), false)
                    }
                    "assert_ne" | "debug_assert_ne" => {
                        Expr::atom(format!("{} == {}", arg(0)?, arg(1)?), false)
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        let e = e.simplify(py);
        Some(Condition {
            expr: e.render(py),
            conjuncts: e.conjuncts().iter().map(|c| c.render(py)).collect(),
            negated: e.clone().not().simplify(py).render(py),
            kind: ConditionKind::Assert,
            line,
        })
    }

    /// The `#[cfg(…)]` predicates on the items and statements around a Rust site, outermost
    /// first, and `debug_assertions` for a `debug_assert!`.
    fn cfgs(&self, path: &[Node<'t>]) -> Vec<Context> {
        let mut out = Vec::new();
        let mut push = |p: Node<'_>| {
            let t: String = crate::text::text(p, self.src).split_whitespace().collect();
            if let Some(c) = t.strip_prefix("#[cfg(").and_then(|c| c.strip_suffix(")]")) {
                out.push(Context::Cfg {
                    condition: c.replace(',', ", "),
                    line: p.start_position().row as u32 + 1,
                });
            }
        };
        let attribute = |p: &Node<'_>| p.kind() == "attribute_item" || p.kind().contains("comment");
        for n in path {
            // A match arm holds its attributes (`#[cfg(…)] Pattern => …`); an item or a
            // statement has them before it.
            if n.kind() == "match_arm" {
                for p in named(*n).into_iter().take_while(attribute) {
                    push(p);
                }
            }
            let mut prev = n.prev_named_sibling();
            while let Some(p) = prev.filter(attribute) {
                push(p);
                prev = p.prev_named_sibling();
            }
        }
        if let Some(site) = path.last().filter(|n| n.kind() == "macro_invocation") {
            let name = site
                .child_by_field_name("macro")
                .map_or("", |m| crate::text::text(m, self.src));
            if name
                .rsplit("::")
                .next()
                .is_some_and(|n| n.starts_with("debug_assert"))
            {
                out.push(Context::Cfg {
                    condition: "debug_assertions".to_owned(),
                    line: site.start_position().row as u32 + 1,
                });
            }
        }
        out
    }

    /// Whether the local `name` of `scope` is assigned more than once, updated in place or
    /// passed by reference.
    fn written_again(&self, scope: Node<'_>, name: &str) -> bool {
        self.writes_in(crate::text::text(scope, self.src), name) > 1
    }

    /// Whether the function `scope` assigns `name` above `line` where that may have run on
    /// the way to the site: not in a branch of an `if` (or `switch`, `match`) that the site is
    /// in too, which is another path (`if x is None: x = d` above an `elif` that raises).
    fn assigned_above(&self, scope: Node<'_>, name: &str, line: u32) -> bool {
        let body = crate::text::text(scope, self.src);
        let first = scope.start_position().row as u32 + 1;
        let upto: usize = body
            .split_inclusive('\n')
            .take(line.saturating_sub(first) as usize)
            .map(str::len)
            .sum();
        // The declaration's own line (`def f(x=1)`) assigns no value in the body.
        let from = body.find('\n').map_or(upto, |n| n + 1).min(upto);
        let site_row = line.saturating_sub(1) as usize;
        write_offsets(&body[from..upto], name)
            .into_iter()
            .any(|(at, _)| {
                let start = scope.start_byte() + from + at;
                let Some(mut n) = scope.descendant_for_byte_range(start, start + name.len()) else {
                    return false;
                };
                while let Some(p) = n.parent() {
                    if p.id() == scope.id() {
                        break;
                    }
                    let k = p.kind();
                    // `if_statement`, `elif_clause`, `if_expression`; `switch_statement`,
                    // Go's `expression_switch_statement`; `match_expression` (not `identifier`,
                    // which holds "if" too).
                    let branching = k.starts_with("if_")
                        || k == "elif_clause"
                        || k.contains("switch")
                        || k.starts_with("match_");
                    if branching
                        && p.start_position().row <= site_row
                        && p.end_position().row >= site_row
                    {
                        return false;
                    }
                    n = p;
                }
                true
            })
    }

    /// How many times `body` assigns `name` (up to 2); a reference handed out (`&name`)
    /// counts as two.
    fn writes_in(&self, body: &str, name: &str) -> usize {
        let writes = write_offsets(body, name);
        match writes.iter().any(|&(_, reference)| reference) {
            true => 2,
            false => writes.len().min(2),
        }
    }

    /// Whether the function `f` has its own variable `name`.
    fn declares(&self, f: Node<'t>, name: &str) -> bool {
        if self.parameter_names(f).iter().any(|p| p == name) {
            return true;
        }
        match self.syn.lang {
            Lang::Python => {
                let body = crate::text::text(f, self.src);
                !body.contains(&format!("global {name}"))
                    && !body.contains(&format!("nonlocal {name}"))
            }
            // A Rust function cannot assign a variable of another one; a Go function's
            // bare names are its own (`:=`, `var`, named results) but for package variables,
            // which are written outside any function far more than inside.
            Lang::Rust | Lang::Go => true,
            // Java's and JavaScript's: a declaration in it (`Entry e = …`, `let x`, a loop
            // variable, a caught exception) makes the name its own.
            _ => self.local_value(f, name, u32::MAX, None).is_some(),
        }
    }

    /// Every write of the file: mutating method calls and assignments.
    fn all_writes(&self) -> Vec<WriteSite<'t>> {
        let mut out = Vec::new();
        preorder(self.root, |node| {
            out.extend(self.write_at(node));
            true
        });
        out
    }

    /// Gives the file's writes, found by a walk the caller made anyway.
    pub(crate) fn set_writes(&self, writes: Vec<WriteSite<'t>>) {
        let _ = self.writes.set(writes);
    }

    /// The write `node` makes, if it is a mutating call or an assignment.
    pub(crate) fn write_at(&self, node: Node<'t>) -> Option<WriteSite<'t>> {
        let kind = node.kind();
        if self.syn.calls.contains(&kind) {
            let (target, effect) = self.mutation(node)?;
            return Some(WriteSite {
                target,
                effect,
                node: statement(node),
            });
        }
        if self.syn.assignments.contains(&kind) {
            let target = self.text(node.child_by_field_name("left")?);
            return (!target.contains(',')).then(|| WriteSite {
                target,
                effect: Effect::Assign,
                node: statement(node),
            });
        }
        None
    }

    /// `x.add(…)` and the like: the receiver and what the method does to it.
    fn mutation(&self, call: Node<'_>) -> Option<(String, Effect)> {
        // Most calls are not mutations: the called name says so without a field lookup.
        let (_, name) = refs::callee(call, self.src)?;
        MUTATORS.iter().find(|(m, _)| *m == name)?;
        let (object, method) = if call.kind() == "method_invocation" {
            (
                call.child_by_field_name("object")?,
                call.child_by_field_name("name")?,
            )
        } else {
            let callee = call.child_by_field_name("function")?;
            let object = member_object(callee)?;
            let method = callee
                .child_by_field_name("property")
                .or_else(|| callee.child_by_field_name("attribute"))
                .or_else(|| callee.child_by_field_name("field"))
                .or_else(|| callee.child_by_field_name("name"))?;
            (object, method)
        };
        let m = crate::text::text(method, self.src);
        let effect = MUTATORS.iter().find(|(name, _)| *name == m)?.1;
        self.is_chain(object).then(|| (self.text(object), effect))
    }
}

/// What a walk down a path found.
#[derive(Default)]
struct Walk<'t> {
    conditions: Vec<Condition>,
    context: Vec<Context>,
    other_branch: Option<Branch>,
    /// The condition nodes, to read names from, and why each holds.
    nodes: Vec<(Node<'t>, ConditionKind)>,
}

impl<'t> Walk<'t> {
    fn push(&mut self, e: Expr, kind: ConditionKind, line: u32, node: Node<'t>, py: bool) {
        let e = e.simplify(py);
        if e.is_true() {
            // `while True:`, `for (;;)`: no condition at all.
            return;
        }
        let conjuncts = e.conjuncts().iter().map(|c| c.render(py)).collect();
        self.conditions.push(Condition {
            expr: e.render(py),
            conjuncts,
            negated: e.clone().not().simplify(py).render(py),
            kind,
            line,
        });
        self.nodes.push((node, kind));
    }
}

/// The kinds of function a one-expression helper can be.
pub(crate) fn is_helper_kind(kind: &str) -> bool {
    matches!(
        kind,
        "function_declaration"
            | "method_definition"
            | "arrow_function"
            | "function_definition"
            | "method_declaration"
            | "function_item"
    )
}

/// Whether a JavaScript function's body returns an object it builds (`return { a, b }`,
/// `return definePlugin({ … })`): a factory, whose inner functions its callers get.
fn returns_an_object(function: Node<'_>) -> bool {
    let Some(body) = function.child_by_field_name("body") else {
        return false;
    };
    named(body).into_iter().any(|st| {
        st.kind() == "return_statement"
            && named(st).first().is_some_and(|v| {
                v.kind() == "object"
                    || v.kind() == "call_expression"
                        && v.child_by_field_name("arguments")
                            .is_some_and(|a| named(a).iter().any(|x| x.kind() == "object"))
            })
    })
}

/// Whether the statement holding `site` is all that the body of `function` does, comments
/// and a docstring aside.
fn sole_statement(function: Node<'_>, site: Node<'_>) -> bool {
    let Some(body) = function.child_by_field_name("body") else {
        return false;
    };
    let mut cursor = body.walk();
    let statements: Vec<Node<'_>> = body
        .named_children(&mut cursor)
        .filter(|n| !n.kind().contains("comment"))
        .filter(|n| {
            !(n.kind() == "expression_statement"
                && n.named_child_count() == 1
                && n.named_child(0).is_some_and(|c| c.kind() == "string"))
        })
        .collect();
    // The raise itself, not a branch around it.
    let plain = |n: &Node<'_>| {
        matches!(
            n.kind(),
            "raise_statement"
                | "throw_statement"
                | "expression_statement"
                | "return_statement"
                | "macro_invocation"
                | "call_expression"
        )
    };
    match statements.as_slice() {
        [only] => {
            plain(only)
                && only.start_byte() <= site.start_byte()
                && site.end_byte() <= only.end_byte()
        }
        _ => false,
    }
}

/// The names a class declaration extends or implements, last segments (`Base` of
/// `class A(pkg.Base, metaclass=M)`, `extends Foo<T> implements Bar`), generous: a type
/// argument counts too.
fn class_bases(class: Node<'_>, src: &str) -> Vec<String> {
    let mut c = class.walk();
    let heads: Vec<Node<'_>> = class
        .children(&mut c)
        .filter(|n| {
            matches!(
                n.kind(),
                "argument_list"
                    | "superclass"
                    | "super_interfaces"
                    | "extends_interfaces"
                    | "class_heritage"
            )
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    for h in heads {
        let mut cur = h.walk();
        let keyword = |n: Node<'_>| n.kind() == "keyword_argument";
        let parts: Vec<Node<'_>> = if h.kind() == "argument_list" {
            h.named_children(&mut cur)
                .filter(|n| !keyword(*n))
                .collect()
        } else {
            vec![h]
        };
        for p in parts {
            let text = crate::text::text(p, src);
            for word in text.split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$')) {
                let keyword = matches!(word, "extends" | "implements");
                if !word.is_empty() && !keyword && !out.iter().any(|w| w == word) {
                    out.push(word.to_owned());
                }
            }
        }
    }
    out
}

/// The arguments a Python `raise Class(…)` or a Java `new Class(…)` hands its class, as
/// written (`msg`, `file, other`), when they are names or attributes, none of them literal
/// text (Java's `null`s left out).
fn carried(site: Node<'_>, src: &str) -> Option<String> {
    let call = match site.kind() {
        "raise_statement" => named(site).into_iter().find(|n| n.kind() == "call")?,
        "throw_statement" | "return_statement" => named(site)
            .into_iter()
            .find(|n| n.kind() == "object_creation_expression")?,
        "call" | "object_creation_expression" => site,
        _ => return None,
    };
    let args: Vec<Node<'_>> = named(call.child_by_field_name("arguments")?)
        .into_iter()
        .filter(|n| n.kind() != "null_literal")
        .collect();
    // Java's arguments are all the values the class words its message with: a call's own
    // arguments are shortened (`rb.getString(…)`).
    let java = call.kind() == "object_creation_expression";
    let plain = |n: &Node<'_>| java || matches!(n.kind(), "identifier" | "attribute");
    (!args.is_empty() && args.len() <= 4 && args.iter().all(plain)).then(|| {
        args.iter()
            .map(|a| shortened(crate::text::text(*a, src)))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// `text` with what its parentheses hold put as `…` when it is long: `rb.getString(…)`.
fn shortened(text: &str) -> String {
    const LONG: usize = 40;
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.len() <= LONG {
        return text;
    }
    let mut out = String::new();
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' => {
                if depth == 0 {
                    out.push('(');
                    if chars.peek() != Some(&')') {
                        out.push('…');
                    }
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(')');
                }
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

pub(crate) fn preorder<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
    let mut cursor = root.walk();
    loop {
        if !visit(cursor.node()) {
            return;
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// The arguments of a macro's token tree, split at the commas outside brackets and strings.
pub(crate) fn split_top_level(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut in_str, mut prev) = (0i32, 0usize, false, '\0');
    for (i, c) in s.char_indices() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '(' | '[' | '{' if !in_str => depth += 1,
            ')' | ']' | '}' if !in_str => depth -= 1,
            ',' if !in_str && depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        prev = c;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// The statement an expression belongs to, when it is an expression statement.
fn statement(node: Node<'_>) -> Node<'_> {
    match node.parent() {
        Some(p) if p.kind() == "expression_statement" => p,
        _ => node,
    }
}

/// The object of a field access: `a` of `a.b`.
fn member_object(node: Node<'_>) -> Option<Node<'_>> {
    node.child_by_field_name("object")
        .or_else(|| node.child_by_field_name("operand"))
        .or_else(|| node.child_by_field_name("value"))
}

fn first_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    named(node).into_iter().find(|n| n.kind() == kind)
}

fn named(node: Node<'_>) -> Vec<Node<'_>> {
    let mut c = node.walk();
    node.named_children(&mut c)
        .filter(|n| !n.kind().contains("comment"))
        .collect()
}

/// A `catch` / `except` clause and what its handler does: whether it raises again what it
/// caught, or raises another error.
pub(crate) fn catch_clause(clause: Node<'_>, src: &str, python: bool) -> Catch {
    let text = |n: Node<'_>| clip(crate::text::compact_code(n, src));
    let (head, body) = clause_parts(clause, src);
    let bound = bound_name(&head, python);
    let mut rethrows = false;
    let mut raises = None;
    let mut statements = Vec::new();
    if let Some(body) = body {
        let mut throws = Vec::new();
        throws_in(body, &mut throws);
        for t in throws {
            let raised = named(t).into_iter().next().map(text);
            let again = match (raised.as_deref(), bound.as_deref()) {
                (None, _) => true,
                (Some(r), Some(b)) => {
                    r == b
                        || r.strip_prefix(b)
                            .is_some_and(|rest| rest.starts_with(" from"))
                }
                _ => false,
            };
            if again {
                rethrows = true;
            } else if raises.is_none() {
                raises = raised.map(|r| clip(squash(&r)));
            }
        }
        let stmts = if is_block(body.kind()) || body.kind() == "block" {
            named(body)
        } else {
            vec![body]
        };
        statements = stmts
            .into_iter()
            .filter(|s| !s.kind().contains("comment"))
            .take(3)
            .map(text)
            .collect();
    }
    Catch {
        clause: head,
        line: clause.start_position().row as u32 + 1,
        statements,
        rethrows,
        raises,
    }
}

/// A `catch` / `except` / `if` clause's head on one line (`except KeyError as e`), and its body.
fn clause_parts<'n>(clause: Node<'n>, src: &str) -> (String, Option<Node<'n>>) {
    let body = clause
        .child_by_field_name("body")
        .or_else(|| named(clause).into_iter().find(|n| n.kind() == "block"));
    let end = body.map_or(clause.end_byte(), |b| b.start_byte());
    let head = squash(&src[clause.start_byte()..end])
        .trim_end_matches(':')
        .trim()
        .to_owned();
    (clip(head), body)
}

/// The `raise` / `throw` statements of a handler, not those of functions defined in it.
fn throws_in<'n>(node: Node<'n>, out: &mut Vec<Node<'n>>) {
    for c in named(node) {
        match c.kind() {
            "raise_statement" | "throw_statement" => out.push(c),
            k if k.contains("function") || k.contains("lambda") || k.contains("class") => {}
            _ => throws_in(c, out),
        }
    }
}

/// The call a Go error value is handed to as an argument (`p.error` of
/// `p.error(syntax.Error{…})`), when it is not one that wraps or panics with it.
fn handed_to(site: Node<'_>, src: &str) -> Option<String> {
    if let Some(d) = site
        .parent()
        .filter(|p| matches!(p.kind(), "variable_declarator" | "assignment"))
    {
        return handed_by_name(d, src);
    }
    let args = site
        .parent()
        .filter(|p| matches!(p.kind(), "argument_list" | "arguments"))?;
    let call = args
        .parent()
        .filter(|p| matches!(p.kind(), "call_expression" | "call"))?;
    let callee = crate::text::text(call.child_by_field_name("function")?, src);
    // `append(errs, …)` collects it, to be returned or joined later.
    let wraps = callee == "panic"
        || callee == "append"
        || callee.starts_with("errors.")
        || callee.starts_with("fmt.")
        || callee.starts_with("log.");
    (!wraps && callee.len() <= 60).then(|| callee.to_owned())
}

/// Conditions that read a name an `if let` binds (`if let Some(name) = v` then
/// `debug_assert!(name != '-')`) say it of the bound value, not of a name outside: they join
/// the `if let`'s `matches!` as its guard (`matches!(v, Some(name) if name == '-')`).
fn merge_let_bindings(conditions: &mut Vec<Condition>) {
    let mut i = 0;
    while i < conditions.len() {
        let Some((value, pattern)) = let_parts(&conditions[i].expr) else {
            i += 1;
            continue;
        };
        let bound: Vec<&str> = errata_lang::names(&pattern)
            .filter(|n| !n.member && n.text.starts_with(|c: char| c.is_lowercase() || c == '_'))
            .map(|n| n.text)
            .filter(|n| !matches!(*n, "ref" | "mut" | "_"))
            .filter(|n| {
                let after = &pattern[pattern.find(n).map_or(0, |at| at + n.len())..];
                !after.starts_with(['(', '!', '{']) && !after.starts_with("::")
            })
            .collect();
        let (reading, rest): (Vec<Condition>, Vec<Condition>) = conditions
            .split_off(i + 1)
            .into_iter()
            .partition(|c| bound.iter().any(|b| reads_name(&c.expr, b)));
        if !reading.is_empty() {
            let guard: Vec<&str> = reading.iter().map(|c| c.expr.as_str()).collect();
            let expr = format!("matches!({value}, {pattern} if {})", guard.join(" && "));
            let c = &mut conditions[i];
            c.negated = format!("!{expr}");
            c.conjuncts = vec![expr.clone()];
            c.expr = expr;
        }
        conditions.extend(rest);
        i += 1;
    }
}

/// The value and pattern of `matches!(value, pattern)`, split at the last top-level comma.
fn let_parts(expr: &str) -> Option<(String, String)> {
    let inner = expr.strip_prefix("matches!(")?.strip_suffix(')')?;
    let mut depth = 0i32;
    let mut split = None;
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => split = Some(i),
            _ => {}
        }
    }
    let at = split?;
    let pattern = inner[at + 1..].trim();
    (depth == 0 && !pattern.contains(" if "))
        .then(|| (inner[..at].trim().to_owned(), pattern.to_owned()))
}

/// The field a Go error kept in a local is stored in by the statements after it, when that
/// comes before any `return` or call that takes the local (`pkgErr = fmt.Errorf(…)` in an
/// `if` … `pkg.Error = &PackageError{Err: pkgErr}` after it).
fn stored_in(site: Node<'_>, src: &str) -> Option<String> {
    let list = site.parent().filter(|p| p.kind() == "expression_list")?;
    let stmt = list
        .parent()
        .filter(|p| matches!(p.kind(), "assignment_statement" | "short_var_declaration"))?;
    if stmt.child_by_field_name("right") != Some(list) || named(list).len() != 1 {
        return None;
    }
    let left = named(stmt.child_by_field_name("left")?);
    let [name] = left.as_slice() else {
        return None;
    };
    if name.kind() != "identifier" {
        return None;
    }
    let name = crate::text::text(*name, src);
    // The statements after it, then after each block around it, up to its function's body.
    let mut at = stmt;
    let mut seen = 0;
    loop {
        let mut next = at.next_named_sibling();
        while let Some(s) = next {
            seen += 1;
            if seen > 12 {
                return None;
            }
            match go_use(s, name, src) {
                Some(GoUse::Stored(field)) => return Some(field),
                Some(GoUse::Other) => return None,
                None => {}
            }
            next = s.next_named_sibling();
        }
        let up = at.parent()?;
        if matches!(
            up.kind(),
            "function_declaration" | "method_declaration" | "func_literal"
        ) {
            return None;
        }
        at = up;
    }
}

enum GoUse {
    /// Assigned, alone or inside a value, to this field.
    Stored(String),
    /// Returned, passed to a call or given to a local.
    Other,
}

/// The first use of the local `name` under `node` that passes it on.
fn go_use(node: Node<'_>, name: &str, src: &str) -> Option<GoUse> {
    let holds = |n: Node<'_>| {
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            if x.kind() == "identifier" && crate::text::text(x, src) == name {
                return true;
            }
            if x.kind() != "func_literal" {
                stack.extend(named(x));
            }
        }
        false
    };
    match node.kind() {
        "return_statement" if holds(node) => return Some(GoUse::Other),
        "assignment_statement" | "short_var_declaration"
            if node.child_by_field_name("right").is_some_and(holds) =>
        {
            let left = node
                .child_by_field_name("left")
                .map(named)
                .unwrap_or_default();
            return Some(match left.as_slice() {
                [field] if field.kind() == "selector_expression" => {
                    GoUse::Stored(crate::text::text(*field, src).to_owned())
                }
                _ => GoUse::Other,
            });
        }
        "call_expression" if node.child_by_field_name("arguments").is_some_and(holds) => {
            return Some(GoUse::Other)
        }
        "func_literal" => return None,
        _ => {}
    }
    named(node).into_iter().find_map(|c| go_use(c, name, src))
}

/// The call a JavaScript error kept in a local is handed to by the statements after its
/// declaration (`const er = new Error(…); er.code = …; cb(er)`): the first use of the local
/// as an argument, unless a `throw` or `return` of it comes first. A rejected promise
/// (`Promise.reject(er)`) is thrown where it is awaited, unless `.catch(cb)` hands it on.
pub(crate) fn handed_by_name(declarator: Node<'_>, src: &str) -> Option<String> {
    let name = declarator
        .child_by_field_name("name")
        .or_else(|| declarator.child_by_field_name("left"))
        .filter(|n| n.kind() == "identifier")?;
    let name = crate::text::text(name, src);
    let stmt = declarator.parent()?;
    let after = std::iter::successors(stmt.next_named_sibling(), |s| s.next_named_sibling());
    for s in after.take(8) {
        match first_use(s, name, src) {
            Some(Use::Passed(call)) => return handed_call(call, src),
            Some(Use::Raised) => return None,
            None => {}
        }
    }
    None
}

enum Use<'t> {
    /// An argument of this call.
    Passed(Node<'t>),
    /// Thrown or returned.
    Raised,
}

/// The first place under `node`, in source order, that passes the local `name` on, outside
/// the functions defined there.
fn first_use<'t>(node: Node<'t>, name: &str, src: &str) -> Option<Use<'t>> {
    let is_name = |n: Node<'_>| n.kind() == "identifier" && crate::text::text(n, src) == name;
    match node.kind() {
        "throw_statement" | "return_statement" | "raise_statement"
            if named(node).first().is_some_and(|v| is_name(*v)) =>
        {
            return Some(Use::Raised)
        }
        "call_expression" | "call" => {
            let passed = node
                .child_by_field_name("arguments")
                .is_some_and(|a| named(a).into_iter().any(is_name));
            if passed {
                return Some(Use::Passed(node));
            }
        }
        k if k.contains("function")
            || matches!(k, "class_declaration" | "class_definition" | "lambda") =>
        {
            return None
        }
        _ => {}
    }
    named(node)
        .into_iter()
        .find_map(|c| first_use(c, name, src))
}

/// What `call` hands an error to: its callee, or for `Promise.reject(er).catch(cb)` the
/// callback; none for a bare `Promise.reject(er)`, which is thrown where it is awaited.
fn handed_call(call: Node<'_>, src: &str) -> Option<String> {
    let callee = crate::text::text(call.child_by_field_name("function")?, src);
    if callee != "Promise.reject" {
        return (callee.len() <= 60).then(|| callee.to_owned());
    }
    let member = call.parent().filter(|p| p.kind() == "member_expression")?;
    let method = crate::text::text(member.child_by_field_name("property")?, src);
    let outer = member.parent().filter(|p| p.kind() == "call_expression")?;
    let args = named(outer.child_by_field_name("arguments")?);
    let callback = match method {
        "catch" => args.first(),
        "then" => args.get(1),
        _ => None,
    }?;
    (callback.kind() == "identifier" || callback.kind() == "member_expression")
        .then(|| crate::text::text(*callback, src).to_owned())
}

/// The Go file's code that recovers panics, in the order of its functions.
fn recovering_code<'s>(root: Node<'_>, src: &'s str) -> Vec<Recovering<'s>> {
    let mut out = Vec::new();
    for decl in named(root) {
        if !matches!(decl.kind(), "function_declaration" | "method_declaration") {
            continue;
        }
        let Some(body) = decl.child_by_field_name("body") else {
            continue;
        };
        let function = decl
            .child_by_field_name("name")
            .map_or("", |n| crate::text::text(n, src));
        let line = decl.start_position().row as u32 + 1;
        let mut stack = vec![(body, false)];
        while let Some((n, deferred)) = stack.pop() {
            let recovers = n.kind() == "call_expression"
                && n.child_by_field_name("function")
                    .is_some_and(|f| crate::text::text(f, src) == "recover");
            if recovers {
                // The recovering code: the deferred literal, or the whole function.
                let scope = match deferred {
                    true => std::iter::successors(Some(n), |s| s.parent())
                        .find(|s| s.kind() == "func_literal"),
                    false => Some(body),
                };
                let Some(scope) = scope else {
                    continue;
                };
                out.push(Recovering {
                    function,
                    line,
                    code: crate::text::text(scope, src),
                    whole: !deferred,
                });
                continue;
            }
            // A literal that is not deferred recovers nothing of this function's.
            if n.kind() == "func_literal" && !deferred {
                continue;
            }
            let deferred = deferred || n.kind() == "defer_statement";
            stack.extend(named(n).into_iter().map(|c| (c, deferred)));
        }
    }
    out
}

/// The name a Go panic's value goes by: the variable (`ErrInternalError`, `errNUL`) or the
/// type of a composite literal (`jsonError{err}`, `&bailout{}`); `None` for another value, or
/// a name too common to tell it apart (`err`, `Error`).
fn panic_value<'s>(arg: Node<'_>, src: &'s str) -> Option<&'s str> {
    let node = match arg.kind() {
        "unary_expression" => arg.child_by_field_name("operand")?,
        _ => arg,
    };
    let name = match node.kind() {
        "identifier" => crate::text::text(node, src),
        "selector_expression" => crate::text::text(node.child_by_field_name("field")?, src),
        "composite_literal" => {
            let ty = crate::text::text(node.child_by_field_name("type")?, src);
            ty.rsplit('.').next()?
        }
        _ => return None,
    };
    let plain = name.chars().all(|c| c.is_alphanumeric() || c == '_');
    (plain && name.len() >= 4 && !matches!(name, "Error" | "error" | "errors")).then_some(name)
}

/// The property a function is an accessor of, as its decorator (`@property`, `@name.setter`)
/// or its head (`get name()`, `set name(v)`) declares it.
fn accessor(function: Node<'_>, src: &str) -> Option<errata_explain::Accessor> {
    use errata_explain::Accessor;
    match function.kind() {
        "function_definition" => {
            let decorated = function
                .parent()
                .filter(|p| p.kind() == "decorated_definition")?;
            named(decorated)
                .into_iter()
                .filter(|d| d.kind() == "decorator")
                .find_map(|d| {
                    let text = crate::text::text(d, src).trim_start_matches('@').trim();
                    match text.rsplit('.').next()? {
                        "property" | "cached_property" => Some(Accessor::Get),
                        "setter" if text.contains('.') => Some(Accessor::Set),
                        "deleter" if text.contains('.') => Some(Accessor::Delete),
                        _ => None,
                    }
                })
        }
        "method_definition" => {
            let name = function.child_by_field_name("name")?;
            let head = &src[function.start_byte()..name.start_byte()];
            head.split_whitespace().find_map(|w| match w {
                "get" => Some(Accessor::Get),
                "set" => Some(Accessor::Set),
                _ => None,
            })
        }
        _ => None,
    }
}

/// Whether a function is a generator: Python's with a `yield` of its own (not of a function
/// or lambda inside it), JavaScript's `function*` and `*method()`.
fn is_generator(function: Node<'_>, src: &str) -> bool {
    match function.kind() {
        "generator_function_declaration" | "generator_function" => true,
        "method_definition" => src[function.start_byte()..]
            .split('(')
            .next()
            .is_some_and(|head| head.contains('*')),
        "function_definition" => {
            let Some(body) = function.child_by_field_name("body") else {
                return false;
            };
            let mut stack = vec![body];
            while let Some(n) = stack.pop() {
                match n.kind() {
                    "yield" => return true,
                    "function_definition" | "lambda" | "class_definition" => {}
                    _ => stack.extend(named(n)),
                }
            }
            false
        }
        _ => false,
    }
}

/// The name a `catch` / `except` clause binds what it caught to: `e` of `except X as e`,
/// `catch (IOException | X e)` and `catch (e)`.
fn bound_name(head: &str, python: bool) -> Option<String> {
    let name = if python {
        head.rsplit_once(" as ")?.1
    } else {
        let inner = head.split_once('(')?.1.rsplit_once(')')?.0;
        inner
            .rsplit(|c: char| c.is_whitespace() || c == '|')
            .next()?
    };
    let name = name.trim();
    (!name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$'))
    .then(|| name.to_owned())
}

fn is_block(kind: &str) -> bool {
    matches!(
        kind,
        "statement_block"
            | "block"
            | "program"
            | "module"
            | "source_file"
            | "constructor_body"
            | "switch_case"
            | "switch_default"
            | "switch_block_statement_group"
            | "expression_case"
            | "default_case"
            | "case_clause"
            | "statement_list"
    )
}

/// The first name of a path: `config` of `config.reuseLease`, `self` of `self.x`.
fn root_of(name: &str) -> &str {
    name.split(['.', '[']).next().unwrap_or(name)
}

/// Whether a name is a field of `this` or `self`: state of the object.
fn is_field(name: &str) -> bool {
    matches!(root_of(name), "this" | "self") && name.contains('.')
}

/// The name as a configuration field, when its object is named like configuration
/// (`config.reuseLease`, `self.options.strict`). A JavaScript `#private` field
/// (`this.#options.serverMaxWindowBits`) is the object's own: no user sets it.
fn config_field(name: &str) -> Option<&str> {
    let mut parts = name.split('.');
    let mut first = parts.next()?;
    if matches!(first, "this" | "self") {
        first = parts.next()?;
    }
    if first.starts_with('#') {
        return None;
    }
    let f = first.trim_start_matches('_').to_ascii_lowercase();
    let is_config = matches!(
        f.as_str(),
        "config" | "cfg" | "conf" | "settings" | "options" | "opts" | "configuration"
    ) || f.ends_with("config")
        || f.ends_with("settings")
        || f.ends_with("options");
    (is_config && parts.next().is_some()).then_some(name)
}

fn push_config(out: &mut Vec<ConfigRead>, text: String, key: Option<String>, source: ConfigSource) {
    if !out.iter().any(|c| c.text == text) {
        out.push(ConfigRead { text, key, source });
    }
}

/// Reads of environment variables in a piece of source text, in any of the languages.
fn env_reads(text: &str, out: &mut Vec<ConfigRead>) {
    const CALLS: &[&str] = &[
        "os.environ.get(",
        "os.environ[",
        "os.getenv(",
        "os.Getenv(",
        "os.LookupEnv(",
        "env::var(",
        "env::var_os(",
        "System.getenv(",
        "System.getProperty(",
        "process.env[",
    ];
    for call in CALLS {
        let mut rest = text;
        while let Some(at) = rest.find(call) {
            let after = &rest[at + call.len()..];
            let key = quoted_prefix(after.trim_start());
            let end = after.find([')', ']']).map_or(after.len(), |e| e + 1);
            let read = format!("{call}{}", &after[..end]);
            push_config(out, read, key, ConfigSource::Environment);
            rest = &after[end..];
        }
    }
    let mut rest = text;
    while let Some(at) = rest.find("process.env.") {
        let after = &rest[at + "process.env.".len()..];
        let key: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !key.is_empty() {
            push_config(
                out,
                format!("process.env.{key}"),
                Some(key.clone()),
                ConfigSource::Environment,
            );
        }
        rest = &after[key.len()..];
    }
}

/// The body of a string literal at the start of `s`.
fn quoted_prefix(s: &str) -> Option<String> {
    let q = s.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let body = &s[1..];
    let end = body.find(q)?;
    Some(body[..end].to_owned())
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

fn is_literal(s: &str) -> bool {
    s.starts_with(['"', '\'']) || s.parse::<f64>().is_ok()
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text cut to at most [`MAX_TEXT`] bytes, at the end of a word, marked with `…`.
pub(crate) fn clip(s: String) -> String {
    clip_to(s, MAX_TEXT)
}

pub(crate) fn clip_to(mut s: String, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        // No half words: a cut name would read as a name the code does not have.
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
        let cut = s[..end]
            .char_indices()
            .rev()
            .find(|(_, c)| !word(*c))
            .map_or(0, |(i, _)| i);
        s.truncate(cut);
        s.push_str(" …");
    }
    s
}

/// Whether a Rust expression is one operand (a path, a call, a field, a method chain) that a
/// `!` in front negates as a whole: no operator outside brackets.
fn is_simple_operand(e: &str) -> bool {
    let mut depth = 0i32;
    for c in e.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ if depth > 0 => {}
            ' ' | '&' | '|' | '=' | '<' | '>' | '+' | '-' | '*' | '/' | '%' | '^' | '?' | '!' => {
                return false
            }
            _ => {}
        }
    }
    !e.is_empty() && depth == 0
}

/// Where `body` assigns `name` (`name = …`, `name += …`, `name++`), or hands out a reference
/// to it (`&name`, marked): byte offsets of the name.
fn write_offsets(body: &str, name: &str) -> Vec<(usize, bool)> {
    let mut out = Vec::new();
    let b = body.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    for (at, _) in body.match_indices(name) {
        let end = at + name.len();
        if (at > 0 && (ident(b[at - 1]) || b[at - 1] == b'.'))
            || b.get(end).is_some_and(|&c| ident(c))
        {
            continue;
        }
        if at > 0 && b[at - 1] == b'&' && b.get(at.wrapping_sub(2)) != Some(&b'&') {
            out.push((at, true));
            continue;
        }
        let rest = body[end..].trim_start();
        // `f(mode=mode)`, `def g(x=1)`: a keyword argument or a default, no write.
        let keyword = body[..at].trim_end().ends_with(['(', ',']);
        let assigns = (rest.starts_with('=')
            && !rest.starts_with("==")
            && !rest.starts_with("=>")
            && !keyword)
            || rest.starts_with(":=")
            || ["+=", "-=", "*=", "/=", "|=", "&=", "++", "--", "<<=", ">>="]
                .iter()
                .any(|op| rest.starts_with(op));
        if assigns {
            out.push((at, false));
        }
    }
    out
}
