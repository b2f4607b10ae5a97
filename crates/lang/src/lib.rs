//! The languages errata reads, and how to recognise and parse each.
//!
//! [`Lang`] names a source language as a user thinks of it (TypeScript, Python, ...);
//! [`Lang::from_path`] picks it from a file name, and [`Lang::grammar`] gives the tree-sitter
//! grammar for that file (TypeScript has two: one for `.tsx`). The extraction rules for each
//! language live in `errata-extract`; adding a language means a variant here, its grammar
//! crate, its rules there and its fixtures.
//!
//! ```
//! use errata_lang::Lang;
//! use std::path::Path;
//!
//! assert_eq!(Lang::from_path(Path::new("src/plugin.ts")), Some(Lang::TypeScript));
//! assert_eq!(Lang::from_path(Path::new("lib/index.cjs")), Some(Lang::JavaScript));
//! assert_eq!(Lang::from_path(Path::new("README.md")), None);
//! assert_eq!(Lang::Python.name(), "python");
//! ```

mod names;
pub use names::{js_exports, names, Name};

use std::path::Path;

/// A source language errata extracts error sites from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    TypeScript,
    JavaScript,
    Python,
    Go,
    Rust,
    Java,
}

/// File extensions per language.
const EXTENSIONS: &[(&str, Lang)] = &[
    ("ts", Lang::TypeScript),
    ("tsx", Lang::TypeScript),
    ("mts", Lang::TypeScript),
    ("cts", Lang::TypeScript),
    ("js", Lang::JavaScript),
    ("jsx", Lang::JavaScript),
    ("mjs", Lang::JavaScript),
    ("cjs", Lang::JavaScript),
    ("py", Lang::Python),
    ("pyi", Lang::Python),
    ("go", Lang::Go),
    ("rs", Lang::Rust),
    ("java", Lang::Java),
];

impl Lang {
    pub const ALL: [Lang; 6] = [
        Lang::TypeScript,
        Lang::JavaScript,
        Lang::Python,
        Lang::Go,
        Lang::Rust,
        Lang::Java,
    ];

    /// The language of a file, by its extension.
    pub fn from_path(path: &Path) -> Option<Lang> {
        let ext = path.extension()?.to_str()?;
        EXTENSIONS
            .iter()
            .find(|(e, _)| e.eq_ignore_ascii_case(ext))
            .map(|&(_, l)| l)
    }

    /// The language whose files call each other's functions with this one's: JavaScript
    /// for TypeScript, the language itself otherwise.
    pub fn family(self) -> Lang {
        match self {
            Lang::TypeScript => Lang::JavaScript,
            l => l,
        }
    }

    /// The lower-case name used in summaries, filters and the store.
    pub fn name(self) -> &'static str {
        match self {
            Lang::TypeScript => "typescript",
            Lang::JavaScript => "javascript",
            Lang::Python => "python",
            Lang::Go => "go",
            Lang::Rust => "rust",
            Lang::Java => "java",
        }
    }

    pub fn parse_name(name: &str) -> Option<Lang> {
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "ts" => Some(Lang::TypeScript),
            "js" => Some(Lang::JavaScript),
            "py" => Some(Lang::Python),
            "rs" => Some(Lang::Rust),
            _ => Lang::ALL.into_iter().find(|l| l.name() == name),
        }
    }

    /// The grammar for `path`, which must be a file of this language.
    pub fn grammar(self, path: &Path) -> tree_sitter::Language {
        let is_tsx = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("tsx"));
        match self {
            Lang::TypeScript if is_tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Java => tree_sitter_java::LANGUAGE.into(),
        }
    }
}

impl Lang {
    /// The grammar's own syntax-highlighting query (`queries/highlights.scm`). TypeScript's
    /// extends JavaScript's, so it is JavaScript's followed by TypeScript's additions.
    pub fn highlights_query(self) -> std::borrow::Cow<'static, str> {
        match self {
            Lang::TypeScript => format!(
                "{}\n{}",
                tree_sitter_javascript::HIGHLIGHT_QUERY,
                tree_sitter_typescript::HIGHLIGHTS_QUERY
            )
            .into(),
            Lang::JavaScript => tree_sitter_javascript::HIGHLIGHT_QUERY.into(),
            Lang::Python => tree_sitter_python::HIGHLIGHTS_QUERY.into(),
            Lang::Go => tree_sitter_go::HIGHLIGHTS_QUERY.into(),
            Lang::Rust => tree_sitter_rust::HIGHLIGHTS_QUERY.into(),
            Lang::Java => tree_sitter_java::HIGHLIGHTS_QUERY.into(),
        }
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grammar_loads_and_parses() {
        for (ext, lang) in EXTENSIONS {
            let path = format!("x.{ext}");
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&lang.grammar(Path::new(&path)))
                .unwrap();
            let tree = parser.parse("x", None).unwrap();
            assert!(tree.root_node().child_count() <= 2, "{ext}");
        }
    }
}
