//! A site and the file it is in, made into a record.

use std::collections::HashMap;

use errata_explain::Facts;
use errata_lang::Lang;
use errata_model::{record_id, slug, Record, SCHEMA_VERSION};

use crate::{Provenance, Site};

/// Lines of context on each side of the raising line.
const WINDOW: u32 = 18;

/// Longest line kept in a source window, in bytes: a minified line is cut, marked with `…`.
const MAX_WINDOW_LINE: usize = 1000;

/// The records of the sites of one file. `file_path` is relative to the repository root;
/// `analyzed_at` stamps both `analyzedAt` and `contentChangedAt` (the store keeps the earlier
/// `contentChangedAt` of a record whose content did not change).
pub fn build_records(
    prov: &Provenance,
    lang: Lang,
    file_path: &str,
    src: &str,
    sites: Vec<Site>,
    analyzed_at: &str,
) -> Vec<(Record, Facts)> {
    if sites.is_empty() {
        return Vec::new();
    }
    let lines: Vec<&str> = src
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    // A file ending in a newline has no line after it.
    let last_line = if src.ends_with('\n') {
        lines.len() - 1
    } else {
        lines.len()
    }
    .max(1) as u32;
    let mut seen: HashMap<String, u32> = HashMap::new();
    sites
        .into_iter()
        .map(|site| {
            let message = site.template.message();
            let ordinal = seen.entry(message.clone()).or_insert(0);
            let id = record_id(&prov.repo, file_path, &message, *ordinal);
            *ordinal += 1;
            let line = site.line.min(last_line);
            let start = line.saturating_sub(WINDOW).max(1);
            let end = (line + WINDOW).min(last_line);
            let source_code = lines[(start - 1) as usize..end as usize]
                .iter()
                .map(|l| clip(l))
                .collect::<Vec<_>>()
                .join("\n");
            let started = std::time::Instant::now();
            let e = errata_explain::explain(&errata_explain::Site {
                lang,
                error_type: site.error_type,
                class: site.class.as_deref(),
                message: &message,
                file_path,
                line,
                status: site.status,
                code: site.code.as_deref(),
                facts: &site.facts,
            });
            crate::facts::spent(started.elapsed());
            let record = Record {
                id,
                repo: prov.repo.clone(),
                slug: slug(&message),
                error_code: site.code,
                message_pattern: site.template.pattern(),
                error_message: message,
                error_type: site.error_type,
                error_class: site.class,
                http_status: site.status,
                severity: site.severity,
                file_path: file_path.to_owned(),
                line_number: line,
                source_code,
                source_code_start: start,
                source_code_end: end,
                github_url: prov.permalink(file_path, start, end),
                documentation: e.documentation,
                trigger_scenarios: e.trigger_scenarios,
                common_situations: e.common_situations,
                solutions: e.solutions,
                example_fix: e.example_fix,
                handling_strategy: e.handling_strategy,
                validation_code: e.validation_code,
                type_guard: e.type_guard,
                try_catch_pattern: e.try_catch_pattern,
                prevention_tips: e.prevention_tips,
                tags: e.tags,
                background_tag: e.background_tag,
                analyzed_sha: prov.sha.clone(),
                analyzed_at: analyzed_at.to_owned(),
                content_changed_at: analyzed_at.to_owned(),
                schema_version: SCHEMA_VERSION,
            };
            (record, site.facts)
        })
        .collect()
}

/// A line cut to at most [`MAX_WINDOW_LINE`] bytes, at a character boundary.
fn clip(line: &str) -> std::borrow::Cow<'_, str> {
    if line.len() <= MAX_WINDOW_LINE {
        return line.into();
    }
    let mut end = MAX_WINDOW_LINE;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} …", &line[..end]).into()
}
