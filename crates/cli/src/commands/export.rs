//! `errata export`: the dataset as JSON Lines, one `{"record": {...}, "datasetVersion": "..."}`
//! per line, keys in the order of schema v2.

use std::borrow::Cow;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use errata_model::ExportLine;
use errata_store::Filter;

use crate::{db, now, Global};

#[derive(Debug, clap::Args)]
pub(crate) struct ExportArgs {
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Only the records of this repository.
    #[arg(long, value_name = "OWNER/NAME")]
    repo: Option<String>,
}

pub(crate) fn run(g: &Global, args: ExportArgs) -> Result<()> {
    let store = db::for_reading(g)?;
    let out: Box<dyn Write> = match &args.output {
        Some(p) => Box::new(
            std::fs::File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let version = now();
    let filter = Filter {
        repo: args.repo,
        ..Filter::default()
    };
    store
        .for_each(&filter, |record| {
            let line = ExportLine {
                record: Cow::Owned(record),
                dataset_version: version.clone(),
            };
            serde_json::to_writer(&mut out, &line)?;
            out.write_all(b"\n")
        })?
        .context("writing the export")?;
    out.flush().context("writing the export")?;
    Ok(())
}
