//! A command's guards read as its user writes the command line. In the `exec(args)` of a
//! command's class, `!args[0]` is the command run without its first argument; `this.npm.global`
//! is `--global`; `this.npm.config.get('which')` is `--which`. What a user of a command can
//! change is how they run it, and the record says so in those words.

use errata_lang::Lang;

use crate::Site;

/// What one conjunct of a command's guard says about the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Term {
    /// Run with fewer than this many positional arguments.
    Missing(usize),
    /// Run with an option set (`true`) or not set (`false`).
    Option(String, bool),
}

/// The methods of a command's class that get the command line's positional arguments.
const EXEC_METHODS: &[&str] = &["exec", "execWorkspaces"];

/// The command a site runs under, when it is a command of a JavaScript program.
fn command<'a>(site: &Site<'a>) -> Option<&'a str> {
    matches!(site.lang, Lang::JavaScript | Lang::TypeScript)
        .then(|| site.facts.command())
        .flatten()
}

/// How the site's function is run from the command line, read once for all the fields.
struct Invocation<'a> {
    /// The command, with its subcommand when the function is one (`npm cache clean`).
    command: String,
    /// The usage lines of that form, after the command.
    lines: Vec<&'a str>,
    /// The terms of the command line that decide the raise, in the order of its guards.
    terms: Vec<Term>,
}

/// The command's own `exec(args)` is the command with all its usage lines; a method named as
/// a subcommand (`clean(args)` of `npm cache`, whose usage has `clean [<key>]`) is that
/// subcommand, with its lines. Any other method is reached in ways the command line does not
/// say. The function's first parameter holds the positional arguments.
fn invocation<'a>(site: &Site<'a>) -> Option<Invocation<'a>> {
    let command = command(site)?;
    let f = site.facts.function.as_ref()?;
    let usage = &site.facts.entry.as_ref()?.usage;
    let (command, lines) = if EXEC_METHODS.contains(&f.name.as_str()) {
        (
            command.to_owned(),
            usage.iter().map(String::as_str).collect(),
        )
    } else {
        let lines: Vec<&str> = usage
            .iter()
            .filter_map(|u| {
                let rest = u.strip_prefix(f.name.as_str())?;
                (rest.is_empty() || rest.starts_with(' ')).then(|| rest.trim_start())
            })
            .collect();
        if lines.is_empty() {
            return None;
        }
        (format!("{command} {}", f.name), lines)
    };
    let args = f.parameters.first().map(|p| p.name.as_str());
    let mut terms = Vec::new();
    for c in site.facts.guards().flat_map(|g| g.conjuncts.iter()) {
        if let Some(t) = term(args, c).filter(|t| !terms.contains(t)) {
            terms.push(t);
        }
    }
    Some(Invocation {
        command,
        lines,
        terms,
    })
}

impl<'a> Invocation<'a> {
    /// The usage line that names at least `n` positional arguments, whole, and its `n`th.
    fn usage_with(&self, n: usize) -> Option<(String, &'a str)> {
        self.lines.iter().find_map(|u| {
            let nth = u
                .split_whitespace()
                .filter(|w| w.starts_with('<') || w.starts_with("[<"))
                .nth(n - 1)?;
            Some((format!("{} {u}", self.command), nth))
        })
    }
}

/// One conjunct of a guard as a term of the command line, `args` being the parameter that
/// holds the positional arguments.
fn term(args: Option<&str>, conjunct: &str) -> Option<Term> {
    let c = conjunct.trim();
    let (positive, bare) = match c.strip_prefix('!') {
        Some(rest) => (false, rest.trim()),
        None => (true, c),
    };
    if let Some(n) = args.and_then(|a| missing_positional(a, positive, bare)) {
        return Some(Term::Missing(n));
    }
    option_name(bare).map(|name| Term::Option(name, positive))
}

/// `!args[n]`, `!args.length`, `args.length === 0`, `args.length < n`: how many positional
/// arguments the command needs.
fn missing_positional(args: &str, positive: bool, bare: &str) -> Option<usize> {
    if !positive {
        if let Some(index) = bare
            .strip_prefix(args)
            .and_then(|r| r.strip_prefix('['))
            .and_then(|r| r.strip_suffix(']'))
        {
            return index.parse::<usize>().ok().map(|i| i + 1);
        }
        return (bare == format!("{args}.length")).then_some(1);
    }
    let rest = bare.strip_prefix(args)?.strip_prefix(".length")?.trim();
    let (op, n) = rest.split_once(' ')?;
    let n: usize = n.trim().parse().ok()?;
    match op {
        "===" | "==" if n == 0 => Some(1),
        "<" if n > 0 => Some(n),
        _ => None,
    }
}

/// `this.npm.global`, `this.npm.config.get('x')`, `this.npm.flatOptions.x`, `npm.config.get("x")`:
/// the option of the command line that sets it, in its written form (`fooBar` is `foo-bar`).
fn option_name(bare: &str) -> Option<String> {
    let rest = bare.strip_prefix("this.").unwrap_or(bare);
    let rest = rest.strip_prefix("npm.")?;
    let name = if rest == "global" {
        "global".to_owned()
    } else if let Some(arg) = rest
        .strip_prefix("config.get(")
        .and_then(|r| r.strip_suffix(')'))
    {
        let arg = arg.trim();
        let quoted = arg.len() >= 2
            && (arg.starts_with('\'') && arg.ends_with('\'')
                || arg.starts_with('"') && arg.ends_with('"'));
        if !quoted {
            return None;
        }
        arg[1..arg.len() - 1].to_owned()
    } else if let Some(field) = rest.strip_prefix("flatOptions.") {
        kebab(field)
    } else {
        return None;
    };
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    plain.then_some(name)
}

/// `packageLock` as an option is written `package-lock`.
fn kebab(field: &str) -> String {
    let mut out = String::new();
    for c in field.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The terms of the command line that decide the site's raise, in the order of its guards.
pub(crate) fn terms(site: &Site<'_>) -> Vec<Term> {
    invocation(site).map(|i| i.terms).unwrap_or_default()
}

/// `--global`: an option as it is written.
fn flag(name: &str) -> String {
    format!("`--{name}`")
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "first".to_owned(),
        2 => "second".to_owned(),
        3 => "third".to_owned(),
        _ => format!("{n}th"),
    }
}

/// What the command line was when the site raised: a sentence for the documentation.
pub(crate) fn documentation(site: &Site<'_>) -> String {
    let Some(inv) = invocation(site) else {
        return String::new();
    };
    let command = &inv.command;
    let mut out = String::new();
    if !inv.lines.is_empty() {
        let shown: Vec<String> = inv
            .lines
            .iter()
            .take(3)
            .map(|u| format!("`{}`", format!("{command} {u}").trim_end()))
            .collect();
        out.push_str(&format!(" `{command}` is run as {}.", shown.join(" or ")));
    }
    let phrases: Vec<String> = inv
        .terms
        .iter()
        .map(|t| match t {
            Term::Missing(n) => match inv.usage_with(*n) {
                Some((_, arg)) => format!("without its {} argument ({arg})", ordinal(*n)),
                None if *n == 1 => "without an argument".to_owned(),
                None => format!("with fewer than {n} arguments"),
            },
            Term::Option(name, true) => format!("with {}", flag(name)),
            Term::Option(name, false) => format!("without {}", flag(name)),
        })
        .collect();
    if !phrases.is_empty() {
        out.push_str(&format!(
            " This is the error of `{command}` run {}.",
            phrases.join(" and ")
        ));
    }
    out
}

/// What to run instead: the solutions a command's user can act on.
pub(crate) fn solutions(site: &Site<'_>) -> Vec<String> {
    let Some(inv) = invocation(site) else {
        return Vec::new();
    };
    let command = &inv.command;
    inv.terms
        .iter()
        .map(|t| match t {
            Term::Missing(n) => match inv.usage_with(*n) {
                Some((line, arg)) => format!(
                    "Give `{command}` its {} argument, {arg}: `{line}`.",
                    ordinal(*n)
                ),
                None => format!("Give `{command}` its {} argument.", ordinal(*n)),
            },
            // npm reads its options from `.npmrc` files and `npm_config_*` too.
            Term::Option(name, true) if command.starts_with("npm ") => format!(
                "Run `{command}` without {}: it may come from the command line, an npmrc file or an npm_config_{} variable.",
                flag(name),
                name.replace('-', "_")
            ),
            Term::Option(name, true) => format!("Run `{command}` without {}.", flag(name)),
            Term::Option(name, false) => format!(
                "Run `{command}` with {} if that is what you mean: without it the command refuses.",
                flag(name)
            ),
        })
        .collect()
}

/// The command line before and after, as comments (what a user types is a command, not a
/// call): for a missing argument the usage gives, or an option to leave out or add.
pub(crate) fn example_fix(site: &Site<'_>, fragment: &str) -> Option<String> {
    let inv = invocation(site)?;
    let command = &inv.command;
    let [term] = inv.terms.as_slice() else {
        return None;
    };
    let (before, after, why) = match term {
        Term::Missing(n) => {
            let (line, arg) = inv.usage_with(*n)?;
            let given: Vec<&str> = line.split_whitespace().take_while(|w| *w != arg).collect();
            let before = given
                .iter()
                .copied()
                .filter(|w| !w.starts_with('<') && !w.starts_with('['))
                .collect::<Vec<_>>()
                .join(" ");
            (
                before,
                line.clone(),
                format!("its {} argument, {arg}, is given", ordinal(*n)),
            )
        }
        Term::Option(name, true) => (
            format!("{command} --{name}"),
            command.clone(),
            format!("run without `--{name}`"),
        ),
        Term::Option(name, false) => (
            command.clone(),
            format!("{command} --{name}"),
            format!("run with `--{name}`, if that is what you mean"),
        ),
    };
    Some(format!(
        "// before: it fails with \"{fragment}\"\n//   $ {before}\n// after: {why}\n//   $ {after}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positionals() {
        assert_eq!(missing_positional("args", false, "args[0]"), Some(1));
        assert_eq!(missing_positional("args", false, "args[1]"), Some(2));
        assert_eq!(missing_positional("args", false, "args.length"), Some(1));
        assert_eq!(
            missing_positional("args", true, "args.length === 0"),
            Some(1)
        );
        assert_eq!(missing_positional("args", true, "args.length < 2"), Some(2));
        assert_eq!(missing_positional("args", true, "args.length > 2"), None);
        assert_eq!(missing_positional("args", false, "argv[0]"), None);
        assert_eq!(missing_positional("args", true, "args[0]"), None);
    }

    #[test]
    fn options() {
        assert_eq!(option_name("this.npm.global").as_deref(), Some("global"));
        assert_eq!(
            option_name("this.npm.config.get('which')").as_deref(),
            Some("which")
        );
        assert_eq!(
            option_name("npm.config.get(\"dry-run\")").as_deref(),
            Some("dry-run")
        );
        assert_eq!(
            option_name("this.npm.flatOptions.packageLock").as_deref(),
            Some("package-lock")
        );
        assert_eq!(option_name("this.npm.config.get(key)"), None);
        assert_eq!(option_name("this.config.global"), None);
    }
}
