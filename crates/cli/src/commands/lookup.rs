//! Loading the matcher from the store, shared by `explain` and `scan`.

use anyhow::Result;
use errata_matcher::Matcher;
use errata_store::Store;

use crate::Failure;

/// Builds the matcher over every stored record. Records whose pattern cannot be run are
/// reported on stderr and left out; the rest still match.
pub(crate) fn load(store: &Store) -> Result<Matcher> {
    let rows = store.match_rows()?;
    if rows.is_empty() {
        return Err(empty(store.path()));
    }
    Ok(matcher(rows))
}

/// The error for a store without records.
pub(crate) fn empty(db: &std::path::Path) -> anyhow::Error {
    Failure::Usage(format!(
        "the knowledge base {} has no records; run `errata index` on a source tree first",
        db.display()
    ))
    .into()
}

/// Builds a matcher over the given records, warning about those it cannot run.
fn matcher(rows: Vec<errata_matcher::MatchEntry>) -> Matcher {
    let (matcher, report) = Matcher::new(rows);
    if let Some((id, why)) = report.refused.first() {
        tracing::warn!(
            "{} records have a messagePattern errata cannot run and are left out (first: {id}: {why}); re-index their source to rewrite them",
            report.refused.len()
        );
    }
    tracing::debug!(
        entries = report.entries,
        templates = report.templates,
        vague = report.vague,
        regex = report.regex,
        "matcher loaded"
    );
    matcher
}
