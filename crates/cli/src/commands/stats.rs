//! `errata stats`: counts of the stored records.

use std::io::Write;

use anyhow::Result;

use crate::{db, Global};

pub(crate) fn run(g: &Global) -> Result<()> {
    let store = db::for_reading(g)?;
    let s = store.stats()?;
    let mut out = std::io::stdout().lock();
    if g.json {
        writeln!(out, "{}", s.to_json())?;
        return Ok(());
    }
    writeln!(out, "{} records from {} files", s.records, s.files)?;
    for (title, rows) in [
        ("repository", &s.repos),
        ("language", &s.by_lang),
        ("type", &s.by_type),
    ] {
        writeln!(out, "\nby {title}:")?;
        for (k, n) in rows {
            writeln!(out, "  {n:>8}  {k}")?;
        }
    }
    Ok(())
}
