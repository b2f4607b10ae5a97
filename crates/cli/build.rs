//! Stamps the build with what decides a store's records: the sources of the crates that find
//! sites and explain them, and the pinned versions of their grammars. A store indexed by
//! another stamp is read again in full, so that no record keeps an older build's explanation.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

const ANALYSIS: [&str; 4] = ["../extract", "../explain", "../lang", "../model"];

fn main() {
    let mut hasher = DefaultHasher::new();
    let mut found = false;
    for dir in ANALYSIS {
        let mut files = Vec::new();
        collect(Path::new(dir), &mut files);
        files.sort();
        for f in files {
            if let Ok(bytes) = std::fs::read(&f) {
                f.to_string_lossy().hash(&mut hasher);
                bytes.hash(&mut hasher);
                found = true;
            }
        }
        println!("cargo:rerun-if-changed={dir}");
    }
    if let Ok(lock) = std::fs::read("../../Cargo.lock") {
        lock.hash(&mut hasher);
    }
    println!("cargo:rerun-if-changed=../../Cargo.lock");
    env!("CARGO_PKG_VERSION").hash(&mut hasher);
    let stamp = match found {
        true => format!("{}+{:016x}", env!("CARGO_PKG_VERSION"), hasher.finish()),
        false => env!("CARGO_PKG_VERSION").to_owned(),
    };
    println!("cargo:rustc-env=ERRATA_ANALYSIS={stamp}");
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                collect(&p, out);
            }
        } else if p
            .extension()
            .is_some_and(|x| x == "rs" || x == "toml" || x == "scm")
        {
            out.push(p);
        }
    }
}
