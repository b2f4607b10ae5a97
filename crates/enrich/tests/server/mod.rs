//! A chat-completions server for tests: it listens on 127.0.0.1, answers one scripted
//! [`Reply`] per request in the order the requests arrive, each on its own connection and
//! thread (so that a slow reply does not hold up the client's retry), and records the
//! requests. It stops accepting once every reply is taken.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

#[derive(Debug, Clone)]
pub(crate) struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
    delay: Duration,
}

impl Reply {
    /// A 200 chat completion whose message content is `content`.
    pub(crate) fn completion(content: &str) -> Reply {
        let body = serde_json::json!({
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "model": "qwen-test",
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop"
            }]
        });
        Reply::status(200, &body.to_string())
    }

    pub(crate) fn status(status: u16, body: &str) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            body: body.to_owned(),
            delay: Duration::ZERO,
        }
    }

    pub(crate) fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// The same reply, sent only after `delay`.
    pub(crate) fn after(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

/// One request as the server read it.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) method: String,
    pub(crate) path: String,
    /// Names lower-cased.
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: serde_json::Value,
}

impl Request {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

pub(crate) struct Server {
    addr: std::net::SocketAddr,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    pub(crate) fn start(replies: Vec<Reply>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let count = replies.len();
        let script = Arc::new(Mutex::new(VecDeque::from(replies)));
        let recorded = Arc::clone(&requests);
        thread::spawn(move || {
            for stream in listener.incoming().take(count) {
                let Ok(stream) = stream else { continue };
                let script = Arc::clone(&script);
                let recorded = Arc::clone(&recorded);
                thread::spawn(move || serve(stream, &script, &recorded));
            }
        });
        Server { addr, requests }
    }

    /// The base URL, ending in `/v1`.
    pub(crate) fn url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    pub(crate) fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, script: &Mutex<VecDeque<Reply>>, recorded: &Mutex<Vec<Request>>) {
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut reader = BufReader::new(&stream);
    let Some(request) = read_request(&mut reader) else {
        return;
    };
    // Take the reply and record the request together, so that both follow arrival order.
    let reply = {
        let mut recorded = recorded.lock().unwrap();
        recorded.push(request);
        script.lock().unwrap().pop_front()
    };
    let reply = reply.unwrap_or_else(|| Reply::status(599, "no reply scripted"));
    thread::sleep(reply.delay);
    let mut head = format!(
        "HTTP/1.1 {} Scripted\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        reply.status,
        reply.body.len()
    );
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut stream = &stream;
    // The client may have given up on a delayed reply: a failed write is expected then.
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(reply.body.as_bytes()));
}

fn read_request(reader: &mut impl BufRead) -> Option<Request> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map_or(Some(0), |(_, v)| v.parse().ok())?;
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let body = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}
