//! `errata stats`: counts of the stored records.

use anyhow::Result;

use crate::{db, Global};

pub(crate) fn run(g: &Global) -> Result<()> {
    let store = db::for_reading(g)?;
    let s = store.stats()?;
    if g.json {
        println!("{}", s.to_json());
        return Ok(());
    }
    println!("{} records from {} files", s.records, s.files);
    for (title, rows) in [
        ("repository", &s.repos),
        ("language", &s.by_lang),
        ("type", &s.by_type),
    ] {
        println!("\nby {title}:");
        for (k, n) in rows {
            println!("  {n:>8}  {k}");
        }
    }
    Ok(())
}
