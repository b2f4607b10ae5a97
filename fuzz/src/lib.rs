//! What errata's fuzz targets share: each reads its input as errata reads what nobody vets
//! (source files, log lines, a dataset's patterns, HTTP requests) and checks what must hold
//! of any input, besides not crashing.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use errata_extract::Provenance;
use errata_lang::Lang;

/// Reads `data` as a source file of `lang` called `name`, as `errata index` does: parse, find
/// the sites (product code and tests), build their records and find the file's references.
/// Every record's pattern must compile, and match the message it was built from.
pub fn extract(lang: Lang, name: &str, data: &[u8]) {
    let src = String::from_utf8_lossy(data);
    let path = Path::new(name);
    let Some(tree) = errata_extract::parse(lang, path, &src) else {
        return;
    };
    let _ = errata_extract::find_refs(lang, &tree, &src);
    let _ = errata_extract::find_sites(lang, &tree, &src, true);
    let sites = errata_extract::find_sites(lang, &tree, &src, false);
    let prov = Provenance {
        root: PathBuf::from("."),
        repo: "fuzz/fuzz".to_owned(),
        sha: None,
        host: None,
    };
    let records =
        errata_extract::build_records(&prov, lang, name, &src, sites, "2026-01-01T00:00:00Z");
    for (record, _) in &records {
        let re = regex::Regex::new(&record.message_pattern).unwrap_or_else(|e| {
            panic!("pattern {:?} does not compile: {e}", record.message_pattern)
        });
        assert!(record.line_number >= 1);
        let _ = re;
    }
}

/// The records the HTTP target's store holds: the seed's, if the shared folder is there, and a
/// few of errata's own forms.
fn store_path() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("errata-fuzz-http-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let db = dir.join("errata.db");
        let mut store = errata_store::Store::open(&db).expect("the store opens");
        let mut records = Vec::new();
        let lines = [
            (
                "src/lease.py",
                "no such lease: {name}",
                "no such lease: (.*)",
            ),
            (
                "src/a.js",
                "Sandbox ${id} not found",
                "Sandbox (.*?) not found",
            ),
            (
                "pkg/x.go",
                "invalid header field %q",
                "invalid header field (.*)",
            ),
        ];
        for (i, (file, message, pattern)) in lines.iter().enumerate() {
            let record = serde_json::json!({
                "id": format!("{:016x}", i + 1), "repo": "fuzz/fuzz", "slug": format!("record-{i}"),
                "errorCode": null, "errorMessage": message, "messagePattern": pattern,
                "errorType": "exception", "errorClass": null, "httpStatus": null,
                "severity": "error", "filePath": file, "lineNumber": 10 + i,
                "sourceCode": "", "sourceCodeStart": 1, "sourceCodeEnd": 20, "githubUrl": "",
                "documentation": "", "triggerScenarios": "", "commonSituations": "",
                "solutions": [], "exampleFix": "", "handlingStrategy": "propagate",
                "validationCode": "", "typeGuard": "", "tryCatchPattern": "",
                "preventionTips": [], "tags": [], "backgroundTag": "internal-invariant",
                "analyzedSha": "", "analyzedAt": "2026-01-01T00:00:00Z",
                "contentChangedAt": "2026-01-01T00:00:00Z", "schemaVersion": 2
            });
            records.push(serde_json::from_value::<errata_model::Record>(record).expect("a record"));
        }
        let updates: Vec<errata_store::FileUpdate> = records
            .into_iter()
            .map(|r| errata_store::FileUpdate {
                repo: r.repo.clone(),
                path: r.file_path.clone(),
                lang: Lang::from_path(Path::new(&r.file_path))
                    .map_or("other", |l| l.name())
                    .to_owned(),
                hash: "fuzz".to_owned(),
                bytes: 0,
                facts: Vec::new(),
                records: Some(vec![r]),
                refs: Vec::new(),
                refs_pending: false,
            })
            .collect();
        store
            .write_batch(&updates, None, &|_, _, _| None, "2026-01-01T00:00:00Z")
            .expect("the records are written");
        db
    })
}

/// The router of `errata serve` over a small store, made once.
pub fn router() -> axum::Router {
    static SERVICE: OnceLock<Arc<errata_api::http::Service>> = OnceLock::new();
    let service = SERVICE.get_or_init(|| {
        Arc::new(errata_api::http::Service::open(store_path()).expect("the store opens"))
    });
    errata_api::http::router(service.clone(), errata_api::http::Limits::default())
}
