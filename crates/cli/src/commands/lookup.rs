//! Loading the matcher from the store, shared by `explain` and `scan`.

use anyhow::Result;
use errata_matcher::{Entry, Matcher};
use errata_store::Store;

use crate::Failure;

/// Builds the matcher over every stored record. Records whose pattern cannot be run are
/// reported on stderr and left out; the rest still match.
pub(crate) fn load(store: &Store) -> Result<Matcher> {
    let rows = store.match_rows()?;
    if rows.is_empty() {
        return Err(Failure::Usage(format!(
            "the knowledge base {} has no records; run `errata index` on a source tree first",
            store.path().display()
        ))
        .into());
    }
    let entries = rows
        .into_iter()
        .map(|r| Entry {
            id: r.id,
            slug: r.slug,
            file_path: r.file_path,
            line_number: r.line_number,
            message: r.message,
            pattern: r.pattern,
            error_class: r.error_class,
            error_code: r.error_code,
        })
        .collect();
    let (matcher, report) = Matcher::new(entries);
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
    Ok(matcher)
}
