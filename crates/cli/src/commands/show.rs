//! `errata show ID|SLUG`: one record, in full.

use std::io::{self, Write};

use anyhow::Result;
use errata_model::Record;

use crate::{db, Failure, Global};

#[derive(Debug, clap::Args)]
pub(crate) struct ShowArgs {
    /// A record id (16 hex digits) or slug.
    key: String,
    /// Print the facts static analysis found at the site (JSON), which the explanation is
    /// written from.
    #[arg(long)]
    facts: bool,
}

pub(crate) fn run(g: &Global, args: ShowArgs) -> Result<()> {
    let store = db::for_reading(g)?;
    let records = store.find(&args.key)?;
    if records.is_empty() {
        return Err(Failure::NotFound(format!(
            "no record has the id or slug {:?}; `errata list` shows what is stored",
            args.key
        ))
        .into());
    }
    let mut out = io::stdout().lock();
    for (i, r) in records.iter().enumerate() {
        let explained = store.explained_one(&r.id)?;
        if args.facts {
            let facts = explained.as_ref().map(|e| e.facts.as_str()).unwrap_or("{}");
            let v: serde_json::Value = serde_json::from_str(facts)?;
            if g.json {
                writeln!(out, "{v}")?;
            } else {
                writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
            }
            continue;
        }
        if g.json {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        } else {
            if i > 0 {
                writeln!(out)?;
            }
            print_record(&mut out, r)?;
            let sources = explained.and_then(|e| e.sources);
            writeln!(out, "{}", written_by(sources.as_deref()))?;
        }
    }
    Ok(())
}

/// Which source wrote the explanation fields: static analysis, or a model for some of them.
fn written_by(sources: Option<&str>) -> String {
    let by_model = errata_store::written_by_model(sources);
    if by_model.is_empty() {
        return "explanation: written by static analysis".to_owned();
    }
    let mut models: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for (field, model) in &by_model {
        models.entry(model).or_default().push(field);
    }
    let parts: Vec<String> = models
        .iter()
        .map(|(m, fields)| format!("{} by model {m}", fields.join(", ")))
        .collect();
    format!(
        "explanation: {}; the other fields by static analysis",
        parts.join("; ")
    )
}

pub(crate) fn print_record(out: &mut impl Write, r: &Record) -> io::Result<()> {
    writeln!(out, "{}  {}", r.id, r.slug)?;
    writeln!(out, "message:  {}", r.error_message)?;
    writeln!(out, "pattern:  {}", r.message_pattern)?;
    let mut kind = format!("{} ({})", r.error_type.as_str(), r.severity.as_str());
    if let Some(c) = &r.error_class {
        kind.push_str(&format!("  class {c}"));
    }
    if let Some(c) = &r.error_code {
        kind.push_str(&format!("  code {c}"));
    }
    if let Some(s) = r.http_status {
        kind.push_str(&format!("  HTTP {s}"));
    }
    writeln!(out, "kind:     {kind}")?;
    writeln!(
        out,
        "where:    {} {}:{}",
        r.repo, r.file_path, r.line_number
    )?;
    if let Some(u) = &r.github_url {
        writeln!(out, "link:     {u}")?;
    }
    writeln!(out)?;
    let width = r.source_code_end.to_string().len();
    for (i, line) in r.source_code.split('\n').enumerate() {
        let n = r.source_code_start + i as u32;
        let mark = if n == r.line_number { '>' } else { ' ' };
        writeln!(out, "{mark}{n:>width$} | {line}")?;
    }
    writeln!(out)?;
    writeln!(out, "{}", r.documentation)?;
    writeln!(out)?;
    writeln!(out, "When: {}", r.trigger_scenarios)?;
    writeln!(out, "Solutions:")?;
    for s in &r.solutions {
        writeln!(out, "  - {s}")?;
    }
    writeln!(out, "Recognise it:\n{}", indent(&r.type_guard))?;
    writeln!(
        out,
        "Handle it ({}):\n{}",
        r.handling_strategy.as_str(),
        indent(&r.try_catch_pattern)
    )?;
    writeln!(out, "tags: {}", r.tags.join(", "))
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
