//! `errata scan [FILE...]`: reads logs (stdin by default), annotates each line that matches a
//! record, and ends with a summary per record.
//!
//! Memory stays bounded whatever the input: lines are read one at a time, a line longer than
//! [`MAX_LINE`] keeps only its start, a stack trace keeps at most a fixed number of frames, and
//! the summary has one row per matched record.
//!
//! Three stages overlap: a thread reads lines and groups them into batches, a thread has each
//! batch matched on every core (rayon), and the calling thread writes out the matched batches
//! in order. A fixed pool of batches goes round, so their buffers are allocated once.
//!
//! Standard input may be a live log (`tail -f app.log | errata scan`): it is read on a thread
//! of its own ([`Live`]), and when its writer pauses for [`IDLE`], or a batch has waited
//! [`BATCH_AGE`] for more lines, what has been read is matched and written out at once, rather
//! than when a batch fills.

use std::collections::HashMap;
use std::io::{self, BufRead, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use errata_matcher::{Grouper, Hit, Matcher, Query, Segment};
use serde::Serialize;

use crate::{db, Failure, Global};

/// The most bytes kept of one line.
const MAX_LINE: usize = 1 << 20;

/// Rows of the summary table printed on a terminal.
const SUMMARY_ROWS: usize = 30;

#[derive(Debug, clap::Args)]
pub(crate) struct ScanArgs {
    /// Log files to read (default: stdin; `-` is stdin too).
    files: Vec<PathBuf>,
    /// Exit with status 1 when any line matched a record (for CI jobs).
    #[arg(long)]
    fail_on_match: bool,
    /// Records named per matched line.
    #[arg(long, short = 'n', default_value_t = 3)]
    limit: usize,
    /// Print only the matched lines and the summary, not every line of the input.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(Serialize)]
struct JsonLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    line: u64,
    text: &'a str,
    matches: Vec<JsonMatch<'a>>,
}

#[derive(Serialize)]
struct JsonMatch<'a> {
    id: &'a str,
    slug: &'a str,
    score: f64,
    exact: bool,
}

/// Counts per record.
#[derive(Default)]
struct Tally {
    count: u64,
    first: (usize, u64),
    last: (usize, u64),
}

struct Scan<'m, W: Write> {
    matcher: &'m Matcher,
    out: W,
    json: bool,
    echo: bool,
    color: bool,
    limit: usize,
    names: Vec<String>,
    file: usize,
    lines: u64,
    matched_lines: u64,
    tally: HashMap<usize, Tally>,
}

pub(crate) fn run(g: &Global, args: ScanArgs) -> Result<()> {
    let store = db::for_reading(g)?;
    let matcher = super::lookup::load(&store)?;
    drop(store);
    let files: Vec<Option<PathBuf>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files
            .iter()
            .map(|f| (f.as_os_str() != "-").then(|| f.clone()))
            .collect()
    };
    let stdout = io::stdout();
    let color = !g.json && stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut scan = Scan {
        matcher: &matcher,
        out: BufWriter::with_capacity(64 * 1024, stdout.lock()),
        json: g.json,
        echo: !g.json && !args.quiet,
        color,
        limit: args.limit.max(1),
        names: files
            .iter()
            .map(|f| {
                f.as_ref()
                    .map_or("<stdin>".into(), |p| p.display().to_string())
            })
            .collect(),
        file: 0,
        lines: 0,
        matched_lines: 0,
        tally: HashMap::new(),
    };
    let several = files.len() > 1;
    let echo = scan.echo;
    let unreadable = std::thread::scope(|threads| -> Result<usize> {
        let (tx, rx) = crossbeam_channel::bounded::<Batch>(READ_AHEAD);
        // Batches go back to the reader once matched (see `Pool`).
        let (done_tx, done_rx) = crossbeam_channel::bounded::<Batch>(POOL_BATCHES);
        let pool = Pool {
            done: done_rx,
            made: 0,
        };
        let reader = threads.spawn(|| read_all(&files, echo, tx, pool));
        // Matching a batch (on every core) overlaps writing out the one before.
        let (matched_tx, matched_rx) = crossbeam_channel::bounded::<Batch>(MATCHED_AHEAD);
        let (matcher, limit, captures) = (scan.matcher, scan.limit, !scan.json);
        threads.spawn(move || {
            for mut batch in rx {
                batch.find(matcher, limit, captures);
                if matched_tx.send(batch).is_err() {
                    break;
                }
            }
        });
        for batch in matched_rx {
            scan.write(&batch, several)?;
            // A batch flushed early is a live input's: show it now.
            if batch.early {
                scan.out.flush()?;
            }
            let _ = done_tx.try_send(batch);
        }
        Ok(reader.join().expect("the reader thread does not panic"))
    })?;
    scan.out.flush()?;
    let matched_lines = scan.matched_lines;
    scan.summary()?;
    if unreadable == files.len() {
        return Err(Failure::Usage("no input could be read".into()).into());
    }
    if args.fail_on_match && matched_lines > 0 {
        return Err(Failure::Matched(format!(
            "{matched_lines} lines matched records (--fail-on-match)"
        ))
        .into());
    }
    Ok(())
}

/// Lines read, grouped, ready to match: the unit of work handed from the reading thread to the
/// matching threads.
struct Batch {
    file: usize,
    /// Echoed lines, end to end, when every line is printed.
    text: String,
    items: Vec<Item>,
    segments: Vec<Segment>,
    /// Each segment's matches, once matched.
    hits: Vec<Vec<Hit>>,
    lines: u64,
    /// Bytes of text held.
    bytes: usize,
    /// Why the file could not be read (to the end), when it could not.
    error: Option<io::Error>,
    /// Sent before it was full, because a live input paused or was slow.
    early: bool,
}

enum Item {
    /// A line to echo: its end in `Batch::text`.
    Line(usize),
    /// The segment completed here.
    Segment(usize),
}

/// Flush a batch at this many lines or bytes: large enough to spread over threads, small enough
/// to bound memory.
const BATCH_LINES: u64 = 8192;
const BATCH_BYTES: usize = 4 << 20;

impl Batch {
    fn new(file: usize) -> Batch {
        Batch {
            file,
            text: String::new(),
            items: Vec::new(),
            segments: Vec::new(),
            hits: Vec::new(),
            lines: 0,
            bytes: 0,
            error: None,
            early: false,
        }
    }

    fn is_full(&self) -> bool {
        self.lines >= BATCH_LINES || self.bytes >= BATCH_BYTES
    }

    fn clear(&mut self, file: usize, grouper: &mut Grouper) {
        for seg in self.segments.drain(..) {
            grouper.recycle(seg);
        }
        self.file = file;
        self.text.clear();
        self.items.clear();
        self.lines = 0;
        self.bytes = 0;
        self.error = None;
        self.early = false;
    }

    /// Matches every segment, on every core; the placeholders' values only when they are
    /// shown.
    fn find(&mut self, matcher: &Matcher, limit: usize, captures: bool) {
        use rayon::prelude::*;
        self.segments
            .par_iter()
            .with_min_len(256)
            .map(|seg| {
                let query = Query {
                    text: &seg.text,
                    frames: &seg.frames,
                };
                if captures {
                    matcher.find(query, limit)
                } else {
                    matcher.find_ranked(query, limit)
                }
            })
            .collect_into_vec(&mut self.hits);
    }

    fn push_segment(&mut self, seg: Segment) {
        self.bytes += seg.text.len();
        self.items.push(Item::Segment(self.segments.len()));
        self.segments.push(seg);
    }
}

/// The batches in use: a fixed number go round between the reader and the matcher, so that
/// their buffers, and the segments' (through the grouper), are allocated once, not per line.
struct Pool {
    done: crossbeam_channel::Receiver<Batch>,
    made: usize,
}

/// Enough for the channels to be full while a batch is filled, one matched and one written.
const POOL_BATCHES: usize = READ_AHEAD + MATCHED_AHEAD + 3;
/// Batches read and not yet matched, and matched and not yet written.
const READ_AHEAD: usize = 4;
const MATCHED_AHEAD: usize = 2;

impl Pool {
    /// An empty batch for `file`: a matched one once the pool is made, else a new one.
    fn next(&mut self, file: usize, grouper: &mut Grouper) -> Batch {
        let used = if self.made < POOL_BATCHES {
            self.done.try_recv().ok()
        } else {
            self.done.recv().ok()
        };
        match used {
            Some(mut b) => {
                b.clear(file, grouper);
                b
            }
            None => {
                self.made += 1;
                Batch::new(file)
            }
        }
    }
}

/// Reads every input in turn, sending batches; returns how many inputs could not be read.
fn read_all(
    files: &[Option<PathBuf>],
    echo: bool,
    tx: crossbeam_channel::Sender<Batch>,
    mut pool: Pool,
) -> usize {
    let mut unreadable = 0;
    for (i, f) in files.iter().enumerate() {
        let result = match f {
            None => read_one(i, Live::stdin(), echo, &tx, &mut pool),
            Some(p) => match std::fs::File::open(p) {
                Ok(file) => read_one(
                    i,
                    io::BufReader::with_capacity(256 * 1024, file),
                    echo,
                    &tx,
                    &mut pool,
                ),
                Err(e) => Err(e),
            },
        };
        match result {
            Ok(true) => {}
            Ok(false) => return unreadable, // the consumer stopped
            Err(e) => {
                unreadable += 1;
                let mut b = Batch::new(i);
                b.error = Some(e);
                if tx.send(b).is_err() {
                    return unreadable;
                }
            }
        }
    }
    unreadable
}

/// Reads one input; false when the consumer has stopped listening.
fn read_one(
    file: usize,
    mut input: impl Input,
    echo: bool,
    tx: &crossbeam_channel::Sender<Batch>,
    pool: &mut Pool,
) -> io::Result<bool> {
    let mut grouper = Grouper::new();
    let mut buf = Vec::with_capacity(4096);
    let mut n = 0u64;
    let mut batch = pool.next(file, &mut grouper);
    let mut started = Instant::now();
    loop {
        if batch.lines > 0 || grouper.holds_message() {
            let early = match input.pause() {
                // The writer paused: a message still waiting for its trace has none coming.
                Pause::Idle => {
                    if let Some(seg) = grouper.finish() {
                        batch.push_segment(seg);
                    }
                    true
                }
                Pause::Waiting => batch.lines > 0 && started.elapsed() >= BATCH_AGE,
                Pause::No => false,
            };
            if early {
                batch.early = true;
                let next = pool.next(file, &mut grouper);
                if tx.send(std::mem::replace(&mut batch, next)).is_err() {
                    return Ok(false);
                }
            }
        }
        if batch.lines == 0 {
            started = Instant::now();
        }
        if !next_line(&mut input, &mut buf)? {
            break;
        }
        n += 1;
        batch.lines += 1;
        let text = match std::str::from_utf8(&buf) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => String::from_utf8_lossy(&buf),
        };
        // The annotation of a segment goes under its last line: a segment the grouper
        // completes here ended on the line before this one (a message, or the last frame of its
        // trace), unless this line is its message (a Python traceback's last line).
        let (before, after) = match grouper.push(n, &text) {
            Some(seg) if seg.line == n => (None, Some(seg)),
            done => (done, None),
        };
        if let Some(seg) = before {
            batch.push_segment(seg);
        }
        if echo {
            batch.bytes += text.len();
            batch.text.push_str(&text);
            batch.items.push(Item::Line(batch.text.len()));
        }
        if let Some(seg) = after {
            batch.push_segment(seg);
        }
        if batch.is_full() {
            let next = pool.next(file, &mut grouper);
            if tx.send(std::mem::replace(&mut batch, next)).is_err() {
                return Ok(false);
            }
        }
    }
    if let Some(seg) = grouper.finish() {
        batch.push_segment(seg);
    }
    Ok(tx.send(batch).is_ok())
}

impl<W: Write> Scan<'_, W> {
    /// Writes out a matched batch.
    fn write(&mut self, batch: &Batch, several: bool) -> io::Result<()> {
        self.file = batch.file;
        self.lines += batch.lines;
        let name = several.then(|| self.names[batch.file].clone());
        let mut start = 0;
        for item in &batch.items {
            match *item {
                Item::Line(end) => {
                    self.out.write_all(&batch.text.as_bytes()[start..end])?;
                    self.out.write_all(b"\n")?;
                    start = end;
                }
                Item::Segment(i) => {
                    self.segment(&batch.segments[i], &batch.hits[i], name.as_deref())?;
                }
            }
        }
        if let Some(e) = &batch.error {
            eprintln!(
                "errata: cannot read {}: {e}; skipped",
                self.names[batch.file]
            );
        }
        Ok(())
    }

    fn segment(&mut self, seg: &Segment, hits: &[Hit], file: Option<&str>) -> io::Result<()> {
        if hits.is_empty() {
            return Ok(());
        }
        self.matched_lines += 1;
        // A line counts once, for the record it is best explained by: the others named after
        // it are alternatives, not errors that happened too.
        let t = self.tally.entry(hits[0].entry).or_insert_with(|| Tally {
            first: (self.file, seg.line),
            ..Tally::default()
        });
        t.count += 1;
        t.last = (self.file, seg.line);
        if self.json {
            let line = JsonLine {
                file,
                line: seg.line,
                text: &seg.text,
                matches: hits.iter().map(|h| json_match(self.matcher, h)).collect(),
            };
            serde_json::to_writer(&mut self.out, &line)?;
            self.out.write_all(b"\n")?;
        } else {
            if !self.echo {
                let prefix = file.map(|f| format!("{f}:")).unwrap_or_default();
                writeln!(self.out, "{prefix}{}: {}", seg.line, seg.text)?;
            }
            let best = &hits[0];
            let e = &self.matcher.entries()[best.entry];
            let how = if best.exact { "exact" } else { "partial" };
            let (on, off) = if self.color {
                ("\x1b[36m", "\x1b[0m")
            } else {
                ("", "")
            };
            let values: Vec<String> = best
                .captures
                .iter()
                .map(|c| format!("{}={:?}", c.name, c.value))
                .collect();
            let more = match hits.len() {
                1 => String::new(),
                n => format!(" (+{} more)", n - 1),
            };
            writeln!(
                self.out,
                "{on}  ↳ errata: line {} is {} ({}:{}, {how} {:.2}){}{more}{off}",
                seg.line,
                e.id,
                e.file_path,
                e.line_number,
                best.score,
                if values.is_empty() {
                    String::new()
                } else {
                    format!(" {}", values.join(" "))
                },
            )?;
        }
        Ok(())
    }

    fn summary(&mut self) -> io::Result<()> {
        let mut rows: Vec<(&usize, &Tally)> = self.tally.iter().collect();
        rows.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.1.first.cmp(&b.1.first)));
        // The summary goes with the annotations on a terminal, and to stderr beside JSON.
        let mut err = io::stderr().lock();
        let out: &mut dyn Write = if self.json { &mut err } else { &mut self.out };
        writeln!(
            out,
            "\nerrata scan: {} lines read, {} matched, {} distinct records",
            self.lines,
            self.matched_lines,
            rows.len()
        )?;
        if rows.is_empty() {
            return out.flush();
        }
        writeln!(
            out,
            "{:>8}  {:>10}  {:>10}  record",
            "count", "first", "last"
        )?;
        for (entry, t) in rows.iter().take(SUMMARY_ROWS) {
            let e = &self.matcher.entries()[**entry];
            let at = |(f, l): (usize, u64)| {
                if self.names.len() > 1 {
                    format!("{}:{l}", f + 1)
                } else {
                    l.to_string()
                }
            };
            writeln!(
                out,
                "{:>8}  {:>10}  {:>10}  {} {}:{}  {}",
                t.count,
                at(t.first),
                at(t.last),
                e.id,
                e.file_path,
                e.line_number,
                e.slug
            )?;
        }
        if rows.len() > SUMMARY_ROWS {
            writeln!(out, "  … and {} more records", rows.len() - SUMMARY_ROWS)?;
        }
        out.flush()
    }
}

fn json_match<'m>(matcher: &'m Matcher, h: &Hit) -> JsonMatch<'m> {
    let e = &matcher.entries()[h.entry];
    JsonMatch {
        id: &e.id,
        slug: &e.slug,
        score: h.score,
        exact: h.exact,
    }
}

/// How long a live input's writer must pause for what has been read to be shown.
const IDLE: Duration = Duration::from_millis(100);

/// How long a batch of a live input that keeps writing waits for more lines.
const BATCH_AGE: Duration = Duration::from_millis(250);

/// An input read line by line, which may say that its writer has paused.
trait Input: BufRead {
    /// Whether the next read would wait for the writer; asked between lines.
    fn pause(&mut self) -> Pause {
        Pause::No
    }
}

enum Pause {
    /// The next line is read without waiting (a file, or data already read).
    No,
    /// The next read has to wait for the writer, which is still writing.
    Waiting,
    /// The writer has written nothing for [`IDLE`].
    Idle,
}

impl<R: Read> Input for io::BufReader<R> {}

/// Standard input, read on a thread of its own in chunks as they come, so that the reader can
/// tell when its writer pauses.
struct Live {
    chunks: crossbeam_channel::Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
    /// A read error, returned by the next read.
    error: Option<io::Error>,
    end: bool,
}

impl Live {
    fn stdin() -> Live {
        let (tx, rx) = crossbeam_channel::bounded(16);
        std::thread::spawn(move || {
            let mut stdin = io::stdin().lock();
            // Each chunk is as long as what one read returned: a live log's are short.
            let mut buf = vec![0u8; 256 * 1024];
            loop {
                match stdin.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        if tx.send(Ok(buf[..n].to_vec())).is_err() {
                            break;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        break;
                    }
                }
            }
        });
        Live {
            chunks: rx,
            chunk: Vec::new(),
            at: 0,
            error: None,
            end: false,
        }
    }

    /// Takes the next chunk, or a read error, or the end of the input (`None`).
    fn take(&mut self, next: Option<io::Result<Vec<u8>>>) {
        match next {
            Some(Ok(chunk)) => {
                self.chunk = chunk;
                self.at = 0;
            }
            Some(Err(e)) => self.error = Some(e),
            None => self.end = true,
        }
    }
}

impl Read for Live {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Live {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at == self.chunk.len() && !self.end && self.error.is_none() {
            let next = self.chunks.recv().ok();
            self.take(next);
        }
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        Ok(&self.chunk[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at += n;
    }
}

impl Input for Live {
    fn pause(&mut self) -> Pause {
        if self.at < self.chunk.len() || self.end || self.error.is_some() {
            return Pause::No;
        }
        if let Ok(next) = self.chunks.try_recv() {
            self.take(Some(next));
            return Pause::No;
        }
        match self.chunks.recv_timeout(IDLE) {
            Ok(next) => {
                self.take(Some(next));
                Pause::Waiting
            }
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => Pause::Idle,
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                self.end = true;
                Pause::No
            }
        }
    }
}

/// Reads the next line into `buf` without its newline, keeping at most [`MAX_LINE`] bytes of
/// it. Returns false at the end of the input.
fn next_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<bool> {
    buf.clear();
    let mut any = false;
    loop {
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(any);
        }
        any = true;
        let room = MAX_LINE.saturating_sub(buf.len());
        match memchr::memchr(b'\n', avail) {
            Some(i) => {
                buf.extend_from_slice(&avail[..i.min(room)]);
                input.consume(i + 1);
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                return Ok(true);
            }
            None => {
                let n = avail.len();
                buf.extend_from_slice(&avail[..n.min(room)]);
                input.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_whole_or_cut_at_the_bound() {
        let long = "x".repeat(MAX_LINE + 10);
        let data = format!("a\r\n\nb\n{long}\nc");
        let mut input = io::BufReader::with_capacity(7, data.as_bytes());
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        while next_line(&mut input, &mut buf).unwrap() {
            lines.push(buf.len());
        }
        assert_eq!(lines, [1, 0, 1, MAX_LINE, 1]);
    }
}
