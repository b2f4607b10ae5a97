//! What the project's own words say about an error: the summary of the function's doc comment,
//! the entry of its `Raises` / `@throws` / `# Errors` / `# Panics` section for the error, and
//! the comment above the raise. Each is quoted as written (markup removed), never paraphrased.

use errata_lang::Lang;
use errata_model::ErrorType;

/// Longest quote taken from a doc comment, in characters.
const MAX_QUOTE: usize = 320;

/// The first paragraph of a doc comment, before any tag or section, as one line.
pub(crate) fn summary(doc: &str) -> Option<String> {
    let mut lines = Vec::new();
    for line in doc.lines() {
        let l = line.trim();
        if l.is_empty() {
            if lines.is_empty() {
                continue;
            }
            break;
        }
        if is_section(l) || l.starts_with('@') || l.starts_with(":param") || l.starts_with(">>>") {
            break;
        }
        lines.push(l);
    }
    let text = clean(&lines.join(" "));
    // A summary that only repeats a signature (`foo(a, b) -> c`) or is a word says nothing.
    if text.split_whitespace().count() < 3 || !text.chars().any(|c| c.is_alphabetic()) {
        return None;
    }
    Some(sentences(&text, MAX_QUOTE))
}

/// What the doc comment says about this error: the `@throws X …` (Javadoc, JSDoc), `Raises:`
/// / `:raises X:` (Python) entry of its class, the `# Errors` or `# Panics` section (rustdoc),
/// or the sentence of a Go doc comment that says when it returns an error or panics.
#[cfg(test)]
fn on_error(doc: &str, lang: Lang, class: Option<&str>, error_type: ErrorType) -> Option<String> {
    on_error_near(doc, lang, class, error_type, "")
}

/// [`on_error`] for a raise under `condition`: of several `@throws` entries of its class
/// (`IllegalArgumentException` if `srcRegion` is null, and if `dstRegion` is null), the one
/// that names what the condition reads; all of them when none alone does.
fn on_error_near(
    doc: &str,
    lang: Lang,
    class: Option<&str>,
    error_type: ErrorType,
    condition: &str,
) -> Option<String> {
    let last = class.map(|c| c.rsplit(['.', ':']).next().unwrap_or(c));
    let found = match lang {
        Lang::Java | Lang::TypeScript | Lang::JavaScript => {
            let entries = tag_entries(doc, last);
            match entries.len() {
                0 => None,
                1 => entries.into_iter().next(),
                _ => Some(nearest(&entries, condition).unwrap_or_else(|| {
                    let clauses: Vec<&str> =
                        entries.iter().map(|e| e.trim_end_matches('.')).collect();
                    format!("{}.", clauses.join("; "))
                })),
            }
        }
        Lang::Python => python_raises(doc, last),
        Lang::Rust => {
            let section = if matches!(error_type, ErrorType::Panic | ErrorType::Assertion) {
                "Panics"
            } else {
                "Errors"
            };
            rust_section(doc, section)
        }
        Lang::Go => go_sentence(doc, error_type),
    }?;
    let text = clean(&found);
    (text.split_whitespace().count() >= 2).then(|| sentences(&text, MAX_QUOTE))
}

/// What the doc comment of the site's function says about its error ([`on_error`]).
pub(crate) fn of_site(site: &crate::Site<'_>) -> Option<String> {
    let doc = site.facts.function.as_ref()?.doc.as_deref()?;
    let condition: Vec<&str> = site.facts.guards().map(|c| c.expr.as_str()).collect();
    on_error_near(
        doc,
        site.lang,
        site.class,
        site.error_type,
        &condition.join(" "),
    )
}

/// The one entry that shares a name with the condition (`content` of `content == null`),
/// where exactly one does.
fn nearest(entries: &[String], condition: &str) -> Option<String> {
    let mut naming = entries.iter().filter(|e| shares_a_name(e, condition));
    let first = naming.next()?;
    naming.next().is_none().then(|| first.clone())
}

/// Whether a doc comment's entry and a text of code (a condition, a message) have a name in
/// common, other than words every condition has (`null`, `length`).
pub(crate) fn shares_a_name(entry: &str, code: &str) -> bool {
    const COMMON: &[&str] = &[
        "null", "the", "this", "that", "not", "and", "for", "true", "false", "length", "size",
        "is", "if", "or", "of", "in", "to", "an", "be", "it", "on",
    ];
    let words = |t: &str| -> std::collections::HashSet<String> {
        t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| w.len() >= 2 && !w.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_lowercase)
            .filter(|w| !COMMON.contains(&w.as_str()))
            .collect()
    };
    !words(entry).is_disjoint(&words(code))
}

/// A comment above a raise, as one line, when it has words in it.
pub(crate) fn comment(text: &str) -> Option<String> {
    let text = clean(&text.lines().map(str::trim).collect::<Vec<_>>().join(" "));
    let words = text.split_whitespace().count();
    let lower = text.to_lowercase();
    let noise = [
        "todo", "fixme", "xxx", "nolint", "noqa", "eslint", "pragma", "type:",
    ]
    .iter()
    .any(|w| lower.starts_with(w))
        || lower.contains("istanbul ignore")
        || lower.contains("c8 ignore");
    (words >= 3 && !noise).then(|| sentences(&text, MAX_QUOTE))
}

fn is_section(l: &str) -> bool {
    let l = l.trim_end_matches(':');
    l.starts_with("# ")
        || matches!(
            l,
            "Args"
                | "Arguments"
                | "Parameters"
                | "Params"
                | "Returns"
                | "Return"
                | "Raises"
                | "Yields"
                | "Examples"
                | "Example"
                | "Note"
                | "Notes"
                | "Keyword Arguments"
                | "Attributes"
                | "See Also"
        )
}

/// `@throws X desc` or `@exception X desc` (`{X}` in JSDoc), for the class `last` (any when
/// the site has none), the description running on to the next tag: each entry of the class.
fn tag_entries(doc: &str, last: Option<&str>) -> Vec<String> {
    let mut found = Vec::new();
    let mut lines = doc.lines().map(str::trim).peekable();
    while let Some(l) = lines.next() {
        let Some(rest) = l
            .strip_prefix("@throws")
            .or_else(|| l.strip_prefix("@exception"))
            .or_else(|| l.strip_prefix("@raises"))
        else {
            continue;
        };
        let rest = rest.trim();
        let (name, desc) = match rest.strip_prefix('{') {
            Some(r) => r.split_once('}').unwrap_or((r, "")),
            None => rest.split_once(char::is_whitespace).unwrap_or((rest, "")),
        };
        let name = name.trim().rsplit('.').next().unwrap_or(name);
        if last.is_some_and(|c| c != name) {
            continue;
        }
        let mut desc = desc.trim().to_owned();
        while let Some(n) = lines.peek() {
            if n.starts_with('@') || n.is_empty() {
                break;
            }
            desc.push(' ');
            desc.push_str(n);
            lines.next();
        }
        let desc = desc.trim_start_matches(['-', ':']).trim();
        if !desc.is_empty() && !found.iter().any(|f| f == desc) {
            found.push(desc.to_owned());
            // Entries of other classes are not this error's: of a site without a class,
            // only the first is taken.
            if last.is_none() {
                break;
            }
        }
    }
    found
}

/// A Python docstring's entry for the class: Google style (`Raises:` then `X: desc`), numpy
/// style (`Raises` / `------` then `X` and its indented description), or Sphinx (`:raises X:
/// desc`).
fn python_raises(doc: &str, last: Option<&str>) -> Option<String> {
    let last = last?;
    let lines: Vec<&str> = doc.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim();
        if let Some(rest) = t
            .strip_prefix(":raises")
            .or_else(|| t.strip_prefix(":raise"))
            .or_else(|| t.strip_prefix(":exception"))
        {
            let (names, desc) = rest.split_once(':')?;
            if names
                .split([',', ' '])
                .any(|n| n.trim().rsplit('.').next() == Some(last))
            {
                return Some(continued(desc.trim(), &lines[i + 1..], indent(l)));
            }
            continue;
        }
        if t.trim_end_matches(':') != "Raises" {
            continue;
        }
        let base = indent(l);
        let mut j = i + 1;
        if lines.get(j).is_some_and(|u| u.trim().starts_with("---")) {
            j += 1;
        }
        while j < lines.len() {
            let e = lines[j];
            if e.trim().is_empty() {
                j += 1;
                continue;
            }
            if indent(e) < base || (indent(e) == base && is_section(e.trim())) {
                break;
            }
            let et = e.trim();
            let (name, desc) = et.split_once(':').unwrap_or((et, ""));
            let names_it = name
                .split([',', ' ', '(', ')'])
                .any(|n| n.trim().rsplit('.').next() == Some(last));
            if names_it && (desc.is_empty() || !name.contains(' ') || name.contains(',')) {
                return Some(continued(desc.trim(), &lines[j + 1..], indent(e)));
            }
            j += 1;
        }
    }
    None
}

/// `first`, and the lines after it indented deeper than `base`, as one text.
fn continued(first: &str, rest: &[&str], base: usize) -> String {
    let mut out = first.to_owned();
    for l in rest {
        if l.trim().is_empty() || indent(l) <= base {
            break;
        }
        out.push(' ');
        out.push_str(l.trim());
    }
    out
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

/// The first paragraph of the rustdoc section `# NAME`.
fn rust_section(doc: &str, name: &str) -> Option<String> {
    let mut lines = doc.lines().map(str::trim);
    lines.find(|l| l.trim_start_matches('#').trim() == name && l.starts_with('#'))?;
    let mut out: Vec<&str> = Vec::new();
    for l in lines {
        if l.starts_with('#') || l.starts_with("```") {
            break;
        }
        if l.is_empty() {
            if out.is_empty() {
                continue;
            }
            break;
        }
        out.push(l);
    }
    (!out.is_empty()).then(|| out.join(" "))
}

/// The first sentence of a Go doc comment that says when the function panics, or returns an
/// error.
fn go_sentence(doc: &str, error_type: ErrorType) -> Option<String> {
    let text = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let words: &[&str] = if matches!(error_type, ErrorType::Panic | ErrorType::Assertion) {
        &["panic"]
    } else {
        &[" error", " err ", "fails", "returns Err", "non-nil"]
    };
    split_sentences(&text)
        .into_iter()
        .find(|s| words.iter().any(|w| s.contains(w)))
        .map(str::to_owned)
}

/// Sentences of at most `max` characters in all, the first one whole if it is longer.
fn sentences(text: &str, max: usize) -> String {
    let mut out = String::new();
    for s in split_sentences(text) {
        if !out.is_empty() && out.chars().count() + s.chars().count() + 1 > max {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(s);
    }
    if out.chars().count() > max + 80 {
        let cut: String = out.chars().take(max).collect();
        let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(a, _)| a);
        return format!("{cut} …");
    }
    out
}

/// The sentences of a text: a `.`, `!` or `?` followed by a space and a capital or a backtick
/// ends one (`e.g. x` and `a.b` do not).
fn split_sentences(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..b.len() {
        if matches!(b[i], b'.' | b'!' | b'?')
            && b.get(i + 1) == Some(&b' ')
            && b.get(i + 2)
                .is_some_and(|c| c.is_ascii_uppercase() || *c == b'`')
            && !text[start..i].ends_with("e.g")
            && !text[start..i].ends_with("i.e")
        {
            out.push(text[start..=i].trim());
            start = i + 2;
        }
    }
    if start < text.len() {
        out.push(text[start..].trim());
    }
    out.retain(|s| !s.is_empty());
    out
}

/// Whether the text after a `<` opens or closes an HTML tag of doc comments (`<p>`, `</code>`,
/// `<a href=…>`), rather than being prose in angle brackets (`'<something>'`, `<stdin>`).
fn is_html_tag(after: &[char]) -> bool {
    const TAGS: [&str; 48] = [
        "a",
        "abbr",
        "b",
        "big",
        "blockquote",
        "br",
        "caption",
        "center",
        "cite",
        "code",
        "dd",
        "dfn",
        "div",
        "dl",
        "dt",
        "em",
        "font",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "i",
        "img",
        "kbd",
        "li",
        "ol",
        "p",
        "pre",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "table",
        "tbody",
        "td",
        "th",
        "thead",
        "tr",
        "tt",
        "u",
        "ul",
        "var",
    ];
    let after = after.strip_prefix(&['/']).unwrap_or(after);
    let name: String = after
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    TAGS.contains(&name.as_str()) && matches!(after.get(name.len()), Some('>' | ' ' | '/' | '\n'))
}

/// Doc markup turned into plain text: Javadoc's `{@code x}` and `{@link X}` into `` `x` ``,
/// `X`; HTML tags removed; reST's ``` ``x`` ``` and `:class:`X`` into `` `x` ``, `X`;
/// whitespace collapsed.
fn clean(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("{@") {
        s.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let Some(end) = tail.find('}') else {
            s.push_str(&rest[at..]);
            rest = "";
            break;
        };
        let inner = &tail[..end];
        let (tag, body) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
        let body = body.trim();
        match tag {
            "code" | "literal" => s.push_str(&format!("`{body}`")),
            _ => s.push_str(body.split_whitespace().next().unwrap_or(body)),
        }
        rest = &tail[end + 1..];
    }
    s.push_str(rest);
    // HTML tags.
    let mut plain = String::with_capacity(s.len());
    let mut in_tag = false;
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '<' && is_html_tag(&chars[i + 1..]) {
            let close = chars[i..].iter().position(|&d| d == '>');
            if close.is_some_and(|k| k < 40) {
                in_tag = true;
                continue;
            }
        }
        if in_tag {
            if c == '>' {
                in_tag = false;
            }
            continue;
        }
        plain.push(c);
    }
    let plain = plain
        .replace("``", "`")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let mut out = String::with_capacity(plain.len());
    let mut rest = plain.as_str();
    while let Some(at) = rest.find(":`") {
        // `:class:` before the backtick: drop the role.
        let before = &rest[..at];
        let role_start = before
            .char_indices()
            .rfind(|&(_, c)| !(c.is_ascii_alphanumeric() || c == ':'));
        let head = match role_start {
            Some((k, c)) => &before[..k + c.len_utf8()],
            None => "",
        };
        let role = &before[head.len()..];
        if role.starts_with(':') && role.len() > 1 {
            out.push_str(head);
            out.push('`');
        } else {
            out.push_str(&rest[..at + 2]);
        }
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    let out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    // An odd backtick (TeX's quotes: "class type`site'") opens no code: escaped, as a quoted
    // message's are, it cannot turn the rest of the text into code.
    if out.matches('`').count() % 2 == 1 {
        return out.replace('`', "\\`");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_odd_backtick_is_escaped() {
        assert_eq!(
            summary("The symbol seen as a member of given\n class type`site' (this might change).")
                .as_deref(),
            Some("The symbol seen as a member of given class type\\`site' (this might change).")
        );
    }

    #[test]
    fn the_summary_is_the_first_paragraph() {
        assert_eq!(
            summary("Return the canonical form.\nOf the document.\n\nArgs:\n  x: it").as_deref(),
            Some("Return the canonical form. Of the document.")
        );
        assert_eq!(
            summary("Parses {@code s} as a {@link Integer}.\n@param s the text").as_deref(),
            Some("Parses `s` as a Integer.")
        );
        assert_eq!(summary("foo(a, b)"), None);
    }

    #[test]
    fn a_role_after_a_non_ascii_character_is_cut_on_a_char_boundary() {
        // Found by fuzzing extract_go: `é:x:` before a backtick sliced inside `é`.
        assert_eq!(clean("café:meth:`open` fails"), "café`open` fails");
        assert_eq!(clean("é:`x`"), "é:`x`");
    }

    #[test]
    fn of_two_entries_of_a_class_the_one_naming_what_the_condition_reads_is_taken() {
        let javadoc = "Computes.\n@throws IllegalArgumentException if srcRegion is null.\n@throws IllegalArgumentException if dstRegion is null.\n@throws IOException if it fails.";
        let near = |condition| {
            on_error_near(
                javadoc,
                Lang::Java,
                Some("IllegalArgumentException"),
                ErrorType::Exception,
                condition,
            )
        };
        assert_eq!(
            near("dstRegion == null").as_deref(),
            Some("if dstRegion is null.")
        );
        // Neither is named (`destRegion`): both are quoted, neither is picked.
        assert_eq!(
            near("destRegion == null").as_deref(),
            Some("if srcRegion is null; if dstRegion is null.")
        );
    }

    #[test]
    fn the_entry_for_the_error_is_found() {
        let javadoc = "Parses it.\n@param s text\n@throws NumberFormatException if the string\ndoes not contain a parsable integer.\n@return n";
        assert_eq!(
            on_error(
                javadoc,
                Lang::Java,
                Some("java.lang.NumberFormatException"),
                ErrorType::Exception
            )
            .as_deref(),
            Some("if the string does not contain a parsable integer.")
        );
        let google = "Split it.\n\nRaises:\n    ValueError: if the mode is not one of\n        'r', 'w' or 'b'.\n    TypeError: if other.\n";
        assert_eq!(
            on_error(
                google,
                Lang::Python,
                Some("ValueError"),
                ErrorType::Exception
            )
            .as_deref(),
            Some("if the mode is not one of 'r', 'w' or 'b'.")
        );
        let sphinx = "Do it.\n\n:raises KeyError: when the key is missing\n";
        assert_eq!(
            on_error(sphinx, Lang::Python, Some("KeyError"), ErrorType::Exception).as_deref(),
            Some("when the key is missing")
        );
        let numpy = "Do it.\n\nRaises\n------\nLinAlgError\n    If the matrix is singular.\n";
        assert_eq!(
            on_error(
                numpy,
                Lang::Python,
                Some("LinAlgError"),
                ErrorType::Exception
            )
            .as_deref(),
            Some("If the matrix is singular.")
        );
        let rust = "Reads it.\n\n# Errors\n\nFails when the file is missing.\n\n# Panics\n\nPanics if `n` is zero.";
        assert_eq!(
            on_error(rust, Lang::Rust, None, ErrorType::Panic).as_deref(),
            Some("Panics if `n` is zero.")
        );
        assert_eq!(
            on_error(rust, Lang::Rust, None, ErrorType::ErrorReturn).as_deref(),
            Some("Fails when the file is missing.")
        );
        let go = "Atoi is equivalent to ParseInt(s, 10, 0). It panics if the base is 1.";
        assert_eq!(
            on_error(go, Lang::Go, None, ErrorType::Panic).as_deref(),
            Some("It panics if the base is 1.")
        );
        let jsdoc = "Loads it.\n@throws {TypeError} when the name is empty";
        assert_eq!(
            on_error(
                jsdoc,
                Lang::JavaScript,
                Some("TypeError"),
                ErrorType::Exception
            )
            .as_deref(),
            Some("when the name is empty")
        );
        assert_eq!(
            on_error(
                jsdoc,
                Lang::JavaScript,
                Some("RangeError"),
                ErrorType::Exception
            ),
            None
        );
    }

    #[test]
    fn markup_goes_and_noise_is_no_comment() {
        assert_eq!(clean("see :class:`Foo` and ``bar``"), "see `Foo` and `bar`");
        assert_eq!(clean("a <b>bold</b> move"), "a bold move");
        assert_eq!(comment("TODO: fix this later"), None);
        assert_eq!(
            comment("The lease was never\nconfirmed clean.").as_deref(),
            Some("The lease was never confirmed clean.")
        );
    }
}
