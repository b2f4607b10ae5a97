//! What static analysis found out about one error site: the function it is in, the conditions
//! under which it runs, what writes the state those conditions read, the configuration and
//! environment they depend on, and, across the repository, who calls the function and who
//! handles the error. The explanation is written from these facts and nothing else.

use serde::{Deserialize, Serialize};

/// The facts of one site. Every string is source text (an expression, a statement, a
/// signature) in the record's language, so that whatever names it carries occur in the code.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Facts {
    /// The enclosing function, if the site is in one.
    pub function: Option<Function>,
    /// The conditions that hold when the site runs, outermost first, each already negated
    /// for the side it is on and simplified.
    pub conditions: Vec<Condition>,
    /// The loops and `try` blocks around the site, outermost first.
    pub context: Vec<Context>,
    /// When the site is on the `else` side of an `if`: what the other side does.
    pub other_branch: Option<Branch>,
    /// The variables and fields the conditions read, and where the file writes them.
    pub state: Vec<State>,
    /// Functions of the same file that the guards call, when all they do is return an
    /// expression: what decides the guard.
    pub helpers: Vec<Helper>,
    /// Environment variables and configuration fields the conditions depend on.
    pub config: Vec<ConfigRead>,
    /// The comment right above the raise, or above the `if` whose body it opens, without its
    /// comment markers: what the author says about this error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// What a Python raise of a class hands it to print (`msg` of `raise LinkError(msg)`,
    /// `code, resp` of `raise SMTPAuthenticationError(code, resp)`), when the record's message
    /// is the class alone: the error has a message, only not one written at the site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carried: Option<String>,
    /// When the site is a Rust `.expect(…)` (or `.expect_err(…)`): the value it unwraps, which
    /// panics only when it is an `Err` or `None` (an `Ok` for `expect_err`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unwrapped: Option<Unwrapped>,
    /// Calls of the enclosing function in the repository (filled once the whole tree is read).
    pub callers: Vec<Reference>,
    /// Places that catch or test for this error (filled once the whole tree is read).
    pub handlers: Vec<Reference>,
    /// Tests that expect this error, each with the call that raises it as `text` (filled once
    /// the whole tree is read).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<Reference>,
    /// How code outside reaches the site: the nearest function up the calls that it can call,
    /// or the command the site runs under (filled once the whole tree is read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<Entry>,
    /// The builder of another file that gives the error its code (npm's `usageError()`, which
    /// makes every error with `EUSAGE`), found once the whole tree is read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_from: Option<Reference>,
    /// A Go error value the site makes and hands to a call instead of returning it
    /// (`p.error(syntax.Error{…})`, `base.ErrorfAt(…)`'s value): that call's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handed_to: Option<String>,
    /// A Go error kept in a local and then stored in a field instead of being returned
    /// (`pkgErr = fmt.Errorf(…)` … `pkg.Error = &PackageError{Err: pkgErr}`): the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored_in: Option<String>,
    /// A Go panic that a function of the same file recovers: one whose deferred function
    /// (or a recovering function it defers) names the panic's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovered: Option<Recovery>,
    /// A Go error made as a struct value (`SyntaxError{…}`, not `&SyntaxError{…}`): what
    /// `errors.As` finds is a value of the type, never a pointer to it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub made_as_value: bool,
    /// The type of a Go error made by a composite literal, as the code writes it
    /// (`asn1.SyntaxError` in package x509, `SyntaxError` in its own package).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub literal_type: Option<String>,
    /// The function or macro called to raise, as written (`base.Fatalf`, `log.Fatalf`,
    /// `panic`, `assert!`), when the site is a call: what it means is the project's own
    /// (the Go compiler's `base.Fatalf` reports an internal problem, `log.Fatalf` a bad flag).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raised_by: Option<String>,
    /// The raise is all that its function's body does (its doc comment aside): a method left
    /// for subclasses to define (`raise NotImplementedError`), or one its class refuses
    /// (`throw new UnsupportedOperationException()`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sole: bool,
}

/// The function that recovers a Go panic, and the value's name in its recovering code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Recovery {
    /// The function that defers the recovery (`parse`), or the recovering function a caller
    /// defers (`errRecover`).
    pub function: String,
    /// The line of that function.
    pub line: u32,
    /// The panic value's name as the recovering code writes it (`ErrInternalError`).
    pub value: String,
    /// Whether the recovering code sets the function's error result (`err = …`, `*errp =
    /// …`): its callers get the panic as an error.
    pub to_error: bool,
    /// The functions of the file that recover it: those that defer the recovering code, in
    /// their order in the file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub through: Vec<String>,
}

/// The value a Rust `.expect(…)` unwraps.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Unwrapped {
    /// Its expression (`config.get("name")`).
    pub value: String,
    /// `expect_err`: it panics when the value is an `Ok`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ok_panics: bool,
}

/// The way in to a site from outside its project.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Entry {
    /// The command of the project's program that runs the site (`npm trust circleci`), when
    /// the site or a function on the way is in that command's file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The command's usage lines after its name (`<stage-id>`), as its code declares them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub usage: Vec<String>,
    /// The functions from the entry point down to the one that calls the site's function, each
    /// called by the one before it; empty when the site's own function is the way in.
    pub chain: Vec<Step>,
    /// Other ways in as near as the first: commands when it is a command, else functions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Way>,
    /// How many more there are past `also`.
    #[serde(skip_serializing_if = "is_zero")]
    pub more: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Another way in: a command (`npm unpublish`) or a function (`Sign()`), and the file of its code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Way {
    pub name: String,
    pub file: String,
}

/// A function on the way from outside to a site.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Step {
    pub function: String,
    pub file: String,
    /// The line of its definition.
    pub line: u32,
    /// Its declaration up to the body, as written.
    pub signature: String,
    /// The class, impl or receiver type it is a method of, when the file says; found for the
    /// way in (the first step of a chain) only, the one step a caller calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The function below it in the chain overrides this one (a Java class's method of the
    /// public interface it implements): it is reached by a call of this one, not called by it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub overridden: bool,
}

/// The function a site is in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Function {
    pub name: String,
    /// The class, impl or receiver type the function belongs to.
    pub owner: Option<String>,
    /// The first and last lines of its class and of the classes of the file related to it by
    /// inheritance: a call through `self`/`this` elsewhere in the file is another class's.
    /// Empty where no block bounds them (Go, Rust).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub owner_blocks: Vec<(u32, u32)>,
    /// The declaration up to its body, on one line.
    pub signature: String,
    pub parameters: Vec<Parameter>,
    pub line: u32,
    /// Its doc comment (a docstring, Javadoc, JSDoc, rustdoc, a Go doc comment) without the
    /// comment markers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// A closure handed to a call (`editor.on('exit', (code) => {…})`): whatever calls it
    /// decides its parameters, not the caller of the function it is written in.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub callback: bool,
    /// The call a callback is handed to (`this.inputStream.end` of
    /// `this.inputStream.end(() => {…})`): it runs the callback, when it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub called_by: Option<String>,
    /// A generator (Python's `yield` in its body, JavaScript's `function*`): a call returns
    /// at once, and its body, with the raise, runs as the result is iterated.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub generator: bool,
    /// A property accessor (Python's `@property` / `@x.setter` / `@x.deleter`, JavaScript's
    /// `get x()` / `set x(v)`): code reads, assigns or deletes the attribute; it never calls it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accessor: Option<Accessor>,
    /// A JavaScript or TypeScript function of the module's top level that the module does
    /// not export (no `export`, `exports.f`, `module.exports = { f }`): code outside the
    /// module cannot call it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unexported: bool,
    /// Declared inside the body of another named function (Python's inner `def`, a
    /// JavaScript `function` or `const f = () => …` in a function, a Rust `fn` in a `fn`): its
    /// name is that function's local, and no code outside can call it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nested: bool,
    /// Callable from outside its module though its head does not say so: a method of a Rust
    /// trait or of its `impl` for a type, or of a public Java interface.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exposed: bool,
    /// A Python method decorated `@abstractmethod`: a subclass that does not define it cannot
    /// be created, so its body runs only through `super()`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub abstract_method: bool,
}

/// How code reaches a property accessor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Accessor {
    Get,
    Set,
    Delete,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Parameter {
    pub name: String,
    /// The declared type, as written (`boolean`, `bool`, `*Config`), if any.
    pub ty: Option<String>,
    /// It has a default value: a call may leave it out.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// It can only be passed by name (Python, after `*` or `*args`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub keyword_only: bool,
    /// It collects the other arguments (`*args`, `**kwargs`, `...rest`, `String... xs`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub variadic: bool,
}

impl Parameter {
    /// Whether the declared type is the language's boolean.
    pub fn is_bool(&self) -> bool {
        matches!(self.ty.as_deref(), Some("boolean" | "bool" | "Boolean"))
    }
}

/// Why a condition holds at the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConditionKind {
    /// The site is in the consequence of an `if` (or `elif`, or a ternary).
    If,
    /// The site is on the `else` side: the condition is the negation of the `if`'s.
    Else,
    /// An earlier `if (…) return;` (or throw, continue, break) in the same block did not exit.
    EarlyExit,
    /// The site is in a `case` or `match` arm.
    Case,
    /// The site is in a `while` loop's body.
    Loop,
    /// The site is an assertion: the condition is the negation of what it asserts.
    Assert,
}

/// One condition that holds when the site runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// The condition as it holds, in the record's language (`!destroy && config.reuseLease`).
    pub expr: String,
    /// Its conjuncts, each an expression of its own: a way to avoid the error is to make any
    /// one of them false.
    pub conjuncts: Vec<String>,
    /// Its negation, simplified: what holds when the site is not reached this way.
    #[serde(default)]
    pub negated: String,
    pub kind: ConditionKind,
    /// The line of the `if`, `case` or early exit.
    pub line: u32,
}

/// A loop or `try` around the site.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Context {
    /// Inside a loop; `header` is its head (`for (const x of xs)`).
    Loop { header: String, line: u32 },
    /// Inside a `try` block; what catches there and what always runs after.
    Try {
        line: u32,
        catches: Vec<String>,
        finally: Option<String>,
        /// Each clause of `catches`, with what its handler does.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        caught: Vec<Catch>,
    },
    /// Inside a `catch` / `except` handler: the site reports or converts another error.
    Handler { clause: String, line: u32 },
    /// Built only where a configuration predicate holds: Rust's `#[cfg(unix)]` on an enclosing
    /// item (`condition` is `unix`), or a `debug_assert!` (`debug_assertions`).
    Cfg { condition: String, line: u32 },
    /// The enclosing function is defined inside an `if` of the module or class: Python's
    /// `if _mswindows: def _execute_child(…)`. That definition exists only where `condition`
    /// held when the module or class was run.
    Defined { condition: String, line: u32 },
}

/// A `catch` / `except` clause of a `try` around the site, and what its handler does.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Catch {
    /// The clause's head (`except (KeyError, ValueError) as e`, `catch (IOException e)`).
    pub clause: String,
    pub line: u32,
    /// The first statements of its handler, as written.
    pub statements: Vec<String>,
    /// The handler raises again what it caught (`raise`, `raise e`, `throw e`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rethrows: bool,
    /// The first raise of another error in the handler (`raise error("bad escape") from e`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raises: Option<String>,
}

impl Catch {
    /// The clauses of the `try`s around a call, innermost first, as the text of a
    /// [`errata_model::RefKind::Catches`] reference: one line of fields apart by control
    /// characters, which code text does not hold.
    pub fn encode_all(clauses: &[Catch]) -> String {
        let clean = |s: &str| s.replace(['\u{1d}', '\u{1e}', '\u{1f}', '\t', '\n'], " ");
        clauses
            .iter()
            .map(|c| {
                let statements: Vec<String> = c.statements.iter().map(|s| clean(s)).collect();
                format!(
                    "{}\u{1e}{}\u{1e}{}\u{1e}{}\u{1e}{}",
                    c.line,
                    u8::from(c.rethrows),
                    clean(&c.clause),
                    c.raises.as_deref().map(clean).unwrap_or_default(),
                    statements.join("\u{1d}")
                )
            })
            .collect::<Vec<_>>()
            .join("\u{1f}")
    }

    /// The clauses [`Catch::encode_all`] wrote.
    pub fn decode_all(text: &str) -> Vec<Catch> {
        text.split('\u{1f}')
            .filter_map(|c| {
                let mut f = c.split('\u{1e}');
                let (line, again, clause, raises, statements) =
                    (f.next()?, f.next()?, f.next()?, f.next()?, f.next()?);
                Some(Catch {
                    clause: clause.to_owned(),
                    line: line.parse().ok()?,
                    statements: statements
                        .split('\u{1d}')
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned)
                        .collect(),
                    rethrows: again == "1",
                    raises: (!raises.is_empty()).then(|| raises.to_owned()),
                })
            })
            .collect()
    }
}

/// What the other side of the `if` the site is on runs instead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Branch {
    /// The condition under which the other side runs.
    pub condition: String,
    /// Its first statements, as written.
    pub statements: Vec<String>,
    pub line: u32,
}

/// A function a guard calls whose body is one `return` of an expression.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Helper {
    pub name: String,
    pub line: u32,
    /// The expression it returns, as written.
    pub returns: String,
}

/// How a name in a condition is bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Binding {
    /// A parameter of the enclosing function: the caller decides it.
    Parameter,
    /// A local of the enclosing function, given its value above the site.
    Local,
    /// A field, a closure variable or a module-level variable: state that outlives the call.
    State,
}

/// A name a condition reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct State {
    /// The name or field path (`unconfirmedCleanup`, `self._closed`, `config.reuseLease`).
    pub name: String,
    pub binding: Binding,
    /// For a local: the expression it was given.
    pub value: Option<String>,
    /// Where the file changes it.
    pub writes: Vec<Write>,
}

/// What a write does to the state it changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// Puts something in a collection (`add`, `set`, `push`, `insert`, `append`).
    Add,
    /// Takes something out (`delete`, `remove`, `discard`, `pop`).
    Remove,
    /// Empties it (`clear`).
    Clear,
    /// Gives it a new value (`x = …`).
    Assign,
}

/// One write of a state, with the conditions under which it runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Write {
    /// The statement or expression, as written (`unconfirmedCleanup.delete(scope)`).
    pub text: String,
    pub effect: Effect,
    pub line: u32,
    /// The function it is in.
    pub function: Option<String>,
    /// The conditions that hold where it runs, as in [`Condition::expr`].
    pub conditions: Vec<String>,
    /// It assigns the one parameter of its function as it is (a setter: `self._x = x`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_parameter: bool,
    /// Its function's declaration keeps it from callers outside the class (Java without
    /// `public`/`protected`, TypeScript `private`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
}

/// Where a configuration value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConfigSource {
    /// An environment variable.
    Environment,
    /// A field of a configuration or options object.
    Config,
}

/// A read of configuration or of the environment that a condition depends on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigRead {
    /// The read as written (`process.env.API_KEY`, `config.reuseLease`).
    pub text: String,
    /// The variable's name when it is a literal (`API_KEY`).
    pub key: Option<String>,
    pub source: ConfigSource,
}

/// A place elsewhere in the repository: a call of the function, or a handler of the error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reference {
    pub file: String,
    pub line: u32,
    /// The function it is in.
    pub function: Option<String>,
    /// The call or the clause, as written.
    pub text: String,
    /// False when the name it was found by is defined in several places.
    pub exact: bool,
    /// For a call: the clause of a `try` around it, in the calling function, that catches the
    /// record's error and does not raise it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caught: Option<Catch>,
}

impl Facts {
    /// Whether the parameter `name` is the function's own by the site: the extractor found
    /// it changed on the way there (`base += size + 1`), and binds it as a local.
    pub fn reassigned(&self, name: &str) -> bool {
        self.state
            .iter()
            .any(|s| s.name == name && s.binding == Binding::Local)
    }

    /// The command of the project's program that the site runs under (`npm ci`), if any.
    pub fn command(&self) -> Option<&str> {
        self.entry.as_ref()?.command.as_deref()
    }

    /// The conditions that decide whether the site runs: those of the `if`s, `case`s and
    /// loops around it, each worded once (`if c != '"': … elif c != '"':` tests one thing
    /// twice).
    pub fn guards(&self) -> impl Iterator<Item = &Condition> {
        let guard = |c: &&Condition| c.kind != ConditionKind::EarlyExit;
        self.conditions
            .iter()
            .enumerate()
            .filter(move |(i, c)| {
                guard(c)
                    && !self.conditions[..*i]
                        .iter()
                        .filter(guard)
                        .any(|d| d.expr == c.expr)
            })
            .map(|(_, c)| c)
    }

    /// The early exits above the site that did not exit, nearest first.
    pub fn passed_checks(&self) -> impl Iterator<Item = &Condition> {
        self.conditions
            .iter()
            .rev()
            .filter(|c| c.kind == ConditionKind::EarlyExit)
    }

    /// The state entry of `name`.
    pub fn state_of(&self, name: &str) -> Option<&State> {
        self.state.iter().find(|s| s.name == name)
    }
}
