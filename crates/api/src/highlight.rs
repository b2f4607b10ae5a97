//! Syntax highlighting of a record's source window with the grammar's own highlight query
//! (tree-sitter-highlight), as HTML lines of escaped text in `<span class="hl-…">`.

use std::path::Path;
use std::sync::OnceLock;

use errata_lang::Lang;
use tree_sitter_highlight::{HighlightConfiguration, HighlightEvent, Highlighter};

/// The captures shown, and their CSS classes (`hl-` and the name, dots as dashes). A capture
/// such as `function.method` takes the longest of these that it starts with.
const NAMES: [&str; 14] = [
    "attribute",
    "comment",
    "constant",
    "constant.builtin",
    "constructor",
    "function",
    "function.builtin",
    "keyword",
    "number",
    "operator",
    "property",
    "string",
    "type",
    "variable.builtin",
];

/// The CSS for the classes.
pub(crate) const CSS: &str = ".hl-keyword{color:#cf222e}.hl-string{color:#0a3069}.hl-comment{color:#6e7781;font-style:italic}\
.hl-function,.hl-function-builtin{color:#8250df}.hl-type,.hl-constructor{color:#953800}\
.hl-number,.hl-constant,.hl-constant-builtin{color:#0550ae}.hl-property{color:#116329}\
.hl-variable-builtin,.hl-attribute{color:#0550ae}";

fn config(lang: Lang, path: &Path) -> Option<&'static HighlightConfiguration> {
    static CONFIGS: [OnceLock<Option<HighlightConfiguration>>; 7] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let tsx = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tsx"));
    let slot = match lang {
        Lang::TypeScript if tsx => 6,
        Lang::TypeScript => 0,
        Lang::JavaScript => 1,
        Lang::Python => 2,
        Lang::Go => 3,
        Lang::Rust => 4,
        Lang::Java => 5,
    };
    CONFIGS[slot]
        .get_or_init(|| {
            let mut c = HighlightConfiguration::new(
                lang.grammar(path),
                lang.name(),
                &lang.highlights_query(),
                "",
                "",
            )
            .map_err(|e| tracing::warn!(lang = lang.name(), error = %e, "no highlighting"))
            .ok()?;
            c.configure(&NAMES);
            Some(c)
        })
        .as_ref()
}

/// The lines of `source` (a file's text, or a window of it) as HTML, or `None` when the file's
/// language is unknown or highlighting fails; the caller then shows the text escaped.
pub(crate) fn lines(path: &str, source: &str) -> Option<Vec<String>> {
    let path = Path::new(path);
    let config = config(Lang::from_path(path)?, path)?;
    let mut highlighter = Highlighter::new();
    let events = highlighter
        .highlight(config, source.as_bytes(), None, None, |_| None)
        .map_err(|e| tracing::debug!(error = %e, "highlighting failed"))
        .ok()?;
    let mut lines = vec![String::new()];
    let mut open: Vec<&str> = Vec::new();
    for event in events {
        let event = event
            .map_err(|e| tracing::debug!(error = %e, "highlighting failed"))
            .ok()?;
        match event {
            HighlightEvent::HighlightStart(h) => {
                let name = NAMES[h.0];
                let line = lines.last_mut().expect("one line at least");
                line.push_str(&format!("<span class=\"hl-{}\">", name.replace('.', "-")));
                open.push(name);
            }
            HighlightEvent::HighlightEnd => {
                open.pop();
                lines
                    .last_mut()
                    .expect("one line at least")
                    .push_str("</span>");
            }
            HighlightEvent::Source { start, end } => {
                let Some(text) = source.get(start..end) else {
                    tracing::debug!(start, end, "highlighting: a span not on a char boundary");
                    return None;
                };
                for (i, part) in text.split('\n').enumerate() {
                    if i > 0 {
                        // A span crossing a line break is closed and opened again, so that
                        // each line is well-formed HTML on its own.
                        let line = lines.last_mut().expect("one line at least");
                        for _ in &open {
                            line.push_str("</span>");
                        }
                        let mut next = String::new();
                        for name in &open {
                            next.push_str(&format!(
                                "<span class=\"hl-{}\">",
                                name.replace('.', "-")
                            ));
                        }
                        lines.push(next);
                    }
                    lines
                        .last_mut()
                        .expect("one line at least")
                        .push_str(&crate::web::esc(part));
                }
            }
        }
    }
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_highlights_and_escapes() {
        let cases = [
            (
                "a.ts",
                "function f(x: number) {\n  throw new Error(\"<b>\");\n}",
            ),
            (
                "a.tsx",
                "const a = <div>{x}</div>;\nthrow new Error(\"x\");",
            ),
            ("a.js", "function f() {\n  throw new Error(`<b>`);\n}"),
            ("a.py", "def f():\n    raise ValueError(\"<b>\")"),
            ("a.go", "func f() error {\n\treturn errors.New(\"<b>\")\n}"),
            ("a.rs", "fn f() {\n    panic!(\"<b>\");\n}"),
            (
                "A.java",
                "class A {\n  void f() { throw new IllegalStateException(\"<b>\"); }\n}",
            ),
        ];
        for (path, src) in cases {
            let lines = lines(path, src).unwrap_or_else(|| panic!("{path} highlights"));
            assert_eq!(lines.len(), src.lines().count(), "{path}");
            let html = lines.join("\n");
            assert!(html.contains("class=\"hl-keyword\""), "{path}: {html}");
            assert!(!html.contains("<b>"), "{path}: {html}");
            assert_eq!(
                html.matches("<span").count(),
                html.matches("</span>").count(),
                "{path}"
            );
        }
        assert_eq!(lines("a.txt", "x"), None);
    }

    #[test]
    fn spans_crossing_lines_are_closed_on_each() {
        let lines = lines("a.py", "x = \"\"\"a\nb\"\"\"").unwrap();
        assert_eq!(lines.len(), 2);
        for l in &lines {
            assert_eq!(
                l.matches("<span").count(),
                l.matches("</span>").count(),
                "{l}"
            );
        }
    }
}
