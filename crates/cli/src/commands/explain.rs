//! `errata explain [TEXT | -]`: the records that produced an error message, a log line or a
//! stack trace, best first.

use std::io::{Read, Write};

use anyhow::{Context, Result};
use errata_api::lookup::{self, Match};

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
    let answer = lookup::explain(&store, &text, args.limit.max(1))?;
    if answer.matches.is_empty() && store.is_empty()? {
        return Err(super::lookup::empty(store.path()));
    }
    let matched = answer.matched();
    let mut out = std::io::stdout().lock();
    if g.json {
        writeln!(out, "{}", serde_json::to_string(&answer)?)?;
    } else if matched {
        print_best(&mut out, &answer.matches[0])?;
        if answer.matches.len() > 1 {
            writeln!(out)?;
            writeln!(out, "Also matching:")?;
            for m in &answer.matches[1..] {
                print_line(&mut out, m)?;
            }
        }
    }
    if matched {
        return Ok(());
    }
    let mut msg = String::from("no record matches this text");
    if answer.matches.is_empty() {
        msg.push_str("; nothing similar is stored either. Is the code that raises it indexed? `errata stats` lists the indexed repositories");
    } else {
        msg.push_str(". Nearest by similarity (approximate):");
        for m in &answer.matches {
            let r = &m.record()?;
            msg.push_str(&format!(
                "\n  {:.2}  {}  {}:{}  {:?}",
                m.score, r.id, r.file_path, r.line_number, r.error_message
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

fn print_best(out: &mut impl Write, m: &Match) -> Result<()> {
    let (h, r) = (m, &m.record()?);
    if h.by_frame {
        writeln!(
            out,
            "found by the trace: its frame {}:{} is this raise",
            r.file_path, r.line_number
        )?;
    } else if h.by_code {
        writeln!(
            out,
            "found by the code the text states: this record's code is {}",
            r.error_code.as_deref().unwrap_or_default()
        )?;
    } else {
        let how = if h.exact {
            "exact match"
        } else {
            "partial match"
        };
        writeln!(out, "{how}, score {:.2}", h.score)?;
    }
    if !h.captures.is_empty() {
        writeln!(out, "values:")?;
        for c in &h.captures {
            writeln!(out, "  {} = {:?}", c.name, c.value)?;
        }
    }
    writeln!(out)?;
    super::show::print_record(out, r)?;
    Ok(())
}

fn print_line(out: &mut impl Write, m: &Match) -> Result<()> {
    let (h, r) = (m, &m.record()?);
    let how = match (h.by_frame, h.exact) {
        _ if h.by_code => "code",
        (true, _) => "frame",
        (false, true) => "exact",
        (false, false) => "partial",
    };
    writeln!(
        out,
        "  {:.2} {how:<7} {}  {}:{}  {:?}",
        h.score, r.id, r.file_path, r.line_number, r.error_message
    )?;
    Ok(())
}
