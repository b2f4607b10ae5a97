//! errata on real code nobody here wrote: the corpora every machine of the project has
//! (PRODUCT.md). Each corpus is indexed once per test run and shared by the tests below; a corpus
//! that is missing (its Debian package not installed) is reported and skipped.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use crate::util::{assert_valid, Scratch};

pub(crate) struct Indexed {
    pub(crate) scratch: Scratch,
    pub(crate) repo: String,
    /// The folder record paths are relative to.
    pub(crate) root: PathBuf,
}

fn stdout_of(cmd: &mut Command) -> Option<String> {
    let out = cmd.stderr(Stdio::null()).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

pub(crate) fn python_stdlib() -> Option<PathBuf> {
    stdout_of(Command::new("python3").args([
        "-c",
        "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
    ]))
    .map(PathBuf::from)
    .filter(|p| p.is_dir())
}

pub(crate) fn npm() -> Option<PathBuf> {
    stdout_of(Command::new("npm").args(["root", "-g"]))
        .map(|r| PathBuf::from(r).join("npm"))
        .filter(|p| p.is_dir())
}

pub(crate) fn go_src() -> Option<PathBuf> {
    let mut candidates = vec![PathBuf::from("/usr/lib/go/src")];
    if let Ok(dir) = std::fs::read_dir("/usr/lib") {
        let mut gos: Vec<PathBuf> = dir
            .filter_map(Result::ok)
            .map(|e| e.path().join("src"))
            .filter(|p| {
                p.parent()
                    .and_then(|d| d.file_name())
                    .is_some_and(|n| n.to_string_lossy().starts_with("go-"))
            })
            .collect();
        gos.sort();
        candidates.extend(gos.into_iter().rev());
    }
    candidates.into_iter().find(|p| p.join("errors").is_dir())
}

/// The JDK's sources, unpacked once from Debian's `src.zip` into the target folder.
pub(crate) fn jdk_src() -> Option<PathBuf> {
    let zip = std::fs::read_dir("/usr/lib/jvm")
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path().join("lib/src.zip"))
        .filter(|p| p.is_file() && p.to_string_lossy().contains("java-17-openjdk"))
        .min()?;
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/corpora/jdk-17");
    let done = target.join(".unpacked");
    if !done.exists() {
        let _ = std::fs::remove_dir_all(&target);
        std::fs::create_dir_all(&target).ok()?;
        let ok = Command::new("python3")
            .args(["-m", "zipfile", "-e"])
            .arg(&zip)
            .arg(&target)
            .status()
            .ok()?
            .success();
        if !ok {
            return None;
        }
        std::fs::write(&done, "").ok()?;
    }
    Some(target)
}

pub(crate) fn cargo_registry() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    Some(home.join("registry/src")).filter(|p| p.is_dir())
}

fn index(name: &str, dir: Option<PathBuf>, extra: &[&str]) -> Option<Indexed> {
    let Some(dir) = dir else {
        eprintln!("corpus {name} is not installed here; skipped (scripts/test installs it)");
        return None;
    };
    let scratch = Scratch::new();
    let repo = format!("corpus/{name}");
    let mut args = vec!["index", dir.to_str().unwrap(), "--repo", &repo];
    args.extend_from_slice(extra);
    scratch.ok(&args);
    let root = errata_extract::Provenance::discover(&dir, None, None).root;
    Some(Indexed {
        scratch,
        repo,
        root,
    })
}

macro_rules! corpus {
    ($fn:ident, $name:literal, $dir:expr, $extra:expr) => {
        pub(crate) fn $fn() -> Option<&'static Indexed> {
            static C: OnceLock<Option<Indexed>> = OnceLock::new();
            C.get_or_init(|| index($name, $dir, $extra)).as_ref()
        }
    };
}

// The standard library without the third-party packages pip installed beside it.
corpus!(
    cpython,
    "cpython-stdlib",
    python_stdlib(),
    &["--exclude", "site-packages"]
);
// npm with its bundled packages: --all reads node_modules too.
corpus!(npm_all, "npm", npm(), &["--all"]);
corpus!(go, "go-stdlib", go_src(), &[]);
corpus!(jdk, "jdk-17", jdk_src(), &[]);
corpus!(cargo, "cargo-registry", cargo_registry(), &[]);

fn check_schema(c: Option<&Indexed>, min_records: usize) {
    let Some(c) = c else { return };
    let lines = c.scratch.export();
    assert!(
        lines.len() >= min_records,
        "{}: only {} records",
        c.repo,
        lines.len()
    );
    assert_valid(&lines);
}

#[test]
fn cpython_stdlib_records_validate() {
    check_schema(cpython(), 3_000);
}

#[test]
fn npm_records_validate() {
    check_schema(npm_all(), 1_000);
}

#[test]
fn go_stdlib_records_validate() {
    check_schema(go(), 2_000);
}

#[test]
fn jdk_records_validate() {
    check_schema(jdk(), 10_000);
}

#[test]
fn cargo_registry_records_validate() {
    check_schema(cargo(), 100);
}

/// The files errata read, and the (file, line) of its records.
fn errata_view(c: &Indexed) -> (Vec<String>, HashSet<(String, u64)>) {
    let store = errata_store::Store::open_existing(&c.scratch.db()).unwrap();
    let mut files: Vec<String> = store.known_files(&c.repo).unwrap().into_keys().collect();
    files.sort();
    let sites = c
        .scratch
        .records()
        .iter()
        .map(|r| {
            (
                r["filePath"].as_str().unwrap().to_owned(),
                r["lineNumber"].as_u64().unwrap(),
            )
        })
        .collect();
    (files, sites)
}

/// Runs a reference parser over the files errata read; every site it reports must be a record.
fn check_recall(c: Option<&Indexed>, ext: &[&str], oracle: &mut Command) {
    let Some(c) = c else { return };
    let (files, sites) = errata_view(c);
    let files: Vec<String> = files
        .into_iter()
        .filter(|f| ext.iter().any(|e| f.ends_with(e)))
        .collect();
    let mut child = oracle
        .arg(&c.root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the reference parser runs");
    // Feed the list from another thread: the parser answers while it reads.
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        for f in &files {
            writeln!(stdin, "{f}").unwrap();
        }
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(out.status.success());
    let expected: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        expected.len() > 100,
        "the reference found {} sites",
        expected.len()
    );
    let missed: Vec<&serde_json::Value> = expected
        .iter()
        .filter(|e| {
            !sites.contains(&(
                e["path"].as_str().unwrap().to_owned(),
                e["line"].as_u64().unwrap(),
            ))
        })
        .collect();
    let recall = 1.0 - missed.len() as f64 / expected.len() as f64;
    eprintln!(
        "{}: {} of {} reference sites found (recall {:.4})",
        c.repo,
        expected.len() - missed.len(),
        expected.len(),
        recall
    );
    assert!(
        missed.is_empty(),
        "{}: {} reference sites have no record, e.g.\n{:#?}",
        c.repo,
        missed.len(),
        &missed[..missed.len().min(15)]
    );
}

fn tools() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests-tools")
}

#[test]
fn every_raise_with_a_message_in_cpython_is_found() {
    let mut cmd = Command::new("python3");
    cmd.arg(tools().join("python_raises.py"));
    check_recall(cpython(), &[".py"], &mut cmd);
}

#[test]
fn every_throw_with_a_message_in_npm_is_found() {
    if !tools().join("node_modules/acorn").is_dir() {
        eprintln!("acorn is not installed (npm install --prefix tests-tools); skipped");
        return;
    }
    let mut cmd = Command::new("node");
    cmd.arg(tools().join("js_throws.mjs"));
    check_recall(npm_all(), &[".js", ".cjs", ".mjs"], &mut cmd);
}
