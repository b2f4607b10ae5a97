//! Prints the syntax tree of a file, to write and debug rules: `cargo run -p errata-extract
//! --example dump -- FILE`.
#![allow(clippy::print_stdout)]

fn main() {
    let path = std::env::args().nth(1).expect("usage: dump FILE");
    let path = std::path::Path::new(&path);
    let src = std::fs::read_to_string(path).expect("a readable UTF-8 file");
    let lang = errata_lang::Lang::from_path(path).expect("a supported extension");
    let tree = errata_extract::parse(lang, path, &src).expect("a parse");
    let mut cursor = tree.walk();
    let mut depth = 0;
    loop {
        let n = cursor.node();
        let field = cursor
            .field_name()
            .map(|f| format!("{f}: "))
            .unwrap_or_default();
        let text = if n.child_count() == 0 {
            format!(" {:?}", &src[n.byte_range()])
        } else {
            String::new()
        };
        if n.is_named() || n.child_count() == 0 {
            println!(
                "{:indent$}{field}{}{text}",
                "",
                n.kind(),
                indent = depth * 2
            );
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
            depth -= 1;
        }
    }
}
