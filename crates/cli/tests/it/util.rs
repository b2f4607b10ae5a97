//! The shared harness: a scratch folder, the errata binary, and the schema.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

pub(crate) struct Scratch {
    pub(crate) dir: tempfile::TempDir,
}

impl Scratch {
    pub(crate) fn new() -> Scratch {
        Scratch {
            dir: tempfile::tempdir().expect("a temporary folder"),
        }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn db(&self) -> PathBuf {
        self.path().join("errata.db")
    }

    /// Writes a file under the scratch folder, creating its parents.
    pub(crate) fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        p
    }

    /// Runs errata with this scratch folder's database.
    pub(crate) fn errata(&self, args: &[&str]) -> Output {
        let out = errata_cmd()
            .args(args)
            .arg("--db")
            .arg(self.db())
            .current_dir(self.path())
            .output()
            .expect("errata runs");
        out
    }

    /// Runs errata and insists that it succeeds.
    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let out = self.errata(args);
        assert!(
            out.status.success(),
            "errata {args:?} failed ({:?}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8 output")
    }

    /// The exported dataset, parsed.
    pub(crate) fn export(&self) -> Vec<serde_json::Value> {
        self.ok(&["export"])
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect()
    }

    /// The records of the exported dataset.
    pub(crate) fn records(&self) -> Vec<serde_json::Value> {
        self.export()
            .into_iter()
            .map(|l| l["record"].clone())
            .collect()
    }
}

/// The record of `records` with the message `message`.
pub(crate) fn record_of<'a>(
    records: &'a [serde_json::Value],
    message: &str,
) -> &'a serde_json::Value {
    records
        .iter()
        .find(|r| r["errorMessage"] == message)
        .unwrap_or_else(|| panic!("no record of {message:?}"))
}

pub(crate) fn errata_cmd() -> Command {
    Command::new(env!("CARGO_BIN_EXE_errata"))
}

/// `../shared` beside the repository.
pub(crate) fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The schema v2 validator.
pub(crate) fn schema() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let text = std::fs::read_to_string(shared().join("schema/error-record.v2.schema.json"))
            .expect("../shared/schema/error-record.v2.schema.json");
        let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
        jsonschema::validator_for(&schema).expect("the schema compiles")
    })
}

/// Asserts that every line validates against the schema, with its keys in the schema's order.
pub(crate) fn assert_valid(lines: &[serde_json::Value]) {
    let order: Vec<String> = {
        let text =
            std::fs::read_to_string(shared().join("schema/error-record.v2.schema.json")).unwrap();
        let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
        schema["properties"]["record"]["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    for line in lines {
        let errors: Vec<String> = schema()
            .iter_errors(line)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "invalid line {line}:\n{}",
            errors.join("\n")
        );
        let keys: Vec<&String> = line["record"].as_object().unwrap().keys().collect();
        assert_eq!(keys, order.iter().collect::<Vec<_>>(), "key order");
    }
}

/// Copies a folder tree.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// The seed record (`../shared/seed/record.json`), its `record` object.
pub(crate) fn seed() -> serde_json::Value {
    let text = std::fs::read_to_string(shared().join("seed/record.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["record"].clone()
}

/// A scratch folder with the golden fixture indexed as the seed's repository and commit. The
/// fixture is copied first: under tests/ it would be skipped as test code.
pub(crate) fn golden_indexed() -> Scratch {
    let s = Scratch::new();
    let tree = s.path().join("paperclip");
    copy_dir(&fixtures().join("golden"), &tree);
    s.ok(&[
        "index",
        tree.to_str().unwrap(),
        "--repo",
        "paperclipai/paperclip",
        "--commit",
        "3f1d897a7c018d76563a21c6e39c3c9b03933622",
    ]);
    s
}
