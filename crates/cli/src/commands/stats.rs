//! `errata stats`: counts of the stored records.

use anyhow::Result;

use crate::{db, Global};

pub(crate) fn run(g: &Global) -> Result<()> {
    let store = db::for_reading(g)?;
    let s = store.stats()?;
    if g.json {
        let obj = |v: &[(String, u64)]| -> serde_json::Map<String, serde_json::Value> {
            v.iter().map(|(k, n)| (k.clone(), (*n).into())).collect()
        };
        let out = serde_json::json!({
            "files": s.files,
            "records": s.records,
            "repos": obj(&s.repos),
            "byLang": obj(&s.by_lang),
            "byType": obj(&s.by_type),
        });
        println!("{out}");
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
