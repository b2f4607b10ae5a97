//! What a function's declaration says, read from its text: the parameters a call must pass and,
//! in Go, the results it returns. The text is the declaration up to the body, as the call graph
//! keeps it for the functions on the way in to a site.

use errata_lang::Lang;

use crate::Parameter;

/// A declaration, read.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Declared {
    /// The parameters, without the receiver (`self`, `&mut self`).
    pub(crate) parameters: Vec<Parameter>,
    /// It takes a receiver: `self` (Python, Rust) or a Go method's `(c *Client)`.
    pub(crate) method: bool,
    /// Java's `static`, or a Python `@staticmethod`-free `cls` method.
    pub(crate) is_static: bool,
    /// Go: the types of its results (`*Response`, `error`).
    pub(crate) results: Vec<String>,
}

/// Reads the declaration `sig` of a function named `name`; `None` when its parameters cannot be
/// told apart (Go's unnamed parameters, a list that does not close).
pub(crate) fn read(lang: Lang, name: &str, sig: &str) -> Option<Declared> {
    let sig = sig.trim();
    let mut d = Declared::default();
    let rest = match lang {
        Lang::Go => {
            let mut rest = sig.strip_prefix("func")?.trim_start();
            if rest.starts_with('(') {
                let close = closing(rest, 0)?;
                d.method = true;
                rest = rest[close + 1..].trim_start();
            }
            rest.strip_prefix(name)?.trim_start()
        }
        _ => {
            // The list follows the name (after any generic parameters).
            let at = find_word(sig, name)?;
            sig[at + name.len()..].trim_start()
        }
    };
    let rest = match rest
        .strip_prefix('<')
        .or_else(|| (lang == Lang::Go && rest.starts_with('[')).then(|| &rest[1..]))
    {
        Some(_) => {
            let close = closing(rest, 0)?;
            rest[close + 1..].trim_start()
        }
        None => rest,
    };
    if !rest.starts_with('(') {
        return None;
    }
    let close = closing(rest, 0)?;
    let list = &rest[1..close];
    let after = rest[close + 1..].trim();
    let head = &sig[..sig.len() - rest.len()];
    d.is_static = head.split_whitespace().any(|w| w == "static");
    let items: Vec<&str> = split_top_level(list)
        .into_iter()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    match lang {
        Lang::Python => python(&items, &mut d),
        Lang::Go => {
            go(&items, &mut d)?;
            d.results = go_results(after);
        }
        Lang::Java => java(&items, &mut d),
        Lang::Rust => rust(&items, &mut d),
        Lang::JavaScript | Lang::TypeScript => script(&items, &mut d),
    }
    Some(d)
}

fn python(items: &[&str], d: &mut Declared) {
    let mut keyword_only = false;
    for (i, item) in items.iter().enumerate() {
        let (head, default) = match item.split_once('=') {
            Some((h, _)) => (h.trim(), true),
            None => (*item, false),
        };
        let name = head.split(':').next().unwrap_or(head).trim();
        let ty = head.split_once(':').map(|(_, t)| t.trim().to_owned());
        if i == 0 && (name == "self" || name == "cls") {
            d.method = name == "self";
            d.is_static = name == "cls";
            continue;
        }
        match name {
            "*" => keyword_only = true,
            "/" => {}
            _ if name.starts_with('*') => {
                d.parameters.push(Parameter {
                    name: name.trim_start_matches('*').to_owned(),
                    ty,
                    variadic: true,
                    ..Parameter::default()
                });
                keyword_only = true;
            }
            _ => d.parameters.push(Parameter {
                name: name.to_owned(),
                ty,
                optional: default,
                keyword_only,
                variadic: false,
            }),
        }
    }
}

/// Go's list: `a, b int, c ...string`; a list of bare types (`int, string`) names none.
fn go(items: &[&str], d: &mut Declared) -> Option<()> {
    let split: Vec<(&str, Option<&str>)> = items
        .iter()
        .map(|i| match i.split_once(char::is_whitespace) {
            Some((n, t)) => (n, Some(t.trim())),
            None => (*i, None),
        })
        .collect();
    if !items.is_empty() && split.iter().all(|(_, t)| t.is_none()) {
        return None;
    }
    // A name without a type takes the next one's.
    let mut ty: Option<&str> = None;
    let mut out = Vec::new();
    for (name, t) in split.iter().rev() {
        if let Some(t) = t {
            ty = Some(t);
        }
        let ty = ty?;
        out.push(Parameter {
            name: (*name).to_owned(),
            ty: Some(ty.to_owned()),
            variadic: ty.starts_with("..."),
            ..Parameter::default()
        });
    }
    out.reverse();
    d.parameters = out;
    Some(())
}

/// Go's results: `error`, `(*Response, error)`, `(n int, err error)`.
fn go_results(after: &str) -> Vec<String> {
    let after = after.trim();
    if after.is_empty() {
        return Vec::new();
    }
    if after.starts_with('(') {
        let Some(close) = closing(after, 0) else {
            return Vec::new();
        };
        return split_top_level(&after[1..close])
            .into_iter()
            .map(|r| {
                let r = r.trim();
                // `err error` is named; `[]byte` and `map[K]V` are types alone.
                match r.rsplit_once(' ') {
                    Some((_, t)) if !r.starts_with(['[', '*', '.']) && !r.contains('[') => {
                        t.to_owned()
                    }
                    _ => r.to_owned(),
                }
            })
            .collect();
    }
    vec![after.to_owned()]
}

fn java(items: &[&str], d: &mut Declared) {
    for item in items {
        let words: Vec<&str> = item
            .split_whitespace()
            .filter(|w| !w.starts_with('@') && *w != "final")
            .collect();
        let Some((name, ty)) = words.split_last() else {
            continue;
        };
        // `byte b[]` is `byte[] b`, and so is `byte []b`.
        let (name, lead) = match name.rfind(']') {
            Some(at) if name.starts_with('[') => (&name[at + 1..], &name[..=at]),
            _ => (*name, ""),
        };
        let (name, dims) = match name.find('[') {
            Some(at) => (&name[..at], &name[at..]),
            None => (name, ""),
        };
        let ty = ty.join(" ") + lead + dims;
        d.parameters.push(Parameter {
            name: (*name).to_owned(),
            variadic: ty.ends_with("..."),
            ty: Some(ty),
            ..Parameter::default()
        });
    }
}

fn rust(items: &[&str], d: &mut Declared) {
    for item in items {
        let (pattern, ty) = match item.split_once(':') {
            Some((p, t)) => (p.trim(), Some(t.trim().to_owned())),
            None => (item.trim(), None),
        };
        let pattern = pattern.trim_start_matches("mut ").trim();
        if pattern
            .trim_start_matches('&')
            .trim_start_matches("mut ")
            .trim()
            == "self"
            || pattern.ends_with("self")
        {
            d.method = true;
            continue;
        }
        d.parameters.push(Parameter {
            name: pattern.to_owned(),
            ty,
            ..Parameter::default()
        });
    }
}

fn script(items: &[&str], d: &mut Declared) {
    for item in items {
        let (head, default) = match item.split_once('=') {
            Some((h, _)) => (h.trim(), true),
            None => (*item, false),
        };
        let name = head.split(':').next().unwrap_or(head).trim();
        d.parameters.push(Parameter {
            name: name
                .trim_start_matches("...")
                .trim_end_matches('?')
                .to_owned(),
            ty: head.split_once(':').map(|(_, t)| t.trim().to_owned()),
            optional: default || name.ends_with('?'),
            variadic: name.starts_with("..."),
            keyword_only: false,
        });
    }
}

/// Where `word` stands alone in `s`, followed by `(` or `<`.
fn find_word(s: &str, word: &str) -> Option<usize> {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    s.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = s[..i].chars().next_back().is_none_or(|c| !ident(c));
        let after = s[i + word.len()..].trim_start();
        before && (after.starts_with('(') || after.starts_with('<') || after.starts_with('['))
    })
}

/// Calls `f` with each character of `s` outside string literals, its index and the bracket
/// depth once the character is read (`(`, `[`, `{`, `<` open; `->` and `=>` close none), until
/// `f` returns true.
fn scan(s: &str, mut f: impl FnMut(usize, char, i32) -> bool) {
    let (mut depth, mut prev) = (0i32, '\0');
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices() {
        let was = prev;
        prev = c;
        if let Some(q) = quote {
            if c == q && was != '\\' {
                quote = None;
            }
            continue;
        }
        match c {
            // A Rust lifetime (`'a`) opens no string: its name is not closed by a quote.
            '\'' if is_lifetime(&s[i + 1..]) => {}
            '"' | '\'' | '`' => {
                quote = Some(c);
                continue;
            }
            '(' | '[' | '{' | '<' => depth += 1,
            '>' if was == '-' || was == '=' => {}
            ')' | ']' | '}' | '>' => depth -= 1,
            _ => {}
        }
        if f(i, c, depth) {
            return;
        }
    }
}

/// Whether the text after a `'` is a lifetime's name (`a>`, `static str`), not a quoted text.
fn is_lifetime(after: &str) -> bool {
    let name = after
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(after.len());
    name > 0 && !after[name..].starts_with('\'')
}

/// The index of the bracket that closes the one at `open`.
fn closing(s: &str, open: usize) -> Option<usize> {
    let mut found = None;
    scan(&s[open..], |i, c, depth| {
        let closes = depth == 0 && matches!(c, ')' | ']' | '}' | '>');
        if closes {
            found = Some(open + i);
        }
        closes
    });
    found
}

/// `s` split at the commas outside brackets and strings.
fn split_top_level(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    scan(s, |i, c, depth| {
        if c == ',' && depth == 0 {
            out.push(&s[start..i]);
            start = i + 1;
        }
        false
    });
    out.push(&s[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(d: &Declared) -> Vec<&str> {
        d.parameters.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn each_language_declares_its_parameters() {
        let py = read(
            Lang::Python,
            "open",
            "def open(self, name: str = None, mode='r', *args, fileobj, **kw) -> 'TarFile':",
        )
        .unwrap();
        assert!(py.method);
        assert_eq!(names(&py), ["name", "mode", "args", "fileobj", "kw"]);
        assert!(py.parameters[1].optional && py.parameters[3].keyword_only);

        let go = read(
            Lang::Go,
            "ParseBuildInfo",
            "func ParseBuildInfo(data string) (bi *BuildInfo, err error)",
        )
        .unwrap();
        assert_eq!(names(&go), ["data"]);
        assert_eq!(go.results, ["*BuildInfo", "error"]);
        let m = read(
            Lang::Go,
            "Do",
            "func (c *Client) Do(a, b int, rest ...string) error",
        )
        .unwrap();
        assert!(m.method);
        assert_eq!(names(&m), ["a", "b", "rest"]);
        assert_eq!(m.parameters[0].ty.as_deref(), Some("int"));
        assert!(m.parameters[2].variadic);
        assert_eq!(m.results, ["error"]);
        assert_eq!(read(Lang::Go, "F", "func F(int, string) error"), None);
        let bytes = read(Lang::Go, "F", "func F() ([]byte, error)").unwrap();
        assert_eq!(bytes.results, ["[]byte", "error"]);

        let java = read(
            Lang::Java,
            "getByName",
            "public static InetAddress getByName(final String host, Map<String, Integer> m, byte b[], int... xs) throws UnknownHostException",
        )
        .unwrap();
        assert!(java.is_static);
        assert_eq!(names(&java), ["host", "m", "b", "xs"]);
        let spaced = read(
            Lang::Java,
            "getMIC",
            "public byte[] getMIC(byte []inMsg, int offset)",
        )
        .unwrap();
        assert_eq!(names(&spaced), ["inMsg", "offset"]);
        assert_eq!(spaced.parameters[0].ty.as_deref(), Some("byte[]"));
        assert_eq!(java.parameters[2].ty.as_deref(), Some("byte[]"));
        assert!(java.parameters[3].variadic);

        let rust = read(
            Lang::Rust,
            "new",
            "pub fn new<'a, F: Fn(u8) -> bool>(&mut self, pattern: &'a str, f: F) -> Result<Regex, Error>",
        )
        .unwrap();
        assert!(rust.method);
        assert_eq!(names(&rust), ["pattern", "f"]);
    }
}
