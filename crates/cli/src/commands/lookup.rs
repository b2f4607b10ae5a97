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
        return Err(empty(store));
    }
    Ok(matcher(rows))
}

/// The error for a store without records.
pub(crate) fn empty(store: &Store) -> anyhow::Error {
    Failure::Usage(format!(
        "the knowledge base {} has no records; run `errata index` on a source tree first",
        store.path().display()
    ))
    .into()
}

/// The distinct words of a text, as the store's anchors are cut; escapes of a JSON or logfmt
/// envelope (`\n`, `\"`) do not glue words together.
pub(crate) fn words(text: &str) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    errata_model::words(text)
        .flat_map(|w| {
            // `\nInvalid` reads as the word `nInvalid`; its tail is a word too.
            let tail = w
                .strip_prefix(['n', 't', 'r'])
                .filter(|t| t.starts_with(char::is_uppercase));
            std::iter::once(w).chain(tail)
        })
        .filter(|w| seen.insert(*w))
        .take(4096)
        .collect()
}

/// Builds a matcher over some of the store's records.
pub(crate) fn matcher(rows: Vec<errata_store::MatchRow>) -> Matcher {
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
    matcher
}
