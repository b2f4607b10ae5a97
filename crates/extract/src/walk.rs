//! Which files are read, in parallel, and what becomes of each.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use errata_lang::Lang;
pub use errata_model::is_test_path;
use errata_model::Record;
use ignore::{WalkBuilder, WalkState};
use sha2::{Digest, Sha256};

use crate::{build_records, Provenance};

/// What the walk reads.
#[derive(Debug, Clone)]
pub struct Options {
    /// Read test files too (`*_test.go`, `test_*.py`, `tests/`, `*.spec.ts`, ...).
    pub include_tests: bool,
    /// Skip nothing but binary and unreadable files: no ignore files, no vendored, minified,
    /// generated or test filters, no size limit.
    pub all: bool,
    /// Read vendored folders too (`node_modules`, `vendor`, …), ignored or not: a project's
    /// bundled dependencies. Minified, generated and test files stay skipped.
    pub vendored: bool,
    /// Worker threads; 0 picks one per core.
    pub jobs: usize,
    /// Files larger than this are skipped as too large.
    pub max_file_size: u64,
    /// Gitignore-style globs of paths not to read, relative to the walked folder.
    pub exclude: Vec<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            include_tests: false,
            all: false,
            vendored: false,
            jobs: 0,
            max_file_size: 4 * 1024 * 1024,
            exclude: Vec::new(),
        }
    }
}

/// Why a file was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Skip {
    Gitignored,
    Vendored,
    Test,
    Minified,
    Generated,
    NeverBuilt,
    TooLarge,
    Binary,
    NotUtf8,
    ParseFailed,
    Unreadable,
    NotAFile,
}

impl Skip {
    pub fn as_str(self) -> &'static str {
        match self {
            Skip::Gitignored => "gitignored",
            Skip::Vendored => "vendored folders",
            Skip::Test => "test files",
            Skip::Minified => "minified",
            Skip::Generated => "generated",
            Skip::NeverBuilt => "never built (//go:build ignore)",
            Skip::TooLarge => "too large",
            Skip::Binary => "binary",
            Skip::NotUtf8 => "not UTF-8",
            Skip::ParseFailed => "parse failed",
            Skip::Unreadable => "unreadable",
            Skip::NotAFile => "not a regular file",
        }
    }
}

/// A file that was read.
#[derive(Debug)]
pub struct FileIndexed {
    /// Relative to the repository root, '/' separated.
    pub path: String,
    pub lang: Lang,
    pub bytes: u64,
    /// SHA-256 of the content and of the fingerprint of the rules that read it, hex.
    pub hash: String,
    /// The records of the file; `None` when its hash is the one already known (not parsed).
    pub records: Option<Vec<Record>>,
    /// The facts of each record, in the same order.
    pub facts: Vec<errata_explain::Facts>,
    /// The calls, definitions and handlers of the file (empty when it was not parsed).
    pub refs: Vec<errata_model::Ref>,
    /// Whether the file was read but not parsed: it has no trigger word, so no records, and
    /// its references are found later, only if it names something a record needs
    /// ([`crate::index_refs`]).
    pub refs_pending: bool,
    /// Time spent on the explanations of the file: facts, references and the fields.
    pub explain_time: std::time::Duration,
    /// Whether the parse had syntax errors (the records come from the partial tree).
    pub parse_errors: bool,
}

/// What happened to one entry of the walk.
#[derive(Debug)]
pub enum Event {
    File(FileIndexed),
    /// A file of a supported language, or a vendored folder, that was skipped.
    Skipped {
        path: String,
        reason: Skip,
        detail: Option<String>,
    },
    /// A test file that is not indexed (no `--include-tests`) but expects errors: its
    /// expectations link records to the tests that reproduce them.
    Expectations {
        path: String,
        refs: Vec<errata_model::Ref>,
    },
}

/// Directory names whose contents are third-party code.
const VENDORED: &[&str] = &[
    "node_modules",
    "vendor",
    "third_party",
    "bower_components",
    "jspm_packages",
];

/// Walks `path`, reads every file it should, and hands each outcome to `sink`, from worker
/// threads. `known` maps the repository-relative paths already stored to their content hash:
/// such a file is not parsed again when its content is the same.
///
/// Returns what the walk left out without reading (vendored folders, gitignored files). Fails
/// only when an `exclude` glob is not a valid glob.
pub fn index(
    path: &Path,
    prov: &Provenance,
    options: &Options,
    known: &HashMap<String, String>,
    analyzed_at: &str,
    sink: &(dyn Fn(Event) + Sync),
) -> Result<WalkSummary, ignore::Error> {
    let vendored = Arc::new(AtomicU64::new(0));
    // Walk the resolved path: the repository root in `prov` is resolved too, and paths under a
    // symlinked folder would otherwise not be relative to it.
    let resolved = path.canonicalize();
    let path = resolved.as_deref().unwrap_or(path);
    let mut builder = WalkBuilder::new(path);
    if !options.exclude.is_empty() {
        let mut ov = ignore::overrides::OverrideBuilder::new(path);
        for glob in &options.exclude {
            ov.add(&format!("!{glob}"))?;
        }
        builder.overrides(ov.build()?);
    }
    builder
        .threads(options.jobs)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b));
    if options.all {
        builder.standard_filters(false);
    } else if options.vendored {
        // Vendored folders are what ignore files list most: read without them.
        builder
            .git_ignore(false)
            .git_global(false)
            .git_exclude(false)
            .ignore(false);
    } else {
        builder.require_git(false);
        let vendored = Arc::clone(&vendored);
        builder.filter_entry(move |e| {
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            let skip =
                is_dir && e.depth() > 0 && VENDORED.contains(&e.file_name().to_str().unwrap_or(""));
            if skip {
                vendored.fetch_add(1, Ordering::Relaxed);
            }
            !skip
        });
    }
    let root = Arc::new(prov.root.clone());
    builder.build_parallel().run(|| {
        let root = Arc::clone(&root);
        let mut parsers = Parsers::default();
        Box::new(move |entry| {
            let entry = match entry {
                Ok(e) => e,
                Err(err) => {
                    let path = error_path(&err)
                        .map(|p| rel_path(&root, &p))
                        .unwrap_or_default();
                    sink(Event::Skipped {
                        path,
                        reason: Skip::Unreadable,
                        detail: Some(err.to_string()),
                    });
                    return WalkState::Continue;
                }
            };
            let Some(ft) = entry.file_type() else {
                return WalkState::Continue;
            };
            if ft.is_dir() {
                return WalkState::Continue;
            }
            let p = entry.path();
            let Some(lang) = Lang::from_path(p) else {
                return WalkState::Continue;
            };
            let rel = rel_path(&root, p);
            if !ft.is_file() {
                sink(Event::Skipped {
                    path: rel,
                    reason: Skip::NotAFile,
                    detail: None,
                });
                return WalkState::Continue;
            }
            let event = read_one(
                p,
                rel,
                lang,
                prov,
                options,
                known,
                analyzed_at,
                &mut parsers,
            );
            sink(event);
            WalkState::Continue
        })
    });
    Ok(WalkSummary {
        vendored_dirs: vendored.load(Ordering::Relaxed),
        gitignored_files: if options.all || options.vendored {
            0
        } else {
            count_gitignored(path).unwrap_or(0)
        },
    })
}

/// What a walk left out without reading.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct WalkSummary {
    /// Vendored folders (`node_modules`, `vendor`, ...) not entered.
    pub vendored_dirs: u64,
    /// Files of a supported language that git ignores, when the tree is a git checkout.
    pub gitignored_files: u64,
}

/// Files of a supported language under `path` that git ignores (`None` outside git).
fn count_gitignored(path: &Path) -> Option<u64> {
    let dir = if path.is_dir() { path } else { path.parent()? };
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "ls-files",
            "-z",
            "--others",
            "--ignored",
            "--exclude-standard",
            "--",
            ".",
        ])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let n = out
        .stdout
        .split(|b| *b == 0)
        .filter_map(|p| std::str::from_utf8(p).ok())
        .filter(|p| !p.is_empty() && Lang::from_path(Path::new(p)).is_some())
        .count();
    Some(n as u64)
}

#[allow(clippy::too_many_arguments)]
fn read_one(
    p: &Path,
    rel: String,
    lang: Lang,
    prov: &Provenance,
    options: &Options,
    known: &HashMap<String, String>,
    analyzed_at: &str,
    parsers: &mut Parsers,
) -> Event {
    let skip = |reason, detail: Option<String>| Event::Skipped {
        path: rel.clone(),
        reason,
        detail,
    };
    if !options.all && !options.include_tests && is_test_path(&rel) {
        return test_expectations(p, rel, lang, options, parsers);
    }
    let bytes = match read_capped(
        p,
        if options.all {
            u64::MAX
        } else {
            options.max_file_size
        },
    ) {
        Ok(Some(b)) => b,
        Ok(None) => return skip(Skip::TooLarge, None),
        Err(e) => return skip(Skip::Unreadable, Some(e.to_string())),
    };
    let head = &bytes[..bytes.len().min(8192)];
    if memchr::memchr(0, head).is_some() {
        return skip(Skip::Binary, None);
    }
    let src = match std::str::from_utf8(&bytes) {
        Ok(s) => s,
        Err(e) => {
            return skip(
                Skip::NotUtf8,
                Some(format!("invalid byte at offset {}", e.valid_up_to())),
            )
        }
    };
    if !options.all {
        if is_generated(src) {
            return skip(Skip::Generated, None);
        }
        if is_minified(&rel, src) {
            return skip(Skip::Minified, None);
        }
        if lang == Lang::Go && is_never_built(src) {
            return skip(Skip::NeverBuilt, None);
        }
    }
    // The content, and the code that reads it: a file indexed by another version of errata is
    // read again.
    let hash = hex(&Sha256::new()
        .chain_update(env!("ERRATA_RULES_FINGERPRINT"))
        .chain_update(&bytes)
        .finalize());
    let size = bytes.len() as u64;
    if known.get(&rel) == Some(&hash) {
        return Event::File(FileIndexed {
            path: rel,
            lang,
            bytes: size,
            hash,
            records: None,
            facts: Vec::new(),
            refs: Vec::new(),
            refs_pending: false,
            explain_time: std::time::Duration::ZERO,
            parse_errors: false,
        });
    }
    // A file without a trigger word has no error site. Its calls and handlers may still link
    // the records of other files to their callers, but most files name nothing a record
    // needs: which ones do is known once every file with a site is indexed.
    if !crate::rules::may_have_sites(lang, &bytes) {
        return Event::File(FileIndexed {
            path: rel,
            lang,
            bytes: size,
            hash,
            records: Some(Vec::new()),
            facts: Vec::new(),
            refs: Vec::new(),
            refs_pending: true,
            explain_time: std::time::Duration::ZERO,
            parse_errors: false,
        });
    }
    let Some(tree) = parsers.parse(lang, p, src) else {
        return skip(Skip::ParseFailed, None);
    };
    let parse_errors = tree.root_node().has_error();
    let started = std::time::Instant::now();
    let facts = crate::facts::FileFacts::new(lang, tree.root_node(), src);
    let refs = crate::facts::find_refs_and_writes(lang, &tree, src, &facts);
    crate::facts::spent(started.elapsed());
    let mut sites = crate::rules::find_sites_with(
        lang,
        &tree,
        src,
        options.include_tests || options.all,
        facts,
        Some(p),
    );
    if lang == Lang::Rust {
        sites.extend(macro_body_sites(
            &tree,
            src,
            p,
            options.include_tests || options.all,
            |blanked| parsers.parse(lang, p, blanked),
        ));
    }
    let (records, facts) = build_records(prov, lang, &rel, src, sites, analyzed_at)
        .into_iter()
        .unzip();
    Event::File(FileIndexed {
        path: rel,
        lang,
        bytes: size,
        hash,
        records: Some(records),
        facts,
        refs,
        refs_pending: false,
        explain_time: crate::facts::take_spent(),
        parse_errors,
    })
}

/// The sites of Rust items written inside an item-level macro's braces (tokio's
/// `cfg_io_driver! { pub(crate) fn io(&self) … }`, `cfg_if! { … }`): a parser sees a macro's
/// body as tokens, so the bodies are parsed again as items, in a copy of the file blanked
/// everywhere else, which keeps every line and column where it is.
fn macro_body_sites(
    tree: &tree_sitter::Tree,
    src: &str,
    path: &Path,
    include_tests: bool,
    mut parse: impl FnMut(&str) -> Option<tree_sitter::Tree>,
) -> Vec<crate::rules::Site> {
    let mut bodies: Vec<(usize, usize)> = Vec::new();
    let mut transcribers: Vec<(usize, usize)> = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "macro_invocation" => {
                let item_level = n.parent().is_some_and(|p| {
                    matches!(p.kind(), "source_file" | "declaration_list")
                        || p.kind() == "expression_statement"
                            && p.parent().is_some_and(|q| {
                                matches!(q.kind(), "source_file" | "declaration_list")
                            })
                });
                let body = n
                    .named_children(&mut n.walk())
                    .find(|c| c.kind() == "token_tree")
                    .filter(|t| src[t.start_byte()..].starts_with('{'));
                if let Some(t) = body.filter(|_| item_level) {
                    bodies.push((t.start_byte() + 1, t.end_byte().saturating_sub(1)));
                }
            }
            // A `macro_rules!` whose rule writes items (serde's `declare_error_trait!`
            // writes the `de::Error` trait with its default methods): the items as written,
            // their metavariables made plain names.
            "macro_definition" => {
                for rule in n.named_children(&mut n.walk()) {
                    let Some(t) = rule.child_by_field_name("right") else {
                        continue;
                    };
                    let (a, b) = (t.start_byte() + 1, t.end_byte().saturating_sub(1));
                    if a < b && writes_items(&src[a..b]) {
                        bodies.push((a, b));
                        transcribers.push((a, b));
                    }
                }
            }
            "function_item" => {}
            _ => stack.extend(n.named_children(&mut n.walk())),
        }
    }
    // A body with no trigger word has no site.
    bodies
        .retain(|&(a, b)| a < b && crate::rules::may_have_sites(Lang::Rust, &src.as_bytes()[a..b]));
    if bodies.is_empty() {
        return Vec::new();
    }
    bodies.sort_unstable();
    // Every byte outside the bodies but a newline becomes a space: what is left is valid
    // UTF-8 (a body starts and ends at a brace), with every body where it was, parsed once.
    let mut blanked = src.as_bytes().to_vec();
    let mut from = 0;
    for &(a, b) in bodies
        .iter()
        .chain(std::iter::once(&(src.len(), src.len())))
    {
        for byte in &mut blanked[from..a] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
        from = b;
    }
    for &(a, b) in &transcribers {
        plain_metavariables(&mut blanked[a..b]);
    }
    let Ok(blanked) = String::from_utf8(blanked) else {
        return Vec::new();
    };
    let Some(inner) = parse(&blanked) else {
        return Vec::new();
    };
    let facts = crate::facts::FileFacts::new(Lang::Rust, inner.root_node(), &blanked);
    crate::rules::find_sites_with(
        Lang::Rust,
        &inner,
        &blanked,
        include_tests,
        facts,
        Some(path),
    )
}

/// Whether a macro rule's transcriber writes items (`pub trait …`, `impl …`, `fn …`), which
/// parse as a file does; an expression or statements do not.
fn writes_items(body: &str) -> bool {
    let mut rest = body.trim_start();
    // Doc comments and attributes, the metavariables' too (`$(#[$attr])*`), come first.
    loop {
        if let Some(line_end) = rest.strip_prefix("//").and_then(|r| r.find('\n')) {
            rest = rest[2 + line_end..].trim_start();
        } else if rest.starts_with("#[") || rest.starts_with("$(#[") {
            match rest.find(']') {
                Some(end) => {
                    rest = rest[end + 1..].trim_start();
                    rest = rest.strip_prefix(")*").unwrap_or(rest).trim_start();
                }
                None => return false,
            }
        } else {
            break;
        }
    }
    let word = rest
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    matches!(
        word,
        "pub"
            | "fn"
            | "impl"
            | "trait"
            | "struct"
            | "enum"
            | "mod"
            | "const"
            | "static"
            | "type"
            | "use"
            | "unsafe"
    )
}

/// A macro transcriber's metavariables made plain Rust, in place and byte for byte: `$name`
/// and `$crate` lose the `$`, and a repetition `$( … ),*` loses its `$`, separator and
/// operator, leaving what it repeats once.
fn plain_metavariables(body: &mut [u8]) {
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'$' {
            i += 1;
            continue;
        }
        let next = body.get(i + 1).copied();
        if next == Some(b'(') {
            body[i] = b' ';
            // The `)` that closes it, then up to two bytes of separator before `*`, `+`, `?`.
            let mut depth = 0usize;
            let mut close = None;
            for (j, &c) in body.iter().enumerate().skip(i + 1) {
                match c {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            close = Some(j);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            if let Some(close) = close {
                let after = &body[close + 1..body.len().min(close + 4)];
                if let Some(op) = after
                    .iter()
                    .position(|c| matches!(c, b'*' | b'+' | b'?'))
                    .filter(|&k| after[..k].iter().all(|c| c.is_ascii_punctuation()))
                {
                    for c in &mut body[close + 1..=close + 1 + op] {
                        *c = b' ';
                    }
                }
            }
            i += 1;
        } else if next.is_some_and(|c| c.is_ascii_alphabetic() || c == b'_') {
            body[i] = b' ';
            i += 1;
        } else {
            i += 1;
        }
    }
}

/// A test file that is not indexed: its expectations, when it has any.
fn test_expectations(
    p: &Path,
    rel: String,
    lang: Lang,
    options: &Options,
    parsers: &mut Parsers,
) -> Event {
    let skipped = |rel| Event::Skipped {
        path: rel,
        reason: Skip::Test,
        detail: None,
    };
    let Ok(Some(bytes)) = read_capped(p, options.max_file_size) else {
        return skipped(rel);
    };
    if !crate::facts::may_expect(&bytes) {
        return skipped(rel);
    }
    let Ok(src) = std::str::from_utf8(&bytes) else {
        return skipped(rel);
    };
    let Some(tree) = parsers.parse(lang, p, src) else {
        return skipped(rel);
    };
    let refs = crate::facts::find_expectations(lang, &tree, src);
    if refs.is_empty() {
        return skipped(rel);
    }
    Event::Expectations { path: rel, refs }
}

/// One tree-sitter parser per grammar, kept by a worker thread.
#[derive(Default)]
pub(crate) struct Parsers(HashMap<(Lang, bool), tree_sitter::Parser>);

impl Parsers {
    /// Parses `src`, the content of `path`, with the grammar of `lang`.
    pub(crate) fn parse(
        &mut self,
        lang: Lang,
        path: &Path,
        src: &str,
    ) -> Option<tree_sitter::Tree> {
        let is_tsx = path.extension().is_some_and(|e| e == "tsx");
        let parser = self.0.entry((lang, is_tsx)).or_insert_with(|| {
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&lang.grammar(path))
                .expect("grammar versions are pinned to the tree-sitter in use");
            parser
        });
        let tree = parser.parse(src, None);
        if tree.is_none() {
            parser.reset();
        }
        tree
    }
}

/// Reads a file unless it is larger than `max` bytes (`Ok(None)`).
pub(crate) fn read_capped(p: &Path, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    let f = std::fs::File::open(p)?;
    let len = f.metadata()?.len();
    if len > max {
        return Ok(None);
    }
    let mut buf = Vec::with_capacity(len as usize + 1);
    f.take(max.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > max {
        return Ok(None);
    }
    Ok(Some(buf))
}

fn error_path(err: &ignore::Error) -> Option<PathBuf> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } => error_path(err),
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        _ => None,
    }
}

fn rel_path(root: &Path, p: &Path) -> String {
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    let abs = normalize(&abs);
    let rel = abs.strip_prefix(root).unwrap_or(&abs);
    rel.to_string_lossy().replace('\\', "/")
}

/// Removes `.` and `..` components without touching the file system (symlinks stay as named).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A header that says the file was written by a program.
fn is_generated(src: &str) -> bool {
    let mut end = src.len().min(1024);
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    let head = src[..end].to_ascii_lowercase();
    (head.contains("code generated") && head.contains("do not edit"))
        || head.contains("@generated")
        || head.contains("<auto-generated")
        || head.contains("this file is automatically generated")
        || head.contains("this file was automatically generated")
        || head.contains("autogenerated by")
        || head.contains("auto-generated by")
        || head.contains("generated by the protocol buffer compiler")
}

/// A Go file that no build compiles: a generator or tool run by hand (`go run gen.go`),
/// marked by the constraint `//go:build ignore` above its package clause. Its panics are the
/// tool's, never a program's.
fn is_never_built(src: &str) -> bool {
    for line in src.lines().map(str::trim) {
        if line.starts_with("package ") {
            return false;
        }
        let constraint = line
            .strip_prefix("//go:build ")
            .or_else(|| line.strip_prefix("// +build "));
        if constraint.is_some_and(|c| c.trim() == "ignore") {
            return true;
        }
    }
    false
}

/// A file whose lines are far longer than people write them.
fn is_minified(rel: &str, src: &str) -> bool {
    if rel.contains(".min.") {
        return true;
    }
    if src.len() < 4096 {
        return false;
    }
    let lines = memchr::memchr_iter(b'\n', src.as_bytes()).count() + 1;
    src.len() / lines > 300
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minified_and_generated() {
        assert!(is_minified("a.js", &"x".repeat(10_000)));
        assert!(!is_minified("a.js", &"let x = 1;\n".repeat(1000)));
        assert!(is_generated(
            "// Code generated by protoc-gen-go. DO NOT EDIT.\npackage x"
        ));
        assert!(!is_generated("package x\n"));
    }

    #[test]
    fn a_go_generator_is_never_built() {
        let generator = "// Copyright\n\n//go:build ignore\n\n// Run with go run.\npackage main\n";
        assert!(is_never_built(generator));
        assert!(is_never_built("// +build ignore\n\npackage main\n"));
        // A constraint that some build meets, or one below the package clause, is not it.
        assert!(!is_never_built("//go:build linux && !ignore\npackage os\n"));
        assert!(!is_never_built("//go:build linux\npackage os\n"));
        assert!(!is_never_built("package os\n//go:build ignore\n"));
    }
}
