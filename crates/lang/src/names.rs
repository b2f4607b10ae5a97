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

#[cfg(test)]
mod tests {
    use super::names;

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
}
