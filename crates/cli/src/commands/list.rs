//! `errata list`: the stored records, one per line.

use std::io::Write;

use anyhow::Result;
use errata_store::Filter;

use crate::{db, Global};

#[derive(Debug, clap::Args)]
pub(crate) struct ListArgs {
    /// Only records of this repository.
    #[arg(long, value_name = "OWNER/NAME")]
    repo: Option<String>,
    /// Only records of this language (typescript, javascript, python, go, rust, java).
    #[arg(long)]
    lang: Option<String>,
    /// Only records of this type (exception, error-return, panic, assertion, http, log, exit).
    #[arg(long = "type", value_name = "TYPE")]
    error_type: Option<String>,
    /// Only records whose message contains TEXT (case-insensitive).
    #[arg(long, value_name = "TEXT")]
    grep: Option<String>,
    /// At most N records.
    #[arg(long, short = 'n', value_name = "N")]
    limit: Option<u64>,
}

pub(crate) fn run(g: &Global, args: ListArgs) -> Result<()> {
    let store = db::for_reading(g)?;
    if let Some(l) = &args.lang {
        if errata_lang::Lang::parse_name(l).is_none() {
            return Err(crate::Failure::Usage(format!(
                "unknown language {l:?}: use typescript, javascript, python, go, rust or java"
            ))
            .into());
        }
    }
    if let Some(t) = &args.error_type {
        if errata_model::ErrorType::parse(t).is_none() {
            return Err(crate::Failure::Usage(errata_model::ErrorType::unknown(t)).into());
        }
    }
    let filter = Filter {
        repo: args.repo,
        lang: args
            .lang
            .as_deref()
            .and_then(errata_lang::Lang::parse_name)
            .map(|l| l.name().to_owned()),
        error_type: args.error_type,
        text: args.grep,
        limit: args.limit,
        ..Filter::default()
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    store.for_each(&filter, |r| {
        if g.json {
            serde_json::to_writer(&mut out, &r)?;
            writeln!(out)
        } else {
            let mut msg: String = r.error_message.replace('\n', "\\n");
            if msg.chars().count() > 100 {
                msg = msg.chars().take(99).collect::<String>() + "…";
            }
            writeln!(
                out,
                "{}  {:<12} {}:{}  {}",
                r.id,
                r.error_type.as_str(),
                r.file_path,
                r.line_number,
                msg
            )
        }
    })??;
    out.flush()?;
    Ok(())
}
