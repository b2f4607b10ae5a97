//! What a record's file path says about it.

/// Whether a repository-relative path is a test file or lives in a test folder.
pub fn is_test_path(rel: &str) -> bool {
    let mut parts = rel.split('/').peekable();
    while let Some(part) = parts.next() {
        let is_file = parts.peek().is_none();
        if !is_file {
            let d = part.to_ascii_lowercase();
            if matches!(
                d.as_str(),
                "test"
                    | "tests"
                    | "__tests__"
                    | "testdata"
                    | "testing"
                    | "__mocks__"
                    | "spec"
                    | "e2e"
            ) || d.ends_with("_test")
                || d.ends_with("_tests")
            {
                return true;
            }
            continue;
        }
        let stem = part.split('.').next().unwrap_or(part);
        return part.ends_with("_test.go")
            || (part.ends_with(".py")
                && (stem.starts_with("test_") || stem.ends_with("_test") || stem == "conftest"))
            || part.contains(".test.")
            || part.contains(".spec.")
            || (part.ends_with(".java")
                && (stem.ends_with("Test") || stem.ends_with("Tests") || stem.ends_with("IT")));
    }
    false
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
        assert!(!is_test_path("src/contest.py"));
        assert!(!is_test_path("lib/testament.js"));
        assert!(!is_test_path("unittest/case.py"));
    }
}
