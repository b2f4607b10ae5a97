//! `errata mcp`: a Model Context Protocol server on stdio, for coding agents.
//!
//! Three tools, each answered from the matcher and the store held in memory, in milliseconds:
//!
//! - `explain_error {text, limit?}`: the records that produced an error message, log excerpt or
//!   stack trace, ranked, with the values captured (the answer of `errata explain --json`);
//! - `search_errors {query?, repo?, lang?, type?, tag?, limit?}`: records by message text and
//!   filters;
//! - `get_error {key, facts?}`: one record by id or slug, with its facts when asked.
//!
//! Answers are structured JSON (with the same JSON as text for clients that read text only).
//! A bad argument or an unknown record is a tool error the agent can read, not a protocol
//! error.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt};
use serde_json::{json, Value};

use crate::http::Service;

/// The MCP server.
pub struct ErrataMcp {
    service: Arc<Service>,
}

impl ErrataMcp {
    pub fn new(service: Arc<Service>) -> ErrataMcp {
        ErrataMcp { service }
    }

    /// Serves on stdin and stdout until the client closes them. A line that is no JSON is
    /// answered with JSON-RPC's parse error (-32700) and the session goes on; the MCP
    /// transport alone would drop it without a word.
    pub async fn serve_stdio(self) -> std::io::Result<()> {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
        let (to_server, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, from_server) = tokio::io::duplex(1 << 16);
        let (lines, mut out) = tokio::sync::mpsc::channel::<String>(64);
        // One writer of stdout, whole lines at a time.
        let writer = tokio::spawn(async move {
            let mut stdout = tokio::io::stdout();
            while let Some(line) = out.recv().await {
                stdout.write_all(line.as_bytes()).await?;
                stdout.flush().await?;
            }
            std::io::Result::Ok(())
        });
        let answers = lines.clone();
        tokio::spawn(async move {
            let mut from_server = BufReader::new(from_server);
            let mut line = String::new();
            while from_server.read_line(&mut line).await.unwrap_or(0) > 0 {
                if answers.send(std::mem::take(&mut line)).await.is_err() {
                    break;
                }
            }
        });
        tokio::spawn(async move {
            let mut to_server = to_server;
            let mut stdin = BufReader::new(tokio::io::stdin());
            let mut line = String::new();
            while stdin.read_line(&mut line).await.unwrap_or(0) > 0 {
                let text = line.trim();
                if !text.is_empty() && serde_json::from_str::<serde::de::IgnoredAny>(text).is_err()
                {
                    let error = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {
                        "code": -32700,
                        "message": "Parse error: each line must be one JSON-RPC message"}});
                    if lines.send(format!("{error}\n")).await.is_err() {
                        break;
                    }
                } else if to_server.write_all(line.as_bytes()).await.is_err() {
                    break;
                }
                line.clear();
            }
        });
        let running = self
            .serve((server_in, server_out))
            .await
            .map_err(std::io::Error::other)?;
        running.waiting().await.map_err(std::io::Error::other)?;
        writer.await.map_err(std::io::Error::other)??;
        Ok(())
    }

    fn explain(&self, args: &JsonObject) -> Result<Value, String> {
        let text = str_arg(args, "text")?.ok_or(
            "`text` is required: the error message, log excerpt or stack trace to explain",
        )?;
        if text.trim().is_empty() {
            return Err("`text` is empty: pass the error message, log line or stack trace".into());
        }
        let limit = limit_arg(args, 5)?;
        let answer = self
            .service
            .explain(text, limit)
            .map_err(|e| e.to_string())?;
        serde_json::to_value(&answer).map_err(|e| e.to_string())
    }

    fn search(&self, args: &JsonObject) -> Result<Value, String> {
        let error_type = str_arg(args, "type")?.map(str::to_owned);
        if let Some(t) = &error_type {
            if errata_model::ErrorType::parse(t).is_none() {
                return Err(errata_model::ErrorType::unknown(t));
            }
        }
        let filter = errata_store::Filter {
            text: str_arg(args, "query")?.map(str::to_owned),
            repo: str_arg(args, "repo")?.map(str::to_owned),
            lang: str_arg(args, "lang")?.map(str::to_owned),
            error_type,
            tag: str_arg(args, "tag")?.map(str::to_owned),
            limit: Some(limit_arg(args, 10)? as u64),
            offset: None,
        };
        self.service
            .with_store(|store| {
                let (total, results) = store.page(&filter)?;
                Ok(json!({"total": total, "results": results}))
            })
            .map_err(|e| e.to_string())
    }

    fn get(&self, args: &JsonObject) -> Result<Value, String> {
        let key = str_arg(args, "key")?.ok_or("`key` is required: a record id or slug")?;
        let with_facts = matches!(args.get("facts"), Some(Value::Bool(true)));
        let found = self
            .service
            .with_store(|store| {
                let Some(r) = store.find(key)?.into_iter().next() else {
                    return Ok(None);
                };
                let facts = if with_facts {
                    store.explained_one(&r.id)?.map(|e| e.facts)
                } else {
                    None
                };
                Ok(Some((r, facts)))
            })
            .map_err(|e| e.to_string())?;
        match found {
            Some((r, Some(facts))) => Ok(json!({
                "record": r,
                "facts": serde_json::from_str::<Value>(&facts).unwrap_or(Value::Null),
            })),
            Some((r, None)) => serde_json::to_value(r).map_err(|e| e.to_string()),
            None => Err(format!(
                "no record has the id or slug {key:?}; search_errors finds records by their text"
            )),
        }
    }
}

fn str_arg<'a>(args: &'a JsonObject, name: &str) -> Result<Option<&'a str>, String> {
    match args.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("`{name}` must be a string")),
    }
}

fn limit_arg(args: &JsonObject, default: usize) -> Result<usize, String> {
    match args.get("limit") {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .map(|n| (n as usize).clamp(1, 50))
            .ok_or_else(|| "`limit` must be a positive integer".to_owned()),
    }
}

fn schema(v: Value) -> Arc<JsonObject> {
    Arc::new(v.as_object().cloned().unwrap_or_default())
}

/// The tools, as `tools/list` gives them.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "explain_error",
            "Find the source of a runtime error: give an error message, a log line or a whole \
             stack trace; get the records (file, line, permalink, source, explanation) that \
             produced it, best first, with the values its placeholders took.",
            schema(json!({
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "the error message, log excerpt or stack trace"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "records to return (default 5)"}
                },
                "required": ["text"]
            })),
        ),
        Tool::new(
            "search_errors",
            "Search the error records of the indexed code by message text and filters.",
            schema(json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "text the message contains, in any case"},
                    "repo": {"type": "string", "description": "OWNER/NAME"},
                    "lang": {"type": "string", "description": "typescript, javascript, python, go, rust or java"},
                    "type": {"type": "string", "description": "exception, error-return, panic, assertion, http, log or exit"},
                    "tag": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "default 10"}
                }
            })),
        ),
        Tool::new(
            "get_error",
            "One error record, by its id or slug; with facts: true, {record, facts}: the conditions under which it is raised, the state they read and where it is written, the callers and the handlers, as static analysis found them.",
            schema(json!({
                "type": "object",
                "properties": {
                    "key": {"type": "string", "description": "a record id (16 hex digits) or slug"},
                    "facts": {"type": "boolean", "description": "also return the facts the explanation was written from"}
                },
                "required": ["key"]
            })),
        ),
    ]
}

impl ServerHandler for ErrataMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("errata", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "errata knows every place the indexed code raises an error. When an error shows \
                 up, call explain_error with its text (a stack trace helps pick the right \
                 record); use search_errors and get_error to browse.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.unwrap_or_default();
        let answer = match request.name.as_ref() {
            "explain_error" => self.explain(&args),
            "search_errors" => self.search(&args),
            "get_error" => self.get(&args),
            other => {
                return Err(McpError::invalid_params(
                    format!(
                    "no tool {other:?}; the tools are explain_error, search_errors and get_error"
                ),
                    None,
                ))
            }
        };
        Ok(match answer {
            Ok(value) => CallToolResult::structured(value),
            Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
        }
        .into())
    }
}
