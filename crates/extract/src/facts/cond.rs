//! Conditions as boolean expressions: read from a syntax tree, negated for the side a site is
//! on, simplified (negation pushed down by De Morgan, double negation removed, comparisons
//! flipped) and printed back in the language they came from.

use tree_sitter::Node;

use super::syntax::Syntax;

/// A boolean expression over source-text atoms.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Atom(Atom),
    Not(Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
}

/// A condition the expression does not look into: a name, a call, a comparison.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Atom {
    pub(crate) text: String,
    /// `(left, operator, right)` of a comparison whose operator has a negation.
    cmp: Option<(String, String, String)>,
    /// Whether `!text` reads as the negation of the whole atom (a name, a field, a call).
    simple: bool,
}

impl Expr {
    /// The expression of a condition node.
    pub(crate) fn from_node(node: Node<'_>, src: &str, syn: &Syntax) -> Expr {
        let kind = node.kind();
        if syn.paren.contains(&kind) {
            if let Some(inner) = inner_expr(node) {
                return Expr::from_node(inner, src, syn);
            }
        }
        if let Some(operand) = negated_operand(node, src, syn) {
            return Expr::Not(Box::new(Expr::from_node(operand, src, syn)));
        }
        if syn.binary.contains(&kind) {
            if let (Some(l), Some(r)) = (
                node.child_by_field_name("left"),
                node.child_by_field_name("right"),
            ) {
                let op = operator(node, l, r, src);
                match op {
                    "&&" | "and" => {
                        return Expr::And(vec![
                            Expr::from_node(l, src, syn),
                            Expr::from_node(r, src, syn),
                        ])
                        .flatten()
                    }
                    "||" | "or" => {
                        return Expr::Or(vec![
                            Expr::from_node(l, src, syn),
                            Expr::from_node(r, src, syn),
                        ])
                        .flatten()
                    }
                    _ if negate_operator(op, syn.python).is_some() => {
                        return Expr::Atom(Atom {
                            text: compact(node, src),
                            cmp: Some((compact(l, src), op.to_owned(), compact(r, src))),
                            simple: false,
                        })
                    }
                    _ => {}
                }
            }
        }
        if kind == "comparison_operator" {
            // Python: `a is None`, `k in d`, `x == y` (one operator; chains stay whole).
            let named: Vec<Node<'_>> = named(node);
            if named.len() == 2 {
                let op = operator(node, named[0], named[1], src);
                if negate_operator(op, true).is_some() {
                    return Expr::Atom(Atom {
                        text: compact(node, src),
                        cmp: Some((
                            compact(named[0], src),
                            op.to_owned(),
                            compact(named[1], src),
                        )),
                        simple: false,
                    });
                }
            }
        }
        if kind == "let_chain" {
            return Expr::And(
                named(node)
                    .into_iter()
                    .map(|n| Expr::from_node(n, src, syn))
                    .collect(),
            )
            .flatten();
        }
        if kind == "let_condition" {
            // Rust `if let P = v`: as an expression, `matches!(v, P)`.
            if let (Some(p), Some(v)) = (
                node.child_by_field_name("pattern"),
                node.child_by_field_name("value"),
            ) {
                return Expr::Atom(Atom {
                    text: format!("matches!({}, {})", compact(v, src), compact(p, src)),
                    cmp: None,
                    simple: true,
                });
            }
        }
        Expr::atom(compact(node, src), syn.simple.contains(&kind))
    }

    pub(crate) fn atom(text: String, simple: bool) -> Expr {
        Expr::Atom(Atom {
            text,
            cmp: None,
            simple,
        })
    }

    pub(crate) fn not(self) -> Expr {
        Expr::Not(Box::new(self))
    }

    /// The same condition with negations only on atoms, nested `and`s and `or`s flattened
    /// and repeated terms removed.
    pub(crate) fn simplify(self, python: bool) -> Expr {
        self.push_not(false, python).flatten()
    }

    fn push_not(self, negate: bool, python: bool) -> Expr {
        match (self, negate) {
            (Expr::Not(e), n) => e.push_not(!n, python),
            (Expr::And(es), false) => {
                Expr::And(es.into_iter().map(|e| e.push_not(false, python)).collect())
            }
            (Expr::Or(es), false) => {
                Expr::Or(es.into_iter().map(|e| e.push_not(false, python)).collect())
            }
            (Expr::And(es), true) => {
                Expr::Or(es.into_iter().map(|e| e.push_not(true, python)).collect())
            }
            (Expr::Or(es), true) => {
                Expr::And(es.into_iter().map(|e| e.push_not(true, python)).collect())
            }
            (Expr::Atom(a), false) => Expr::Atom(a),
            (Expr::Atom(a), true) => match &a.cmp {
                Some((l, op, r)) => match negate_operator(op, python)
                    .filter(|_| !(python && is_order(op) && (may_be_set(l) || may_be_set(r))))
                {
                    Some(flipped) => Expr::Atom(Atom {
                        text: format!("{l} {flipped} {r}"),
                        cmp: Some((l.clone(), flipped.to_owned(), r.clone())),
                        simple: false,
                    }),
                    None => Expr::Not(Box::new(Expr::Atom(a))),
                },
                None => Expr::Not(Box::new(Expr::Atom(a))),
            },
        }
    }

    fn flatten(self) -> Expr {
        match self {
            Expr::And(es) => {
                let mut out: Vec<Expr> = Vec::new();
                for e in es.into_iter().map(Expr::flatten) {
                    match e {
                        Expr::And(inner) => out.extend(inner),
                        e => out.push(e),
                    }
                }
                out.dedup();
                dedup(&mut out);
                if out.len() == 1 {
                    out.pop().expect("one term")
                } else {
                    Expr::And(out)
                }
            }
            Expr::Or(es) => {
                let mut out: Vec<Expr> = Vec::new();
                for e in es.into_iter().map(Expr::flatten) {
                    match e {
                        Expr::Or(inner) => out.extend(inner),
                        e => out.push(e),
                    }
                }
                dedup(&mut out);
                if out.len() == 1 {
                    out.pop().expect("one term")
                } else {
                    Expr::Or(out)
                }
            }
            Expr::Not(e) => Expr::Not(Box::new(e.flatten())),
            a => a,
        }
    }

    /// Whether the expression is the literal `true` (`True`, `1`).
    pub(crate) fn is_true(&self) -> bool {
        matches!(self, Expr::Atom(a) if matches!(a.text.as_str(), "true" | "True" | "1"))
    }

    /// The terms of a conjunction; a single term otherwise.
    pub(crate) fn conjuncts(&self) -> Vec<&Expr> {
        match self {
            Expr::And(es) => es.iter().collect(),
            e => vec![e],
        }
    }

    /// The expression in the language's own syntax.
    pub(crate) fn render(&self, python: bool) -> String {
        match self {
            Expr::Atom(a) => a.text.clone(),
            Expr::Not(e) => match &**e {
                Expr::Atom(a) if python => {
                    if a.simple {
                        format!("not {}", a.text)
                    } else {
                        format!("not ({})", a.text)
                    }
                }
                Expr::Atom(a) if a.simple => format!("!{}", a.text),
                e if python => format!("not ({})", e.render(python)),
                e => format!("!({})", e.render(python)),
            },
            Expr::And(es) => join(es, if python { " and " } else { " && " }, python),
            Expr::Or(es) => join(es, if python { " or " } else { " || " }, python),
        }
    }
}

fn join(es: &[Expr], sep: &str, python: bool) -> String {
    es.iter()
        .map(|e| match e {
            Expr::And(_) | Expr::Or(_) => format!("({})", e.render(python)),
            e => e.render(python),
        })
        .collect::<Vec<_>>()
        .join(sep)
}

fn dedup(es: &mut Vec<Expr>) {
    let mut seen: Vec<Expr> = Vec::with_capacity(es.len());
    es.retain(|e| {
        if seen.contains(e) {
            false
        } else {
            seen.push(e.clone());
            true
        }
    });
}

/// The negation of a comparison operator, if it has one.
/// Whether `op` compares by order.
fn is_order(op: &str) -> bool {
    matches!(op, "<" | "<=" | ">" | ">=")
}

/// Whether a Python operand may be a set, whose order is partial: `not a <= b` (not a
/// subset) is not `a > b` (a proper superset).
fn may_be_set(operand: &str) -> bool {
    let o = operand.trim();
    (o.starts_with('{') && !o.contains(':'))
        || o.starts_with("set(")
        || o.starts_with("frozenset(")
        || o.contains(".keys()")
        || o.contains(".items()")
}

fn negate_operator(op: &str, python: bool) -> Option<&'static str> {
    Some(match op {
        "===" => "!==",
        "!==" => "===",
        "==" => "!=",
        "!=" => "==",
        "<" => ">=",
        ">=" => "<",
        ">" => "<=",
        "<=" => ">",
        "is" if python => "is not",
        "is not" if python => "is",
        "in" if python => "not in",
        "not in" if python => "in",
        _ => return None,
    })
}

/// The operator between the two operands of a binary node, as written (`is not`, `&&`).
fn operator<'s>(node: Node<'_>, l: Node<'_>, r: Node<'_>, src: &'s str) -> &'s str {
    if let Some(op) = node.child_by_field_name("operator") {
        if op.end_byte() <= r.start_byte() && op.start_byte() >= l.end_byte() {
            return &src[op.start_byte()..op.end_byte()];
        }
    }
    let between = &src[l.end_byte()..r.start_byte()];
    // `is not` may be written with any run of spaces.
    match between.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["is", "not"] => "is not",
        ["not", "in"] => "not in",
        _ => between.trim(),
    }
}

/// The operand of a logical negation (`!x`, `not x`).
fn negated_operand<'t>(node: Node<'t>, src: &str, syn: &Syntax) -> Option<Node<'t>> {
    if node.kind() == "not_operator" {
        return node.child_by_field_name("argument");
    }
    if node.kind() != "unary_expression" {
        return None;
    }
    let op = node
        .child_by_field_name("operator")
        .or_else(|| node.child(0))?;
    if &src[op.start_byte()..op.end_byte()] != "!" {
        return None;
    }
    let _ = syn;
    node.child_by_field_name("argument")
        .or_else(|| node.child_by_field_name("operand"))
        .or_else(|| node.named_child(0))
}

/// The expression inside parentheses.
fn inner_expr(node: Node<'_>) -> Option<Node<'_>> {
    named(node).into_iter().next()
}

fn named(node: Node<'_>) -> Vec<Node<'_>> {
    let mut c = node.walk();
    node.named_children(&mut c)
        .filter(|n| !n.kind().contains("comment"))
        .collect()
}

fn compact(node: Node<'_>, src: &str) -> String {
    crate::text::compact_code(node, src)
}

#[cfg(test)]
mod tests {
    use super::*;
    use errata_lang::Lang;

    fn cond(lang: Lang, file: &str, src: &str) -> Expr {
        let tree = crate::parse(lang, std::path::Path::new(file), src).unwrap();
        let syn = Syntax::of(lang);
        let mut found = None;
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            if syn.ifs.contains(&n.kind()) {
                found = n.child_by_field_name("condition");
                break;
            }
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
        Expr::from_node(found.expect("an if"), src, syn)
    }

    #[test]
    fn de_morgan_in_each_syntax() {
        let e = cond(
            Lang::TypeScript,
            "a.ts",
            "if (destroy || !config.reuseLease) {}",
        );
        assert_eq!(
            e.not().simplify(false).render(false),
            "!destroy && config.reuseLease"
        );
        let e = cond(Lang::Python, "a.py", "if not x and y is None:\n    pass\n");
        assert_eq!(e.not().simplify(true).render(true), "x or y is not None");
        let e = cond(
            Lang::Go,
            "a.go",
            "package a\nfunc f() { if err != nil || !(a && b) {} }",
        );
        assert_eq!(
            e.not().simplify(false).render(false),
            "err == nil && a && b"
        );
        let e = cond(Lang::Rust, "a.rs", "fn f() { if let Some(x) = y { } }");
        assert_eq!(
            e.not().simplify(false).render(false),
            "!matches!(y, Some(x))"
        );
        let e = cond(
            Lang::Java,
            "A.java",
            "class A { void f() { if (!(a instanceof B) && n > 3) {} } }",
        );
        assert_eq!(
            e.not().simplify(false).render(false),
            "a instanceof B || n <= 3"
        );
        let e = cond(Lang::JavaScript, "a.js", "if (a && (b || c)) {}");
        assert_eq!(e.clone().simplify(false).render(false), "a && (b || c)");
        assert_eq!(
            e.clone().not().simplify(false).render(false),
            "!a || (!b && !c)"
        );
    }

    #[test]
    fn a_set_comparison_is_not_flipped() {
        // socket.makefile(): `not set(mode) <= {"r", "w", "b"}` is not `set(mode) > {…}`,
        // which a mode of "rt" or "a" would not satisfy.
        let e = cond(
            Lang::Python,
            "a.py",
            "if not set(mode) <= {\"r\", \"w\", \"b\"}:\n    pass\n",
        );
        assert_eq!(
            e.simplify(true).render(true),
            "not (set(mode) <= {\"r\", \"w\", \"b\"})"
        );
        // Numbers still flip.
        let e = cond(Lang::Python, "a.py", "if not n < 2:\n    pass\n");
        assert_eq!(e.simplify(true).render(true), "n >= 2");
    }
}
