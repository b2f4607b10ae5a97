//! errata's knowledge base: an embedded SQLite database of records. This crate is the only one
//! that writes SQL.
//!
//! [`Store::open`] creates or migrates the database. Indexing writes one [`FileUpdate`] per file
//! read, in batches, each batch one transaction: a run killed at any moment leaves every file
//! either fully stored or not at all, and the next run (which skips files whose content hash is
//! stored) completes it. A record keeps its `contentChangedAt` while its message and source
//! window stay the same.
//!
//! ```
//! # fn main() -> Result<(), errata_store::Error> {
//! let dir = tempfile::tempdir().unwrap();
//! let store = errata_store::Store::open(&dir.path().join("errata.db"))?;
//! assert_eq!(store.stats()?.records, 0);
//! # Ok(()) }
//! ```

mod graph;
mod links;

pub use graph::{arguments_in, call_arity, declared_arity, CallGraph, CallSite, Definition, Via};
pub use links::{written_by_model, Explained, Found, HeldBy, RefIndex};

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use errata_model::{MatchEntry, Record};
use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};

/// What can go wrong with the store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error(
        "cannot open the database {path}: {source}; check the path, or pass another with --db"
    )]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("the database {path} was written by a newer errata (schema {found}, this one knows {known}); upgrade errata or use another --db")]
    TooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    #[error("cannot lock the database {path} for writing ({source}); check that its folder is writable, or pass another with --db")]
    Lock {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the database {path} is read-only here, and this command writes to it; run as a user who may write to it and its folder, or copy it and pass --db COPY")]
    ReadOnly { path: PathBuf },
    #[error("the database {path} is read-only here and was written by an older errata; ask its owner to run `errata index` with this version, or copy it and pass --db COPY")]
    ReadOnlyOld { path: PathBuf },
    #[error("{}", sql_message(.0))]
    Sql(#[from] rusqlite::Error),
    #[error("a stored record is damaged ({id}): {source}; re-run `errata index` to rewrite it")]
    Damaged {
        id: String,
        source: serde_json::Error,
    },
}

pub type Result<T> = std::result::Result<T, Error>;

/// The migrations, applied in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE files (
    repo TEXT NOT NULL,
    path TEXT NOT NULL,
    lang TEXT NOT NULL,
    hash TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    indexed_at TEXT NOT NULL,
    PRIMARY KEY (repo, path)
) WITHOUT ROWID;
CREATE TABLE records (
    id TEXT PRIMARY KEY,
    repo TEXT NOT NULL,
    file_path TEXT NOT NULL,
    lang TEXT NOT NULL,
    slug TEXT NOT NULL,
    error_type TEXT NOT NULL,
    message TEXT NOT NULL,
    line_number INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    analyzed_sha TEXT,
    json TEXT NOT NULL
);
CREATE INDEX records_by_file ON records (repo, file_path);
CREATE INDEX records_by_slug ON records (slug);
"#,
    // What the matcher loads, without parsing each record's JSON.
    r#"
ALTER TABLE records ADD COLUMN pattern TEXT NOT NULL DEFAULT '';
ALTER TABLE records ADD COLUMN error_class TEXT;
ALTER TABLE records ADD COLUMN error_code TEXT;
UPDATE records SET
    pattern = json_extract(json, '$.messagePattern'),
    error_class = json_extract(json, '$.errorClass'),
    error_code = json_extract(json, '$.errorCode');
"#,
    // Lookups of one message: the anchor word of each pattern (filled in by `backfill_anchors`)
    // and a full-text index of the messages for approximate matches. The index is contentless;
    // its rowids are those of `records`.
    r#"
ALTER TABLE records ADD COLUMN anchor TEXT;
CREATE INDEX records_by_anchor ON records (anchor);
CREATE VIRTUAL TABLE messages_fts USING fts5(message, content='', contentless_delete=1);
INSERT INTO messages_fts (rowid, message) SELECT rowid, message FROM records;
"#,
    // How many messages each word of the full-text index is in, to query by the rarest words.
    r#"
CREATE VIRTUAL TABLE messages_vocab USING fts5vocab(messages_fts, 'row');
"#,
    // The records again, with two changes. `seq` names the rowid, so that VACUUM keeps it and
    // the full-text index, keyed by it, stays right. And `json` comes last: a row's small
    // columns are read without the overflow pages of its JSON, which made every matcher load
    // and every similarity search read the whole table.
    r#"
CREATE TABLE records_new (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    repo TEXT NOT NULL,
    file_path TEXT NOT NULL,
    lang TEXT NOT NULL,
    slug TEXT NOT NULL,
    error_type TEXT NOT NULL,
    message TEXT NOT NULL,
    line_number INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    analyzed_sha TEXT,
    pattern TEXT NOT NULL DEFAULT '',
    error_class TEXT,
    error_code TEXT,
    anchor TEXT,
    json TEXT NOT NULL
);
INSERT INTO records_new (id, repo, file_path, lang, slug, error_type, message, line_number,
    content_hash, analyzed_sha, pattern, error_class, error_code, anchor, json)
SELECT id, repo, file_path, lang, slug, error_type, message, line_number,
    content_hash, analyzed_sha, pattern, error_class, error_code, anchor, json
FROM records ORDER BY repo, file_path, line_number;
DROP TABLE records;
ALTER TABLE records_new RENAME TO records;
CREATE INDEX records_by_file ON records (repo, file_path);
CREATE INDEX records_by_slug ON records (slug);
CREATE INDEX records_by_anchor ON records (anchor);
INSERT INTO messages_fts (messages_fts) VALUES ('delete-all');
INSERT INTO messages_fts (rowid, message) SELECT seq, message FROM records;
"#,
    // Grounded explanations: each record's facts, which source wrote each explanation field
    // (NULL: static analysis wrote them all), the calls, definitions and handlers of every
    // file (to find callers and handlers across the repository), and the model answers
    // already received. Every file is parsed again on the next index, to get its facts.
    r#"
ALTER TABLE records ADD COLUMN facts TEXT;
ALTER TABLE records ADD COLUMN sources TEXT;
CREATE TABLE file_refs (
    repo TEXT NOT NULL,
    path TEXT NOT NULL,
    refs TEXT NOT NULL,
    PRIMARY KEY (repo, path)
) WITHOUT ROWID;
CREATE TABLE enrichments (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    fields TEXT NOT NULL,
    created_at TEXT NOT NULL
) WITHOUT ROWID;
UPDATE files SET hash = '';
"#,
    // Files without a trigger word are parsed for their references only when they name
    // something a record needs; until then their references are pending.
    r#"
ALTER TABLE files ADD COLUMN refs_pending INTEGER NOT NULL DEFAULT 0;
"#,
    // What the matcher loads, in its order, in an index of its own: a record's row is about a
    // page (its JSON and facts), so reading the small columns from the table touched every
    // page of it (200 MB for 50,000 records) where this index holds a few MB.
    r#"
CREATE INDEX records_for_matcher ON records (repo, file_path, line_number, id,
    slug, message, pattern, error_class, error_code);
"#,
    // The function each record raises in, for the frames of a trace from another release
    // (whose lines have moved), in the matcher's index with the rest of what it loads.
    r#"
ALTER TABLE records ADD COLUMN function TEXT;
UPDATE records SET function = json_extract(facts, '$.function.name') WHERE json_valid(facts);
DROP INDEX records_for_matcher;
CREATE INDEX records_for_matcher ON records (repo, file_path, line_number, id,
    slug, message, pattern, error_class, error_code, function);
"#,
    // The class or type whose method the record raises in: a Java or Go frame names it
    // (`ArrayList$Itr.checkForComodification`), and tells apart methods of one name.
    r#"
ALTER TABLE records ADD COLUMN owner TEXT;
UPDATE records SET owner = json_extract(facts, '$.function.owner') WHERE json_valid(facts);
DROP INDEX records_for_matcher;
CREATE INDEX records_for_matcher ON records (repo, file_path, line_number, id,
    slug, message, pattern, error_class, error_code, function, owner);
CREATE INDEX records_by_code ON records (error_code) WHERE error_code IS NOT NULL;
"#,
];

/// The anchor word of a `messagePattern` ([`errata_model::PatternParts::anchor`]).
fn anchor(pattern: &str) -> Option<String> {
    errata_model::PatternParts::parse(pattern).and_then(|p| p.anchor().map(str::to_owned))
}

/// Work a migration needs beyond SQL, by the schema version it produces.
fn after_migration(tx: &rusqlite::Transaction<'_>, version: usize) -> Result<()> {
    if version == 3 {
        let rows: Vec<(i64, String)> = tx
            .prepare("SELECT rowid, pattern FROM records")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let mut update = tx.prepare("UPDATE records SET anchor = ?2 WHERE rowid = ?1")?;
        for (rowid, pattern) in rows {
            update.execute(params![rowid, anchor(&pattern)])?;
        }
    }
    Ok(())
}

/// One file's outcome of an indexing run.
#[derive(Debug, Clone)]
pub struct FileUpdate {
    pub repo: String,
    pub path: String,
    pub lang: String,
    pub hash: String,
    pub bytes: u64,
    /// The file's records, or `None` when its content is unchanged since it was stored.
    pub records: Option<Vec<Record>>,
    /// The facts of each record as JSON, in the same order.
    pub facts: Vec<String>,
    /// The file's calls, definitions and handlers (used when `records` is `Some`).
    pub refs: Vec<errata_model::Ref>,
    /// Whether the file's references are still to be found ([`Store::pending_refs`]).
    pub refs_pending: bool,
}

/// What a batch write changed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct WriteSummary {
    pub added: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub removed: usize,
}

impl std::ops::AddAssign for WriteSummary {
    fn add_assign(&mut self, o: WriteSummary) {
        self.added += o.added;
        self.changed += o.changed;
        self.unchanged += o.unchanged;
        self.removed += o.removed;
    }
}

/// Counts over the whole store.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Stats {
    pub files: u64,
    pub records: u64,
    pub repos: Vec<(String, u64)>,
    pub by_lang: Vec<(String, u64)>,
    pub by_type: Vec<(String, u64)>,
}

/// How much of a store its reading connections map into memory (address space, not memory:
/// the pages are the page cache's).
const MMAP_BYTES: i64 = 1 << 30;

/// How many of a text's words the approximate search queries the full-text index with.
const RAREST_WORDS: usize = 8;
/// A word in more messages than this says nothing about which one a text is (`error`, `get`,
/// `value`): the approximate search does not query with it, and scoring stays cheap.
const COMMON_WORD_DOCS: i64 = 1000;
/// About how many messages the approximate search scores (its cost).
const RANKED_MESSAGES: i64 = 1500;

/// The columns a [`MatchEntry`] is read from, in its order (then the repo, for ordering).
const MATCH_COLUMNS: &str =
    "id, slug, file_path, line_number, message, pattern, error_class, error_code, repo, function, owner";

impl Stats {
    /// The counts as JSON: `{"files", "records", "repos": {name: n}, "byLang", "byType"}`.
    pub fn to_json(&self) -> serde_json::Value {
        let obj = |v: &[(String, u64)]| -> serde_json::Map<String, serde_json::Value> {
            v.iter().map(|(k, n)| (k.clone(), (*n).into())).collect()
        };
        serde_json::json!({
            "files": self.files,
            "records": self.records,
            "repos": obj(&self.repos),
            "byLang": obj(&self.by_lang),
            "byType": obj(&self.by_type),
        })
    }
}

/// The message index in memory ([`Store::message_index`]): for each word, the records whose
/// message holds it. A server reads it once, and its approximate search then reads nothing
/// from the store but the records it answers with.
#[derive(Debug, Default, Clone)]
pub struct MessageIndex {
    /// The records' ids, in the order the postings number them.
    ids: Vec<Box<str>>,
    /// Each word's records, as indexes into `ids`, ascending.
    postings: HashMap<String, Box<[u32]>>,
}

impl MessageIndex {
    /// Words indexed.
    pub fn len(&self) -> usize {
        self.postings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.postings.is_empty()
    }

    /// The ids of at most `limit` records whose messages hold the rarest of `words`, as
    /// [`Store::similar_rows`] chooses them, in store order.
    pub fn similar_ids(&self, words: &[&str], limit: usize) -> Vec<&str> {
        let counted = words
            .iter()
            .take(64)
            .filter_map(|w| {
                let w = w.to_lowercase();
                let n = self.postings.get(&w)?.len() as i64;
                Some((w, n))
            })
            .collect();
        let ranked = rank(counted, limit, |w| {
            Ok(self.postings[w].iter().map(|&i| i64::from(i)).collect())
        })
        .expect("postings in memory are read without error");
        ranked.into_iter().map(|i| &*self.ids[i as usize]).collect()
    }
}

/// The keys of at most `limit` messages holding the rarest of the `counted` words (each with
/// the number of messages that hold it), those holding more and rarer ones first; `postings`
/// gives the keys of the messages that hold a word. The one ranking of the approximate
/// search, over the store or over a [`MessageIndex`].
fn rank(
    mut counted: Vec<(String, i64)>,
    limit: usize,
    mut postings: impl FnMut(&str) -> Result<Vec<i64>>,
) -> Result<Vec<i64>> {
    tracing::debug!(?counted, "word counts for the approximate search");
    counted.retain(|(_, n)| *n <= COMMON_WORD_DOCS);
    counted.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    counted.dedup();
    // Past the rarest word, a word is added only while the messages that hold any of them
    // stay few.
    let mut held = 0;
    let chosen = counted.iter().take(RAREST_WORDS).take_while(|(_, n)| {
        let first = held == 0;
        held += n;
        first || held <= RANKED_MESSAGES
    });
    // Each message scores the weights of the chosen words it holds, a rarer word weighing
    // more: BM25's order without its length normalisation, which read the size of every
    // message and was most of the cost. The caller ranks the candidates by similarity.
    let mut scores: HashMap<i64, f64> = HashMap::new();
    for (word, n) in chosen {
        let weight = (1.0 + COMMON_WORD_DOCS as f64 / *n as f64).ln();
        for key in postings(word)? {
            *scores.entry(key).or_default() += weight;
        }
    }
    let mut ranked: Vec<(i64, f64)> = scores.into_iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.truncate(limit);
    Ok(ranked.into_iter().map(|(k, _)| k).collect())
}

/// Which records to list.
#[derive(Debug, Default, Clone)]
pub struct Filter {
    pub repo: Option<String>,
    pub lang: Option<String>,
    pub error_type: Option<String>,
    /// A substring of the message, in any case.
    pub text: Option<String>,
    /// One of the record's tags.
    pub tag: Option<String>,
    pub limit: Option<u64>,
    pub offset: Option<u64>,
}

impl Filter {
    /// The SQL condition and its arguments.
    fn clause(&self) -> (String, Vec<String>) {
        let mut sql = String::from("1 = 1");
        let mut args: Vec<String> = Vec::new();
        let mut add = |cond: &str, value: String| {
            args.push(value);
            sql.push_str(&format!(
                " AND {}",
                cond.replace('?', &format!("?{}", args.len()))
            ));
        };
        if let Some(r) = &self.repo {
            add("repo = ?", r.clone());
        }
        if let Some(l) = &self.lang {
            add("lang = ?", l.clone());
        }
        if let Some(t) = &self.error_type {
            add("error_type = ?", t.clone());
        }
        if let Some(t) = &self.text {
            add("instr(lower(message), ?) > 0", t.to_lowercase());
        }
        if let Some(t) = &self.tag {
            add(
                "EXISTS (SELECT 1 FROM json_each(records.json, '$.tags') AS t WHERE t.value = ?)",
                t.clone(),
            );
        }
        (sql, args)
    }
}

/// What a database error says to the one who ran the command.
fn sql_message(e: &rusqlite::Error) -> String {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DiskFull) => "the disk holding the database is full: free some space, or pass --db FILE on a disk with room, and run again; the store keeps what it held before the write that failed".to_owned(),
        _ => format!("database error: {e}"),
    }
}

/// Whether SQLite refused because the user may not write the database, its folder or its
/// write-ahead log's files.
fn is_read_only(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::CannotOpen)
    )
}

/// `path` as the path of a `file:` URI: absolute, with `%`, `?` and `#` escaped.
fn uri_path(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    abs.to_string_lossy()
        .replace('%', "%25")
        .replace('?', "%3f")
        .replace('#', "%23")
}

/// What a failure to open the database at `path` becomes: the path to check, and why.
fn open_error(path: &Path) -> impl Fn(rusqlite::Error) -> Error + Copy + '_ {
    move |source| Error::Open {
        path: path.to_path_buf(),
        source,
    }
}

/// The knowledge base.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// The writers' lock ([`Store::lock_writers`]), held while the store lives.
    writer: Option<std::fs::File>,
}

impl Store {
    /// Opens the database at `path`, creating it (and its folder) if needed, and migrates it.
    pub fn open(path: &Path) -> Result<Store> {
        let open_err = open_error(path);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                open_err(rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
                    Some(e.to_string()),
                ))
            })?;
        }
        let read_only = |e: rusqlite::Error| {
            if is_read_only(&e) && path.exists() {
                Error::ReadOnly {
                    path: path.to_path_buf(),
                }
            } else {
                open_err(e)
            }
        };
        let conn = Connection::open(path).map_err(read_only)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(open_err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(read_only)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(open_err)?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
            writer: None,
        };
        store.migrate()?;
        Ok(store)
    }

    /// Opens a database that must already exist (reading commands never create one). A store
    /// the user may not write to (a read-only file or folder, another user's store) is read as
    /// it is, without its write-ahead log's shared memory, provided it needs no migration.
    pub fn open_existing(path: &Path) -> Result<Store> {
        match Store::open_reader(path, false) {
            Err(Error::Open { source, .. }) if is_read_only(&source) => {
                Store::open_reader(path, true)
            }
            other => other,
        }
    }

    fn open_reader(path: &Path, read_only: bool) -> Result<Store> {
        let open_err = open_error(path);
        let conn = if read_only {
            // `immutable`: a user who may not write the store cannot make the shared memory
            // through which readers and the writer agree, so it is read as a file that does
            // not change. A run of its owner writing at that moment may be seen part-way.
            let uri = format!("file:{}?immutable=1", uri_path(path));
            Connection::open_with_flags(
                uri,
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
                    | rusqlite::OpenFlags::SQLITE_OPEN_URI
                    | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
        } else {
            Connection::open_with_flags(
                path,
                rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE
                    | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
        }
        .map_err(open_err)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(open_err)?;
        // The file is read first here: a file that is no database says so as a path to check.
        conn.pragma_query_value(None, "schema_version", |r| r.get::<_, i64>(0))
            .map_err(open_err)?;
        // Readers map the file rather than copy each page they read into their own cache:
        // a server's connections share the pages, and a look-up makes no read calls.
        conn.pragma_update(None, "mmap_size", MMAP_BYTES)?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
            writer: None,
        };
        if read_only {
            let version: i64 = store
                .conn
                .pragma_query_value(None, "user_version", |r| r.get(0))?;
            if version < MIGRATIONS.len() as i64 {
                return Err(Error::ReadOnlyOld {
                    path: path.to_path_buf(),
                });
            }
        }
        store.migrate()?;
        Ok(store)
    }

    /// Makes this the store's only writer among processes until it is dropped: `index`,
    /// `import` and `enrich` write in many transactions, and two runs at once would each link
    /// and explain what the other had half written. The lock is a file beside the database
    /// (`errata.db.lock`), released by the system when the process ends, however it ends.
    /// When another writer holds it, `on_wait` is called and this one waits its turn.
    pub fn lock_writers(&mut self, on_wait: impl FnOnce()) -> Result<()> {
        let mut name = self.path.clone().into_os_string();
        name.push(".lock");
        let lock_err = |source| Error::Lock {
            path: self.path.clone(),
            source,
        };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&name)
            .map_err(lock_err)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                on_wait();
                file.lock().map_err(lock_err)?;
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(lock_err(e)),
        }
        self.writer = Some(file);
        Ok(())
    }

    /// Runs `f` in one read transaction: its statements see one state of the store, and the
    /// file's locks are taken once (a statement on its own takes and releases them, a few
    /// system calls each time).
    pub fn reading<T>(&self, f: impl FnOnce(&Store) -> T) -> Result<T> {
        self.conn.execute_batch("BEGIN")?;
        let out = f(self);
        self.conn.execute_batch("COMMIT")?;
        Ok(out)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn migrate(&mut self) -> Result<()> {
        let version: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(Error::TooNew {
                path: self.path.clone(),
                found: version,
                known,
            });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = self.conn.transaction()?;
            tx.execute_batch(sql)?;
            after_migration(&tx, i + 1)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }

    /// The stored files of `repo` and their content hashes.
    pub fn known_files(&self, repo: &str) -> Result<HashMap<String, String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT path, hash FROM files WHERE repo = ?1")?;
        let rows = stmt.query_map([repo], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Stores a batch of files in one transaction. For a file with records, the records replace
    /// those stored for it; for an unchanged file, its records are re-pointed at `sha` and
    /// `permalink` (when the commit moved).
    pub fn write_batch(
        &mut self,
        files: &[FileUpdate],
        sha: Option<&str>,
        permalink: &dyn Fn(&str, u32, u32) -> Option<String>,
        now: &str,
    ) -> Result<WriteSummary> {
        let tx = self.conn.transaction()?;
        let mut sum = WriteSummary::default();
        for f in files {
            tx.execute(
                "INSERT INTO files (repo, path, lang, hash, bytes, indexed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (repo, path) DO UPDATE SET lang = ?3, hash = ?4, bytes = ?5, indexed_at = ?6",
                params![f.repo, f.path, f.lang, f.hash, f.bytes as i64, now],
            )?;
            match &f.records {
                Some(records) => {
                    sum += replace_file_records(&tx, f, records)?;
                    links::replace_refs(&tx, &f.repo, &f.path, &f.refs)?;
                    tx.prepare_cached(
                        "UPDATE files SET refs_pending = ?3 WHERE repo = ?1 AND path = ?2",
                    )?
                    .execute(params![f.repo, f.path, f.refs_pending])?;
                }
                None => sum.unchanged += repoint(&tx, &f.repo, &f.path, sha, permalink)?,
            }
        }
        tx.commit()?;
        Ok(sum)
    }

    /// Merges the full-text index of messages into one segment. Each batch of an indexing run
    /// adds a segment, and a query reads every segment: on a store of 100,000 records the
    /// approximate search and its word counts cost several times more before the merge.
    pub fn optimize_message_index(&mut self) -> Result<()> {
        self.conn
            .execute_batch("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')")?;
        Ok(())
    }

    /// Removes the files of `repo` under `prefix` (repository-relative, '' for all) that are not
    /// in `seen`, with their records. Returns the number of records removed.
    pub fn remove_missing(
        &mut self,
        repo: &str,
        prefix: &str,
        seen: &HashSet<String>,
    ) -> Result<usize> {
        let gone: Vec<String> = self
            .known_files(repo)?
            .into_keys()
            .filter(|p| under(p, prefix) && !seen.contains(p))
            .collect();
        let tx = self.conn.transaction()?;
        let mut removed = 0;
        for p in &gone {
            unindex_messages(&tx, repo, p)?;
            removed += tx.execute(
                "DELETE FROM records WHERE repo = ?1 AND file_path = ?2",
                params![repo, p],
            )?;
            tx.execute(
                "DELETE FROM files WHERE repo = ?1 AND path = ?2",
                params![repo, p],
            )?;
            links::replace_refs(&tx, repo, p, &[])?;
        }
        tx.commit()?;
        Ok(removed)
    }

    /// Calls `f` with every record matching `filter`, ordered by repo, file and line.
    pub fn for_each(
        &self,
        filter: &Filter,
        mut f: impl FnMut(Record) -> std::result::Result<(), std::io::Error>,
    ) -> Result<std::result::Result<(), std::io::Error>> {
        let (clause, args) = filter.clause();
        let mut sql = format!(
            "SELECT id, json FROM records WHERE {clause} ORDER BY repo, file_path, line_number, id"
        );
        if let Some(n) = filter.limit {
            sql.push_str(&format!(" LIMIT {n}"));
        }
        if let Some(n) = filter.offset {
            if filter.limit.is_none() {
                sql.push_str(" LIMIT -1");
            }
            sql.push_str(&format!(" OFFSET {n}"));
        }
        let mut stmt = self.conn.prepare(&sql)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(args.iter()))?;
        while let Some(row) = rows.next()? {
            let record = decode(&row.get::<_, String>(0)?, &row.get::<_, String>(1)?)?;
            if let Err(e) = f(record) {
                return Ok(Err(e));
            }
        }
        Ok(Ok(()))
    }

    /// One page of the records matching `filter` (its limit and offset), and how many match in
    /// all.
    pub fn page(&self, filter: &Filter) -> Result<(u64, Vec<Record>)> {
        let total = self.count(filter)?;
        let mut records = Vec::new();
        // The callback cannot fail, so neither can the inner result.
        let _ = self.for_each(filter, |r| {
            records.push(r);
            Ok(())
        })?;
        Ok((total, records))
    }

    /// How many records match `filter` (its limit and offset aside).
    pub fn count(&self, filter: &Filter) -> Result<u64> {
        let (clause, args) = filter.clause();
        let n: i64 = self.conn.query_row(
            &format!("SELECT count(*) FROM records WHERE {clause}"),
            rusqlite::params_from_iter(args.iter()),
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    /// Every record's message and pattern, for the matcher, ordered by repo, file and line.
    pub fn match_rows(&self) -> Result<Vec<MatchEntry>> {
        self.query_match_rows(
            &format!(
                "SELECT {MATCH_COLUMNS} FROM records ORDER BY repo, file_path, line_number, id"
            ),
            [],
        )
    }

    /// The records that could match a text whose words are `words`: those whose anchor word is
    /// one of them, and those without an anchor. Ordered as [`Store::match_rows`].
    pub fn match_rows_for_words(&self, words: &[&str]) -> Result<Vec<MatchEntry>> {
        let words = serde_json::to_string(words).expect("strings serialise");
        self.query_match_rows(
            &format!(
                "SELECT {MATCH_COLUMNS} FROM records WHERE anchor IN (SELECT value FROM json_each(?1))
                 UNION ALL SELECT {MATCH_COLUMNS} FROM records WHERE anchor IS NULL
                 ORDER BY 9, 3, 4, 1"
            ),
            [words],
        )
    }

    /// The records at the lines of stack frames, or in their functions: each `(file, line,
    /// function)` names a file by its last path component (`decoder.py`), and the records of
    /// every file so named at that line, or raising in a function of that name (a frame of
    /// another release, whose lines have moved), are returned (the caller compares the paths
    /// further). Ordered as [`Store::match_rows`].
    pub fn match_rows_at(&self, frames: &[(&str, u32, Option<&str>)]) -> Result<Vec<MatchEntry>> {
        if frames.is_empty() {
            return Ok(Vec::new());
        }
        let frames = serde_json::to_string(frames).expect("strings and numbers serialise");
        self.query_match_rows(
            &format!(
                "SELECT {MATCH_COLUMNS} FROM records WHERE seq IN (
                     SELECT r.seq FROM records AS r, json_each(?1) AS f
                     WHERE (r.line_number = f.value ->> 1 OR r.function = f.value ->> 2)
                     AND (r.file_path = f.value ->> 0
                          OR substr(r.file_path, -length(f.value ->> 0) - 1) = '/' || (f.value ->> 0)))
                 ORDER BY 9, 3, 4, 1"
            ),
            [frames],
        )
    }

    /// The message index, read whole into memory: for a process that answers many texts.
    pub fn message_index(&self) -> Result<MessageIndex> {
        // fts5vocab's `instance` table lists every word of every message: the postings.
        self.conn.execute_batch(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.messages_instance
             USING fts5vocab(main, messages_fts, 'instance')",
        )?;
        let mut ids = Vec::new();
        let mut dense: HashMap<i64, u32> = HashMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT seq, id FROM records ORDER BY seq")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            dense.insert(r.get(0)?, ids.len() as u32);
            ids.push(r.get::<_, String>(1)?.into_boxed_str());
        }
        let mut postings: HashMap<String, Vec<u32>> = HashMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT term, doc FROM temp.messages_instance")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let Some(&i) = dense.get(&r.get::<_, i64>(1)?) else {
                continue;
            };
            let term = r.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
            let list = match postings.get_mut(term) {
                Some(l) => l,
                None => postings.entry(term.to_owned()).or_default(),
            };
            // A word twice in one message is one posting.
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
        Ok(MessageIndex {
            ids,
            postings: postings
                .into_iter()
                .map(|(w, mut l)| {
                    l.sort_unstable();
                    l.dedup();
                    (w, l.into_boxed_slice())
                })
                .collect(),
        })
    }

    /// At most `limit` records whose messages hold the rarest of `words`, those holding more
    /// and rarer ones chosen first, in store order: candidates for an approximate match.
    pub fn similar_rows(&self, words: &[&str], limit: usize) -> Result<Vec<MatchEntry>> {
        // The rarest words say the most and cost the least: a common word (`error`, `GET`)
        // would bring thousands of messages to score. Query with the few rarest.
        // One lookup a word: fts5vocab answers `term = ?` from the index, but scans every term
        // for an IN list.
        let mut doc_count = self
            .conn
            .prepare_cached("SELECT doc FROM messages_vocab WHERE term = ?1")?;
        let mut counted: Vec<(String, i64)> = Vec::new();
        for w in words.iter().take(64) {
            let w = w.to_lowercase();
            if let Some(n) = doc_count.query_row([&w], |r| r.get(0)).optional()? {
                counted.push((w, n));
            }
        }
        let mut postings = self
            .conn
            .prepare_cached("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?1")?;
        let ranked = rank(counted, limit, |word| {
            let term = format!("\"{}\"", word.replace('"', "\"\""));
            let rows = postings.query_map([term], |r| r.get::<_, i64>(0))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })?;
        if ranked.is_empty() {
            return Ok(Vec::new());
        }
        let seqs = serde_json::to_string(&ranked).expect("numbers serialise");
        self.query_match_rows(
            &format!(
                "SELECT {MATCH_COLUMNS} FROM records
                 WHERE seq IN (SELECT value FROM json_each(?1)) ORDER BY seq"
            ),
            [seqs],
        )
    }

    fn query_match_rows<P: rusqlite::Params>(
        &self,
        sql: &str,
        params: P,
    ) -> Result<Vec<MatchEntry>> {
        let mut stmt = self.conn.prepare_cached(sql)?;
        let rows = stmt.query_map(params, |r| {
            Ok(MatchEntry {
                id: r.get(0)?,
                slug: r.get(1)?,
                file_path: r.get(2)?,
                line_number: r.get(3)?,
                message: r.get(4)?,
                pattern: r.get(5)?,
                error_class: r.get(6)?,
                error_code: r.get(7)?,
                function: r.get(9)?,
                owner: r.get(10)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The records whose id is `key`, or whose slug is `key`.
    pub fn find(&self, key: &str) -> Result<Vec<Record>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, json FROM records WHERE id = ?1 OR slug = ?1 ORDER BY repo, file_path, line_number",
        )?;
        let mut rows = stmt.query([key])?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            out.push(decode(
                &row.get::<_, String>(0)?,
                &row.get::<_, String>(1)?,
            )?);
        }
        Ok(out)
    }

    /// The ids and JSON of at most `limit` records whose class is one of `classes`, in store
    /// order.
    pub fn records_of_classes(
        &self,
        classes: &[&str],
        limit: usize,
    ) -> Result<Vec<(String, String)>> {
        if classes.is_empty() {
            return Ok(Vec::new());
        }
        let classes = serde_json::to_string(classes).expect("strings serialise");
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, json FROM records
             WHERE error_class IN (SELECT value FROM json_each(?1)) ORDER BY seq LIMIT ?2",
        )?;
        let rows = stmt.query_map(rusqlite::params![classes, limit as i64], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// When the record `id` is the text an error type words for itself (its `__str__`,
    /// `Display::fmt`, `Error()`, `getMessage()` or `toString()`), the raises of that type in
    /// its repository that pass no message of their own (`raise URLError(err)`), in store
    /// order, at most `limit`.
    pub fn raises_of_own_text(&self, id: &str, limit: usize) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT r.json FROM records AS t JOIN records AS r
                 ON r.repo = t.repo AND r.error_class = t.error_class AND r.message = t.error_class
             WHERE t.id = ?1 AND r.id != t.id
             AND t.function IN ('__str__', 'fmt', 'Error', 'getMessage', 'getLocalizedMessage', 'toString')
             ORDER BY r.seq LIMIT ?2",
        )?;
        let rows = stmt.query_map(rusqlite::params![id, limit as i64], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The records whose code is one of `codes`, or is made with a value (`E${res.status}`,
    /// which `E404` may be), at most `limit`: each record's JSON, pattern and code.
    pub fn records_of_codes(
        &self,
        codes: &[&str],
        limit: usize,
    ) -> Result<Vec<(String, String, String)>> {
        if codes.is_empty() {
            return Ok(Vec::new());
        }
        let codes = serde_json::to_string(codes).expect("strings serialise");
        let mut stmt = self.conn.prepare_cached(
            "SELECT json, pattern, error_code FROM records
             WHERE error_code IS NOT NULL
             AND (error_code IN (SELECT value FROM json_each(?1)) OR instr(error_code, '${') > 0)
             ORDER BY seq LIMIT ?2",
        )?;
        let rows = stmt.query_map(rusqlite::params![codes, limit as i64], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The JSON of the records that raise in function `function` of a file named `file_name`
    /// (its last component), at most `limit`.
    pub fn records_in_function(
        &self,
        file_name: &str,
        function: &str,
        limit: usize,
    ) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT json FROM records
             WHERE function = ?2
             AND (file_path = ?1 OR substr(file_path, -length(?1) - 1) = '/' || ?1)
             ORDER BY seq LIMIT ?3",
        )?;
        let rows = stmt.query_map(rusqlite::params![file_name, function, limit as i64], |r| {
            r.get(0)
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The stored JSON of the record with id `id`, as it is stored (schema v2, keys in order).
    pub fn record_json(&self, id: &str) -> Result<Option<String>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT json FROM records WHERE id = ?1")?;
        let mut rows = stmt.query([id])?;
        Ok(match rows.next()? {
            Some(row) => Some(row.get(0)?),
            None => None,
        })
    }

    /// Whether the store holds no record at all.
    pub fn is_empty(&self) -> Result<bool> {
        Ok(!self
            .conn
            .query_row("SELECT EXISTS (SELECT 1 FROM records)", [], |r| r.get(0))?)
    }

    pub fn stats(&self) -> Result<Stats> {
        let count = |sql: &str| -> Result<u64> {
            Ok(self.conn.query_row(sql, [], |r| r.get::<_, i64>(0))? as u64)
        };
        let group = |sql: &str| -> Result<Vec<(String, u64)>> {
            let mut stmt = self.conn.prepare(sql)?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        };
        Ok(Stats {
            files: count("SELECT count(*) FROM files")?,
            records: count("SELECT count(*) FROM records")?,
            repos: group("SELECT repo, count(*) FROM records GROUP BY repo ORDER BY 2 DESC, 1")?,
            by_lang: group("SELECT lang, count(*) FROM records GROUP BY lang ORDER BY 2 DESC, 1")?,
            by_type: group(
                "SELECT error_type, count(*) FROM records GROUP BY error_type ORDER BY 2 DESC, 1",
            )?,
        })
    }
}

/// Counts over one repository's records, for its overview page.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Overview {
    pub records: u64,
    pub by_type: Vec<(String, u64)>,
    pub by_class: Vec<(String, u64)>,
    pub by_tag: Vec<(String, u64)>,
}

impl Store {
    /// The counts of `repo`'s records by type, class (the 50 most common) and tag (the 50 most
    /// common).
    pub fn overview(&self, repo: &str) -> Result<Overview> {
        let group = |sql: &str| -> Result<Vec<(String, u64)>> {
            let mut stmt = self.conn.prepare(sql)?;
            let rows = stmt.query_map([repo], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        };
        Ok(Overview {
            records: self.conn.query_row(
                "SELECT count(*) FROM records WHERE repo = ?1",
                [repo],
                |r| r.get::<_, i64>(0),
            )? as u64,
            by_type: group(
                "SELECT error_type, count(*) FROM records WHERE repo = ?1 GROUP BY 1 ORDER BY 2 DESC, 1",
            )?,
            by_class: group(
                "SELECT error_class, count(*) FROM records WHERE repo = ?1 AND error_class IS NOT NULL
                 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 50",
            )?,
            by_tag: group(
                "SELECT t.value, count(*) FROM records, json_each(records.json, '$.tags') AS t
                 WHERE repo = ?1 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 50",
            )?,
        })
    }
}

fn under(path: &str, prefix: &str) -> bool {
    prefix.is_empty()
        || path == prefix
        || (path.starts_with(prefix) && path.as_bytes().get(prefix.len()) == Some(&b'/'))
}

fn decode(id: &str, json: &str) -> Result<Record> {
    serde_json::from_str(json).map_err(|source| Error::Damaged {
        id: id.to_owned(),
        source,
    })
}

/// What `contentChangedAt` follows: the message and the source window.
fn content_hash(r: &Record) -> String {
    let mut h = Sha256::new();
    h.update(r.error_message.as_bytes());
    h.update([0]);
    h.update(r.source_code.as_bytes());
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Takes a file's records out of the message index, before they are replaced or removed.
fn unindex_messages(tx: &rusqlite::Transaction<'_>, repo: &str, path: &str) -> Result<()> {
    tx.prepare_cached(
        "DELETE FROM messages_fts WHERE rowid IN (SELECT rowid FROM records WHERE repo = ?1 AND file_path = ?2)",
    )?
    .execute(params![repo, path])?;
    Ok(())
}

fn replace_file_records(
    tx: &rusqlite::Transaction<'_>,
    f: &FileUpdate,
    records: &[Record],
) -> Result<WriteSummary> {
    let mut sum = WriteSummary::default();
    unindex_messages(tx, &f.repo, &f.path)?;
    // id -> (content hash, contentChangedAt, sources, json when a model wrote some fields)
    type Old = (String, String, Option<String>, Option<String>);
    let mut old: HashMap<String, Old> = HashMap::new();
    {
        let mut stmt = tx.prepare_cached(
            "SELECT id, content_hash, json_extract(json, '$.contentChangedAt'), sources,
                    CASE WHEN sources IS NULL THEN NULL ELSE json END
             FROM records WHERE repo = ?1 AND file_path = ?2",
        )?;
        let rows = stmt.query_map(params![f.repo, f.path], |r| {
            Ok((
                r.get::<_, String>(0)?,
                (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?),
            ))
        })?;
        for row in rows {
            let (id, v) = row?;
            old.insert(id, v);
        }
    }
    let mut insert = tx.prepare_cached(
        "INSERT OR REPLACE INTO records (id, repo, file_path, lang, slug, error_type, message, line_number, content_hash, analyzed_sha, json, pattern, error_class, error_code, anchor, facts, sources, function, owner)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                 CASE WHEN json_valid(?16) THEN json_extract(?16, '$.function.name') END,
                 CASE WHEN json_valid(?16) THEN json_extract(?16, '$.function.owner') END)",
    )?;
    for (i, r) in records.iter().enumerate() {
        let hash = content_hash(r);
        let mut r = r.clone();
        let mut sources: Option<String> = None;
        match old.remove(&r.id) {
            Some((old_hash, changed_at, old_sources, old_json)) if old_hash == hash => {
                r.content_changed_at = changed_at;
                sum.unchanged += 1;
                // What a model wrote for this content stays until the content changes.
                if let (Some(s), Some(j)) = (old_sources, old_json) {
                    if let Ok(prev) = decode(&r.id, &j) {
                        links::keep_written(&mut r, &prev, &s);
                        sources = Some(s);
                    }
                }
            }
            Some(_) => sum.changed += 1,
            None => sum.added += 1,
        }
        let json = serde_json::to_string(&r).map_err(|source| Error::Damaged {
            id: r.id.clone(),
            source,
        })?;
        insert.execute(params![
            r.id,
            r.repo,
            r.file_path,
            f.lang,
            r.slug,
            r.error_type.as_str(),
            r.error_message,
            r.line_number,
            hash,
            r.analyzed_sha,
            json,
            r.message_pattern,
            r.error_class,
            r.error_code,
            anchor(&r.message_pattern),
            f.facts.get(i),
            sources
        ])?;
    }
    let mut delete = tx.prepare_cached("DELETE FROM records WHERE id = ?1")?;
    for id in old.keys() {
        delete.execute([id])?;
        sum.removed += 1;
    }
    tx.prepare_cached(
        "INSERT INTO messages_fts (rowid, message) SELECT rowid, message FROM records WHERE repo = ?1 AND file_path = ?2",
    )?
    .execute(params![f.repo, f.path])?;
    Ok(sum)
}

/// Points the records of an unchanged file at the commit now analysed.
fn repoint(
    tx: &rusqlite::Transaction<'_>,
    repo: &str,
    path: &str,
    sha: Option<&str>,
    permalink: &dyn Fn(&str, u32, u32) -> Option<String>,
) -> Result<usize> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, json, analyzed_sha IS ?3 FROM records WHERE repo = ?1 AND file_path = ?2",
    )?;
    let rows: Vec<(String, String, bool)> = stmt
        .query_map(params![repo, path, sha], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let n = rows.len();
    let mut update =
        tx.prepare_cached("UPDATE records SET analyzed_sha = ?2, json = ?3 WHERE id = ?1")?;
    for (id, json, same) in rows {
        if same {
            continue;
        }
        let mut r = decode(&id, &json)?;
        r.analyzed_sha = sha.map(str::to_owned);
        r.github_url = permalink(&r.file_path, r.source_code_start, r.source_code_end);
        let json = serde_json::to_string(&r).map_err(|source| Error::Damaged {
            id: id.clone(),
            source,
        })?;
        update.execute(params![id, sha, json])?;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_of_the_first_schema_is_migrated_for_the_matcher() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(
                "INSERT INTO records VALUES ('a1', 'o/r', 'x.py', 'python', 'bad-x', 'exception',
                 'bad {x}', 3, 'h', NULL,
                 '{\"messagePattern\": \"bad (.*)\", \"errorClass\": \"ValueError\", \"errorCode\": null}')",
                [],
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let rows = store.match_rows().unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].pattern, "bad (.*)");
        assert_eq!(rows[0].error_class.as_deref(), Some("ValueError"));
        assert_eq!(rows[0].error_code, None);
        assert_eq!(rows[0].line_number, 3);
        assert_eq!(store.match_rows_for_words(&["bad"]).unwrap(), rows);
        assert!(store.match_rows_for_words(&["good"]).unwrap().is_empty());
        assert_eq!(store.similar_rows(&["x", "bad"], 5).unwrap(), rows);
    }

    /// Stores a record `r{i}` with `msg` as its message, pattern and (first word) anchor, and
    /// indexes the message.
    fn insert_message(store: &Store, i: usize, msg: &str) {
        store
            .conn
            .execute(
                "INSERT INTO records (id, repo, file_path, lang, slug, error_type, message, line_number, content_hash, json, pattern, anchor)
                 VALUES (?1, 'o/r', 'x.py', 'python', ?1, 'exception', ?2, 1, 'h', '{}', ?2, ?3)",
                params![format!("r{i}"), msg, msg.split(' ').next().unwrap()],
            )
            .unwrap();
        store
            .conn
            .execute(
                "INSERT INTO messages_fts (rowid, message) VALUES (last_insert_rowid(), ?1)",
                [msg],
            )
            .unwrap();
    }

    #[test]
    fn the_message_index_survives_vacuum() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let store = Store::open(&path).unwrap();
        for (i, msg) in ["alpha failed", "beta failed", "gamma failed"]
            .iter()
            .enumerate()
        {
            insert_message(&store, i, msg);
        }
        store
            .conn
            .execute(
                "DELETE FROM messages_fts WHERE rowid = (SELECT seq FROM records WHERE id = 'r0')",
                [],
            )
            .unwrap();
        store
            .conn
            .execute("DELETE FROM records WHERE id = 'r0'", [])
            .unwrap();
        store.conn.execute_batch("VACUUM").unwrap();
        let found = store.similar_rows(&["gamma"], 5).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "gamma failed");
    }

    #[test]
    fn the_approximate_search_ranks_messages_by_the_rare_words_they_hold() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("r.db")).unwrap();
        for i in 0..50 {
            insert_message(&store, i, &format!("socket {i} closed early"));
        }
        insert_message(&store, 100, "ledger rollback failed");
        insert_message(&store, 101, "ledger socket rollback failed");
        // The message with both words first; then the rare word over the common one.
        let found = store.similar_rows(&["ledger", "socket"], 2).unwrap();
        let messages: Vec<&str> = found.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(messages.len(), 2);
        assert!(
            messages.contains(&"ledger socket rollback failed"),
            "{messages:?}"
        );
        assert!(messages.contains(&"ledger rollback failed"), "{messages:?}");
        let found = store.similar_rows(&["socket", "ledger"], 1).unwrap();
        assert_eq!(found[0].message, "ledger socket rollback failed");
        // The index read into memory chooses the same candidates as the store's.
        let index = store.message_index().unwrap();
        assert!(index.len() >= 7, "{index:?}");
        for words in [
            &["ledger", "socket"][..],
            &["socket"],
            &["rollback", "closed"],
            &["Ledger", "ledger"],
        ] {
            let mut stored: Vec<String> = store
                .similar_rows(words, 3)
                .unwrap()
                .into_iter()
                .map(|e| e.id)
                .collect();
            let mut in_memory: Vec<String> = index
                .similar_ids(words, 3)
                .into_iter()
                .map(str::to_owned)
                .collect();
            stored.sort();
            in_memory.sort();
            assert_eq!(stored, in_memory, "{words:?}");
            assert!(!stored.is_empty(), "{words:?}");
        }
    }

    #[test]
    fn the_approximate_search_queries_with_rare_words_only() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("w.db")).unwrap();
        for i in 0..=COMMON_WORD_DOCS as usize {
            insert_message(&store, i, &format!("request {i} timed out"));
        }
        insert_message(&store, 5000, "widget registry timed out");
        // "timed" and "out" are in more than COMMON_WORD_DOCS messages: they find nothing alone.
        assert!(store.similar_rows(&["timed", "out"], 5).unwrap().is_empty());
        // With a rare word, only the messages that hold it are ranked.
        let found = store.similar_rows(&["widget", "timed", "out"], 5).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "widget registry timed out");
    }
}
