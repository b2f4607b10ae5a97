//! Tests that expect an error: `pytest.raises(X, match=…)`, `self.assertRaises(X)` and
//! `assertRaisesRegex`, JUnit's `assertThrows(X.class, () -> …)`, Jest's and Node's
//! `expect(() => …).toThrow(…)`, `assert.throws(…)`, and Rust's `#[should_panic(expected =
//! …)]`. Each is a reference of kind `expect`, named by the class it expects (`panic` for a
//! Rust panic), whose text is the pattern the test checks the message with, then
//! [`SEPARATOR`], then the call that raises it. Linking matches them to records by class and
//! message, and the record names the test as its reproduction.

use errata_lang::Lang;
use errata_model::{Ref, RefKind};
use tree_sitter::{Node, Tree};

use super::{named, preorder};

use errata_model::EXPECT_SEPARATOR as SEPARATOR;
/// Longest call kept.
const MAX_CALL: usize = 160;

/// Words without which a file has no expectation.
pub(crate) const WORDS: &[&str] = &[
    "assertRaises",
    "raises(",
    "assertThrows",
    "expectThrows",
    "toThrow",
    "throws(",
    "rejects(",
    "should_panic",
];

/// Whether a file's text may hold an expectation: one pass of an automaton of [`WORDS`], as
/// it runs on every parsed file.
pub(crate) fn may_expect(src: &[u8]) -> bool {
    static WORDS_AC: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    WORDS_AC
        .get_or_init(|| aho_corasick::AhoCorasick::new(WORDS).expect("fixed words"))
        .is_match(src)
}

/// The expectations of a parsed test file.
pub(crate) fn find_expectations(lang: Lang, tree: &Tree, src: &str) -> Vec<Ref> {
    let mut out = Vec::new();
    preorder(tree.root_node(), |n| {
        if let Some(r) = expectation(lang, n, src) {
            out.push(r);
        }
        out.len() < 5_000
    });
    out
}

/// The expectation at `node`, when it is one.
pub(crate) fn expectation(lang: Lang, node: Node<'_>, src: &str) -> Option<Ref> {
    let (class, pattern, call) = match (lang, node.kind()) {
        (Lang::Python, "call") => python(node, src)?,
        (Lang::Java, "method_invocation") => java(node, src)?,
        (Lang::TypeScript | Lang::JavaScript, "call_expression") => js(node, src)?,
        (Lang::Rust, "function_item") => rust(node, src)?,
        _ => return None,
    };
    let call = super::clip_to(compact(&call), MAX_CALL);
    Some(Ref {
        kind: RefKind::Expect,
        name: class,
        line: node.start_position().row as u32 + 1,
        function: test_function(lang, node, src),
        text: format!("{pattern}{SEPARATOR}{call}"),
    })
}

fn text<'s>(n: Node<'_>, src: &'s str) -> &'s str {
    &src[n.byte_range()]
}

fn compact(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The last name of a class expression: `ValueError` of `errors.ValueError`, the first of a
/// tuple.
fn class_name(s: &str) -> Option<String> {
    let s = s.trim().trim_start_matches('(');
    let first = s.split(',').next()?.trim().trim_end_matches(')');
    let first = first.strip_suffix(".class").unwrap_or(first);
    let name = first.rsplit(['.', ':']).next()?.trim();
    (!name.is_empty()
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && name.starts_with(|c: char| c.is_ascii_uppercase()))
    .then(|| name.to_owned())
}

/// The text of a string literal without its quotes and prefix, when it is a plain one.
fn literal(n: Node<'_>, src: &str) -> Option<String> {
    let t = text(n, src);
    let t = t.trim_start_matches(['r', 'b', 'u', 'R', 'B', 'U']);
    for q in ["\"\"\"", "'''", "\"", "'", "`"] {
        if let Some(inner) = t.strip_prefix(q).and_then(|x| x.strip_suffix(q)) {
            if q == "`" && inner.contains("${") {
                return None;
            }
            return Some(inner.to_owned());
        }
    }
    None
}

/// `self.assertRaises(X)` / `pytest.raises(X, match=…)` as a `with` item (the call is the
/// body's first statement), or `assertRaises(X, f, a)` (the call is `f(a)`).
fn python(call: Node<'_>, src: &str) -> Option<(String, String, String)> {
    let f = text(call.child_by_field_name("function")?, src);
    let name = f.rsplit('.').next()?;
    let regex = match name {
        "assertRaises" => false,
        "assertRaisesRegex" | "assertRaisesRegexp" => true,
        "raises" if f.ends_with("pytest.raises") || f == "raises" => false,
        _ => return None,
    };
    let args = call.child_by_field_name("arguments")?;
    let mut positional = Vec::new();
    let mut pattern = None;
    for a in named(args) {
        if a.kind() == "keyword_argument" {
            let key = a.child_by_field_name("name").map(|k| text(k, src));
            if key == Some("match") {
                pattern = a.child_by_field_name("value").and_then(|v| literal(v, src));
            }
        } else {
            positional.push(a);
        }
    }
    let class = class_name(text(*positional.first()?, src))?;
    let mut rest = 1;
    if regex {
        pattern = positional.get(1).and_then(|p| literal(*p, src));
        rest = 2;
    }
    let with = call
        .parent()
        .filter(|p| matches!(p.kind(), "with_item" | "as_pattern"))
        .and_then(|p| {
            let mut n = p;
            while n.kind() != "with_statement" {
                n = n.parent()?;
            }
            Some(n)
        });
    let trigger = match with {
        Some(w) => {
            let body = w.child_by_field_name("body")?;
            text(named(body).into_iter().next()?, src).to_owned()
        }
        None => {
            let f = positional.get(rest)?;
            let args: Vec<&str> = positional[rest + 1..]
                .iter()
                .map(|a| text(*a, src))
                .collect();
            format!("{}({})", text(*f, src), args.join(", "))
        }
    };
    Some((class, pattern.unwrap_or_default(), trigger))
}

/// `assertThrows(X.class, () -> call)`, `expectThrows(…)`.
fn java(call: Node<'_>, src: &str) -> Option<(String, String, String)> {
    let name = text(call.child_by_field_name("name")?, src);
    if !matches!(
        name,
        "assertThrows" | "expectThrows" | "assertThrowsExactly"
    ) {
        return None;
    }
    let args = named(call.child_by_field_name("arguments")?);
    let class = class_name(text(*args.first()?, src))?;
    let lambda = args.iter().find(|a| a.kind() == "lambda_expression")?;
    let body = lambda.child_by_field_name("body")?;
    Some((class, String::new(), body_text(body, src)))
}

/// `expect(() => call).toThrow(X | "msg" | /re/)` (also after `.rejects`), and
/// `assert.throws(() => call, X | /re/)`.
fn js(call: Node<'_>, src: &str) -> Option<(String, String, String)> {
    let f = call.child_by_field_name("function")?;
    let head = text(f, src);
    let args = named(call.child_by_field_name("arguments")?);
    let (subject, expected) = if head.ends_with(".toThrow") || head.ends_with(".toThrowError") {
        // `expect(X)` is the object of `.toThrow` (or of `.rejects.toThrow`).
        let mut obj = f.child_by_field_name("object")?;
        while obj.kind() == "member_expression" {
            obj = obj.child_by_field_name("object")?;
        }
        if obj.kind() != "call_expression"
            || !text(obj.child_by_field_name("function")?, src).ends_with("expect")
        {
            return None;
        }
        let inner = named(obj.child_by_field_name("arguments")?);
        (*inner.first()?, args.first().copied())
    } else if head.ends_with("assert.throws")
        || head.ends_with("assert.rejects")
        || head == "t.throws"
    {
        (*args.first()?, args.get(1).copied())
    } else {
        return None;
    };
    let trigger = match subject.kind() {
        "arrow_function" | "function_expression" | "function" => {
            body_text(subject.child_by_field_name("body")?, src)
        }
        _ => text(subject, src).to_owned(),
    };
    let (class, pattern) = match expected {
        Some(e) if e.kind() == "identifier" || e.kind() == "member_expression" => {
            (class_name(text(e, src))?, String::new())
        }
        Some(e) if e.kind() == "regex" => (
            "Error".to_owned(),
            e.child_by_field_name("pattern")
                .map(|p| text(p, src).to_owned())
                .unwrap_or_default(),
        ),
        Some(e) => ("Error".to_owned(), literal(e, src).unwrap_or_default()),
        None => ("Error".to_owned(), String::new()),
    };
    Some((class, pattern, trigger))
}

/// `#[should_panic(expected = "…")]` on a test function: its body is the call.
fn rust(f: Node<'_>, src: &str) -> Option<(String, String, String)> {
    let mut prev = f.prev_named_sibling();
    while let Some(p) =
        prev.filter(|p| p.kind() == "attribute_item" || p.kind().contains("comment"))
    {
        let t = text(p, src);
        if let Some(rest) = t.strip_prefix("#[should_panic") {
            let pattern = rest
                .split_once("expected")
                .and_then(|(_, r)| r.split_once('"'))
                .and_then(|(_, r)| r.rsplit_once('"'))
                .map(|(p, _)| p.to_owned())
                .unwrap_or_default();
            let body = f.child_by_field_name("body")?;
            return Some(("panic".to_owned(), pattern, body_text(body, src)));
        }
        prev = p.prev_named_sibling();
    }
    None
}

/// A block's last statement (what a test runs to make the error), or an expression body.
fn body_text(body: Node<'_>, src: &str) -> String {
    if matches!(body.kind(), "block" | "statement_block") {
        if let Some(last) = named(body).into_iter().last() {
            return text(last, src).trim_end_matches(';').to_owned();
        }
    }
    text(body, src).to_owned()
}

/// The test function an expectation is in (the function itself for Rust).
fn test_function(lang: Lang, node: Node<'_>, src: &str) -> Option<String> {
    let kinds: &[&str] = match lang {
        Lang::Python => &["function_definition"],
        Lang::Java => &["method_declaration"],
        Lang::Rust => &["function_item"],
        _ => &["function_declaration", "method_definition"],
    };
    let mut n = Some(node);
    while let Some(x) = n {
        if kinds.contains(&x.kind()) {
            return x
                .child_by_field_name("name")
                .map(|n| text(n, src).to_owned());
        }
        n = x.parent();
    }
    // A Jest test: `it("name", () => …)` or `test(…)`.
    let mut n = node.parent();
    while let Some(x) = n {
        if x.kind() == "call_expression" {
            let f = x.child_by_field_name("function").map(|f| text(f, src));
            if matches!(f, Some("it" | "test")) {
                let first = x
                    .child_by_field_name("arguments")
                    .and_then(|a| named(a).into_iter().next());
                return first.and_then(|a| literal(a, src));
            }
        }
        n = x.parent();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expectations(lang: Lang, file: &str, src: &str) -> Vec<(String, String)> {
        let tree = crate::parse(lang, std::path::Path::new(file), src).unwrap();
        find_expectations(lang, &tree, src)
            .into_iter()
            .map(|r| (r.name, r.text.replace(SEPARATOR, " | ")))
            .collect()
    }

    #[test]
    fn tests_that_expect_an_error() {
        let py = "def test_mode(self):\n    with self.assertRaisesRegex(ValueError, 'invalid mode'):\n        self.sock.makefile('rt')\n    with pytest.raises(KeyError, match=\"missing\"):\n        load({})\n    self.assertRaises(TypeError, split, None)\n";
        assert_eq!(
            expectations(Lang::Python, "test_a.py", py),
            [
                (
                    "ValueError".into(),
                    "invalid mode | self.sock.makefile('rt')".into()
                ),
                ("KeyError".into(), "missing | load({})".into()),
                ("TypeError".into(), " | split(None)".into()),
            ]
        );
        let java = "class T { void t() { assertThrows(IllegalArgumentException.class, () -> Parser.count(-1)); } }";
        assert_eq!(
            expectations(Lang::Java, "T.java", java),
            [(
                "IllegalArgumentException".into(),
                " | Parser.count(-1)".into()
            )]
        );
        let js = "it('rejects', () => { expect(() => parse('')).toThrow('empty input'); expect(() => f()).toThrow(TypeError); });";
        assert_eq!(
            expectations(Lang::JavaScript, "a.test.js", js),
            [
                ("Error".into(), "empty input | parse('')".into()),
                ("TypeError".into(), " | f()".into()),
            ]
        );
        let rust =
            "#[test]\n#[should_panic(expected = \"index out of range\")]\nfn t() { get(5); }";
        assert_eq!(
            expectations(Lang::Rust, "tests/a.rs", rust),
            [("panic".into(), "index out of range | get(5)".into())]
        );
    }
}
