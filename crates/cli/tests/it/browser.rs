//! The web pages in a real browser: headless Chromium (Debian's `chromium`, installed by
//! scripts/test) loads each page from `errata serve`, and the test reads the DOM it built and
//! keeps a screenshot of each page in target/test-artifacts/. The pages need no JavaScript;
//! what the browser adds is that it runs any script a page carries, so a message that tries to
//! inject one is caught doing so.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use crate::util::{errata_cmd, Scratch};

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let out = Command::new("which").arg(name).output().ok()?;
            out.status
                .success()
                .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
        })
}

struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(s: &Scratch) -> Server {
    let mut child = errata_cmd()
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(s.db())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = format!(
        "http://{}",
        line.split("http://")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
    );
    Server { child, base }
}

/// Loads `url` in headless Chromium: the DOM after the page ran, and a screenshot.
fn browse(browser: &PathBuf, url: &str, shot: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../test-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    let flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
    ];
    let shot_path = dir.join(format!("{shot}.png"));
    let status = Command::new(browser)
        .args(flags)
        .arg(format!("--screenshot={}", shot_path.display()))
        .arg("--window-size=1200,900")
        .arg(url)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "chromium could not screenshot {url}");
    assert!(std::fs::metadata(&shot_path).unwrap().len() > 1000);
    let out = Command::new(browser)
        .args(flags)
        .arg("--dump-dom")
        .arg(url)
        .stderr(Stdio::null())
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn query(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            b => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn search_open_a_record_and_paste_a_stack_trace_in_a_browser() {
    let Some(browser) = chromium() else {
        eprintln!(
            "chromium is not installed here; browser test skipped (scripts/test installs it)"
        );
        return;
    };
    let s = crate::lookup::twin_tree();
    let server = serve(&s);
    let dom = browse(&browser, &format!("{}/?q=lease", server.base), "search");
    assert!(dom.contains("lease {} was already released"), "{dom}");
    let start = dom.find("href=\"/errors/").unwrap() + "href=\"/errors/".len();
    let id = dom[start..start + 16].to_owned();
    let dom = browse(&browser, &format!("{}/errors/{id}", server.base), "record");
    assert!(
        dom.contains("class=\"raise\""),
        "the raising line is marked: {dom}"
    );
    let trace = "Traceback (most recent call last):\n  File \"/srv/py/pkg/b.py\", line 12, in load\nValueError: no such lease: x\n";
    let dom = browse(
        &browser,
        &format!("{}/match?text={}", server.base, query(trace)),
        "paste",
    );
    assert!(dom.contains("py/pkg/b.py"), "{dom}");
    assert!(dom.contains("exact, score"), "{dom}");
}

#[test]
fn a_hostile_message_stays_inert_in_a_browser() {
    let Some(browser) = chromium() else {
        eprintln!(
            "chromium is not installed here; browser test skipped (scripts/test installs it)"
        );
        return;
    };
    let s = Scratch::new();
    s.write(
        "app.js",
        "function f() {\n  throw new Error(\"</script><script>document.body.setAttribute('data-pwned', 'yes')</script><img src=x onerror=\\\"document.title='pwned'\\\">\");\n}\n",
    );
    s.ok(&["index", ".", "--repo", "evil/site"]);
    let server = serve(&s);
    let dom = browse(&browser, &format!("{}/?q=pwned", server.base), "xss-search");
    let start = dom.find("href=\"/errors/").unwrap() + "href=\"/errors/".len();
    let id = dom[start..start + 16].to_owned();
    for (url, shot) in [
        (format!("{}/?q=pwned", server.base), "xss-search"),
        (format!("{}/errors/{id}", server.base), "xss-record"),
        (
            format!("{}/match?text={}", server.base, query("Error: </script><script>document.body.setAttribute('data-pwned', 'yes')</script>")),
            "xss-paste",
        ),
    ] {
        let dom = browse(&browser, &url, shot);
        assert!(!dom.contains("data-pwned=\"yes\""), "a script ran on {url}");
        assert!(!dom.contains("<title>pwned"), "an event handler ran on {url}");
        assert!(dom.contains("&lt;/script&gt;&lt;script&gt;"), "the message is shown as text on {url}");
    }
}
