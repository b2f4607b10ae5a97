//! The explanation fields of a record (`documentation` ... `backgroundTag`), written from the
//! [`Facts`] static analysis found at its site: the enclosing function, the conditions under
//! which the raise runs, the state they read and where it is written, the configuration they
//! depend on, the callers of the function and the handlers of the error.
//!
//! Nothing is invented: every name in a field comes from the source or from the facts, and code
//! is quoted in backticks so that a reader (or a test) can check it against the repository.
//!
//! ```
//! use errata_explain::{explain, Facts, Site};
//! use errata_lang::Lang;
//! use errata_model::{ErrorType, HandlingStrategy};
//!
//! let facts = Facts::default();
//! let e = explain(&Site {
//!     lang: Lang::Python,
//!     error_type: ErrorType::Exception,
//!     class: Some("ValueError"),
//!     message: "invalid literal for int()",
//!     file_path: "pkg/parse.py",
//!     line: 12,
//!     status: None,
//!     code: None,
//!     facts: &facts,
//! });
//! assert!(e.documentation.contains("pkg/parse.py:12"));
//! assert!(e.type_guard.contains("isinstance(e, ValueError)"));
//! assert_eq!(e.handling_strategy, HandlingStrategy::FixInput);
//! ```
//!
//! # Source code layout
//!
//! - `facts`: the facts, as static analysis hands them over (and as the store keeps them).
//! - `classify`: background tag and handling strategy.
//! - `prose`: the fields written as sentences.
//! - `code`: the fields written as code in the record's language.
//! - `command`: a command's guards read as its user writes the command line.

mod classify;
mod code;
mod command;
mod docs;
mod facts;
mod prose;
pub use prose::other_comparison;
mod signature;

pub use facts::{
    Accessor, Binding, Branch, Catch, Condition, ConditionKind, ConfigRead, ConfigSource, Context,
    Effect, Entry, Facts, Function, Helper, Parameter, Recovery, Reference, State, Step, Unwrapped,
    Way, Write,
};

use errata_lang::Lang;
use errata_model::{BackgroundTag, ErrorType, HandlingStrategy};

/// What is known of a site when it is explained.
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    pub lang: Lang,
    pub error_type: ErrorType,
    pub class: Option<&'a str>,
    pub message: &'a str,
    pub file_path: &'a str,
    pub line: u32,
    pub status: Option<u16>,
    pub code: Option<&'a str>,
    pub facts: &'a Facts,
}

impl<'a> Site<'a> {
    /// The clause of a `try` in the site's own function that catches what the site raises,
    /// when its handler does not raise it again: the error does not leave the function as
    /// raised. The first clause that catches the class decides, as at run time.
    pub(crate) fn caught_here(&self) -> Option<&'a Catch> {
        let facts: &'a Facts = self.facts;
        let innermost_first = facts.context.iter().rev().flat_map(|c| match c {
            Context::Try { caught, .. } => caught.as_slice(),
            _ => &[],
        });
        caught_by(self.lang, self.error_type, self.class, innermost_first)
    }

    /// Whether the error is raised without a message of its own (`raise EOFError`, `throw new
    /// NoSuchElementException()`): its record's message is the class's name, which a trace
    /// shows alone, but `str(e)` and `getMessage()` do not hold it.
    pub(crate) fn messageless(&self) -> bool {
        self.error_type == ErrorType::Exception
            && self
                .class
                .is_some_and(|c| c.rsplit(['.', ':']).next() == Some(self.message))
    }
}

/// Whether a Go package variable of this name holds an error value to compare with
/// (`ErrClosed`, `errNUL`, `viewCloseError`): the names Go code gives its sentinel errors.
pub fn is_go_sentinel_name(name: &str) -> bool {
    let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    plain
        && (name.starts_with("Err")
            || name.starts_with("err")
            || name.ends_with("Error")
            || name.ends_with("Err"))
}

/// The first of `clauses` (innermost `try` first, each in its order) that catches an error of
/// `class` raised as `error_type`, if it does not raise it again: then the error goes no
/// further as raised.
pub fn caught_by<'c>(
    lang: Lang,
    error_type: ErrorType,
    class: Option<&str>,
    clauses: impl IntoIterator<Item = &'c Catch>,
) -> Option<&'c Catch> {
    if error_type != ErrorType::Exception {
        return None;
    }
    // A JavaScript `catch` catches whatever is thrown, of a class or not.
    let name = match class {
        Some(class) => class.rsplit(['.', ':']).next()?,
        None if matches!(lang, Lang::JavaScript | Lang::TypeScript) => "Error",
        None => return None,
    };
    clauses
        .into_iter()
        .find(|k| catches(lang, &k.clause, name))
        .filter(|k| !k.rethrows)
}

/// Whether the clause `clause` (`except (KeyError, ValueError) as e`, `catch (IOException |
/// X e)`) catches an error of the class named `name`. Only what the clause names, and the
/// classes every error of the language derives from, are known here: a superclass of `name`
/// of the project's own is not.
fn catches(lang: Lang, clause: &str, name: &str) -> bool {
    const NOT_EXCEPTIONS: [&str; 4] = [
        "BaseException",
        "SystemExit",
        "KeyboardInterrupt",
        "GeneratorExit",
    ];
    let types: Vec<&str> = match lang {
        Lang::Python => {
            let head = clause.split('#').next().unwrap_or(clause);
            let head = head
                .trim()
                .trim_start_matches("except")
                .trim_start_matches('*');
            let head = head.split(" as ").next().unwrap_or(head);
            let head = head.trim().trim_end_matches(':').trim();
            if head.is_empty() {
                return true;
            }
            head.split(|c: char| c == ',' || c == '(' || c == ')' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .collect()
        }
        Lang::Java => {
            let Some(inner) = clause
                .split_once('(')
                .and_then(|(_, rest)| rest.rsplit_once(')'))
                .map(|(inner, _)| inner)
            else {
                return false;
            };
            // The types before the bound name, `final` and annotations aside.
            let mut words: Vec<&str> = inner
                .split(|c: char| c == '|' || c.is_whitespace())
                .filter(|t| !t.is_empty() && *t != "final" && !t.starts_with('@'))
                .collect();
            words.pop();
            words
        }
        Lang::JavaScript | Lang::TypeScript => return true,
        Lang::Go | Lang::Rust => return false,
    };
    types.into_iter().any(|t| {
        let t = t.rsplit('.').next().unwrap_or(t);
        t == name
            || match lang {
                Lang::Python => {
                    t == "BaseException" || t == "Exception" && !NOT_EXCEPTIONS.contains(&name)
                }
                _ => t == "Throwable" || t == "Exception" && !name.ends_with("Error"),
            }
    })
}

/// The explanation fields of one record.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    pub documentation: String,
    pub trigger_scenarios: String,
    pub common_situations: String,
    pub solutions: Vec<String>,
    pub example_fix: String,
    pub handling_strategy: HandlingStrategy,
    pub validation_code: String,
    pub type_guard: String,
    pub try_catch_pattern: String,
    pub prevention_tips: Vec<String>,
    pub tags: Vec<String>,
    pub background_tag: BackgroundTag,
}

/// Puts `value` in `slot`; whether it was another.
fn set<T: PartialEq>(slot: &mut T, value: T) -> bool {
    let other = *slot != value;
    if other {
        *slot = value;
    }
    other
}

/// Writes the explanation of a site from its facts.
pub fn explain(site: &Site<'_>) -> Explanation {
    let background = classify::background_tag(site);
    let strategy = classify::handling_strategy(site, background);
    let fence = |s: String| prose::fence_backticks(s, site.facts);
    let solutions = prose::solutions(site, strategy);
    let way_out = code::way_out(&solutions);
    Explanation {
        documentation: fence(prose::documentation(site)),
        trigger_scenarios: fence(prose::trigger_scenarios(site)),
        common_situations: fence(prose::common_situations(site)),
        solutions: solutions.into_iter().map(fence).collect(),
        example_fix: code::example_fix(site, strategy, background, way_out.as_deref()),
        handling_strategy: strategy,
        validation_code: code::validation_code(site),
        type_guard: code::type_guard(site),
        try_catch_pattern: code::try_catch(site, strategy, background, way_out.as_deref()),
        prevention_tips: prose::prevention_tips(site)
            .into_iter()
            .map(fence)
            .collect(),
        tags: tags(site, background),
        background_tag: background,
    }
}

/// Writes the explanation of a stored record again from its facts (once the callers and
/// handlers of the whole repository are known).
pub fn explain_record(record: &errata_model::Record, facts: &Facts) -> Option<Explanation> {
    let lang = Lang::from_path(std::path::Path::new(&record.file_path))?;
    Some(explain(&Site {
        lang,
        error_type: record.error_type,
        class: record.error_class.as_deref(),
        message: &record.error_message,
        file_path: &record.file_path,
        line: record.line_number,
        status: record.http_status,
        code: record.error_code.as_deref(),
        facts,
    }))
}

/// The error class whose own text a stored record is (the `Error()`, `__str__`, `getMessage()`,
/// `Display` or constructor that words every error of the class), when it is one: such a
/// record is linked to the places that create the class rather than to the callers of its
/// method.
pub fn own_text_class<'a>(record: &'a errata_model::Record, facts: &Facts) -> Option<&'a str> {
    let lang = Lang::from_path(std::path::Path::new(&record.file_path))?;
    prose::own_text_of(lang, facts, record.error_class.as_deref()).map(|(class, _)| class)
}

/// Most callers and handlers a record keeps: a list this long may have been cut, and the prose
/// says "at least".
pub const MAX_LINKS: usize = 20;

/// The names of the explanation fields, as the schema spells them.
pub const FIELDS: [&str; 12] = errata_model::EXPLANATION_FIELDS;

impl Explanation {
    /// Writes the fields named in `only` (all of them when `None`) into `record`; whether any
    /// of them changed.
    pub fn apply(self, record: &mut errata_model::Record, only: Option<&[&str]>) -> bool {
        let want = |f: &str| only.is_none_or(|o| o.contains(&f));
        let mut changed = false;
        if want("documentation") {
            changed |= set(&mut record.documentation, self.documentation);
        }
        if want("triggerScenarios") {
            changed |= set(&mut record.trigger_scenarios, self.trigger_scenarios);
        }
        if want("commonSituations") {
            changed |= set(&mut record.common_situations, self.common_situations);
        }
        if want("solutions") {
            changed |= set(&mut record.solutions, self.solutions);
        }
        if want("exampleFix") {
            changed |= set(&mut record.example_fix, self.example_fix);
        }
        if want("handlingStrategy") {
            changed |= set(&mut record.handling_strategy, self.handling_strategy);
        }
        if want("validationCode") {
            changed |= set(&mut record.validation_code, self.validation_code);
        }
        if want("typeGuard") {
            changed |= set(&mut record.type_guard, self.type_guard);
        }
        if want("tryCatchPattern") {
            changed |= set(&mut record.try_catch_pattern, self.try_catch_pattern);
        }
        if want("preventionTips") {
            changed |= set(&mut record.prevention_tips, self.prevention_tips);
        }
        if want("tags") {
            changed |= set(&mut record.tags, self.tags);
        }
        if want("backgroundTag") {
            changed |= set(&mut record.background_tag, self.background_tag);
        }
        changed
    }
}

/// Up to 8 tags: the language, the kind of raise, the background, then names from the site
/// (class, function, state), each a lowercase slug.
fn tags(site: &Site<'_>, bg: BackgroundTag) -> Vec<String> {
    let mut tags = vec![
        site.lang.name().to_owned(),
        site.error_type.as_str().to_owned(),
        bg.as_str().to_owned(),
    ];
    let mut names: Vec<&str> = Vec::new();
    if let Some(c) = site.class {
        names.push(c.rsplit(['.', ':']).next().unwrap_or(c));
    }
    if let Some(f) = &site.facts.function {
        names.push(&f.name);
    }
    for s in site
        .facts
        .state
        .iter()
        .filter(|s| s.binding == Binding::State && !s.writes.is_empty())
    {
        names.push(
            s.name
                .trim_start_matches("this.")
                .trim_start_matches("self.")
                .split(['.', '['])
                .next()
                .unwrap_or(&s.name),
        );
    }
    for n in names {
        let t = tag_of(errata_model::slug(&split_camel(n)));
        if !t.is_empty() && !tags.contains(&t) {
            tags.push(t);
        }
    }
    tags.truncate(8);
    tags
}

/// `unconfirmedCleanup` -> `unconfirmed Cleanup`, so that the slug separates the words.
fn split_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        out.push(c);
    }
    out
}

fn tag_of(s: String) -> String {
    s.chars()
        .take(40)
        .collect::<String>()
        .trim_end_matches('-')
        .to_owned()
}

/// How the site's function is named in prose: `release()`, or `the code of FILE` at module
/// level.
fn function_ref(site: &Site<'_>) -> String {
    match &site.facts.function {
        Some(f) if f.name.is_empty() => format!("the anonymous function at line {}", f.line),
        Some(f) => match constructor_call(site.lang, f) {
            Some(call) => format!("`{call}`"),
            None => format!("`{}()`", f.name),
        },
        None => format!("the top level of {}", site.file_path),
    }
}

/// How a caller calls a constructor, the way in that a user writes: `ProxyHandler()` for
/// Python's `__init__` of `ProxyHandler`, `new Foo()` for a JavaScript or TypeScript
/// `constructor` and a Java constructor of `Foo`.
fn constructor_call(lang: Lang, f: &facts::Function) -> Option<String> {
    let owner = f.owner.as_deref()?;
    let is_constructor = match lang {
        Lang::Python => matches!(f.name.as_str(), "__init__" | "__new__"),
        Lang::JavaScript | Lang::TypeScript => f.name == "constructor",
        Lang::Java => f.name == owner,
        _ => false,
    };
    is_constructor.then(|| match lang {
        Lang::Python => format!("{owner}()"),
        _ => format!("new {owner}()"),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_clause_catches_what_it_names_and_what_every_error_derives_from() {
        use super::catches;
        use errata_lang::Lang::{Java, JavaScript, Python};
        assert!(catches(
            Python,
            "except (KeyError, ValueError) as e",
            "ValueError"
        ));
        assert!(catches(Python, "except re.error", "error"));
        assert!(catches(Python, "except", "KeyboardInterrupt"));
        assert!(catches(Python, "except Exception: # anything", "OSError"));
        assert!(!catches(Python, "except Exception", "KeyboardInterrupt"));
        assert!(!catches(Python, "except KeyError", "ValueError"));
        assert!(catches(
            Java,
            "catch (final IOException | IllegalArgumentException e)",
            "IllegalArgumentException"
        ));
        assert!(catches(Java, "catch (Exception e)", "IOException"));
        assert!(!catches(Java, "catch (Exception e)", "InternalError"));
        assert!(!catches(Java, "catch (IOException e)", "e"));
        assert!(catches(JavaScript, "catch (err)", "Error"));
    }

    #[test]
    fn catch_clauses_survive_their_reference_text() {
        let clauses = vec![
            super::Catch {
                clause: "except (KeyError, ValueError) as e".into(),
                line: 12,
                statements: vec!["log(e)".into(), "return None".into()],
                rethrows: false,
                raises: None,
            },
            super::Catch {
                clause: "except OSError".into(),
                line: 15,
                statements: vec![],
                rethrows: true,
                raises: Some("Failed(\"x\")".into()),
            },
        ];
        assert_eq!(
            super::Catch::decode_all(&super::Catch::encode_all(&clauses)),
            clauses
        );
    }

    use super::*;

    fn site<'a>(
        lang: Lang,
        class: Option<&'a str>,
        message: &'a str,
        facts: &'a Facts,
    ) -> Site<'a> {
        Site {
            lang,
            error_type: ErrorType::Exception,
            class,
            message,
            file_path: "a/b.ts",
            line: 119,
            status: None,
            code: None,
            facts,
        }
    }

    #[test]
    fn a_go_error_type_is_matched_as_it_is_made() {
        let guard = |signature: &str| {
            let facts = Facts {
                function: Some(Function {
                    name: "Error".into(),
                    signature: signature.into(),
                    ..Function::default()
                }),
                ..Facts::default()
            };
            let mut s = site(Lang::Go, Some("DecodeError"), "bad byte %q at %d", &facts);
            s.error_type = ErrorType::ErrorReturn;
            explain(&s).type_guard
        };
        let value = guard("func (e DecodeError) Error() string");
        assert!(value.contains("var target DecodeError\n"), "{value}");
        let pointer = guard("func (e *DecodeError) Error() string");
        assert!(pointer.contains("var target *DecodeError\n"), "{pointer}");
    }

    #[test]
    fn a_retry_is_advised_only_for_a_failure_that_passes() {
        let none = Facts::default();
        let retried = |message: &str| {
            explain(&site(Lang::Java, Some("SocketException"), message, &none))
                .solutions
                .iter()
                .any(|s| s.starts_with("Retry"))
        };
        assert!(retried("connect timed out"));
        assert!(retried("Connection refused"));
        // An argument's check that names a timeout fails the same way every time.
        assert!(!retried("timeout can't be negative"));
        assert!(!retried("invalid timeout value"));
    }

    #[test]
    fn a_go_program_that_exits_is_recognised_by_its_output() {
        let none = Facts::default();
        let mut s = site(Lang::Go, None, "go: cannot find main module; see %s", &none);
        s.error_type = ErrorType::Exit;
        let e = explain(&s);
        assert!(
            e.type_guard.contains("func isThisExit(stderr string) bool")
                && e.type_guard
                    .contains("\"go: cannot find main module; see\""),
            "{}",
            e.type_guard
        );
        assert!(
            e.try_catch_pattern.contains("exec.Command"),
            "{}",
            e.try_catch_pattern
        );
        assert!(
            !e.try_catch_pattern.contains("isThisError"),
            "{}",
            e.try_catch_pattern
        );
    }

    #[test]
    fn what_a_site_does_is_said_as_the_code_does_it() {
        let none = Facts::default();
        // A Go sentinel is declared, not returned, where its record points.
        let mut s = site(Lang::Go, Some("ErrNotIndexed"), "not in index", &none);
        s.error_type = ErrorType::ErrorReturn;
        let e = explain(&s);
        assert!(
            e.documentation.starts_with(
                "`ErrNotIndexed` is an error value declared at a/b.ts:119 with the message \"not in index\"."
            ),
            "{}",
            e.documentation
        );
        // A warning goes through Python's filters; an error that carries a status is raised.
        let mut s = site(
            Lang::Python,
            Some("ResourceWarning"),
            "unclosed writer",
            &none,
        );
        s.error_type = ErrorType::Log;
        let e = explain(&s);
        assert!(
            e.documentation.contains("is issued with `warnings.warn`"),
            "{}",
            e.documentation
        );
        assert!(!e.documentation.contains("logged"), "{}", e.documentation);
        let mut s = site(Lang::JavaScript, Some("Error"), "no such version", &none);
        s.error_type = ErrorType::Http;
        s.status = Some(404);
        let e = explain(&s);
        assert!(
            e.documentation
                .contains("`Error` with HTTP status 404 is raised"),
            "{}",
            e.documentation
        );
        assert!(
            !e.documentation.contains("response is sent"),
            "{}",
            e.documentation
        );
        // A literal Go panic value is compared whole: "nil" is in many other panics' text.
        let mut s = site(Lang::Go, None, "nil", &none);
        s.error_type = ErrorType::Panic;
        let e = explain(&s);
        assert!(
            e.type_guard.contains("fmt.Sprint(r) == \"nil\""),
            "{}",
            e.type_guard
        );
    }

    #[test]
    fn a_constructor_is_named_as_its_caller_calls_it() {
        let constructor = |name: &str, owner: &str| Facts {
            function: Some(facts::Function {
                name: name.into(),
                owner: Some(owner.into()),
                signature: format!("{name}(proxies)"),
                line: 790,
                ..facts::Function::default()
            }),
            ..Facts::default()
        };
        for (lang, name, owner, call) in [
            (Lang::Python, "__init__", "ProxyHandler", "`ProxyHandler()`"),
            (Lang::JavaScript, "constructor", "Lease", "`new Lease()`"),
            (Lang::TypeScript, "constructor", "Lease", "`new Lease()`"),
            (
                Lang::Java,
                "PipedOutputStream",
                "PipedOutputStream",
                "`new PipedOutputStream()`",
            ),
        ] {
            let facts = constructor(name, owner);
            let e = explain(&site(
                lang,
                Some("TypeError"),
                "proxies must be a mapping",
                &facts,
            ));
            assert!(
                e.documentation
                    .contains(&format!("in {call}, the constructor of `{owner}`")),
                "{lang:?}: {}",
                e.documentation
            );
            assert!(
                e.trigger_scenarios
                    .starts_with(&format!("A call to {call}")),
                "{lang:?}: {}",
                e.trigger_scenarios
            );
        }
        // A method that is no constructor keeps its name.
        let facts = constructor("connect", "UnixSocket");
        let e = explain(&site(
            Lang::Python,
            None,
            "connect cannot be called",
            &facts,
        ));
        assert!(
            e.documentation
                .contains("in `connect()`, a method of `UnixSocket`"),
            "{}",
            e.documentation
        );
    }

    #[test]
    fn every_field_is_filled() {
        let facts = Facts::default();
        for lang in Lang::ALL {
            let e = explain(&site(lang, None, "{}", &facts));
            assert!(!e.documentation.is_empty());
            assert!(!e.type_guard.is_empty());
            assert!(!e.solutions.is_empty() && !e.prevention_tips.is_empty());
            assert!(!e.tags.is_empty() && e.tags.len() <= 8);
            for t in &e.tags {
                assert_eq!(&errata_model::slug(t), t);
            }
        }
    }

    #[test]
    fn background_from_message() {
        let facts = Facts::default();
        let e = explain(&site(Lang::Go, None, "file %s not found", &facts));
        assert_eq!(e.background_tag, BackgroundTag::NotFound);
        let e = explain(&site(
            Lang::Go,
            Some("ErrClosed"),
            "use of closed file",
            &facts,
        ));
        assert!(e.type_guard.contains("errors.Is(err, ErrClosed)"));
    }

    #[test]
    fn an_assertion_says_where_it_is_checked_and_stops_only_a_rust_or_go_program() {
        let facts = Facts {
            conditions: vec![Condition {
                expr: "not keys".into(),
                conjuncts: vec!["not keys".into()],
                negated: "keys".into(),
                kind: ConditionKind::Assert,
                line: 119,
            }],
            ..Facts::default()
        };
        let mut s = site(
            Lang::Python,
            Some("AssertionError"),
            "proxies must be a mapping",
            &facts,
        );
        s.error_type = ErrorType::Assertion;
        let e = explain(&s);
        assert!(
            e.trigger_scenarios.contains("`python -O` removes it"),
            "{}",
            e.trigger_scenarios
        );
        assert!(
            !e.solutions.iter().any(|x| x.contains("stops the program")),
            "{:?}",
            e.solutions
        );
        s.lang = Lang::Java;
        let e = explain(&s);
        assert!(
            e.trigger_scenarios.contains("`java -ea`"),
            "{}",
            e.trigger_scenarios
        );
        s.lang = Lang::Rust;
        s.class = None;
        let e = explain(&s);
        assert!(
            e.solutions.iter().any(|x| x.contains("stops the program")),
            "{:?}",
            e.solutions
        );
    }

    #[test]
    fn a_condition_tested_twice_and_names_of_one_kind_are_worded_once() {
        let condition = |expr: &str, line: u32| Condition {
            expr: expr.into(),
            conjuncts: vec![expr.into()],
            negated: String::new(),
            kind: ConditionKind::If,
            line,
        };
        let state = |name: &str, binding: Binding| State {
            name: name.into(),
            binding,
            value: None,
            writes: Vec::new(),
        };
        // `if c != '"': … elif c != '"': raise …` (json's decoder, after reading `c` again).
        let facts = Facts {
            conditions: vec![
                condition("c != '\"'", 149),
                condition("c != '}'", 154),
                condition("c != '\"'", 162),
            ],
            state: vec![
                state("self._c", Binding::State),
                state("s", Binding::Parameter),
                state("self._cpp", Binding::State),
                state("end", Binding::Parameter),
            ],
            function: Some(Function {
                name: "scanstring".into(),
                signature: "def scanstring(s, end)".into(),
                ..Function::default()
            }),
            ..Facts::default()
        };
        let e = explain(&site(Lang::Python, Some("ValueError"), "bad", &facts));
        let doc = &e.documentation;
        assert!(
            doc.contains("It is raised when `c != '\"'` and `c != '}'` hold."),
            "{doc}"
        );
        assert!(
            doc.contains("`s` and `end` are parameters: the caller decides them."),
            "{doc}"
        );
        // What `self._c` is (an object's state, a class's constant) is not known: not said.
        assert!(!doc.contains("`self._c`"), "{doc}");
        // `c` is the function's own local: making it false is no action a caller can take.
        let asked = e
            .solutions
            .iter()
            .filter(|s| s.contains("`c != '\"'`"))
            .count();
        assert_eq!(asked, 0, "{:?}", e.solutions);
        // `c` is the function's own local: no caller can check it before the call.
        assert!(
            e.prevention_tips.iter().all(|t| !t.starts_with("Check ")),
            "{:?}",
            e.prevention_tips
        );
    }

    #[test]
    fn a_log_line_is_said_to_be_logged_and_a_vague_message_is_not_what_to_alert_on() {
        let facts = Facts {
            function: Some(Function {
                name: "emitWarning".into(),
                parameters: vec![Parameter {
                    name: "err".into(),
                    ..Parameter::default()
                }],
                ..Function::default()
            }),
            conditions: vec![Condition {
                expr: "err == nil".into(),
                conjuncts: vec!["err == nil".into()],
                negated: "err != nil".into(),
                kind: ConditionKind::If,
                line: 17,
            }],
            ..Facts::default()
        };
        let mut log = site(Lang::JavaScript, None, "[${code}] ${type}: ${msg}", &facts);
        log.error_type = ErrorType::Log;
        let e = explain(&log);
        assert!(
            e.documentation
                .contains("It is logged when `err == nil` holds."),
            "{}",
            e.documentation
        );
        assert!(
            e.trigger_scenarios
                .contains("logs it when it gets to line 119"),
            "{}",
            e.trigger_scenarios
        );
        // `err == nil` is no negation: what avoids it is not said rather than guessed.
        assert!(
            !e.solutions.iter().any(|s| s.contains("for which")),
            "{:?}",
            e.solutions
        );
        // `err` is an argument: its caller can check it.
        assert!(
            e.prevention_tips
                .contains(&"Check `err == nil` before calling `emitWarning()`.".to_owned()),
            "{:?}",
            e.prevention_tips
        );
        // `]` is no text to look for in logs.
        assert!(
            e.prevention_tips.iter().all(|t| !t.starts_with("Alert on")),
            "{:?}",
            e.prevention_tips
        );
        let e = explain(&site(Lang::JavaScript, None, "bad config: ${path}", &facts));
        assert!(
            e.prevention_tips
                .iter()
                .any(|t| t.starts_with("Alert on the message \"bad config:\"")),
            "{:?}",
            e.prevention_tips
        );
    }

    #[test]
    fn a_state_written_in_many_places_names_the_first_few() {
        let writes = (1..=5)
            .map(|i| Write {
                text: "this.closed = true".into(),
                effect: Effect::Assign,
                line: 100 + i,
                function: Some(format!("close{i}")),
                conditions: Vec::new(),
                from_parameter: false,
                hidden: false,
            })
            .collect();
        let facts = Facts {
            function: Some(Function {
                name: "read".into(),
                ..Function::default()
            }),
            conditions: vec![Condition {
                expr: "this.closed".into(),
                conjuncts: vec!["this.closed".into()],
                negated: "!this.closed".into(),
                kind: ConditionKind::If,
                line: 20,
            }],
            state: vec![State {
                name: "this.closed".into(),
                binding: Binding::State,
                value: None,
                writes,
            }],
            ..Facts::default()
        };
        let e = explain(&site(Lang::JavaScript, None, "closed", &facts));
        for text in [&e.documentation, &e.trigger_scenarios] {
            assert!(
                text.contains("`this.closed = true` (in `close3()`, line 103) and 2 more places"),
                "{text}"
            );
            assert!(!text.contains("close4"), "{text}");
        }
    }

    #[test]
    fn only_writes_that_make_the_guard_hold_or_fail_are_named() {
        let write = |text: &str, effect: Effect, line: u32| Write {
            text: text.into(),
            effect,
            line,
            function: Some("other".into()),
            conditions: Vec::new(),
            from_parameter: false,
            hidden: false,
        };
        let state = |name: &str, writes: Vec<Write>| State {
            name: name.into(),
            binding: Binding::State,
            value: None,
            writes,
        };
        let guard = |expr: &str| Condition {
            expr: expr.into(),
            conjuncts: vec![expr.into()],
            negated: String::new(),
            kind: ConditionKind::If,
            line: 20,
        };
        let facts = Facts {
            function: Some(Function {
                name: "check".into(),
                ..Function::default()
            }),
            conditions: vec![
                guard("po.flags&posetFlagUnsigned != 0"),
                guard("this.length > MAX"),
                guard("pending.has(scope)"),
            ],
            state: vec![
                // A compound assignment, a value that is not a literal, another element: none
                // is known to lead to the raise or away from it.
                state(
                    "po.flags",
                    vec![write("po.flags &^= posetFlagUnsigned", Effect::Assign, 174)],
                ),
                state(
                    "this.length",
                    vec![write("this.length = buf[pos++]", Effect::Assign, 367)],
                ),
                state(
                    "pending",
                    vec![
                        write("pending.delete(other)", Effect::Remove, 40),
                        write("pending.add(scope)", Effect::Add, 41),
                    ],
                ),
            ],
            ..Facts::default()
        };
        let e = explain(&site(Lang::JavaScript, None, "bad state", &facts));
        let all = format!(
            "{} {} {:?}",
            e.documentation, e.trigger_scenarios, e.solutions
        );
        for absent in ["&^=", "buf[pos++]", "pending.delete(other)", "outlives"] {
            assert!(!all.contains(absent), "{absent}: {all}");
        }
        assert!(
            e.trigger_scenarios.contains(
                "`pending` gets that state from `pending.add(scope)` (in `other()`, line 41)"
            ),
            "{}",
            e.trigger_scenarios
        );
    }

    #[test]
    fn a_list_of_callers_as_long_as_kept_is_said_to_be_at_least_that() {
        let with_callers = |n: usize| Facts {
            function: Some(Function {
                name: "load".into(),
                ..Function::default()
            }),
            callers: (0..n)
                .map(|i| Reference {
                    file: format!("c{i}.ts"),
                    line: 1,
                    function: Some(format!("f{i}")),
                    text: "load()".into(),
                    exact: true,
                    caught: None,
                })
                .collect(),
            ..Facts::default()
        };
        for (n, places) in [
            (5, " and 2 more places"),
            (MAX_LINKS, " and at least 17 more places"),
        ] {
            let facts = with_callers(n);
            let e = explain(&site(Lang::TypeScript, None, "bad config", &facts));
            assert!(
                e.trigger_scenarios.contains(places),
                "{}",
                e.trigger_scenarios
            );
            // Callers in other files and recursion are not counted: no count is said.
            assert!(
                !e.common_situations.contains("call site"),
                "{}",
                e.common_situations
            );
        }
    }

    #[test]
    fn tags_split_names() {
        let facts = Facts {
            function: Some(Function {
                name: "releaseLease".into(),
                ..Function::default()
            }),
            ..Facts::default()
        };
        let e = explain(&site(Lang::TypeScript, None, "lease is gone", &facts));
        assert!(e.tags.contains(&"release-lease".to_owned()), "{:?}", e.tags);
    }
}
