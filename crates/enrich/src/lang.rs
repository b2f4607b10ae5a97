//! The record's language, by file extension, as far as prompting and checking identifiers need
//! it: a name for the prompt, comment and string syntax, keywords and common builtins.
//!
//! The table of extensions is errata-lang's; it is repeated here rather than depended upon so
//! that this crate does not pull in the tree-sitter grammars.

/// A language family whose lexical syntax the identifier check knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    TypeScript,
    JavaScript,
    Python,
    Go,
    Rust,
    Java,
    /// Any other extension: C-like comments and strings, the union of the keyword lists.
    Other,
}

impl Lang {
    /// The language of an extension (`ts`), a dotted extension (`.ts`) or a path
    /// (`src/plugin.ts`).
    pub(crate) fn from_ext(ext: &str) -> Lang {
        let ext = ext.rsplit('.').next().unwrap_or(ext).to_ascii_lowercase();
        match ext.as_str() {
            "ts" | "tsx" | "mts" | "cts" => Lang::TypeScript,
            "js" | "jsx" | "mjs" | "cjs" => Lang::JavaScript,
            "py" | "pyi" => Lang::Python,
            "go" => Lang::Go,
            "rs" => Lang::Rust,
            "java" => Lang::Java,
            _ => Lang::Other,
        }
    }

    /// The name said in the prompt.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Lang::TypeScript => "TypeScript",
            Lang::JavaScript => "JavaScript",
            Lang::Python => "Python",
            Lang::Go => "Go",
            Lang::Rust => "Rust",
            Lang::Java => "Java",
            Lang::Other => "unknown",
        }
    }

    pub(crate) fn is_js(self) -> bool {
        matches!(self, Lang::TypeScript | Lang::JavaScript)
    }

    /// Whether `#` starts a comment.
    pub(crate) fn hash_comments(self) -> bool {
        self == Lang::Python
    }

    /// Whether `//` and `/* */` are comments.
    pub(crate) fn slash_comments(self) -> bool {
        self != Lang::Python
    }

    /// Whether `name` is a keyword or a builtin of the language, which an answer may use
    /// without the source naming it.
    pub(crate) fn is_builtin(self, name: &str) -> bool {
        if COMMON.contains(&name) {
            return true;
        }
        let lists: &[&[&str]] = match self {
            Lang::TypeScript | Lang::JavaScript => &[JS],
            Lang::Python => &[PYTHON],
            Lang::Go => &[GO],
            Lang::Rust => &[RUST],
            Lang::Java => &[JAVA],
            Lang::Other => &[JS, PYTHON, GO, RUST, JAVA],
        };
        lists.iter().any(|list| list.contains(&name))
    }
}

/// Names every language's answer may use.
#[rustfmt::skip]
const COMMON: &[&str] = &["_", "true", "false", "null", "nil", "None", "self", "this"];

/// TypeScript and JavaScript: keywords, type names, globals, and members of the standard
/// objects that error handling uses.
#[rustfmt::skip]
const JS: &[&str] = &[
    // keywords
    "abstract", "any", "as", "async", "await", "bigint", "boolean", "break", "case", "catch",
    "class", "const", "continue", "debugger", "declare", "default", "delete", "do", "else",
    "enum", "export", "extends", "finally", "for", "from", "function", "if", "implements",
    "import", "in", "infer", "instanceof", "interface", "is", "keyof", "let", "never", "new",
    "number", "object", "of", "private", "protected", "public", "readonly", "return",
    "satisfies", "static", "string", "super", "switch", "symbol", "throw", "try", "type",
    "typeof", "undefined", "unknown", "var", "void", "while", "with", "yield", "NaN", "Infinity",
    // globals and standard types
    "AbortController", "AbortSignal", "AggregateError", "Array", "Boolean", "Date", "Error",
    "EvalError", "JSON", "Map", "Math", "Number", "Object", "Partial", "Promise", "RangeError",
    "Readonly", "Record", "ReferenceError", "RegExp", "Required", "Set", "String", "Symbol",
    "SyntaxError", "TypeError", "URIError", "URL", "WeakMap", "clearTimeout", "console", "env",
    "fetch", "globalThis", "module", "exports", "process", "require", "setTimeout",
    // members of the standard objects
    "abort", "add", "all", "allSettled", "cause", "code", "debug", "endsWith", "entries",
    "error", "every", "filter", "find", "forEach", "get", "has", "includes", "indexOf", "info",
    "isArray", "join", "keys", "length", "log", "map", "match", "message", "name", "parse",
    "push", "reject", "replace", "resolve", "signal", "slice", "some", "split", "stack",
    "startsWith", "stringify", "test", "then", "timeout", "toLowerCase", "toString",
    "toUpperCase", "trim", "values", "warn",
];

/// Python: keywords, builtins, the standard exceptions and common members.
#[rustfmt::skip]
const PYTHON: &[&str] = &[
    // keywords
    "and", "as", "assert", "async", "await", "break", "case", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "match", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "True", "False", "cls",
    // builtins
    "all", "any", "bool", "bytes", "callable", "dict", "enumerate", "float", "getattr",
    "hasattr", "int", "isinstance", "issubclass", "iter", "len", "list", "max", "min", "next",
    "object", "open", "print", "range", "repr", "reversed", "set", "setattr", "sorted", "str",
    "sum", "super", "tuple", "type", "zip", "Optional", "Any",
    // exceptions
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "ConnectionError",
    "Exception", "FileExistsError", "FileNotFoundError", "ImportError", "IndexError", "IOError",
    "KeyError", "LookupError", "ModuleNotFoundError", "NotImplementedError", "OSError",
    "PermissionError", "RuntimeError", "StopIteration", "TimeoutError", "TypeError",
    "UnicodeDecodeError", "ValueError", "ZeroDivisionError",
    // members and modules error handling uses
    "append", "args", "debug", "decode", "encode", "endswith", "error", "exception", "extend",
    "format", "get", "info", "items", "join", "keys", "logging", "logger", "lower", "split",
    "startswith", "strip", "upper", "values", "warning",
];

/// Go: keywords, predeclared names, and the standard packages of error handling.
#[rustfmt::skip]
const GO: &[&str] = &[
    // keywords
    "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
    "for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
    "return", "select", "struct", "switch", "type", "var",
    // predeclared
    "any", "append", "bool", "byte", "cap", "clear", "close", "comparable", "complex",
    "complex128", "complex64", "copy", "delete", "error", "float32", "float64", "imag", "int",
    "int16", "int32", "int64", "int8", "iota", "len", "make", "max", "min", "new", "panic",
    "print", "println", "real", "recover", "rune", "string", "uint", "uint16", "uint32",
    "uint64", "uint8", "uintptr",
    // errors, fmt, log, strings, context, time, os
    "errors", "Is", "As", "New", "Unwrap", "Join", "Error", "fmt", "Errorf", "Sprintf",
    "Printf", "Println", "Fprintf", "log", "Fatal", "Fatalf", "Print", "strings", "Contains",
    "HasPrefix", "HasSuffix", "context", "Context", "Background", "WithTimeout",
    "WithCancel", "DeadlineExceeded", "Canceled", "Err", "time", "Second", "Millisecond",
    "Duration", "Sleep", "os", "Exit", "Stderr",
];

/// Rust: keywords, the prelude, the standard macros and the common methods of `Option`,
/// `Result` and strings.
#[rustfmt::skip]
const RUST: &[&str] = &[
    // keywords
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
    "extern", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "Self", "static", "struct", "super", "trait", "type", "unsafe",
    "use", "where", "while",
    // primitive types
    "bool", "char", "f32", "f64", "i128", "i16", "i32", "i64", "i8", "isize", "str", "u128",
    "u16", "u32", "u64", "u8", "usize",
    // prelude and std
    "Arc", "Box", "Clone", "Copy", "Debug", "Default", "Display", "Err", "Error", "ErrorKind",
    "From", "HashMap", "HashSet", "Into", "Iterator", "Mutex", "None", "Ok", "Option",
    "Result", "Send", "Some", "String", "Sync", "ToString", "Vec", "fmt", "io", "std",
    // macros
    "assert", "assert_eq", "assert_ne", "bail", "debug_assert", "ensure", "eprintln", "format",
    "matches", "panic", "println", "todo", "unimplemented", "unreachable", "vec", "write",
    "writeln",
    // common methods
    "and_then", "as_ref", "as_str", "clone", "contains", "context", "downcast_ref", "expect",
    "from", "into", "is_empty", "is_err", "is_none", "is_ok", "is_some", "iter", "kind", "len",
    "map", "map_err", "ok", "ok_or", "ok_or_else", "source", "starts_with", "to_owned",
    "to_string", "unwrap", "unwrap_or", "unwrap_or_default", "unwrap_or_else", "with_context",
    "anyhow", "tracing", "warn",
];

/// Java: keywords, `java.lang` types and the members error handling uses.
#[rustfmt::skip]
const JAVA: &[&str] = &[
    // keywords
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class",
    "const", "continue", "default", "do", "double", "else", "enum", "extends", "final",
    "finally", "float", "for", "if", "implements", "import", "instanceof", "int", "interface",
    "long", "native", "new", "package", "private", "protected", "public", "record", "return",
    "short", "static", "super", "switch", "synchronized", "throw", "throws", "try", "var",
    "void", "volatile", "while", "yield",
    // java.lang and java.util
    "ArrayList", "Boolean", "Double", "Error", "Exception", "HashMap", "IOException",
    "IllegalArgumentException", "IllegalStateException", "IndexOutOfBoundsException",
    "Integer", "List", "Long", "Map", "NullPointerException", "NumberFormatException",
    "Object", "Objects", "Optional", "RuntimeException", "Set", "String", "System",
    "Throwable", "UncheckedIOException", "UnsupportedOperationException",
    // members
    "add", "contains", "debug", "equals", "err", "error", "get", "getCause", "getMessage",
    "info", "isEmpty", "length", "log", "logger", "of", "out", "printStackTrace", "println",
    "put", "requireNonNull", "size", "startsWith", "toString", "warn",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_paths_and_dots_name_the_language() {
        assert_eq!(Lang::from_ext("ts"), Lang::TypeScript);
        assert_eq!(Lang::from_ext(".PY"), Lang::Python);
        assert_eq!(Lang::from_ext("src/plugin.tsx"), Lang::TypeScript);
        assert_eq!(Lang::from_ext("rb"), Lang::Other);
    }

    #[test]
    fn builtins_are_per_language() {
        assert!(Lang::Python.is_builtin("isinstance"));
        assert!(!Lang::Go.is_builtin("isinstance"));
        assert!(Lang::Go.is_builtin("Is"));
        assert!(Lang::Rust.is_builtin("matches"));
        assert!(Lang::Other.is_builtin("isinstance"));
        assert!(Lang::Java.is_builtin("null"));
    }
}
