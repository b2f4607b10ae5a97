//! Fingerprints the code that turns a file into records (this crate, and the model, language
//! and explanation crates it uses), so that an index made by another version of errata parses
//! every file again rather than keeping the records that version found.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn main() {
    let here = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut files = Vec::new();
    for dir in ["src", "../model/src", "../lang/src", "../explain/src"] {
        let dir = here.join(dir);
        println!("cargo:rerun-if-changed={}", dir.display());
        sources(&dir, &mut files);
    }
    files.sort();
    let mut h = Sha256::new();
    for f in &files {
        h.update(
            f.strip_prefix(&here)
                .unwrap_or(f)
                .to_string_lossy()
                .as_bytes(),
        );
        h.update(std::fs::read(f).unwrap_or_default());
    }
    let digest: String = h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    println!("cargo:rustc-env=ERRATA_RULES_FINGERPRINT={digest}");
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}
