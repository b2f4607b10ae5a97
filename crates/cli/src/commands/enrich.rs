//! `errata enrich --llm-url URL --model NAME`: asks a language model to rewrite each record's
//! explanation from its source window and facts. Answers are kept by (content, model, prompt
//! version), so an unchanged record is never sent again and an interrupted run picks up where
//! it stopped; an answer that names something the code does not have is rejected.

use std::collections::BTreeMap;
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
    let ids = store.explained_ids(args.repo.as_deref())?;
    if ids.is_empty() {
        return Err(Failure::NotFound(
            "no records with facts to enrich; run `errata index` first".into(),
        )
        .into());
    }
    let model = args.model.as_str();
    // What each record needs, decided from small columns; records are read one at a time
    // below, so memory does not grow with the store.
    let mut ask: Vec<String> = Vec::new();
    let mut apply: Vec<Explained> = Vec::new();
    let (mut already, mut from_cache) = (0usize, 0usize);
    for (id, content_hash, sources) in ids {
        match todo(&store, &content_hash, sources.as_deref(), model)? {
            Todo::Done => already += 1,
            Todo::Cached(fields) => {
                if let Some(item) = store.explained_one(&id)? {
                    apply.push(written(item, *fields, model));
                    from_cache += 1;
                }
                if apply.len() >= 500 {
                    store.update_explained(&apply)?;
                    apply.clear();
                }
            }
            Todo::Ask => ask.push(id),
        }
    }
    store.update_explained(&apply)?;
    drop(apply);
    if let Some(n) = args.limit {
        ask.truncate(n);
    }
    let bar = progress_bar(ask.len() as u64);
    let mut failures: BTreeMap<&'static str, (usize, String)> = BTreeMap::new();
    let mut enriched = 0usize;
    let workers = args.concurrency.min(ask.len().max(1));
    // A reader with its own connection feeds the workers; the main thread writes the answers.
    let (work_tx, work_rx) = crossbeam_channel::bounded::<Explained>(workers * 2);
    let (done_tx, done_rx) =
        crossbeam_channel::bounded::<(Explained, Result<Fields, Error>)>(workers * 2);
    let path = store.path().to_path_buf();
    std::thread::scope(|scope| -> Result<()> {
        let ask = &ask;
        let reader = scope.spawn(move || -> Result<()> {
            let reader = errata_store::Store::open_existing(&path)?;
            for id in ask {
                if let Some(item) = reader.explained_one(id)? {
                    if work_tx.send(item).is_err() {
                        break;
                    }
                }
            }
            Ok(())
        });
        for _ in 0..workers {
            let (work_rx, done_tx, client) = (work_rx.clone(), done_tx.clone(), &client);
            scope.spawn(move || {
                for item in work_rx {
                    let answer = client.enrich(&Input {
                        record: &item.record,
                        facts: &item.facts,
                    });
                    if done_tx.send((item, answer)).is_err() {
                        break;
                    }
                }
            });
        }
        drop((work_rx, done_tx));
        for (item, answer) in done_rx {
            bar.inc(1);
            match answer {
                Ok(fields) => {
                    // Kept first: an interrupted run finds the answer and does not ask again.
                    let key = cache_key(&item.content_hash, model);
                    store.put_enrichment(&key, model, &serde_json::to_string(&fields)?, &now())?;
                    store.update_explained(&[written(item, fields, model)])?;
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
        reader.join().expect("the reader does not panic")
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
fn todo(
    store: &errata_store::Store,
    content_hash: &str,
    sources: Option<&str>,
    model: &str,
) -> Result<Todo> {
    let written_by = errata_store::written_by_model(sources);
    let key = cache_key(content_hash, model);
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
