//! The names a piece of code uses, read without a parser: what a guard reads, what to rename.

/// A name of a piece of code: a run of letters, digits, `_` and `$` that starts with no digit,
/// outside string literals (`'…'`, `"…"`, `` `…` ``) and numbers (`0x1f`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Name<'a> {
    pub text: &'a str,
    /// Its byte range in the code.
    pub start: usize,
    pub end: usize,
    /// It follows a `.`: a member of something else (`x.name`), not a variable.
    pub member: bool,
}

/// The names of `code`, in order.
pub fn names(code: &str) -> impl Iterator<Item = Name<'_>> {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let c = b[i];
            if c == b'"' || c == b'\'' || c == b'`' {
                i += 1;
                while i < b.len() && b[i] != c {
                    i += usize::from(b[i] == b'\\') + 1;
                }
                i = (i + 1).min(b.len());
                continue;
            }
            if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
                let start = i;
                while i < b.len() && ident(b[i]) {
                    i += 1;
                }
                return Some(Name {
                    text: &code[start..i],
                    start,
                    end: i,
                    member: start > 0 && b[start - 1] == b'.',
                });
            }
            // A number (`0x1f`, `1.5e3`, `2u8`) holds no name.
            if c.is_ascii_digit() {
                while i < b.len() && (ident(b[i]) || b[i] == b'.') {
                    i += 1;
                }
                continue;
            }
            i += 1;
        }
        None
    })
}

/// The names a JavaScript or TypeScript module exports, read from its text: `exports.f` and
/// what is assigned to it (`exports.Pack = Pack`), `module.exports = f` or `= { f, g }`,
/// `export { f, g as h }` and `export default f`. Declarations exported where they are made
/// (`export function f`) are the parser's to see.
pub fn js_exports(src: &str) -> std::collections::HashSet<&str> {
    let mut out = std::collections::HashSet::new();
    let mut after_exports = false;
    for n in names(src) {
        let before = src[..n.start].trim_end();
        if before.ends_with("exports.") || before.ends_with("export default") {
            out.insert(n.text);
            after_exports = before.ends_with("exports.");
            continue;
        }
        // `exports.Pack = Pack`: the value assigned is exported under that name.
        if after_exports && before.ends_with('=') && !before.ends_with("==") {
            out.insert(n.text);
        }
        after_exports = false;
    }
    for head in ["module.exports", "export {", "export{"] {
        for (at, _) in src.match_indices(head) {
            let rest = src[at + head.len()..].trim_start();
            let rest = rest.strip_prefix('=').map_or(rest, str::trim_start);
            let list = match rest.strip_prefix('{') {
                Some(inner) => &inner[..inner.find('}').unwrap_or(inner.len())],
                // `module.exports = Pack`, `= class Pack`, `= function pick`; not the names
                // an exported expression reads (`= (p, w) => pick(p.versions, w)`).
                None if head == "module.exports" => {
                    let line = rest[..rest.find([';', '\n']).unwrap_or(rest.len())].trim();
                    let named = ["class ", "function ", "async function "]
                        .iter()
                        .find_map(|k| line.strip_prefix(k))
                        .unwrap_or(line);
                    let first = names(named).next().map_or("", |n| n.text);
                    let whole = named.len() == first.len();
                    let declared = named.len() < line.len();
                    if whole || declared {
                        first
                    } else {
                        ""
                    }
                }
                None => &rest[..rest.find('}').unwrap_or(rest.len())],
            };
            out.extend(names(list).map(|n| n.text));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{js_exports, names};

    #[test]
    fn names_outside_strings_with_their_members() {
        let found: Vec<(&str, bool)> = names("a.b == \"c d\" && f(x_1, '\\'e') || 2y")
            .map(|n| (n.text, n.member))
            .collect();
        assert_eq!(
            found,
            [("a", false), ("b", true), ("f", false), ("x_1", false)]
        );
    }

    #[test]
    fn a_module_exports_what_its_export_forms_name() {
        let src = "class Pack {}\nfunction helper () {}\nfunction inner () {}\nexports.Pack = Pack;\nmodule.exports.run = run;\nmodule.exports = { make, load: loader }\nexport { a, b as c }\nexport default Thing\nif (x == y) {}\n";
        let found = js_exports(src);
        for name in ["Pack", "run", "make", "loader", "a", "b", "c", "Thing"] {
            assert!(found.contains(name), "{name}: {found:?}");
        }
        for name in ["helper", "inner", "x", "y"] {
            assert!(!found.contains(name), "{name}: {found:?}");
        }
        // What an exported function reads is not exported.
        let found = js_exports(
            "const pick = (v) => v[0]
module.exports = (p, w) => pick(p.versions, w)
",
        );
        assert!(found.is_empty(), "{found:?}");
        let found = js_exports(
            "module.exports = function pick (v) {}
",
        );
        assert!(found.contains("pick"), "{found:?}");
        let found = js_exports(
            "module.exports = Pack
",
        );
        assert!(found.contains("Pack"), "{found:?}");
    }
}
