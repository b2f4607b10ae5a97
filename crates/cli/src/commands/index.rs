//! `errata index`: find every error site under each path and store the records.

use std::collections::{BTreeMap, HashSet};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use errata_extract::{Event, Options, Provenance, RefsFound, Skip};
use errata_store::{FileUpdate, WriteSummary};

use crate::{db, now, Failure, Global};

#[derive(Debug, clap::Args)]
pub(crate) struct IndexArgs {
    /// Folders or files to index (default: the current folder).
    paths: Vec<PathBuf>,
    /// The repository as owner/name, for a tree that is not a git checkout (or to override it).
    #[arg(long, value_name = "OWNER/NAME")]
    repo: Option<String>,
    /// The full commit SHA the files are from.
    #[arg(long, value_name = "SHA")]
    commit: Option<String>,
    /// Read test files too.
    #[arg(long)]
    include_tests: bool,
    /// Skip nothing but binary and unreadable files.
    #[arg(long)]
    all: bool,
    /// Read vendored folders too (node_modules, vendor, third_party), even where ignore files
    /// list them: the bundled dependencies of a project. Minified, generated and test files
    /// are still skipped.
    #[arg(long)]
    vendored: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    jobs: usize,
    /// Do not read paths matching this gitignore-style glob (repeatable), e.g. 'site-packages'.
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Skip files larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 4 * 1024 * 1024)]
    max_file_size: u64,
}

/// Files per transaction.
const BATCH: usize = 256;

#[derive(Default)]
struct Tally {
    files: u64,
    bytes: u64,
    parsed: u64,
    parse_errors: Vec<String>,
    skipped: BTreeMap<Skip, u64>,
    skipped_examples: Vec<(String, Skip, Option<String>)>,
    written: WriteSummary,
    removed: usize,
    linked: crate::link::Linked,
    link_time: Duration,
    /// Files without a trigger word looked at for references after the walk, those of them
    /// parsed, and the time it took.
    deferred: u64,
    deferred_parsed: u64,
    bytes_parsed: u64,
    deferred_time: Duration,
    /// Time the workers spent on facts, references and explanations (summed over threads).
    explain_time: Duration,
}

pub(crate) fn run(g: &Global, args: IndexArgs) -> Result<()> {
    if let Some(c) = &args.commit {
        if c.len() != 40 || !c.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(Failure::Usage(format!(
                "--commit {c} is not a full commit SHA: give all 40 hex digits (git rev-parse HEAD)"
            ))
            .into());
        }
    }
    if let Some(r) = &args.repo {
        // OWNER/NAME, or a GitLab-like GROUP/…/NAME: parts without spaces, none empty.
        let parts: Vec<&str> = r.split('/').collect();
        if parts.len() < 2
            || parts
                .iter()
                .any(|p| p.is_empty() || p.chars().any(char::is_whitespace))
        {
            return Err(Failure::Usage(format!(
                "--repo {r:?} should be OWNER/NAME, as in the repository's URL (acme/widgets)"
            ))
            .into());
        }
    }
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    for p in &paths {
        if !p.exists() {
            return Err(Failure::Usage(format!(
                "{} does not exist: give a folder or file to index",
                p.display()
            ))
            .into());
        }
    }
    let mut store = db::for_writing(g)?;
    let options = Options {
        include_tests: args.include_tests,
        all: args.all,
        vendored: args.vendored,
        jobs: args.jobs,
        max_file_size: args.max_file_size,
        exclude: args.exclude.clone(),
    };
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut repos = Vec::new();
    let mut provs: Vec<Provenance> = paths
        .iter()
        .map(|p| Provenance::discover(p, args.repo.as_deref(), args.commit.as_deref()))
        .collect();
    share_roots(&paths, &mut provs);
    for (path, prov) in paths.iter().zip(provs) {
        index_one(&mut store, path, &prov, &options, &mut tally)?;
        repos.push(prov.repo);
    }
    let w = &tally.written;
    if w.added + w.changed + w.removed + tally.removed > 0 {
        store.optimize_message_index()?;
    }
    report(g, &store, &tally, &repos, started.elapsed())
}

/// Folders of one repository outside git (`--repo` naming them together) are read from the
/// folder that holds them all, so that their records' paths do not collide and each folder
/// does not remove the records of the one before as missing.
fn share_roots(paths: &[std::path::PathBuf], provs: &mut [Provenance]) {
    // A folder outside git is its own root; a file's root is its folder.
    let outside: Vec<bool> = paths
        .iter()
        .zip(provs.iter())
        .map(|(path, p)| path.canonicalize().is_ok_and(|c| c == p.root))
        .collect();
    for i in 0..provs.len() {
        if !outside[i] {
            continue;
        }
        let together: Vec<usize> = (0..provs.len())
            .filter(|&j| outside[j] && provs[j].repo == provs[i].repo)
            .collect();
        let mut common = provs[i].root.clone();
        for &j in &together {
            while !provs[j].root.starts_with(&common) && common.pop() {}
        }
        for j in together {
            provs[j].root = common.clone();
        }
    }
}

fn index_one(
    store: &mut errata_store::Store,
    path: &std::path::Path,
    prov: &Provenance,
    options: &Options,
    tally: &mut Tally,
) -> Result<()> {
    let known = store.known_files(&prov.repo)?;
    let analyzed_at = now();
    let (tx, rx) = crossbeam_channel::bounded::<Event>(1024);
    let bar = progress_bar();
    let permalink = |f: &str, s: u32, e: u32| prov.permalink(f, s, e);
    let mut seen: HashSet<String> = HashSet::new();
    // What the test files that are not indexed expect, to link records to their tests.
    let mut expectations: Vec<(String, Vec<errata_model::Ref>)> = Vec::new();
    std::thread::scope(|scope| -> Result<()> {
        let known = &known;
        let analyzed_at = analyzed_at.as_str();
        let walker = scope.spawn(move || {
            let sink = move |e: Event| {
                let _ = tx.send(e);
            };
            errata_extract::index(path, prov, options, known, analyzed_at, &sink)
        });
        let mut batch: Vec<FileUpdate> = Vec::with_capacity(BATCH);
        let mut last_flush = Instant::now();
        for event in rx.iter() {
            match event {
                Event::File(f) => {
                    tally.files += 1;
                    tally.bytes += f.bytes;
                    tally.explain_time += f.explain_time;
                    if f.records.is_some() && !f.refs_pending {
                        tally.parsed += 1;
                        tally.bytes_parsed += f.bytes;
                    }
                    if f.parse_errors {
                        tally.parse_errors.push(f.path.clone());
                    }
                    bar.inc(1);
                    bar.set_message(f.path.clone());
                    seen.insert(f.path.clone());
                    batch.push(FileUpdate {
                        repo: prov.repo.clone(),
                        path: f.path,
                        lang: f.lang.name().to_owned(),
                        hash: f.hash,
                        bytes: f.bytes,
                        records: f.records,
                        facts: f
                            .facts
                            .iter()
                            .map(|x| serde_json::to_string(x).expect("facts serialize"))
                            .collect(),
                        refs: f.refs,
                        refs_pending: f.refs_pending,
                    });
                }
                Event::Expectations { path, refs } => {
                    *tally.skipped.entry(Skip::Test).or_default() += 1;
                    expectations.push((path, refs));
                }
                Event::Skipped {
                    path,
                    reason,
                    detail,
                } => {
                    *tally.skipped.entry(reason).or_default() += 1;
                    if !matches!(reason, Skip::Test | Skip::Vendored | Skip::Gitignored)
                        && tally.skipped_examples.len() < 20
                    {
                        tally.skipped_examples.push((path, reason, detail));
                    }
                }
            }
            if batch.len() >= BATCH
                || (last_flush.elapsed() > Duration::from_secs(2) && !batch.is_empty())
            {
                tally.written +=
                    store.write_batch(&batch, prov.sha.as_deref(), &permalink, &now())?;
                batch.clear();
                last_flush = Instant::now();
            }
        }
        if !batch.is_empty() {
            tally.written += store.write_batch(&batch, prov.sha.as_deref(), &permalink, &now())?;
        }
        let walked = walker
            .join()
            .expect("the walk does not panic")
            .map_err(|e| Failure::Usage(format!("bad --exclude glob: {e}")))?;
        for (reason, n) in [
            (Skip::Vendored, walked.vendored_dirs),
            (Skip::Gitignored, walked.gitignored_files),
        ] {
            if n > 0 {
                *tally.skipped.entry(reason).or_default() += n;
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let root = prov
        .root
        .canonicalize()
        .unwrap_or_else(|_| prov.root.clone());
    let abs = path
        .canonicalize()
        .with_context(|| format!("reading {}", path.display()))?;
    let prefix = abs
        .strip_prefix(&root)
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    tally.removed += store.remove_missing(&prov.repo, &prefix, &seen)?;
    let deferred = Instant::now();
    let mut links = crate::link::Links::read(store, &prov.repo)?;
    for (path, refs) in &expectations {
        links.add(path, refs);
    }
    pending_refs(store, prov, options, tally, &mut links)?;
    tally.deferred_time += deferred.elapsed();
    let linking = Instant::now();
    let program = crate::entry::Program::of(&prov.root);
    let linked = crate::link::link(store, &prov.repo, links, &program)?;
    tally.linked.records += linked.records;
    tally.linked.explained_again += linked.explained_again;
    tally.link_time += linking.elapsed();
    Ok(())
}

/// Finds the references of the files left pending (no trigger word) that name something the
/// records need, now that every record is stored.
fn pending_refs(
    store: &mut errata_store::Store,
    prov: &Provenance,
    options: &Options,
    tally: &mut Tally,
    links: &mut crate::link::Links,
) -> Result<()> {
    let pending = store.pending_refs(&prov.repo)?;
    if pending.is_empty() {
        return Ok(());
    }
    tally.deferred += pending.len() as u64;
    let wanted = links.wanted();
    let (tx, rx) = crossbeam_channel::bounded::<RefsFound>(1024);
    std::thread::scope(|scope| -> Result<()> {
        let (pending, wanted) = (&pending, &wanted);
        scope.spawn(move || {
            let sink = move |f: RefsFound| {
                let _ = tx.send(f);
            };
            errata_extract::index_refs(&prov.root, pending, wanted, options.jobs, &sink);
        });
        let mut batch = Vec::with_capacity(BATCH);
        for found in rx.iter() {
            tally.parsed += 1;
            tally.deferred_parsed += 1;
            tally.bytes_parsed += found.bytes;
            tally.explain_time += found.explain_time;
            if found.parse_errors {
                tally.parse_errors.push(found.path.clone());
            }
            links.add(&found.path, &found.refs);
            batch.push((found.path, found.refs));
            if batch.len() >= BATCH {
                store.put_refs(&prov.repo, &batch)?;
                batch.clear();
            }
        }
        store.put_refs(&prov.repo, &batch)?;
        Ok(())
    })
}

fn progress_bar() -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {pos} files  {elapsed}  {wide_msg}")
            .expect("the template is valid"),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

fn report(
    g: &Global,
    store: &errata_store::Store,
    t: &Tally,
    repos: &[String],
    elapsed: Duration,
) -> Result<()> {
    let stats = store.stats()?;
    if g.json {
        let skipped: serde_json::Map<String, serde_json::Value> = t
            .skipped
            .iter()
            .map(|(k, v)| (k.as_str().to_owned(), (*v).into()))
            .collect();
        let out = serde_json::json!({
            "repos": repos,
            "filesRead": t.files,
            "filesParsed": t.parsed,
            "bytesParsed": t.bytes_parsed,
            "bytes": t.bytes,
            "skipped": skipped,
            "parseErrors": t.parse_errors.len(),
            "recordsAdded": t.written.added,
            "recordsChanged": t.written.changed,
            "recordsUnchanged": t.written.unchanged,
            "recordsRemoved": t.written.removed + t.removed,
            "records": stats.records,
            "byLang": stats.by_lang.iter().map(|(k, v)| (k.clone(), *v)).collect::<BTreeMap<_,_>>(),
            "byType": stats.by_type.iter().map(|(k, v)| (k.clone(), *v)).collect::<BTreeMap<_,_>>(),
            "filesDeferred": t.deferred,
            "deferredParsed": t.deferred_parsed,
            "deferredSeconds": t.deferred_time.as_secs_f64(),
            "recordsLinked": t.linked.records,
            "recordsExplainedAgain": t.linked.explained_again,
            "linkSeconds": t.link_time.as_secs_f64(),
            "explainCpuSeconds": t.explain_time.as_secs_f64(),
            "seconds": elapsed.as_secs_f64(),
        });
        println!("{out}");
        return Ok(());
    }
    for (path, reason, detail) in &t.skipped_examples {
        match detail {
            Some(d) => eprintln!("skipped {path}: {} ({d})", reason.as_str()),
            None => eprintln!("skipped {path}: {}", reason.as_str()),
        }
    }
    let mb = t.bytes as f64 / 1e6;
    // Files read but not parsed: without an error site and naming nothing a record needs, or
    // unchanged since the last run.
    let unneeded = t.deferred.saturating_sub(t.deferred_parsed);
    let unchanged = t.files.saturating_sub(t.parsed + unneeded);
    let mut line = format!("read {} files ({mb:.1} MB), parsed {}", t.files, t.parsed);
    if unneeded > 0 {
        line += &format!("; {unneeded} have no error site and name nothing a record needs");
    }
    if unchanged > 0 {
        line += &format!("; {unchanged} unchanged");
    }
    eprintln!("{line}; {:.2}s", elapsed.as_secs_f64());
    if !t.skipped.is_empty() {
        let parts: Vec<String> = t
            .skipped
            .iter()
            .map(|(k, v)| format!("{v} {}", k.as_str()))
            .collect();
        eprintln!("skipped: {}", parts.join(", "));
    }
    if !t.parse_errors.is_empty() {
        eprintln!(
            "{} files had syntax errors; their records come from the parts that parsed (first: {})",
            t.parse_errors.len(),
            t.parse_errors[0]
        );
    }
    eprintln!(
        "records: {} added, {} changed, {} unchanged, {} removed",
        t.written.added,
        t.written.changed,
        t.written.unchanged,
        t.written.removed + t.removed
    );
    eprintln!(
        "callers and handlers linked across the repository in {:.2}s; {} of {} explanations written again",
        t.link_time.as_secs_f64(),
        t.linked.explained_again,
        t.linked.records
    );
    let by = |v: &[(String, u64)]| {
        v.iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    eprintln!(
        "store {}: {} records in {} files; by language: {}; by type: {}",
        store.path().display(),
        stats.records,
        stats.files,
        by(&stats.by_lang),
        by(&stats.by_type)
    );
    Ok(())
}
