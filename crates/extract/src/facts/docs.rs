//! The project's own words about a site: the doc comment of the function it is in (Python's
//! docstring, Javadoc, JSDoc, rustdoc, a Go doc comment) and the comment right above the raise
//! or the `if` that guards it. They are kept as plain text, their comment markers removed; what
//! they say about an error is read out of them when the record is explained.

use tree_sitter::Node;

/// Longest doc comment kept, in bytes.
const MAX_DOC: usize = 4000;
/// Longest comment above a raise kept, in bytes.
const MAX_COMMENT: usize = 400;

/// The doc comment of the function `f`: the docstring that opens a Python body, or the comments
/// that end on the line right above the declaration (past its attributes and decorators, and
/// past an `export` or a `const f =` that holds it).
pub(crate) fn doc_of(f: Node<'_>, src: &str, python: bool) -> Option<String> {
    if python {
        let body = f.child_by_field_name("body")?;
        let first = body.named_child(0)?;
        if first.kind() != "expression_statement" {
            return None;
        }
        let s = first.named_child(0).filter(|s| s.kind() == "string")?;
        return Some(clip(docstring(&src[s.byte_range()]), MAX_DOC)).filter(|d| !d.is_empty());
    }
    let mut decl = f;
    while let Some(p) = decl.parent() {
        let holds = match p.kind() {
            "export_statement" | "variable_declarator" | "lexical_declaration" => true,
            "variable_declaration" | "pair" | "public_field_definition" => true,
            "assignment_expression" | "expression_statement" => {
                p.start_position().row == decl.start_position().row
            }
            _ => false,
        };
        if !holds {
            break;
        }
        decl = p;
    }
    comments_above(decl, src, MAX_DOC)
}

/// The comment right above the site's statement, or above the `if` (or `case`) whose body
/// the statement opens: what the author says about this raise.
pub(crate) fn comment_above_site(site: Node<'_>, src: &str) -> Option<String> {
    let mut stmt = site;
    // Up to the statement: a node whose parent is a block.
    for _ in 0..6 {
        let Some(p) = stmt.parent() else { break };
        if is_statement_list(p.kind()) {
            break;
        }
        stmt = p;
    }
    if let Some(c) = comments_above_statement(stmt, src) {
        return Some(c);
    }
    // The raise is the first statement of an `if`'s body: the comment may be above the `if`.
    let block = stmt.parent()?;
    if super::named(block).first() != Some(&stmt) {
        return None;
    }
    let mut guard = block.parent()?;
    // Go: `if_statement > block > statement_list`.
    if block.kind() == "statement_list" && guard.kind() == "block" {
        guard = guard.parent()?;
    }
    if matches!(guard.kind(), "else_clause" | "elif_clause") {
        return None;
    }
    if !guard.kind().contains("if") && !guard.kind().contains("case") {
        return None;
    }
    while let Some(p) = guard.parent().filter(|p| !is_statement_list(p.kind())) {
        guard = p;
    }
    comments_above_statement(guard, src)
}

/// The comments right above a statement. Go's first statement of a block is the first of
/// its `statement_list`, and a comment above it is the block's, before that list.
fn comments_above_statement(stmt: Node<'_>, src: &str) -> Option<String> {
    comments_above(stmt, src, MAX_COMMENT).or_else(|| {
        let list = stmt.parent().filter(|p| p.kind() == "statement_list")?;
        (super::named(list).first() == Some(&stmt))
            .then(|| comments_above(list, src, MAX_COMMENT))
            .flatten()
    })
}

fn is_statement_list(kind: &str) -> bool {
    matches!(
        kind,
        "block"
            | "statement_list"
            | "statement_block"
            | "program"
            | "module"
            | "source_file"
            | "class_body"
            | "declaration_list"
            | "constructor_body"
            | "switch_body"
            | "switch_case"
            | "switch_default"
            | "switch_block_statement_group"
            | "expression_case"
            | "default_case"
            | "type_case"
            | "communication_case"
            | "match_block"
            | "compilation_unit"
    )
}

/// The comments that end on the line right above `node`, or above the attributes and
/// decorators right above it, each joined to the next when nothing else is between them.
fn comments_above(node: Node<'_>, src: &str, max: usize) -> Option<String> {
    let mut parts: Vec<Node<'_>> = Vec::new();
    let mut next_row = node.start_position().row;
    let mut cur = node.prev_sibling();
    while let Some(n) = cur {
        let end = n.end_position().row;
        // A comment must end on the line above what follows it (or on its line, as `/** */`
        // closing right before a declaration on the same line does).
        if end + 1 < next_row {
            break;
        }
        if n.kind().contains("comment") {
            // A comment after code on its line (`x = y  # chop`) is about that code.
            let line_start = src[..n.start_byte()].rfind('\n').map_or(0, |i| i + 1);
            if !src[line_start..n.start_byte()].trim().is_empty() {
                break;
            }
            parts.push(n);
        } else if !matches!(n.kind(), "attribute_item" | "decorator" | "annotation") {
            break;
        }
        next_row = n.start_position().row;
        cur = n.prev_sibling();
    }
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    let text: Vec<String> = parts
        .iter()
        .map(|c| uncomment(&src[c.byte_range()]))
        .collect();
    let text = text.join("\n").trim().to_owned();
    // A comment of code left in (`// return x;`) or a licence header says nothing of the site.
    if text.is_empty() || looks_like_code(&text) || text.contains("Copyright") {
        return None;
    }
    Some(clip(text, max))
}

/// A comment's text without its markers: `//`, `///`, `//!`, `#`, `/* */`, `/** */` and the
/// `*` that starts each line of a block comment.
fn uncomment(c: &str) -> String {
    let body = if let Some(rest) = c.strip_prefix("/*") {
        rest.trim_start_matches(['*', '!'])
            .trim_end_matches("*/")
            .to_owned()
    } else {
        c.to_owned()
    };
    let mut out = Vec::new();
    for line in body.lines() {
        let l = line.trim();
        let l = l
            .trim_start_matches("//")
            .trim_start_matches(['/', '!'])
            .trim_start_matches('#');
        let l = l.strip_prefix('*').unwrap_or(l);
        out.push(l.trim().to_owned());
    }
    out.join("\n").trim().to_owned()
}

/// A Python docstring's text: its quotes and prefix gone, dedented.
fn docstring(lit: &str) -> String {
    let s = lit.trim_start_matches(['r', 'R', 'u', 'U', 'b', 'B']);
    let s = ["\"\"\"", "'''", "\"", "'"]
        .iter()
        .find_map(|q| s.strip_prefix(q).and_then(|t| t.strip_suffix(q)))
        .unwrap_or(s);
    let mut lines = s.lines();
    let first = lines.next().unwrap_or("").trim().to_owned();
    let rest: Vec<&str> = lines.collect();
    let indent = rest
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = vec![first];
    for l in rest {
        out.push(
            l.get(indent..)
                .unwrap_or(l.trim_start())
                .trim_end()
                .to_owned(),
        );
    }
    out.join("\n").trim().to_owned()
}

/// Whether a comment is code left in rather than words.
fn looks_like_code(text: &str) -> bool {
    let t = text.trim();
    (t.ends_with(';') || t.ends_with('{') || t.ends_with('}') || t.ends_with(')'))
        && !t.contains(". ")
        && t.split_whitespace().count() < 8
}

fn clip(mut s: String, max: usize) -> String {
    if s.len() > max {
        let mut cut = max;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_markers_go() {
        assert_eq!(
            uncomment("/**\n * Parses a.\n *\n * @throws X when b\n */"),
            "Parses a.\n\n@throws X when b"
        );
        assert_eq!(uncomment("/// Returns it.\n"), "Returns it.");
        assert_eq!(uncomment("# a note"), "a note");
        assert_eq!(
            docstring("\"\"\"Split it.\n\n    Raises:\n        ValueError: if bad.\n    \"\"\""),
            "Split it.\n\nRaises:\n    ValueError: if bad."
        );
        assert!(looks_like_code("return x;"));
        assert!(!looks_like_code(
            "The caller owns the lock; release it first."
        ));
    }
}
