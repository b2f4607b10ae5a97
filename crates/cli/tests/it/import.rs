//! `errata import`: a published dataset explained with nothing indexed here, and a dataset's
//! bad lines reported one by one without touching the store.

use serde_json::{json, Value};

use crate::util::{seed, shared, Scratch};

fn line(record: &Value) -> String {
    json!({"record": record, "datasetVersion": "2026-12-02T00:00:00.000Z"}).to_string()
}

fn with(field: &str, value: Value, id: &str) -> Value {
    let mut r = seed();
    r[field] = value;
    r["id"] = json!(id);
    r
}

#[test]
fn the_seed_record_is_imported_and_explained() {
    let s = Scratch::new();
    let file = s.write("seed.jsonl", line(&seed()) + "\n");
    s.ok(&["import", file.to_str().unwrap()]);
    let out = s.ok(&[
        "--json",
        "explain",
        "Error: CreateOS process cleanup is unconfirmed; destroy this lease before reusing it.",
    ]);
    let answer: Value = serde_json::from_str(&out).unwrap();
    let first = &answer["matches"][0];
    assert_eq!(first["exact"], true, "{out}");
    assert_eq!(first["record"]["id"], seed()["id"]);
    // Nothing is lost on the way in: the export holds the record as it was given.
    let records = s.records();
    assert_eq!(records, vec![seed()]);
    // The embedded schema is the contract's.
    let ours: Value = serde_json::from_str(errata_model::SCHEMA_V2).unwrap();
    let contract: Value = serde_json::from_str(
        &std::fs::read_to_string(shared().join("schema/error-record.v2.schema.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        ours, contract,
        "crates/model/schema is a copy of ../shared/schema"
    );
}

#[test]
fn bad_lines_are_named_and_skipped_and_the_store_keeps_the_good_ones() {
    let s = Scratch::new();
    let alternation: Vec<String> = (0..12_000).map(|i| format!("word{i}")).collect();
    let lines = [
        r#"{"record": {"id": "broken"#.to_owned(),
        line(&with("schemaVersion", json!(1), "1111111111111111")),
        format!(r#"{{"record": "{}"}}"#, "a".repeat(10 << 20)),
        line(&with("messagePattern", json!("(a+)+$"), "2222222222222222")),
        line(&with(
            "messagePattern",
            json!(alternation.join("|")),
            "3333333333333333",
        )),
        line(&with("severity", json!("apocalyptic"), "4444444444444444")),
        String::new(),
        line(&seed()),
    ];
    let file = s.write("bad.jsonl", lines.join("\n") + "\n");
    let out = s.errata(&["import", file.to_str().unwrap()]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    for (n, says) in [
        (1, "not JSON"),
        (2, "schemaVersion 1; errata reads schema version 2"),
        (3, "longer than 1 MiB"),
        (4, "`(a+)+` repeats a repetition"),
        (5, "the limit is 16 KiB"),
        (6, "not a schema-v2 line"),
    ] {
        let prefix = format!("bad.jsonl:{n}: ");
        assert!(
            err.lines()
                .any(|l| l.contains(&prefix) && l.contains(says) && l.ends_with("skipped")),
            "line {n}: {says:?} in:\n{err}"
        );
    }
    assert!(err.contains("imported 1 record of 1 repository"), "{err}");
    let ids: Vec<Value> = s.records().iter().map(|r| r["id"].clone()).collect();
    assert_eq!(ids, vec![seed()["id"].clone()]);
    // A file with no good line imports nothing and says so.
    let none = s.write("none.jsonl", lines[..6].join("\n"));
    let out = s.errata(&["import", none.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing was imported"));
    assert_eq!(s.records().len(), 1);
}
