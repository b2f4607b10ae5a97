//! The repository-wide facts of each record, found once every file is indexed: the callers of
//! its function and the handlers of its error class. A record whose callers or handlers
//! changed is explained again; fields a model wrote stay as they are.

use std::collections::{HashMap, HashSet};

use anyhow::Result;
use errata_explain::{explain_record, Facts, Reference, FIELDS};
use errata_model::RefKind;
use errata_store::{Explained, Found, RefIndex, Store};

/// Most callers and handlers kept per record.
const MAX_LINKS: usize = 20;
/// A function name defined in more files than this (`__init__`, `new`, `run`) says nothing
/// about which of them is called.
const MAX_DEFINITIONS: usize = 8;
/// A class handled in more files than this is a common one: see [`handlers`].
const MAX_HANDLER_FILES: usize = 5;
/// Classes every handler of anything catches: a handler of them is not one of this error.
const GENERIC_CLASSES: &[&str] = &[
    "Error",
    "Exception",
    "BaseException",
    "Throwable",
    "RuntimeException",
    "error",
];

/// What linking changed.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Linked {
    pub(crate) records: usize,
    pub(crate) explained_again: usize,
}

/// Links the records of `repo` to their callers and handlers.
pub(crate) fn link(store: &mut Store, repo: &str) -> Result<Linked> {
    let items = store.explained(Some(repo))?;
    let mut linked = Linked {
        records: items.len(),
        ..Linked::default()
    };
    let items: Vec<(Explained, Facts)> = items
        .into_iter()
        .filter_map(|e| {
            let facts = serde_json::from_str::<Facts>(&e.facts).ok()?;
            Some((e, facts))
        })
        .collect();
    let mut names: HashSet<String> = HashSet::new();
    for (e, facts) in &items {
        names.extend(facts.function.as_ref().map(|f| f.name.clone()));
        names.extend(handled_name(e.record.error_class.as_deref()));
    }
    let index = store.ref_index(repo, &names, MAX_LINKS + 1)?;
    let mut changed = Vec::new();
    for (mut item, mut facts) in items {
        let found_callers: Vec<Reference> = match &facts.function {
            Some(f) => callers(&index, &f.name)
                .into_iter()
                .filter(|c| {
                    // A call from the function itself is recursion, not a caller.
                    !(c.file == item.record.file_path
                        && c.function.as_deref() == Some(f.name.as_str()))
                })
                .take(MAX_LINKS)
                .collect(),
            None => Vec::new(),
        };
        let found_handlers: Vec<Reference> = match handled_name(item.record.error_class.as_deref())
        {
            Some(name) => handlers(&index, &name, &found_callers),
            None => Vec::new(),
        };
        if facts.callers == found_callers && facts.handlers == found_handlers {
            continue;
        }
        facts.callers = found_callers;
        facts.handlers = found_handlers;
        let Some(explanation) = explain_record(&item.record, &facts) else {
            continue;
        };
        let written_by_model: Vec<String> = item
            .sources
            .as_deref()
            .and_then(|s| serde_json::from_str::<HashMap<String, String>>(s).ok())
            .map(|m| m.into_keys().collect())
            .unwrap_or_default();
        let fields: Vec<&str> = FIELDS
            .iter()
            .copied()
            .filter(|f| !written_by_model.iter().any(|w| w == f))
            .collect();
        explanation.apply(&mut item.record, Some(&fields));
        item.facts = serde_json::to_string(&facts)?;
        changed.push(item);
    }
    linked.explained_again = changed.len();
    store.update_explained(&changed)?;
    Ok(linked)
}

/// The calls of `name`, unless so many files define a function of that name that a call
/// says nothing about which one it reaches.
fn callers(index: &RefIndex, name: &str) -> Vec<Reference> {
    let defined = index.definitions(name);
    if defined > MAX_DEFINITIONS {
        return Vec::new();
    }
    index
        .get(RefKind::Call, name)
        .iter()
        .map(|f| reference(f, defined <= 1))
        .collect()
}

/// The handlers of a class. A class caught all over the repository (`ValueError`,
/// `IllegalStateException`) is caught for many reasons: only the handlers in the functions
/// that call the record's function are about this error.
fn handlers(index: &RefIndex, class: &str, callers: &[Reference]) -> Vec<Reference> {
    let all = index.get(RefKind::Handler, class);
    let files: HashSet<&str> = all.iter().map(|h| h.file.as_str()).collect();
    all.iter()
        .filter(|h| {
            files.len() <= MAX_HANDLER_FILES
                || callers
                    .iter()
                    .any(|c| c.file == h.file && c.function.is_some() && c.function == h.function)
        })
        .take(MAX_LINKS)
        .map(|h| reference(h, true))
        .collect()
}

fn reference(f: &Found, exact: bool) -> Reference {
    Reference {
        file: f.file.clone(),
        line: f.line,
        function: f.function.clone(),
        text: f.text.clone(),
        exact,
    }
}

/// The name a handler of `class` is stored under: `Enum::Variant` for a Rust variant, the
/// last segment otherwise. Generic classes have no handler of their own.
fn handled_name(class: Option<&str>) -> Option<String> {
    let class = class?;
    let name = match class.rsplit_once("::") {
        Some((path, variant)) => {
            let e = path.rsplit("::").next().unwrap_or(path);
            format!("{e}::{variant}")
        }
        None => class
            .trim_start_matches('*')
            .rsplit('.')
            .next()
            .unwrap_or(class)
            .to_owned(),
    };
    (!GENERIC_CLASSES.contains(&name.as_str())).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::handled_name;

    #[test]
    fn handler_names() {
        assert_eq!(
            handled_name(Some("io::ErrorKind::NotFound")).as_deref(),
            Some("ErrorKind::NotFound")
        );
        assert_eq!(
            handled_name(Some("java.io.IOException")).as_deref(),
            Some("IOException")
        );
        assert_eq!(
            handled_name(Some("*PathError")).as_deref(),
            Some("PathError")
        );
        assert_eq!(handled_name(Some("Error")), None);
        assert_eq!(handled_name(None), None);
    }
}
