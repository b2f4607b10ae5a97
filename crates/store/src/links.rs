//! What links a record to its repository and to its explanation's sources: the facts of each
//! record, the calls, definitions and handlers of each file, which source wrote each
//! explanation field, and the model answers already received.

use std::collections::{HashMap, HashSet};

use rusqlite::params;

use errata_model::{Record, Ref, RefKind};

use crate::{decode, Result, Store};

/// A stored record with its facts, read back to be explained again.
#[derive(Debug, Clone)]
pub struct Explained {
    pub record: Record,
    /// The facts, as JSON.
    pub facts: String,
    /// Which source wrote which field, as a JSON object (`None`: static analysis wrote all).
    pub sources: Option<String>,
    /// The content hash: the message and the source window.
    pub content_hash: String,
}

/// The fields a model wrote, and the model, from a record's `sources` (a JSON object; `None`
/// or unreadable: static analysis wrote every field).
pub fn written_by_model(sources: Option<&str>) -> std::collections::BTreeMap<String, String> {
    sources
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or_default()
}

/// A call or handler found elsewhere in the repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub file: String,
    pub line: u32,
    pub function: Option<String>,
    pub text: String,
    /// Whether the file is test code ([`errata_model::is_test_path`]), read once a file.
    pub in_tests: bool,
}

/// Replaces the references of one file: one row per file, a line per reference
/// (`kind \t name \t line \t function \t text`), which costs far less to write than a row per
/// reference and is read back whole when records are linked.
pub(crate) fn replace_refs(
    tx: &rusqlite::Transaction<'_>,
    repo: &str,
    path: &str,
    refs: &[Ref],
) -> Result<()> {
    if refs.is_empty() {
        tx.prepare_cached("DELETE FROM file_refs WHERE repo = ?1 AND path = ?2")?
            .execute(params![repo, path])?;
        return Ok(());
    }
    let mut blob = String::with_capacity(refs.len() * 48);
    for r in refs {
        let clean = |s: &str| s.replace(['\t', '\n'], " ");
        blob.push_str(r.kind.as_str());
        blob.push('\t');
        blob.push_str(&clean(&r.name));
        blob.push('\t');
        blob.push_str(&r.line.to_string());
        blob.push('\t');
        blob.push_str(&clean(r.function.as_deref().unwrap_or("")));
        blob.push('\t');
        blob.push_str(&clean(&r.text));
        blob.push('\n');
    }
    tx.prepare_cached("INSERT OR REPLACE INTO file_refs (repo, path, refs) VALUES (?1, ?2, ?3)")?
        .execute(params![repo, path, blob])?;
    Ok(())
}

/// The kind, name, line, enclosing function (empty for none) and text of one reference, as a
/// line of [`replace_refs`].
pub(crate) fn ref_fields(line: &str) -> Option<(RefKind, &str, u32, &str, &str)> {
    let mut f = line.splitn(5, '\t');
    let (kind, name, at, function, text) = (f.next()?, f.next()?, f.next()?, f.next()?, f.next()?);
    Some((
        RefKind::parse(kind)?,
        name,
        at.parse().unwrap_or(0),
        function,
        text,
    ))
}

/// The language, enclosing function and class of a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldBy {
    pub lang: String,
    pub function: Option<String>,
    pub class: Option<String>,
}

/// What the index needs of the file a reference is in, read once a file.
struct FileOf<'a> {
    path: &'a str,
    fam: u8,
    in_tests: bool,
}

impl<'a> FileOf<'a> {
    fn new(path: &'a str, fam: u8) -> FileOf<'a> {
        FileOf {
            path,
            fam,
            in_tests: errata_model::is_test_path(path),
        }
    }
}

/// The calls, definitions and handlers of a repository for a set of names, read from every
/// file's references.
#[derive(Debug, Default)]
pub struct RefIndex {
    found: HashMap<(RefKind, String, u8), Vec<Found>>,
    defined_in: HashMap<(String, u8), HashSet<String>>,
    /// The files with a reference of each kind to each name (all of them, not only the first
    /// `limit`).
    files: HashMap<(RefKind, String, u8), HashSet<String>>,
}

impl RefIndex {
    /// The references of `kind` to `name` in files of `family`, in file and line order.
    pub fn get(&self, kind: RefKind, name: &str, family: u8) -> &[Found] {
        self.found
            .get(&(kind, name.to_owned(), family))
            .map_or(&[], |v| v.as_slice())
    }

    /// How many files of `family` define a function named `name` (counted up to 64).
    pub fn definitions(&self, name: &str, family: u8) -> usize {
        self.defined_in
            .get(&(name.to_owned(), family))
            .map_or(0, |s| s.len())
    }

    fn insert(
        &mut self,
        file: &FileOf<'_>,
        kind: RefKind,
        name: &str,
        limit: usize,
        found: impl FnOnce() -> Found,
    ) {
        let (path, fam) = (file.path, file.fam);
        // Counts are only compared with small limits: past `COUNTED` files, a name is common,
        // and memory does not grow with the repository.
        const COUNTED: usize = 64;
        // What a definition offers is the call graph's to know, not a link of a record.
        if kind == RefKind::Exposed {
            return;
        }
        if kind == RefKind::Definition {
            let files = self.defined_in.entry((name.to_owned(), fam)).or_default();
            if files.len() < COUNTED && !files.contains(path) {
                files.insert(path.to_owned());
            }
            return;
        }
        let key = (kind, name.to_owned(), fam);
        let files = self.files.entry(key.clone()).or_default();
        if files.len() < COUNTED && !files.contains(path) {
            files.insert(path.to_owned());
        }
        let list = self.found.entry(key).or_default();
        if list.len() < limit {
            list.push(found());
        } else if !file.in_tests {
            // Past the limit, a reference from the code itself takes the place of one from a
            // test: those are what a reader of the record is after.
            if let Some(i) = list.iter().rposition(|f| f.in_tests) {
                list[i] = found();
            }
        }
    }

    /// Adds the references of a file parsed after the index was read (`family` as for
    /// [`Store::ref_index`]); [`RefIndex::finish`] puts the lists back in file order.
    pub fn add(&mut self, path: &str, fam: u8, refs: &[Ref], names: &HashSet<String>) {
        let file = FileOf::new(path, fam);
        for r in refs
            .iter()
            .filter(|r| r.kind == RefKind::Builds || names.contains(&r.name))
        {
            self.insert(&file, r.kind, &r.name, usize::MAX, || Found {
                file: path.to_owned(),
                line: r.line,
                function: r.function.clone(),
                text: r.text.clone(),
                in_tests: file.in_tests,
            });
        }
    }

    /// Sorts each list by file and line and keeps its first `limit`, after [`RefIndex::add`]
    /// (or after the places of tests were taken by the code's own references).
    pub fn finish(&mut self, limit: usize) {
        for list in self.found.values_mut() {
            list.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
            list.truncate(limit);
        }
    }

    /// How many files of `family` have a reference of `kind` to `name` (counted up to 64).
    pub fn files(&self, kind: RefKind, name: &str, family: u8) -> usize {
        self.files
            .get(&(kind, name.to_owned(), family))
            .map_or(0, |s| s.len())
    }
}

/// Copies into `r` the fields of `prev` that `sources` (a JSON object) says a model wrote.
pub(crate) fn keep_written(r: &mut Record, prev: &Record, sources: &str) {
    let Ok(serde_json::Value::Object(sources)) = serde_json::from_str(sources) else {
        return;
    };
    let (Ok(serde_json::Value::Object(mut now)), Ok(serde_json::Value::Object(before))) =
        (serde_json::to_value(&*r), serde_json::to_value(prev))
    else {
        return;
    };
    for field in sources.keys() {
        if let Some(v) = before.get(field) {
            now.insert(field.clone(), v.clone());
        }
    }
    if let Ok(merged) = serde_json::from_value(serde_json::Value::Object(now)) {
        *r = merged;
    }
}

impl Store {
    /// The files of `repo` whose references are still to be found, in path order.
    pub fn pending_refs(&self, repo: &str) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT path FROM files WHERE repo = ?1 AND refs_pending = 1 ORDER BY path")?;
        let rows = stmt.query_map([repo], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Stores the references found for pending files, in one transaction; they are pending
    /// no more.
    pub fn put_refs(&mut self, repo: &str, found: &[(String, Vec<Ref>)]) -> Result<()> {
        let tx = self.conn.transaction()?;
        for (path, refs) in found {
            replace_refs(&tx, repo, path, refs)?;
            tx.prepare_cached("UPDATE files SET refs_pending = 0 WHERE repo = ?1 AND path = ?2")?
                .execute(params![repo, path])?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The distinct (language, function, class) of the records of `repo` that have facts: what
    /// linking looks up.
    pub fn link_names_by_lang(&self, repo: &str) -> Result<Vec<HeldBy>> {
        let mut stmt = self.conn.prepare(
            "SELECT DISTINCT lang, json_extract(facts, '$.function.name'), error_class
             FROM records WHERE repo = ?1 AND facts IS NOT NULL",
        )?;
        let rows = stmt.query_map([repo], |r| {
            Ok(HeldBy {
                lang: r.get(0)?,
                function: r.get(1)?,
                class: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The (function, class) pairs of `repo` that exactly one record has: a function that
    /// raises that class in one place only.
    pub fn single_raises(&self, repo: &str) -> Result<std::collections::HashSet<(String, String)>> {
        let mut stmt = self.conn.prepare(
            "SELECT json_extract(facts, '$.function.name') AS f, error_class
             FROM records WHERE repo = ?1 AND facts IS NOT NULL AND error_class IS NOT NULL
             GROUP BY f, error_class HAVING COUNT(*) = 1",
        )?;
        let rows = stmt.query_map([repo], |r| {
            Ok((r.get::<_, Option<String>>(0)?, r.get::<_, String>(1)?))
        })?;
        let mut out = std::collections::HashSet::new();
        for row in rows {
            if let (Some(f), c) = row? {
                out.insert((f, c));
            }
        }
        Ok(out)
    }

    /// Up to `limit` records of `repo` with facts whose row comes after `after` (a `seq`),
    /// with the `seq` of the last, to read a repository a page at a time.
    pub fn explained_page(
        &self,
        repo: &str,
        after: i64,
        limit: usize,
    ) -> Result<(Vec<Explained>, Option<i64>)> {
        // `+repo` keeps SQLite off the (repo, file) index: through it, every page would read
        // and sort all the repository's records again. By rowid, a page is one range read.
        let mut stmt = self.conn.prepare_cached(
            "SELECT seq, id, json, facts, sources, content_hash FROM records
             WHERE +repo = ?1 AND facts IS NOT NULL AND seq > ?2 ORDER BY seq LIMIT ?3",
        )?;
        let mut rows = stmt.query(params![repo, after, limit as i64])?;
        let mut out = Vec::new();
        let mut last = None;
        while let Some(r) = rows.next()? {
            let id: String = r.get(1)?;
            let json: String = r.get(2)?;
            last = Some(r.get::<_, i64>(0)?);
            out.push(Explained {
                record: decode(&id, &json)?,
                facts: r.get(3)?,
                sources: r.get(4)?,
                content_hash: r.get(5)?,
            });
        }
        Ok((out, last))
    }

    /// The id, content hash and sources of every record with facts (of `repo`, or of all),
    /// in store order: what deciding whether to enrich a record needs, without its JSON.
    pub fn explained_ids(
        &self,
        repo: Option<&str>,
    ) -> Result<Vec<(String, String, Option<String>)>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, content_hash, sources FROM records
             WHERE (?1 IS NULL OR repo = ?1) AND facts IS NOT NULL ORDER BY seq",
        )?;
        let rows = stmt.query_map([repo], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// One record with its facts and sources.
    pub fn explained_one(&self, id: &str) -> Result<Option<Explained>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT json, facts, sources, content_hash FROM records WHERE id = ?1",
        )?;
        let mut rows = stmt.query([id])?;
        let Some(row) = rows.next()? else {
            return Ok(None);
        };
        Ok(Some(Explained {
            record: decode(id, &row.get::<_, String>(0)?)?,
            facts: row
                .get::<_, Option<String>>(1)?
                .unwrap_or_else(|| "{}".to_owned()),
            sources: row.get(2)?,
            content_hash: row.get(3)?,
        }))
    }

    /// The references to `names` in `repo`, keeping at most `limit` of each kind per name.
    ///
    /// `family` sorts files into the groups whose references count for each other (files of
    /// one language, or of languages that call each other's functions): a Go function of a
    /// name does not make a JavaScript call of that name ambiguous.
    pub fn ref_index(
        &self,
        repo: &str,
        names: &HashSet<String>,
        limit: usize,
        family: &dyn Fn(&str) -> u8,
    ) -> Result<RefIndex> {
        let mut index = RefIndex::default();
        self.each_file_refs(repo, |path, blob| {
            let file = FileOf::new(path, family(path));
            for line in blob.lines() {
                let Some((kind, name, at, function, text)) = ref_fields(line) else {
                    continue;
                };
                // The few builders of errors with a code are all wanted: the records they
                // make are known by the call of the builder, not by a name of their own.
                if kind != RefKind::Builds && !names.contains(name) {
                    continue;
                }
                index.insert(&file, kind, name, limit, || Found {
                    file: path.to_owned(),
                    line: at,
                    function: (!function.is_empty()).then(|| function.to_owned()),
                    text: text.to_owned(),
                    in_tests: file.in_tests,
                });
            }
        })?;
        Ok(index)
    }

    /// Calls `f` with the path and the references (as [`replace_refs`] writes them) of each file
    /// of `repo`, in path order.
    pub(crate) fn each_file_refs(&self, repo: &str, mut f: impl FnMut(&str, &str)) -> Result<()> {
        let mut stmt = self
            .conn
            .prepare("SELECT path, refs FROM file_refs WHERE repo = ?1 ORDER BY path")?;
        let mut rows = stmt.query([repo])?;
        while let Some(row) = rows.next()? {
            let path: String = row.get(0)?;
            let blob: String = row.get(1)?;
            f(&path, &blob);
        }
        Ok(())
    }

    /// Writes records explained again, with their facts and sources, in one transaction.
    pub fn update_explained(&mut self, items: &[Explained]) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut update = tx.prepare_cached(
                "UPDATE records SET json = ?2, facts = ?3, sources = ?4, error_code = ?5
                 WHERE id = ?1",
            )?;
            for e in items {
                let json =
                    serde_json::to_string(&e.record).map_err(|source| crate::Error::Damaged {
                        id: e.record.id.clone(),
                        source,
                    })?;
                update.execute(params![
                    e.record.id,
                    json,
                    e.facts,
                    e.sources,
                    e.record.error_code
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// A model answer received before, by its cache key.
    pub fn enrichment(&self, key: &str) -> Result<Option<String>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT fields FROM enrichments WHERE key = ?1")?;
        let mut rows = stmt.query([key])?;
        Ok(match rows.next()? {
            Some(r) => Some(r.get(0)?),
            None => None,
        })
    }

    /// Keeps a model answer, by its cache key.
    pub fn put_enrichment(&self, key: &str, model: &str, fields: &str, now: &str) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT OR REPLACE INTO enrichments (key, model, fields, created_at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![key, model, fields, now])?;
        Ok(())
    }
}
