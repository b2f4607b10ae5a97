//! Which identifiers an answer names that neither the source nor the facts do.
//!
//! A model that explains an error site tends to invent helpers (`isLeaseStale()`), options
//! (`config.allowReuse`) and values that look plausible and do not exist. Every identifier
//! the answer uses must therefore be found in the source window or in the facts, be a keyword
//! or a common builtin of the record's language, or be declared by the answer's own code (the
//! type guard's function, a parameter, a caught error, a local variable): a name the answer
//! defines is not a claim about the project.
//!
//! The check is lexical. Comments and string literals are dropped from code; prose contributes
//! the spans it puts in backticks. Declarations are recognised by a handful of patterns per
//! language (`function f(a)`, `catch (e)`, `let x =`, `x := `, `except E as e`, `|x|`,
//! `Err(e) =>`, `Type name =`), which errs towards accepting a name rather than rejecting a
//! good answer.

use std::collections::{BTreeSet, HashSet};

use crate::lang::Lang;
use crate::Fields;

/// Identifiers named by the fields that occur neither in `source` nor in `facts`, sorted and
/// deduplicated.
///
/// The identifiers are those of the code fields (`exampleFix`, `validationCode`, `typeGuard`,
/// `tryCatchPattern`) and of the backticked spans of the prose fields (`documentation`,
/// `triggerScenarios`, `commonSituations`, `solutions`, `preventionTips`), with comments and
/// string literals removed; `a.b.c` counts each of `a`, `b` and `c`. Not reported: the
/// keywords and common builtins of the language of `lang_ext` (an extension such as `ts`, or a
/// path), and the names the answer's code declares itself. `source` and `facts` are taken
/// whole, strings and comments included, split at every character that cannot be in an
/// identifier.
pub fn unknown_identifiers(
    fields: &Fields,
    lang_ext: &str,
    source: &str,
    facts: &str,
) -> Vec<String> {
    let lang = Lang::from_ext(lang_ext);
    let known: HashSet<&str> = words(source).chain(words(facts)).collect();
    let mut snippets: Vec<Vec<Tok<'_>>> = fields.code().iter().map(|c| lex(c, lang)).collect();
    for prose in fields.prose() {
        snippets.extend(backtick_spans(prose).into_iter().map(|s| lex(s, lang)));
    }
    let mut declared = HashSet::new();
    for toks in &snippets {
        declarations(toks, lang, &mut declared);
    }
    let unknown: BTreeSet<&str> = snippets
        .iter()
        .flatten()
        .filter_map(|t| t.ident())
        .filter(|w| !known.contains(w) && !declared.contains(w) && !lang.is_builtin(w))
        .collect();
    unknown.into_iter().map(str::to_owned).collect()
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$'
}

fn is_ident_continue(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Every identifier-like word of a text.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_ident_continue(c))
        .filter(|w| w.chars().next().is_some_and(is_ident_start))
}

/// The contents of the backtick spans of Markdown-ish prose: `` `x` ``, ``` ``x`` ```, and
/// fenced blocks without their info string.
fn backtick_spans(text: &str) -> Vec<&str> {
    let mut spans = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let after = &rest[open..];
        let n = after.len() - after.trim_start_matches('`').len();
        let (fence, body) = after.split_at(n);
        // The span closes at the next run of exactly as many backticks.
        let mut from = 0;
        let mut close = None;
        while let Some(k) = body[from..].find(fence) {
            let at = from + k;
            let run = body[at..].len() - body[at..].trim_start_matches('`').len();
            if run == n {
                close = Some(at);
                break;
            }
            from = at + run;
        }
        let Some(at) = close else { break };
        let mut span = &body[..at];
        if n >= 3 {
            if let Some((info, code)) = span.split_once('\n') {
                if info.trim().chars().all(char::is_alphanumeric) {
                    span = code;
                }
            }
        }
        spans.push(span);
        rest = &body[at + n..];
    }
    spans
}

/// A token of code: an identifier or a piece of punctuation. Numbers, strings and comments
/// are dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok<'a> {
    Ident(&'a str),
    Punct(&'a str),
}

impl<'a> Tok<'a> {
    fn ident(self) -> Option<&'a str> {
        match self {
            Tok::Ident(w) => Some(w),
            Tok::Punct(_) => None,
        }
    }
}

/// Operators that the declaration patterns must not see as two tokens, longest first.
const OPERATORS: &[&str] = &[
    "...", "===", "!==", "**=", "//=", "<<=", ">>=", "??=", "||=", "&&=", "::", ":=", "=>", "->",
    "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "**", "+=", "-=", "*=", "/=", "%=", "|=", "&=",
    "^=",
];

fn lex(src: &str, lang: Lang) -> Vec<Tok<'_>> {
    let mut lexer = Lexer {
        src,
        pos: 0,
        lang,
        toks: Vec::new(),
    };
    lexer.code(false);
    lexer.toks
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    lang: Lang,
    toks: Vec<Tok<'a>>,
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn skip_past(&mut self, end: &str) {
        match self.rest().find(end) {
            Some(i) => self.pos += i + end.len(),
            None => self.pos = self.src.len(),
        }
    }

    /// Code to the end, or, with `template`, to the `}` that closes a template literal's
    /// `${`.
    fn code(&mut self, template: bool) {
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            let rest = self.rest();
            let slash = self.lang.slash_comments();
            if c.is_whitespace() {
                self.bump();
            } else if slash && rest.starts_with("//") {
                self.skip_past("\n");
            } else if slash && rest.starts_with("/*") {
                self.pos += 2;
                self.skip_past("*/");
            } else if self.lang.hash_comments() && c == '#' {
                self.skip_past("\n");
            } else if is_ident_start(c) {
                self.word();
            } else if c.is_ascii_digit() {
                self.number();
            } else if c == '"' {
                self.string('"');
            } else if c == '\'' {
                self.quote();
            } else if c == '`' && self.lang.is_js() {
                self.template();
            } else if c == '`' {
                // Go's raw strings; nowhere else is a backtick code.
                self.bump();
                self.skip_past("`");
            } else if template && c == '{' {
                depth += 1;
                self.punct();
            } else if template && c == '}' {
                if depth == 0 {
                    self.bump();
                    return;
                }
                depth -= 1;
                self.punct();
            } else {
                self.punct();
            }
        }
    }

    /// An identifier, or the prefix of a string literal (`f"…"`, `r#"…"#`).
    fn word(&mut self) {
        let start = self.pos;
        while self.peek().is_some_and(is_ident_continue) {
            self.bump();
        }
        let word = &self.src[start..self.pos];
        match (self.lang, self.peek()) {
            (Lang::Python, Some(q @ ('"' | '\'')))
                if word.len() <= 2 && word.chars().all(|c| "rRbBfFuU".contains(c)) =>
            {
                self.string(q);
                return;
            }
            (Lang::Rust, Some('"')) if matches!(word, "b" | "c") => {
                self.string('"');
                return;
            }
            (Lang::Rust, Some('\'')) if word == "b" => {
                self.quote();
                return;
            }
            (Lang::Rust, Some('"' | '#')) if matches!(word, "r" | "br" | "cr") => {
                if self.raw_string() {
                    return;
                }
                if word == "r" {
                    // A raw identifier, `r#type`: the word after `#` is the identifier.
                    self.bump();
                    return;
                }
            }
            _ => {}
        }
        self.toks.push(Tok::Ident(word));
    }

    /// Rust's `r"…"`, `r#"…"#`, after the `r`; false, consuming nothing, when the `#`s are
    /// not followed by a quote.
    fn raw_string(&mut self) -> bool {
        let rest = self.rest();
        let hashes = rest.len() - rest.trim_start_matches('#').len();
        if !rest[hashes..].starts_with('"') {
            return false;
        }
        self.pos += hashes + 1;
        let end = format!("\"{}", "#".repeat(hashes));
        self.skip_past(&end);
        true
    }

    fn number(&mut self) {
        while let Some(c) = self.peek() {
            let decimal_point = c == '.'
                && self.rest()[1..]
                    .chars()
                    .next()
                    .is_some_and(|d| d.is_ascii_digit());
            if c.is_alphanumeric() || c == '_' || decimal_point {
                self.bump();
            } else {
                break;
            }
        }
    }

    /// A string literal opened by `q`, with Python's and Java's triple-quoted forms.
    fn string(&mut self, q: char) {
        let triple = q.to_string().repeat(3);
        if matches!(self.lang, Lang::Python | Lang::Java | Lang::Other)
            && self.rest().starts_with(&triple)
        {
            self.pos += 3;
            while let Some(c) = self.bump() {
                if c == '\\' {
                    self.bump();
                } else if c == q && self.rest().starts_with(&triple[1..]) {
                    self.pos += 2;
                    return;
                }
            }
            return;
        }
        self.bump();
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    self.bump();
                }
                c if c == q => return,
                // An unterminated literal ends with its line, so that one stray quote does
                // not hide the rest of the snippet.
                '\n' if self.lang != Lang::Rust => return,
                _ => {}
            }
        }
    }

    /// A `'`: a character literal, a string, or Rust's lifetime or label.
    fn quote(&mut self) {
        if self.lang != Lang::Rust {
            return self.string('\'');
        }
        let mut after = self.rest()[1..].chars();
        match (after.next(), after.next()) {
            (Some('\\'), _) | (Some(_), Some('\'')) => self.string('\''),
            _ => {
                // `'a`: neither a claim about the source nor an identifier to check.
                self.bump();
                while self.peek().is_some_and(is_ident_continue) {
                    self.bump();
                }
            }
        }
    }

    /// A JavaScript template literal, whose `${…}` parts are code.
    fn template(&mut self) {
        self.bump();
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    self.bump();
                }
                '`' => return,
                '$' if self.peek() == Some('{') => {
                    self.bump();
                    self.code(true);
                }
                _ => {}
            }
        }
    }

    fn punct(&mut self) {
        let rest = self.rest();
        let len = match OPERATORS.iter().find(|op| rest.starts_with(**op)) {
            Some(op) => op.len(),
            None => self.peek().map_or(0, char::len_utf8),
        };
        self.toks.push(Tok::Punct(&rest[..len]));
        self.pos += len;
    }
}

/// Adds to `out` the names that the code in `toks` declares.
fn declarations<'a>(toks: &[Tok<'a>], lang: Lang, out: &mut HashSet<&'a str>) {
    for (i, tok) in toks.iter().enumerate() {
        match *tok {
            Tok::Ident("function" | "def" | "fn" | "func") => function(toks, i + 1, lang, out),
            Tok::Ident(
                "class" | "interface" | "struct" | "trait" | "enum" | "type" | "namespace"
                | "record" | "mod",
            ) => {
                if let Some(name) = toks.get(i + 1).and_then(|t| t.ident()) {
                    out.insert(name);
                }
            }
            Tok::Ident("let" | "const" | "var") => binding(toks, i + 1, lang, out),
            Tok::Ident("static") if lang == Lang::Rust => binding(toks, i + 1, lang, out),
            Tok::Ident("catch") => catch(toks, i + 1, lang, out),
            Tok::Ident("for") => for_targets(toks, i + 1, out),
            Tok::Ident("as") if lang == Lang::Python => {
                if let Some(name) = toks.get(i + 1).and_then(|t| t.ident()) {
                    out.insert(name);
                }
            }
            Tok::Ident("lambda") if lang == Lang::Python => {
                let params = toks[i + 1..].iter().take_while(|t| **t != Tok::Punct(":"));
                out.extend(params.filter_map(|t| t.ident()));
            }
            Tok::Punct("=>") if lang == Lang::Rust => match_arm(toks, i, out),
            Tok::Punct("=>") => arrow(toks, i, lang, out),
            Tok::Punct("->") if matches!(lang, Lang::Java | Lang::Other) => {
                arrow(toks, i, lang, out)
            }
            Tok::Punct(":=") => assigned(toks, i, out),
            Tok::Punct("=") if lang == Lang::Python => assigned(toks, i, out),
            Tok::Punct("|") if lang == Lang::Rust => closure(toks, i, out),
            Tok::Ident(name) if lang == Lang::Java && java_declares(toks, i) => {
                out.insert(name);
            }
            _ => {}
        }
    }
}

/// Modifiers that stand before a parameter's or a binding's name.
const MODIFIERS: &[&str] = &[
    "mut",
    "ref",
    "final",
    "readonly",
    "public",
    "private",
    "protected",
    "override",
    "const",
    "let",
    "var",
];

/// The index of the bracket that closes the one at `open`.
fn close(toks: &[Tok<'_>], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The index of the bracket that opens the one that closes at `end`.
fn open_of(toks: &[Tok<'_>], end: usize) -> Option<usize> {
    let mut depth = 0usize;
    for k in (0..=end).rev() {
        match toks[k] {
            Tok::Punct(")" | "]" | "}") => depth += 1,
            Tok::Punct("(" | "[" | "{") => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// `toks` cut at the commas outside brackets.
fn split_commas<'t, 'a>(toks: &'t [Tok<'a>]) -> Vec<&'t [Tok<'a>]> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (k, t) in toks.iter().enumerate() {
        match t {
            Tok::Punct("(" | "[" | "{" | "<") => depth += 1,
            Tok::Punct(")" | "]" | "}" | ">") => depth = depth.saturating_sub(1),
            Tok::Punct(",") if depth == 0 => {
                parts.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    parts
}

/// Whether the identifier at `k` binds a name in a pattern (`{ a, b: c }`, `(x, y)`,
/// `Some(v)`), rather than naming a type, a constructor, a field or a path.
fn binds(toks: &[Tok<'_>], k: usize, nested: bool) -> bool {
    let Some(name) = toks[k].ident() else {
        return false;
    };
    let next = toks.get(k + 1).copied();
    let prev = k.checked_sub(1).map(|p| toks[p]);
    let modifier = MODIFIERS.contains(&name);
    let called_or_path = matches!(next, Some(Tok::Punct("(" | "::" | "{" | "!" | "." | "?.")));
    let field_key = nested && next == Some(Tok::Punct(":"));
    let member = matches!(prev, Some(Tok::Punct("::" | "." | "?.")));
    !(modifier || called_or_path || field_key || member)
}

/// The names bound by a pattern: every identifier of a destructuring, or the first plain
/// one.
fn pattern<'a>(toks: &[Tok<'a>], out: &mut HashSet<&'a str>) {
    match toks.first() {
        Some(Tok::Punct("{" | "[" | "(")) => {
            let end = close(toks, 0).unwrap_or(toks.len());
            out.extend(
                (1..end)
                    .filter(|&k| binds(toks, k, true))
                    .filter_map(|k| toks[k].ident()),
            );
        }
        _ => {
            if let Some(name) = toks
                .iter()
                .filter_map(|t| t.ident())
                .find(|w| !MODIFIERS.contains(w))
            {
                out.insert(name);
            }
        }
    }
}

/// The parameters between the brackets at `open` and `end`: in Java the last identifier of
/// each (`final String name`), elsewhere the first (`name: string`, `name string`, `*args`).
fn params<'a>(toks: &[Tok<'a>], open: usize, end: usize, lang: Lang, out: &mut HashSet<&'a str>) {
    for param in split_commas(&toks[open + 1..end]) {
        if lang == Lang::Java {
            let until = param
                .iter()
                .position(|t| *t == Tok::Punct("="))
                .unwrap_or(param.len());
            if let Some(name) = param[..until].iter().rev().find_map(|t| t.ident()) {
                out.insert(name);
            }
        } else {
            pattern(param, out);
        }
    }
}

/// After `function`, `def`, `fn` or `func`: the name, and the parameters (and a Go method's
/// receiver).
fn function<'a>(toks: &[Tok<'a>], mut j: usize, lang: Lang, out: &mut HashSet<&'a str>) {
    if matches!(lang, Lang::Go | Lang::Other) && toks.get(j) == Some(&Tok::Punct("(")) {
        // `func (r *T) Name(…)`, or an anonymous `func(…)`.
        let Some(end) = close(toks, j) else { return };
        params(toks, j, end, lang, out);
        j = end + 1;
        if toks.get(j + 1) != Some(&Tok::Punct("(")) {
            return;
        }
    }
    if toks.get(j) == Some(&Tok::Punct("*")) {
        j += 1;
    }
    if let Some(name) = toks.get(j).and_then(|t| t.ident()) {
        out.insert(name);
        j += 1;
    }
    if toks.get(j) == Some(&Tok::Punct("<")) {
        let mut depth = 0usize;
        while let Some(t) = toks.get(j) {
            j += 1;
            match t {
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    if toks.get(j) == Some(&Tok::Punct("(")) {
        if let Some(end) = close(toks, j) {
            params(toks, j, end, lang, out);
        }
    }
}

/// After `let`, `const`, `var` or Rust's `static`: the names bound, up to `=`, `:`, `;`, `in` or
/// `of`.
fn binding<'a>(toks: &[Tok<'a>], mut j: usize, lang: Lang, out: &mut HashSet<&'a str>) {
    while matches!(toks.get(j), Some(Tok::Ident("mut" | "ref"))) {
        j += 1;
    }
    if matches!(lang, Lang::Go | Lang::Java) {
        // `var a, b T`: the names, not the type.
        while let Some(name) = toks.get(j).and_then(|t| t.ident()) {
            out.insert(name);
            if toks.get(j + 1) != Some(&Tok::Punct(",")) {
                break;
            }
            j += 2;
        }
        return;
    }
    let mut depth = 0usize;
    for k in j..toks.len().min(j + 64) {
        match toks[k] {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => break,
            },
            Tok::Punct("=" | ":" | ";") | Tok::Ident("in" | "of" | "else") if depth == 0 => break,
            Tok::Ident(name) if binds(toks, k, depth > 0) => {
                out.insert(name);
            }
            _ => {}
        }
    }
}

/// After `catch`: the caught error, `(e)`, `(e: unknown)`, `(IOException e)`.
fn catch<'a>(toks: &[Tok<'a>], j: usize, lang: Lang, out: &mut HashSet<&'a str>) {
    if toks.get(j) != Some(&Tok::Punct("(")) {
        return;
    }
    let Some(end) = close(toks, j) else { return };
    let inner = &toks[j + 1..end];
    let mut names = inner.iter().filter_map(|t| t.ident());
    let name = if lang == Lang::Java {
        names.next_back()
    } else {
        names.next()
    };
    out.extend(name);
}

/// After `for`: the loop variables before `in` (Python, Rust, JavaScript's `for (k in o)`).
fn for_targets<'a>(toks: &[Tok<'a>], j: usize, out: &mut HashSet<&'a str>) {
    let window = &toks[j.min(toks.len())..toks.len().min(j + 16)];
    let Some(end) = window.iter().position(|t| *t == Tok::Ident("in")) else {
        return;
    };
    let targets = &window[..end];
    if targets
        .iter()
        .any(|t| matches!(t, Tok::Punct("{" | ";" | ":=" | "=")))
    {
        return;
    }
    out.extend(
        targets
            .iter()
            .filter_map(|t| t.ident())
            .filter(|w| !MODIFIERS.contains(w)),
    );
}

/// Before `:=` (Go) or Python's `=`: `a, err :=`, `x =`, but not `obj.x =`.
fn assigned<'a>(toks: &[Tok<'a>], at: usize, out: &mut HashSet<&'a str>) {
    let mut k = at;
    let mut last = true;
    while let Some(name) = k.checked_sub(1).and_then(|p| toks[p].ident()) {
        k -= 1;
        match k.checked_sub(1).map(|p| toks[p]) {
            Some(Tok::Punct("." | "?.")) => break,
            Some(Tok::Punct(":")) if last => {
                // Python's `x: int = 1` declares `x`, `else: x = 1` declares `x`; without the
                // line breaks the two read alike, so both names count.
                out.insert(name);
                out.extend(k.checked_sub(2).and_then(|p| toks[p].ident()));
                break;
            }
            _ => {}
        }
        out.insert(name);
        last = false;
        if k < 2 || toks[k - 1] != Tok::Punct(",") {
            break;
        }
        k -= 1;
    }
}

/// Before `=>` (JavaScript) or `->` (Java): `e =>`, `(a, b) =>`, `(e): boolean =>`.
fn arrow<'a>(toks: &[Tok<'a>], at: usize, lang: Lang, out: &mut HashSet<&'a str>) {
    let Some(mut k) = at.checked_sub(1) else {
        return;
    };
    // Step over a TypeScript return type.
    if toks[k].ident().is_some() && k >= 2 && toks[k - 1] == Tok::Punct(":") {
        k -= 2;
    }
    match toks[k] {
        Tok::Ident(name) => {
            out.insert(name);
        }
        Tok::Punct(")") => {
            if let Some(open) = open_of(toks, k) {
                params(toks, open, k, lang, out);
            }
        }
        _ => {}
    }
}

/// Before a Rust match arm's `=>`: the names its pattern binds, `Err(e)`, `Some(ref v)`,
/// `Foo { a, b: c }`, but not its guard.
fn match_arm<'a>(toks: &[Tok<'a>], at: usize, out: &mut HashSet<&'a str>) {
    // The pattern starts after the `{` or `,` that ends the previous arm, or after the block
    // that is the previous arm's body.
    let mut start = 0;
    let mut depth = 0usize;
    let mut k = at;
    while k > 0 {
        k -= 1;
        match toks[k] {
            Tok::Punct("}") if depth == 0 => {
                let open = open_of(toks, k);
                match open {
                    Some(o) if o > 0 && toks[o - 1].ident().is_some() => k = o,
                    _ => {
                        start = k + 1;
                        break;
                    }
                }
            }
            Tok::Punct(")" | "]" | "}") => depth += 1,
            Tok::Punct("(" | "[" | "{") => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => {
                    start = k + 1;
                    break;
                }
            },
            Tok::Punct("," | ";" | "=>") if depth == 0 => {
                start = k + 1;
                break;
            }
            _ => {}
        }
    }
    let arm = &toks[start..at];
    let end = arm
        .iter()
        .position(|t| *t == Tok::Ident("if"))
        .unwrap_or(arm.len());
    let pattern = &arm[..end];
    for (k, t) in pattern.iter().enumerate() {
        let Tok::Ident(name) = *t else { continue };
        let lower = name.starts_with(|c: char| c.is_lowercase() || c == '_');
        if lower && binds(pattern, k, true) {
            out.insert(name);
        }
    }
}

/// A Rust closure's parameters, when the `|` at `at` opens them.
fn closure<'a>(toks: &[Tok<'a>], at: usize, out: &mut HashSet<&'a str>) {
    let opens = match at.checked_sub(1).map(|p| toks[p]) {
        None => true,
        Some(Tok::Punct(p)) => !matches!(p, ")" | "]" | "}"),
        Some(Tok::Ident(w)) => matches!(w, "move" | "return" | "async"),
    };
    if !opens {
        return;
    }
    let Some(len) = toks[at + 1..].iter().position(|t| *t == Tok::Punct("|")) else {
        return;
    };
    params(toks, at, at + 1 + len, Lang::Rust, out);
}

/// Words after which an identifier is not a Java declaration's name (`return x;`).
const JAVA_NOT_TYPES: &[&str] = &[
    "return",
    "throw",
    "new",
    "case",
    "instanceof",
    "else",
    "do",
    "yield",
    "assert",
    "throws",
    "extends",
    "implements",
    "import",
    "package",
    "class",
    "interface",
    "enum",
    "record",
    "break",
    "continue",
    "default",
    "goto",
];

/// Whether the identifier at `k` is the name of a Java declaration: after a type (`String s`,
/// `List<T> xs`, `int[] a`), before `=`, `;`, `,`, `)`, `:` or a method's `(`.
fn java_declares(toks: &[Tok<'_>], k: usize) -> bool {
    let after_type = match k.checked_sub(1).map(|p| toks[p]) {
        Some(Tok::Ident(w)) => !JAVA_NOT_TYPES.contains(&w),
        Some(Tok::Punct("]" | ">")) => true,
        _ => false,
    };
    let before_end = matches!(
        toks.get(k + 1),
        None | Some(Tok::Punct("=" | ";" | "," | ")" | ":" | "("))
    );
    after_type && before_end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(code: &str, ext: &str) -> Vec<String> {
        lex(code, Lang::from_ext(ext))
            .into_iter()
            .filter_map(|t| t.ident())
            .map(str::to_owned)
            .collect()
    }

    fn declared(code: &str, ext: &str) -> Vec<String> {
        let lang = Lang::from_ext(ext);
        let toks = lex(code, lang);
        let mut out = HashSet::new();
        declarations(&toks, lang, &mut out);
        let out: BTreeSet<&str> = out.into_iter().collect();
        out.into_iter().map(str::to_owned).collect()
    }

    #[test]
    fn comments_and_strings_are_not_code() {
        assert_eq!(
            idents("a // b\n/* c */ d('e', \"f\", `g ${h} i`)", "ts"),
            ["a", "d", "h"]
        );
        assert_eq!(idents("a # b\nc('''d''', f\"e\")", "py"), ["a", "c"]);
        assert_eq!(
            idents("fn a<'x>(b: &'x str) { c('d'); r#\"e\"# }", "rs"),
            ["fn", "a", "b", "str", "c"]
        );
        assert_eq!(idents("a := `b` + 'c' // d", "go"), ["a"]);
        assert_eq!(
            idents("String a = \"\"\"\nb\n\"\"\";", "java"),
            ["String", "a"]
        );
    }

    #[test]
    fn numbers_are_not_identifiers() {
        assert_eq!(idents("a(404, 1.5e3, 0xff, 10n)", "ts"), ["a"]);
    }

    #[test]
    fn spans_come_from_backticks_and_fences() {
        assert_eq!(
            backtick_spans("call `a.b()` or ``c`d`` then\n```ts\ne();\n```\nand `unclosed"),
            ["a.b()", "c`d", "e();\n"]
        );
    }

    #[test]
    fn typescript_declarations() {
        assert_eq!(
            declared(
                "function isX(e: unknown, { a, b: c }: P): e is Y { const [d] = f; let g: T = 1; }",
                "ts"
            ),
            ["a", "c", "d", "e", "g", "isX"]
        );
        assert_eq!(
            declared(
                "try { x() } catch (err) { xs.map((y, z) => w); q => 1 }",
                "ts"
            ),
            ["err", "q", "y", "z"]
        );
        assert_eq!(declared("for (const k of ks) {}", "js"), ["k"]);
    }

    #[test]
    fn python_declarations() {
        assert_eq!(
            declared(
                "def f(self, a, *args, b: int = 1):\n  try:\n    x, y = g(a)\n  except E as e:\n    self.z = 1\n  for k, v in d.items(): pass\n  h = lambda q: q",
                "py"
            ),
            // `b: int = 1` reads like `else: b = 1`, so `int` counts too.
            ["a", "args", "b", "e", "f", "h", "int", "k", "q", "self", "v", "x", "y"]
        );
    }

    #[test]
    fn go_declarations() {
        assert_eq!(
            declared(
                "func (s *Store) Get(ctx context.Context, id string) (T, error) { v, err := s.load(id); var n, m int; return v, err }",
                "go"
            ),
            ["Get", "ctx", "err", "id", "m", "n", "s", "v"]
        );
        assert_eq!(
            declared("f(func(e error) bool { return true })", "go"),
            ["e"]
        );
    }

    #[test]
    fn rust_declarations() {
        assert_eq!(
            declared(
                "fn check(path: &Path, mut n: u32) -> Result<(), E> { let Some(x) = y else { return }; match r { Ok(v) => {} Err(Error::Io { source: s, .. }) if s.kind() => {}, Err(e) => {} } xs.iter().map(|(a, b)| a) }",
                "rs"
            ),
            ["a", "b", "check", "e", "n", "path", "s", "v", "x"]
        );
    }

    #[test]
    fn java_declarations() {
        assert_eq!(
            declared(
                "static boolean isX(final Throwable t) { try { List<String> xs = f(); int[] a = g(); return t instanceof Foo; } catch (IOException e) { throw e; } }",
                "java"
            ),
            ["a", "e", "isX", "t", "xs"]
        );
    }

    /// Fields whose code is `code` (all four code fields) and whose prose is `prose`.
    fn answer(code: &str, prose: &str) -> Fields {
        Fields {
            documentation: prose.into(),
            trigger_scenarios: "t".into(),
            common_situations: "c".into(),
            solutions: vec!["s".into()],
            example_fix: code.into(),
            handling_strategy: errata_model::HandlingStrategy::FixInput,
            validation_code: code.into(),
            type_guard: code.into(),
            try_catch_pattern: code.into(),
            prevention_tips: vec!["p".into()],
            tags: vec!["t".into()],
            background_tag: errata_model::BackgroundTag::InvalidInput,
        }
    }

    #[test]
    fn a_python_answer_is_held_to_the_source() {
        let source = "def load(path):\n    if not os.path.exists(path):\n        raise ConfigError(f\"missing {path}\")\n";
        let code = "import os\n\ndef is_missing_config(exc: Exception) -> bool:\n    return isinstance(exc, ConfigError) and 'missing' in str(exc)\n\ntry:\n    cfg = load(path)\nexcept ConfigError as err:\n    logger.warning('no config: %s', err)\n    cfg = load_defaults()  # invented\n";
        let prose =
            "Raised by `load` when `os.path.exists(path)` is false; see `Settings.reload()`.";
        assert_eq!(
            unknown_identifiers(&answer(code, prose), "py", source, ""),
            ["Settings", "load_defaults", "reload"]
        );
    }

    #[test]
    fn a_go_answer_is_held_to_the_source() {
        let source = "func (s *Store) Get(id string) (*Item, error) {\n\tif id == \"\" {\n\t\treturn nil, ErrEmptyID\n\t}\n";
        let code = "item, err := s.Get(id)\nif errors.Is(err, ErrEmptyID) {\n\treturn fmt.Errorf(\"get: %w\", err)\n}\nfunc isEmptyID(err error) bool { return errors.Is(err, ErrEmptyID) }\n_ = item; s.Retry(ctx)";
        assert_eq!(
            unknown_identifiers(&answer(code, ""), "go", source, ""),
            ["Retry", "ctx"]
        );
    }

    #[test]
    fn a_rust_answer_is_held_to_the_source() {
        let source = "pub fn open(path: &Path) -> Result<Db, OpenError> {\n    let file = File::open(path).map_err(OpenError::Io)?;\n";
        let code = "match open(path) {\n    Ok(db) => db,\n    Err(OpenError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Db::create(path)?,\n    Err(e) => return Err(e.into()),\n}\nfn is_io(e: &OpenError) -> bool { matches!(e, OpenError::Io(_)) }";
        assert_eq!(
            unknown_identifiers(
                &answer(code, "Returned by `open` when `File::open` fails."),
                "rs",
                source,
                ""
            ),
            ["NotFound", "create"]
        );
        // The facts may name what the source window does not.
        let facts = r#"{"callers": ["Db::create"], "variants": ["NotFound"]}"#;
        assert!(unknown_identifiers(&answer(code, ""), "rs", source, facts).is_empty());
    }

    #[test]
    fn a_java_answer_is_held_to_the_source() {
        let source = "public Order place(Cart cart) {\n  if (cart.isEmpty()) throw new EmptyCartException(\"cart is empty\");\n";
        let code = "public static boolean isEmptyCart(Throwable t) { return t instanceof EmptyCartException; }\ntry {\n  Order order = service.place(cart);\n} catch (EmptyCartException e) {\n  log.warn(\"empty cart\", e);\n  cart.addDefaultItem();\n}";
        assert_eq!(
            unknown_identifiers(&answer(code, ""), "java", source, ""),
            ["addDefaultItem", "service"]
        );
    }
}
