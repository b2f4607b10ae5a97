//! `errata explain [TEXT | -]`: the records that produced an error message, a log line or a
//! stack trace, best first.

use std::io::Read;

use anyhow::{Context, Result};
use errata_matcher::Hit;
use errata_model::Record;
use serde::Serialize;

use super::lookup;
use crate::{db, Failure, Global};

/// The most text read from stdin; a stack trace is far smaller.
const MAX_INPUT: u64 = 16 << 20;

#[derive(Debug, clap::Args)]
pub(crate) struct ExplainArgs {
    /// The error text; `-` (or nothing, with stdin not a terminal) reads it from stdin.
    text: Option<String>,
    /// How many records to show.
    #[arg(long, short = 'n', default_value_t = 3)]
    limit: usize,
}

#[derive(Serialize)]
struct Answer<'a> {
    matches: Vec<Match<'a>>,
}

#[derive(Serialize)]
struct Match<'a> {
    score: f64,
    exact: bool,
    approximate: bool,
    captures: Vec<Capture<'a>>,
    record: &'a Record,
}

#[derive(Serialize)]
struct Capture<'a> {
    name: &'a str,
    value: &'a str,
}

pub(crate) fn run(g: &Global, args: ExplainArgs) -> Result<()> {
    let text = read_text(args.text)?;
    if text.trim().is_empty() {
        return Err(Failure::Usage(
            "the error text is empty; pass it as an argument, or pipe it in with `errata explain -`"
                .into(),
        )
        .into());
    }
    let store = db::for_reading(g)?;
    // Only the records whose anchor word is in the text can match it: load those.
    let words = lookup::words(&text);
    let limit = args.limit.max(1);
    let mut matcher = lookup::matcher(store.match_rows_for_words(&words)?);
    let mut hits = matcher.explain(&text, limit);
    if hits.is_empty() {
        if store.is_empty()? {
            return Err(lookup::empty(&store));
        }
        // Words of one or two letters are in most messages and say little.
        let long: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| w.chars().count() > 2)
            .take(64)
            .collect();
        matcher = lookup::matcher(store.similar_rows(&long, 200)?);
        hits = matcher.similar(&text, limit);
    }
    let mut records = Vec::with_capacity(hits.len());
    for h in &hits {
        let id = &matcher.entries()[h.entry].id;
        let r = store
            .find(id)?
            .into_iter()
            .find(|r| &r.id == id)
            .with_context(|| format!("record {id} vanished while reading"))?;
        records.push(r);
    }
    let matched = hits.iter().any(|h| !h.approximate);
    if g.json {
        let answer = Answer {
            matches: hits
                .iter()
                .zip(&records)
                .map(|(h, r)| Match {
                    score: h.score,
                    exact: h.exact,
                    approximate: h.approximate,
                    captures: h
                        .captures
                        .iter()
                        .map(|c| Capture {
                            name: &c.name,
                            value: &c.value,
                        })
                        .collect(),
                    record: r,
                })
                .collect(),
        };
        println!("{}", serde_json::to_string(&answer)?);
    } else if matched {
        print_best(&hits[0], &records[0]);
        if hits.len() > 1 {
            println!();
            println!("Also matching:");
            for (h, r) in hits.iter().zip(&records).skip(1) {
                print_line(h, r);
            }
        }
    }
    if matched {
        return Ok(());
    }
    let mut msg = String::from("no record matches this text");
    if records.is_empty() {
        msg.push_str("; nothing similar is stored either. Is the code that raises it indexed? `errata stats` lists the indexed repositories");
    } else {
        msg.push_str(". Nearest by similarity (approximate):");
        for (h, r) in hits.iter().zip(&records) {
            msg.push_str(&format!(
                "\n  {:.2}  {}  {}:{}  {:?}",
                h.score, r.id, r.file_path, r.line_number, r.error_message
            ));
        }
    }
    Err(Failure::NotFound(msg).into())
}

fn read_text(arg: Option<String>) -> Result<String> {
    use std::io::IsTerminal;
    match arg.as_deref() {
        Some("-") => {}
        Some(_) => return Ok(arg.unwrap_or_default()),
        None if std::io::stdin().is_terminal() => return Err(Failure::Usage(
            "give the error text: `errata explain \"TEXT\"`, or pipe it in with `errata explain -`"
                .into(),
        )
        .into()),
        None => {}
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_INPUT)
        .read_to_end(&mut bytes)
        .context("reading the error text from stdin")?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn print_best(h: &Hit, r: &Record) {
    let how = if h.exact {
        "exact match"
    } else {
        "partial match"
    };
    println!("{how}, score {:.2}", h.score);
    if !h.captures.is_empty() {
        println!("values:");
        for c in &h.captures {
            println!("  {} = {:?}", c.name, c.value);
        }
    }
    println!();
    super::show::print_record(r);
}

fn print_line(h: &Hit, r: &Record) {
    let how = if h.exact { "exact" } else { "partial" };
    println!(
        "  {:.2} {how:<7} {}  {}:{}  {:?}",
        h.score, r.id, r.file_path, r.line_number, r.error_message
    );
}
