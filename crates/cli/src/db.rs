//! Finding the database: `--db`, `$ERRATA_DB`, or `.errata/errata.db` here or in the nearest
//! parent folder that has one, as git finds `.git`.

use std::path::{Path, PathBuf};

use anyhow::Result;
use errata_store::Store;

use crate::{Failure, Global};

const DEFAULT: &str = ".errata/errata.db";

fn discover() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    cwd.ancestors()
        .map(|d| d.join(DEFAULT))
        .find(|p| p.is_file())
}

/// The database to write to: the one named or found, else a new one in the current folder.
pub(crate) fn for_writing(g: &Global) -> Result<Store> {
    let path =
        g.db.clone()
            .or_else(discover)
            .unwrap_or_else(|| PathBuf::from(DEFAULT));
    let mut store = Store::open(&path)?;
    store.lock_writers(|| {
        eprintln!(
            "errata: another errata run is writing to {}; waiting for it to finish",
            path.display()
        )
    })?;
    Ok(store)
}

/// The database to read: it must exist.
pub(crate) fn for_reading(g: &Global) -> Result<Store> {
    let path = match g.db.clone().or_else(discover) {
        Some(p) => p,
        None => {
            return Err(Failure::Usage(format!(
                "no knowledge base here: no {DEFAULT} in this folder or its parents. Run `errata index` first, or pass --db FILE"
            ))
            .into())
        }
    };
    if !Path::new(&path).is_file() {
        return Err(Failure::Usage(format!(
            "the database {} does not exist. Run `errata index --db {}` first",
            path.display(),
            path.display()
        ))
        .into());
    }
    Ok(Store::open_existing(&path)?)
}
