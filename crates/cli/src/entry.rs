//! The way in to a record's site from outside its project: the nearest function up the calls
//! that the project declares for others to call (public, exported, `pub`), or the command of
//! the project's program whose file the site or a function on the way is in.
//!
//! A call counts only where it is proven to reach the function: the name is defined in one
//! file of the repository, or the call is in the file that defines it. Calls from tests do not
//! count: they are not how a user gets there.

use std::collections::HashSet;

use errata_explain::{Entry, Function, Step, Way};
use errata_lang::Lang;
use errata_store::{CallGraph, Definition, Via};

/// Most calls walked up from the site's function.
const MAX_DEPTH: usize = 6;
/// Most functions looked at for one record.
const MAX_VISITED: usize = 128;

/// The program a repository installs, for the names of its commands (`npm`).
#[derive(Debug, Default)]
pub(crate) struct Program {
    pub(crate) name: Option<String>,
    /// The repository is Go's own tree (its `cmd/go.mod` is `module cmd`): the programs of
    /// `cmd/` are the toolchain's, run through the `go` command.
    go_toolchain: bool,
    /// The repository's folder, where the files of the functions on the way are read.
    pub(crate) root: std::path::PathBuf,
    /// The usage lines of each command file read so far: each file is read once, not once
    /// for every record in it.
    usages: std::sync::Mutex<std::collections::HashMap<String, Vec<String>>>,
    /// Whether a file imports another (by their paths), each pair read once.
    imports: std::sync::Mutex<std::collections::HashMap<(String, String), bool>>,
    /// The Go command of each file asked for: a file holds many records, and is read once.
    go_commands: std::sync::Mutex<std::collections::HashMap<String, Option<String>>>,
    /// The `__all__` of each Python module asked for, with its top-level definitions.
    python_alls: std::sync::Mutex<std::collections::HashMap<String, Option<PythonAll>>>,
}

/// The names a Python module lists in `__all__` (a literal list or tuple of strings), and
/// the lines where its top-level `class` and `def` statements start, each with its name.
#[derive(Debug, Clone)]
pub(crate) struct PythonAll {
    names: HashSet<String>,
    tops: Vec<(u32, String)>,
}

impl PythonAll {
    /// Reads `__all__` from a module's text: `None` when it has none, or one built by code
    /// (`__all__ = base.__all__ + […]`), which says nothing certain.
    fn read(text: &str) -> Option<PythonAll> {
        let mut names = HashSet::new();
        let mut found = false;
        let mut tops = Vec::new();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let l = lines[i];
            for kw in ["class ", "def ", "async def "] {
                if let Some(rest) = l.strip_prefix(kw) {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    tops.push((i as u32 + 1, name));
                }
            }
            // Added to by a call, or under a condition: not known here.
            if l.starts_with("__all__.")
                || l.trim_start().starts_with("__all__") && l.starts_with(' ')
            {
                return None;
            }
            let rest = l
                .strip_prefix("__all__")
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix("+=").or_else(|| r.strip_prefix('=')))
                .map(str::trim_start);
            if let Some(rest) = rest {
                let open = rest.chars().next()?;
                let close = match open {
                    '[' => ']',
                    '(' => ')',
                    _ => return None,
                };
                let mut body = rest[1..].to_owned();
                while !body.contains(close) {
                    i += 1;
                    body.push('\n');
                    body.push_str(lines.get(i)?);
                }
                let (inside, after) = body.split_once(close)?;
                if !after.trim().is_empty() && !after.trim_start().starts_with('#') {
                    return None;
                }
                for part in inside.split(',') {
                    let item = part
                        .lines()
                        .map(|l| l.split('#').next().unwrap_or(""))
                        .collect::<String>();
                    let item = item.trim();
                    if item.is_empty() {
                        continue;
                    }
                    let quoted = item.len() >= 2
                        && (item.starts_with('"') && item.ends_with('"')
                            || item.starts_with('\'') && item.ends_with('\''));
                    if !quoted {
                        return None;
                    }
                    names.insert(item[1..item.len() - 1].to_owned());
                }
                found = true;
            }
            i += 1;
        }
        found.then_some(PythonAll { names, tops })
    }

    /// Whether the definition at `line` named `name` is offered by the module's `__all__`:
    /// a top-level function listed there, or a method of a class listed there.
    fn offers(&self, name: &str, line: u32) -> bool {
        let top = self
            .tops
            .iter()
            .take_while(|(l, _)| *l <= line)
            .last()
            .map_or(name, |(_, n)| n.as_str());
        // `_Pickler` may be offered under another name (`Pickler = _Pickler`).
        top.starts_with('_') || self.names.contains(top)
    }
}

impl Program {
    /// The program of the repository at `root`: the `bin` of its `package.json`.
    pub(crate) fn of(root: &std::path::Path) -> Program {
        let name = std::fs::read_to_string(root.join("package.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .and_then(|p| {
                let package = p.get("name")?.as_str()?.to_owned();
                match p.get("bin")? {
                    serde_json::Value::String(_) => Some(package),
                    serde_json::Value::Object(bins) if bins.contains_key(&package) => Some(package),
                    serde_json::Value::Object(bins) => bins.keys().next().cloned(),
                    _ => None,
                }
            })
            .filter(|n| {
                !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            });
        let go_toolchain = ["cmd/go.mod", "src/cmd/go.mod"].iter().any(|m| {
            std::fs::read_to_string(root.join(m))
                .is_ok_and(|text| text.lines().next().map(str::trim) == Some("module cmd"))
        });
        Program {
            name,
            go_toolchain,
            root: root.to_owned(),
            usages: Default::default(),
            imports: Default::default(),
            go_commands: Default::default(),
            python_alls: Default::default(),
        }
    }

    /// Whether the Python module `file` offers the definition `name` at `line` by its
    /// `__all__`; true when it has none to go by.
    fn python_offers(&self, file: &str, name: &str, line: u32) -> bool {
        let mut cache = self.python_alls.lock().unwrap_or_else(|e| e.into_inner());
        let all = cache.entry(file.to_owned()).or_insert_with(|| {
            std::fs::read_to_string(self.root.join(file))
                .ok()
                .and_then(|text| PythonAll::read(&text))
        });
        all.as_ref().is_none_or(|a| a.offers(name, line))
    }

    /// Whether the JavaScript file `from` imports the file `to`: a `require(…)` or `import`
    /// string that ends with its name (`'../utils/spec.js'`, `'./spec'`).
    fn imports(&self, from: &str, to: &str) -> bool {
        let mut cache = self.imports.lock().unwrap_or_else(|e| e.into_inner());
        *cache
            .entry((from.to_owned(), to.to_owned()))
            .or_insert_with(|| {
                let Ok(text) = std::fs::read_to_string(self.root.join(from)) else {
                    return false;
                };
                let name = to.rsplit('/').next().unwrap_or(to);
                let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
                let wanted: Vec<String> = [name, stem]
                    .iter()
                    .flat_map(|n| ['\'', '"', '`'].map(|q| format!("/{n}{q}")))
                    .collect();
                text.lines()
                    .filter(|l| {
                        l.contains("require(") || l.contains("import ") || l.contains("from ")
                    })
                    .any(|l| wanted.iter().any(|w| l.contains(w.as_str())))
            })
    }

    /// The command that runs the Go code of `path`, when it is a program's (`cmd/<tool>/…`):
    /// the tool's name, or for Go's own tree what a user types to run it (the compiler is
    /// run by `go build`).
    fn go_command(&self, path: &str) -> Option<String> {
        let cache = || self.go_commands.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = cache().get(path) {
            return known.clone();
        }
        // Read outside the lock: other threads ask for other files meanwhile.
        let command = self.read_go_command(path);
        cache().insert(path.to_owned(), command.clone());
        command
    }

    /// [`Program::go_command`], read from the file.
    fn read_go_command(&self, path: &str) -> Option<String> {
        let words: Vec<&str> = path.split('/').collect();
        let at = words.iter().position(|w| *w == "cmd")?;
        // `cmd/<tool>/<file>` at least; shared or vendored packages are no one tool's.
        let tool = *words.get(at + 1).filter(|_| at + 2 < words.len())?;
        if matches!(tool, "internal" | "vendor" | "testdata") || words.contains(&"testdata") {
            return None;
        }
        // A file the tool's build leaves out (`//go:build ignore`, `gen`), or a program of its
        // own in a folder of the tool (a generator the tool's developers run), is not the tool.
        let head: String = std::fs::read_to_string(self.root.join(path))
            .unwrap_or_default()
            .lines()
            .take(40)
            .collect::<Vec<_>>()
            .join("\n");
        let own_program = head.lines().any(|l| l.trim() == "package main");
        if own_program && words.len() > at + 3 || head.lines().any(|l| left_out(l.trim())) {
            return None;
        }
        if !self.go_toolchain {
            return Some(tool.to_owned());
        }
        // Go's own tree: `cmd/` at its top, or under `src/`.
        if !(at == 0 || at == 1 && words[0] == "src") {
            return None;
        }
        Some(match tool {
            "go" => match words.get(at + 3).filter(|_| words[at + 2] == "internal") {
                Some(pkg) if at + 4 < words.len() => match go_subcommand(pkg) {
                    Some(sub) => format!("go {sub}"),
                    None => "go".to_owned(),
                },
                _ => "go".to_owned(),
            },
            "compile" | "link" | "asm" | "cgo" => "go build".to_owned(),
            "vet" | "doc" | "fix" => format!("go {tool}"),
            "gofmt" => "gofmt".to_owned(),
            // Run by the tree's own scripts, not by a user.
            "api" | "dist" => return None,
            _ => format!("go tool {tool}"),
        })
    }

    /// The command whose file `path` is (`lib/commands/trust/circleci.js` is `npm trust
    /// circleci`), for a JavaScript or TypeScript program.
    fn command(&self, path: &str) -> Option<String> {
        let name = self.name.as_deref()?;
        let (_, rest) = path.split_once("lib/commands/")?;
        let rest = rest
            .strip_suffix(".js")
            .or_else(|| rest.strip_suffix(".ts"))
            .or_else(|| rest.strip_suffix(".mjs"))?;
        let words: Vec<&str> = rest.split('/').filter(|w| *w != "index").collect();
        let plain = |w: &&str| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        };
        (!words.is_empty() && words.iter().all(plain))
            .then(|| format!("{name} {}", words.join(" ")))
    }

    /// The usage lines a command's class declares (`static usage = ['<stage-id>']`), after
    /// the command's name.
    fn usage(&self, path: &str) -> Vec<String> {
        let mut usages = self.usages.lock().unwrap_or_else(|e| e.into_inner());
        usages
            .entry(path.to_owned())
            .or_insert_with(|| {
                std::fs::read_to_string(self.root.join(path))
                    .map(|text| usage_lines(&text))
                    .unwrap_or_default()
            })
            .clone()
    }
}

/// Whether a Go build constraint line asks for a tag that a plain `go build` does not set
/// (`//go:build ignore`, `//go:build gen`): any tag but an operating system, an architecture,
/// `cgo`, the compiler or a release (`go1.18`).
fn left_out(line: &str) -> bool {
    const SET: &[&str] = &[
        "aix",
        "android",
        "darwin",
        "dragonfly",
        "freebsd",
        "hurd",
        "illumos",
        "ios",
        "js",
        "linux",
        "netbsd",
        "openbsd",
        "plan9",
        "solaris",
        "wasip1",
        "windows",
        "zos",
        "unix",
        "386",
        "amd64",
        "arm",
        "arm64",
        "loong64",
        "mips",
        "mipsle",
        "mips64",
        "mips64le",
        "ppc64",
        "ppc64le",
        "riscv64",
        "s390x",
        "wasm",
        "cgo",
        "gc",
        "gccgo",
    ];
    let Some(expr) = line.strip_prefix("//go:build ") else {
        return false;
    };
    let b = expr.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            let tag = &expr[start..i];
            let negated = expr[..start].trim_end().ends_with('!');
            if !negated && !SET.contains(&tag) && !tag.starts_with("go1.") {
                return true;
            }
            continue;
        }
        i += 1;
    }
    false
}

/// The `go` subcommand whose code a package of `cmd/go/internal` is (`modget` is `go get`).
fn go_subcommand(package: &str) -> Option<&'static str> {
    Some(match package {
        "bug" => "bug",
        "clean" => "clean",
        "envcmd" => "env",
        "fmtcmd" => "fmt",
        "generate" => "generate",
        "list" => "list",
        "modcmd" => "mod",
        "modget" => "get",
        "run" => "run",
        "test" => "test",
        "tool" => "tool",
        "version" => "version",
        "vet" => "vet",
        "workcmd" => "work",
        _ => return None,
    })
}

/// The strings of the array `static usage = [...]` of a command's class, in order.
fn usage_lines(text: &str) -> Vec<String> {
    let Some(at) = text.find("static usage") else {
        return Vec::new();
    };
    let rest = &text[at + "static usage".len()..];
    let Some(rest) = rest.trim_start().strip_prefix('=') else {
        return Vec::new();
    };
    let Some(rest) = rest.trim_start().strip_prefix('[') else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            ']' => break,
            '\'' | '"' => {
                let mut item = String::new();
                for d in chars.by_ref() {
                    if d == c || d == '\n' {
                        break;
                    }
                    item.push(d);
                }
                let item = item.trim();
                if !item.is_empty() && !item.contains('\\') {
                    out.push(item.to_owned());
                }
            }
            // A template literal or a computed entry: the list is not plain text.
            '`' | '$' | '(' => return Vec::new(),
            _ => {}
        }
    }
    out
}

/// The way in to the site of a record in `file`, in `function`; `None` when the function is
/// itself the way in or none is proven.
pub(crate) fn entry(
    graph: &CallGraph,
    program: &Program,
    family: u8,
    file: &str,
    function: &Function,
) -> Option<Entry> {
    let lang = Lang::from_path(std::path::Path::new(file))?;
    let js = matches!(lang, Lang::JavaScript | Lang::TypeScript);
    // A command's `completion()` runs when the shell asks `npm completion` for words, which
    // swallows what it throws: it is no run of the command.
    if js && function.name != "completion" {
        if let Some(command) = program.command(file) {
            return Some(Entry {
                command: Some(command),
                usage: program.usage(file),
                ..Entry::default()
            });
        }
    }
    if let Some(entry) = program_entry(program, file) {
        return Some(entry);
    }
    // A library bundled in a program (npm's `node_modules`) is reached by the program's
    // users through its commands: a command found up the calls is the way in, and the
    // library's own exports only when none is.
    let bundled = js && program.name.is_some();
    let own = definition_at(graph, family, file, &function.name, function.line);
    let own_way_in = own
        .as_ref()
        .is_some_and(|d| offered(program, lang, file, &function.name, d));
    if own_way_in && !bundled {
        return None;
    }
    let mut exported: Option<Vec<(Option<String>, Vec<Step>)>> = None;
    if let Some(entry) = own
        .filter(|_| lang == Lang::Java)
        .and_then(|d| java_override(graph, program, family, file, &function.name, &d))
    {
        return Some(entry);
    }
    let mut visited: HashSet<(String, String)> = HashSet::new();
    visited.insert((file.to_owned(), function.name.clone()));
    // Each item: a function that calls the one before it, and the steps below it.
    let mut frontier: Vec<(String, String, u32, Vec<Step>)> = callers(
        graph,
        program,
        lang,
        family,
        (file, &function.name, function.line),
        &[],
    )
    .into_iter()
    .filter(|c| visited.insert((c.0.clone(), c.1.clone())))
    .collect();
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        let mut found: Vec<(Option<String>, Vec<Step>)> = Vec::new();
        for (file, name, call_line, below) in frontier {
            if visited.len() >= MAX_VISITED {
                break;
            }
            let Some(def) = definition_at(graph, family, &file, &name, call_line) else {
                continue;
            };
            let mut chain = vec![Step {
                function: name.clone(),
                file: file.clone(),
                line: def.line,
                signature: def.signature.to_owned(),
                owner: None,
                overridden: false,
            }];
            chain.extend(below.iter().cloned());
            if js {
                if let Some(command) = program.command(&file) {
                    found.push((Some(command), chain));
                    continue;
                }
            }
            if offered(program, lang, &file, &name, &def) {
                if !bundled {
                    found.push((None, chain));
                    continue;
                }
                exported
                    .get_or_insert_with(Vec::new)
                    .push((None, chain.clone()));
            }
            // A public method of a class kept to the project, called through the public
            // type it implements: the way in is that type's method.
            if let Some(over) = (lang == Lang::Java)
                .then(|| java_override(graph, program, family, &file, &name, &def))
                .flatten()
            {
                let mut through = over.chain;
                through.extend(chain);
                found.push((None, through));
                continue;
            }
            for c in callers(
                graph,
                program,
                lang,
                family,
                (&file, &name, def.line),
                &chain,
            ) {
                if visited.insert((c.0.clone(), c.1.clone())) {
                    next.push(c);
                }
            }
        }
        if !found.is_empty() {
            return Some(finish(found, lang, program));
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    match exported {
        Some(found) if !own_way_in => Some(finish(found, lang, program)),
        _ => None,
    }
}

/// The entry of the ways in found at one depth, with the usage of its command and the class
/// of its first step, the one a caller calls (its file is read once).
fn finish(found: Vec<(Option<String>, Vec<Step>)>, lang: Lang, program: &Program) -> Entry {
    let mut entry = ways_in(found);
    if entry.command.is_some() {
        entry.usage = program.usage(&entry.chain[0].file);
    }
    if let Some(top) = entry.chain.first_mut().filter(|t| t.owner.is_none()) {
        top.owner = owner_of(lang, &program.root, &top.file, top.line, &top.signature);
    }
    entry
}

/// Whether a user of the program may call the function `name` of `file`: what the language
/// offers outside the module ([`is_way_in`]), and for JavaScript only a library's.
fn offered(program: &Program, lang: Lang, file: &str, name: &str, def: &Definition<'_>) -> bool {
    let js = matches!(lang, Lang::JavaScript | Lang::TypeScript);
    is_way_in(lang, file, name, def)
        && (!js || library_code(program, file))
        // A module that lists what it offers in `__all__` keeps the rest (`re.Scanner`).
        && (lang != Lang::Python || program.python_offers(file, name, def.line))
}

/// Whether the JavaScript `file` is code of a library, whose exports are what its users call:
/// a package under `node_modules/`, or a repository that installs no program. A program's
/// own modules export to each other; its users run its commands.
fn library_code(program: &Program, file: &str) -> bool {
    program.name.is_none() || file.starts_with("node_modules/") || file.contains("/node_modules/")
}

/// The command of a Go program whose code `file` is, as the way in to any site of it, in a
/// function or not.
pub(crate) fn program_entry(program: &Program, file: &str) -> Option<Entry> {
    let go = Lang::from_path(std::path::Path::new(file)) == Some(Lang::Go);
    let command = go.then(|| program.go_command(file)).flatten()?;
    Some(Entry {
        command: Some(command),
        ..Entry::default()
    })
}

/// The method of a public supertype that a public Java method overrides, as the way in: a
/// user never names `HttpClientBuilderImpl`, but calls `HttpClient.Builder.priority()`, which
/// it implements. The supertypes are those its class's declaration names (`extends`,
/// `implements`), found as the language finds them: by import, in the same package, or in
/// `java.lang`, in the class's source root or a sibling one (the JDK's modules). The method
/// there must be public (an interface's are), with as many parameters, and its type public
/// and outside the folders kept to the project.
fn java_override(
    graph: &CallGraph,
    program: &Program,
    family: u8,
    file: &str,
    name: &str,
    own: &Definition<'_>,
) -> Option<Entry> {
    let modifiers = own.signature.split('(').next().unwrap_or_default();
    // A provider's `engine…` method is protected: its service class calls it.
    let reachable = |w: &str| w == "public" || w == "protected" && name.starts_with("engine");
    if !java_modifiers(own.signature).any(reachable) || modifiers.contains(" static ") {
        return None;
    }
    let text = std::fs::read_to_string(program.root.join(file)).ok()?;
    let header = java_type_header(&text, own.line)?;
    let supertypes = java_supertypes(&header);
    if supertypes.is_empty() {
        return None;
    }
    let arity = java_arity(own.signature);
    let package = java_package(&text);
    let (dir, _) = file.rsplit_once('/')?;
    // The source root: the file's folder without the package's folders.
    let package_dirs = package.replace('.', "/");
    let root = if package.is_empty() {
        dir
    } else {
        dir.strip_suffix(package_dirs.as_str())?
            .trim_end_matches('/')
    };
    let roots = java_roots(&program.root, root);
    let imports = java_imports(&text);
    for ty in supertypes.iter().take(6) {
        let outer = ty.split('.').next().unwrap_or(ty);
        let mut paths: Vec<String> = Vec::new();
        match imports.iter().find(|(simple, _)| simple == outer) {
            Some((_, qualified)) => paths.extend(
                roots
                    .iter()
                    .map(|r| join(r, &format!("{}.java", qualified.replace('.', "/")))),
            ),
            None => {
                paths.push(format!("{dir}/{outer}.java"));
                for r in &roots {
                    paths.push(join(r, &format!("java/lang/{outer}.java")));
                    for wild in imports.iter().filter(|(s, _)| s == "*") {
                        let at = format!("{}/{outer}.java", wild.1.replace('.', "/"));
                        paths.push(join(r, &at));
                    }
                }
            }
        }
        for path in paths.iter().filter(|p| graph.has_file(p)) {
            let Ok(theirs) = std::fs::read_to_string(program.root.join(path)) else {
                continue;
            };
            for def in graph.definitions_in(name, family, path) {
                if def.nested || java_arity(def.signature) != arity {
                    continue;
                }
                let Some(their_header) = java_type_header(&theirs, def.line) else {
                    continue;
                };
                let words: Vec<&str> = their_header.split_whitespace().collect();
                let interface = words.contains(&"interface");
                let public_method =
                    java_modifiers(def.signature).any(|w| w == "public" || w == "protected");
                let kept = path
                    .split('/')
                    .any(|d| matches!(d, "internal" | "sun" | "impl"));
                if words.contains(&"public") && !kept {
                    if let Some(service) = service_call(graph, family, path, ty, name, arity) {
                        return Some(Entry {
                            chain: vec![service],
                            ..Entry::default()
                        });
                    }
                }
                if words.contains(&"public") && (interface || public_method) && !kept {
                    return Some(Entry {
                        chain: vec![Step {
                            function: name.to_owned(),
                            file: path.clone(),
                            line: def.line,
                            signature: def.signature.to_owned(),
                            owner: Some(ty.clone()),
                            overridden: true,
                        }],
                        ..Entry::default()
                    });
                }
            }
        }
    }
    None
}

/// The public method of a service class that calls a provider's `engine…` method: the Java
/// security and crypto classes delegate each call to the provider's implementation of their
/// `…Spi` class (`Signature.sign()` runs `SignatureSpi.engineSign()`, `Cipher.init()` runs
/// `CipherSpi.engineInit()`). The service class is the `Spi` class's name without `Spi`, in
/// its folder, and must define the method.
fn service_call(
    graph: &CallGraph,
    family: u8,
    spi_path: &str,
    spi: &str,
    name: &str,
    arity: usize,
) -> Option<Step> {
    let service = spi.strip_suffix("Spi").filter(|s| !s.is_empty())?;
    let rest = name.strip_prefix("engine")?;
    let mut chars = rest.chars();
    let method: String = chars
        .next()?
        .to_lowercase()
        .chain(chars)
        .collect::<String>();
    let (dir, _) = spi_path.rsplit_once('/')?;
    let path = format!("{dir}/{service}.java");
    if !graph.has_file(&path) {
        return None;
    }
    // Of its overloads, the one with the engine method's parameters if there is one.
    let public: Vec<Definition<'_>> = graph
        .definitions_in(&method, family, &path)
        .filter(|d| !d.nested && java_modifiers(d.signature).any(|w| w == "public"))
        .collect();
    let def = public
        .iter()
        .find(|d| java_arity(d.signature) == arity)
        .or(public.first())?;
    Some(Step {
        function: method,
        file: path.clone(),
        line: def.line,
        signature: def.signature.to_owned(),
        owner: Some(service.to_owned()),
        overridden: true,
    })
}

fn join(root: &str, rest: &str) -> String {
    if root.is_empty() {
        rest.to_owned()
    } else {
        format!("{root}/{rest}")
    }
}

/// A Java source root and its sibling roots (the JDK keeps a module in each folder).
fn java_roots(repo: &std::path::Path, root: &str) -> Vec<String> {
    let mut roots = vec![root.to_owned()];
    if root.is_empty() {
        return roots;
    }
    let parent = root.rsplit_once('/').map_or("", |(p, _)| p);
    if let Ok(dir) = std::fs::read_dir(repo.join(parent)) {
        let mut siblings: Vec<String> = dir
            .filter_map(Result::ok)
            .filter(|e| e.path().is_dir())
            .map(|e| join(parent, &e.file_name().to_string_lossy()))
            .filter(|s| s != root)
            .collect();
        siblings.sort();
        roots.extend(siblings);
    }
    roots
}

/// The declaration of the type that holds the line `line` of a Java file: the nearest line
/// above it, less indented, that declares a class, interface, enum or record, with the lines
/// after it up to its `{`.
fn java_type_header(text: &str, line: u32) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = (line as usize).checked_sub(1)?;
    let indent = |l: &str| l.len() - l.trim_start().len();
    let own = indent(lines.get(at)?);
    for (i, l) in lines[..at].iter().enumerate().rev() {
        let t = l.trim_start();
        if t.is_empty() || indent(l) >= own || t.starts_with('*') || t.starts_with("//") {
            continue;
        }
        let declares = t
            .split_whitespace()
            .any(|w| matches!(w, "class" | "interface" | "enum" | "record"));
        if !declares {
            return None;
        }
        let mut header = String::new();
        for l in &lines[i..lines.len().min(i + 8)] {
            match l.split_once('{') {
                Some((head, _)) => {
                    header.push_str(head);
                    return Some(header);
                }
                None => {
                    header.push_str(l);
                    header.push(' ');
                }
            }
        }
        return Some(header);
    }
    None
}

/// The types a Java type declaration extends and implements, as written, without their type
/// arguments (`HttpClient.Builder`).
fn java_supertypes(header: &str) -> Vec<String> {
    // Type arguments first: their commas are no list's.
    let mut plain = String::new();
    let mut depth = 0usize;
    for c in header.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let mut out = Vec::new();
    let mut taking = false;
    for w in plain.split(|c: char| c.is_whitespace() || c == ',') {
        match w {
            "" => {}
            "extends" | "implements" => taking = true,
            "permits" | "throws" => taking = false,
            _ if taking
                && w.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.') =>
            {
                out.push(w.to_owned());
            }
            _ => {}
        }
    }
    out
}

/// The package a Java file declares, or "".
fn java_package(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("package "))
        .map(|p| p.trim_end_matches(';').trim().to_owned())
        .unwrap_or_default()
}

/// A Java file's imports, each as its simple name (or `*`) and what it names
/// (`HttpClient`, `java.net.http.HttpClient`; `*`, `java.util`).
fn java_imports(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("import "))
        .filter(|l| !l.starts_with("static "))
        .filter_map(|l| {
            let q = l.trim_end_matches(';').trim();
            let (head, simple) = q.rsplit_once('.')?;
            Some(match simple {
                "*" => ("*".to_owned(), head.to_owned()),
                _ => (simple.to_owned(), q.to_owned()),
            })
        })
        .collect()
}

/// How many parameters a Java declaration has.
/// The words of a Java method's head before its parameters: its modifiers, type and name.
fn java_modifiers(signature: &str) -> std::str::SplitWhitespace<'_> {
    signature
        .split('(')
        .next()
        .unwrap_or_default()
        .split_whitespace()
}

fn java_arity(signature: &str) -> usize {
    let Some((_, rest)) = signature.split_once('(') else {
        return 0;
    };
    let mut depth = 0usize;
    let mut n = 0;
    let mut any = false;
    for c in rest.chars() {
        match c {
            '(' | '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            ')' if depth == 0 => break,
            ')' => depth -= 1,
            ',' if depth == 0 => n += 1,
            c if !c.is_whitespace() => any = true,
            _ => {}
        }
    }
    if any {
        n + 1
    } else {
        0
    }
}

/// The class, impl or receiver type that the function defined at `line` of `file` is a method
/// of: a Go method's receiver type; the nearest `class` or `impl` above the definition and less
/// indented (Python, Rust, Java; a Java class only when it is public). `None` for a plain
/// function.
fn owner_of(
    lang: Lang,
    root: &std::path::Path,
    file: &str,
    line: u32,
    signature: &str,
) -> Option<String> {
    let text = match lang {
        Lang::Go => String::new(),
        _ => std::fs::read_to_string(root.join(file)).ok()?,
    };
    owner_in(lang, &text, line, signature)
}

/// [`owner_of`] a definition at `line` of a file whose text is `text` (a Go method names its
/// receiver in its signature, and needs no text).
fn owner_in(lang: Lang, text: &str, line: u32, signature: &str) -> Option<String> {
    let sig = signature.trim_start();
    match lang {
        Lang::Go => {
            let receiver = sig.strip_prefix("func (")?.split(')').next()?;
            let ty = receiver.split_whitespace().last()?.trim_start_matches('*');
            Some(ty.split('[').next().unwrap_or(ty).to_owned())
        }
        Lang::Python | Lang::Rust | Lang::Java | Lang::JavaScript | Lang::TypeScript => {
            let lines: Vec<&str> = text.lines().collect();
            let at = (line as usize).checked_sub(1)?;
            let indent = |l: &str| l.len() - l.trim_start().len();
            let own = indent(lines.get(at)?);
            if own == 0 {
                return None;
            }
            for l in lines[..at].iter().rev() {
                let t = l.trim_start();
                if t.is_empty() || indent(l) >= own {
                    continue;
                }
                let word = |rest: &str| {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    (!name.is_empty()).then_some(name)
                };
                return match lang {
                    Lang::Python => t.strip_prefix("class ").and_then(word),
                    // `class X`, `export default class X`, `export abstract class X`.
                    Lang::JavaScript | Lang::TypeScript => {
                        let words: Vec<&str> = t.split_whitespace().collect();
                        let at = words.iter().position(|w| *w == "class")?;
                        let modifiers = ["export", "default", "abstract", "declare"];
                        words[..at]
                            .iter()
                            .all(|w| modifiers.contains(w))
                            .then(|| word(words.get(at + 1)?))
                            .flatten()
                    }
                    // A class nested in another, or not public, is no caller's to name.
                    Lang::Java => {
                        let words: Vec<&str> = t.split_whitespace().collect();
                        let at = words.iter().position(|w| {
                            matches!(*w, "class" | "interface" | "enum" | "record")
                        })?;
                        let public = words[..at].contains(&"public");
                        public.then(|| word(words.get(at + 1)?)).flatten()
                    }
                    _ => {
                        let rest = t.strip_prefix("impl")?;
                        // `impl<T> Trait<T> for Type<T>`: the type after ` for `, else the first.
                        let rest = match rest.strip_prefix('<') {
                            Some(r) => r.split_once("> ").map(|(_, r)| r)?,
                            None => rest.trim_start(),
                        };
                        let rest = match rest.split_once(" for ") {
                            Some((_, r)) => r,
                            None => rest,
                        };
                        word(rest.trim_start())
                    }
                };
            }
            None
        }
    }
}

/// Most other ways in an entry names.
const MAX_ALSO: usize = 3;

/// The entry of the ways in found at one depth: the first with its chain, the others by name.
fn ways_in(found: Vec<(Option<String>, Vec<Step>)>) -> Entry {
    let mut found = found.into_iter();
    let (command, chain) = found.next().expect("ways_in is given one at least");
    let first = command
        .clone()
        .unwrap_or_else(|| format!("{}()", chain[0].function));
    let mut names: Vec<Way> = Vec::new();
    for (c, mut chain) in found {
        let top = chain.swap_remove(0);
        let name = c.unwrap_or_else(|| format!("{}()", top.function));
        if name != first && !names.iter().any(|w| w.name == name) {
            names.push(Way {
                name,
                file: top.file,
            });
        }
    }
    let more = names.len().saturating_sub(MAX_ALSO);
    names.truncate(MAX_ALSO);
    Entry {
        command,
        usage: Vec::new(),
        chain,
        also: names,
        more,
    }
}

/// Whether `name` is that of a test or benchmark in the code's own files (`test_parse`,
/// `TestParse`, `parse_tests`, `bench_x`): one of its words (`snake_case` or `camelCase`) is
/// `test`/`tests`, or the first is `bench`. `latest` and `attest` are no test.
fn is_test_name(name: &str) -> bool {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in name.chars() {
        if (c == '_' || c.is_ascii_uppercase()) && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c != '_' {
            word.push(c.to_ascii_lowercase());
        }
    }
    words.push(word);
    words.iter().any(|w| w == "test" || w == "tests") || words[0] == "bench"
}

/// The calls proven to reach the function `name` defined at `line` of `file`, outside tests,
/// each as the file and function it is in, its line, and `chain`.
fn callers(
    graph: &CallGraph,
    program: &Program,
    lang: Lang,
    family: u8,
    (file, name, line): (&str, &str, u32),
    chain: &[Step],
) -> Vec<(String, String, u32, Vec<Step>)> {
    let text = std::cell::OnceCell::new();
    // A Java call with another number of arguments is another overload's.
    let arity = (lang == Lang::Java)
        .then(|| definition_at(graph, family, file, name, line))
        .flatten()
        .and_then(|d| errata_store::declared_arity(d.signature, name));
    // A Rust function that is not `pub` is called from its own crate only.
    let signature = (lang == Lang::Rust)
        .then(|| definition_at(graph, family, file, name, line))
        .flatten()
        .map(|d| d.signature);
    graph
        .calls_of(name, family)
        .filter(|c| !(c.in_tests || (c.file == file && c.caller == name)))
        .filter(|c| signature.is_none_or(|s| !crate::link::private_to_its_crate(c.file, s, file)))
        .filter(|c| match (arity, c.arity) {
            (Some(want), Some(passed)) => want == usize::from(passed),
            _ => true,
        })
        .filter(|c| {
            reaches(lang, c.file, c.via, file)
                && !(c.via == Via::Own && c.file == file && {
                    // The file is read once, and only for a call through `self`.
                    let own = |f: &str, at: u32| {
                        let d = definition_at(graph, family, file, f, at)?;
                        let text = text.get_or_init(|| {
                            std::fs::read_to_string(program.root.join(file)).unwrap_or_default()
                        });
                        owner_in(lang, text, d.line, d.signature)
                    };
                    defines_its_own(graph, family, file, (name, line), (c.caller, c.line), own)
                })
                || c.via == Via::Other
                    && near(lang, c.file, file)
                    && graph.defined_once(name, family)
                // A bare call in another file that imports the function's file, of a free
                // function the repository defines once, reaches it: JavaScript calls what it
                // imports by its bare name. (A Python bare name may be a builtin's: `divmod`.)
                || c.via == Via::Bare
                    && matches!(lang, Lang::JavaScript | Lang::TypeScript)
                    && graph.defined_once(name, family)
                    && graph.definitions_in(name, family, file).any(|d| js_free(d.signature))
                    && program.imports(c.file, file)
        })
        .map(|c| {
            (
                c.file.to_owned(),
                c.caller.to_owned(),
                c.line,
                chain.to_vec(),
            )
        })
        .collect()
}

/// Whether a call through `self`/`this` at `call_line`, in the method `caller`, calls its
/// class's own `name` rather than the one defined at `line`: the class defines `name` too,
/// and the definition at `line` is another class's (ElementTree's `C14NWriterTarget` calls
/// its own `_flush()`, not `TreeBuilder`'s). `owner(f, line)` gives the class of the function
/// `f` defined at or above `line`.
fn defines_its_own(
    graph: &CallGraph,
    family: u8,
    file: &str,
    (name, line): (&str, u32),
    (caller, call_line): (&str, u32),
    owner: impl Fn(&str, u32) -> Option<String>,
) -> bool {
    let defs: Vec<u32> = graph
        .definitions_in(name, family, file)
        .map(|d| d.line)
        .collect();
    if defs.len() < 2 {
        return false;
    }
    let Some(class) = owner(caller, call_line) else {
        return false;
    };
    owner(name, line).is_some_and(|callee| callee != class)
        && defs
            .iter()
            .any(|&d| d != line && owner(name, d).as_deref() == Some(class.as_str()))
}

/// Whether a JavaScript declaration is of a free function (`function f(…)`, `const f = (…)
/// =>`), not a class's method (`f (a, b) {`), which no bare call reaches.
fn js_free(signature: &str) -> bool {
    let s = signature.trim_start();
    let s = s.strip_prefix("export ").unwrap_or(s);
    let s = s.strip_prefix("default ").unwrap_or(s);
    let s = s.strip_prefix("async ").unwrap_or(s);
    s.starts_with("function")
        || s.contains("=>")
        || s.starts_with("const ")
        || s.starts_with("let ")
}

/// Whether a call in `from`, naming its callee `via`, is proven to reach the function of that
/// name defined in `to`: bare or through `self`/`this` in the same file; bare in the same Go
/// package; through the name of the module, class or package that `to` is (`ssl.f()` of
/// ssl.py, `Paths.get()` of Paths.java, `strconv.Atoi()` of strconv/atoi.go, `read_buf::f()`).
/// A call through any other receiver may reach another type's method of the same name.
fn reaches(lang: Lang, from: &str, via: Via<'_>, to: &str) -> bool {
    let folder = |p: &str| p.rsplit_once('/').map_or("", |(d, _)| d).to_owned();
    match via {
        Via::Bare => near(lang, from, to),
        Via::Own => from == to,
        Via::Qualified(q) => {
            let stem = to
                .rsplit('/')
                .next()
                .and_then(|n| n.split('.').next())
                .unwrap_or("");
            let dir = folder(to);
            let dir = dir.rsplit('/').next().unwrap_or("");
            q == stem || (matches!(lang, Lang::Go | Lang::Rust) && q == dir)
        }
        Via::Other => false,
    }
}

/// Whether a call in `from` is as near the definition in `to` as a bare call must be to reach
/// it: in its file, or its package for Go.
fn near(lang: Lang, from: &str, to: &str) -> bool {
    let folder = |p: &str| p.rsplit_once('/').map_or("", |(d, _)| d).to_owned();
    from == to || (lang == Lang::Go && folder(from) == folder(to))
}

/// The definition of `name` in `file` that holds `line`: the last one that starts at or above
/// it.
fn definition_at<'a>(
    graph: &'a CallGraph,
    family: u8,
    file: &str,
    name: &str,
    line: u32,
) -> Option<Definition<'a>> {
    graph
        .definitions_in(name, family, file)
        .filter(|d| d.line <= line)
        .max_by_key(|d| d.line)
}

/// Whether code outside the project may call the function `name` defined by `def` in `file`:
/// by the language's own rule of what a module offers (Python's leading underscore, Go's
/// capital letter, Java's `public`, Rust's `pub`), outside folders the language keeps to the
/// project (`internal`, the JDK's `sun` and `jdk.internal`); or that the extractor found
/// exposed though its head does not say so: a Rust trait method, a Java interface method, a
/// JavaScript module's export.
fn is_way_in(lang: Lang, file: &str, name: &str, def: &Definition<'_>) -> bool {
    if def.nested || errata_model::is_test_path(file) || is_test_name(name) {
        return false;
    }
    let (dirs, file_name) = file.rsplit_once('/').unwrap_or(("", file));
    let dirs: Vec<&str> = dirs.split('/').collect();
    let sig = def.signature.trim_start();
    match lang {
        Lang::Python => {
            let stem = file_name.strip_suffix(".py").unwrap_or(file_name);
            // `__init__`, `__getitem__`: the protocol a caller uses (`Fraction(…)`, `x[k]`).
            let dunder = name.len() > 4 && name.starts_with("__") && name.ends_with("__");
            (!name.starts_with('_') || dunder)
                && !dirs.iter().any(|d| d.starts_with('_'))
                && (!stem.starts_with('_') || stem == "__init__")
        }
        Lang::Go => {
            let exported = |n: &str| n.starts_with(|c: char| c.is_ascii_uppercase());
            let receiver_exported = match sig.strip_prefix("func (") {
                Some(rest) => rest
                    .split(')')
                    .next()
                    .and_then(|r| r.split_whitespace().last())
                    .map(|t| t.trim_start_matches('*'))
                    .map(|t| t.split('[').next().unwrap_or(t))
                    .is_some_and(exported),
                None => true,
            };
            exported(name)
                && receiver_exported
                && !dirs.iter().any(|d| *d == "internal" || *d == "cmd")
        }
        Lang::Java => {
            (def.exposed || java_modifiers(sig).any(|w| w == "public" || w == "protected"))
                && !dirs
                    .iter()
                    .any(|d| matches!(*d, "internal" | "sun" | "impl"))
        }
        Lang::Rust => {
            let public = sig.strip_prefix("pub ").is_some_and(|rest| {
                rest.split_whitespace()
                    .take_while(|w| *w != "fn")
                    .all(|w| matches!(w, "async" | "const" | "unsafe" | "extern" | "\"C\""))
                    && rest.contains("fn ")
            });
            (public || def.exposed)
                && !dirs
                    .iter()
                    .any(|d| matches!(*d, "tests" | "benches" | "examples"))
        }
        Lang::JavaScript | Lang::TypeScript => def.exposed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_module_s_all_says_what_it_offers() {
        let text = "import x\n\n__all__ = [\"compile\", 'Pattern', # the class\n    \"search\"]\n\ndef compile(p):\n    return p\n\nclass Scanner:\n    def __init__(self, lexicon):\n        pass\n\nclass Pattern:\n    def match(self, s):\n        pass\n";
        let all = PythonAll::read(text).unwrap();
        assert!(all.offers("compile", 6));
        assert!(!all.offers("__init__", 10));
        assert!(all.offers("match", 14));
        // Built by code, or absent: nothing certain.
        assert!(PythonAll::read("__all__ = base.__all__ + ['x']\n").is_none());
        assert!(PythonAll::read("__all__ = ['a']\n__all__.extend(x for x in dir())\n").is_none());
        assert!(PythonAll::read("def f():\n    pass\n").is_none());
    }

    #[test]
    fn usage_lines_are_read_with_their_brackets() {
        let text = "class Cache {\n  static usage = [\n    'add <package-spec>',\n    'clean [<key>]',\n    \"verify\",\n  ]\n}";
        assert_eq!(
            super::usage_lines(text),
            ["add <package-spec>", "clean [<key>]", "verify"]
        );
        assert!(super::usage_lines("static usage = [`${x}`]").is_empty());
    }

    #[test]
    fn go_build_constraints_that_leave_a_file_out() {
        assert!(left_out("//go:build ignore"));
        assert!(left_out("//go:build gen"));
        assert!(left_out("//go:build linux && customtag"));
        assert!(!left_out("//go:build linux && !cgo"));
        assert!(!left_out("//go:build !ignore"));
        assert!(!left_out("//go:build go1.18"));
        assert!(!left_out("// a comment"));
    }

    #[test]
    fn java_declarations_are_read_for_their_supertypes_and_arity() {
        assert_eq!(
            java_supertypes("public final class Impl<K, V> extends Base<K> implements HttpClient.Builder, Map<K, V>"),
            ["Base", "HttpClient.Builder", "Map"]
        );
        assert!(java_supertypes("final class Plain").is_empty());
        assert_eq!(java_arity("void f()"), 0);
        assert_eq!(java_arity("void f(Map<K, V> m, int[] a)"), 2);
        assert_eq!(java_arity("void f(@Ann(x = 1) int a)"), 1);
        let text = "package a.b;\n\npublic class C\n        implements D {\n    public void f() {\n    }\n}\n";
        assert_eq!(java_package(text), "a.b");
        assert_eq!(
            java_type_header(text, 5)
                .as_deref()
                .map(str::split_whitespace)
                .map(Iterator::collect::<Vec<_>>),
            Some(vec!["public", "class", "C", "implements", "D"])
        );
    }

    #[test]
    fn test_names_are_told_by_their_words() {
        for name in [
            "test_parse",
            "TestParse",
            "parse_tests",
            "testParse",
            "bench_sort",
        ] {
            assert!(is_test_name(name), "{name}");
        }
        for name in [
            "latest",
            "attest",
            "contest_entry",
            "Fastest",
            "benchmark_table",
        ] {
            assert!(!is_test_name(name), "{name}");
        }
    }

    fn def(signature: &str) -> Definition<'_> {
        Definition {
            file: "",
            line: 1,
            nested: false,
            exposed: false,
            signature,
        }
    }

    #[test]
    fn each_language_says_what_it_offers_outside() {
        let py = |f: &str, n: &str| is_way_in(Lang::Python, f, n, &def("def f(x)"));
        assert!(py("lib/ssl.py", "match_hostname"));
        assert!(!py("lib/ssl.py", "_dnsname_match"));
        assert!(py("lib/lzma.py", "__init__"));
        assert!(!py("lib/lzma.py", "__init"));
        assert!(!py("lib/_pydecimal.py", "localcontext"));
        assert!(!py("lib/_private/x.py", "f"));
        assert!(py("lib/pkg/__init__.py", "f"));
        let go = |f: &str, n: &str, s: &str| is_way_in(Lang::Go, f, n, &def(s));
        assert!(go(
            "go/types/check.go",
            "NewChecker",
            "func NewChecker(conf *Config)"
        ));
        assert!(!go(
            "go/types/version.go",
            "parseGoVersion",
            "func parseGoVersion(s string)"
        ));
        assert!(!go(
            "net/http/h2.go",
            "Read",
            "func (cs *clientStream) Read(p []byte)"
        ));
        assert!(go(
            "net/http/c.go",
            "Do",
            "func (c *Client) Do(req *Request)"
        ));
        assert!(!go(
            "cmd/go/internal/base/env.go",
            "AppendPWD",
            "func AppendPWD(base []string, dir string) []string"
        ));
        let java = |f: &str, s: &str| is_way_in(Lang::Java, f, "m", &def(s));
        assert!(java(
            "java.base/java/net/InetAddress.java",
            "public static InetAddress getByName(String host)"
        ));
        assert!(!java(
            "java.base/java/net/InetAddress.java",
            "private static void validate(String host)"
        ));
        assert!(!java(
            "java.base/sun/nio/fs/UnixUriUtils.java",
            "public static Path fromUri(UnixFileSystem fs, URI uri)"
        ));
        let rust = |s: &str| is_way_in(Lang::Rust, "src/io/read_buf.rs", "m", &def(s));
        assert!(rust(
            "pub fn initialize_unfilled_to(&mut self, n: usize) -> &mut [u8]"
        ));
        assert!(rust("pub async fn connect(addr: A)"));
        assert!(!rust("pub(crate) fn from_rustc_target(s: &str)"));
        assert!(!rust("fn helper()"));
        let nested = Definition {
            nested: true,
            ..def("def inner()")
        };
        assert!(!is_way_in(Lang::Python, "lib/a.py", "inner", &nested));
    }

    #[test]
    fn a_command_file_names_its_command() {
        let npm = Program {
            name: Some("npm".into()),
            ..Program::default()
        };
        assert_eq!(
            npm.command("lib/commands/trust/circleci.js").as_deref(),
            Some("npm trust circleci")
        );
        assert_eq!(
            npm.command("lib/commands/install.js").as_deref(),
            Some("npm install")
        );
        assert_eq!(npm.command("lib/utils/queryable.js"), None);
        assert_eq!(Program::default().command("lib/commands/install.js"), None);
    }
}
