//! `errata enrich --llm-url URL --model NAME`: asks a language model to rewrite each record's
//! explanation from its source window and facts. Answers are kept by (content, model, prompt
//! version), so an unchanged record is never sent again and an interrupted run picks up where
//! it stopped; an answer that names something the code does not have is rejected.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Result;
use errata_enrich::{cache_key, parse_answer, Client, Config, Error, Fields, Input, FIELD_NAMES};
use errata_store::Explained;

use crate::{db, now, Failure, Global};

#[derive(Debug, clap::Args)]
pub(crate) struct EnrichArgs {
    /// The OpenAI-compatible API's base URL (Ollama: http://localhost:11434/v1).
    #[arg(long, value_name = "URL")]
    llm_url: String,
    /// The model to ask.
    #[arg(long, value_name = "NAME")]
    model: String,
    /// The environment variable that holds the API key, if the server needs one. The key is
    /// sent as a bearer token and never printed or logged.
    #[arg(long, value_name = "VAR", default_value = "ERRATA_LLM_API_KEY")]
    api_key_env: String,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 4, value_name = "N")]
    concurrency: usize,
    /// Seconds to wait for one answer.
    #[arg(long, default_value_t = 120, value_name = "SECONDS")]
    timeout: u64,
    /// Retries of a request that failed with 429, a 5xx or a timeout.
    #[arg(long, default_value_t = 3, value_name = "N")]
    retries: u32,
    /// Only the records of this repository.
    #[arg(long, value_name = "OWNER/NAME")]
    repo: Option<String>,
    /// At most this many records are sent to the model in this run.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
}

/// What one record needs: nothing (already written by this model), a kept answer, or a
/// request.
enum Todo {
    Done,
    Cached(Box<Fields>),
    Ask,
}

pub(crate) fn run(g: &Global, args: EnrichArgs) -> Result<()> {
    if args.concurrency == 0 {
        return Err(Failure::Usage("--concurrency must be at least 1".into()).into());
    }
    let api_key = std::env::var(&args.api_key_env)
        .ok()
        .filter(|k| !k.is_empty());
    let mut config = Config::new(&args.llm_url, &args.model);
    config.api_key = api_key;
    config.timeout = Duration::from_secs(args.timeout.max(1));
    config.max_retries = args.retries;
    let client = Client::new(config).map_err(|e| Failure::Usage(e.to_string()))?;
    let mut store = db::for_writing(g)?;
    let items = store.explained(args.repo.as_deref())?;
    if items.is_empty() {
        return Err(Failure::NotFound(
            "no records with facts to enrich; run `errata index` first".into(),
        )
        .into());
    }
    let model = args.model.as_str();
    let mut apply: Vec<Explained> = Vec::new();
    let mut ask: Vec<Explained> = Vec::new();
    let mut already = 0usize;
    for item in items {
        match todo(&store, &item, model)? {
            Todo::Done => already += 1,
            Todo::Cached(fields) => apply.push(written(item, *fields, model)),
            Todo::Ask => ask.push(item),
        }
    }
    let from_cache = apply.len();
    store.update_explained(&apply)?;
    if let Some(n) = args.limit {
        ask.truncate(n);
    }
    let bar = progress_bar(ask.len() as u64);
    let next = AtomicUsize::new(0);
    let (tx, rx) = crossbeam_channel::bounded::<(usize, Result<Fields, Error>)>(64);
    let mut failures: BTreeMap<&'static str, (usize, String)> = BTreeMap::new();
    let mut enriched = 0usize;
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..args.concurrency.min(ask.len().max(1)) {
            let tx = tx.clone();
            let (ask, client, next) = (&ask, &client, &next);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = ask.get(i) else { break };
                let answer = client.enrich(&Input {
                    record: &item.record,
                    facts: &item.facts,
                });
                if tx.send((i, answer)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, answer) in rx {
            bar.inc(1);
            let item = &ask[i];
            match answer {
                Ok(fields) => {
                    // Kept first: an interrupted run finds the answer and does not ask again.
                    let key = cache_key(&item.content_hash, model);
                    store.put_enrichment(&key, model, &serde_json::to_string(&fields)?, &now())?;
                    store.update_explained(&[written(item.clone(), fields, model)])?;
                    enriched += 1;
                }
                Err(e) => {
                    let kind = failure_kind(&e);
                    tracing::warn!("{} ({}): {e}", item.record.id, item.record.file_path);
                    let slot = failures.entry(kind).or_insert((0, e.to_string()));
                    slot.0 += 1;
                }
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let failed: usize = failures.values().map(|(n, _)| n).sum();
    if g.json {
        let by_kind: serde_json::Map<String, serde_json::Value> = failures
            .iter()
            .map(|(k, (n, _))| (k.to_string(), (*n).into()))
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "model": model,
                "enriched": enriched,
                "fromCache": from_cache,
                "alreadyEnriched": already,
                "failed": failed,
                "failures": by_kind,
            })
        );
    } else {
        eprintln!(
            "{enriched} records rewritten by {model}, {from_cache} from answers kept earlier, {already} already written by it; {failed} failed"
        );
        for (kind, (n, example)) in &failures {
            eprintln!("  {n} {kind}, e.g. {example}");
        }
        if failed > 0 {
            eprintln!("records that failed keep their static explanation; run again to retry them");
        }
    }
    Ok(())
}

/// What a record needs from this run.
fn todo(store: &errata_store::Store, item: &Explained, model: &str) -> Result<Todo> {
    let written_by: BTreeMap<String, String> = item
        .sources
        .as_deref()
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or_default();
    let key = cache_key(&item.content_hash, model);
    let kept = store.enrichment(&key)?;
    let all_by_model = FIELD_NAMES
        .iter()
        .all(|f| written_by.get(*f).map(String::as_str) == Some(model));
    Ok(match kept {
        Some(_) if all_by_model => Todo::Done,
        Some(fields) => match parse_answer(&fields) {
            Ok(f) => Todo::Cached(Box::new(f)),
            Err(_) => Todo::Ask,
        },
        None => Todo::Ask,
    })
}

/// The record with the model's fields, marked as written by it.
fn written(mut item: Explained, fields: Fields, model: &str) -> Explained {
    fields.apply_to(&mut item.record);
    let sources: BTreeMap<&str, &str> = FIELD_NAMES.iter().map(|f| (*f, model)).collect();
    item.sources = Some(serde_json::to_string(&sources).expect("a map serializes"));
    item
}

fn failure_kind(e: &Error) -> &'static str {
    match e {
        Error::UnknownIdentifiers(_) => "rejected: named something the code does not have",
        Error::Malformed(_) => "rejected: not the fields as JSON",
        Error::Timeout => "timed out",
        Error::Http { .. } => "refused by the server",
        _ => "could not reach the server",
    }
}

fn progress_bar(len: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} records  {elapsed} (eta {eta})",
        )
        .expect("the template is valid"),
    );
    bar
}
