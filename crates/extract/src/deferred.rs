//! The references of files without a trigger word, found only where they can matter.
//!
//! Such a file has no error site, so the walk reads and hashes it but does not parse it. Its
//! calls, definitions and handlers link other files' records only when it names one of a few
//! things: a function that holds a record, an error class, a Go sentinel. Once every file with
//! a site is stored, the caller gathers those names into [`WantedNames`] and hands the pending
//! files to [`index_refs`]: a file that names none of them is left pending without being
//! parsed, to be looked at again when the names change. Parsing is most of what indexing
//! costs, and on large trees most files without a trigger word name nothing a record needs.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use aho_corasick::AhoCorasick;
use errata_lang::Lang;
use errata_model::Ref;

use crate::walk::{read_capped, Parsers};

/// The names whose calls, definitions or handlers link a record to other files, by language:
/// a JavaScript function's callers are JavaScript or TypeScript files, a Go sentinel's
/// handlers are Go files.
#[derive(Debug, Default)]
pub struct WantedNames {
    /// Per language family ([`Lang::family`]): the automaton and, per pattern, whether only a
    /// call- or definition-shaped use counts (`name(`, and per language `name<`, `name[`,
    /// `name =`), rather than any use of the word.
    families: [Option<(AhoCorasick, Vec<bool>)>; 5],
}

/// The slot of a language's family ([`Lang::family`]).
fn family(lang: Lang) -> usize {
    match lang.family() {
        Lang::Python => 1,
        Lang::Go => 2,
        Lang::Rust => 3,
        Lang::Java => 4,
        _ => 0,
    }
}

/// What may follow a function's name where it is called or defined, besides `(`: generic
/// arguments (`name<T>(`, `name::<T>(`, Go's `name[T](`) and JavaScript's `name = () => …`.
fn call_shaped(lang: Lang, next: u8) -> bool {
    match lang {
        Lang::TypeScript | Lang::JavaScript => matches!(next, b'(' | b'<' | b'=' | b':'),
        Lang::Go => matches!(next, b'(' | b'['),
        Lang::Rust => matches!(next, b'(' | b'<' | b':'),
        Lang::Python | Lang::Java => next == b'(',
    }
}

impl WantedNames {
    /// `functions`: names whose calls and definitions matter; `words`: names that matter
    /// wherever they appear (classes a handler catches, sentinels a function returns); each
    /// with the language of the record it comes from.
    pub fn new(
        functions: impl IntoIterator<Item = (Lang, String)>,
        words: impl IntoIterator<Item = (Lang, String)>,
    ) -> WantedNames {
        let mut patterns: [Vec<(String, bool)>; 5] = Default::default();
        for ((lang, name), is_call) in functions
            .into_iter()
            .map(|n| (n, true))
            .chain(words.into_iter().map(|n| (n, false)))
        {
            if !name.is_empty() && name.bytes().all(is_ident) {
                patterns[family(lang)].push((name, is_call));
            }
        }
        let mut wanted = WantedNames::default();
        for (slot, mut list) in wanted.families.iter_mut().zip(patterns) {
            list.sort();
            list.dedup();
            if list.is_empty() {
                continue;
            }
            let automaton = AhoCorasick::new(list.iter().map(|(n, _)| n))
                .expect("plain names build an automaton");
            *slot = Some((automaton, list.into_iter().map(|(_, c)| c).collect()));
        }
        wanted
    }

    /// Whether no name is wanted.
    pub fn is_empty(&self) -> bool {
        self.families.iter().all(Option::is_none)
    }

    /// Whether `src`, a file of `lang`, names one of the wanted names of its language as a
    /// whole word (and, for a function, in the shape of a call or a definition).
    pub fn found_in(&self, lang: Lang, src: &[u8]) -> bool {
        self.first_in(lang, src).is_some()
    }

    /// The first wanted name `src` names, as [`WantedNames::found_in`] looks for it.
    pub fn first_in<'s>(&self, lang: Lang, src: &'s [u8]) -> Option<&'s [u8]> {
        let (automaton, called) = self.families[family(lang)].as_ref()?;
        let m = automaton.find_overlapping_iter(src).find(|m| {
            let before = m.start().checked_sub(1).map(|i| src[i]);
            let after = src.get(m.end()).copied();
            if before.is_some_and(is_ident)
                || after.is_some_and(is_ident)
                || in_comment_line(lang, src, m.start())
            {
                return false;
            }
            if !called[m.pattern().as_usize()] {
                return true;
            }
            src[m.end()..]
                .iter()
                .take(64)
                .find(|b| !matches!(b, b' ' | b'\t'))
                .is_some_and(|b| call_shaped(lang, *b))
        })?;
        Some(&src[m.start()..m.end()])
    }
}

/// Whether the line holding byte `at` is a comment from its start (`// …`, `/* …`, `# …`):
/// names in documentation (`// Zero returns …`, `//go:build (linux)`) are not uses. A line
/// that only ends in a comment still counts.
fn in_comment_line(lang: Lang, src: &[u8], at: usize) -> bool {
    let start = src[..at]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let line = &src[start..at];
    let line = &line[line.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    match lang {
        Lang::Python => line.starts_with(b"#"),
        _ => line.starts_with(b"//") || line.starts_with(b"/*"),
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The references of a pending file that was parsed.
#[derive(Debug)]
pub struct RefsFound {
    /// Relative to the repository root, as stored.
    pub path: String,
    pub refs: Vec<Ref>,
    pub parse_errors: bool,
    /// Size of the file.
    pub bytes: u64,
    /// Time spent finding the references.
    pub explain_time: std::time::Duration,
}

/// Reads each of `paths` (relative to `root`) on `jobs` threads (0: one per core) and, when
/// it names something in `wanted`, parses it and hands its references to `sink`.
pub fn index_refs(
    root: &Path,
    paths: &[String],
    wanted: &WantedNames,
    jobs: usize,
    sink: &(dyn Fn(RefsFound) + Sync),
) {
    if wanted.is_empty() || paths.is_empty() {
        return;
    }
    let jobs = if jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        jobs
    };
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(paths.len()) {
            scope.spawn(|| {
                let mut parsers = Parsers::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = paths.get(i) else { break };
                    if let Some(found) = refs_of(root, path, wanted, &mut parsers) {
                        sink(found);
                    }
                }
            });
        }
    });
}

fn refs_of(
    root: &Path,
    path: &str,
    wanted: &WantedNames,
    parsers: &mut Parsers,
) -> Option<RefsFound> {
    let full = root.join(path);
    let lang = Lang::from_path(&full)?;
    // A file that went away or cannot be read is the next walk's to report.
    let bytes = read_capped(&full, u64::MAX).ok()??;
    let src = std::str::from_utf8(&bytes).ok()?;
    // A file that names nothing wanted stays pending, without being parsed.
    let name = wanted.first_in(lang, &bytes)?;
    tracing::debug!(path, name = %String::from_utf8_lossy(name), "parsed for references");
    let tree = parsers.parse(lang, &full, src)?;
    let started = std::time::Instant::now();
    let refs = crate::facts::find_refs(lang, &tree, src);
    Some(RefsFound {
        path: path.to_owned(),
        refs,
        parse_errors: tree.root_node().has_error(),
        bytes: bytes.len() as u64,
        explain_time: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::WantedNames;
    use errata_lang::Lang;

    #[test]
    fn names_are_found_as_whole_words_in_the_shape_of_a_call() {
        let wanted = WantedNames::new(
            [
                (Lang::TypeScript, "release".to_owned()),
                (Lang::Go, "Lookup".to_owned()),
            ],
            [(Lang::Python, "QuotaError".to_owned())],
        );
        let js = |s: &str| wanted.found_in(Lang::JavaScript, s.as_bytes());
        assert!(js("await release (params, true)"));
        assert!(js("const release = async () => {}"));
        assert!(!js("// see the release notes"));
        assert!(!js("  // release() is called by stop\n"));
        assert!(js("stop(); // then release(x)\nrelease(y)"));
        assert!(!js("releases(x); prerelease(y)"));
        let py = |s: &str| wanted.found_in(Lang::Python, s.as_bytes());
        assert!(py("except QuotaError as e:"));
        assert!(!py("except QuotaErrors:"));
        assert!(!py("    # except QuotaError: retry"));
        assert!(
            !py("release()"),
            "a TypeScript function is not called from Python"
        );
        let go = |s: &str| wanted.found_in(Lang::Go, s.as_bytes());
        assert!(go("v, ok := Lookup[string](m, k)"));
        assert!(!go("Lookup := 3"));
        assert!(WantedNames::new([], []).is_empty());
    }
}
