//! The reference record of the dataset, reproduced from its source window.

use crate::util::{assert_valid, golden_indexed, seed};

const FIELDS: &[&str] = &[
    "repo",
    "slug",
    "errorCode",
    "errorMessage",
    "messagePattern",
    "errorType",
    "errorClass",
    "httpStatus",
    "severity",
    "filePath",
    "lineNumber",
    "sourceCode",
    "sourceCodeStart",
    "sourceCodeEnd",
    "githubUrl",
    "analyzedSha",
    "schemaVersion",
];

#[test]
fn the_seed_record_is_reproduced() {
    let seed = &seed();
    let s = golden_indexed();
    let lines = s.export();
    assert_valid(&lines);
    let found = lines
        .iter()
        .map(|l| &l["record"])
        .find(|r| r["lineNumber"] == seed["lineNumber"])
        .expect("a record at the seed's line");
    for f in FIELDS {
        assert_eq!(found[f], seed[f], "field {f}");
    }
    // The other two throws of release() are records too, and nothing else is.
    let messages: Vec<&str> = lines
        .iter()
        .map(|l| l["record"]["errorMessage"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "CreateOS lease does not belong to this environment.",
            "CreateOS lease cleanup is already in progress.",
            "CreateOS process cleanup is unconfirmed; destroy this lease before reusing it.",
        ]
    );
}
