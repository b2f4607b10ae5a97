//! `find_sites` starts from trigger words instead of visiting every node; it must find exactly
//! what the full walk finds. Checked here on every language fixture (and, by hand, on the real
//! corpora: `CHECK=1 cargo run --release -p errata-extract --example parse_only -- DIR EXT`).

use std::path::Path;

#[test]
fn trigger_search_finds_what_a_full_walk_finds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/tests/fixtures");
    let mut checked = 0;
    for sub in [
        "lang",
        "golden/packages/plugins/sandbox-providers/createos/src",
    ] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            let Some(lang) = errata_lang::Lang::from_path(&path) else {
                continue;
            };
            let src = std::fs::read_to_string(&path).unwrap();
            let tree = errata_extract::parse(lang, &path, &src).unwrap();
            for tests in [false, true] {
                let fast = errata_extract::find_sites(lang, &tree, &src, tests);
                let walked = errata_extract::find_sites_by_walk(lang, &tree, &src, tests);
                assert!(!fast.is_empty(), "{}", path.display());
                assert_eq!(fast, walked, "{}", path.display());
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 8);
}
