//! What a record's file path says about it.

/// Folders whose files are tests, benchmarks or examples, in any case: none is the product.
const TEST_DIRS: [&str; 11] = [
    "test",
    "tests",
    "__tests__",
    "testdata",
    "testing",
    "__mocks__",
    "spec",
    "e2e",
    "benches",
    "benchmarks",
    "examples",
];

/// Whether a repository-relative path is a test file or lives in a test folder.
pub fn is_test_path(rel: &str) -> bool {
    let (dirs, file) = rel.rsplit_once('/').unwrap_or(("", rel));
    let ends_with = |d: &str, suffix: &str| {
        d.len() >= suffix.len()
            && d.as_bytes()[d.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
    };
    let test_dir = |d: &str| {
        TEST_DIRS.iter().any(|t| d.eq_ignore_ascii_case(t))
            || ends_with(d, "_test")
            || ends_with(d, "_tests")
    };
    if !dirs.is_empty() && dirs.split('/').any(test_dir) {
        return true;
    }
    let stem = file.split('.').next().unwrap_or(file);
    file.ends_with("_test.go")
        || (file.ends_with(".py")
            && (stem.starts_with("test_") || stem.ends_with("_test") || stem == "conftest"))
        || file.contains(".test.")
        || file.contains(".spec.")
        || (file.ends_with(".java")
            && (stem.ends_with("Test") || stem.ends_with("Tests") || stem.ends_with("IT")))
        // Rust's out-of-line test modules (`#[cfg(test)] mod tests;` is `tests.rs`).
        || (file.ends_with(".rs")
            && (matches!(stem, "test" | "tests")
                || stem.ends_with("_test")
                || stem.ends_with("_tests")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths() {
        assert!(is_test_path("pkg/foo_test.go"));
        assert!(is_test_path("Lib/test/test_os.py"));
        assert!(is_test_path("src/a.spec.ts"));
        assert!(is_test_path("idlelib/idle_test/x.py"));
        assert!(is_test_path("src/test/java/FooTest.java"));
        assert!(is_test_path("regex-1.10.2/benches/canonicalize.rs"));
        assert!(is_test_path("tokio-1.35.0/examples/echo.rs"));
        assert!(!is_test_path("src/contest.py"));
        assert!(!is_test_path("lib/testament.js"));
        assert!(!is_test_path("unittest/case.py"));
        assert!(is_test_path("Lib/TESTS/x.py"));
        assert!(is_test_path("conftest.py"));
        assert!(is_test_path("base64-0.23.1/src/engine/tests.rs"));
        assert!(is_test_path("ureq-3.5.2/src/io_timeout_tests.rs"));
        assert!(!is_test_path("src/attest.rs"));
        assert!(!is_test_path("cmd/go/internal/load/test.go"));
        assert!(!is_test_path("tests.py"));
        assert!(is_test_path("a/Integration_Tests/b.go"));
    }
}
