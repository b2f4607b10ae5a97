//! Parses every file of one language under a folder on one thread and prints the time: the
//! floor under `errata index`, and the time of finding the sites and the references, for
//! profiling. `cargo run --release -p errata-extract --example
//! parse_only -- DIR EXT`.
#![allow(clippy::print_stdout)]

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: parse_only DIR EXT");
    let ext = args.next().expect("usage: parse_only DIR EXT");
    let (mut files, mut bytes, mut sites) = (0u64, 0u64, 0usize);
    let started = std::time::Instant::now();
    let mut parse_time = std::time::Duration::ZERO;
    let mut find_time = std::time::Duration::ZERO;
    let mut refs_time = std::time::Duration::ZERO;
    for entry in ignore::WalkBuilder::new(&dir)
        .standard_filters(false)
        .build()
    {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some(ext.as_str()) {
            continue;
        }
        let Ok(src) = std::fs::read_to_string(path) else {
            continue;
        };
        let lang = errata_lang::Lang::from_path(path).unwrap();
        let t = std::time::Instant::now();
        let tree = errata_extract::parse(lang, path, &src).unwrap();
        parse_time += t.elapsed();
        let t = std::time::Instant::now();
        let found = errata_extract::find_sites(lang, &tree, &src, true);
        find_time += t.elapsed();
        sites += found.len();
        let t = std::time::Instant::now();
        drop(errata_extract::find_refs(lang, &tree, &src));
        refs_time += t.elapsed();
        if std::env::var_os("CHECK").is_some() {
            let walked = errata_extract::find_sites_by_walk(lang, &tree, &src, true);
            if walked != found {
                println!("differs: {}", path.display());
            }
        }
        files += 1;
        bytes += src.len() as u64;
    }
    println!(
        "{files} files, {:.1} MB, parse {:.2}s, find {:.2}s, refs {:.2}s, total {:.2}s, {sites} sites",
        bytes as f64 / 1e6,
        parse_time.as_secs_f64(),
        find_time.as_secs_f64(),
        refs_time.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}
