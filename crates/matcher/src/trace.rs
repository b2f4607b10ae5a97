//! Stack traces: reading frames in the formats of Node/V8, Python, Java, Go and Rust, and
//! grouping the lines of a log into messages with the frames that belong to them.
//!
//! [`Grouper`] is a small state machine fed one line at a time, so a log of any size is read in
//! bounded memory: a message is held until the line after its trace, with at most
//! [`MAX_FRAMES`] frames.

use std::sync::LazyLock;

use regex::Regex;

/// The most frames kept per message.
pub const MAX_FRAMES: usize = 64;

/// Segments kept for reuse ([`Grouper::recycle`]), and the most text capacity a kept one may
/// have: at most 32 MiB held, whatever lines went through (most log lines are shorter).
const MAX_SPARE: usize = 1 << 16;
const MAX_SPARE_TEXT: usize = 512;

/// One frame of a stack trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frame {
    /// The file as the runtime printed it (absolute, relative, or, for Java, the package path
    /// joined to the file name: `java/util/HashMap.java`).
    pub file: String,
    pub line: Option<u32>,
    pub function: Option<String>,
    /// The source line a Python traceback prints under the frame, trimmed: the line that
    /// raised, in the release that ran, whatever its number is in another.
    pub code: Option<String>,
}

/// A message and the frames of its trace, innermost first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Segment {
    /// The 1-based number of the line that holds the message.
    pub line: u64,
    pub text: String,
    pub frames: Vec<Frame>,
}

// Node/V8: `    at fn (file:line:col)`, `    at async fn (file:line:col)`, `    at file:line:col`.
// Rust backtraces print `             at ./src/main.rs:5:9`, which reads the same way. A frame
// with its function and parentheses says what it is even where a paste lost its indentation;
// a bare `at file:line` needs the indentation to be told from prose.
re!(
    V8_FRAME,
    r"^(?:\s*at (?:async |new )?(.+?) \((.+?):(\d+)(?::\d+)?\)|\s+at (.+?):(\d+)(?::\d+)?)\s*$"
);
// Java: `\tat com.acme.Auth.login(Auth.java:42)`, `\tat java.base/java.util.X.y(X.java:1)`,
// with what logback and log4j add after it (`~[?:?]`, `[spring-core-5.3.jar:5.3.1]`), indented
// or not.
re!(
    JAVA_FRAME,
    r"^\s*at (?:[\w.-]+(?:@[\w.-]+)?/)?([\w$.<>]+)\(([\w$-]+\.(?:java|kt|scala|groovy)):(\d+)\)(?:\s+~?\[[^\]]*\])?\s*$"
);
re!(
    JAVA_NO_SOURCE,
    r"^\s*at [\w$./<>@-]+\((?:Native Method|Unknown Source)\)(?:\s+~?\[[^\]]*\])?\s*$"
);
// What a log puts in front of each line of a trace it logs: a timestamp, npm's debug-log
// number and level (`23 verbose stack `), Dropwizard's `! `.
re!(
    LINE_PREFIX,
    r"^(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s+|\d{1,7} (?:verbose|silly|error|warn|info) (?:stack )?|\s*! )"
);
re!(
    JAVA_MORE,
    r"^\s+\.\.\. \d+ (?:more|common frames omitted)\s*$"
);
// Python: `  File "/x/y.py", line 12, in fn`.
re!(
    PY_FRAME,
    r#"^\s+File "(.+?)", line (\d+)(?:, in (.+?))?\s*$"#
);
// IPython and Jupyter: `File /x/y.py:12, in Cls.fn(self, a)`, `File C:\\Lib\\y.py:12, in fn()`.
re!(
    IPY_FRAME,
    r"^\s*File (\S.*?\.pyw?):(\d+)(?:, in (.+?))?\s*$"
);
re!(PY_HEADER, r"^Traceback \(most recent call last\):\s*$");
re!(
    PY_CHAIN,
    r"^(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)\s*$"
);
// Go: a goroutine header, then pairs of `pkg.fn(args)` and `\t/path/file.go:12 +0x1d`.
re!(GO_GOROUTINE, r"^goroutine \d+ \[[^\]]*\]:\s*$");
re!(
    GO_FUNC,
    r"^(?:created by )?([\w./*()\[\]-]+)(?:\(.*\))?(?: in goroutine \d+)?\s*$"
);
// Frames without a file: `    at new Promise (<anonymous>)`, `    at Array.map (native)`.
re!(V8_OTHER, r"^\s+at \S");
// A fatal error's dump adds `fp=0x… sp=0x… pc=0x…`; a paste may have turned the tab into spaces.
re!(
    GO_FILE,
    r"^(?:\t|\s{2,})(\S.*\.go):(\d+)(?: \+0x[0-9a-f]+)?(?: fp=0x[0-9a-f]+ sp=0x[0-9a-f]+ pc=0x[0-9a-f]+)?\s*$"
);
// Rust: `thread 'main' panicked at src/main.rs:5:9:` (message on the next line), or before
// Rust 1.73 `thread 'main' panicked at 'msg', src/main.rs:5:9`.
re!(
    RUST_PANIC,
    r"^thread '[^']*' panicked at (?:'(.*)', )?(.+?):(\d+):(\d+):?\s*$"
);
re!(RUST_BT_FUNC, r"^\s+\d+: (?:0x[0-9a-f]+ - )?(.+?)\s*$");
re!(
    RUST_NOTE,
    r"^(?:note: run with `RUST_BACKTRACE=|note: Some details are omitted|stack backtrace:)"
);
re!(CARET, r"^\s*[\^~]+\s*$");

/// Where the grouper is.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum State {
    #[default]
    Idle,
    /// A message is held; frames may follow it.
    Message,
    /// After `Traceback (most recent call last):`: frames first, the message after them.
    PythonFrames,
    /// After a Rust panic header: the message is on the next line.
    RustMessage,
}

/// Groups lines into [`Segment`]s.
#[derive(Debug, Default)]
pub struct Grouper {
    state: State,
    pending: Segment,
    /// Segments handed back by the caller, whose buffers the next ones reuse.
    spare: Vec<Segment>,
    /// The last Go or Rust function line, waiting for its file line.
    function: Option<String>,
    /// Frames come innermost last (Python).
    reversed: bool,
    /// Inside a Go goroutine dump or a Rust backtrace, where function lines come between frames.
    functions_follow: bool,
    /// The last line was a Python frame: an indented line after it is its source.
    after_py_frame: bool,
    /// The last frame read was kept (the first [`MAX_FRAMES`] are).
    pushed: bool,
}

impl Grouper {
    pub fn new() -> Grouper {
        Grouper::default()
    }

    /// Reads line `n` (1-based); returns the segment it completes, if any.
    pub fn push(&mut self, n: u64, line: &str) -> Option<Segment> {
        let line = line.trim_end_matches(['\r', '\n']);
        if self.state == State::RustMessage {
            if line.trim().is_empty() {
                return None;
            }
            self.pending.line = n;
            self.set_text(line);
            self.state = State::Message;
            return None;
        }
        if line.trim().is_empty() {
            return None;
        }
        if self.plain(line) {
            let done = self.flush();
            self.pending.line = n;
            self.pending.text.clear();
            self.pending.text.push_str(line);
            self.state = State::Message;
            return done;
        }
        if PY_CHAIN.is_match(line) {
            return None;
        }
        if PY_HEADER.is_match(line) {
            let done = self.flush();
            self.state = State::PythonFrames;
            self.reversed = true;
            return done;
        }
        if let Some(c) = RUST_PANIC.captures(line) {
            let done = self.flush();
            let frame = Frame {
                file: c[2].to_owned(),
                line: c[3].parse().ok(),
                function: None,
                code: None,
            };
            self.pending.frames.push(frame);
            match c.get(1) {
                Some(msg) => {
                    self.pending.line = n;
                    self.set_text(msg.as_str());
                    self.state = State::Message;
                }
                None => self.state = State::RustMessage,
            }
            return done;
        }
        if matches!(self.state, State::Idle | State::Message)
            && line.trim_start().starts_with("File ")
            && IPY_FRAME.is_match(line)
        {
            // IPython's traceback, its header aside: frames outermost first, each with its
            // source, then the exception.
            let done = self.flush();
            self.state = State::PythonFrames;
            self.reversed = true;
            let frame = self.frame(line);
            self.pending.frames.extend(frame);
            self.after_py_frame = true;
            return done;
        }
        if self.state == State::PythonFrames && is_ipython_source(line) {
            return None;
        }
        if self.state != State::Idle {
            if let Some(frame) = self.frame(line) {
                let python = PY_FRAME.is_match(line) || IPY_FRAME.is_match(line);
                if self.state == State::Message && python && self.pending.frames.is_empty() {
                    // A traceback pasted below its message: outermost frame first, as ever.
                    self.reversed = true;
                }
                self.after_py_frame = python;
                self.pushed = self.pending.frames.len() < MAX_FRAMES;
                if self.pushed {
                    self.pending.frames.push(frame);
                }
                return None;
            }
            // The source line Python prints under a frame.
            if std::mem::take(&mut self.after_py_frame) && line.starts_with([' ', '\t']) {
                if let Some(f) = self.pending.frames.last_mut().filter(|_| self.pushed) {
                    f.code = Some(line.trim().to_owned());
                }
                return None;
            }
            if self.is_continuation(line) {
                return None;
            }
        }
        if self.state == State::PythonFrames && !line.starts_with([' ', '\t']) {
            // The exception line ends a Python traceback.
            self.pending.line = n;
            self.set_text(line);
            self.pending.frames.reverse();
            self.reversed = false;
            self.state = State::Idle;
            return Some(self.take_pending());
        }
        if self.state == State::PythonFrames {
            return None; // source lines shown under a frame
        }
        let done = self.flush();
        self.pending.line = n;
        self.set_text(line);
        self.state = State::Message;
        done
    }

    /// Hands back a segment the caller is done with: the next segments reuse its buffers, so
    /// that a long stream allocates nothing per line.
    pub fn recycle(&mut self, mut seg: Segment) {
        if self.spare.len() < MAX_SPARE && seg.text.capacity() <= MAX_SPARE_TEXT {
            seg.text.clear();
            seg.frames.clear();
            self.spare.push(seg);
        }
    }

    fn take_pending(&mut self) -> Segment {
        let next = self.spare.pop().unwrap_or_default();
        std::mem::replace(&mut self.pending, next)
    }

    fn set_text(&mut self, text: &str) {
        self.pending.text.clear();
        self.pending.text.push_str(text);
    }

    /// The segment still held at the end of the input.
    pub fn finish(&mut self) -> Option<Segment> {
        self.flush()
    }

    /// Whether a message is held, waiting to know whether a trace follows it.
    pub fn holds_message(&self) -> bool {
        self.state == State::Message
    }

    /// Whether the line is certainly a message of its own, with no regex run: it does not start
    /// with whitespace or with a letter any trace syntax starts with. Most log lines are.
    fn plain(&self, line: &str) -> bool {
        let bytes = line.as_bytes();
        match bytes[0] {
            b' ' | b'\t' | b'^' | b'~' | b'T' | b'D' | b't' | b'g' | b'c' | b's' | b'n' => false,
            // `[junit] \tat java.util.TimSort.mergeHi(TimSort.java:868)`: a frame behind a
            // tool's tag.
            b'[' if self.state != State::Idle
                && memchr::memmem::find(line.as_bytes(), b"at ").is_some() =>
            {
                false
            }
            // A frame behind a log's prefix, or one a paste took the indentation from.
            b'0'..=b'9' | b'a' | b'!'
                if self.state != State::Idle && memchr::memmem::find(bytes, b"at ").is_some() =>
            {
                false
            }
            // IPython's frames are not indented: `File /x/y.py:12, in fn()`.
            b'F' if line.starts_with("File ") => false,
            // Go function lines come unindented between file lines.
            _ => !self.functions_follow && self.state != State::PythonFrames,
        }
    }

    fn flush(&mut self) -> Option<Segment> {
        let state = std::mem::take(&mut self.state);
        self.function = None;
        self.after_py_frame = false;
        self.functions_follow = false;
        let mut seg = self.take_pending();
        if self.reversed {
            seg.frames.reverse();
            self.reversed = false;
        }
        match state {
            State::Message => Some(seg),
            // A traceback cut off before its exception line: its frames still say where.
            State::PythonFrames if !seg.frames.is_empty() => Some(seg),
            _ => {
                self.recycle(seg);
                None
            }
        }
    }

    fn frame(&mut self, line: &str) -> Option<Frame> {
        if let Some(rest) = tagged(line) {
            return self.frame(rest);
        }
        if let Some(m) = LINE_PREFIX.find(line).filter(|m| m.end() < line.len()) {
            if let Some(frame) = self.frame(&line[m.end()..]) {
                return Some(frame);
            }
        }
        if let Some(c) = JAVA_FRAME.captures(line) {
            let function = c[1].to_owned();
            let file = java_path(&function, &c[2]);
            return Some(Frame {
                file,
                line: c[3].parse().ok(),
                function: Some(function),
                code: None,
            });
        }
        if let Some(c) = PY_FRAME.captures(line).or_else(|| IPY_FRAME.captures(line)) {
            return Some(Frame {
                file: c[1].to_owned(),
                line: c[2].parse().ok(),
                function: c.get(3).map(|m| m.as_str().to_owned()),
                code: None,
            });
        }
        if let Some(c) = V8_FRAME.captures(line) {
            let (function, file, n) = match c.get(1) {
                Some(f) => (Some(f.as_str().to_owned()), &c[2], &c[3]),
                None => (self.function.take(), &c[4], &c[5]),
            };
            return Some(Frame {
                file: strip_url(file).to_owned(),
                line: n.parse().ok(),
                function,
                code: None,
            });
        }
        if let Some(c) = GO_FILE.captures(line) {
            return Some(Frame {
                file: c[1].to_owned(),
                line: c[2].parse().ok(),
                function: self.function.take(),
                code: None,
            });
        }
        None
    }

    fn is_continuation(&mut self, line: &str) -> bool {
        if GO_GOROUTINE.is_match(line) || line.starts_with("stack backtrace:") {
            self.functions_follow = true;
            return true;
        }
        if let Some(m) = LINE_PREFIX.find(line) {
            let rest = &line[m.end()..];
            if rest.starts_with("at ") || rest.starts_with("... ") {
                return true;
            }
        }
        if JAVA_MORE.is_match(line)
            || JAVA_NO_SOURCE.is_match(line)
            || V8_OTHER.is_match(line)
            || RUST_NOTE.is_match(line)
            || CARET.is_match(line)
        {
            return true;
        }
        if !self.functions_follow {
            return false;
        }
        if let Some(c) = RUST_BT_FUNC.captures(line) {
            self.function = Some(c[1].to_owned());
            return true;
        }
        // Go prints each function on its own line, unindented, above its file line.
        if !line.starts_with([' ', '\t']) && line.contains('(') && GO_FUNC.is_match(line) {
            let looks_go = line.ends_with(')') || line.contains(" in goroutine ");
            if looks_go && !line.contains(": ") {
                self.function = GO_FUNC
                    .captures(line)
                    .map(|c| c[1].trim_start_matches("created by ").to_owned());
                return true;
            }
        }
        false
    }
}

/// The line behind a tool's tag, `[junit] ` or `[ERROR] `, when it has one.
fn tagged(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('[')?;
    let end = rest.find(']').filter(|&e| (1..=24).contains(&e))?;
    let after = &rest[end + 1..];
    after
        .strip_prefix(' ')
        .filter(|a| a.starts_with([' ', '\t']))
}

/// `com.acme.Auth.login` in `Auth.java` → `com/acme/Auth.java`.
fn java_path(function: &str, file: &str) -> String {
    let stem = file.split('.').next().unwrap_or(file);
    let parts: Vec<&str> = function.split('.').collect();
    match parts.iter().position(|p| p.split('$').next() == Some(stem)) {
        Some(i) if i > 0 => format!("{}/{}", parts[..i].join("/"), file),
        _ => file.to_owned(),
    }
}

fn strip_url(file: &str) -> &str {
    let file = file
        .trim_start_matches("file://")
        .trim_start_matches("webpack:///")
        .trim_start_matches("webpack://");
    file.strip_prefix("node:").unwrap_or(file)
}

/// The messages of a text with the frames of their traces, in order.
pub fn segments(text: &str) -> Vec<Segment> {
    let mut grouper = Grouper::new();
    let mut segments = Vec::new();
    for (i, line) in unwrapped(text) {
        for part in inline_frames(&line) {
            segments.extend(grouper.push(i as u64 + 1, part));
        }
    }
    segments.extend(grouper.finish());
    segments
}

/// How many lines a terminal may have wrapped one quoted message into.
const MAX_WRAPPED: usize = 8;

/// The lines of a text, with a quoted panic message that a terminal wrapped onto the lines
/// below joined again (`thread 'main' panicked at 'failed to set global default subscriber: `
/// / `SetGlobalDefaultError("…")', src/main.rs:5:9`), each with the index of its first line.
fn unwrapped(text: &str) -> Vec<(usize, std::borrow::Cow<'_, str>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let open = line
            .find("' panicked at '")
            .filter(|_| line.starts_with("thread '"))
            .map(|at| &line[at + "' panicked at '".len()..]);
        let closed = |l: &str| l.trim_end().ends_with('\'') || l.contains("', ");
        match open {
            Some(message) if !closed(message) => {
                let end = (i + 1..lines.len().min(i + 1 + MAX_WRAPPED)).find(|&j| closed(lines[j]));
                match end {
                    Some(end) => {
                        out.push((i, std::borrow::Cow::Owned(lines[i..=end].concat())));
                        i = end + 1;
                    }
                    None => {
                        out.push((i, std::borrow::Cow::Borrowed(line)));
                        i += 1;
                    }
                }
            }
            _ => {
                out.push((i, std::borrow::Cow::Borrowed(line)));
                i += 1;
            }
        }
    }
    out
}

/// A Java trace pasted on one line, its frames after the message (`java.lang.X: msg at
/// java.base/a.B.c(B.java:64) at …`): the message, then each frame as its own line.
fn inline_frames(line: &str) -> Vec<&str> {
    static FRAME: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\s+(at [\w$./<>-]+\([\w$.-]+\.java:\d+\))").expect("a valid pattern")
    });
    if line.len() > 4096 || !line.contains(".java:") {
        return vec![line];
    }
    let mut parts = Vec::new();
    let mut rest = 0;
    for m in FRAME.captures_iter(line) {
        let (whole, frame) = (m.get(0).expect("a match"), m.get(1).expect("a group"));
        let before = line[rest..whole.start()].trim();
        if !before.is_empty() {
            parts.push(before);
        }
        parts.push(frame.as_str());
        rest = whole.end();
    }
    let after = line[rest..].trim();
    if !after.is_empty() {
        parts.push(after);
    }
    // Only after a message (`X: …`): a frame behind a log's prefix (`! at …`, `[junit]
    // at …`) is the line as it was.
    if parts.len() < 2 || !parts[0].contains(": ") {
        return vec![line];
    }
    parts
}

/// A frame's function without its module, class or receiver: `nextNode` of
/// `java.util.HashMap$HashIterator.nextNode`, `object` of `encoding/json.(*decodeState).object`,
/// `enter` of `tokio::runtime::context::enter`.
pub fn function_name(frame: &str) -> &str {
    let f = without_arguments(frame.trim());
    let f = f.rsplit("::").next().unwrap_or(f);
    f.rsplit(['.', '/', ' ']).next().unwrap_or(f)
}

/// The class or type a Java or Go frame's function is a method of, as the frame names it:
/// `Itr` of `java.util.ArrayList$Itr.next`, `SubList` of `java.util.ArrayList$SubList$1.next`
/// (an anonymous class in it), `decodeState` of `encoding/json.(*decodeState).object`. None
/// where the frame has none, or names it by a path whose segments may be modules (Rust's).
pub fn function_owner(frame: &str) -> Option<&str> {
    let f = without_arguments(frame.trim());
    if f.contains("::") {
        return None;
    }
    if let Some(open) = f.rfind(".(") {
        let rest = &f[open + 2..];
        return Some(rest[..rest.find(')')?].trim_start_matches('*'));
    }
    let (owner, _) = f.rsplit_once('.')?;
    let owner = owner.rsplit(['.', '/', ' ']).next()?;
    owner
        .split('$')
        .rev()
        .find(|s| !s.is_empty() && !s.starts_with(|c: char| c.is_ascii_digit()))
}

/// A source line IPython shows under a frame: `--> 613     raise X(…)`, `    612 def f():`,
/// or with links, `--> [613](file:///…) raise X(…)`.
fn is_ipython_source(line: &str) -> bool {
    let t = line.strip_prefix("-->").unwrap_or(line).trim_start();
    let t = t.strip_prefix('[').unwrap_or(t);
    line.starts_with("-->")
        || (line.starts_with(' ') && t.starts_with(|c: char| c.is_ascii_digit()))
}

/// A function without the argument list a frame may print after it: IPython's
/// `http_error_default(self, req, fp)`, Go's `main.run(0xc000012345, 0x1)`.
fn without_arguments(f: &str) -> &str {
    if !f.ends_with(')') {
        return f;
    }
    let mut depth = 0usize;
    for (i, c) in f.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return f[..i].trim_end();
                }
            }
            _ => {}
        }
    }
    f
}

/// The last component of a path, `/` or `\\` separated: what a frame and a record share first.
pub fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Whether a frame's file is the record's file: their paths end with the same two components
/// (one, when either path has only one): `/usr/lib/python3.11/json/decoder.py` is
/// `Lib/json/decoder.py` of a CPython checkout, and `src/main.rs` is `crates/app/src/main.rs`.
pub fn same_file(frame_file: &str, record_file: &str) -> bool {
    let (a, b) = (path_parts(frame_file), path_parts(record_file));
    let need = a.len().min(b.len()).min(2);
    let common = common_tail(&a, &b);
    // A relative `src/lib.rs` is the crate that panicked, printed from its own folder; a
    // dependency's file prints with its registry path (`…/httparse-1.10.1/src/lib.rs`).
    let whole_frame = common == a.len() && a.len() < b.len();
    let in_release = b.len() > common && release_folder(b[b.len() - common - 1]);
    need > 0 && common >= need && !(whole_frame && in_release && !frame_file.starts_with('/'))
}

/// Whether a folder is a package of one release: `httparse-1.10.1`, `lodash@4.17.21`.
pub fn release_folder(part: &str) -> bool {
    part.rfind(['-', '@']).is_some_and(|at| {
        let v = &part[at + 1..];
        at > 0 && v.contains('.') && v.chars().all(|c| c.is_ascii_digit() || c == '.')
    })
}

/// Whether a frame's file is in the record's directory (the last two folders alike, or the
/// one there is): a file of the same package, whatever its name.
pub fn same_dir(frame_file: &str, record_file: &str) -> bool {
    let (mut a, mut b) = (path_parts(frame_file), path_parts(record_file));
    a.pop();
    b.pop();
    let need = b.len().min(2);
    need > 0 && common_tail(&a, &b) >= need
}

/// The parts of a path, `/` or `\\` apart, without empty ones and `.`.
fn path_parts(p: &str) -> Vec<&str> {
    p.split(['/', '\\'])
        .filter(|c| !c.is_empty() && *c != ".")
        .collect()
}

/// How many parts two paths end with alike.
fn common_tail(a: &[&str], b: &[&str]) -> usize {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y || same_but_release(x, y))
        .count()
}

/// Whether two folders are one folder of two releases: `python3.7` and `python3.11` (the
/// standard library's folder, where a module at its top is), `tokio-1.28.0` and
/// `tokio-1.54.1`; not `v1` and `v2`, which are two interfaces.
fn same_but_release(a: &str, b: &str) -> bool {
    fn split(p: &str) -> Option<(&str, &str)> {
        let at = p.find(|c: char| c.is_ascii_digit())?;
        let (name, release) = p.split_at(at);
        let name = name.strip_suffix('-').unwrap_or(name);
        let valid = !name.is_empty()
            && name.chars().any(|c| c.is_alphabetic())
            && release.contains('.')
            && release.chars().all(|c| c.is_ascii_digit() || c == '.');
        valid.then_some((name, release))
    }
    matches!((split(a), split(b)), (Some((x, _)), Some((y, _))) if x == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(text: &str) -> Vec<Segment> {
        let mut g = Grouper::new();
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            out.extend(g.push(i as u64 + 1, line));
        }
        out.extend(g.finish());
        out
    }

    fn files(s: &Segment) -> Vec<(String, Option<u32>)> {
        s.frames.iter().map(|f| (f.file.clone(), f.line)).collect()
    }

    #[test]
    fn node_traces() {
        let s = group(
            "Error: Sandbox abc not found\n    at getSandbox (/app/src/sandbox.ts:41:11)\n    at async release (file:///app/src/plugin.ts:119:9)\n    at /app/src/index.js:3:1\n    at new Promise (<anonymous>)\nnext line",
        );
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].text, "Error: Sandbox abc not found");
        assert_eq!(
            files(&s[0])[..3],
            [
                ("/app/src/sandbox.ts".into(), Some(41)),
                ("/app/src/plugin.ts".into(), Some(119)),
                ("/app/src/index.js".into(), Some(3))
            ]
        );
        assert_eq!(s[0].frames[1].function.as_deref(), Some("release"));
        assert_eq!(s[1].line, 6);
    }

    /// Traces as pasted into issue threads: the indentation lost, each line behind a log's
    /// timestamp, npm's debug log or Dropwizard's `!`, log4j's jar after a frame (after
    /// conveyal/r5#834, openremote/openremote#1812, benborla/mcp-server-mysql#60,
    /// DvcLAB/dockerhub#112 and metadatacenter/cedar-project#306).
    #[test]
    fn frames_behind_prefixes_and_without_indentation() {
        let s = group(
            "User a@b.com accessing /api/workers: java.util.ConcurrentModificationException\nat java.base/java.util.HashMap$HashIterator.nextNode(HashMap.java:1511)\nat com.conveyal.BrokerController.getAllWorkers(BrokerController.java:319)",
        );
        assert_eq!(s.len(), 1);
        assert_eq!(
            files(&s[0])[0],
            ("java/util/HashMap.java".into(), Some(1511))
        );
        let s = group(
            "2025-04-04T06:42:27.230+01:00 java.lang.IllegalMonitorStateException\n2025-04-04T06:42:27.230+01:00 at java.base/java.util.concurrent.locks.ReentrantLock$Sync.tryRelease(ReentrantLock.java:175)\n2025-04-04T06:42:27.230+01:00 at java.base/java.lang.Thread.run(Thread.java:1583) [?:?]",
        );
        assert_eq!(s.len(), 1);
        assert_eq!(
            files(&s[0]),
            [
                (
                    "java/util/concurrent/locks/ReentrantLock.java".into(),
                    Some(175)
                ),
                ("java/lang/Thread.java".into(), Some(1583))
            ]
        );
        let s = group(
            "23 verbose stack TypeError: Invalid Version:\n23 verbose stack at new SemVer (/x/npm/node_modules/semver/classes/semver.js:38:13)\n23 verbose stack at compare (/x/npm/node_modules/semver/functions/compare.js:3:32)",
        );
        assert_eq!(s.len(), 1);
        assert_eq!(
            files(&s[0])[0],
            (
                "/x/npm/node_modules/semver/classes/semver.js".into(),
                Some(38)
            )
        );
        let s = group(
            "ERROR x: java.lang.UnsupportedOperationException: null\n\tat java.util.ImmutableCollections.uoe(ImmutableCollections.java:72) ~[?:?]\n    ! at sun.security.validator.PKIXValidator.doBuild(PKIXValidator.java:387)",
        );
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].frames.len(), 2);
        // Prose that starts with `at` is no frame.
        let s = group("Error: boom\nat least one retry failed: 10:30");
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn python_tracebacks_with_chains() {
        let s = group(
            r#"Traceback (most recent call last):
  File "/usr/lib/python3.11/json/decoder.py", line 353, in raw_decode
    obj, end = self.scan_once(s, idx)
               ^^^^^^^^^^^^^^^^^^^^^^
StopIteration: 0

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/app/main.py", line 3, in <module>
    json.loads("x")
  File "/usr/lib/python3.11/json/decoder.py", line 355, in raw_decode
    raise JSONDecodeError("Expecting value", s, err.value) from None
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"#,
        );
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].text, "StopIteration: 0");
        assert_eq!(s[0].line, 5);
        assert_eq!(s[1].line, 14);
        assert_eq!(
            files(&s[1]),
            [
                ("/usr/lib/python3.11/json/decoder.py".into(), Some(355)),
                ("/app/main.py".into(), Some(3))
            ]
        );
    }

    #[test]
    fn java_traces_with_causes() {
        let s = group(
            "Exception in thread \"main\" java.lang.IllegalStateException: Queue full\n\tat java.base/java.util.AbstractQueue.add(AbstractQueue.java:98)\n\tat com.acme.Main.main(Main.java:7)\nCaused by: java.io.IOException: Stream closed\n\tat com.acme.io.Reader$Inner.read(Reader.java:12)\n\t... 1 more",
        );
        assert_eq!(s.len(), 2);
        assert_eq!(
            files(&s[0]),
            [
                ("java/util/AbstractQueue.java".into(), Some(98)),
                ("com/acme/Main.java".into(), Some(7))
            ]
        );
        assert_eq!(s[1].text, "Caused by: java.io.IOException: Stream closed");
        assert_eq!(files(&s[1]), [("com/acme/io/Reader.java".into(), Some(12))]);
    }

    #[test]
    fn go_panics() {
        let s = group(
            "panic: sandbox: lease expired\n\ngoroutine 1 [running]:\nmain.(*Pool).release(0xc000010000, {0x4b2f1e, 0x3})\n\t/home/u/app/pool.go:42 +0x1d\nmain.main()\n\t/home/u/app/main.go:9 +0x25\nexit status 2",
        );
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].text, "panic: sandbox: lease expired");
        assert_eq!(
            files(&s[0]),
            [
                ("/home/u/app/pool.go".into(), Some(42)),
                ("/home/u/app/main.go".into(), Some(9))
            ]
        );
        assert_eq!(
            s[0].frames[0].function.as_deref(),
            Some("main.(*Pool).release")
        );
        assert_eq!(s[1].text, "exit status 2");
    }

    /// A fatal error's dump, pasted with its tabs turned into spaces (golang/go issue threads
    /// quote them so).
    #[test]
    fn go_fatal_errors_with_registers() {
        let s = group(
            "fatal error: concurrent map read and map write\n\ngoroutine 133 [running]:\nruntime.throw(0x116d55e, 0x21)\n        C:/Go/src/runtime/panic.go:1116 +0x79 fp=0xc00086de90 sp=0xc00086de60 pc=0x43b579\nruntime.mapaccess1_faststr(0xfd4100, 0xc00063f110)\n        C:/Go/src/runtime/map_faststr.go:21 +0x465 fp=0xc00086df00 sp=0xc00086de90 pc=0x414d65\n",
        );
        assert_eq!(s[0].text, "fatal error: concurrent map read and map write");
        assert_eq!(
            files(&s[0]),
            [
                ("C:/Go/src/runtime/panic.go".into(), Some(1116)),
                ("C:/Go/src/runtime/map_faststr.go".into(), Some(21))
            ]
        );
    }

    #[test]
    fn rust_panics_old_and_new() {
        let s = group(
            "thread 'main' panicked at src/pool.rs:42:9:\nlease 7 expired\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\nthread 'worker' panicked at 'called `Option::unwrap()` on a `None` value', src/main.rs:5:9\nstack backtrace:\n   0: app::run\n             at ./src/run.rs:10:5\n",
        );
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].text, "lease 7 expired");
        assert_eq!(s[0].line, 2);
        assert_eq!(files(&s[0]), [("src/pool.rs".into(), Some(42))]);
        assert_eq!(s[1].text, "called `Option::unwrap()` on a `None` value");
        assert_eq!(
            files(&s[1]),
            [
                ("src/main.rs".into(), Some(5)),
                ("./src/run.rs".into(), Some(10))
            ]
        );
        assert_eq!(s[1].frames[1].function.as_deref(), Some("app::run"));
    }

    #[test]
    fn a_traceback_pasted_below_its_message_or_cut_off_keeps_its_frames() {
        let below = "JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n  File \"bot.py\", line 640, in crawl\n    response_json = json.loads(response.content)\n  File \"json/decoder.py\", line 357, in raw_decode\n    raise JSONDecodeError(\"Expecting value\", s, err.value) from None";
        let s = group(below);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(
            files(&s[0]),
            [
                ("json/decoder.py".to_owned(), Some(357)),
                ("bot.py".to_owned(), Some(640))
            ]
        );
        let cut = "Traceback (most recent call last):\n  File \"/usr/lib/python3.9/json/decoder.py\", line 355, in raw_decode\n    raise JSONDecodeError(\"Expecting value\", ";
        let s = group(cut);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].text, "");
        assert_eq!(files(&s[0])[0].1, Some(355));
    }

    #[test]
    fn frames_behind_a_tools_tag_are_frames() {
        let s = group("[junit] Comparison method violates its general contract!\n[junit] \tat java.util.TimSort.mergeHi(TimSort.java:868)\n[junit] \tat java.util.TimSort.sort(TimSort.java:223)\n[junit] Tests run: 3");
        assert_eq!(
            s[0].text,
            "[junit] Comparison method violates its general contract!"
        );
        assert_eq!(
            files(&s[0])[0],
            ("java/util/TimSort.java".to_owned(), Some(868))
        );
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn a_java_trace_on_one_line_gives_its_message_and_frames() {
        let segs = segments("java.lang.IndexOutOfBoundsException: Index 0 out of bounds for length 0 at java.base/jdk.internal.util.Preconditions.outOfBounds(Preconditions.java:64) at java.base/java.util.Objects.checkIndex(Objects.java:359)");
        assert_eq!(segs.len(), 1, "{segs:?}");
        assert_eq!(
            segs[0].text,
            "java.lang.IndexOutOfBoundsException: Index 0 out of bounds for length 0"
        );
        assert_eq!(segs[0].frames.len(), 2, "{segs:?}");
        assert!(segs[0].frames[0].file.ends_with("Preconditions.java"));
        assert_eq!(segs[0].frames[0].line, Some(64));
        // A frame line as Java prints it is left as it is.
        let segs = segments("java.lang.X: boom\n\tat a.B.c(B.java:3)");
        assert_eq!(segs[0].frames.len(), 1, "{segs:?}");
    }

    #[test]
    fn an_ipython_traceback_gives_its_frames_innermost_first() {
        let s = group("File ~/env/lib/python3.8/concurrent/futures/_base.py:444, in Future.result(self, timeout)\n    442     raise CancelledError()\n--> 444     return self.__get_result()\nFile C:\\Python313\\Lib\\urllib\\request.py:613, in HTTPDefaultErrorHandler.http_error_default(self, req)\n    [612](file:///C:/Python313/Lib/urllib/request.py:612) def http_error_default(self, req):\n--> [613](file:///C:/Python313/Lib/urllib/request.py:613)     raise HTTPError(req.full_url)\n\nHTTPError: HTTP Error 403: Forbidden");
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].text, "HTTPError: HTTP Error 403: Forbidden");
        let frames: Vec<(&str, Option<u32>)> = s[0]
            .frames
            .iter()
            .map(|f| (f.file.as_str(), f.line))
            .collect();
        assert_eq!(
            frames,
            [
                ("C:\\Python313\\Lib\\urllib\\request.py", Some(613)),
                ("~/env/lib/python3.8/concurrent/futures/_base.py", Some(444))
            ]
        );
        assert_eq!(
            function_name(s[0].frames[0].function.as_deref().unwrap()),
            "http_error_default"
        );
    }

    #[test]
    fn plain_lines_are_their_own_segments() {
        let s = group("a\nb\n\nc");
        let texts: Vec<&str> = s.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["a", "b", "c"]);
        assert_eq!(s[2].line, 4);
    }

    #[test]
    fn files_match_by_whole_components() {
        assert!(same_file(
            "/usr/lib/python3.11/json/decoder.py",
            "json/decoder.py"
        ));
        assert!(same_file("src/main.rs", "crates/app/src/main.rs"));
        assert!(same_file("./src/run.rs", "src/run.rs"));
        assert!(!same_file("/x/myjson/decoder.py", "json/decoder.py"));
        assert!(same_file(
            "/usr/lib/python3.11/json/decoder.py",
            "Lib/json/decoder.py"
        ));
        assert!(same_file("Main.java", "src/main/java/com/acme/Main.java"));
        assert!(!same_file(
            "/usr/lib/python3.11/json/decoder.py",
            "Lib/yaml/decoder.py"
        ));
        assert!(!same_file("", "a.py"));
        // A module at the top of the standard library, of another release.
        assert!(same_file(
            "/usr/lib/python3.7/configparser.py",
            "versions/3.11.7/lib/python3.11/configparser.py"
        ));
        assert!(!same_file("api/v1/handler.go", "api/v2/handler.go"));
        // A panic of the crate that ran, not of a dependency installed beside others.
        assert!(!same_file(
            "src\\lib.rs",
            "index.crates.io-1949/httparse-1.10.1/src/lib.rs"
        ));
        assert!(same_file(
            "/home/u/.cargo/registry/src/index.crates.io-6f17/httparse-1.8.0/src/lib.rs",
            "index.crates.io-1949/httparse-1.10.1/src/lib.rs"
        ));
        assert!(!same_file(
            "/usr/lib/python3.7/x.py",
            "/usr/lib/perl5.3/x.py"
        ));
    }
}
