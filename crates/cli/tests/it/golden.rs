//! The reference record of the dataset, reproduced from its source window.

use crate::util::{assert_valid, copy_dir, fixtures, shared, Scratch};

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
    let seed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(shared().join("seed/record.json")).unwrap())
            .unwrap();
    let seed = &seed["record"];
    let s = Scratch::new();
    let tree = s.path().join("paperclip");
    copy_dir(&fixtures().join("golden"), &tree);
    s.ok(&[
        "index",
        tree.to_str().unwrap(),
        "--repo",
        "paperclipai/paperclip",
        "--commit",
        "3f1d897a7c018d76563a21c6e39c3c9b03933622",
    ]);
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
