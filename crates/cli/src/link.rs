//! The repository-wide facts of each record, found once every file is indexed: the callers of
//! its function and the handlers of its error class. A record whose callers or handlers
//! changed is explained again; fields a model wrote stay as they are.

use std::collections::HashSet;

use anyhow::Result;
use errata_explain::{explain_record, Facts, Reference, FIELDS, MAX_LINKS};
use errata_extract::WantedNames;
use errata_lang::Lang;
use errata_model::{Ref, RefKind};
use errata_store::{CallGraph, Explained, Found, HeldBy, RefIndex, Store};

use crate::entry::{self, Program};

/// A function name defined in more files than this (`__init__`, `new`, `run`) says nothing
/// about which of them is called.
const MAX_DEFINITIONS: usize = 8;
/// A function called from more files than this (`Join`, `Close`, `assertEqual`) is a utility:
/// a list of its callers says nothing about when this error happens.
const MAX_CALLER_FILES: usize = 40;
/// A class handled in more files than this is a common one: see [`handlers`].
const MAX_HANDLER_FILES: usize = 5;
/// Classes every handler of anything catches: a handler of them is not one of this error.
const GENERIC_CLASSES: &[&str] = &[
    "Error",
    "Exception",
    "BaseException",
    "Throwable",
    "RuntimeException",
    "error",
];

/// What linking changed.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Linked {
    pub(crate) records: usize,
    pub(crate) explained_again: usize,
}

/// Records read and written at a time, so that memory does not grow with the repository.
const PAGE: usize = 1000;

/// The references of a repository that its records' callers and handlers come from, read
/// once for the files parsed by the walk and completed with those parsed afterwards.
pub(crate) struct Links {
    /// The language, function and class of each kind of record of the repository.
    held: Vec<HeldBy>,
    /// The (function, class) pairs raised in one place only: a test of that class calling the
    /// function is a test of that record even when it checks no message.
    single: HashSet<(String, String)>,
    names: HashSet<String>,
    index: RefIndex,
}

impl Links {
    /// Reads the references to the names the records of `repo` need.
    pub(crate) fn read(store: &Store, repo: &str) -> Result<Links> {
        let held = store.link_names_by_lang(repo)?;
        let mut names: HashSet<String> = HashSet::new();
        for h in &held {
            names.extend(h.function.iter().cloned());
            // References name a class as `class_name` does: its handlers, and the places that
            // create it, to which an error class's own text is linked.
            names.extend(h.class.as_deref().map(class_name));
        }
        names.retain(|n| is_distinct_name(n));
        // A Rust test's `#[should_panic]` expects a panic, which has no class.
        names.insert("panic".to_owned());
        let index = store.ref_index(repo, &names, MAX_LINKS + 1, &family)?;
        let single = store.single_raises(repo)?;
        Ok(Links {
            held,
            single,
            names,
            index,
        })
    }

    /// Adds the references of a file parsed after [`Links::read`].
    pub(crate) fn add(&mut self, path: &str, refs: &[Ref]) {
        self.index.add(path, family(path), refs, &self.names);
    }

    /// The names a file must mention for its references to matter to the records of `repo`:
    /// the functions that hold a record (unless the files already parsed define that name more
    /// than [`MAX_DEFINITIONS`] times or call it from more than [`MAX_CALLER_FILES`], when its
    /// calls count for nothing), the classes handlers catch (unless already handled in more
    /// than [`MAX_HANDLER_FILES`]: the handlers that count are in callers, whose files are
    /// wanted for their calls), and Go sentinels.
    /// A file that names none of them, as a call or definition for a function and as a word
    /// for the rest, would add no caller and no handler.
    pub(crate) fn wanted(&self) -> WantedNames {
        let parsed = &self.index;
        let mut functions = Vec::new();
        let mut words = Vec::new();
        for h in &self.held {
            let Some(lang) = Lang::parse_name(&h.lang) else {
                continue;
            };
            let fam = lang_family(lang);
            // A Go sentinel is linked through the functions that return it, however often it
            // is handled.
            let sentinel = lang == Lang::Go && h.function.is_none();
            if let Some(f) = h.function.clone().filter(|f| {
                is_distinct_name(f)
                    && parsed.definitions(f, fam) <= MAX_DEFINITIONS
                    && parsed.files(RefKind::Call, f, fam) <= MAX_CALLER_FILES
            }) {
                functions.push((lang, f));
            }
            // Go handles errors by value (`errors.Is(err, ErrX)`, `err == ErrX`): the class of
            // any other Go record is a type (`NumError` of its `Error()` method), which no
            // handler names.
            let handled = handled_name(h.class.as_deref()).filter(|c| {
                is_distinct_name(c)
                    && (sentinel
                        || (lang != Lang::Go
                            && parsed.files(RefKind::Handler, c, fam) <= MAX_HANDLER_FILES))
            });
            if let Some(name) = handled {
                let word = name.rsplit("::").next().unwrap_or(&name).to_owned();
                words.push((lang, word));
            }
        }
        WantedNames::new(functions, words)
    }
}

/// Whether uses of `name`, a function or a class, can be told from other uses of the word: not
/// a one- or two-letter name (`x`, `f3`, a test's local helper) nor `cls`/`self`/`this`, the
/// class or object a method is bound to (`raise cls(msg)`). A file that mentions such a name
/// is no more likely to call or catch what the record holds than any other, and was parsed for
/// nothing.
fn is_distinct_name(name: &str) -> bool {
    name.len() > 2 && !matches!(name, "cls" | "self" | "this")
}

/// Links the records of `repo` to their callers and handlers.
pub(crate) fn link(
    store: &mut Store,
    repo: &str,
    links: Links,
    program: &Program,
) -> Result<Linked> {
    let mut index = links.index;
    index.finish(MAX_LINKS + 1);
    let index = &index;
    let graph = store.call_graph(repo, &family)?;
    let ways = Ways {
        graph: &graph,
        program,
    };
    let ways = &ways;
    let single = &links.single;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut linked = Linked::default();
    let mut after = i64::MIN;
    loop {
        let (page, last) = store.explained_page(repo, after, PAGE)?;
        let Some(last) = last else { break };
        after = last;
        linked.records += page.len();
        // Explaining again is the work here: each thread takes a share of the page.
        let share = page.len().div_ceil(threads);
        let mut rest = page;
        let mut shares = Vec::new();
        while rest.len() > share {
            let tail = rest.split_off(share);
            shares.push(rest);
            rest = tail;
        }
        shares.push(rest);
        let changed: Vec<Explained> = std::thread::scope(|scope| {
            let handles: Vec<_> = shares
                .into_iter()
                .map(|share| {
                    scope.spawn(move || {
                        share
                            .into_iter()
                            .filter_map(|item| relink(item, index, single, ways))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("relinking does not panic"))
                .collect()
        });
        linked.explained_again += changed.len();
        store.update_explained(&changed)?;
    }
    Ok(linked)
}

/// What a record's way in from outside is found with.
struct Ways<'a> {
    graph: &'a CallGraph,
    program: &'a Program,
}

/// The record with its callers and handlers, explained again, if they changed.
fn relink(
    mut item: Explained,
    index: &RefIndex,
    single: &HashSet<(String, String)>,
    ways: &Ways<'_>,
) -> Option<Explained> {
    let mut facts = serde_json::from_str::<Facts>(&item.facts).ok()?;
    let fam = family(&item.record.file_path);
    let sentinel = sentinel_name(
        &item.record.file_path,
        &facts,
        item.record.error_class.as_deref(),
    );
    let own_class = errata_explain::own_text_class(&item.record, &facts);
    let found_callers: Vec<Reference> = match (&facts.function, own_class) {
        // The text every error of a class carries: where the class is created.
        (_, Some(class)) => creations(index, class, fam, &item.record.file_path)
            .into_iter()
            .filter(|c| !other_variant(&facts, &c.text))
            .collect(),
        (Some(f), None) => callers(index, &f.name, fam, &item.record.file_path)
            .into_iter()
            // A call from the function itself is recursion, not a caller.
            .filter(|c| {
                !(c.file == item.record.file_path && c.function.as_deref() == Some(f.name.as_str()))
            })
            // A name defined in several places is no proof of which one a call reaches: then
            // only the calls in the defining file itself are kept.
            .filter(|c| {
                (c.exact || c.file == item.record.file_path)
                    && calls_it(c, f, &item.record.file_path)
            })
            .take(MAX_LINKS)
            .collect(),
        // A Go sentinel (`var ErrX = errors.New(…)`): the functions that return it.
        (None, None) => match &sentinel {
            Some(name) => index
                .get(RefKind::Use, name, fam)
                .iter()
                .take(MAX_LINKS)
                .map(|f| reference(f, true))
                .collect(),
            None => Vec::new(),
        },
    };
    // A call inside a `try` of its own function that catches the error ends it there.
    let found_callers = match (&facts.function, own_class) {
        (Some(f), None) => caught_at_callers(index, &item.record, f, fam, found_callers),
        _ => found_callers,
    };
    let found_tests = tests_of(index, &item.record, &facts, fam, single);
    let found_entry = match (&facts.function, own_class) {
        (Some(f), None) => entry::entry(ways.graph, ways.program, fam, &item.record.file_path, f),
        (None, None) => entry::program_entry(ways.program, &item.record.file_path),
        _ => None,
    };
    // A sentinel is one value, and a class whose own text this record is has only this
    // error: whatever tests for it handles this error. Any other class may be raised elsewhere.
    let only_on_the_way = sentinel.is_none() && own_class.is_none();
    let lang = lang_of(&item.record.file_path);
    let found_handlers: Vec<Reference> = match handled_name(item.record.error_class.as_deref()) {
        Some(name) => index
            .get(RefKind::Handler, &name, fam)
            .iter()
            .filter(|h| !only_on_the_way || on_the_way(h, &found_callers, found_entry.as_ref()))
            // A handler of another package's or crate's class of the same name (another
            // version's copy of the crate, too) handles another error.
            .filter(|h| names_this_class(lang, &item.record.file_path, &name, h))
            .take(MAX_LINKS)
            .map(|h| reference(h, true))
            .collect(),
        None => Vec::new(),
    };
    // Every record is explained again, links changed or not: what explains it (the linking
    // here, the way in) may have changed since it was stored, in a file the fingerprint of its
    // file's records does not cover. Only a record whose fields or facts change is written.
    let links_unchanged = facts.callers == found_callers
        && facts.handlers == found_handlers
        && facts.tests == found_tests
        && facts.entry == found_entry;
    facts.callers = found_callers;
    facts.handlers = found_handlers;
    facts.tests = found_tests;
    facts.entry = found_entry;
    // An error made by a builder of another file that gives it a fixed code (npm's commands
    // call `this.usageError(…)`, whose base class makes it with `EUSAGE`) carries that code.
    // A code found so before is looked up again: the builder may have changed.
    let derived = facts.code_from.is_some();
    let built = (derived || item.record.error_code.is_none())
        .then(|| builder_code(index, &item.record, fam))
        .flatten();
    let code_changed = match built {
        Some((code, from)) => {
            let changed = item.record.error_code.as_ref() != Some(&code)
                || facts.code_from.as_ref() != Some(&from);
            item.record.error_code = Some(code);
            facts.code_from = Some(from);
            changed
        }
        None if derived => {
            item.record.error_code = None;
            facts.code_from = None;
            true
        }
        None => false,
    };
    let explanation = explain_record(&item.record, &facts)?;
    let by_model = errata_store::written_by_model(item.sources.as_deref());
    let fields: Vec<&str> = FIELDS
        .iter()
        .copied()
        .filter(|f| !by_model.contains_key(*f))
        .collect();
    let rewritten = explanation.apply(&mut item.record, Some(&fields));
    if links_unchanged && !rewritten && !code_changed {
        return None;
    }
    item.facts = serde_json::to_string(&facts).ok()?;
    Some(item)
}

/// The code the builder a JavaScript record's raising line calls gives every error it makes
/// (a [`RefKind::Builds`] reference of the repository), when all builders of that name agree,
/// with the first builder.
fn builder_code(
    index: &RefIndex,
    record: &errata_model::Record,
    fam: u8,
) -> Option<(String, Reference)> {
    if !matches!(
        Lang::from_path(std::path::Path::new(&record.file_path)),
        Some(Lang::JavaScript | Lang::TypeScript)
    ) {
        return None;
    }
    let at = record.line_number.checked_sub(record.source_code_start)? as usize;
    let line = without_strings(record.source_code.lines().nth(at)?);
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    // Each name called on the line, in order: `usageError` of `throw this.usageError('…')`.
    let mut rest = line.as_str();
    while let Some(open) = rest.find('(') {
        let before = rest[..open].trim_end();
        let name = &before[before.trim_end_matches(ident).len()..];
        rest = &rest[open + 1..];
        if name.is_empty() {
            continue;
        }
        let builds = index.get(RefKind::Builds, name, fam);
        let Some(first) = builds.first() else {
            continue;
        };
        if !builds.iter().all(|b| b.text == first.text) {
            return None;
        }
        let from = Reference {
            function: Some(name.to_owned()),
            text: String::new(),
            ..reference(first, true)
        };
        return Some((first.text.clone(), from));
    }
    None
}

/// A line of JavaScript with the text of its string literals blanked: `write(` in `new
/// Error('write() after end()')` is no call.
fn without_strings(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(_) if escaped => {
                escaped = false;
                out.push(' ');
            }
            Some(_) if c == '\\' => {
                escaped = true;
                out.push(' ');
            }
            Some(q) if c == q => {
                quote = None;
                out.push(c);
            }
            Some(_) => out.push(' '),
            None => {
                if matches!(c, '\'' | '"' | '`') {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    out
}

/// The name a Go sentinel record is returned by: its class, when it is declared outside any
/// function.
/// Most tests named per record.
const MAX_TESTS: usize = 3;

/// The tests that expect the record's error: of its class (a Rust panic's `panic`), whose
/// pattern is text of the record's message, or, with no pattern, whose call calls the record's
/// function. A pattern of a generic class (JavaScript's `Error`) must match.
fn tests_of(
    index: &RefIndex,
    record: &errata_model::Record,
    facts: &Facts,
    fam: u8,
    single: &HashSet<(String, String)>,
) -> Vec<Reference> {
    let panics = matches!(
        record.error_type,
        errata_model::ErrorType::Panic | errata_model::ErrorType::Assertion
    );
    let name = match record.error_class.as_deref() {
        Some(c) => class_name(c),
        None if panics && record.file_path.ends_with(".rs") => "panic".to_owned(),
        None if record.file_path.ends_with(".js") || record.file_path.ends_with(".ts") => {
            "Error".to_owned()
        }
        None => return Vec::new(),
    };
    let generic = GENERIC_CLASSES.contains(&name.as_str()) || name == "panic";
    // Only a function that raises this class in one place is proven by a call alone.
    let function = facts
        .function
        .as_ref()
        .map(|f| f.name.as_str())
        .filter(|f| {
            record
                .error_class
                .as_ref()
                .is_some_and(|c| single.contains(&(f.to_string(), c.clone())))
        });
    index
        .get(RefKind::Expect, &name, fam)
        .iter()
        .filter(|t| {
            let (pattern, call) = t
                .text
                .split_once(errata_model::EXPECT_SEPARATOR)
                .unwrap_or(("", &t.text));
            let by_text = pattern_fits(pattern, &record.error_message);
            let by_call = function.is_some_and(|f| f.len() > 2 && find_call(call, f).is_some());
            if generic || pattern.is_empty() {
                by_text || (by_call && !generic)
            } else {
                by_text
            }
        })
        .take(MAX_TESTS)
        .map(|t| Reference {
            file: t.file.clone(),
            line: t.line,
            function: t.function.clone(),
            text: t
                .text
                .split_once(errata_model::EXPECT_SEPARATOR)
                .map_or(t.text.clone(), |(_, c)| c.to_owned()),
            exact: true,
            caught: None,
        })
        .collect()
}

/// Whether a test's pattern (a regex or a substring of the message) is text of the template:
/// its longest literal run, of 6 characters or more, occurs in the message as written.
fn pattern_fits(pattern: &str, message: &str) -> bool {
    let mut best = String::new();
    let mut cur = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n) if n.is_ascii_punctuation() || n == ' ' => cur.push(n),
                _ => cur = String::new(),
            },
            '.' | '*' | '+' | '?' | '^' | '$' | '[' | ']' | '(' | ')' | '{' | '}' | '|' => {
                // `x?`, `x*`: the character before is not sure to be there.
                if matches!(c, '*' | '?' | '{') {
                    cur.pop();
                }
                if cur.len() > best.len() {
                    best = cur.clone();
                }
                cur.clear();
            }
            c => cur.push(c),
        }
    }
    if cur.len() > best.len() {
        best = cur;
    }
    let best = best.trim();
    best.chars().filter(|c| c.is_alphanumeric()).count() >= 6 && message.contains(best)
}

fn sentinel_name(file: &str, facts: &Facts, class: Option<&str>) -> Option<String> {
    let class = class?;
    (file.ends_with(".go")
        && facts.function.is_none()
        && errata_explain::is_go_sentinel_name(class))
    .then(|| class.to_owned())
}

/// The calls of `name`, unless so many files define a function of that name that a call
/// says nothing about which one it reaches.
fn callers(index: &RefIndex, name: &str, fam: u8, file: &str) -> Vec<Reference> {
    let defined = index.definitions(name, fam);
    // A name too common to follow everywhere (`parse`) is still followed in its own file,
    // where a call is proven by how it is written.
    if defined > MAX_DEFINITIONS || index.files(RefKind::Call, name, fam) > MAX_CALLER_FILES {
        return index
            .get(RefKind::Call, name, fam)
            .iter()
            .filter(|f| f.file == file)
            .map(|f| reference(f, false))
            .collect();
    }
    index
        .get(RefKind::Call, name, fam)
        .iter()
        .map(|f| reference(f, defined <= 1))
        .collect()
}

/// Whether the call `c` is proven to reach the function `f` of `file`, by how it is written:
/// in the same file, a free function called bare and a method through `self`/`this`/`Self`,
/// or a receiver named for its class; from another file, a method called on a receiver
/// (`x.save(…)`, `Type::save(…)`) and a free function called bare or through its module's
/// name (`pickle.dump(…)`, `strconv.Atoi(…)`). A bare call of a method's name (`drop(x)`,
/// `open(path)`) is another function's, but in Java, where it is the class's own.
fn calls_it(c: &Reference, f: &errata_explain::Function, file: &str) -> bool {
    let Some(at) = find_call(&c.text, &f.name) else {
        return false;
    };
    let head = c.text[..at].trim_end();
    let receiver = head.ends_with('.') || head.ends_with("::") || head.ends_with("->");
    // A Java call with another number of arguments is another overload's.
    if file.ends_with(".java") {
        let declared = errata_store::declared_arity(&f.signature, &f.name);
        let passed = errata_store::arguments_in(&c.text[at + f.name.len()..]);
        if declared.is_some() && passed.is_some() && declared != passed {
            return false;
        }
    }
    if private_to_its_crate(&c.file, &f.signature, file) {
        return false;
    }
    if c.file == file {
        let Some(owner) = &f.owner else {
            return true;
        };
        // A method in its own file. Java calls its own methods bare; a Go method is called on
        // a value, of its package's types; elsewhere a receiver of another name
        // (`opener.open(…)`, `UNSAFE.getInt(…)`, `mem::drop(x)`) may be of any type with such
        // a method. A bare or `self` call outside the class's block is another class's
        // (`Au_read.getparams` calls its own `self.getnchannels()`), but in Rust, whose type
        // may have several `impl` blocks.
        let in_block = f.owner_blocks.is_empty()
            || f.owner_blocks
                .iter()
                .any(|&(from, to)| (from..=to).contains(&c.line));
        return if file.ends_with(".go") {
            receiver
        } else if file.ends_with(".java") {
            (!receiver || own_receiver(head)) && in_block
                || receiver && (local_receiver(head) || names_the_owner(head, owner))
        } else {
            receiver && (own_receiver(head) && in_block || names_the_owner(head, owner))
        };
    }
    if let Some(owner) = &f.owner {
        // A method of another file: through a receiver named for its class (`Foo.of(…)`,
        // `foo.save(…)`, `trust_command.warn(…)`), or in Go and Java from the package that
        // declares it. Another receiver (`log.warn(…)`) may be of any type with such a method.
        return receiver
            && (names_the_owner(head, owner)
                || (file.ends_with(".go") || file.ends_with(".java"))
                    && folder(&c.file) == folder(file));
    }
    if !receiver {
        // A free function called bare from another file: of its own package in Go, imported
        // by name elsewhere.
        return !file.ends_with(".go") || folder(&c.file) == folder(file);
    }
    // Through a module or package name: the file's stem (Python, JavaScript) or folder (Go),
    // or a Rust module path.
    let qualifier = head
        .trim_end_matches('.')
        .trim_end_matches("::")
        .rsplit(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
        .next()
        .unwrap_or("");
    let stem = file
        .rsplit('/')
        .next()
        .and_then(|n| n.split('.').next())
        .unwrap_or("");
    let dir = folder(file).rsplit('/').next().unwrap_or("");
    !qualifier.is_empty() && (qualifier == stem || qualifier == dir)
}

/// Whether the function of the Rust file `file` declared by `signature` is no `pub` function
/// (or only `pub(crate)`) and the call is in another crate's folder of a registry
/// (`tokio-1.54.1/…` and `ignore-0.4.35/…`): another crate cannot call it, so the call is of
/// another function of the name.
pub(crate) fn private_to_its_crate(call_file: &str, signature: &str, file: &str) -> bool {
    let crate_of = |path: &str| {
        path.split('/')
            .find(|part| errata_matcher::trace::release_folder(part))
            .map(str::to_owned)
    };
    file.ends_with(".rs")
        && crate_of(call_file) != crate_of(file)
        && !signature.trim_start().starts_with("pub ")
}

/// Whether the receiver at the end of `head` is the object itself: `self.`, `this.`, `cls.`,
/// `super().`, `super.`, `Self::`.
fn own_receiver(head: &str) -> bool {
    let (before, receiver) = receiver_at_end(head);
    matches!(receiver, "self" | "this" | "cls" | "super" | "Self") && !before.ends_with(['.', ':'])
}

/// Whether the receiver at the end of `head` is a variable (`curr.`, `node.`), which in a
/// Java file is most often of its own classes: not a constant or a type (`UNSAFE.`,
/// `Objects.`) nor what a call returns (`getImpl().`).
fn local_receiver(head: &str) -> bool {
    let (_, receiver) = receiver_at_end(head);
    !head.trim_end_matches('.').ends_with(')') && receiver.starts_with(|c: char| c.is_lowercase())
}

/// The name of the receiver at the end of a call's `head` (`x.y.foo.`, `super().`, `Foo::`,
/// `p->`), and what comes before it.
fn receiver_at_end(head: &str) -> (&str, &str) {
    let head = head
        .trim_end_matches('.')
        .trim_end_matches("::")
        .trim_end_matches("->")
        .trim_end_matches('?')
        .trim_end_matches("()");
    let receiver = head
        .rsplit(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
        .next()
        .unwrap_or("");
    (head[..head.len() - receiver.len()].trim_end(), receiver)
}

/// Whether the receiver at the end of `head` (`x.y.foo.`, `new Foo().`, `Foo::`) is named for
/// the class `owner`: its name, ignoring case and `_`, is the class's or ends with it (`foo`,
/// `Foo`, `_foo`, `defaultFoo` for `Foo`; not `log` for `TrustCommand`).
fn names_the_owner(head: &str, owner: &str) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let owner = norm(owner.rsplit(['.', ':']).next().unwrap_or(owner));
    let receiver = norm(receiver_at_end(head).1);
    !owner.is_empty() && !receiver.is_empty() && receiver.ends_with(&owner)
}

fn folder(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Where `name` is called in `text`: the start of `name(` (or `name<`, `name::<`), not inside
/// a longer name.
fn find_call(text: &str, name: &str) -> Option<usize> {
    text.match_indices(name).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].trim_start();
        !before.is_some_and(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$' || ch == '#')
            && (after.starts_with('(') || after.starts_with('<') || after.starts_with("::<"))
    })
}

/// The callers with the clause of a `try` around the call that catches the record's error
/// and does not raise it again ([`RefKind::Catches`]), where there is one.
fn caught_at_callers(
    index: &RefIndex,
    record: &errata_model::Record,
    f: &errata_explain::Function,
    fam: u8,
    mut callers: Vec<Reference>,
) -> Vec<Reference> {
    let Some(lang) = Lang::from_path(std::path::Path::new(&record.file_path)) else {
        return callers;
    };
    let catches = index.get(RefKind::Catches, &f.name, fam);
    if catches.is_empty() {
        return callers;
    }
    for c in &mut callers {
        let Some(at) = catches
            .iter()
            .find(|k| k.file == c.file && k.line == c.line)
        else {
            continue;
        };
        let clauses = errata_explain::Catch::decode_all(&at.text);
        c.caught = errata_explain::caught_by(
            lang,
            record.error_type,
            record.error_class.as_deref(),
            &clauses,
        )
        .cloned();
    }
    callers
}

/// The places that create an error class (`new X(…)`, `raise X(…)`, `&X{…}`): the code's
/// before the tests', and those in the record's own folder first (a class of that name
/// elsewhere may be another one; of a generic name, such as `Error`, it is taken to be).
fn creations(index: &RefIndex, class: &str, fam: u8, file: &str) -> Vec<Reference> {
    let here = folder(file);
    let name = class_name(class);
    // `Error { inner }` in another folder is another crate's or package's `Error`.
    let generic = GENERIC_CLASSES.contains(&name.as_str());
    let lang = lang_of(file);
    let mut found: Vec<&Found> = index
        .get(RefKind::Call, &name, fam)
        .iter()
        .filter(|f| !generic || folder(&f.file) == here)
        .filter(|f| names_this_class(lang, file, &name, f))
        .collect();
    found.sort_by_key(|f| (f.in_tests, folder(&f.file) != here));
    found
        .into_iter()
        .take(MAX_LINKS)
        .map(|f| reference(f, true))
        .collect()
}

/// Whether the creation `text` makes another variant than the one the text is worded for:
/// `Display` words `matches!(self.kind, ErrorKind::StateIDOverflow { .. })`, and
/// `BuildError { kind: ErrorKind::PatternIDOverflow { .. } }` creates one it does not word.
fn other_variant(facts: &Facts, text: &str) -> bool {
    let worded = facts
        .conditions
        .iter()
        .flat_map(|c| &c.conjuncts)
        .find_map(|c| {
            let rest = c.trim().strip_prefix("matches!(")?;
            let (_, pattern) = rest.split_once(", ")?;
            let path: String = pattern
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | ':'))
                .collect();
            let (enum_path, variant) = path.rsplit_once("::")?;
            let enum_name = enum_path.rsplit("::").next()?;
            (!enum_name.is_empty() && !variant.is_empty())
                .then(|| (enum_name.to_owned(), variant.to_owned()))
        });
    let Some((enum_name, variant)) = worded else {
        return false;
    };
    let prefix = format!("{enum_name}::");
    let named: Vec<&str> = text
        .match_indices(&prefix)
        .filter(|(i, _)| {
            !text[..*i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .map(|(i, _)| {
            let rest = &text[i + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect();
    !named.is_empty() && !named.contains(&variant.as_str())
}

fn lang_of(file: &str) -> Option<Lang> {
    Lang::from_path(std::path::Path::new(file))
}

/// Whether the creation `f` of a class named `name` can be of the class that `file` words,
/// by the language's scoping: a Go name unqualified is its own package's (`KeySizeError(k)`
/// in crypto/aes is crypto/aes's type, not crypto/des's), qualified it names the package
/// (`des.KeySizeError`); a Rust path bare in another crate is that crate's.
fn names_this_class(lang: Option<Lang>, file: &str, name: &str, f: &Found) -> bool {
    let here = folder(file);
    match lang {
        Some(Lang::Go) => {
            let package = here.rsplit('/').next().unwrap_or(here);
            folder(&f.file) == here || f.text.contains(&format!("{package}.{name}"))
        }
        Some(Lang::Rust) => {
            let krate = |p: &str| p.rsplit_once("/src/").map(|(c, _)| c.to_owned());
            match (krate(file), krate(&f.file)) {
                (Some(a), Some(b)) if a != b => {
                    let name_of = a.rsplit('/').next().unwrap_or(&a);
                    // `ureq-3.5.2` is the crate `ureq`.
                    let name_of = name_of
                        .rsplit_once('-')
                        .filter(|(_, v)| v.starts_with(|c: char| c.is_ascii_digit()))
                        .map_or(name_of, |(n, _)| n)
                        .replace('-', "_");
                    f.text.contains(&format!("{name_of}::"))
                }
                _ => true,
            }
        }
        _ => true,
    }
}

/// Whether the handler `h` is in a function that calls the site's (`callers`) or is on the way
/// in to it: a handler of the class elsewhere may catch another raise of it.
fn on_the_way(h: &Found, callers: &[Reference], entry: Option<&errata_explain::Entry>) -> bool {
    let Some(function) = h.function.as_deref() else {
        return false;
    };
    // A handler guards calls above it (in its `try`, before its `errors.Is`), never one in
    // its own body or below it: email's `except HeaderParseError` around `get_addr_spec()`
    // does not catch the `get_obs_route()` its body calls.
    callers
        .iter()
        .any(|c| c.file == h.file && c.function.as_deref() == Some(function) && c.line <= h.line)
        || entry.is_some_and(|e| {
            e.chain
                .iter()
                .any(|s| s.file == h.file && s.function == function)
        })
}

/// The family of a file ([`Lang::family`]): only references from files of the record's
/// family count for it.
fn family(path: &str) -> u8 {
    Lang::from_path(std::path::Path::new(path)).map_or(u8::MAX, lang_family)
}

fn lang_family(lang: Lang) -> u8 {
    lang.family() as u8
}

fn reference(f: &Found, exact: bool) -> Reference {
    Reference {
        file: f.file.clone(),
        line: f.line,
        function: f.function.clone(),
        text: f.text.clone(),
        exact,
        caught: None,
    }
}

/// The name a handler of `class` is stored under: `Enum::Variant` for a Rust variant, the
/// last segment otherwise. Generic classes have no handler of their own.
fn handled_name(class: Option<&str>) -> Option<String> {
    let name = class_name(class?);
    (!GENERIC_CLASSES.contains(&name.as_str())).then_some(name)
}

/// The name references give a class, by which its handlers and creations are found:
/// `Enum::Variant` for a Rust variant, the last segment otherwise (`URISyntaxException` of
/// `java.net.URISyntaxException`, `PathError` of `*PathError`).
fn class_name(class: &str) -> String {
    match class.rsplit_once("::") {
        Some((path, variant)) => {
            let e = path.rsplit("::").next().unwrap_or(path);
            format!("{e}::{variant}")
        }
        None => class
            .trim_start_matches('*')
            .rsplit('.')
            .next()
            .unwrap_or(class)
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::{
        calls_it, handled_name, is_distinct_name, names_this_class, other_variant, without_strings,
    };
    use errata_explain::{Function, Reference};
    use errata_lang::Lang;
    use errata_store::Found;

    #[test]
    fn a_creation_of_another_variant_is_not_where_the_text_came_from() {
        let facts: errata_explain::Facts = serde_json::from_value(serde_json::json!({
            "conditions": [{
                "expr": "matches!(self.0, ParseErrorKind::OutOfRange)",
                "conjuncts": ["matches!(self.0, ParseErrorKind::OutOfRange)"],
                "kind": "if",
                "line": 3
            }]
        }))
        .unwrap();
        assert!(!other_variant(
            &facts,
            "ParseError(ParseErrorKind::OutOfRange)"
        ));
        assert!(other_variant(
            &facts,
            "ParseError(ParseErrorKind::Impossible)"
        ));
        // Nothing said of the kind: it may be this one.
        assert!(!other_variant(&facts, "ParseError(kind)"));
        assert!(!other_variant(&facts, "MyParseErrorKind::Impossible"));
    }

    #[test]
    fn a_class_is_created_where_its_name_reaches_it() {
        let at = |file: &str, text: &str| Found {
            file: file.into(),
            line: 1,
            function: None,
            text: text.into(),
            in_tests: false,
        };
        let des = "crypto/des/cipher.go";
        let go = Some(Lang::Go);
        assert!(names_this_class(
            go,
            des,
            "KeySizeError",
            &at(des, "KeySizeError(len(key))")
        ));
        // crypto/aes has a `KeySizeError` of its own.
        let aes = at("crypto/aes/cipher.go", "KeySizeError(k)");
        assert!(!names_this_class(go, des, "KeySizeError", &aes));
        let qualified = at("crypto/tls/x.go", "des.KeySizeError(3)");
        assert!(names_this_class(go, des, "KeySizeError", &qualified));

        let ureq = "reg/ureq-3.5.2/src/error.rs";
        let rust = Some(Lang::Rust);
        let same = at("reg/ureq-3.5.2/src/pool.rs", "Error::Timeout(t)");
        assert!(names_this_class(rust, ureq, "Error::Timeout", &same));
        let other = at("reg/hyper-1.0.0/src/client.rs", "Error::Timeout(t)");
        assert!(!names_this_class(rust, ureq, "Error::Timeout", &other));
        let by_path = at("reg/hyper-1.0.0/src/client.rs", "ureq::Error::Timeout(t)");
        assert!(names_this_class(rust, ureq, "Error::Timeout", &by_path));
    }

    #[test]
    fn a_method_in_its_own_file_is_called_through_itself_or_its_class() {
        let method = |name: &str, owner: &str| Function {
            name: name.into(),
            owner: Some(owner.into()),
            ..Function::default()
        };
        let call = |file: &str, text: &str| Reference {
            file: file.into(),
            line: 1,
            function: None,
            text: text.into(),
            exact: true,
            caught: None,
        };
        let open = method("open", "URLopener");
        let py = "urllib/request.py";
        // urllib.request's `urlopen` calls an OpenerDirector's `open`, and `urlretrieve` the
        // builtin `open`: neither is `URLopener.open`.
        assert!(!calls_it(
            &call(py, "opener.open(url, data, timeout)"),
            &open,
            py
        ));
        assert!(!calls_it(&call(py, "open(filename, 'wb')"), &open, py));
        for text in [
            "self.open(newurl)",
            "super().open(url)",
            "urlopener.open(url)",
            "URLopener.open(self, url)",
        ] {
            assert!(calls_it(&call(py, text), &open, py), "{text}");
        }
        // A Rust method is not `std::mem::drop`, nor another value's `flush`.
        let rs = "src/queue.rs";
        let drop = method("drop", "Queue");
        assert!(!calls_it(&call(rs, "std::mem::drop(guard)"), &drop, rs));
        assert!(!calls_it(&call(rs, "drop(guard)"), &drop, rs));
        assert!(calls_it(&call(rs, "Self::drop(self)"), &drop, rs));
        let flush = method("flush", "Queue");
        assert!(!calls_it(&call(rs, "self.inner.flush()"), &flush, rs));
        assert!(calls_it(&call(rs, "self.flush()"), &flush, rs));
        // Another crate of the registry calls a `pub` method only: tokio's private
        // `Context::run` is not what ignore's `worker.run()` calls.
        let tokio = "tokio-1.54.1/src/runtime/worker.rs";
        let run = Function {
            signature: "fn run(&self, core: Box<Core>) -> RunResult".into(),
            ..method("run", "Context")
        };
        let other = "ignore-0.4.35/src/walk.rs";
        assert!(!calls_it(&call(other, "context.run(core)"), &run, tokio));
        assert!(calls_it(
            &call("tokio-1.54.1/src/runtime/park.rs", "context.run(core)"),
            &run,
            tokio
        ));
        let public = Function {
            signature: "pub fn run(&self, core: Box<Core>) -> RunResult".into(),
            ..method("run", "Context")
        };
        assert!(calls_it(&call(other, "context.run(core)"), &public, tokio));
        // Java calls its own methods bare; a Go method is called on a value.
        let java = "java/util/Foo.java";
        assert!(calls_it(
            &call(java, "check(index)"),
            &method("check", "Foo"),
            java
        ));
        // … nor an overload with another number of parameters.
        let two = Function {
            signature: "private static void check(int index, int size)".into(),
            ..method("check", "Foo")
        };
        assert!(!calls_it(&call(java, "check(index)"), &two, java));
        assert!(calls_it(&call(java, "check(i, a.length)"), &two, java));
        // … but not a same-named method through a value of another type (`Unsafe`'s).
        let get = method("getIntAcquire", "ScopedMemoryAccess");
        assert!(!calls_it(
            &call(java, "UNSAFE.getIntAcquire(base, offset)"),
            &get,
            java
        ));
        assert!(calls_it(
            &call(java, "this.getIntAcquire(b, o)"),
            &get,
            java
        ));
        assert!(!calls_it(
            &call(java, "getImpl().getIntAcquire(b, o)"),
            &get,
            java
        ));
        assert!(calls_it(
            &call(java, "curr.getIntAcquire(b, o)"),
            &get,
            java
        ));
        // A `self` call from another class of the file is that class's: sunau's reader and
        // writer both have `getparams()` calling `self.getnchannels()`.
        let writer = Function {
            owner_blocks: vec![(300, 500)],
            ..method("getnchannels", "Au_write")
        };
        let at = |line: u32| Reference {
            line,
            ..call(py, "self.getnchannels()")
        };
        assert!(!calls_it(&at(263), &writer, py));
        assert!(calls_it(&at(417), &writer, py));
        assert!(calls_it(&at(263), &method("getnchannels", "Au_write"), py));
        let go = "net/http/client.go";
        let send = method("send", "Client");
        assert!(calls_it(&call(go, "c.send(req, deadline)"), &send, go));
        assert!(!calls_it(&call(go, "send(ireq, rt, deadline)"), &send, go));
        // A free function in its own file is called bare.
        let free = Function {
            name: "urlopen".into(),
            ..Function::default()
        };
        assert!(calls_it(&call(py, "urlopen(url)"), &free, py));
    }

    #[test]
    fn short_and_bound_names_link_nothing() {
        // npm's `ls()` command is not what `fs.rm(…)`'s and `liborg.ls(…)`'s callers call.
        for name in ["x", "p", "ls", "rm", "do", "cls", "self"] {
            assert!(!is_distinct_name(name), "{name}");
        }
        for name in ["load", "Atoi", "QuotaError", "ErrorKind::NotFound"] {
            assert!(is_distinct_name(name), "{name}");
        }
    }

    #[test]
    fn a_call_is_not_read_inside_a_string() {
        assert_eq!(
            without_strings("this.emit('error', new Error('write() after end()'))"),
            "this.emit('     ', new Error('                   '))"
        );
        assert_eq!(
            without_strings(r#"f("a\"(b", `c(${d}`)"#),
            r#"f("     ", `      `)"#
        );
    }

    #[test]
    fn handler_names() {
        assert_eq!(
            handled_name(Some("io::ErrorKind::NotFound")).as_deref(),
            Some("ErrorKind::NotFound")
        );
        assert_eq!(
            handled_name(Some("java.io.IOException")).as_deref(),
            Some("IOException")
        );
        assert_eq!(
            handled_name(Some("*PathError")).as_deref(),
            Some("PathError")
        );
        assert_eq!(handled_name(Some("Error")), None);
        assert_eq!(handled_name(None), None);
    }
}
