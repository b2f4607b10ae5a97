//! The calls and definitions of a whole repository, by name: what a record's entry point is
//! found with, walking from the function that raises up to one that code outside calls.
//!
//! Names and files are interned, so that a graph of the JDK (about a million references) takes
//! tens of megabytes, not the size of its references' text.

use std::collections::HashMap;

use errata_model::RefKind;

use crate::{Result, Store};

/// A call of a function, by the callee's name.
#[derive(Debug, Clone, Copy)]
struct Call {
    file: u32,
    line: u32,
    /// The function the call is in.
    caller: u32,
    /// How the callee is named: [`BARE`], [`SELF`], [`OTHER`], or a qualifier's name id plus
    /// [`QUALIFIED`].
    via: u32,
    /// How many arguments the call passes, when its text shows them all.
    arity: Option<u8>,
}

const BARE: u32 = 0;
const SELF: u32 = 1;
const OTHER: u32 = 2;
const QUALIFIED: u32 = 3;

/// How a call names its callee.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via<'a> {
    /// `f(…)`.
    Bare,
    /// `self.f(…)`, `this.f(…)`, `super.f(…)`, `Self::f(…)`.
    Own,
    /// Through one name: `ssl.f(…)`, `strconv.Atoi(…)`, `Paths.get(…)`, `read_buf::f(…)`.
    Qualified(&'a str),
    /// Through an expression (`a.b.f(…)`, `x().f(…)`): what it reaches is not known.
    Other,
}

/// The definition of a function.
#[derive(Debug, Clone)]
struct Def {
    file: u32,
    line: u32,
    /// Defined inside another function (a closure, a nested `def`, an anonymous class).
    nested: bool,
    /// Callable from outside its module though its head does not say so ([`RefKind::Exposed`]).
    exposed: bool,
    signature: Box<str>,
}

/// One file of the graph.
#[derive(Debug, Clone)]
struct File {
    path: String,
    in_tests: bool,
}

/// A function's definition, as [`CallGraph::definition`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition<'a> {
    pub file: &'a str,
    pub line: u32,
    pub nested: bool,
    /// Callable from outside its module though its head does not say so: a method of a Rust
    /// trait or trait `impl`, of a Java interface, an exported JavaScript function or method.
    pub exposed: bool,
    /// The declaration up to its body, on one line.
    pub signature: &'a str,
}

/// A call, as [`CallGraph::calls_of`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite<'a> {
    pub file: &'a str,
    pub line: u32,
    /// The function the call is in.
    pub caller: &'a str,
    pub in_tests: bool,
    pub via: Via<'a>,
    /// How many arguments the call passes, when its text shows them all.
    pub arity: Option<u8>,
}

/// Every call and definition of a repository, by name.
#[derive(Debug, Default)]
pub struct CallGraph {
    names: HashMap<String, u32>,
    name_of: Vec<String>,
    files: Vec<File>,
    file_ids: HashMap<String, u32>,
    calls: HashMap<(u32, u8), Vec<Call>>,
    defs: HashMap<(u32, u8), Vec<Def>>,
}

impl CallGraph {
    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.names.get(name) {
            return id;
        }
        let id = self.name_of.len() as u32;
        self.name_of.push(name.to_owned());
        self.names.insert(name.to_owned(), id);
        id
    }

    fn add_file(&mut self, path: &str, family: u8, refs: &str) {
        let file = self.files.len() as u32;
        self.file_ids.insert(path.to_owned(), file);
        self.files.push(File {
            path: path.to_owned(),
            in_tests: errata_model::is_test_path(path),
        });
        for line in refs.lines() {
            let Some((kind, name, line, function, text)) = crate::links::ref_fields(line) else {
                continue;
            };
            match kind {
                RefKind::Call if !function.is_empty() => {
                    let callee = self.intern(name);
                    let caller = self.intern(function);
                    let via = match via(text, name) {
                        Via::Bare => BARE,
                        Via::Own => SELF,
                        Via::Other => OTHER,
                        Via::Qualified(q) => QUALIFIED + self.intern(q),
                    };
                    self.calls.entry((callee, family)).or_default().push(Call {
                        file,
                        line,
                        caller,
                        via,
                        arity: call_arity(text, name).and_then(|n| u8::try_from(n).ok()),
                    });
                }
                RefKind::Definition => {
                    let name = self.intern(name);
                    self.defs.entry((name, family)).or_default().push(Def {
                        file,
                        line,
                        nested: !function.is_empty(),
                        exposed: false,
                        signature: text.into(),
                    });
                }
                RefKind::Exposed => {
                    // It follows the definition it marks.
                    let id = self.intern(name);
                    if let Some(d) = self
                        .defs
                        .get_mut(&(id, family))
                        .and_then(|list| list.last_mut())
                        .filter(|d| d.file == file && d.line == line)
                    {
                        d.exposed = true;
                    }
                }
                _ => {}
            }
        }
    }

    /// The calls of `name` from `file` alone (files are read in path order, so each list is in
    /// file order and the file's calls are found by bisection).
    pub fn calls_in<'a>(
        &'a self,
        name: &str,
        family: u8,
        file: &str,
    ) -> impl Iterator<Item = CallSite<'a>> + 'a {
        let id = self.file_ids.get(file).copied();
        let calls: &[Call] = match (self.names.get(name), id) {
            (Some(n), Some(id)) => self.calls.get(&(*n, family)).map_or(&[], |v| {
                let from = v.partition_point(|c| c.file < id);
                let to = v.partition_point(|c| c.file <= id);
                &v[from..to]
            }),
            _ => &[],
        };
        calls.iter().map(|c| self.call_site(c))
    }

    fn call_site(&self, c: &Call) -> CallSite<'_> {
        let file = &self.files[c.file as usize];
        CallSite {
            file: &file.path,
            line: c.line,
            caller: &self.name_of[c.caller as usize],
            in_tests: file.in_tests,
            via: match c.via {
                BARE => Via::Bare,
                SELF => Via::Own,
                OTHER => Via::Other,
                q => Via::Qualified(&self.name_of[(q - QUALIFIED) as usize]),
            },
            arity: c.arity,
        }
    }

    /// Whether the repository has a file at `path`.
    pub fn has_file(&self, path: &str) -> bool {
        self.file_ids.contains_key(path)
    }

    /// How many files of `family` define a function named `name`.
    pub fn definitions(&self, name: &str, family: u8) -> usize {
        let Some(defs) = self.defs_of(name, family) else {
            return 0;
        };
        let mut files: Vec<u32> = defs.iter().map(|d| d.file).collect();
        files.dedup();
        files.len()
    }

    /// Whether the files of `family` define one function named `name`, once.
    pub fn defined_once(&self, name: &str, family: u8) -> bool {
        self.defs_of(name, family).is_some_and(|d| d.len() == 1)
    }

    fn defs_of(&self, name: &str, family: u8) -> Option<&Vec<Def>> {
        let id = *self.names.get(name)?;
        self.defs.get(&(id, family))
    }

    /// The definitions of `name` in `file`, in line order.
    pub fn definitions_in<'a>(
        &'a self,
        name: &str,
        family: u8,
        file: &str,
    ) -> impl Iterator<Item = Definition<'a>> + 'a {
        let file = file.to_owned();
        self.defs_of(name, family)
            .into_iter()
            .flatten()
            .filter(move |d| self.files[d.file as usize].path == file)
            .map(|d| Definition {
                file: &self.files[d.file as usize].path,
                line: d.line,
                nested: d.nested,
                exposed: d.exposed,
                signature: &d.signature,
            })
    }

    /// The calls of `name` from files of `family`, in file and line order.
    pub fn calls_of<'a>(
        &'a self,
        name: &str,
        family: u8,
    ) -> impl Iterator<Item = CallSite<'a>> + 'a {
        let calls = self
            .names
            .get(name)
            .and_then(|id| self.calls.get(&(*id, family)));
        calls.into_iter().flatten().map(|c| self.call_site(c))
    }
}

/// How many arguments the first call of `name` in `text` passes (`f(a, g(b, c))` passes 2),
/// when the text holds the whole argument list.
pub fn call_arity(text: &str, name: &str) -> Option<usize> {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let at = text.match_indices(name).map(|(i, _)| i).find(|&i| {
        !text[..i].chars().next_back().is_some_and(ident)
            && text[i + name.len()..].trim_start().starts_with('(')
    })?;
    let rest = &text[at + name.len()..];
    let open = rest.find('(')?;
    arguments_in(&rest[open..])
}

/// How many parameters the declaration `signature` of `name` takes, when it takes a fixed
/// number (no varargs `...`).
pub fn declared_arity(signature: &str, name: &str) -> Option<usize> {
    if signature.contains("...") {
        return None;
    }
    let at = signature.find(&format!("{name}("))? + name.len();
    arguments_in(&signature[at..])
}

/// How many top-level items the parenthesised list at the start of `list` holds, when it
/// closes; strings and characters are skipped whole.
pub fn arguments_in(list: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut count = 0;
    let mut empty = true;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in list.chars() {
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' => {
                quote = Some(c);
                empty = false;
            }
            '(' | '[' | '{' => {
                depth += 1;
                if depth > 1 {
                    empty = false;
                }
            }
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(if empty { 0 } else { count + 1 });
                }
            }
            ',' if depth == 1 => count += 1,
            c if !c.is_whitespace() => empty = false,
            _ => {}
        }
    }
    None
}

/// How the call `text` names `name`: the receiver or qualifier in front of the first `name(`
/// (or `name<`, `name::<`) that is not part of a longer name.
fn via<'t>(text: &'t str, name: &str) -> Via<'t> {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let Some(at) = text.match_indices(name).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].trim_start();
        !before.is_some_and(|c| ident(c) || c == '#')
            && (after.starts_with('(') || after.starts_with('<') || after.starts_with("::<"))
    }) else {
        return Via::Other;
    };
    let head = text[..at].trim_end();
    let Some(recv) = [".", "::", "->", "?."]
        .iter()
        .find_map(|sep| head.strip_suffix(sep))
    else {
        return Via::Bare;
    };
    let recv = recv.trim_end();
    let start = recv
        .char_indices()
        .rev()
        .take_while(|(_, c)| ident(*c))
        .last()
        .map_or(recv.len(), |(i, _)| i);
    let (before, q) = recv.split_at(start);
    let before = before.trim_end();
    if q.is_empty() || before.ends_with(['.', ':', '>', ')', ']']) {
        return Via::Other;
    }
    match q {
        "self" | "this" | "super" | "Self" | "cls" => Via::Own,
        _ => Via::Qualified(q),
    }
}

impl Store {
    /// The call graph of `repo`, from every file's references (`family` as for
    /// [`Store::ref_index`]).
    pub fn call_graph(&self, repo: &str, family: &dyn Fn(&str) -> u8) -> Result<CallGraph> {
        let mut graph = CallGraph::default();
        self.each_file_refs(repo, |path, refs| graph.add_file(path, family(path), refs))?;
        Ok(graph)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_s_arity_is_counted_from_its_whole_argument_list() {
        assert_eq!(
            call_arity("loadLibrary0(fromClass, name)", "loadLibrary0"),
            Some(2)
        );
        assert_eq!(call_arity("x.f(g(a, b), \"c, d\", ',')", "f"), Some(3));
        assert_eq!(call_arity("f()", "f"), Some(0));
        assert_eq!(call_arity("f( )", "f"), Some(0));
        assert_eq!(call_arity("self.f(a, [1, 2]", "f"), None);
        assert_eq!(arguments_in("(int fd, String... names)"), Some(2));
        assert_eq!(
            declared_arity("static void check(int i, int n)", "check"),
            Some(2)
        );
        assert_eq!(declared_arity("void log(String... parts)", "log"), None);
    }

    #[test]
    fn calls_and_definitions_are_found_by_name_and_file() {
        let mut g = CallGraph::default();
        g.add_file(
            "pkg/a.py",
            1,
            "def\tpublic\t3\t\tdef public(x)\ncall\t_helper\t4\tpublic\t_helper(x)\ndef\t_helper\t9\t\tdef _helper(x)\ndef\tinner\t10\t_helper\tdef inner()\n",
        );
        g.add_file(
            "tests/test_a.py",
            1,
            "call\tpublic\t5\ttest_it\tpublic(1)\n",
        );
        assert_eq!(g.definitions("_helper", 1), 1);
        assert_eq!(g.definitions("_helper", 2), 0);
        let d: Vec<_> = g.definitions_in("inner", 1, "pkg/a.py").collect();
        assert!(d[0].nested);
        let calls: Vec<_> = g.calls_of("_helper", 1).collect();
        assert_eq!(calls[0].caller, "public");
        assert_eq!((calls[0].file, calls[0].line), ("pkg/a.py", 4));
        let calls: Vec<_> = g.calls_of("public", 1).collect();
        assert!(calls[0].in_tests);
        assert_eq!(g.calls_in("public", 1, "tests/test_a.py").count(), 1);
        assert_eq!(g.calls_in("public", 1, "pkg/a.py").count(), 0);
    }

    #[test]
    fn a_call_says_how_it_names_its_callee() {
        assert_eq!(via("_helper(x)", "_helper"), Via::Bare);
        assert_eq!(via("return f(g(x))", "g"), Via::Bare);
        assert_eq!(via("self._create(a, b)", "_create"), Via::Own);
        assert_eq!(via("this.#check()", "#check"), Via::Own);
        assert_eq!(
            via("ssl.match_hostname(c, h)", "match_hostname"),
            Via::Qualified("ssl")
        );
        assert_eq!(via("read_buf::init(x)", "init"), Via::Qualified("read_buf"));
        assert_eq!(
            via("actualTree.inventory.query('name', n)", "query"),
            Via::Other
        );
        assert_eq!(via("make().run()", "run"), Via::Other);
        assert_eq!(via("x = walk_tree(t)", "walk"), Via::Other);
    }
}
