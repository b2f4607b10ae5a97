//! Finding error sites in a source tree.
//!
//! [`index`] walks a tree (in parallel, honouring `.gitignore` as ripgrep does), decides for
//! each file whether to read it ([`Skip`] says why not), parses it with its tree-sitter grammar,
//! runs the rules of its language ([`find_sites`]) and turns every site into a
//! [`errata_model::Record`]. Each file's outcome is handed to a sink as an [`Event`]; the caller
//! (the CLI) stores them. A file that cannot be read or parsed is reported and the run goes on.
//!
//! ```
//! use errata_extract::{find_sites, parse};
//! use errata_lang::Lang;
//!
//! let src = "function f(x) {\n  if (!x) throw new TypeError(`bad x: ${x}`);\n}\n";
//! let tree = parse(Lang::TypeScript, std::path::Path::new("a.ts"), src).unwrap();
//! let sites = find_sites(Lang::TypeScript, &tree, src, false);
//! assert_eq!(sites[0].line, 2);
//! assert_eq!(sites[0].template.message(), "bad x: ${x}");
//! assert_eq!(sites[0].class.as_deref(), Some("TypeError"));
//! ```
//!
//! # Source code layout
//!
//! - `walk`: which files are read, and why the others are skipped.
//! - `deferred`: the references of files without a trigger word, parsed only when they name
//!   something a record needs.
//! - `rules`: one module per language, and the walk over a syntax tree they share.
//! - `text`: string literals and format strings into message templates.
//! - `provenance`: repository name, commit and permalinks, from git or from the user.
//! - `build`: a site and its file into a record.

mod build;
mod deferred;
mod facts;
mod provenance;
mod rules;
mod text;
mod walk;

pub use build::build_records;
pub use deferred::{index_refs, RefsFound, WantedNames};
pub use facts::find_refs;
pub use provenance::Provenance;
pub use rules::{find_sites, find_sites_by_walk, Site};
pub use walk::{index, is_test_path, Event, FileIndexed, Options, Skip, WalkSummary};

use errata_lang::Lang;
use std::path::Path;

/// Parses `src` with the grammar of `lang` for `path`.
pub fn parse(lang: Lang, path: &Path, src: &str) -> Option<tree_sitter::Tree> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&lang.grammar(path)).ok()?;
    parser.parse(src, None)
}
