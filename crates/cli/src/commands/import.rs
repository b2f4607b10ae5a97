//! `errata import FILE.jsonl`: loads a schema-v2 dataset (an `errata export`, any number of
//! repositories) into the store, so that a published dataset is explained, scanned, served and
//! asked over MCP with nothing indexed here.
//!
//! A dataset comes from elsewhere, so nothing in it is trusted: every line is validated against
//! the schema, a line longer than [`MAX_LINE`] is not read, and each `messagePattern` is vetted
//! ([`errata_matcher::template::vet`]) before it is stored. A bad line is reported with its
//! number and skipped; the good ones are written in one transaction, so an interrupted import
//! leaves the store as it was.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use errata_matcher::template::{self, Refused};
use errata_model::{ExportLine, Record, SCHEMA_V2, SCHEMA_VERSION};
use errata_store::FileUpdate;
use serde_json::Value;

use crate::{db, Failure, Global};

/// The longest line read: a record with its source window is a few KiB.
const MAX_LINE: usize = 1 << 20;

/// Bad lines named one by one; past this many only counted.
const NAMED_BAD_LINES: usize = 20;

#[derive(Debug, clap::Args)]
pub(crate) struct ImportArgs {
    /// The dataset: JSON Lines of `{"record": {...}, "datasetVersion": "..."}`, as `errata
    /// export` writes it; `-` reads stdin.
    #[arg(value_name = "FILE.jsonl")]
    file: PathBuf,
}

/// A line that was not imported, and why.
#[derive(Debug, serde::Serialize)]
struct Skipped {
    line: usize,
    reason: String,
}

pub(crate) fn run(g: &Global, args: ImportArgs) -> Result<()> {
    let input: Box<dyn Read> = if args.file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(
            std::fs::File::open(&args.file)
                .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", args.file.display())))?,
        )
    };
    let (records, skipped, lines) = read(BufReader::with_capacity(1 << 16, input))
        .with_context(|| format!("reading {}", args.file.display()))?;
    let name = args.file.display().to_string();
    for s in skipped.iter().take(NAMED_BAD_LINES) {
        eprintln!("{name}:{}: {}; the line is skipped", s.line, s.reason);
    }
    if skipped.len() > NAMED_BAD_LINES {
        eprintln!("{} more lines are skipped", skipped.len() - NAMED_BAD_LINES);
    }
    if records.is_empty() {
        let why = if lines == 0 {
            format!("{name} holds no records")
        } else {
            format!("no line of {name} is a schema-v2 record; nothing was imported")
        };
        return Err(Failure::NotFound(why).into());
    }
    let mut store = db::for_writing(g)?;
    let imported = records.len();
    let repos = write(&mut store, records)?;
    if g.json {
        let summary = serde_json::json!({
            "imported": imported,
            "repositories": repos,
            "skipped": skipped,
        });
        println!("{summary}");
    } else {
        eprintln!(
            "imported {} of {} ({}) into {}; {} of {lines} lines skipped",
            plural(imported, "record", "records"),
            plural(repos.len(), "repository", "repositories"),
            repos.join(", "),
            store.path().display(),
            skipped.len(),
        );
    }
    Ok(())
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The records of the good lines, the bad lines, and how many lines were read.
fn read(mut input: impl BufRead) -> Result<(Vec<Record>, Vec<Skipped>, usize)> {
    let schema: Value = serde_json::from_str(SCHEMA_V2).expect("the embedded schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the embedded schema compiles");
    let (mut records, mut skipped) = (Vec::new(), Vec::new());
    let mut buf = Vec::new();
    let mut n = 0;
    loop {
        buf.clear();
        let read = input
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if read == 0 {
            break;
        }
        n += 1;
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            skip_rest_of_line(&mut input)?;
            skipped.push(Skipped {
                line: n,
                reason: format!("longer than {} MiB", MAX_LINE >> 20),
            });
            continue;
        }
        if buf.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match record(&buf, &validator) {
            Ok(r) => records.push(r),
            Err(reason) => skipped.push(Skipped { line: n, reason }),
        }
    }
    Ok((records, skipped, n))
}

fn skip_rest_of_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        match memchr::memchr(b'\n', chunk) {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let len = chunk.len();
                input.consume(len);
            }
        }
    }
}

/// One line, validated: the record, or why it is not one.
fn record(line: &[u8], validator: &jsonschema::Validator) -> Result<Record, String> {
    let value: Value = serde_json::from_slice(line).map_err(|e| format!("not JSON ({e})"))?;
    let version = &value["record"]["schemaVersion"];
    if !version.is_null() && version.as_u64() != Some(SCHEMA_VERSION.into()) {
        return Err(format!(
            "schemaVersion {version}; errata reads schema version {SCHEMA_VERSION} (error-record.v2)"
        ));
    }
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .take(3)
        .map(|e| match e.instance_path().to_string() {
            p if p.is_empty() => e.to_string(),
            p => format!("{e} at {p}"),
        })
        .collect();
    if !errors.is_empty() {
        return Err(format!("not a schema-v2 line: {}", errors.join("; ")));
    }
    let line: ExportLine = serde_json::from_value(value).map_err(|e| format!("{e}"))?;
    let record = line.record.into_owned();
    match template::vet(&record.message_pattern) {
        // A pattern with too little literal text is kept: it matches nothing, and the record
        // is still listed, shown and served.
        Ok(_) | Err(Refused::TooVague) => Ok(record),
        Err(Refused::TooLarge) => Err(format!(
            "the messagePattern of record {} is refused: {} KiB, or too large once compiled (the limit is {} KiB)",
            record.id,
            record.message_pattern.len() >> 10,
            template::MAX_PATTERN_LEN >> 10
        )),
        Err(why) => Err(format!(
            "the messagePattern of record {} is refused: {why}",
            record.id
        )),
    }
}

/// Writes the records, a file's records replacing those stored for it, in one transaction.
/// Returns the repositories written.
fn write(store: &mut errata_store::Store, records: Vec<Record>) -> Result<Vec<String>> {
    let mut files: BTreeMap<(String, String), Vec<Record>> = BTreeMap::new();
    for r in records {
        files
            .entry((r.repo.clone(), r.file_path.clone()))
            .or_default()
            .push(r);
    }
    let mut repos: Vec<String> = files.keys().map(|(repo, _)| repo.clone()).collect();
    repos.dedup();
    let updates: Vec<FileUpdate> = files
        .into_iter()
        .map(|((repo, path), records)| {
            let lang = errata_lang::Lang::from_path(Path::new(&path))
                .map_or("other", |l| l.name())
                .to_owned();
            let hash = format!(
                "imported {}",
                records
                    .iter()
                    .map(|r| r.analyzed_at.as_str())
                    .max()
                    .unwrap_or_default()
            );
            FileUpdate {
                repo,
                path,
                lang,
                hash,
                bytes: 0,
                facts: Vec::new(),
                records: Some(records),
                refs: Vec::new(),
                refs_pending: false,
            }
        })
        .collect();
    store.write_batch(&updates, None, &|_, _, _| None, &crate::now())?;
    store.optimize_message_index()?;
    Ok(repos)
}
