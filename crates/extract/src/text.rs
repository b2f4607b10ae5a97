//! Turning string literals and format strings into message templates.

use errata_model::Template;
use tree_sitter::Node;

/// The source text of a node.
pub(crate) fn text<'a>(node: Node<'_>, src: &'a str) -> &'a str {
    &src[node.byte_range()]
}

/// The source text of an expression used as a placeholder, whitespace runs collapsed so that a
/// multi-line expression stays on one line.
pub(crate) fn compact(node: Node<'_>, src: &str) -> String {
    let mut out = String::new();
    for word in text(node, src).split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The text of `node` on one line, without its comments: a comment inside a condition or a
/// statement would read as code once the lines are joined.
pub(crate) fn compact_code(node: Node<'_>, src: &str) -> String {
    let text = text(node, src);
    if !(text.contains("//") || text.contains("/*") || text.contains('#')) {
        return compact(node, src);
    }
    let mut kept = String::with_capacity(text.len());
    let mut at = node.start_byte();
    let mut cursor = node.walk();
    let mut stack = vec![node];
    let mut comments: Vec<(usize, usize)> = Vec::new();
    while let Some(n) = stack.pop() {
        if n.kind().contains("comment") {
            comments.push((n.start_byte(), n.end_byte()));
            continue;
        }
        stack.extend(n.children(&mut cursor));
    }
    comments.sort_unstable();
    for (start, end) in comments {
        if start >= at {
            kept.push_str(&src[at..start]);
            kept.push(' ');
            at = end;
        }
    }
    kept.push_str(&src[at..node.end_byte()]);
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Resolves the escapes of a C-family string body (JS, Java, Go, Rust, Python): `\n`, `\t`,
/// `\xHH`, `\uHHHH`, `\u{H..}`, `\UHHHHHHHH`, octal, and line continuations. An unknown escape
/// keeps its character.
pub(crate) fn unescape(body: &str) -> String {
    if !body.contains('\\') {
        return body.to_owned();
    }
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            'a' => out.push('\u{7}'),
            '\n' => {
                // A line continuation; Rust also skips the next line's indentation.
                while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                    chars.next();
                }
            }
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
            }
            'x' => push_hex(&mut out, &mut chars, 2),
            'u' if chars.peek() == Some(&'{') => {
                chars.next();
                let hex: String = chars.by_ref().take_while(|c| *c != '}').collect();
                push_code(&mut out, u32::from_str_radix(&hex, 16).ok());
            }
            'u' => push_hex(&mut out, &mut chars, 4),
            'U' => push_hex(&mut out, &mut chars, 8),
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                push_code(&mut out, Some(v));
            }
            other => out.push(other),
        }
    }
    out
}

fn push_hex(out: &mut String, chars: &mut std::iter::Peekable<std::str::Chars<'_>>, n: usize) {
    let mut hex = String::new();
    for _ in 0..n {
        match chars.peek() {
            Some(c) if c.is_ascii_hexdigit() => {
                hex.push(*c);
                chars.next();
            }
            _ => break,
        }
    }
    push_code(out, u32::from_str_radix(&hex, 16).ok());
}

fn push_code(out: &mut String, code: Option<u32>) {
    out.push(code.and_then(char::from_u32).unwrap_or('\u{fffd}'));
}

/// The body of a quoted literal: the text between the first and the last quote character,
/// whatever prefix (`r#`, `b`, `f`) or quote style (`"`, `'`, `` ` ``, `"""`) it has.
pub(crate) fn strip_quotes(lit: &str) -> &str {
    let start = lit.find(['"', '\'', '`']);
    let end = lit.rfind(['"', '\'', '`']);
    match (start, end) {
        (Some(s), Some(e)) if e > s => {
            // Triple quotes (Python, Java text blocks).
            let triple = lit[s..s + 1].repeat(3);
            if e - s >= 5 && lit[s..].starts_with(&triple) && lit[..=e].ends_with(&triple) {
                &lit[s + 3..e - 2]
            } else {
                &lit[s + 1..e]
            }
        }
        _ => lit,
    }
}

/// Parses printf-style placeholders (`%s`, `%5.2f`, `%-10v`, `%[1]d`, `%(name)s`, `%w`);
/// `%%` is a literal percent sign. An incomplete directive stays literal text.
pub(crate) fn printf_template(s: &str) -> Template {
    printf_template_with(s, |_, _| None)
}

/// A message a call formats with the arguments that follow it (a Python logger, `console.error`,
/// a Java error class whose constructor calls `String.format`): when it has no placeholders of
/// its own, its printf directives become placeholders.
pub(crate) fn formatted_by_arguments(message: Template, followed: bool) -> Template {
    if !followed || message.has_placeholders() {
        return message;
    }
    let formatted = printf_template(&message.message());
    if formatted.has_placeholders() {
        formatted
    } else {
        message
    }
}

/// [`printf_template`], with the template `value(i, directive)` gives, when it gives one, in
/// place of the `i`th directive: the message a raiser's call passes for its `%s`.
pub(crate) fn printf_template_with(
    s: &str,
    mut value: impl FnMut(usize, &str) -> Option<Template>,
) -> Template {
    let mut t = Template::default();
    let bytes = s.as_bytes();
    let mut lit_start = 0;
    let mut i = 0;
    let mut directives = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        if bytes.get(i + 1) == Some(&b'%') {
            t.push_literal(&s[lit_start..i + 1]);
            i += 2;
            lit_start = i;
            continue;
        }
        match printf_directive_len(&bytes[i..]) {
            Some(n) => {
                t.push_literal(&s[lit_start..i]);
                let directive = &s[i..i + n];
                match value(directives, directive) {
                    Some(v) => t.append(v),
                    None => t.push_placeholder(directive),
                }
                directives += 1;
                i += n;
                lit_start = i;
            }
            None => i += 1,
        }
    }
    t.push_literal(&s[lit_start..]);
    t
}

fn printf_directive_len(b: &[u8]) -> Option<usize> {
    let mut i = 1;
    if b.get(i) == Some(&b'(') {
        let close = b[i..].iter().position(|&c| c == b')')?;
        i += close + 1;
    }
    while b
        .get(i)
        .is_some_and(|c| matches!(c, b'-' | b'+' | b' ' | b'#' | b'0' | b'\''))
    {
        i += 1;
    }
    if b.get(i) == Some(&b'[') {
        let close = b[i..].iter().position(|&c| c == b']')?;
        i += close + 1;
    }
    while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'*') {
        i += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'*') {
            i += 1;
        }
    }
    let modifiers = i;
    while b
        .get(i)
        .is_some_and(|c| matches!(c, b'h' | b'l' | b'L' | b'q' | b'j' | b'z' | b't'))
    {
        i += 1;
    }
    let conversion = |c: Option<&u8>| c.is_some_and(|c| b"sdifFeEgGxXoOcrvwqtTpbaAuUn".contains(c));
    if conversion(b.get(i)) {
        Some(i + 1)
    } else if i > modifiers && conversion(b.get(i - 1)) {
        // `q` and `t` are C's length modifiers (`%qd`) and Go's verbs (`%q`, `%t`): without a
        // conversion after it, the last is the verb.
        Some(i)
    } else {
        None
    }
}

/// Parses brace placeholders (`{}`, `{0}`, `{name}`, `{:?}`, `{name!r:>5}`) as Rust's
/// `format!`, Python's `str.format`, SLF4J and `MessageFormat` write them; `{{` and `}}` are
/// literal braces.
pub(crate) fn brace_template(s: &str) -> Template {
    let mut t = Template::default();
    let mut lit = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|p| p.1) == Some('{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek().map(|p| p.1) == Some('}') => {
                chars.next();
                lit.push('}');
            }
            '{' => match s[i..].find('}') {
                Some(close) if !s[i + 1..i + close].contains('{') => {
                    t.push_literal(&lit);
                    lit.clear();
                    t.push_placeholder(&s[i..=i + close]);
                    while chars.peek().is_some_and(|p| p.0 <= i + close) {
                        chars.next();
                    }
                }
                _ => lit.push(c),
            },
            _ => lit.push(c),
        }
    }
    t.push_literal(&lit);
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes() {
        assert_eq!(unescape(r#"a\"b\n\x41\u0042\u{43}\101"#), "a\"b\nABCA");
        assert_eq!(unescape("line\\\n    next"), "linenext");
    }

    #[test]
    fn strips_quotes() {
        assert_eq!(strip_quotes(r#""abc""#), "abc");
        assert_eq!(strip_quotes(r##"r#"a"b"#"##), r#"a"b"#);
        assert_eq!(strip_quotes(r#"f"x{y}""#), "x{y}");
        assert_eq!(strip_quotes(r#""""doc""""#), "doc");
        assert_eq!(strip_quotes("'it''s'"), "it''s");
    }

    #[test]
    fn printf() {
        let t = printf_template("open %s: %5.2f%% done, %[1]d %(name)r %w");
        assert_eq!(t.message(), "open %s: %5.2f% done, %[1]d %(name)r %w");
        assert_eq!(t.segments().len(), 10);
        assert_eq!(printf_template("done at 100%").segments().len(), 1);
        // `% s` is a directive with the space flag, as printf reads it.
        assert_eq!(printf_template("100% sure").segments().len(), 3);
        // Go's `%q` and `%t` wherever they are, and C's `q` and `t` modifiers before a
        // conversion.
        let t = printf_template("bad name %q, flag %t: %qd %td %q");
        assert_eq!(t.pattern(), r"bad name (.*?), flag (.*?): (.*?) (.*?) (.*)");
    }

    #[test]
    fn braces() {
        let t = brace_template("{{x}} {} {0} {name:?} {");
        assert_eq!(t.message(), "{x} {} {0} {name:?} {");
        assert_eq!(t.pattern(), r"\{x\} (.*?) (.*?) (.*?) \{");
    }
}
