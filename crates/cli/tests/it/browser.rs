//! The web pages in a real browser: headless Chromium driven over WebDriver (Debian's
//! `chromium` and `chromium-driver`, installed by scripts/test), as a user would use them:
//! typing into the search box and the paste form, following a result's link. Each test reads
//! the DOM the browser built and keeps a screenshot of each page in target/test-artifacts/.
//! The pages need no JavaScript; what the browser adds is that it runs any script a page
//! carries, so a message that tries to inject one is caught doing so.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use base64::Engine;
use serde_json::{json, Value};

use crate::util::{errata_cmd, Scratch};

fn which(names: &[&str]) -> Option<PathBuf> {
    names.iter().find_map(|name| {
        let out = Command::new("which").arg(name).output().ok()?;
        out.status
            .success()
            .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
    })
}

/// A Chromium session driven through chromedriver's W3C WebDriver endpoints.
struct Browser {
    driver: Child,
    agent: ureq::Agent,
    session: String,
}

/// The key WebDriver sends for Enter.
const ENTER: &str = "\u{E007}";

impl Browser {
    /// A headless Chromium, or `None` (with a note) where Chromium or chromedriver is missing.
    fn start() -> Option<Browser> {
        let (Some(chromium), Some(chromedriver)) = (
            which(&["chromium", "chromium-browser", "google-chrome"]),
            which(&["chromedriver"]),
        ) else {
            eprintln!("chromium or chromedriver is not installed here; browser test skipped (scripts/test installs them)");
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let ready = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(100));
            agent.get(format!("{base}/status")).call().is_ok()
        });
        assert!(ready, "chromedriver did not start on port {port}");
        let mut browser = Browser {
            driver,
            agent,
            session: base,
        };
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1200,900"],
            },
        }}});
        let v = browser.command("POST", "/session", Some(caps));
        let id = v["sessionId"].as_str().expect("a session").to_owned();
        browser.session = format!("{}/session/{id}", browser.session);
        Some(browser)
    }

    /// Sends one WebDriver command (`path` is under the session, or `/session` itself) and
    /// returns its `value`.
    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.session);
        let mut response = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self
                .agent
                .post(&url)
                .header("content-type", "application/json")
                .send(body.unwrap_or_else(|| json!({})).to_string()),
        }
        .unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"));
        let status = response.status();
        let text = response.body_mut().read_to_string().unwrap();
        assert!(
            status.is_success(),
            "WebDriver {method} {path}: {status} {text}"
        );
        let v: Value = serde_json::from_str(&text).unwrap();
        v["value"].clone()
    }

    fn open(&self, url: &str) {
        self.command("POST", "/url", Some(json!({ "url": url })));
    }

    /// The element `css` selects: its WebDriver id.
    fn find(&self, css: &str) -> String {
        let v = self.command(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_owned()
    }

    fn type_into(&self, css: &str, text: &str) {
        let el = self.find(css);
        self.command(
            "POST",
            &format!("/element/{el}/value"),
            Some(json!({ "text": text })),
        );
    }

    fn click(&self, css: &str) {
        let el = self.find(css);
        self.command("POST", &format!("/element/{el}/click"), None);
    }

    /// The DOM as the browser has it now.
    fn dom(&self) -> String {
        self.command("GET", "/source", None)
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// Waits (up to 10 s) until the page says `condition` (a JavaScript expression) holds:
    /// a form's submission navigates after WebDriver has answered.
    fn wait_until(&self, condition: &str) {
        let js = format!("return document.readyState === 'complete' && !!({condition})");
        let held = (0..100).any(|_| {
            if self.script(&js) == json!(true) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(100));
            false
        });
        assert!(held, "the page never had {condition}: {}", self.dom());
    }

    fn script(&self, js: &str) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({"script": js, "args": []})),
        )
    }

    /// Saves a screenshot of the page as target/test-artifacts/NAME.png.
    fn screenshot(&self, name: &str) {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../test-artifacts");
        std::fs::create_dir_all(&dir).unwrap();
        let png = base64::engine::general_purpose::STANDARD
            .decode(self.command("GET", "/screenshot", None).as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG") && png.len() > 1000);
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if self.session.contains("/session/") {
            let _ = self.agent.delete(&self.session).call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
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

#[test]
fn search_open_a_record_and_paste_a_stack_trace_in_a_browser() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let s = crate::lookup::twin_tree();
    let server = serve(&s);
    browser.open(&format!("{}/", server.base));
    browser.type_into("form.search input[name=q]", &format!("lease{ENTER}"));
    browser.wait_until("location.search.includes('q=lease')");
    let dom = browser.dom();
    assert!(dom.contains("lease {} was already released"), "{dom}");
    browser.screenshot("search");

    browser.click("a[href^='/errors/']");
    browser.wait_until("location.pathname.startsWith('/errors/')");
    let dom = browser.dom();
    assert!(
        dom.contains("class=\"raise\""),
        "the raising line is marked: {dom}"
    );
    browser.screenshot("record");

    browser.open(&format!("{}/match", server.base));
    let trace = "Traceback (most recent call last):\n  File \"/srv/py/pkg/b.py\", line 12, in load\nValueError: no such lease: x\n";
    browser.type_into("textarea[name=text]", trace);
    browser.click("form[action='/match'] button");
    // The typed text is in the textarea before the form is sent: wait for the answer's list.
    browser.wait_until("document.querySelector('ol.matches') !== null");
    let dom = browser.dom();
    assert!(dom.contains("py/pkg/b.py"), "{dom}");
    assert!(dom.contains("exact, score"), "{dom}");
    browser.screenshot("paste");
}

#[test]
fn a_hostile_message_stays_inert_in_a_browser() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let s = Scratch::new();
    let hostile = "</script><script>document.body.setAttribute('data-pwned', 'yes')</script><img src=x onerror=\\\"document.title='pwned'\\\">";
    s.write(
        "app.js",
        format!("function f() {{\n  throw new Error(\"{hostile}\");\n}}\n"),
    );
    s.ok(&["index", ".", "--repo", "evil/site"]);
    let server = serve(&s);
    let inert = |page: &str| {
        let dom = browser.dom();
        assert_eq!(
            browser.script("return document.body.getAttribute('data-pwned')"),
            Value::Null,
            "a script ran on the {page} page"
        );
        assert_ne!(
            browser.script("return document.title"),
            json!("pwned"),
            "an event handler ran on the {page} page"
        );
        assert!(
            dom.contains("&lt;/script&gt;&lt;script&gt;"),
            "the message is shown as text on the {page} page: {dom}"
        );
        browser.screenshot(&format!("xss-{page}"));
    };
    browser.open(&format!("{}/", server.base));
    browser.type_into("form.search input[name=q]", &format!("pwned{ENTER}"));
    browser.wait_until("location.search.includes('q=pwned')");
    inert("search");
    browser.click("a[href^='/errors/']");
    browser.wait_until("location.pathname.startsWith('/errors/')");
    inert("record");
    browser.open(&format!("{}/match", server.base));
    browser.type_into(
        "textarea[name=text]",
        "Error: </script><script>document.body.setAttribute('data-pwned', 'yes')</script>",
    );
    // The typed text is in the textarea before the form is sent too: wait for the page that
    // answers it, which does not have the mark set on this one.
    browser.script("window.errataBefore = true; return null");
    browser.click("form[action='/match'] button");
    browser.wait_until(
        "!window.errataBefore && document.readyState === 'complete' && document.querySelector('textarea').value.includes('data-pwned')",
    );
    inert("paste");
}
